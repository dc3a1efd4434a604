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

Errors: :class:`WrongPassphraseError`, :class:`PassphraseNeededError`, CasefileError for the
rest (the binding missing, a file that cannot be read or written, a verification failure).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from casefile.errors import CasefileError
from casefile.store import db_files

# re-exported: what an encrypted file is, decided where database files are held
from casefile.store.db_files import MIN_PAGE as MIN_PAGE
from casefile.store.db_files import SQLITE_HEADER as SQLITE_HEADER
from casefile.store.db_files import is_encrypted_file as is_encrypted_file

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
        super().__init__(f"wrong passphrase for the encrypted workspace at {path.parent} "
                         "(or its database file is damaged)")


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


# --- encrypting in place ----------------------------------------------------------------------


@dataclass(frozen=True)
class EncryptResult:
    """What :func:`encrypt_in_place` did: ``tables`` name -> rows, compared equal in the
    plain original and the encrypted copy (counts and digests); ``backups`` the pre-upgrade
    backups now encrypted too; ``erased`` the plain files overwritten and removed (database,
    WAL, backups); ``others`` files left in the folder that Casefile did not write as part of
    the workspace (e.g. an exported brief), which stay as they are."""

    path: Path
    tables: dict[str, int]
    backups: tuple[Path, ...] = ()
    erased: tuple[Path, ...] = ()
    others: tuple[Path, ...] = field(default_factory=tuple)


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


def _export_encrypted(plain: Any, target: Path, passphrase: str) -> None:
    """``sqlcipher_export`` of the open plain connection into a new encrypted ``target``."""
    if target.exists():
        overwrite_and_remove(target)
    plain.execute(f"ATTACH DATABASE ? AS encrypted KEY {quote_key(passphrase)}", (str(target),))
    try:
        plain.execute("SELECT sqlcipher_export('encrypted')")
        version = int(plain.execute("PRAGMA main.user_version").fetchone()[0])
        plain.execute(f"PRAGMA encrypted.user_version = {version}")
    finally:
        plain.execute("DETACH DATABASE encrypted")


def _encrypted_copy_verified(plain_path: Path, target: Path, passphrase: str,
                             ) -> dict[str, tuple[int, str]]:
    """Write the encrypted copy of ``plain_path`` to ``target`` and verify it row for row;
    returns the digests. On a mismatch the copy is removed and CasefileError raised."""
    plain = connect_raw(plain_path, None)
    busy = CasefileError(f"{plain_path.parent} is open in another Casefile; close it first "
                         "(nothing was changed)")
    try:
        try:  # leaving WAL mode needs the only connection: nobody else has it open
            mode = plain.execute("PRAGMA journal_mode = DELETE").fetchone()[0]
        except cipher_module().OperationalError as exc:
            raise busy from exc
        if str(mode).lower() != "delete":
            raise busy
        before = table_digests(plain)
        _export_encrypted(plain, target, passphrase)
    except Exception:
        plain.close()
        overwrite_and_remove(target)
        raise
    plain.close()
    copy = connect_raw(target, passphrase)
    try:
        check_database(copy)
        after = table_digests(copy)
        if after != before:
            bad = sorted(n for n in set(before) | set(after) if before.get(n) != after.get(n))
            raise CasefileError(f"the encrypted copy differs from the original in "
                                f"{', '.join(bad[:5])}; nothing was changed")
        copy.execute("PRAGMA journal_mode = WAL")
    except Exception:
        copy.close()
        overwrite_and_remove(target)
        raise
    copy.close()
    return before


def _swap_and_erase(plain_path: Path, encrypted: Path) -> list[Path]:
    """Replace ``plain_path`` by ``encrypted`` in one rename, then zero the plain bytes
    through a descriptor opened before the rename; remove plain WAL/journal files first."""
    erased: list[Path] = []
    for suffix in SIDE_SUFFIXES:
        side = plain_path.with_name(plain_path.name + suffix)
        if overwrite_and_remove(side):
            erased.append(side)
    db_files.ensure_free(plain_path)
    fd = os.open(plain_path, os.O_WRONLY)
    try:
        os.replace(encrypted, plain_path)
        _zero_fd(fd)
    finally:
        os.close(fd)
    erased.append(plain_path)
    return erased


def encrypt_in_place(db_path: Path, passphrase: str,
                     is_busy: Callable[[], bool] | None = None) -> EncryptResult:
    """Encrypt the plain workspace database ``db_path`` with ``passphrase``.

    Steps: refuse when another process has it open (``is_busy()``, or SQLite refusing to leave
    WAL mode); copy it with ``sqlcipher_export`` to ``<name>.encrypting``; check the copy
    (integrity_check, the search index's own check, and every table's row count and digest
    equal to the original's); rename the copy over the original; overwrite the original's
    bytes with zeros. Each plain backup in ``backups/`` is encrypted the same way (copy,
    check, swap, erase). Raises CasefileError (nothing changed when the database copy fails);
    WrongPassphraseError never (a new key).
    """
    db_path = Path(db_path)
    if not db_path.is_file():
        raise CasefileError(f"no workspace database at {db_path}")
    if is_encrypted_file(db_path):
        raise CasefileError(f"the workspace at {db_path.parent} is already encrypted")
    if is_busy is not None and is_busy():
        raise CasefileError(f"{db_path.parent} is open in a Casefile window; close it first "
                            "(nothing was changed)")
    check_new_passphrase(passphrase)
    target = db_path.with_name(db_path.name + ".encrypting")
    digests = _encrypted_copy_verified(db_path, target, passphrase)
    erased = _swap_and_erase(db_path, target)
    backups: list[Path] = []
    for plain in sorted((db_path.parent / "backups").glob("*.sqlite3")):
        if is_encrypted_file(plain):
            continue
        tmp = plain.with_name(plain.name + ".encrypting")
        _encrypted_copy_verified(plain, tmp, passphrase)
        erased.extend(_swap_and_erase(plain, tmp))
        backups.append(plain)
    known = {db_path.name, *(db_path.name + s for s in SIDE_SUFFIXES)}
    others = tuple(sorted(
        p for p in db_path.parent.iterdir()
        if p.is_file() and p.name not in known))
    return EncryptResult(path=db_path, tables={n: c for n, (c, _) in digests.items()},
                         backups=tuple(backups), erased=tuple(erased), others=others)


def change_passphrase(db_path: Path, old: str, new: str) -> tuple[Path, ...]:
    """Re-encrypt the workspace database ``db_path`` (and its encrypted backups that ``old``
    opens) under ``new`` with ``PRAGMA rekey``; returns the backups re-keyed. Raises
    WrongPassphraseError when ``old`` does not open the database, ValidationError for a
    too-short ``new``."""
    check_new_passphrase(new)
    done: list[Path] = []
    with _keyed(db_path, old) as conn:
        conn.execute(f"PRAGMA rekey = {quote_key(new)}")
    for backup in sorted((db_path.parent / "backups").glob("*.sqlite3")):
        if not is_encrypted_file(backup):
            continue
        try:
            with _keyed(backup, old) as conn:
                conn.execute(f"PRAGMA rekey = {quote_key(new)}")
        except WrongPassphraseError:
            continue  # made under another passphrase: left as it is
        done.append(backup)
    return tuple(done)


@contextmanager
def _keyed(path: Path, passphrase: str) -> Iterator[Any]:
    conn = connect_raw(path, passphrase)
    try:
        yield conn
    finally:
        with suppress(Exception):
            conn.close()
