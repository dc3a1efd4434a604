"""Questions and follow-ups: create, change status, and what is due."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from casefile.errors import ValidationError
from casefile.services.items import create_item, get_item, parse_date, update_item
from casefile.store import Item, Question

OPEN_STATUSES = ("open", "waiting")


@dataclass(frozen=True)
class FollowUp:
    """A follow-up as listed: ``due`` is ISO 8601 or None; ``days_left`` < 0 means overdue."""

    id: int
    text: str
    kind: str
    status: str
    due: str | None
    days_left: int | None
    overdue: bool
    ask: str | None

    def as_json(self) -> dict[str, object]:
        """The stable ``followups --json`` shape (see README)."""
        return {
            "id": self.id, "text": self.text, "kind": self.kind, "status": self.status,
            "due": self.due, "days_left": self.days_left, "overdue": self.overdue,
            "ask": self.ask,
        }


def create_question(
    session: Session,
    case_id: int,
    text: str,
    *,
    kind: str = "question",
    due: date | str | None = None,
    status: str = "open",
    ask_id: int | None = None,
    notes: str | None = None,
) -> Question:
    """Create a question or follow-up. ``kind``: question, expected record, records request,
    right of reply, call back; ``status``: open, waiting, answered, dropped; ``due`` ISO date."""
    item = create_item(
        session, case_id, "question", text, question_kind=kind, due=due, status=status,
        ask_id=ask_id, notes=notes,
    )
    assert isinstance(item, Question)
    return item


def set_status(
    session: Session, question_id: int, status: str, *, answer: str | None = None,
    answered_on: date | str | None = None,
) -> Question:
    """Move a question to ``status`` (recording when); an answer text may come with it."""
    item = get_item(session, question_id)
    if not isinstance(item, Question):
        raise ValidationError(f"{item.title!r} is not a question")
    fields: dict[str, Any] = {"status": status}
    if answer is not None:
        fields["answer"] = answer
    if status == "answered":
        fields["answered_at"] = parse_date(answered_on) or date.today()
    updated = update_item(session, question_id, **fields)
    assert isinstance(updated, Question)
    return updated


def _as_followup(q: Question, today: date, ask: str | None) -> FollowUp:
    days = (q.due - today).days if q.due else None
    return FollowUp(
        id=q.id, text=q.title, kind=q.question_kind, status=q.status,
        due=q.due.isoformat() if q.due else None, days_left=days,
        overdue=days is not None and days < 0 and q.status in OPEN_STATUSES, ask=ask,
    )


def followups(
    session: Session,
    case_id: int,
    *,
    due_within: int | None = None,
    today: date | None = None,
    include_closed: bool = False,
) -> list[FollowUp]:
    """Follow-ups of a case, overdue and soonest first, undated last.

    With ``due_within`` (days), only open/waiting ones due on or before today + N days (overdue
    included). ``today`` defaults to the local date (tests set it).
    """
    today = today or date.today()
    stmt = select(Question).where(Question.case_id == case_id)
    if not include_closed:
        stmt = stmt.where(Question.status.in_(OPEN_STATUSES))
    if due_within is not None:
        if due_within < 0:
            raise ValidationError("--due-within takes a number of days, 0 or more")
        stmt = stmt.where(Question.due.is_not(None),
                          Question.due <= today + timedelta(days=due_within))
    questions = list(session.scalars(stmt))
    names = {
        i.id: i.title for i in session.scalars(
            select(Item).where(Item.id.in_([q.ask_id for q in questions if q.ask_id]))
        )
    }
    result = [_as_followup(q, today, names.get(q.ask_id) if q.ask_id else None)
              for q in questions]
    result.sort(key=lambda f: (f.due is None, f.due or "", f.id))
    return result
