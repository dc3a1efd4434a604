"""Cases: create, list, find by title, and the counts shown in the navigator."""

from __future__ import annotations

import shlex
import unicodedata
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from casefile.errors import NotFoundError, ValidationError
from casefile.services import lookup
from casefile.services.audit import log_change
from casefile.store import Case, Item
from casefile.store.items import ITEM_KINDS


@dataclass(frozen=True)
class CaseSummary:
    """A case as listed: id, title, summary, ISO 8601 creation time, and item counts by kind."""

    id: int
    title: str
    summary: str | None
    created: str
    counts: dict[str, int]


#: The longest case title, in characters.
TITLE_MAX = 300


def check_title(title: str | None) -> str:
    """``title`` trimmed, as a case may have it. Raises ValidationError when it is empty, longer
    than :data:`TITLE_MAX` characters or holds a control character (a title is printed on one
    line in the window, the brief's cover and file names, where such characters break it)."""
    title = (title or "").strip()
    if not title:
        raise ValidationError("a case needs a title")
    if len(title) > TITLE_MAX:
        raise ValidationError(f"a case title has at most {TITLE_MAX} characters")
    bad = next((c for c in title if unicodedata.category(c) == "Cc"), None)
    if bad is not None:
        raise ValidationError(f"a case title cannot hold control characters (it has "
                              f"U+{ord(bad):04X}); type it on one line")
    return title


def create_case(session: Session, title: str, summary: str | None = None) -> Case:
    """Create a case. Raises ValidationError for a title :func:`check_title` refuses or one
    already used."""
    title = check_title(title)
    if session.scalar(select(Case.id).where(Case.title == title)) is not None:
        raise ValidationError(f"a case titled {title!r} already exists")
    case = Case(title=title, summary=summary)
    session.add(case)
    try:
        session.flush()
    except IntegrityError as exc:  # a team workspace: a case this user cannot see has it
        raise ValidationError(f"a case titled {title!r} already exists") from exc
    log_change(session, "case.create", case_id=case.id, summary=title)
    return case


def title_refusal(session: Session, title: str) -> str | None:
    """Why :func:`create_case` would refuse ``title`` (the sentence of its ValidationError),
    or None when it would take it. Reads only; for a dialog to say so before it closes."""
    try:
        title = check_title(title)
    except ValidationError as exc:
        return str(exc)
    if session.scalar(select(Case.id).where(Case.title == title)) is not None:
        return f"a case titled {title!r} already exists"
    return None


def find_case(session: Session, title: str) -> Case:
    """The case with this exact title. Raises NotFoundError naming the title if there is none,
    with the case whose title differs only in letter case or spacing when there is one, else
    the command that creates it."""
    case = session.scalar(select(Case).where(Case.title == title))
    if case is None:
        wanted = " ".join(title.split()).casefold()
        near = [t for t in session.scalars(select(Case.title))
                if " ".join(t.split()).casefold() == wanted]
        hint = (f"did you mean {near[0]!r}?" if near else
                f"create it: casefile case new {shlex.quote(title)}; see: casefile case list")
        raise NotFoundError(f"no case titled {title!r} ({hint})")
    return case


def get_case(session: Session, case_id: int) -> Case:
    """The case with this id. Raises NotFoundError."""
    case = lookup.row(session, Case, case_id, f"no case with id {case_id}")
    return case


_CASES = Case.metadata.tables["cases"]


def find_case_id(session: Session, title: str) -> int:
    """The id of :func:`find_case`'s case, read with a plain query: a command that writes
    with Core statements (``casefile import``) then never sets up the ORM's mappers, about
    25 ms of a cold process. Raises NotFoundError as :func:`find_case` does."""
    found = session.connection().scalar(select(_CASES.c.id).where(_CASES.c.title == title))
    return int(found) if found is not None else find_case(session, title).id


def check_case(session: Session, case_id: int) -> None:
    """Raises NotFoundError ("no case with id N") unless the case exists; a plain query, as
    :func:`find_case_id`."""
    if session.connection().scalar(select(_CASES.c.id).where(_CASES.c.id == case_id)) is None:
        raise NotFoundError(f"no case with id {case_id}")


def item_counts(session: Session, case_id: int) -> dict[str, int]:
    """Number of items of each kind in the case (every kind present, zero included)."""
    counts = dict.fromkeys(ITEM_KINDS, 0)
    rows = session.execute(
        select(Item.kind, func.count()).where(Item.case_id == case_id).group_by(Item.kind)
    )
    for kind, n in rows:
        counts[kind] = n
    return counts


def list_cases(session: Session) -> list[CaseSummary]:
    """All cases, by title, with their item counts (two queries however many cases)."""
    cases = session.scalars(select(Case).order_by(Case.title)).all()
    counts: dict[int, dict[str, int]] = {c.id: dict.fromkeys(ITEM_KINDS, 0) for c in cases}
    for case_id, kind, n in session.execute(
            select(Item.case_id, Item.kind, func.count()).group_by(Item.case_id, Item.kind)):
        if case_id in counts:
            counts[case_id][kind] = n
    return [
        CaseSummary(c.id, c.title, c.summary, c.created.isoformat(timespec="seconds"),
                    counts[c.id])
        for c in cases
    ]
