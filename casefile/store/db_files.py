"""Who holds which database file in this process: the one way to connect to a SQLite file and
the one way to look at a database file from outside SQLite.

Why this exists. POSIX advisory locks belong to a process and a file, not to a descriptor:
closing *any* descriptor of a file drops every lock the process holds on it. SQLite's unix VFS
knows its own descriptors (a connection closed while another connection of the same library
holds locks keeps its descriptor open until they are released), but it cannot know about a
descriptor opened by a second SQLite library in the process (the standard ``sqlite3`` beside
``sqlcipher3``, each with its own copy of SQLite) or by a plain ``open()``. Once a process has
silently lost its locks, another process closing its last connection believes itself the last
user of the database, checkpoints and *deletes* the ``-wal`` and ``-shm`` files; from then on
the two processes work on different copies of the data and one of them loses everything it
writes (sqlite.org, "How To Corrupt An SQLite Database File", sections 2.2 and 2.3).

The rules this module enforces (ARCHITECTURE.md, "One workspace, many processes"):

* every connection to a database file is made by :func:`connect` (engines pass
  :func:`connection_factory` as the DB-API ``factory``), which records the file as held by that
  library until the connection closes, and refuses with :class:`SecondLibraryError` a
  connection through another library while one is open;
* a database file's first bytes are read only by :func:`is_encrypted_file`, which answers from
  what it recorded when the file was first claimed while any connection holds it, and opens
  the file itself only when none does (under the same lock as the claims, so no connection can
  open in between);
* code that must touch a database file with plain file operations (overwriting a plain copy
  after encryption) first calls :func:`ensure_free`.

Paths are compared by ``os.path.realpath``. ``:memory:`` and empty names are not files and are
not recorded.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from casefile.errors import CasefileError

#: The first 16 bytes of every plain SQLite database file (sqlite.org/fileformat.html 1.3.1).
SQLITE_HEADER = b"SQLite format 3\x00"
#: The smallest page size of SQLite and SQLCipher: an encrypted file is whole pages.
MIN_PAGE = 512


class SecondLibraryError(CasefileError):
    """A connection through one SQLite library was asked for a file that another SQLite library
    of this process holds open (which would drop the first one's locks)."""


class FileHeldError(CasefileError):
    """A database file was to be opened outside SQLite while a connection of this process holds
    it (which would drop that connection's locks)."""


@dataclass
class _Holding:
    library: str
    connections: int
    #: what the file was when first claimed (True: no plain SQLite header, whole pages);
    #: a keyed connection marks it True
    encrypted: bool


_lock = threading.RLock()
_held: dict[str, _Holding] = {}


def _key(path: str | os.PathLike[str]) -> str | None:
    name = os.fspath(path)
    if not name or name == ":memory:" or name.startswith("file:"):
        return None
    return os.path.realpath(name)


def _read_verdict(key: str) -> bool:
    """True when the file at ``key`` looks encrypted (see :func:`is_encrypted_file`). Called
    with the lock held and only for a file no connection of this process holds."""
    try:
        with open(key, "rb") as fh:
            head = fh.read(len(SQLITE_HEADER))
            size = os.fstat(fh.fileno()).st_size
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return False
    except OSError as exc:
        raise CasefileError(f"cannot read {key}: {exc.strerror or exc}") from exc
    return head != SQLITE_HEADER and size > 0 and size % MIN_PAGE == 0


def claim(path: str | os.PathLike[str], library: str) -> None:
    """Record one more connection of ``library`` (``"sqlite3"`` or ``"sqlcipher3"``) to the
    file ``path``. Raises SecondLibraryError when another library holds it."""
    key = _key(path)
    if key is None:
        return
    with _lock:
        held = _held.get(key)
        if held is None:
            _held[key] = _Holding(library, 1, _read_verdict(key))
            return
        if held.library != library:
            raise SecondLibraryError(
                f"{key} is open through {held.library} in this process; opening it through "
                f"{library} as well would drop its locks")
        held.connections += 1


def release(path: str | os.PathLike[str]) -> None:
    """Record that one connection to ``path`` closed."""
    key = _key(path)
    if key is None:
        return
    with _lock:
        held = _held.get(key)
        if held is None:
            return
        held.connections -= 1
        if held.connections <= 0:
            del _held[key]


def mark_encrypted(path: str | os.PathLike[str]) -> None:
    """Record that a connection holding ``path`` opened it with a key (a new encrypted file
    has no bytes yet when it is first claimed)."""
    key = _key(path)
    if key is None:
        return
    with _lock:
        held = _held.get(key)
        if held is not None:
            held.encrypted = True


def holder(path: str | os.PathLike[str]) -> str | None:
    """The library holding ``path`` open in this process (``"sqlite3"``/``"sqlcipher3"``), or
    None."""
    key = _key(path)
    with _lock:
        held = _held.get(key) if key is not None else None
        return held.library if held is not None else None


def is_encrypted_file(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` looks like a SQLCipher database: it does not start with the SQLite
    header and is made of whole pages (a non-zero multiple of 512 bytes, the smallest page
    size). False for a plain database, an empty or missing file, and other files (which then
    fail to open as "not a database"). While a connection of this process holds the file the
    answer is the one recorded then, and the file is not opened. Raises CasefileError when
    the file cannot be read."""
    key = _key(path)
    if key is None:
        return False
    with _lock:
        held = _held.get(key)
        if held is not None:
            return held.encrypted
        return _read_verdict(key)


def ensure_free(path: str | os.PathLike[str]) -> None:
    """Raise FileHeldError when a connection of this process holds ``path``: call before
    opening a database file with plain file operations."""
    library = holder(path)
    if library is not None:
        raise FileHeldError(f"{path} is open through {library} in this process; it cannot be "
                            "changed outside SQLite now")


_factories: dict[str, type] = {}


def connection_factory(module: ModuleType) -> type:
    """The DB-API connection class of ``module`` (the standard ``sqlite3`` or
    ``sqlcipher3.dbapi2``) that claims its file before SQLite opens it and releases it when
    closed (or collected): pass it as ``factory=`` to ``module.connect``."""
    library = "sqlcipher3" if module.__name__.startswith("sqlcipher3") else "sqlite3"
    made = _factories.get(library)
    if made is not None:
        return made
    base: Any = module.Connection

    class HeldConnection(base):
        """A connection whose file is recorded as held (see the module docstring)."""

        def __init__(self, database: Any, *args: Any, **kwargs: Any) -> None:
            self._held_path: str | None = None
            name = os.fspath(database) if isinstance(database, str | os.PathLike) else ""
            claim(name, library)
            try:
                super().__init__(database, *args, **kwargs)
            except BaseException:
                release(name)
                raise
            self._held_path = name

        def close(self) -> None:
            try:
                super().close()
            finally:
                name, self._held_path = self._held_path, None
                if name is not None:
                    release(name)

        def __del__(self) -> None:
            if getattr(self, "_held_path", None) is not None:
                self.close()

    HeldConnection.__name__ = HeldConnection.__qualname__ = f"Held{library.title()}Connection"
    _factories[library] = HeldConnection
    return HeldConnection


def connect(path: str | Path, module: ModuleType | None = None, **kwargs: Any) -> Any:
    """A DB-API connection to the file ``path`` through ``module`` (default: the standard
    ``sqlite3``), recorded as held until it is closed (see :func:`connection_factory`).
    Keyword arguments go to ``module.connect``. Raises SecondLibraryError when another library
    of this process holds the file."""
    mod = module or sqlite3
    return mod.connect(str(path), factory=connection_factory(mod), **kwargs)
