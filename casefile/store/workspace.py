"""Opening a workspace: where it is, the engine, migrations and backups.

A workspace is either a folder holding ``casefile.sqlite3`` (WAL journal, foreign keys on) and
``backups/``, or a PostgreSQL URL (team mode). Which one is used, first match wins:
``--db URL``, ``--workspace PATH``, ``$CASEFILE_DB_URL``, ``$CASEFILE_WORKSPACE``, then the
default folder in the user's data directory (platformdirs). A new database is created at the
Alembic head; an older one is backed up, then upgraded (ARCHITECTURE.md, "Workspace and engines").

A folder chosen by ``--workspace`` or ``$CASEFILE_WORKSPACE`` that holds no workspace (missing,
empty, or without ``casefile.sqlite3``) is only made into one when asked (``create=True``; the
command line's ``--new-workspace``): a mistyped path must not open an empty workspace that looks
as if the cases were gone. The default folder is always created on first use.

A SQLite workspace may be encrypted (SQLCipher, :mod:`casefile.store.encryption`): chosen when
it is created (``encrypt=True`` with a ``passphrase``), recognised afterwards by its database
file (no plain SQLite header), opened only with its passphrase, which the open Workspace keeps
in memory and nothing writes to disk.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import platformdirs
from sqlalchemy import create_engine, event, inspect, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from casefile.errors import CasefileError
from casefile.store import db_files
from casefile.store.base import utcnow
from casefile.store.private import create_private_file, make_private_dir, tighten
from casefile.store.reader import Reader, reading
from casefile.store.teams import check_member, owns_schema, refusal, sync_all_grants

if TYPE_CHECKING:  # alembic loads only when a schema must be read or changed (start-up time)
    from alembic.config import Config

DB_FILENAME = "casefile.sqlite3"
APP_NAME = "Casefile"


def default_workspace_dir() -> Path:
    """The default workspace folder: ``<user data dir>/Casefile/workspace`` (platformdirs)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / "workspace"


@dataclass(frozen=True)
class Location:
    """Where the workspace to open is: its database ``url``, and for a SQLite workspace chosen
    explicitly the ``folder`` and what chose it (``origin``: ``"--workspace"`` or
    ``"$CASEFILE_WORKSPACE"``). ``folder`` is None for a database URL and for the default folder.
    """

    url: str
    folder: Path | None = None
    origin: str | None = None


def choose_location(workspace: str | Path | None = None, db_url: str | None = None) -> Location:
    """The workspace to open, applying the precedence described in the module docstring."""
    if db_url:
        return Location(db_url)
    if workspace:
        return Location(sqlite_url(Path(workspace)), Path(workspace), "--workspace")
    env_url = os.environ.get("CASEFILE_DB_URL")
    if env_url:
        return Location(env_url)
    env_ws = os.environ.get("CASEFILE_WORKSPACE")
    if env_ws:
        return Location(sqlite_url(Path(env_ws)), Path(env_ws), "$CASEFILE_WORKSPACE")
    return Location(sqlite_url(default_workspace_dir()))


def resolve_location(workspace: str | Path | None = None, db_url: str | None = None) -> str:
    """The database URL to open, applying the precedence described in the module docstring."""
    return choose_location(workspace, db_url).url


def holds_workspace(folder: str | Path) -> bool:
    """True when ``folder`` is a workspace folder: it holds a ``casefile.sqlite3`` file."""
    return (Path(folder).expanduser() / DB_FILENAME).is_file()


class NoWorkspaceError(CasefileError):
    """An explicitly chosen folder holds no workspace and creating one was not asked for.

    ``folder`` is the path as given; the message is one line naming it and the way to create it.
    """

    def __init__(self, folder: Path, origin: str) -> None:
        self.folder = folder
        self.origin = origin
        via = "" if origin == "--workspace" else f" (from {origin})"
        super().__init__(f"no workspace at {folder}{via}; check the path, or add "
                         "--new-workspace to create one there")


def missing_workspace(
    workspace: str | Path | None = None, db_url: str | None = None
) -> NoWorkspaceError | None:
    """The error :func:`open_workspace` with ``create=False`` would raise for this choice, or
    None when it would open (a workspace folder, a database URL, or the default folder).

    Nothing is created or opened. A path that is a file is left to :func:`make_engine`, which
    says so.
    """
    where = choose_location(workspace, db_url)
    if where.folder is None or where.origin is None:
        return None
    folder = where.folder.expanduser()
    if folder.exists() and not folder.is_dir():
        return None
    if holds_workspace(folder):
        return None
    return NoWorkspaceError(where.folder, where.origin)


def sqlite_url(folder: Path) -> str:
    """The SQLAlchemy URL of the SQLite database inside workspace ``folder``."""
    return f"sqlite:///{(Path(folder).expanduser().resolve() / DB_FILENAME).as_posix()}"


def alembic_config(url: str | None = None) -> Config:
    """An Alembic Config pointing at the migration scripts shipped in the package (db/)."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("casefile.db")))
    cfg.set_main_option("path_separator", "os")
    if url:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


_SHIPPED_CONFIG = alembic_config


def head_revision() -> str:
    """The newest schema revision this version of Casefile knows."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA foreign_keys = ON")
    cur.execute("PRAGMA busy_timeout = 5000")
    cur.execute("PRAGMA journal_mode = WAL")
    cur.execute("PRAGMA synchronous = NORMAL")
    # deleted content is overwritten with zeros, not left in free pages (ARCHITECTURE.md,
    # "The Trash": emptied means gone from the file)
    cur.execute("PRAGMA secure_delete = ON")
    cur.close()


def database_path(url: str) -> Path | None:
    """The database file of a SQLite workspace URL (``sqlite:///PATH``), else None."""
    return Path(url.removeprefix("sqlite:///")) if url.startswith("sqlite:///") else None


def encrypted_database(workspace: str | Path | None = None,
                       db_url: str | None = None) -> Path | None:
    """The database file of the chosen workspace when it is an encrypted one (so a passphrase
    is needed to open it), else None. Reads the file's first 16 bytes unless this process
    holds it open (:func:`casefile.store.db_files.is_encrypted_file`); creates nothing."""
    path = database_path(resolve_location(workspace, db_url))
    return path if path is not None and db_files.is_encrypted_file(path) else None


def is_new_database(workspace: str | Path | None = None, db_url: str | None = None) -> bool:
    """True when the chosen workspace is a SQLite one whose database file does not exist yet
    (or is empty): opening it creates it, so ``encrypt=True`` applies. Creates nothing."""
    path = database_path(resolve_location(workspace, db_url))
    return path is not None and (not path.is_file() or path.stat().st_size == 0)


def make_engine(url: str, passphrase: str | None = None) -> Engine:
    """Create the engine for ``url``; on SQLite, every connection gets the workspace PRAGMAs.

    With ``passphrase`` (SQLite only) the database is a SQLCipher one opened with that key
    (created encrypted when new). Raises CasefileError when the folder cannot be created.
    """
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        if path.parent.exists() and not path.parent.is_dir():
            raise CasefileError(f"{path.parent} is a file, not a workspace folder")
        try:  # owner-only; a new database file 0600, which SQLite's -wal/-shm copy
            make_private_dir(path.parent, parents=True)
            if not path.exists():
                create_private_file(path)
        except OSError as exc:
            raise CasefileError(f"cannot create the workspace folder {path.parent}: {exc}") from exc
        # every connection claims the file for its SQLite library (casefile.store.db_files)
        if passphrase is None:
            engine = create_engine(
                url, connect_args={"factory": db_files.connection_factory(sqlite3)})
        else:
            from sqlalchemy.pool import QueuePool

            from casefile.store.encryption import cipher_module, engine_url

            # the dialect keys each connection (PRAGMA key) before the listeners below run
            engine = create_engine(
                engine_url(path, passphrase), poolclass=QueuePool,
                connect_args={"factory": db_files.connection_factory(cipher_module())})
            event.listen(engine, "connect", lambda _conn, _rec: db_files.mark_encrypted(path))
        event.listen(engine, "connect", _sqlite_pragmas)
        # Let SQLAlchemy, not pysqlite, issue BEGIN so a transaction covers reads and writes.
        event.listen(engine, "connect", _disable_pysqlite_begin)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    if passphrase is not None:
        raise CasefileError("only a SQLite workspace folder can be encrypted, not a database "
                            "server")
    return create_engine(url, pool_pre_ping=True)


def _disable_pysqlite_begin(dbapi_conn: Any, _record: Any) -> None:
    dbapi_conn.isolation_level = None


#: True while :meth:`Workspace.transaction` with ``write=True`` begins its session's
#: connection: that SQLite transaction then starts with ``BEGIN IMMEDIATE`` (see there).
_writing: ContextVar[bool] = ContextVar("casefile_writing", default=False)


#: True inside :func:`bulk_writes`: SQLite transactions begun then checkpoint the WAL only
#: once it holds :data:`BULK_CHECKPOINT_PAGES` pages.
_bulk: ContextVar[bool] = ContextVar("casefile_bulk", default=False)
#: SQLite's own threshold (``PRAGMA wal_autocheckpoint``, pages), and the one of a bulk write
#: (64 MB of 4 KB pages).
CHECKPOINT_PAGES = 1000
BULK_CHECKPOINT_PAGES = 16384


@contextmanager
def bulk_writes() -> Iterator[None]:
    """Many write transactions in a row (an import's groups of files): while the block runs,
    the SQLite transactions this thread begins copy the WAL back into the database file
    (checkpoint) only once it holds :data:`BULK_CHECKPOINT_PAGES` pages instead of SQLite's
    1,000. Each checkpoint syncs both files to disk: an import of 1,000 articles (about 15 MB)
    checkpointed four times midway besides once at the end. Durability is the same (the WAL
    holds every committed transaction); the next transaction begun outside the block puts its
    connection back to SQLite's threshold, and its commit, or closing the workspace,
    checkpoints what the block left in the WAL. No effect on PostgreSQL."""
    token = _bulk.set(True)
    try:
        yield
    finally:
        _bulk.reset(token)


def _sqlite_begin(conn: Connection) -> None:
    # Straight to the driver: through ``conn.exec_driver_sql`` this one statement cost about
    # 0.1 ms of SQLAlchemy's execution machinery, on every transaction.
    driver = conn.connection.driver_connection
    assert driver is not None
    statement = "BEGIN IMMEDIATE" if _writing.get() else "BEGIN"
    pages = BULK_CHECKPOINT_PAGES if _bulk.get() else CHECKPOINT_PAGES
    held = conn.connection.info  # this database connection's own, kept while it is pooled
    try:
        if held.get("checkpoint_pages", CHECKPOINT_PAGES) != pages:
            driver.execute(f"PRAGMA wal_autocheckpoint = {pages}")
            held["checkpoint_pages"] = pages
        driver.execute(statement)
    except sqlite3.Error as exc:  # as SQLAlchemy wraps its own, so callers see one kind
        raise OperationalError(statement, None, exc) from exc


@dataclass
class Workspace:
    """An open workspace: its URL, engine and session factory (made once, at app start)."""

    url: str
    engine: Engine
    sessions: sessionmaker[Session]
    backup_path: Path | None = None
    #: The passphrase of an encrypted workspace (None: plain); held in memory only.
    passphrase: str | None = field(default=None, repr=False)
    #: Files of the folder that could not be made owner-only at open (one line each: path and
    #: reason); empty when all is private (:func:`casefile.store.private.tighten`).
    private_problems: tuple[str, ...] = ()

    @property
    def folder(self) -> Path | None:
        """The workspace folder for SQLite workspaces, else None."""
        path = database_path(self.url)
        return path.parent if path is not None else None

    @property
    def encrypted(self) -> bool:
        """True for an encrypted (SQLCipher) workspace."""
        return self.passphrase is not None

    @property
    def label(self) -> str:
        """A short human description (the folder, or the server URL without password)."""
        if self.folder is not None:
            return str(self.folder)
        return self.engine.url.render_as_string(hide_password=True)

    @contextmanager
    def transaction(self, write: bool = True) -> Iterator[Session]:
        """One user action: a short session in one transaction, committed on success.

        On SQLite a ``write`` transaction starts with ``BEGIN IMMEDIATE``: it waits (up to the
        busy timeout) for the write lock before it reads anything. A plain ``BEGIN`` would read
        first and ask for the write lock at its first write, and in WAL mode SQLite answers
        that upgrade at once with "database is locked", without waiting, whenever another
        process is writing or has committed since the read (ARCHITECTURE.md, "One workspace,
        many processes"). ``write=False`` is for reads that must not wait for other writers.

        On a team workspace, what PostgreSQL refuses this database user (its row-level
        policies, a missing privilege) is raised as AccessRefusedError, a CasefileError
        carrying the server's one sentence.
        """
        try:
            with self.sessions() as session, session.begin():
                if write:  # the session's own connection, begun now; no other connection
                    token = _writing.set(True)
                    try:
                        session.connection()
                    finally:
                        _writing.reset(token)
                yield session
        except DBAPIError as exc:  # a team workspace's policies said no: one sentence
            refused = refusal(exc)
            if refused is None:
                raise
            raise refused from exc

    def reading(self) -> AbstractContextManager[Reader]:
        """A read-only action without an ORM session: plain SQL through the driver, in one
        transaction rolled back at the end (:func:`casefile.store.reader.reading`)."""
        return reading(self.engine)

    def close(self) -> None:
        """Release all connections."""
        self.engine.dispose()


def current_revision(engine: Engine) -> str | None:
    """The schema revision stored in the database, or None for an empty database."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def _stored_revision(engine: Engine) -> str | None:
    """The revision in the database's ``alembic_version`` table read with plain SQL (one row
    when the schema is Alembic's), or None when there is no such single row."""
    with engine.connect() as conn:
        if not inspect(conn).has_table("alembic_version"):
            return None
        rows = conn.execute(text("SELECT version_num FROM alembic_version")).all()
    return str(rows[0][0]) if len(rows) == 1 else None


def _scripted_head() -> str | None:
    """The head revision read from the shipped migration scripts without importing Alembic:
    each script's module-level ``revision`` and ``down_revision`` constants; None unless
    every script gives them plainly and exactly one revision is nobody's ``down_revision``,
    and None when :func:`alembic_config` has been replaced (scripts elsewhere: Alembic decides)."""
    import ast
    import re

    if alembic_config is not _SHIPPED_CONFIG:
        return None
    # only the two assignment lines are parsed (a whole-module ast.parse cost ~20 ms at open)
    line = re.compile(r"^(revision|down_revision)\s*(?::[^=]*)?=\s*(.+?)\s*$", re.MULTILINE)
    revisions: set[str] = set()
    downs: set[str] = set()
    for script in (resources.files("casefile.db") / "versions").iterdir():
        if not script.name.endswith(".py") or script.name.startswith("__"):
            continue
        found: dict[str, Any] = {}
        for m in line.finditer(script.read_text(encoding="utf-8")):
            try:
                found[m.group(1)] = ast.literal_eval(m.group(2))
            except (ValueError, SyntaxError):
                return None
        revision, down = found.get("revision"), found.get("down_revision", ...)
        if not isinstance(revision, str) or down is ...:
            return None
        revisions.add(revision)
        for d in (down if isinstance(down, tuple | list) else (down,)):
            if d is not None:
                downs.add(str(d))
    heads = revisions - downs
    return heads.pop() if len(heads) == 1 else None


def _backup_sqlite(engine: Engine, revision: str, passphrase: str | None = None) -> Path:
    db_path = Path(engine.url.database or "")
    backups = make_private_dir(db_path.parent / "backups")
    stamp = utcnow().strftime("%Y%m%dT%H%M%S")
    target = backups / f"casefile-{stamp}-rev{revision}.sqlite3"
    create_private_file(target)
    if passphrase is not None:  # the copy stays encrypted, with the same key
        from casefile.store.encryption import backup_encrypted, connect_raw

        keyed = connect_raw(db_path, passphrase)
        try:
            backup_encrypted(keyed, target, passphrase)
        finally:
            keyed.close()
    else:
        src = db_files.connect(db_path)
        try:
            dst = db_files.connect(target)
            try:
                src.backup(dst)
            finally:
                dst.close()
        finally:
            src.close()
    from casefile.store.backups import record_checksum

    record_checksum(target)  # restore checks it first, as for every backup
    return target


def upgrade(engine: Engine, passphrase: str | None = None) -> Path | None:
    """Bring the database to the head revision; back it up first if it held an older schema.

    Returns the backup's path (SQLite, older schema; encrypted with ``passphrase`` when the
    workspace is) or None. Raises CasefileError when the
    database was written by a newer Casefile (unknown revision).
    """
    stored = _stored_revision(engine)
    if stored is not None and stored == _scripted_head():
        return None  # at head: the common case, answered without loading Alembic
    from alembic import command
    from alembic.script import ScriptDirectory

    head = head_revision()
    current = current_revision(engine)
    if current == head:
        return None
    script = ScriptDirectory.from_config(alembic_config())
    backup = None
    if current is not None:
        try:
            script.get_revision(current)
        except Exception as exc:
            raise CasefileError(
                f"this workspace was made by a newer Casefile (schema {current}); update Casefile"
            ) from exc
        if engine.dialect.name == "sqlite":
            backup = _backup_sqlite(engine, current, passphrase)
    cfg = alembic_config()
    with engine.begin() as conn:
        if current is not None and not owns_schema(conn):
            raise CasefileError(
                f"this team workspace has an older schema ({current}) than this Casefile "
                f"({head}); its owner (database user who created it) must open it once to "
                "upgrade it")
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
        sync_all_grants(conn)  # members get the privileges on any table the upgrade made
    return backup


def open_workspace(
    workspace: str | Path | None = None, db_url: str | None = None, *, migrate: bool = True,
    create: bool = True, passphrase: str | None = None, encrypt: bool = False,
) -> Workspace:
    """Open (creating or upgrading as needed) the workspace chosen by the arguments/environment.

    With ``create=False`` a folder chosen by ``workspace`` or ``$CASEFILE_WORKSPACE`` that holds
    no workspace raises NoWorkspaceError and nothing is created (the default folder is still
    created). An encrypted workspace needs its ``passphrase`` (PassphraseNeededError without
    one, WrongPassphraseError for a wrong one; both CasefileErrors). ``encrypt=True`` makes a
    new workspace encrypted with ``passphrase`` (at least 8 characters); it is refused for a
    plain workspace that exists already (see :func:`casefile.store.encryption.encrypt_in_place`).
    On a team workspace (PostgreSQL), a database user who is a member of no case (and not the
    workspace's owner) gets NotAMemberError (:mod:`casefile.store.teams`).
    Raises CasefileError when the database cannot be opened or is not a Casefile workspace.
    """
    if not create:
        missing = missing_workspace(workspace, db_url)
        if missing is not None:
            raise missing
    url = resolve_location(workspace, db_url)
    key = _key_for(url, passphrase, encrypt)
    path = database_path(url)
    # what an older Casefile (or a copy) left readable to others (ARCHITECTURE.md,
    # "Owner-only files"), narrowed before SQLite opens anything: its -wal/-shm copy the mode
    problems = tuple(tighten(path.parent)) if path is not None else ()
    engine = make_engine(url, key)
    backup = None
    try:  # a team workspace: a user who is a member of no case is told so, in one line
        check_member(engine)
    except Exception:
        engine.dispose()
        raise
    if migrate:
        try:
            backup = upgrade(engine, key)
        except DBAPIError as exc:
            engine.dispose()
            raise CasefileError(f"cannot open the workspace database: {exc.orig}") from exc
        except Exception:
            engine.dispose()
            raise
    factory = sessionmaker(engine, expire_on_commit=False)
    if path is not None and backup is not None:
        problems += tuple(tighten(path.parent))
    return Workspace(url=url, engine=engine, sessions=factory, backup_path=backup,
                     passphrase=key, private_problems=problems)


def _key_for(url: str, passphrase: str | None, encrypt: bool) -> str | None:
    """The key to open ``url`` with (None: plain), checked; see :func:`open_workspace`."""
    path = database_path(url)
    if path is None:
        if encrypt:
            raise CasefileError("only a SQLite workspace folder can be encrypted, not a "
                                "database server")
        return None
    from casefile.store import encryption

    if encryption.is_encrypted_file(path):
        if passphrase is None:
            raise encryption.PassphraseNeededError(path)
        encryption.check_passphrase(path, passphrase)
        return passphrase
    if not encrypt:
        return None
    if path.is_file() and path.stat().st_size > 0:
        raise CasefileError(f"the workspace at {path.parent} exists and is not encrypted; "
                            "encrypt it with: casefile workspace encrypt")
    if passphrase is None:
        raise CasefileError("a new encrypted workspace needs a passphrase")
    return encryption.check_new_passphrase(passphrase)


def table_names(engine: Engine) -> list[str]:
    """Names of the ordinary tables in the database (for tests and diagnostics)."""
    return sorted(inspect(engine).get_table_names())
