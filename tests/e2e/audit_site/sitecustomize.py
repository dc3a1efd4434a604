"""An audit hook for every Python process started with this folder on ``PYTHONPATH`` (the
no-network test puts it there, so the CLI and the import workers it starts all carry it).

It records, one JSON line per event in the file named by ``CASEFILE_AUDIT_LOG``:

* any socket connection or name lookup (``socket.connect``, ``socket.getaddrinfo``,
  ``socket.gethostbyname``…), which it then refuses by raising ``PermissionError``;
* any file opened for writing, created, renamed, moved or removed outside the roots listed in
  ``CASEFILE_AUDIT_ALLOW`` (``os.pathsep``-separated absolute paths).

Writes made by native code (SQLite, onnxruntime) raise no audit event; the test looks at the
file system for those.
"""

from __future__ import annotations

import json
import os
import sys

_LOG = os.environ.get("CASEFILE_AUDIT_LOG")
_ALLOW = tuple(os.path.realpath(p) for p in os.environ.get("CASEFILE_AUDIT_ALLOW", "").split(
    os.pathsep) if p)
_NETWORK = {"socket.connect", "socket.getaddrinfo", "socket.gethostbyname",
            "socket.gethostbyname_ex", "socket.gethostbyaddr", "socket.getnameinfo",
            "socket.sendto", "urllib.Request", "http.client.connect"}
_PATH_EVENTS = {"os.mkdir": (0,), "os.rename": (0, 1), "os.remove": (0,), "os.rmdir": (0,),
                "os.symlink": (1,), "os.link": (1,), "os.truncate": (0,), "shutil.copyfile": (1,),
                "shutil.move": (1,), "shutil.rmtree": (0,)}
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
_busy = False


def _outside(path: object) -> str | None:
    """The real path of ``path`` when it lies outside every allowed root, else None."""
    if isinstance(path, int):
        return None  # an already open descriptor: its opening was checked
    try:
        text = os.fsdecode(path)  # type: ignore[arg-type]
    except TypeError:
        return None
    if not text or text.startswith("/dev/") or "__pycache__" in text:
        return None
    real = os.path.realpath(text)
    for root in _ALLOW:
        if real == root or real.startswith(root + os.sep):
            return None
    return real


def _writes(mode: object, flags: object) -> bool:
    if isinstance(mode, str):
        return any(c in mode for c in "wax+")
    return isinstance(flags, int) and bool(flags & _WRITE_FLAGS)


def _record(event: str, detail: str) -> None:
    global _busy
    _busy = True
    try:
        with open(_LOG, "a", encoding="utf-8") as out:  # type: ignore[arg-type]
            out.write(json.dumps({"pid": os.getpid(), "event": event, "detail": detail}) + "\n")
    finally:
        _busy = False


def _hook(event: str, args: tuple) -> None:
    if _busy or not _LOG:
        return
    if event in _NETWORK:
        _record(event, repr(args)[:300])
        raise PermissionError(f"no network in this test ({event})")
    if event == "open" and len(args) >= 3 and _writes(args[1], args[2]):
        where = _outside(args[0])
        if where:
            _record("write", where)
    elif event in _PATH_EVENTS:
        for k in _PATH_EVENTS[event]:
            where = _outside(args[k]) if k < len(args) else None
            if where:
                _record(event, where)


if _LOG:
    sys.addaudithook(_hook)
