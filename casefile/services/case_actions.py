"""The case actions of the window (the Case menu) and the CLI (``casefile case rename``,
``casefile case edit``): rename a case, change its summary. Each returns
:class:`~casefile.services.changes.Changes` (``cases`` set, so case lists reload) with its undo
:class:`~casefile.services.changes.Step`. Deleting a case is
:func:`casefile.services.trash.delete_case` (it goes to the Trash).

An undo expects the value its action stored (``expected``): when someone else changed the title
or summary since, the undo is refused with ConflictError and their value stays. No Qt here.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from casefile.errors import ValidationError
from casefile.services.audit import log_change
from casefile.services.cases import check_title, get_case
from casefile.services.changes import Changes, Step, action, changes, moved_on, next_doing
from casefile.store import Case

#: A case title's longest length (the column's).


@action("case.rename")
def rename(session: Session, case_id: int, title: str, expected: str | None = None,
           doing: str = "") -> Changes:
    """Give case ``case_id`` the title ``title`` (trimmed). ``expected``: the title it must have
    now (undo). ``value`` is the new title; ``undo`` gives the old one back. Raises
    NotFoundError, ValidationError (empty, too long, or another case's title), ConflictError
    (the title is no longer ``expected``: "… was changed since (by another program); nothing
    was undone", or "redone" as ``doing`` says)."""
    case = get_case(session, case_id)
    new = check_title(title)
    if expected is not None and case.title != expected:
        raise moved_on(f"The title of case “{case.title}”", doing)
    old = case.title
    if new != old and session.scalar(
            select(Case.id).where(Case.title == new, Case.id != case_id)) is not None:
        raise ValidationError(f"a case titled {new!r} already exists")
    case.title = new
    try:
        session.flush()
    except IntegrityError as exc:  # a team workspace: a case this user cannot see has it
        raise ValidationError(f"a case titled {new!r} already exists") from exc
    log_change(session, "case.rename", case_id=case_id, summary=new, data={"from": old})
    undo = Step("case.rename", {"case_id": case_id, "title": old, "expected": new,
                                "doing": next_doing(doing)},
                label=f"Undo rename case “{old}”")
    return changes(case_id, cases=True, label=f"rename case “{old}”",
                   message=f"Renamed case “{old}” to “{new}”.", value=new, undo=undo)


@action("case.summary")
def edit_summary(session: Session, case_id: int, summary: str | None,
                 expected: Any = ..., doing: str = "") -> Changes:
    """Set the summary of case ``case_id`` (trimmed; blank or None clears it). ``expected``:
    the summary it must have now (undo; ``...`` for no check). ``value`` is the new summary;
    ``undo`` puts the old one back. Raises NotFoundError, ConflictError (the summary is no
    longer ``expected``; worded as for :func:`rename`)."""
    case = get_case(session, case_id)
    new = (summary or "").strip() or None
    if expected is not ... and case.summary != expected:
        raise moved_on(f"The summary of case “{case.title}”", doing)
    old = case.summary
    case.summary = new
    session.flush()
    log_change(session, "case.summary", case_id=case_id, summary=case.title,
               data={"from": old, "to": new})
    undo = Step("case.summary", {"case_id": case_id, "summary": old, "expected": new,
                                 "doing": next_doing(doing)},
                label=f"Undo edit summary of case “{case.title}”")
    said = "Cleared the summary" if new is None else "Saved the summary"
    return changes(case_id, cases=True, label=f"edit summary of case “{case.title}”",
                   message=f"{said} of case “{case.title}”.", value=new, undo=undo)
