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

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from casefile.errors import ValidationError
from casefile.services import lookup
from casefile.services.audit import log_change
from casefile.services.claims import refresh_claims_of
from casefile.services.decisions import context_snippet, name_key
from casefile.services.items import get_item
from casefile.services.passages import source_document
from casefile.store import Document, EvidenceLink, Item, Mention, Passage
from casefile.store.evidence import EVIDENCE_RELATIONS


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
    :class:`EvidenceView`). An unknown item has no evidence (an empty list). Plain rows from
    one query (no ORM object per link), plus the texts of the documents a mention is in.
    """
    return evidence_for_items(session, [item_id]).get(item_id, [])


def evidence_for_items(session: Session,
                       item_ids: Iterable[int]) -> dict[int, list[EvidenceView]]:
    """:func:`evidence_for` of several items at once: ``{item_id: [EvidenceView, ...]}`` for
    those that have evidence (each list in :func:`evidence_for` order). A fixed handful of
    queries however many items and links: the links' rows, the items' names, the mentions
    tied to them, and the texts of the documents holding bare-name mentions."""
    ids = sorted(set(item_ids))
    if not ids:
        return {}
    doc_id = func.coalesce(Passage.document_id, EvidenceLink.document_id)
    rows = session.execute(
        select(EvidenceLink.item_id, EvidenceLink.id, EvidenceLink.relation, EvidenceLink.note,
               Document.id, Document.title, Document.outlet, Document.published,
               Document.confidential, Passage.id, Passage.quote, Passage.start, Passage.end,
               Passage.page)
        .select_from(EvidenceLink)
        .outerjoin(Passage, Passage.id == EvidenceLink.passage_id)
        .join(Document, Document.id == doc_id)
        .where(EvidenceLink.item_id.in_(ids))
        .order_by(EvidenceLink.id)
    ).all()
    if not rows:
        return {}
    # a link "mentions" of a passage may be the bare name (see EvidenceView)
    candidates = [n for n, r in enumerate(rows) if r[2] == "mentions" and r[9] is not None]
    names: dict[int, set[str]] = {}
    spans: set[tuple[int | None, int, int, int]] = set()
    if candidates:
        with_mentions = sorted({rows[n][0] for n in candidates})
        for item in session.scalars(select(Item).where(Item.id.in_(with_mentions))):
            names[item.id] = {name_key(n) for n in
                              [item.title, *(getattr(item, "aliases", None) or [])]}
        spans = {(i, d, a, b) for i, d, a, b in session.execute(
            select(Mention.item_id, Mention.document_id, Mention.start, Mention.end)
            .where(Mention.item_id.in_(with_mentions)))}
    mentions = {n for n in candidates
                if name_key(rows[n][10]) in names.get(rows[n][0], ())
                or tuple(rows[n][i] for i in (0, 4, 11, 12)) in spans}
    texts: dict[int, str] = {}
    if mentions:
        docs = sorted({rows[n][4] for n in mentions})
        texts = {d: t for d, t in session.execute(
            select(Document.id, Document.text).where(Document.id.in_(docs)))}
    # document date, then position (then link id, the query's order): sorted before the rows
    # become views, each date written once per document
    dates = {r[4]: r[7].isoformat() if r[7] else None for r in rows}
    order = sorted(range(len(rows)), key=lambda n: (
        dates[rows[n][4]] or "9999", rows[n][4], rows[n][11] or 0))
    out: dict[int, list[EvidenceView]] = {}
    for n in order:
        (item_id, link_id, relation, note, document_id, title, outlet, _published,
         confidential, passage_id, quote, start, end, page) = rows[n]
        mention = n in mentions
        context: str | None = None
        context_span: tuple[int, int] | None = None
        if mention:
            context, context_span = context_snippet(texts[document_id], start, end)
        out.setdefault(item_id, []).append(EvidenceView(
            link_id=link_id, relation=relation, note=note, document_id=document_id,
            document_title=title, outlet=outlet, published=dates[document_id],
            confidential_source=bool(confidential), passage_id=passage_id, quote=quote,
            start=start, end=end, page=page, mention=mention, context=context,
            context_span=context_span,
        ))
    return out


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
