"""The change log: every service action writes one row (provenance, later undo history).

Its ``actor`` is who did it: on a team workspace (PostgreSQL) the database user who logged in
(``session_user``; a trigger of revision 0011 sets it whatever the client sends, so no
environment variable can speak for someone else), on a SQLite workspace the OS user.
"""

from __future__ import annotations

import getpass
from functools import cache
from typing import Any

from sqlalchemy import func, insert
from sqlalchemy.orm import Session

from casefile.store import ChangeLog, utcnow

_CHANGES = ChangeLog.metadata.tables["change_log"]


def _insert(session: Session) -> Any:
    """The INSERT of change log rows, naming the actor: PostgreSQL's ``session_user`` on a
    team workspace, else the OS user."""
    conn = session.connection()
    if conn.dialect.name == "postgresql":
        return insert(_CHANGES).values(actor=func.session_user())
    return insert(_CHANGES).values(actor=_os_user())


@cache
def _os_user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no user name on some platforms/containers
        return ""


def log_change(
    session: Session,
    action: str,
    *,
    case_id: int | None,
    item_id: int | None = None,
    summary: str = "",
    data: dict[str, Any] | None = None,
) -> None:
    """Record one action (``action`` is a short verb phrase such as ``"item.create"``).

    One Core INSERT in the session's transaction (no ORM object: a change log row is never
    edited, and an ORM add cost a flush's worth of work per action). The actor is the database
    user on a team workspace, else the OS user (looked up once per process).
    """
    session.connection().execute(_insert(session), {
        "case_id": case_id, "action": action, "item_id": item_id, "summary": summary,
        "data": data, "at": utcnow(),
    })


def log_changes(session: Session, action: str, rows: list[dict[str, Any]]) -> None:
    """Record many actions of one kind at once (one ``executemany``), each row a dict with
    ``case_id``, ``item_id``, ``summary`` and ``data`` as :func:`log_change` takes them."""
    if not rows:
        return
    at = utcnow()
    session.connection().execute(_insert(session), [
        {"case_id": r["case_id"], "action": action, "item_id": r.get("item_id"),
         "summary": r.get("summary", ""), "data": r.get("data"), "at": at}
        for r in rows])
