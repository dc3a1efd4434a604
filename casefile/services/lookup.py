"""One row by its primary key, or the NotFoundError that names what is missing: the first
line of most services (ARCHITECTURE.md, "Adding a user action, end to end": a refusal is one
sentence naming the real reason)."""

from __future__ import annotations

from typing import Any, TypeVar

from sqlalchemy.orm import Session

from casefile.errors import NotFoundError

RowT = TypeVar("RowT")


def row(session: Session, model: type[RowT], key: Any, missing: str) -> RowT:
    """``session.get(model, key)``; raises NotFoundError(``missing``) when there is none."""
    found = session.get(model, key)
    if found is None:
        raise NotFoundError(missing)
    return found
