"""Evidence links: a passage (or a whole document) supports, contradicts, mentions or gives
context to an item; and the evidence panel's view of an item's links.

The panel reads quoted passages first: :func:`evidence_groups` keeps the passages a reporter
quoted apart from *bare-name mentions* (the name itself, linked when a suggestion was accepted
or a known name was found in a new document), which it folds into one row per document, each
mention with the words around it.

Linking, changing or removing evidence of a claim refreshes the claim's proposed status
(``casefile.services.claims``) in the same transaction.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, FromClause, func, select
from sqlalchemy.orm import Session

from casefile.errors import ValidationError
from casefile.services import lookup
from casefile.services.audit import log_change
from casefile.services.claims import refresh_claims_of
from casefile.services.decisions import context_snippet, name_key
from casefile.services.items import get_item
from casefile.services.passages import source_document
from casefile.store.evidence import EVIDENCE_RELATIONS, EvidenceLink, Mention, Passage
from casefile.store.items import Document, Item, Organization, Person, Place

_LINKS, _PASSAGES, _MENTIONS = (t.__table__ for t in (EvidenceLink, Passage, Mention))
_DOCUMENTS, _ITEMS = Document.__table__, Item.__table__


@dataclass(frozen=True)
class EvidenceView:
    """One row of an item's evidence: the link, its passage (if any) and the source document.

    ``start``/``end`` are Python str offsets into the document text (None for a whole-document
    link); ``published`` is an ISO 8601 date or None.

    ``mention`` is True for a bare-name mention: relation "mentions" and the passage is just the
    item's name (its quote is the item's title or an alias, compared ignoring case and quote
    style, or its span is a Mention tied to the item). A mention carries ``context``, the
    sentence around it (or about 60 characters either side, see
    ``decisions.context_snippet``), and ``context_span``: ``context[a:b]`` is the name itself.
    Every other link is a quoted passage (``context`` None).
    """

    link_id: int
    relation: str
    note: str | None
    document_id: int
    document_title: str
    outlet: str | None
    published: str | None
    confidential_source: bool
    passage_id: int | None
    quote: str | None
    start: int | None
    end: int | None
    page: int | None
    mention: bool = False
    context: str | None = None
    context_span: tuple[int, int] | None = None


@dataclass(frozen=True)
class MentionFold:
    """The bare-name mentions of an item in one document (one folded row of the panel), in
    text order."""

    document_id: int
    document_title: str
    outlet: str | None
    published: str | None
    mentions: tuple[EvidenceView, ...]


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


@dataclass(frozen=True)
class EvidenceGroups:
    """An item's evidence as the panel reads it: ``quotes`` (the quoted passages and
    whole-document links, in :func:`evidence_for` order: document date, then position), then
    ``folds``, one :class:`MentionFold` per document that mentions the item by name (same
    document order)."""

    quotes: tuple[EvidenceView, ...]
    folds: tuple[MentionFold, ...]

    @property
    def mention_count(self) -> int:
        """Number of bare-name mentions, over every document."""
        return sum(len(f.mentions) for f in self.folds)

    @property
    def links(self) -> tuple[EvidenceView, ...]:
        """Every link, in display order: the quotes, then each fold's mentions."""
        return self.quotes + tuple(m for f in self.folds for m in f.mentions)

    def summary(self) -> str:
        """The counts in words, e.g. "1 quote, mentioned 5 times in 1 document";
        "no evidence yet" when there is none."""
        quotes = sum(1 for v in self.quotes if v.passage_id is not None)
        whole = len(self.quotes) - quotes
        parts = []
        if quotes:
            parts.append(_plural(quotes, "quote", "quotes"))
        if whole:
            parts.append(_plural(whole, "whole document", "whole documents"))
        n = self.mention_count
        if n:
            times = "once" if n == 1 else f"{n} times"
            docs = _plural(len(self.folds), "document", "documents")
            parts.append(f"mentioned {times} in {docs}")
        return ", ".join(parts) or "no evidence yet"


def group_evidence(views: Iterable[EvidenceView]) -> EvidenceGroups:
    """Split evidence rows (as :func:`evidence_for` returns them) into quoted passages and one
    fold of bare-name mentions per document, keeping their order."""
    quotes: list[EvidenceView] = []
    folds: dict[int, list[EvidenceView]] = {}
    for v in views:
        if v.mention:
            folds.setdefault(v.document_id, []).append(v)
        else:
            quotes.append(v)
    return EvidenceGroups(tuple(quotes), tuple(
        MentionFold(ms[0].document_id, ms[0].document_title, ms[0].outlet, ms[0].published,
                    tuple(ms))
        for ms in folds.values()))


def link_evidence(
    session: Session,
    item_id: int,
    *,
    passage_id: int | None = None,
    document_id: int | None = None,
    relation: str = "supports",
    note: str | None = None,
) -> EvidenceLink:
    """Link a passage, or a whole document, as evidence for an item.

    ``relation`` is one of supports / contradicts / mentions / context. Raises ValidationError
    for a bad relation, a missing source or a source from another case; NotFoundError for ids
    that do not exist.
    """
    if relation not in EVIDENCE_RELATIONS:
        raise ValidationError(f"relation must be one of {', '.join(EVIDENCE_RELATIONS)}")
    item = get_item(session, item_id)
    if passage_id is None and document_id is None:
        raise ValidationError("evidence needs a passage or a document")
    document_id = source_document(session, item.case_id, passage_id, document_id)
    link = EvidenceLink(
        case_id=item.case_id, passage_id=passage_id,
        document_id=document_id if passage_id is None else None,
        item_id=item.id, relation=relation, note=note,
    )
    session.add(link)
    session.flush()
    log_change(session, "evidence.link", case_id=item.case_id, item_id=item.id,
               summary=f"{relation}: {item.title}",
               data={"link_id": link.id, "passage_id": passage_id, "document_id": document_id})
    refresh_claims_of(session, [item.id])
    return link


def update_link(
    session: Session, link_id: int, *, relation: str | None = None, note: str | None = None
) -> EvidenceLink:
    """Change the relation and/or note of an evidence link."""
    link = lookup.row(session, EvidenceLink, link_id, f"no evidence link with id {link_id}")
    if relation is not None:
        if relation not in EVIDENCE_RELATIONS:
            raise ValidationError(f"relation must be one of {', '.join(EVIDENCE_RELATIONS)}")
        link.relation = relation
    if note is not None:
        link.note = note
    session.flush()
    log_change(session, "evidence.update", case_id=link.case_id, item_id=link.item_id,
               data={"link_id": link.id})
    refresh_claims_of(session, [link.item_id])
    return link


def unlink_evidence(session: Session, link_id: int) -> None:
    """Remove an evidence link (the passage itself stays)."""
    link = lookup.row(session, EvidenceLink, link_id, f"no evidence link with id {link_id}")
    log_change(session, "evidence.unlink", case_id=link.case_id, item_id=link.item_id,
               data={"link_id": link.id, "passage_id": link.passage_id})
    item_id = link.item_id
    session.delete(link)
    session.flush()
    refresh_claims_of(session, [item_id])


def evidence_for(session: Session, item_id: int) -> list[EvidenceView]:
    """The evidence of an item, grouped by document (document date, then position in the text).

    Bare-name mentions are marked (``mention``, with their ``context``; see
    :class:`EvidenceView`). An unknown item has no evidence (an empty list). Plain rows, no
    ORM object (see :func:`evidence_for_items`).
    """
    return evidence_for_items(session, [item_id]).get(item_id, [])


def evidence_for_items(session: Session,
                       item_ids: Iterable[int]) -> dict[int, list[EvidenceView]]:
    """:func:`evidence_for` of several items at once: ``{item_id: [EvidenceView, ...]}`` for
    those that have evidence (each list in :func:`evidence_for` order). A fixed handful of
    queries however many items and links, plain rows (no ORM object): the links' rows, their
    documents' titles and dates (a row per document, not per link), the items' names, the
    mentions tied to them, and the texts of the documents holding bare-name mentions."""
    ids = sorted(set(item_ids))
    if not ids:
        return {}
    session.flush()  # the plain reads below see the session's changes, as its own queries do
    conn = session.connection()
    links, passages, docs, items = _LINKS, _PASSAGES, _DOCUMENTS, _ITEMS
    doc_id = func.coalesce(passages.c.document_id, links.c.document_id)
    joined = links.outerjoin(passages, passages.c.id == links.c.passage_id)
    rows = conn.execute(
        select(links.c.item_id, links.c.id, links.c.relation, links.c.note, doc_id,
               passages.c.id, passages.c.quote, passages.c.start, passages.c.end,
               passages.c.page)
        .select_from(joined).where(links.c.item_id.in_(ids)).order_by(links.c.id)
    ).all()
    if not rows:
        return {}
    # each document once: (title, outlet, ISO date, confidential)
    sources = {d: (title, outlet, published.isoformat() if published else None,
                   bool(confidential))
               for d, title, outlet, published, confidential in conn.execute(
                   select(docs.c.id, items.c.title, docs.c.outlet, docs.c.published,
                          items.c.confidential)
                   .select_from(docs.join(items, items.c.id == docs.c.id))
                   .where(docs.c.id.in_(select(doc_id).select_from(joined)
                                        .where(links.c.item_id.in_(ids))))).all()}
    # a link "mentions" of a passage may be the bare name (see EvidenceView)
    candidates = [n for n, r in enumerate(rows) if r[2] == "mentions" and r[5] is not None]
    names: dict[int, set[str]] = {}
    spans: set[tuple[int | None, int, int, int]] = set()
    if candidates:
        with_mentions = sorted({rows[n][0] for n in candidates})
        names = _names_of(conn, with_mentions)
        mentions_table = _MENTIONS
        spans = {(i, d, a, b) for i, d, a, b in conn.execute(
            select(mentions_table.c.item_id, mentions_table.c.document_id,
                   mentions_table.c.start, mentions_table.c.end)
            .where(mentions_table.c.item_id.in_(with_mentions)))}
    mentions = {rows[n][1] for n in candidates
                if name_key(rows[n][6]) in names.get(rows[n][0], ())
                or (rows[n][0], rows[n][4], rows[n][7], rows[n][8]) in spans}
    texts: dict[int, str] = {}
    if mentions:
        texts = dict(conn.execute(
            select(docs.c.id, docs.c.text).where(docs.c.id.in_(sorted(
                {rows[n][4] for n in candidates if rows[n][1] in mentions})))).all())
    # document date, then position (then link id, the query's order): the documents sorted,
    # then each one's rows; a link whose document is gone (none: the join of the links' rows)
    # is left out
    by_document: dict[int, list[Any]] = {}
    for r in rows:
        by_document.setdefault(r[4], []).append(r)
    out: dict[int, list[EvidenceView]] = {}
    for document_id in sorted(sources.keys() & by_document.keys(),
                              key=lambda d: (sources[d][2] or "9999", d)):
        title, outlet, published, confidential = sources[document_id]
        text = texts.get(document_id)
        for (item_id, link_id, relation, note, _doc, passage_id, quote, start, end,
             page) in sorted(by_document[document_id], key=_position):
            # positional: a view per link, ten thousand for a well-covered item
            if text is not None and link_id in mentions:
                context, context_span = context_snippet(text, start, end)
                view = EvidenceView(link_id, relation, note, document_id, title, outlet,
                                    published, confidential, passage_id, quote, start, end,
                                    page, True, context, context_span)
            else:
                view = EvidenceView(link_id, relation, note, document_id, title, outlet,
                                    published, confidential, passage_id, quote, start, end,
                                    page)
            out.setdefault(item_id, []).append(view)
    return out


def _position(row: Any) -> int:
    """A link's place in its document: its passage's start (0 for the whole document)."""
    return row[7] or 0


def _names_of(conn: Connection, item_ids: list[int]) -> dict[int, set[str]]:
    """``{item_id: {name_key of its title and each alias}}``: one plain query (the kinds that
    have aliases joined in), no ORM load of the polymorphic items."""
    items = _ITEMS
    alias_tables = [t.__table__ for t in (Person, Organization, Place)]
    stmt = select(items.c.id, items.c.title, *(t.c.aliases for t in alias_tables))
    joined: FromClause = items
    for t in alias_tables:
        joined = joined.outerjoin(t, t.c.id == items.c.id)
    names: dict[int, set[str]] = {}
    for item_id, title, *aliases in conn.execute(
            stmt.select_from(joined).where(items.c.id.in_(item_ids))).all():
        names[item_id] = {name_key(n) for n in
                          [title, *(a for some in aliases if some for a in some)]}
    return names


def evidence_groups(session: Session, item_id: int) -> EvidenceGroups:
    """An item's evidence as the evidence panel shows it: quoted passages first, then its
    bare-name mentions folded per document (see :class:`EvidenceGroups`)."""
    return group_evidence(evidence_for(session, item_id))


def items_with_evidence(session: Session, case_id: int) -> dict[int, list[EvidenceView]]:
    """Evidence of every item of a case that has any: ``{item_id: [EvidenceView, ...]}``."""
    ids = session.scalars(
        select(EvidenceLink.item_id).join(Item, Item.id == EvidenceLink.item_id)
        .where(Item.case_id == case_id).distinct()
    ).all()
    return evidence_for_items(session, ids)
