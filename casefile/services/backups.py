"""Backups as user actions on an open SQLite workspace: list, back up now, restore (the CLI's
``casefile backup`` and the window call these). See :mod:`casefile.store.backups`."""

from __future__ import annotations

from pathlib import Path

from casefile.errors import CasefileError
from casefile.store import backups
from casefile.store.backups import Backup, Progress, Restored
from casefile.store.workspace import Workspace, database_path, upgrade


def _db(ws: Workspace) -> Path:
    path = database_path(ws.url)
    if path is None:
        raise CasefileError("backups are for workspace folders; back up a database server "
                            "with its own tools (pg_dump)")
    return path


def list_backups(ws: Workspace) -> list[Backup]:
    """The workspace's backups, newest first."""
    return backups.list_backups(_db(ws))


def backup_now(ws: Workspace, reason: str = "manual") -> Backup:
    """Take a backup of ``ws`` now (consistent while others write), checked and rotated."""
    path = _db(ws)
    raw = ws.engine.raw_connection()
    try:
        return backups.take_backup(raw.driver_connection, path, ws.passphrase, reason)
    finally:
        raw.close()


def restore(ws: Workspace, backup_id: str, progress: Progress | None = None) -> Restored:
    """Restore backup ``backup_id`` into ``ws`` (checked first; the current state backed up
    first), then bring its schema to head. ``ws`` stays usable: its pooled connections are
    let go of and open afresh on the restored database. ``progress(done, total)`` as for
    :func:`casefile.store.backups.restore_backup` (it may raise to stop; nothing is changed
    then). Raises NotFoundError, CasefileError."""
    path = _db(ws)
    raw = ws.engine.raw_connection()
    try:
        done = backups.restore_backup(raw.driver_connection, path, ws.passphrase, backup_id,
                                      progress)
    finally:
        raw.close()
    ws.engine.dispose()  # pooled connections start afresh on the restored file
    upgrade(ws.engine, ws.passphrase)
    return done
