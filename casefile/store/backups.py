"""Backups of a SQLite workspace: taken with SQLite's backup API (consistent while other
connections write: WAL readers see one snapshot), checked, rotated, and restored.

Files: ``<folder>/backups/casefile-<YYYYmmddTHHMMSSffffff>-<reason>.sqlite3`` where reason is
``open`` (the window, shortly after it opens), ``periodic`` (the window, every few minutes
while there are changes), ``auto`` (the same, from before the two were told apart), ``manual``
(``casefile backup now``) or ``before-restore``; the ID is the part after ``casefile-``
without the suffix. The pre-upgrade copies (``...-rev<REVISION>.sqlite3``) are listed too and
never rotated away. An encrypted workspace's backups are encrypted with the same passphrase
(SQLCipher copies the pages as they are, keyed on both sides).

Each backup this module writes has its SHA-256 beside it in ``<backup name>.sha256`` (one
line in the format of ``sha256sum``: ``<64 hex digits>  <backup name>``), written atomically
after the copy passed its check and before the copy gets its name, so a named backup always
has one (a backup made by an older Casefile, or before an upgrade, may have none). A restore
compares it first and refuses a backup whose bytes changed.

An automatic backup whose bytes are those of the newest backup (nothing changed, say between
a quit and the next open) is dropped rather than kept twice. Rotation keeps, of the
automatic/manual backups (reasons in :data:`ROTATED`), the newest
:data:`KEEP_LAST`, the newest of each of the last :data:`KEEP_DAYS` days and the newest of each
of the last :data:`KEEP_WEEKS` weeks (Monday to Sunday, UTC). Backups taken before a restore or
before an upgrade are never rotated away.
Errors: CasefileError with one sentence.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from casefile.errors import CasefileError, NotFoundError
from casefile.store import db_files
from casefile.store.base import utcnow
from casefile.store.private import fsync_dir

KEEP_LAST = 10
KEEP_DAYS = 14
KEEP_WEEKS = 8
#: The suffix of the file that holds a backup's SHA-256 (after the backup's own name).
CHECKSUM_SUFFIX = ".sha256"
#: A ``.partial`` file older than this (seconds) is a backup that was killed midway.
STALE_PARTIAL_S = 3600
_NAME = re.compile(r"^casefile-(?P<stamp>\d{8}T\d{6}(?:\d{6})?)-(?P<reason>[a-z0-9-]+)\.sqlite3$")
ROTATED = ("open", "periodic", "auto", "manual")
#: Backups taken without being asked: one whose bytes are those of the newest backup is not
#: kept twice (it would only push an older state out of rotation).
AUTOMATIC = ("open", "periodic", "auto")
#: What each reason means, for a person choosing a backup (the window's restore dialog).
REASONS = {"open": "on opening the window", "periodic": "while working (every few minutes)",
           "auto": "automatic", "manual": "taken by hand (backup now)",
           "before-restore": "before a restore"}


@dataclass(frozen=True)
class Backup:
    """One backup file: ``id`` (for ``backup restore``), ``path``, ``taken`` (UTC, naive),
    ``reason`` ("open", "periodic", "auto", "manual", "before-restore", or "rev<REVISION>"
    before an upgrade), ``size`` in bytes."""

    id: str
    path: Path
    taken: datetime
    reason: str
    size: int

    @property
    def checksum_path(self) -> Path:
        """Where the backup's SHA-256 is recorded (the file may be missing: an older backup)."""
        return checksum_path(self.path)

    @property
    def why(self) -> str:
        """The reason in words: "before a restore", "before an upgrade (schema 0007)"…"""
        if self.reason.startswith("rev"):
            return f"before an upgrade (schema {self.reason.removeprefix('rev')})"
        return REASONS.get(self.reason, self.reason)


def backups_dir(db_path: Path) -> Path:
    """The backups folder beside the database file."""
    return db_path.parent / "backups"


def checksum_path(backup_path: Path) -> Path:
    """The file recording the SHA-256 of the backup file ``backup_path``."""
    return backup_path.with_name(backup_path.name + CHECKSUM_SUFFIX)


def file_sha256(path: Path) -> str:
    """The SHA-256 of the file ``path`` as 64 lowercase hex digits, read in 1 MiB blocks.
    Only for a backup file no SQLite connection of this process holds. Raises OSError."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def record_checksum(backup_path: Path, name: str | None = None) -> Path:
    """Write the SHA-256 of the backup file ``backup_path`` to its checksum file, atomically
    (a ``.partial`` written, flushed to disk, then renamed); ``name`` is the backup's final
    file name when ``backup_path`` is still its ``.partial`` copy. Call it again after a
    backup's bytes were rewritten on purpose (encrypted, re-keyed). Returns the checksum
    file's path. Raises CasefileError when it cannot be written."""
    name = name or backup_path.name
    target = backup_path.with_name(name + CHECKSUM_SUFFIX)
    partial = target.with_name(target.name + ".partial")
    from casefile.store.private import open_private

    try:
        line = f"{file_sha256(backup_path)}  {name}\n"
        fd = open_private(partial)  # owner-only, as every file of the workspace
        try:
            os.write(fd, line.encode("ascii"))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(partial, target)
        fsync_dir(target.parent)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise CasefileError(f"cannot record the checksum of the backup {name}: "
                            f"{exc.strerror or exc}") from exc
    return target


#: The largest checksum file read (one line: 64 hex digits, two spaces, the backup's name).
MAX_CHECKSUM_FILE = 4096


def recorded_checksum(backup: Backup) -> str | None:
    """The SHA-256 recorded for ``backup`` (64 hex digits), None when it has no checksum
    file (made by an older Casefile, or before an upgrade). Raises CasefileError when the
    checksum file exists but cannot be read or holds no SHA-256."""
    path = backup.checksum_path
    try:
        info = path.stat()
        # looked at before it is opened: a pipe would hang the read, a device never end it
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_CHECKSUM_FILE:
            raise CasefileError(f"backup {backup.id} cannot be checked: its checksum file "
                                f"{path.name} is not a small plain file; nothing was changed")
        text = path.read_text(encoding="ascii", errors="replace")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CasefileError(f"backup {backup.id} cannot be checked: its checksum file "
                            f"{path.name} does not read ({exc.strerror or exc}); nothing was "
                            f"changed") from exc
    m = re.match(r"\s*([0-9a-fA-F]{64})\b", text)
    if m is None:
        raise CasefileError(f"backup {backup.id} cannot be checked: its checksum file "
                            f"{path.name} holds no SHA-256; nothing was changed")
    return m.group(1).lower()


def verify_checksum(backup: Backup) -> bool:
    """Compare ``backup``'s bytes with its recorded SHA-256: True when they match, False when
    it has no recorded checksum (an older backup: check it with :func:`check_copy`). Raises
    CasefileError ("backup X is damaged: its checksum does not match; nothing was changed")
    when they differ, or when the checksum file or the backup cannot be read."""
    expected = recorded_checksum(backup)
    if expected is None:
        return False
    try:
        actual = file_sha256(backup.path)
    except OSError as exc:
        raise CasefileError(f"backup {backup.id} cannot be read ({exc.strerror or exc}); "
                            f"nothing was changed") from exc
    if actual != expected:
        raise CasefileError(f"backup {backup.id} is damaged: its checksum does not match; "
                            f"nothing was changed")
    return True


def list_backups(db_path: Path) -> list[Backup]:
    """Backups of the workspace database ``db_path``, newest first."""
    found = []
    folder = backups_dir(db_path)
    if not folder.is_dir():
        return []
    for path in folder.iterdir():
        m = _NAME.match(path.name)
        if not m or not path.is_file():
            continue
        stamp = m.group("stamp")
        taken = datetime.strptime(stamp, "%Y%m%dT%H%M%S%f" if len(stamp) > 15 else
                                  "%Y%m%dT%H%M%S")
        found.append(Backup(id=path.name.removeprefix("casefile-").removesuffix(".sqlite3"),
                            path=path, taken=taken, reason=m.group("reason"),
                            size=path.stat().st_size))
    return sorted(found, key=lambda b: (b.taken, b.id), reverse=True)


def _connect(path: Path, passphrase: str | None) -> Any:
    if passphrase is None:
        return db_files.connect(path, isolation_level=None)
    from casefile.store.encryption import connect_raw

    return connect_raw(path, passphrase)


def check_copy(path: Path, passphrase: str | None) -> dict[str, int]:
    """Open the database file ``path`` (with ``passphrase`` when encrypted), run
    ``integrity_check`` and count every ordinary table's rows; returns table -> rows. Raises
    CasefileError when it does not open, fails the check, or is no Casefile workspace."""
    try:
        conn = _connect(path, passphrase)
    except CasefileError as exc:
        raise CasefileError(f"the backup {path.name} does not open: {exc}") from exc
    try:
        result = [r[0] for r in conn.execute("PRAGMA integrity_check").fetchall()]
        if result != ["ok"]:
            raise CasefileError(f"the backup {path.name} fails its integrity check: {result[0]}")
        names = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' "
            "AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        if "alembic_version" not in names or "cases" not in names:
            raise CasefileError(f"the backup {path.name} is not a Casefile workspace")
        return {n: int(conn.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0])
                for n in names}
    except (sqlite3.DatabaseError, _cipher_error()) as exc:
        raise CasefileError(f"the backup {path.name} cannot be read: {exc}") from exc
    finally:
        conn.close()


def _cipher_error() -> type[Exception]:
    """sqlcipher3's DatabaseError when it is loaded (an encrypted workspace), else a stand-in."""
    import sys

    mod = sys.modules.get("sqlcipher3")
    return mod.DatabaseError if mod is not None else sqlite3.DatabaseError


def take_backup(dbapi_conn: Any, db_path: Path, passphrase: str | None,
                reason: str = "manual", now: datetime | None = None) -> Backup:
    """Copy the open workspace database (``dbapi_conn``, a driver connection outside a
    transaction: sqlite3, or keyed sqlcipher3 when ``passphrase`` is given) into a new backup
    with the backup API; the copy is checked (integrity_check), its SHA-256 recorded
    (:func:`record_checksum`), then it gets its name and older backups are rotated. Returns
    the new Backup; for an automatic ``reason`` (:data:`AUTOMATIC`) whose copy has the very
    bytes of the newest backup, that backup instead (the copy is dropped, an encrypted
    copy never matches). Raises CasefileError."""
    from casefile.store.private import create_private_file, make_private_dir

    folder = backups_dir(db_path)
    stamp = (now or utcnow()).strftime("%Y%m%dT%H%M%S%f")
    target = folder / f"casefile-{stamp}-{reason}.sqlite3"
    partial = target.with_name(target.name + ".partial")
    try:
        make_private_dir(folder)
        create_private_file(partial)  # mode 0600 before SQLite writes a byte into it
    except OSError as exc:
        raise CasefileError(f"cannot write in the backups folder {folder}: "
                            f"{exc.strerror or exc}") from exc
    dst = _connect(partial, passphrase)
    try:
        dbapi_conn.backup(dst)
    except Exception as exc:
        dst.close()
        partial.unlink(missing_ok=True)
        raise CasefileError(f"the backup failed: {exc}") from exc
    dst.close()
    try:
        check_copy(partial, passphrase)
        record_checksum(partial, target.name)  # no connection holds the copy now
        same = _same_as_newest(db_path, target) if reason in AUTOMATIC else None
    except CasefileError:
        partial.unlink(missing_ok=True)
        checksum_path(target).unlink(missing_ok=True)
        raise
    if same is not None:  # nothing changed: an older backup would only be rotated away
        partial.unlink(missing_ok=True)
        checksum_path(target).unlink(missing_ok=True)
        return same
    os.replace(partial, target)
    rotate(db_path, now)
    return next(b for b in list_backups(db_path) if b.path == target)


def _same_as_newest(db_path: Path, new: Path) -> Backup | None:
    """The newest rotated backup when its recorded SHA-256 is that of ``new`` (just recorded
    for its ``.partial`` copy): the same bytes. None otherwise, or when unsure."""
    rotated = [b for b in list_backups(db_path) if b.reason in ROTATED]
    if not rotated:
        return None
    newest = max(rotated, key=lambda b: (b.taken, b.id))
    try:
        mine = checksum_path(new).read_text(encoding="ascii").split()[0]
        theirs = recorded_checksum(newest)
    except (OSError, IndexError, CasefileError):
        return None
    return newest if theirs == mine else None


def retained(backups: list[Backup], now: datetime) -> set[Path]:
    """Which of ``backups`` (rotated ones, any order) rotation keeps at ``now`` (UTC, naive):
    the newest :data:`KEEP_LAST`, the newest of each of the last :data:`KEEP_DAYS` days (today
    and the 13 days before) and the newest of each of the last :data:`KEEP_WEEKS` weeks (this
    Monday-to-Sunday week and the 7 before). Returns their paths."""
    newest_first = sorted(backups, key=lambda b: (b.taken, b.id), reverse=True)
    keep = {b.path for b in newest_first[:KEEP_LAST]}
    today = now.date()
    first_day = today - timedelta(days=KEEP_DAYS - 1)
    first_week = today - timedelta(days=today.weekday() + 7 * (KEEP_WEEKS - 1))  # a Monday
    days: set[object] = set()
    weeks: set[object] = set()
    for b in newest_first:  # the first seen of a day (or week) is its newest
        day = b.taken.date()
        week = day - timedelta(days=day.weekday())
        if first_day <= day <= today and day not in days:
            days.add(day)
            keep.add(b.path)
        if first_week <= week and day <= today and week not in weeks:
            weeks.add(week)
            keep.add(b.path)
    return keep


def rotate(db_path: Path, now: datetime | None = None) -> list[Path]:
    """Delete the automatic/manual backups that :func:`retained` does not keep at ``now``
    (default: the current UTC time), each with its checksum file, and what backups killed
    midway left (``.partial`` files and checksum files without a backup, older than
    :data:`STALE_PARTIAL_S`); returns the paths removed."""
    now = now or utcnow()
    rotated = [b for b in list_backups(db_path) if b.reason in ROTATED]
    keep = retained(rotated, now)
    removed = []
    for b in rotated:
        if b.path not in keep:
            b.path.unlink(missing_ok=True)  # the backup first: never one without its checksum
            b.checksum_path.unlink(missing_ok=True)
            removed.append(b.path)
    # what a backup killed midway left (one being written now is younger than this)
    folder = backups_dir(db_path)
    leftovers = [*folder.glob("casefile-*.sqlite3.partial"),
                 *folder.glob(f"casefile-*.sqlite3{CHECKSUM_SUFFIX}.partial"),
                 *(p for p in folder.glob(f"casefile-*.sqlite3{CHECKSUM_SUFFIX}")
                   if not p.with_name(p.name.removesuffix(CHECKSUM_SUFFIX)).exists())]
    for leftover in leftovers:
        try:
            if leftover.stat().st_mtime < time.time() - STALE_PARTIAL_S:
                leftover.unlink()
                removed.append(leftover)
        except OSError:
            pass
    return removed


def find_backup(db_path: Path, backup_id: str) -> Backup:
    """The backup with ``backup_id`` (as listed). Raises NotFoundError."""
    for b in list_backups(db_path):
        if b.id == backup_id:
            return b
    raise NotFoundError(f"no backup {backup_id!r}; see: casefile backup list")


@dataclass(frozen=True)
class Restored:
    """What :func:`restore_backup` did: the backup restored, the backup of the state before,
    table -> rows now (equal to the backup's), and ``note``: one sentence when the backup had
    no recorded checksum (restored after its integrity check alone), else None."""

    restored: Backup
    before: Backup
    tables: dict[str, int]
    note: str | None = None


#: Called as ``progress(done, total)`` with total 100 (percent); may raise to stop.
Progress = Callable[[int, int], None]


def restore_backup(dbapi_conn: Any, db_path: Path, passphrase: str | None,
                   backup_id: str, progress: Progress | None = None) -> Restored:
    """Put the content of backup ``backup_id`` back into the open workspace database
    (``dbapi_conn`` as for :func:`take_backup`): the backup is checked first (its recorded
    SHA-256, then: opens, integrity_check, is a workspace; nothing is touched otherwise; a
    backup without a recorded checksum is restored after the rest of the check, with a
    ``note``), the current state is
    backed up ("before-restore"), then the backup API copies the backup over the live
    database in one write transaction (other connections see it at their next transaction)
    and the row counts are compared.

    ``progress(done, total)`` (total 100) is told after the check (20), after the backup of
    the current state (40) and along the copy (40..100). An exception it raises stops the
    restore and propagates; raised during the copy, the copy's transaction is rolled back, so
    the workspace is as it was either way. Raises NotFoundError, CasefileError."""
    tell = progress or (lambda _done, _total: None)
    chosen = find_backup(db_path, backup_id)
    verified = verify_checksum(chosen)
    counts = check_copy(chosen.path, passphrase)
    note = None if verified else (
        f"backup {chosen.id} has no recorded checksum (made by an older Casefile or before an "
        f"upgrade); it passed its integrity check")
    tell(20, 100)
    before = take_backup(dbapi_conn, db_path, passphrase, "before-restore")
    tell(40, 100)
    src = _connect(chosen.path, passphrase)

    def copied(_status: int, remaining: int, total: int) -> None:
        tell(40 + (60 * (total - remaining)) // max(total, 1), 100)

    step = max(16, chosen.size // 4096 // 50)  # pages: about 50 steps (4 KiB pages)
    try:  # in steps (for progress); the destination stays locked until the last one
        src.backup(dbapi_conn, pages=step, progress=copied, sleep=0.05)
    except (sqlite3.DatabaseError, _cipher_error()) as exc:  # rolled back: nothing changed
        raise CasefileError(f"the restore could not write the workspace ({exc}); nothing was "
                            f"changed") from exc
    finally:
        src.close()
    now = {n: int(dbapi_conn.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0])
           for n in counts}
    if now != counts:
        raise CasefileError(f"the restore gave other row counts than backup {backup_id}; the "
                            f"state before is in backup {before.id}")
    return Restored(restored=chosen, before=before, tables=now, note=note)
