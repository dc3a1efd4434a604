"""The change log: every service action writes one row (provenance, later undo history)."""

from __future__ import annotations

import getpass
from typing import Any

from sqlalchemy.orm import Session

from casefile.store import ChangeLog


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
) -> ChangeLog:
    """Record one action (``action`` is a short verb phrase such as ``"item.create"``)."""
    row = ChangeLog(
        case_id=case_id, action=action, item_id=item_id, summary=summary, data=data,
        actor=_actor(),
    )
    session.add(row)
    return row
