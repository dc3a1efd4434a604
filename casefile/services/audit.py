"""The change log: every service action writes one row (provenance, later undo history)."""

from __future__ import annotations

import getpass
from functools import cache
from typing import Any

from sqlalchemy import insert
from sqlalchemy.orm import Session

from casefile.store import ChangeLog, utcnow

_CHANGES = ChangeLog.metadata.tables["change_log"]


@cache
def _actor() -> str:
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
    edited, and an ORM add cost a flush's worth of work per action). The OS user name is looked
    up once per process.
    """
    session.connection().execute(insert(_CHANGES), {
        "case_id": case_id, "action": action, "item_id": item_id, "summary": summary,
        "data": data, "actor": _actor(), "at": utcnow(),
    })


def log_changes(session: Session, action: str, rows: list[dict[str, Any]]) -> None:
    """Record many actions of one kind at once (one ``executemany``), each row a dict with
    ``case_id``, ``item_id``, ``summary`` and ``data`` as :func:`log_change` takes them."""
    if not rows:
        return
    actor, at = _actor(), utcnow()
    session.connection().execute(insert(_CHANGES), [
        {"case_id": r["case_id"], "action": action, "item_id": r.get("item_id"),
         "summary": r.get("summary", ""), "data": r.get("data"), "actor": actor, "at": at}
        for r in rows])
