"""Noticing other processes: what they committed to the workspace, and whether a window is open.

Two windows (or a window and ``casefile import``) may share one workspace. Each window polls
:class:`CommitWatch` about once a second — one indexed query — and reloads when another process
committed; :class:`Presence` tells it another Casefile window has the workspace open. Both work
without Qt; the window's timer is in ``casefile.ui.watch``.

How commits are seen: every service action writes one ``change_log`` row in its transaction, so
``(max(change_log.id), count of recent rows)`` changes with every commit, on SQLite and on
PostgreSQL alike (the count catches a PostgreSQL transaction that took a lower id but committed
later; the max catches a case deleted with its rows while a new row came in). Rows this
workspace object's own engine committed are counted as they are written, so a window does not
reload after its own actions (it already refreshed from their ``Changes``).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.engine import Connection, Engine

from casefile.store.workspace import Workspace

#: Rows below the newest id at start that are still recounted (a PostgreSQL transaction may take
#: its id before another commits a higher one, and become visible after it).
LATE_WINDOW = 10_000

_MARKER_SQL = text("SELECT count(*), coalesce(max(id), 0) FROM change_log WHERE id > :floor")
_MAX_SQL = text("SELECT coalesce(max(id), 0) FROM change_log")
_NEW_ROWS_SQL = text("SELECT l.case_id, l.item_id, i.id FROM change_log AS l "
                     "LEFT JOIN items AS i ON i.id = l.item_id WHERE l.id > :after")


@dataclass(frozen=True)
class ForeignCommits:
    """What other processes committed since the last poll, read from the new change-log rows.

    ``cases``: ids of the cases concerned (None in the set for rows tied to no case).
    ``present`` / ``gone``: ids of the items the rows name that exist now / no longer exist.
    All three may be empty when the change was seen only in the row count (a late commit).
    """

    cases: frozenset[int | None] = frozenset()
    present: frozenset[int] = frozenset()
    gone: frozenset[int] = frozenset()


@dataclass
class _OwnRows:
    """Change-log rows committed through one engine (this process's own actions)."""

    committed: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


class CommitWatch:
    """Tells whether anything was committed to the workspace by someone else since last asked.

    ``CommitWatch(workspace)`` takes the current state as seen; each :meth:`poll` returns None
    when nothing new was committed by others, else a :class:`ForeignCommits`. "Others" are
    every connection not made by ``workspace``'s engine: another process, or another Workspace
    object in this one. When this engine and another commit between two polls, the poll reports
    the change (a spare reload, never a missed one). Call :meth:`close` to stop counting.

    Raises sqlalchemy DBAPIError from :meth:`poll` when the database cannot be read (locked for
    longer than the busy timeout, connection lost); the caller may simply poll again later.
    """

    def __init__(self, workspace: Workspace) -> None:
        self.engine: Engine = workspace.engine
        self._own = _OwnRows()
        self._listeners: list[tuple[str, Any]] = [
            ("after_cursor_execute", self._on_execute),
            ("commit", self._on_commit),
            ("rollback", self._on_rollback),
        ]
        for name, fn in self._listeners:
            event.listen(self.engine, name, fn)
        self.rebase()

    def rebase(self) -> None:
        """Take the current state as seen (as at creation): after the database's content was
        replaced (a restored backup), whose change log may be shorter than the one seen."""
        with self.engine.connect() as conn:
            newest = int(conn.execute(_MAX_SQL).scalar_one())
            self._floor = max(newest - LATE_WINDOW, 0)
            self._count, self._max = self._marker(conn)
        self._own_seen = self._own_committed()

    # -- counting this engine's own rows ---------------------------------------------------------

    @staticmethod
    def _on_execute(conn: Connection, cursor: Any, statement: str, _params: Any,
                    _context: Any, _executemany: bool) -> None:
        if statement.lstrip()[:23].upper().startswith("INSERT INTO CHANGE_LOG"):
            rows = cursor.rowcount if cursor.rowcount and cursor.rowcount > 0 else 1
            conn.info["casefile_logged"] = conn.info.get("casefile_logged", 0) + rows

    def _on_commit(self, conn: Connection) -> None:
        rows = conn.info.pop("casefile_logged", 0)
        if rows:
            with self._own.lock:
                self._own.committed += rows

    @staticmethod
    def _on_rollback(conn: Connection) -> None:
        conn.info.pop("casefile_logged", None)

    def _own_committed(self) -> int:
        with self._own.lock:
            return self._own.committed

    # -- polling ---------------------------------------------------------------------------------

    def _marker(self, conn: Connection) -> tuple[int, int]:
        count, newest = conn.execute(_MARKER_SQL, {"floor": self._floor}).one()
        return int(count), int(newest)

    def poll(self) -> ForeignCommits | None:
        """None when only this engine (or nobody) committed since the last poll; else what the
        others' new change-log rows name. One indexed query when nothing changed."""
        own = self._own_committed()  # before the query: a commit in between is reported
        with self.engine.connect() as conn:
            count, newest = self._marker(conn)
            own_rows = own - self._own_seen
            foreign = (count - self._count != own_rows) or (newest != self._max and not own_rows)
            if not foreign:
                self._count, self._max, self._own_seen = count, newest, own
                return None
            rows = conn.execute(_NEW_ROWS_SQL, {"after": self._max}).all()
        self._count, self._max, self._own_seen = count, newest, own
        return ForeignCommits(
            cases=frozenset(r[0] for r in rows),
            present=frozenset(r[1] for r in rows if r[1] is not None and r[2] is not None),
            gone=frozenset(r[1] for r in rows if r[1] is not None and r[2] is None),
        )

    def close(self) -> None:
        """Stop counting this engine's commits."""
        for name, fn in self._listeners:
            if event.contains(self.engine, name, fn):
                event.remove(self.engine, name, fn)


#: A presence file not refreshed for this long (seconds) belongs to a window that is gone.
STALE_AFTER = 20.0
PRESENCE_DIR = "open-windows"


class Presence:
    """One open window's mark in a SQLite workspace folder, and the marks of the others.

    :meth:`announce` writes ``<folder>/open-windows/<host>-<pid>-<token>.json`` (host, pid,
    time); :meth:`refresh` touches it (call it every few seconds); :meth:`others` lists the other
    windows' marks that are live: refreshed within :data:`STALE_AFTER` seconds and, on this
    host, of a running process. Stale marks are removed. :meth:`withdraw` removes this window's
    mark. A PostgreSQL workspace has no folder: nothing is written and :meth:`others` is empty
    (a second window is not announced in team mode; its commits are still seen by
    :class:`CommitWatch`). File errors (a read-only folder) are ignored: presence is a courtesy.
    """

    def __init__(self, workspace: Workspace | Path) -> None:
        # a folder: only to read the marks there (e.g. before encrypting the workspace)
        folder = workspace if isinstance(workspace, Path) else workspace.folder
        self.folder: Path | None = folder / PRESENCE_DIR if folder is not None else None
        self.host = socket.gethostname()
        self.pid = os.getpid()
        self.name = f"{_safe(self.host)}-{self.pid}-{uuid.uuid4().hex[:8]}.json"
        self.announced = False

    @property
    def path(self) -> Path | None:
        """This window's presence file (None on PostgreSQL)."""
        return self.folder / self.name if self.folder is not None else None

    def announce(self) -> None:
        """Write this window's presence file."""
        if self.path is None:
            return
        try:
            from casefile.store.private import make_private_dir, open_private

            make_private_dir(self.path.parent)
            fd = open_private(self.path)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(json.dumps({"host": self.host, "pid": self.pid,
                                     "since": time.time()}))
            self.announced = True
        except OSError:
            self.announced = False

    def refresh(self) -> None:
        """Mark this window as still open (rewrites the file if someone removed it)."""
        if self.path is None or not self.announced:
            return
        try:
            os.utime(self.path)
        except OSError:
            self.announce()

    def others(self, now: float | None = None) -> list[dict[str, Any]]:
        """The live presence records of the other windows (``{"host", "pid", "since"}``)."""
        if self.folder is None:
            return []
        now = time.time() if now is None else now
        found = []
        for entry in _listing(self.folder):
            if entry.name == self.name or entry.suffix != ".json":
                continue
            try:
                age = now - entry.stat().st_mtime
                record = json.loads(entry.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if not isinstance(record, dict) or age > STALE_AFTER or (
                    record.get("host") == self.host and not _running(record.get("pid"))):
                _remove(entry)
                continue
            found.append(record)
        return found

    def withdraw(self) -> None:
        """Remove this window's presence file."""
        if self.path is not None and self.announced:
            _remove(self.path)
            self.announced = False


def _safe(host: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in host)[:40] or "host"


def _listing(folder: Path) -> Iterable[Path]:
    try:
        return list(folder.iterdir())
    except OSError:
        return []


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink(missing_ok=True)


def _running(pid: object) -> bool:
    """True when a process with this id runs on this host (or it cannot be told)."""
    if not isinstance(pid, int) or pid <= 0:
        return False
    if os.name != "posix":
        return True  # no cheap check: the file's age decides
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, owned by another user
        return True
    return True
