"""Read-only views the desktop app lists: section rows, item choices, a document's passages,
and the numbers of the status bar. Plain values only (no ORM objects escape), so a caller can
keep them after the session is closed. Nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, NamedTuple

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session, aliased

from casefile.services import lookup
from casefile.services.items import model_of
from casefile.store.case import Case
from casefile.store.evidence import EvidenceLink, Passage
from casefile.store.items import Claim, Document, Event, Item, Organization, Person, Place, Question
from casefile.web_capture import capture_line

#: Column headers of each section's table, in order; ``ItemRow.cells`` follows them.
#: A document's reading state as the Documents section shows it.
READING_WORDS = {"unread": "unread", "read": "read", "relevant": "relevant",
                 "irrelevant": "not relevant"}

SECTION_COLUMNS: dict[str, tuple[str, ...]] = {
    "person": ("Name", "Role", "Affiliation", "Evidence"),
    "organization": ("Name", "Kind", "Jurisdiction", "Evidence"),
    "place": ("Name", "Aliases", "Evidence"),
    "document": ("Title", "Kind", "Outlet", "Published", "Status", "Reading"),
    "event": ("Title", "Date", "Precision", "Evidence"),
    "claim": ("Claim", "Status", "Attributed to", "Evidence"),
    "question": ("Question", "Kind", "Status", "Due", "Evidence"),
}


class ItemRow(NamedTuple):
    """One row of a section table: ``cells`` holds one plain value per SECTION_COLUMNS header
    (str, int, ``datetime.date`` or None), ``version`` the item's optimistic-locking counter.

    A named tuple rather than a dataclass: a section of 100,000 rows is built in one go.
    """

    id: int
    kind: str
    title: str
    version: int
    confidential: bool
    cells: tuple[Any, ...]


@dataclass(frozen=True)
class ItemChoice:
    """An item offered in a picker or completer: id, kind, title and aliases."""

    id: int
    kind: str
    title: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class PassageLinkView:
    """One evidence link of a passage: the link, the item it is evidence for, the relation."""

    link_id: int
    item_id: int
    item_title: str
    item_kind: str
    relation: str


@dataclass(frozen=True)
class PassageMark:
    """A passage of a document with its links; ``start``/``end`` are Python str offsets."""

    passage_id: int
    start: int
    end: int
    quote: str
    links: tuple[PassageLinkView, ...]


@dataclass(frozen=True)
class DocumentView:
    """What the document viewer shows: the text (Python str) and a few facts about the source."""

    id: int
    case_id: int
    title: str
    text: str
    outlet: str | None
    published: str | None
    passages: tuple[PassageMark, ...]
    #: for a saved web page, where and when it was captured and its hash, one line
    #: (:func:`casefile.web_capture.capture_line`); None for other documents
    capture: str | None = None


@dataclass(frozen=True)
class CaseStatus:
    """The status bar's numbers: item counts by kind, follow-ups due within 7 days (overdue
    included) and how many of those are overdue."""

    counts: dict[str, int]
    due_this_week: int
    overdue: int


def _evidence_counts() -> Any:
    return (
        select(EvidenceLink.item_id.label("item_id"), func.count().label("n"))
        .group_by(EvidenceLink.item_id)
        .subquery()
    )


def _rows_statement(case_id: int, kind: str, page: Any = None) -> Select[Any]:
    """The section's columns; with ``page`` (a subquery of ids) only for those items."""
    model = model_of(kind)
    ev = _evidence_counts()
    base = [model.id, model.kind, model.title, model.version, model.confidential]
    n = func.coalesce(ev.c.n, 0)
    stmt: Any  # a Select whose column count differs by kind
    if model is Person:
        org = aliased(Item)
        stmt = (
            select(*base, Person.role, org.title, n)
            .outerjoin(org, org.id == Person.affiliation_id)
        )
    elif model is Organization:
        stmt = select(*base, Organization.org_kind, Organization.jurisdiction, n)
    elif model is Place:
        stmt = select(*base, Place.aliases, n)
    elif model is Document:
        stmt = select(*base, Document.doc_kind, Document.outlet, Document.published,
                      Document.status, Document.reading)
    elif model is Event:
        stmt = select(*base, Event.date, Event.precision, n)
    elif model is Claim:
        who = aliased(Item)
        stmt = (
            select(*base, Claim.status, func.coalesce(who.title, Claim.attributed_to_text), n)
            .outerjoin(who, who.id == Claim.attributed_to_id)
        )
    else:
        stmt = select(*base, Question.question_kind, Question.status, Question.due, n)
    if model is not Document:
        stmt = stmt.outerjoin(ev, ev.c.item_id == model.id)
    if page is not None:
        stmt = stmt.join(page, page.c.id == model.id)
    return stmt.where(model.case_id == case_id)


def count_items(session: Session, case_id: int, kind: str) -> int:
    """Number of items of one kind in a case. Raises ValidationError for an unknown kind."""
    model = model_of(kind)
    return int(session.scalar(
        select(func.count()).select_from(model).where(model.case_id == case_id)
    ) or 0)


def item_rows(
    session: Session, case_id: int, kind: str, *, offset: int = 0, limit: int | None = None
) -> list[ItemRow]:
    """A page of a section's rows, by title (case-insensitive), then id.

    ``offset``/``limit`` page through the section (``limit=None``: all the rest). Raises
    ValidationError for an unknown kind.
    """
    model = model_of(kind)
    order = (func.lower(model.title), model.id)
    if limit is None:  # all the rest: one pass
        stmt = _rows_statement(case_id, kind).order_by(*order).offset(offset)
    else:  # a page: sort narrow rows for the page's ids, then join the columns to the page
        page = select(model.id).where(model.case_id == case_id).order_by(*order)
        page = page.offset(offset).limit(limit)
        stmt = _rows_statement(case_id, kind, page.subquery()).order_by(*order)
    return _rows(kind, session.connection().execute(stmt).all())


def item_rows_by_id(session: Session, case_id: int, kind: str, ids: list[int]) -> list[ItemRow]:
    """The rows of these items (those of ``kind`` in the case that still exist), any order."""
    if not ids:
        return []
    model = model_of(kind)
    stmt = _rows_statement(case_id, kind).where(model.id.in_(ids))
    return _rows(kind, session.connection().execute(stmt).all())


def _rows(kind: str, result: Any) -> list[ItemRow]:
    rows = [tuple(r) for r in result]
    if kind == "place":
        rows = [(*t[:5], ", ".join(t[5] or []), *t[6:]) for t in rows]
    elif kind == "document":  # the reading state in words ("not relevant")
        rows = [(*t[:-1], READING_WORDS.get(t[-1], t[-1])) for t in rows]
    return [ItemRow(t[0], t[1], t[2], t[3], bool(t[4]), (t[2], *t[5:])) for t in rows]


def case_titles(session: Session) -> list[tuple[int, str]]:
    """``(id, title)`` of every case, by title (the case picker; no counting)."""
    return [(r[0], r[1]) for r in session.execute(select(Case.id, Case.title).order_by(Case.title))]


def item_choices(
    session: Session, case_id: int, kinds: tuple[str, ...] | None = None
) -> list[ItemChoice]:
    """Items of a case offered in pickers, by title; ``kinds`` limits them (default: all)."""
    stmt = select(Item).where(Item.case_id == case_id)
    if kinds:
        stmt = stmt.where(Item.kind.in_(kinds))
    out = []
    for item in session.scalars(stmt.order_by(func.lower(Item.title), Item.id)):
        aliases = tuple(getattr(item, "aliases", None) or ())
        out.append(ItemChoice(item.id, item.kind, item.title, aliases))
    return out


def document_view(session: Session, document_id: int) -> DocumentView:
    """A document's text and its passages (by position) with their links. Raises NotFoundError."""
    doc = lookup.row(session, Document, document_id,
                     f"no document with id {document_id} (it may have been deleted)")
    rows = session.execute(
        select(Passage, EvidenceLink, Item)
        .outerjoin(EvidenceLink, EvidenceLink.passage_id == Passage.id)
        .outerjoin(Item, Item.id == EvidenceLink.item_id)
        .where(Passage.document_id == document_id)
        .order_by(Passage.start, Passage.id, EvidenceLink.id)
    ).all()
    marks: dict[int, tuple[Passage, list[PassageLinkView]]] = {}
    for passage, link, item in rows:
        entry = marks.setdefault(passage.id, (passage, []))
        if link is not None and item is not None:
            entry[1].append(PassageLinkView(link.id, item.id, item.title, item.kind,
                                            link.relation))
    return DocumentView(
        id=doc.id, case_id=doc.case_id, title=doc.title, text=doc.text or "", outlet=doc.outlet,
        published=doc.published.isoformat() if doc.published else None,
        passages=tuple(
            PassageMark(p.id, p.start, p.end, p.quote, tuple(links))
            for p, links in marks.values()
        ),
        capture=capture_line((doc.meta or {}).get("capture")),
    )


def case_status(session: Session, case_id: int, *, today: date | None = None) -> CaseStatus:
    """Counts for the status bar (see CaseStatus); ``today`` defaults to the local date."""
    from casefile.services.cases import item_counts
    from casefile.services.questions import OPEN_STATUSES

    today = today or date.today()
    due = list(session.scalars(
        select(Question.due).where(
            Question.case_id == case_id, Question.status.in_(OPEN_STATUSES),
            Question.due.is_not(None), Question.due <= today + timedelta(days=7),
        )
    ))
    return CaseStatus(
        counts=item_counts(session, case_id), due_this_week=len(due),
        overdue=sum(1 for d in due if d is not None and d < today),
    )


@dataclass(frozen=True)
class ItemFields:
    """An item's editable fields as plain values (see ``items.FIELDS``), for an editor.

    ``values`` maps field name to value: dates as ``datetime.date``, aliases as a list of str,
    references as item ids or None.
    """

    id: int
    case_id: int
    kind: str
    version: int
    values: dict[str, Any]


def item_fields(session: Session, item_id: int) -> ItemFields:
    """The editable fields of an item. Raises NotFoundError."""
    from casefile.services.items import COMMON_FIELDS, FIELDS, get_item

    item = get_item(session, item_id)
    names = (*COMMON_FIELDS, *FIELDS[item.kind])
    values = {}
    for name in names:
        value = getattr(item, name)
        values[name] = list(value) if isinstance(value, list) else value
    return ItemFields(item.id, item.case_id, item.kind, item.version, values)
