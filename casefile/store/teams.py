"""Per-case access on a team workspace (PostgreSQL): the members table and what the database
says about the user who logged in.

Who may read or change which case is enforced by PostgreSQL itself, with the row-level
security policies of revision 0011 (ARCHITECTURE.md, "Teams: per-case access"); this module
only names the table and asks the functions that revision made. A SQLite workspace has none of
it: it is single-user, and every function here answers as for the workspace's owner.

No Qt, no services here.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Column, DateTime, Integer, MetaData, String, Table, insert, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError

from casefile.errors import CasefileError

#: The roles a member may hold in a case, weakest first.
ROLES = ("reader", "editor", "owner")

#: ``case_members`` (PostgreSQL only, so not in the models' metadata: a SQLite workspace has
#: no such table and the schema comparison of the models must not expect one).
CASE_MEMBERS = Table(
    "case_members", MetaData(),
    Column("case_id", Integer, primary_key=True),
    Column("member", String(63), primary_key=True),
    Column("role", String(10), nullable=False),
    Column("added", DateTime, nullable=False),
    Column("added_by", String(63), nullable=False),
)


#: Tables only a team workspace has, outside the models (schema comparisons skip them).
TEAM_TABLES = ("case_members",)


class NotAMemberError(CasefileError):
    """The database user who logged in is a member of no case of this team workspace (and is
    not its owner): one line naming the user and how to be added."""

    def __init__(self, user: str) -> None:
        self.user = user
        super().__init__(
            f"you (database user “{user}”) are not a member of any case in this workspace; "
            f"ask its owner to add you with: casefile team add {user} --case TITLE "
            "--role reader|editor|owner")


class AccessRefusedError(CasefileError):
    """PostgreSQL refused a read or write this database user may not do (SQLSTATE 42501): the
    server's own sentence (the policies' functions name the case and the user's role)."""


def refusal(exc: DBAPIError) -> AccessRefusedError | None:
    """The AccessRefusedError a database error stands for, or None when it is another
    error. A missing table privilege ("permission denied for table items": a reader-only user
    writing) gets a hint of what to ask for."""
    if getattr(exc.orig, "sqlstate", None) != "42501":
        return None
    reason = (str(exc.orig).strip().splitlines() or ["permission denied"])[0]
    if reason.startswith("permission denied for"):
        reason += (" (this database user only reads in this workspace; an owner of a case can "
                   "make it an editor: casefile team add USER --case TITLE --role editor)")
    return AccessRefusedError(reason)


def is_team(conn: Connection | Engine) -> bool:
    """True for a team workspace (PostgreSQL), where members and policies exist."""
    return conn.dialect.name == "postgresql"


def access(conn: Connection) -> str:
    """What the user who logged in is to this workspace: ``"admin"`` (its owner or a superuser:
    every case, not subject to the policies), ``"member"`` (of at least one case, existing or
    in the Trash) or ``"none"``. A SQLite workspace, or one without the members table yet,
    answers ``"admin"``."""
    if not is_team(conn):
        return "admin"
    if conn.scalar(text("SELECT to_regprocedure('public.casefile_access()') IS NULL")):
        return "admin"
    return str(conn.scalar(text("SELECT public.casefile_access()")))


def owns_schema(conn: Connection) -> bool:
    """True when the user who logged in may change the schema: a superuser, or the owner (or a
    member of the owning role) of ``alembic_version``. Asked with plain catalog queries, so it
    works at any schema revision. True on SQLite."""
    if not is_team(conn):
        return True
    return bool(conn.scalar(text(
        "SELECT coalesce((SELECT rolsuper FROM pg_roles WHERE rolname = session_user), false) "
        "OR pg_has_role(session_user, (SELECT relowner FROM pg_class "
        "WHERE oid = to_regclass('public.alembic_version')), 'MEMBER')")))


def session_user(conn: Connection) -> str:
    """The database user who logged in (PostgreSQL's ``session_user``); "" on SQLite."""
    if not is_team(conn):
        return ""
    return str(conn.scalar(text("SELECT session_user")))


def check_member(engine: Engine) -> None:
    """Raise NotAMemberError when the user who logged in to this team workspace is a member
    of no case and not its owner (nothing to show: one line, not an empty workspace). Does
    nothing on SQLite. Raises CasefileError when the server cannot be asked."""
    if not is_team(engine):
        return
    try:
        with engine.connect() as conn:
            if access(conn) == "none":
                raise NotAMemberError(session_user(conn))
    except DBAPIError as exc:
        raise CasefileError(f"cannot open the workspace database: {exc.orig}") from exc


def sync_all_grants(conn: Connection) -> None:
    """Give every member of a team workspace the table privileges their roles need, on every
    table there is now (run after a schema upgrade, which may have added tables). Nothing on
    SQLite or before the members table exists."""
    if not is_team(conn) or conn.scalar(
            text("SELECT to_regprocedure('public.casefile_sync_grants(text)') IS NULL")):
        return
    conn.execute(text("SELECT public.casefile_sync_grants(member) FROM "
                      "(SELECT DISTINCT member FROM public.case_members) m"))


def insert_blobs(conn: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """Store original bytes (``rows``: sha256, size, data). On a team workspace a file's bytes
    may be stored already by a case this user cannot see (the policies hide them), so the
    insert skips a hash that is there (``ON CONFLICT DO NOTHING``) instead of failing."""
    if not rows:
        return
    if is_team(conn):
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        conn.execute(pg_insert(table).on_conflict_do_nothing(), rows)
    else:
        conn.execute(insert(table), rows)
