"""Encrypted workspaces: SQLCipher through the ``sqlcipher3`` binding (its wheels ship the
library, FTS5 and JSON built in), used through SQLAlchemy's ``sqlite+pysqlcipher`` dialect.

How an encrypted workspace is recognised: by its file, with no marker beside it. A plain SQLite
file begins with the 16 bytes ``SQLite format 3\\0``; a SQLCipher file begins with its random
salt and is encrypted from the first byte on, so a ``casefile.sqlite3`` without that header
that is made of whole pages is taken as encrypted (a damaged one is then reported as "wrong
passphrase, or damaged"; a file of any other size as "not a database"). Nothing about the
key is stored anywhere: the passphrase is held in memory by the open
:class:`~casefile.store.workspace.Workspace` (for its connections and backups) and SQLCipher
derives the key from it (PBKDF2-HMAC-SHA512, 256,000 iterations, about 0.3 s per
connection; connections are pooled).

``sqlcipher3`` is imported only here, lazily: a plain workspace never loads it.

Encrypting a workspace in place and changing its passphrase are resumable: see "encrypting in
place, resumably" below (a journal, ``encryption-journal.json``, exists only while such a run
is under way or was interrupted; it holds no secret).

Errors: :class:`WrongPassphraseError`, :class:`PassphraseNeededError`, CasefileError for the
rest (the binding missing, a file that cannot be read or written, a verification failure).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from casefile.errors import CasefileError
from casefile.store import db_files

# re-exported: what an encrypted file is, decided where database files are held
from casefile.store.db_files import MIN_PAGE as MIN_PAGE
from casefile.store.db_files import SQLITE_HEADER as SQLITE_HEADER
from casefile.store.db_files import is_encrypted_file as is_encrypted_file
from casefile.store.private import fsync_dir

#: The shortest passphrase accepted for a new workspace or a new passphrase.
MIN_PASSPHRASE = 8
#: Suffixes of the files SQLite keeps beside a database.
SIDE_SUFFIXES = ("-wal", "-shm", "-journal")


class PassphraseNeededError(CasefileError):
    """The workspace is encrypted and no passphrase was given."""

    def __init__(self, path: Path) -> None:
        self.path = path
        super().__init__(f"the workspace at {path.parent} is encrypted; give its passphrase "
                         "(asked in a terminal, or $CASEFILE_PASSPHRASE)")


class WrongPassphraseError(CasefileError):
    """The passphrase does not open the encrypted workspace (or the file is no workspace)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        note = "or its database file is damaged"
        journal = read_journal(path.parent) if path.name == "casefile.sqlite3" else None
        if journal is not None and journal.action == "passphrase":
            note = ("a change of passphrase was interrupted: it opens with the new one if "
                    "the database was done; finish with: casefile workspace passphrase")
        super().__init__(f"wrong passphrase for the encrypted workspace at {path.parent} "
                         f"({note})")


def check_new_passphrase(passphrase: str, confirmation: str | None = None) -> str:
    """``passphrase`` when it is acceptable for a new workspace (at least
    :data:`MIN_PASSPHRASE` characters, equal to ``confirmation`` when one is given); raises
    ValidationError otherwise."""
    from casefile.errors import ValidationError

    if confirmation is not None and passphrase != confirmation:
        raise ValidationError("the two passphrases differ; nothing was changed")
    if len(passphrase) < MIN_PASSPHRASE:
        raise ValidationError(f"a passphrase needs at least {MIN_PASSPHRASE} characters")
    return passphrase


def cipher_module() -> Any:
    """The ``sqlcipher3`` DB-API module, its log quietened (SQLCipher would otherwise print
    "hmac check failed" lines on stderr for a wrong key). Raises CasefileError when missing."""
    try:
        import sqlcipher3
    except ImportError as exc:
        raise CasefileError("encrypted workspaces need the sqlcipher3 package "
                            "(pip install sqlcipher3)") from exc
    if not getattr(sqlcipher3, "_casefile_quiet", False):
        conn = db_files.connect(":memory:", sqlcipher3)
        try:
            conn.execute("PRAGMA cipher_log_level = NONE")  # process-wide
        finally:
            conn.close()
        setattr(sqlcipher3, "_casefile_quiet", True)  # noqa: B010
    return sqlcipher3


def quote_key(passphrase: str) -> str:
    """``passphrase`` as an SQL string literal for ``PRAGMA key`` / ``rekey`` / ``ATTACH KEY``."""
    return "'" + passphrase.replace("'", "''") + "'"


def connect_raw(path: str | Path, passphrase: str | None) -> Any:
    """A plain ``sqlcipher3`` connection to ``path``, keyed with ``passphrase`` when given
    (None: a plain SQLite file). Autocommit (``isolation_level=None``). Raises
    WrongPassphraseError when the key does not open it."""
    mod = cipher_module()
    conn = db_files.connect(path, mod, isolation_level=None)
    if passphrase is not None:
        conn.execute(f"PRAGMA key = {quote_key(passphrase)}")
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except mod.DatabaseError as exc:
            conn.close()
            raise WrongPassphraseError(Path(path)) from exc
        db_files.mark_encrypted(path)
    return conn


def check_passphrase(path: str | Path, passphrase: str) -> None:
    """Raise WrongPassphraseError unless ``passphrase`` opens the encrypted file ``path``."""
    connect_raw(path, passphrase).close()


def engine_url(path: Path, passphrase: str) -> Any:
    """The SQLAlchemy URL (a ``URL`` object; its string form hides the passphrase) of the
    encrypted database ``path``."""
    from sqlalchemy.engine import URL

    cipher_module()
    return URL.create("sqlite+pysqlcipher", password=passphrase, database=str(path))


def backup_encrypted(dbapi_conn: Any, target: Path, passphrase: str) -> None:
    """Copy the open encrypted database ``dbapi_conn`` (a keyed ``sqlcipher3`` connection,
    outside a transaction) to ``target`` with SQLite's backup API; the copy is encrypted
    with the same passphrase."""
    dst = connect_raw(target, None)
    try:
        dst.execute(f"PRAGMA key = {quote_key(passphrase)}")
        dbapi_conn.backup(dst)
    finally:
        dst.close()


# --- checking a copy --------------------------------------------------------------------------


def _quote_name(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def table_digests(conn: Any) -> dict[str, tuple[int, str]]:
    """table name -> (row count, SHA-256 of every row in a fixed order), for every ordinary
    table of the connection's main database (virtual tables are covered by their shadow
    tables, which are ordinary ones)."""
    names = [r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' "
        "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    out: dict[str, tuple[int, str]] = {}
    for name in names:
        cols = conn.execute(f"PRAGMA table_info({_quote_name(name)})").fetchall()
        order = ", ".join(str(i + 1) for i in range(len(cols))) or "1"
        digest = hashlib.sha256()
        count = 0
        for row in conn.execute(f"SELECT * FROM {_quote_name(name)} ORDER BY {order}"):
            digest.update(repr(row).encode("utf-8", "surrogatepass"))
            count += 1
        out[name] = (count, digest.hexdigest())
    return out


def _fts_tables(conn: Any) -> list[str]:
    return [r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' "
        "AND sql LIKE 'CREATE VIRTUAL TABLE%USING fts5(%'")]


def check_database(conn: Any) -> None:
    """Raise CasefileError unless ``PRAGMA integrity_check`` is ok and every FTS5 index
    passes its own ``integrity-check``."""
    result = [r[0] for r in conn.execute("PRAGMA integrity_check").fetchall()]
    if result != ["ok"]:
        raise CasefileError(f"the copy failed its integrity check: {result[0]}")
    for name in _fts_tables(conn):
        try:
            conn.execute(f"INSERT INTO {_quote_name(name)}({_quote_name(name)}) "
                         "VALUES ('integrity-check')")
        except Exception as exc:
            raise CasefileError(f"the copy's search index {name} failed its check: {exc}") from exc


# --- encrypting in place, resumably -----------------------------------------------------------
#
# Every database file (the workspace's, each backup) is changed on its own and atomically: a
# new copy is written beside it under the new key (``NAME.encrypting``), checked table by
# table, given a second name for the old bytes (``NAME.replaced``, a hard link), renamed over
# ``NAME``, and then the old bytes are overwritten with zeros and removed. Killed at any point,
# each file is either wholly the old one or wholly the new one, and old bytes are never left
# without a name, so the next run finds them. Before the first file, a journal
# (``encryption-journal.json``) records what is being done and which files are still to do;
# it goes when all are done. ``inspect_folder`` reads the journal and the files' first bytes
# to say what an interrupted run left, and running the same action again finishes it
# (ARCHITECTURE.md, "Encryption that finishes").

#: The journal of an encryption or passphrase change under way (in the workspace folder).
JOURNAL_NAME = "encryption-journal.json"
#: The suffix of the new copy of a database file while it is written and checked.
COPY_SUFFIX = ".encrypting"
#: The suffix of the second name the old bytes keep until they are overwritten.
ASIDE_SUFFIX = ".replaced"
#: What each journal action is, in words.
ACTIONS = {"encrypt": "an encryption", "passphrase": "a change of passphrase"}


@dataclass(frozen=True)
class Journal:
    """An encryption (``action`` "encrypt") or passphrase change ("passphrase") under way or
    interrupted: ``pending`` the files still to do (paths relative to the workspace folder),
    ``started`` when (ISO 8601, UTC)."""

    action: str
    pending: tuple[str, ...]
    started: str


def journal_path(folder: Path) -> Path:
    """Where the journal of ``folder``'s encryption or passphrase change is kept."""
    return Path(folder) / JOURNAL_NAME


def read_journal(folder: Path) -> Journal | None:
    """The journal in ``folder``, None when there is none. A journal that does not read as
    one counts as an interrupted encryption with nothing known pending (the files are looked
    at anyway)."""
    import json

    path = journal_path(folder)
    try:
        raw = path.read_bytes()[:1 << 20]
    except FileNotFoundError:
        return None
    except OSError:
        return Journal("encrypt", (), "")
    try:
        data = json.loads(raw.decode("utf-8"))
        action = data["action"] if data.get("action") in ACTIONS else "encrypt"
        pending = tuple(str(p) for p in data.get("pending", ()) if isinstance(p, str))
        return Journal(action, pending, str(data.get("started", "")))
    except (ValueError, AttributeError, TypeError, KeyError):
        return Journal("encrypt", (), "")


def _write_journal(folder: Path, journal: Journal) -> None:
    """Write ``journal`` atomically (a temporary file flushed, renamed, the folder synced)."""
    import json

    from casefile.store.private import open_private

    target = journal_path(folder)
    tmp = target.with_name(target.name + ".partial")
    data = json.dumps({"action": journal.action, "pending": list(journal.pending),
                       "started": journal.started}, indent=1).encode("utf-8")
    try:
        fd = open_private(tmp)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
        fsync_dir(folder)
    except OSError as exc:
        raise CasefileError(f"cannot write {target}: {exc.strerror or exc}") from exc


def _clear_journal(folder: Path) -> None:
    journal_path(folder).unlink(missing_ok=True)
    journal_path(folder).with_name(JOURNAL_NAME + ".partial").unlink(missing_ok=True)
    fsync_dir(folder)


def _rel(folder: Path, path: Path) -> str:
    return path.relative_to(folder).as_posix()


def _sides(path: Path) -> list[Path]:
    return [path.with_name(path.name + s) for s in SIDE_SUFFIXES]


def _has_bytes(path: Path) -> bool:
    try:
        return path.is_file() and path.stat().st_size > 0
    except OSError:
        return False


def _is_plain(path: Path) -> bool:
    """True when ``path`` holds bytes that are not an encrypted database (a plain SQLite file,
    or anything else that may be readable); False for a missing or empty file."""
    return _has_bytes(path) and not is_encrypted_file(path)


def _backups(folder: Path) -> list[Path]:
    return sorted((folder / "backups").glob("*.sqlite3"))


@dataclass(frozen=True)
class EncryptionState:
    """What the files of a workspace folder say about its encryption (:func:`inspect_folder`).

    ``database_encrypted``: the workspace database is encrypted. ``unfinished``: "encrypt" or
    "passphrase" when such a run was interrupted (its journal is there, or plain files lie
    beside an encrypted database, or temporary copies are left), else None. ``plain``: the
    files that can be read without any passphrase and should not be there (only listed while
    ``unfinished`` is "encrypt" or the database is encrypted): the database, backups, half-made
    backups, their ``-wal``/``-journal`` files and the old bytes kept aside. ``old_key``: the
    files an interrupted passphrase change had not yet re-keyed. ``temporary``: encrypted
    copies an interrupted run was writing (removed by the next run)."""

    folder: Path
    database_encrypted: bool
    unfinished: str | None = None
    plain: tuple[Path, ...] = ()
    old_key: tuple[Path, ...] = ()
    temporary: tuple[Path, ...] = ()

    @property
    def encrypted(self) -> bool:
        """True when the workspace is encrypted and nothing is left to do."""
        return self.database_encrypted and self.unfinished is None

    def describe(self) -> str:
        """One sentence for a person: what was interrupted and what is left (or "encrypted",
        "not encrypted")."""
        if self.unfinished is None:
            return "encrypted" if self.database_encrypted else "not encrypted"
        if self.unfinished == "passphrase":
            return (f"a change of passphrase was interrupted: {len(self.old_key)} "
                    f"{_files(len(self.old_key))} may still be under the old passphrase; finish "
                    "it with: casefile workspace passphrase (the old passphrase, then the new "
                    "one)")
        if self.database_encrypted:
            what = "partly encrypted: an encryption was interrupted"
        else:
            what = "not encrypted: an encryption was interrupted before the database was done"
        left = (f"{len(self.plain)} {_files(len(self.plain))} can still be read without the "
                "passphrase") if self.plain else "no plain file is left"
        return (f"{what}; {left}; finish it with: casefile workspace encrypt"
                + (" (the same passphrase)" if self.database_encrypted else ""))


def _files(n: int) -> str:
    return "file" if n == 1 else "files"


def _leftovers(folder: Path) -> tuple[list[Path], list[Path]]:
    """(old bytes kept aside, temporary copies with their companions) in ``folder`` and its
    ``backups/``."""
    asides: list[Path] = []
    temporary: list[Path] = []
    for where in (folder, folder / "backups"):
        if not where.is_dir():
            continue
        for path in sorted(where.iterdir()):
            name = path.name
            if name.endswith(ASIDE_SUFFIX) or any(
                    name.endswith(ASIDE_SUFFIX + s) for s in SIDE_SUFFIXES):
                asides.append(path)
            elif name.endswith(COPY_SUFFIX) or any(
                    name.endswith(COPY_SUFFIX + s) for s in SIDE_SUFFIXES):
                temporary.append(path)
    return asides, temporary


def _plain_files(folder: Path, db_path: Path) -> list[Path]:
    """Every file in ``folder`` that an encryption must not leave readable (see
    :class:`EncryptionState`), found by its bytes."""
    found: list[Path] = []
    bases = [db_path, *_backups(folder),
             *sorted((folder / "backups").glob("*.sqlite3.partial"))]
    for base in bases:
        base_plain = _is_plain(base)
        if base_plain:
            found.append(base)
        for side in _sides(base):
            # a companion holds what its database holds (a WAL of an encrypted database is
            # encrypted page by page); one whose database is gone is not known to be safe
            if _has_bytes(side) and (base_plain or not _has_bytes(base)) and \
                    not side.name.endswith("-shm"):
                found.append(side)
    asides, temporary = _leftovers(folder)
    found.extend(p for p in asides if _has_bytes(p) and not p.name.endswith("-shm"))
    # journals and WALs whose database is gone (a copy removed while they stayed)
    for where in (folder, folder / "backups"):
        for suffix in ("-wal", "-journal"):  # a -shm holds no page of the database
            for side in sorted(where.glob(f"*{suffix}")):
                base = side.with_name(side.name.removesuffix(suffix))
                if side not in found and side not in asides and side not in temporary \
                        and _has_bytes(side) and not base.exists():
                    found.append(side)
    return found


def inspect_folder(folder: Path) -> EncryptionState:
    """What the workspace ``folder`` holds as to encryption (see :class:`EncryptionState`):
    reads the journal and the first 16 bytes of each database file (never of one this process
    holds: :func:`casefile.store.db_files.is_encrypted_file`). Creates and changes nothing.
    Raises CasefileError when a file cannot be read."""
    from casefile.store.workspace import DB_FILENAME

    folder = Path(folder)
    db_path = folder / DB_FILENAME
    encrypted = is_encrypted_file(db_path)
    journal = read_journal(folder)
    asides, temporary = _leftovers(folder)
    if journal is not None and journal.action == "passphrase":
        old = tuple(folder / p for p in journal.pending if (folder / p).is_file())
        return EncryptionState(folder, encrypted, "passphrase", tuple(
            p for p in asides if _has_bytes(p)), old, tuple(temporary))
    if not encrypted and journal is None and not temporary and not asides:
        return EncryptionState(folder, False)  # a plain workspace, no encryption begun
    plain = _plain_files(folder, db_path)
    if encrypted:
        unfinished = "encrypt" if (journal is not None or plain or temporary) else None
        return EncryptionState(folder, True, unfinished, tuple(plain), (), tuple(temporary))
    return EncryptionState(folder, False, "encrypt", tuple(plain), (), tuple(temporary))


@dataclass(frozen=True)
class EncryptResult:
    """What :func:`encrypt_in_place` did: ``tables`` name -> rows, compared equal in the
    plain original and the encrypted copy (counts and digests; empty when the database was
    encrypted already by an interrupted run that this one finished: ``resumed``);
    ``backups`` the backups now encrypted too; ``erased`` the plain files overwritten and
    removed (database, WAL, backups, what an interrupted run left); ``others`` files left in
    the folder that Casefile did not write as part of the workspace (e.g. an exported brief),
    which stay as they are."""

    path: Path
    tables: dict[str, int]
    backups: tuple[Path, ...] = ()
    erased: tuple[Path, ...] = ()
    others: tuple[Path, ...] = field(default_factory=tuple)
    resumed: bool = False


def overwrite_and_remove(path: Path) -> bool:
    """Overwrite the file ``path`` with zeros (flushed to disk), then delete it; False when
    there was no such file. On SSDs and copy-on-write filesystems the old blocks may survive
    the overwrite; full-disk encryption is what covers those."""
    db_files.ensure_free(path)
    try:
        fd = os.open(path, os.O_WRONLY)
    except FileNotFoundError:
        return False
    try:
        _zero_fd(fd)
    finally:
        os.close(fd)
    path.unlink()
    return True


def _zero_fd(fd: int) -> None:
    size = os.fstat(fd).st_size
    os.lseek(fd, 0, os.SEEK_SET)
    chunk = b"\0" * (1 << 20)
    left = size
    while left > 0:
        left -= os.write(fd, chunk[: min(left, len(chunk))])
    os.fsync(fd)


def _remove_with_sides(path: Path) -> list[Path]:
    """Overwrite and remove ``path`` and its ``-wal``/``-journal``/``-shm`` files; returns
    those that were there."""
    return [p for p in (*_sides(path), path.with_name(path.name + "-shm"), path)
            if overwrite_and_remove(p)]


def _export_keyed(source: Any, target: Path, key: str) -> None:
    """``sqlcipher_export`` of the open connection ``source`` into a new ``target`` (mode
    0600) encrypted with ``key``."""
    from casefile.store.private import create_private_file

    _remove_with_sides(target)  # a stale journal beside it would be rolled into the new copy
    create_private_file(target)
    source.execute(f"ATTACH DATABASE ? AS encrypted KEY {quote_key(key)}", (str(target),))
    try:
        source.execute("SELECT sqlcipher_export('encrypted')")
        version = int(source.execute("PRAGMA main.user_version").fetchone()[0])
        source.execute(f"PRAGMA encrypted.user_version = {version}")
    finally:
        source.execute("DETACH DATABASE encrypted")


def _copy_verified(source_path: Path, source_key: str | None, target: Path, key: str,
                   ) -> dict[str, tuple[int, str]]:
    """Write the copy of ``source_path`` (opened with ``source_key``; None: plain) encrypted
    with ``key`` to ``target`` and verify it row for row; returns the digests. On a mismatch
    the copy is removed and CasefileError raised."""
    source = connect_raw(source_path, source_key)
    busy = CasefileError(f"{source_path.parent} is open in another Casefile; close it first "
                         "(nothing was changed)")
    try:
        try:  # leaving WAL mode needs the only connection: nobody else has it open
            mode = source.execute("PRAGMA journal_mode = DELETE").fetchone()[0]
        except cipher_module().OperationalError as exc:
            raise busy from exc
        if str(mode).lower() != "delete":
            raise busy
        before = table_digests(source)
        _export_keyed(source, target, key)
    except Exception:
        source.close()
        _remove_with_sides(target)
        raise
    source.close()
    copy = connect_raw(target, key)
    try:
        check_database(copy)
        after = table_digests(copy)
        if after != before:
            bad = sorted(n for n in set(before) | set(after) if before.get(n) != after.get(n))
            raise CasefileError(f"the encrypted copy of {source_path.name} differs from the "
                                f"original in {', '.join(bad[:5])}; it was not used")
        copy.execute("PRAGMA journal_mode = WAL")
    except Exception:
        copy.close()
        _remove_with_sides(target)
        raise
    copy.close()
    return before


def _swap_and_erase(old_path: Path, new_path: Path, step: str) -> list[Path]:
    """Put ``new_path`` in the place of ``old_path`` in one rename and erase the old bytes:
    their ``-wal``/``-journal`` files first, then the old file itself, which keeps a second
    name (``NAME.replaced``, a hard link) from before the rename until it is overwritten, so a
    process killed in between leaves it to be found. Where hard links are not possible the old
    bytes are overwritten through a descriptor opened before the rename. Returns the files
    erased."""
    from casefile.store.faults import fault_point

    erased = [side for side in _sides(old_path) if overwrite_and_remove(side)]
    db_files.ensure_free(old_path)
    aside = old_path.with_name(old_path.name + ASIDE_SUFFIX)
    overwrite_and_remove(aside)
    try:
        os.link(old_path, aside)
    except OSError:  # no hard links here (FAT, some network shares)
        fd = os.open(old_path, os.O_WRONLY)
        try:
            os.replace(new_path, old_path)
            fault_point(step)
            _zero_fd(fd)
        finally:
            os.close(fd)
    else:
        os.replace(new_path, old_path)
        fsync_dir(old_path.parent)
        fault_point(step)
        overwrite_and_remove(aside)
    erased.append(old_path)
    return erased


def _recrypt(folder: Path, path: Path, old_key: str | None, key: str, step: str,
             pending: list[str], journal: Journal) -> tuple[dict[str, tuple[int, str]],
                                                            list[Path]]:
    """Replace the database file ``path`` (under ``old_key``; None: plain) by its copy under
    ``key``: copied, checked, its backup checksum recorded again (a backup that had one), swapped
    in, the old bytes erased; then struck from the journal. ``step`` names the fault points
    (``STEP:copied``, ``STEP:swapped``). Returns (digests, files erased)."""
    from casefile.store.backups import checksum_path, record_checksum
    from casefile.store.faults import fault_point

    tmp = path.with_name(path.name + COPY_SUFFIX)
    digests = _copy_verified(path, old_key, tmp, key)
    fault_point(f"{step}:copied")
    if path.parent.name == "backups" and checksum_path(path).exists():
        # the checksum of the new bytes, before they take the name: a restore never finds
        # a backup whose checksum is of other bytes once the run is over
        record_checksum(tmp, path.name)
    erased = _swap_and_erase(path, tmp, f"{step}:swapped")
    rel = _rel(folder, path)
    if rel in pending:
        pending.remove(rel)
        _write_journal(folder, Journal(journal.action, tuple(pending), journal.started))
    return digests, erased


def _start(folder: Path, action: str, files: list[Path]) -> tuple[Journal, list[str]]:
    from casefile.store.base import utcnow

    pending = [_rel(folder, p) for p in files]
    old = read_journal(folder)
    started = old.started if old is not None and old.action == action and old.started else \
        utcnow().isoformat(timespec="seconds")
    journal = Journal(action, tuple(pending), started)
    _write_journal(folder, journal)
    return journal, pending


def encrypt_in_place(db_path: Path, passphrase: str,
                     is_busy: Callable[[], bool] | None = None) -> EncryptResult:
    """Encrypt the plain workspace database ``db_path`` and its backups with ``passphrase``,
    or finish an encryption that was interrupted (then ``passphrase`` must be the one the
    database is encrypted with already).

    Steps: refuse when another process has it open (``is_busy()``, or SQLite refusing to leave
    WAL mode); write the journal; remove temporary copies an interrupted run left; encrypt the
    database (copy with ``sqlcipher_export`` to ``<name>.encrypting``; check the copy:
    integrity_check, the search index's own check, and every table's row count and digest
    equal to the original's; rename it over the original; overwrite the original's bytes with
    zeros); overwrite and remove the plain leftovers of an interrupted run (old bytes kept
    aside, half-made backups, orphaned journals); encrypt each plain backup the same way
    (its checksum recorded again); remove the journal. Fault points (``CASEFILE_FAULT_AT``):
    ``encrypt:start``, ``encrypt:database:copied``, ``encrypt:database:swapped``,
    ``encrypt:backup-N:copied``, ``encrypt:backup-N:swapped`` (N from 1, in name order).

    Raises CasefileError ("already encrypted" when nothing is left to do; the database
    unchanged when its copy fails), WrongPassphraseError when finishing with another
    passphrase than the database's, ValidationError for a too-short new passphrase.
    """
    from casefile.store.faults import fault_point

    db_path = Path(db_path)
    folder = db_path.parent
    if not db_path.is_file():
        raise CasefileError(f"no workspace database at {db_path}")
    state = inspect_folder(folder)
    if state.unfinished == "passphrase":
        raise CasefileError(f"a change of passphrase of the workspace at {folder} was "
                            "interrupted; finish it first with: casefile workspace passphrase")
    if state.database_encrypted:
        if state.unfinished is None:
            raise CasefileError(f"the workspace at {folder} is already encrypted")
        check_passphrase(db_path, passphrase)
    else:
        check_new_passphrase(passphrase)
    if is_busy is not None and is_busy():
        raise CasefileError(f"{folder} is open in a Casefile window; close it first "
                            "(nothing was changed)")
    database_plain = not state.database_encrypted
    plain_backups = [b for b in _backups(folder) if _is_plain(b)]
    journal, pending = _start(folder, "encrypt",
                              [*([db_path] if database_plain else []), *plain_backups])
    fault_point("encrypt:start")
    erased: list[Path] = []
    asides, temporary = _leftovers(folder)
    for path in temporary:
        overwrite_and_remove(path)
    digests: dict[str, tuple[int, str]] = {}
    if database_plain:
        digests, done = _recrypt(folder, db_path, None, passphrase, "encrypt:database",
                                 pending, journal)
        erased.extend(done)
    # what an interrupted run (or a killed backup) left readable
    # (a plain backup's own -wal/-journal go with it below, after SQLite has read them)
    keep = {*plain_backups, *(s for b in plain_backups for s in _sides(b))}
    leftovers = [*asides, *(p for p in _plain_files(folder, db_path) if p not in keep)]
    for path in leftovers:
        if overwrite_and_remove(path):
            erased.append(path)
    backups: list[Path] = []
    for n, plain in enumerate(plain_backups, start=1):
        _d, done = _recrypt(folder, plain, None, passphrase, f"encrypt:backup-{n}", pending,
                            journal)
        erased.extend(done)
        backups.append(plain)
    _clear_journal(folder)
    known = {db_path.name, *(db_path.name + s for s in (*SIDE_SUFFIXES, "-shm"))}
    others = tuple(sorted(
        p for p in folder.iterdir()
        if p.is_file() and p.name not in known))
    return EncryptResult(path=db_path, tables={n: c for n, (c, _) in digests.items()},
                         backups=tuple(backups), erased=tuple(erased), others=others,
                         resumed=not database_plain)


def _opens_with(path: Path, passphrase: str) -> bool:
    try:
        check_passphrase(path, passphrase)
    except WrongPassphraseError:
        return False
    return True


@dataclass(frozen=True)
class RekeyResult:
    """What :func:`change_passphrase` did: ``rekeyed`` the backups now under the new
    passphrase, ``other_key`` the encrypted backups neither passphrase opens (made under
    another one, left as they are), ``resumed`` True when it finished an interrupted change."""

    rekeyed: tuple[Path, ...]
    other_key: tuple[Path, ...] = ()
    resumed: bool = False


def change_passphrase(db_path: Path, old: str, new: str) -> RekeyResult:
    """Re-encrypt the workspace database ``db_path`` and its encrypted backups that ``old``
    opens under ``new``, each file copied under the new key, checked, swapped in and the old
    bytes overwritten (as :func:`encrypt_in_place`, with its journal). Finishes an interrupted
    change when run again with the same two passphrases (files already under ``new`` are
    left). Fault points: ``passphrase:start``, ``passphrase:database:copied|swapped``,
    ``passphrase:backup-N:copied|swapped``.

    Raises WrongPassphraseError when ``old`` does not open the database (nor ``new``, while an
    interrupted change is being finished), ValidationError for a too-short ``new``,
    CasefileError when an encryption is unfinished or a copy fails its check."""
    from casefile.store.faults import fault_point

    check_new_passphrase(new)
    db_path = Path(db_path)
    folder = db_path.parent
    state = inspect_folder(folder)
    if state.unfinished == "encrypt":
        raise CasefileError(f"an encryption of the workspace at {folder} was interrupted; "
                            "finish it first with: casefile workspace encrypt")
    resuming = state.unfinished == "passphrase"
    database_old = _opens_with(db_path, old)
    if not database_old and not (resuming and _opens_with(db_path, new)):
        raise WrongPassphraseError(db_path)
    encrypted_backups = [b for b in _backups(folder) if is_encrypted_file(b)]
    journal, pending = _start(folder, "passphrase",
                              [*([db_path] if database_old else []), *encrypted_backups])
    fault_point("passphrase:start")
    for path in (*state.temporary, *state.plain):  # a copy and old bytes an interrupted run left
        overwrite_and_remove(path)
    if database_old:
        _recrypt(folder, db_path, old, new, "passphrase:database", pending, journal)
    done: list[Path] = []
    other: list[Path] = []
    for n, backup in enumerate(encrypted_backups, start=1):
        if _opens_with(backup, old):
            _recrypt(folder, backup, old, new, f"passphrase:backup-{n}", pending, journal)
            done.append(backup)
        elif not _opens_with(backup, new):
            other.append(backup)  # made under another passphrase: left as it is
    _clear_journal(folder)
    return RekeyResult(tuple(done), tuple(other), resuming)
