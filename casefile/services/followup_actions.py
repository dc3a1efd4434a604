"""Follow-up actions of the window, each returning :class:`Changes` with its undo
:class:`Step`: move a follow-up to another status (open, waiting, answered, dropped) and
answer it.

Each takes a Session and plain values, does one user action in the caller's transaction (the
ChangeLog rows are those of ``services.questions``) and returns what changed. Every status
change, undo and redo included, is recorded in the follow-up's history dated ``on`` (the
window's today). Undo puts back the status and answer fields as they were
(:func:`put_back`), and the undo of that puts back what it replaced, which is the redo.

No Qt here.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from sqlalchemy.orm import Session

from casefile.errors import ValidationError
from casefile.services import editing, items, passages, questions
from casefile.services.changes import Changes, Step, action, changes, moved_on, next_doing
from casefile.store import Question

#: The fields a status change or an answer may set, which its undo puts back.
ANSWER_FIELDS = ("status", "answer", "answered_at", "answered_by_passage_id",
                 "answered_by_document_id")


def _question(session: Session, question_id: int) -> Question:
    item = items.get_item(session, question_id)
    if not isinstance(item, Question):
        raise ValidationError(f"{item.title!r} is not a follow-up")
    return item


def _answer_state(question: Question) -> dict[str, Any]:
    return {name: getattr(question, name) for name in ANSWER_FIELDS}


def _put_back_step(question: Question, values: dict[str, Any], on: date | str | None,
                   label: str, doing: str = "") -> Step:
    """The step putting ``values`` back, expecting the fields as the action left them."""
    left = {name: getattr(question, name) for name in values}
    return Step("followup.put_back", {"question_id": question.id, "values": values, "on": on,
                                      "expected": left, "doing": next_doing(doing)},
                label=label)


@action("followup.status")
def set_status(session: Session, question_id: int, status: str, *,
               on: date | str | None = None) -> Changes:
    """Move a follow-up to ``status`` (open, waiting, answered, dropped), the change dated
    ``on`` (ISO 8601; default today). ``undo`` puts back the status (and answer fields) it had.
    Raises ValidationError for an unknown status or an item that is not a follow-up,
    NotFoundError when it is gone."""
    question = _question(session, question_id)
    before = _answer_state(question)
    questions.set_status(session, question_id, status, on=on)
    label = f"mark {status} “{question.title}”"
    return changes(question.case_id, kinds={"question"}, updated={question_id}, label=label,
                   message=f"Follow-up “{question.title}” is {status} now.",
                   undo=_put_back_step(question, before, on, f"Undo {label}"))


@action("followup.answer")
def answer(
    session: Session, question_id: int, answer: str, *, on: date | str | None = None,
    passage_id: int | None = None, document_id: int | None = None,
    span: tuple[int, int, int] | None = None,
) -> Changes:
    """Mark a follow-up answered with ``answer``, dated ``on``, answered by a passage, a whole
    document, or ``span`` = ``(document_id, start, end)`` of a document (Python str offsets;
    the passage with that span is used, or made). ``value`` is the answering passage's id (None
    for a whole document or nothing); ``undo`` puts back the status and answer fields as they
    were (a passage made for the span stays, so a redo names it again). Raises
    ValidationError for an empty answer or a bad span, NotFoundError for unknown ids."""
    question = _question(session, question_id)
    before = _answer_state(question)
    documents: set[int] = set()
    if span is not None:
        doc_id, start, end = (int(v) for v in span)
        found = editing.find_passage(session, doc_id, start, end)
        passage_id = (found or passages.add_passage(session, doc_id, start, end)).id
        document_id = None
        documents.add(doc_id)
    questions.answer_question(session, question_id, answer, on=on, passage_id=passage_id,
                              document_id=document_id)
    label = f"answer “{question.title}”"
    return changes(question.case_id, kinds={"question"}, updated={question_id},
                   documents=documents, evidence=span is not None, label=label,
                   message=f"Follow-up “{question.title}” is answered.", value=passage_id,
                   undo=_put_back_step(question, before, on, f"Undo {label}"))


@action("followup.put_back")
def put_back(session: Session, question_id: int, values: Mapping[str, Any], *,
             on: date | str | None = None, expected: Mapping[str, Any] | None = None,
             doing: str = "undo") -> Changes:
    """Set a follow-up's status and answer fields to ``values`` (field -> value, some of
    ANSWER_FIELDS), the status change dated ``on``: the undo of a status change or an
    answer. ``expected``: the fields as the action left them (field -> value); when another
    program changed one since, nothing is written (ConflictError, the sentence naming the
    undo or redo ``doing``). ``undo`` puts back what it replaced (the redo). Raises
    ValidationError for a bad value, NotFoundError when the follow-up is gone, ConflictError.
    """
    question = _question(session, question_id)
    if expected is not None and any(getattr(question, name) != value
                                    for name, value in expected.items()
                                    if name in ANSWER_FIELDS):
        raise moved_on(f"The follow-up “{question.title}”", doing)
    before = {name: getattr(question, name) for name in values if name in ANSWER_FIELDS}
    rest = {name: value for name, value in values.items() if name in ANSWER_FIELDS}
    status = rest.pop("status", None)
    if status is not None:
        questions.set_status(session, question_id, status, on=on)
    if rest:
        items.update_item(session, question_id, **rest)
    now = status or question.status
    label = f"put back “{question.title}” as {now}"
    return changes(question.case_id, kinds={"question"}, updated={question_id}, label=label,
                   message=f"Follow-up “{question.title}” is {now} again.",
                   undo=_put_back_step(question, before, on, f"Undo {label}", doing))
