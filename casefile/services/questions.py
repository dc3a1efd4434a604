"""Questions and follow-ups: create, change status, answer, and the follow-up views.

A follow-up's life: ``open`` → ``waiting`` (asked, waiting on others) → ``answered``
or ``dropped``. Every status change is kept with its date (``Question.status_history``, written
by the store whatever way the status changed). Answering keeps the answer text, its date and
the Passage or Document of the same case that answered it.

Views (all take ``today``, default the local date, so tests can set the clock):

- ``overdue``: open or waiting, due before today.
- ``due this week``: open or waiting, due today or within the next 7 days (the same window as
  the status bar's ``views.case_status`` and ``followups --due-within 7``); overdue ones are
  not in it (they have their own view).
- ``waiting``: status waiting (asked; the answer is up to someone else), soonest due first.
- ``answered``: status answered, latest answer first.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from casefile.errors import ValidationError
from casefile.services.items import create_item, get_item, parse_date, update_item
from casefile.services.passages import source_document
from casefile.store import Document, Item, Passage, Question, QuestionStatusChange
from casefile.store.items import QUESTION_STATUSES, STATUS_DATE_ATTR, STATUS_NOTE_ATTR

OPEN_STATUSES = ("open", "waiting")
#: The names ``followup_view`` accepts, in the order a window would offer them.
FOLLOWUP_VIEWS = ("overdue", "week", "waiting", "answered", "open", "all")
#: Days after today that still count as "this week" (today + 7 included).
WEEK_DAYS = 7


@dataclass(frozen=True)
class AnswerSource:
    """What answered a follow-up: a passage (``passage_id`` and its ``quote``) of a document,
    or a whole document (``passage_id`` None)."""

    document_id: int
    document_title: str
    passage_id: int | None = None
    quote: str | None = None

    def as_json(self) -> dict[str, object]:
        """``{"document_id", "document_title", "passage_id", "quote"}``."""
        return {"document_id": self.document_id, "document_title": self.document_title,
                "passage_id": self.passage_id, "quote": self.quote}


@dataclass(frozen=True)
class FollowUp:
    """A follow-up as listed: ``due`` is ISO 8601 or None; ``days_left`` < 0 means overdue.

    ``ask`` is the name of whom to ask (``ask_id`` its item id); ``answered_on`` the ISO date of
    the answer; ``status_since`` the ISO date of the last status change; ``uid`` the stable id
    calendar exports use.
    """

    id: int
    text: str
    kind: str
    status: str
    due: str | None
    days_left: int | None
    overdue: bool
    ask: str | None
    ask_id: int | None = None
    answer: str | None = None
    answered_on: str | None = None
    answered_by: AnswerSource | None = None
    status_since: str | None = None
    uid: str | None = None
    confidential: bool = False

    def as_json(self) -> dict[str, object]:
        """The stable ``followups --json`` shape (see README)."""
        return {
            "id": self.id, "text": self.text, "kind": self.kind, "status": self.status,
            "due": self.due, "days_left": self.days_left, "overdue": self.overdue,
            "ask": self.ask, "status_since": self.status_since, "answer": self.answer,
            "answered_on": self.answered_on,
            "answered_by": self.answered_by.as_json() if self.answered_by else None,
            "uid": self.uid,
        }


@dataclass(frozen=True)
class StatusChange:
    """One entry of a follow-up's history: ``previous`` (None at creation) → ``status`` on
    ``on`` (ISO 8601 date), with an optional note."""

    status: str
    previous: str | None
    on: str
    note: str | None


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
    on: date | str | None = None,
    confidential: bool = False,
) -> Question:
    """Create a question or follow-up. ``kind``: question, expected record, records request,
    right of reply, call back; ``status``: open, waiting, answered, dropped; ``due`` ISO date;
    ``ask_id`` a Person or Organization of the case; ``on`` the date the history starts
    (default today); ``confidential`` keeps it out of exports unless asked. Raises
    ValidationError for bad values."""
    item = create_item(
        session, case_id, "question", text, question_kind=kind, due=due, status=status,
        ask_id=ask_id, notes=notes, confidential=confidential,
    )
    assert isinstance(item, Question)
    start = parse_date(on, "on")
    if start is not None and item.status_history:
        item.status_history[0].changed_on = start
    return item


def _question(session: Session, question_id: int) -> Question:
    item = get_item(session, question_id)
    if not isinstance(item, Question):
        raise ValidationError(f"{item.title!r} is not a question")
    return item


def _stamp(question: Question, on: date | None, note: str | None) -> None:
    """Date and annotate the status change the next ``status`` assignment records."""
    if on is not None:
        setattr(question, STATUS_DATE_ATTR, on)
    if note:
        setattr(question, STATUS_NOTE_ATTR, note)


def _unstamp(question: Question) -> None:
    """Forget an unused stamp (the status did not change), so it cannot date a later change."""
    vars(question).pop(STATUS_DATE_ATTR, None)
    vars(question).pop(STATUS_NOTE_ATTR, None)


def set_status(
    session: Session, question_id: int, status: str, *, answer: str | None = None,
    answered_on: date | str | None = None, on: date | str | None = None,
    note: str | None = None,
) -> Question:
    """Move a question to ``status`` (open, waiting, answered, dropped), recording the change
    dated ``on`` (default: ``answered_on`` when answering, else today) with an optional note.

    An answer text may come with it; answering sets ``answered_at`` (default today). Raises
    ValidationError for an unknown status or an item that is not a question.
    """
    item = _question(session, question_id)
    if status not in QUESTION_STATUSES:
        raise ValidationError(f"status must be one of {', '.join(QUESTION_STATUSES)}; "
                              f"got {status!r}")
    fields: dict[str, Any] = {"status": status}
    if answer is not None:
        fields["answer"] = answer
    when = parse_date(on, "on")
    if status == "answered":
        answered = parse_date(answered_on, "answered_on") or when or date.today()
        fields["answered_at"] = answered
        when = when or answered
    _stamp(item, when, note)
    try:
        updated = update_item(session, question_id, **fields)
    finally:
        _unstamp(item)
    assert isinstance(updated, Question)
    return updated


def answer_question(
    session: Session,
    question_id: int,
    answer: str,
    *,
    passage_id: int | None = None,
    document_id: int | None = None,
    on: date | str | None = None,
    note: str | None = None,
) -> Question:
    """Mark a follow-up answered: the answer text, its date ``on`` (default today) and what
    answered it, a Passage or a whole Document of the same case (a passage's document is
    recorded too). Records the status change dated ``on``.

    Raises ValidationError for an empty answer, both or a foreign passage/document, or an item
    that is not a question; NotFoundError for an unknown passage or document.
    """
    question = _question(session, question_id)
    text = (answer or "").strip()
    if not text:
        raise ValidationError("write the answer (a sentence is enough)")
    if passage_id is not None and document_id is not None:
        raise ValidationError("give the passage or the document that answered, not both")
    document_id = source_document(session, question.case_id, passage_id, document_id,
                                  "answering")
    day = parse_date(on, "on") or date.today()
    _stamp(question, day, note)
    try:
        updated = update_item(
            session, question_id, status="answered", answer=text, answered_at=day,
            answered_by_passage_id=passage_id, answered_by_document_id=document_id,
        )
    finally:
        _unstamp(question)
    assert isinstance(updated, Question)
    return updated


def status_history(session: Session, question_id: int) -> list[StatusChange]:
    """The status changes of a question in the order they were made (each ``previous`` is the
    status before it). Raises NotFoundError, or ValidationError for an item not a question."""
    _question(session, question_id)
    rows = session.scalars(
        select(QuestionStatusChange).where(QuestionStatusChange.question_id == question_id)
        .order_by(QuestionStatusChange.id)
    )
    return [StatusChange(r.status, r.previous, r.changed_on.isoformat(), r.note) for r in rows]


def _last_change_dates(session: Session, ids: list[int]) -> dict[int, date]:
    """The date of each question's latest recorded status change (the last one written)."""
    if not ids:
        return {}
    latest = (
        select(func.max(QuestionStatusChange.id))
        .where(QuestionStatusChange.question_id.in_(ids))
        .group_by(QuestionStatusChange.question_id)
    )
    rows = session.execute(
        select(QuestionStatusChange.question_id, QuestionStatusChange.changed_on)
        .where(QuestionStatusChange.id.in_(latest))
    ).all()
    return {qid: day for qid, day in rows}


def _answer_sources(session: Session, questions: list[Question]) -> dict[int, AnswerSource]:
    out: dict[int, AnswerSource] = {}
    for q in questions:
        if q.answered_by_passage_id is None and q.answered_by_document_id is None:
            continue
        passage = (session.get(Passage, q.answered_by_passage_id)
                   if q.answered_by_passage_id is not None else None)
        doc_id = passage.document_id if passage else q.answered_by_document_id
        doc = session.get(Document, doc_id) if doc_id is not None else None
        if doc is None:
            continue
        out[q.id] = AnswerSource(doc.id, doc.title, passage.id if passage else None,
                                 passage.quote if passage else None)
    return out


def _as_followup(q: Question, today: date, ask: str | None, since: date | None = None,
                 source: AnswerSource | None = None) -> FollowUp:
    days = (q.due - today).days if q.due else None
    return FollowUp(
        id=q.id, text=q.title, kind=q.question_kind, status=q.status,
        due=q.due.isoformat() if q.due else None, days_left=days,
        overdue=days is not None and days < 0 and q.status in OPEN_STATUSES, ask=ask,
        ask_id=q.ask_id, answer=q.answer,
        answered_on=q.answered_at.isoformat() if q.answered_at else None,
        answered_by=source, status_since=since.isoformat() if since else None, uid=q.uid,
        confidential=q.confidential,
    )


def _load(session: Session, case_id: int, statuses: Iterable[str] | None,
          today: date) -> list[FollowUp]:
    stmt = select(Question).where(Question.case_id == case_id)
    if statuses is not None:
        wanted = list(statuses)
        for s in wanted:
            if s not in QUESTION_STATUSES:
                raise ValidationError(
                    f"status must be one of {', '.join(QUESTION_STATUSES)}; got {s!r}")
        stmt = stmt.where(Question.status.in_(wanted))
    questions = list(session.scalars(stmt))
    names = {
        i.id: i.title for i in session.scalars(
            select(Item).where(Item.id.in_([q.ask_id for q in questions if q.ask_id]))
        )
    }
    since = _last_change_dates(session, [q.id for q in questions])
    sources = _answer_sources(session, questions)
    result = [
        _as_followup(q, today, names.get(q.ask_id) if q.ask_id else None, since.get(q.id),
                     sources.get(q.id))
        for q in questions
    ]
    result.sort(key=lambda f: (f.due is None, f.due or "", f.id))
    return result


def followups(
    session: Session,
    case_id: int,
    *,
    due_within: int | None = None,
    today: date | None = None,
    include_closed: bool = False,
    statuses: Iterable[str] | None = None,
    overdue_only: bool = False,
) -> list[FollowUp]:
    """Follow-ups of a case, overdue and soonest first, undated last.

    By default only open and waiting ones; ``include_closed`` adds answered and dropped ones,
    ``statuses`` picks exactly those statuses. With ``due_within`` (days), only those due on or
    before today + N days (overdue included); with ``overdue_only``, only overdue ones.
    ``today`` defaults to the local date (tests set it). Raises ValidationError for a
    negative ``due_within`` or an unknown status.
    """
    today = today or date.today()
    if due_within is not None and due_within < 0:
        raise ValidationError("--due-within takes a number of days, 0 or more")
    if statuses is None and not include_closed:
        statuses = OPEN_STATUSES
    result = _load(session, case_id, statuses, today)
    if due_within is not None:
        limit = (today + timedelta(days=due_within)).isoformat()
        result = [f for f in result if f.due is not None and f.due <= limit]
    if overdue_only:
        result = [f for f in result if f.overdue]
    return result


def overdue(session: Session, case_id: int, *, today: date | None = None) -> list[FollowUp]:
    """Open or waiting follow-ups due before ``today``, most overdue first."""
    return followups(session, case_id, today=today, overdue_only=True)


def overdue_count(session: Session, case_id: int, *, today: date | None = None) -> int:
    """How many follow-ups are overdue: what the window says on opening a case."""
    today = today or date.today()
    return int(session.scalar(
        select(func.count()).select_from(Question).where(
            Question.case_id == case_id, Question.status.in_(OPEN_STATUSES),
            Question.due.is_not(None), Question.due < today,
        )
    ) or 0)


def due_this_week(session: Session, case_id: int, *, today: date | None = None
                  ) -> list[FollowUp]:
    """Open or waiting follow-ups due from ``today`` to today + 7 days, soonest first
    (overdue ones are in ``overdue``, not here)."""
    today = today or date.today()
    return [f for f in followups(session, case_id, today=today, due_within=WEEK_DAYS)
            if not f.overdue]


def waiting_on_others(session: Session, case_id: int, *, today: date | None = None
                      ) -> list[FollowUp]:
    """Follow-ups with status waiting (asked; the answer is up to someone else)."""
    return followups(session, case_id, today=today, statuses=("waiting",))


def answered(session: Session, case_id: int, *, today: date | None = None) -> list[FollowUp]:
    """Answered follow-ups, latest answer first (undated answers last)."""
    result = followups(session, case_id, today=today, statuses=("answered",))
    dated = sorted((f for f in result if f.answered_on), key=lambda f: f.answered_on or "",
                   reverse=True)
    return dated + [f for f in result if not f.answered_on]


def followup_view_counts(session: Session, case_id: int, views: Iterable[str], *,
                         today: date | None = None) -> dict[str, int]:
    """How many follow-ups each named view (FOLLOWUP_VIEWS) holds, from one load of the case's
    follow-ups: ``{view: len(followup_view(session, case_id, view, today=today))}`` without
    loading them once per view (the Follow-ups page's counts after every change). Raises
    ValidationError for an unknown view name."""
    today = today or date.today()
    wanted = list(views)
    for view in wanted:
        if view not in FOLLOWUP_VIEWS:
            raise ValidationError(
                f"view must be one of {', '.join(FOLLOWUP_VIEWS)}; got {view!r}")
    every = _load(session, case_id, None, today)
    week_end = (today + timedelta(days=WEEK_DAYS)).isoformat()

    def shown(f: FollowUp, view: str) -> bool:  # the filters of the functions above
        open_ = f.status in OPEN_STATUSES
        if view == "overdue":
            return open_ and f.overdue
        if view == "week":
            return open_ and f.due is not None and f.due <= week_end and not f.overdue
        if view == "waiting":
            return f.status == "waiting"
        if view == "answered":
            return f.status == "answered"
        if view == "open":
            return open_
        return True  # all

    return {view: sum(1 for f in every if shown(f, view)) for view in wanted}


def followup_view(session: Session, case_id: int, view: str, *, today: date | None = None
                  ) -> list[FollowUp]:
    """One of the named views (FOLLOWUP_VIEWS): overdue, week (due this week), waiting,
    answered, open (open and waiting), all. Raises ValidationError for another name."""
    if view == "overdue":
        return overdue(session, case_id, today=today)
    if view == "week":
        return due_this_week(session, case_id, today=today)
    if view == "waiting":
        return waiting_on_others(session, case_id, today=today)
    if view == "answered":
        return answered(session, case_id, today=today)
    if view == "open":
        return followups(session, case_id, today=today)
    if view == "all":
        return followups(session, case_id, today=today, include_closed=True)
    raise ValidationError(f"view must be one of {', '.join(FOLLOWUP_VIEWS)}; got {view!r}")
