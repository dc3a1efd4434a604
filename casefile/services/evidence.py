"""Evidence links: a passage (or a whole document) supports, contradicts, mentions or gives
context to an item; and the evidence panel's view of an item's links.

Linking, changing or removing evidence of a claim refreshes the claim's proposed status
(``casefile.services.claims``) in the same transaction.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from casefile.errors import NotFoundError, ValidationError
from casefile.services.audit import log_change
from casefile.services.claims import refresh_claims_of
from casefile.services.items import get_item
from casefile.store import Document, EvidenceLink, Item, Passage
from casefile.store.evidence import EVIDENCE_RELATIONS


@dataclass(frozen=True)
class EvidenceView:
    """One row of an item's evidence: the link, its passage (if any) and the source document.

    ``start``/``end`` are Python str offsets into the document text (None for a whole-document
    link); ``published`` is an ISO 8601 date or None.
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
    if passage_id is not None:
        passage = session.get(Passage, passage_id)
        if passage is None:
            raise NotFoundError(f"no passage with id {passage_id}")
        if passage.case_id != item.case_id:
            raise ValidationError("the passage belongs to another case")
        document_id = passage.document_id
    else:
        doc = session.get(Document, document_id)
        if doc is None:
            raise NotFoundError(f"no document with id {document_id}")
        if doc.case_id != item.case_id:
            raise ValidationError("the document belongs to another case")
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
    link = session.get(EvidenceLink, link_id)
    if link is None:
        raise NotFoundError(f"no evidence link with id {link_id}")
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
    link = session.get(EvidenceLink, link_id)
    if link is None:
        raise NotFoundError(f"no evidence link with id {link_id}")
    log_change(session, "evidence.unlink", case_id=link.case_id, item_id=link.item_id,
               data={"link_id": link.id, "passage_id": link.passage_id})
    item_id = link.item_id
    session.delete(link)
    session.flush()
    refresh_claims_of(session, [item_id])


def evidence_for(session: Session, item_id: int) -> list[EvidenceView]:
    """The evidence of an item, grouped by document (document date, then position in the text)."""
    rows = session.execute(
        select(EvidenceLink, Passage, Document)
        .outerjoin(Passage, Passage.id == EvidenceLink.passage_id)
        .join(Document, Document.id == func.coalesce(Passage.document_id, EvidenceLink.document_id))
        .where(EvidenceLink.item_id == item_id)
    ).all()
    views: list[EvidenceView] = []
    for link, passage, doc in rows:
        views.append(EvidenceView(
            link_id=link.id, relation=link.relation, note=link.note, document_id=doc.id,
            document_title=doc.title, outlet=doc.outlet,
            published=doc.published.isoformat() if doc.published else None,
            confidential_source=doc.confidential,
            passage_id=passage.id if passage else None,
            quote=passage.quote if passage else None,
            start=passage.start if passage else None,
            end=passage.end if passage else None,
            page=passage.page if passage else None,
        ))
    views.sort(key=lambda v: (v.published or "9999", v.document_id, v.start or 0))
    return views


def items_with_evidence(session: Session, case_id: int) -> dict[int, list[EvidenceView]]:
    """Evidence of every item of a case that has any: ``{item_id: [EvidenceView, ...]}``."""
    ids = session.scalars(
        select(EvidenceLink.item_id).join(Item, Item.id == EvidenceLink.item_id)
        .where(Item.case_id == case_id).distinct()
    ).all()
    return {i: evidence_for(session, i) for i in ids}
