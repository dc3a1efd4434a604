"""Actions the desktop app needs on top of the basic services: mark a span and link it in one
step, and undo support (snapshot an item with what hangs on it, restore it under the same id).

Each function takes a Session and plain values and does one user action in the caller's
transaction, like every service.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import inspect, or_, select
from sqlalchemy.orm import Session

from casefile.errors import ConflictError, NotFoundError
from casefile.services import lookup
from casefile.services.audit import log_change
from casefile.services.evidence import link_evidence, unlink_evidence
from casefile.services.items import REF_FIELDS, get_item, reindex
from casefile.services.passages import add_passage
from casefile.store import Document, EvidenceLink, Item, Mention, Passage, Relationship
from casefile.store.items import MODELS


@dataclass(frozen=True)
class LinkedSpan:
    """The result of :func:`link_span`: the passage used, the new link, and whether the passage
    was made by this call (False: an identical passage was already there and is reused)."""

    passage_id: int
    link_id: int
    passage_created: bool


def find_passage(session: Session, document_id: int, start: int, end: int) -> Passage | None:
    """The passage of this document with exactly this span (Python str offsets), if any."""
    return session.scalar(
        select(Passage).where(
            Passage.document_id == document_id, Passage.start == start, Passage.end == end
        ).order_by(Passage.id).limit(1)
    )


def link_span(
    session: Session, item_id: int, document_id: int, start: int, end: int, *,
    relation: str = "supports", note: str | None = None,
) -> LinkedSpan:
    """Link ``document.text[start:end]`` (Python str offsets) as evidence for an item.

    An existing passage with the same span is reused, else one is made. Raises ValidationError
    for a bad span or relation, NotFoundError for unknown ids.
    """
    passage = find_passage(session, document_id, start, end)
    created = passage is None
    if passage is None:
        passage = add_passage(session, document_id, start, end)
    link = link_evidence(session, item_id, passage_id=passage.id, relation=relation, note=note)
    return LinkedSpan(passage.id, link.id, created)


def unlink_span(session: Session, link_id: int, *, drop_unused_passage: bool = True) -> None:
    """Remove an evidence link; with ``drop_unused_passage`` its passage goes too when no other
    link uses it (so undoing :func:`link_span` leaves nothing behind). Raises NotFoundError."""
    link = lookup.row(session, EvidenceLink, link_id, f"no evidence link with id {link_id}")
    passage_id = link.passage_id
    unlink_evidence(session, link_id)
    if drop_unused_passage and passage_id is not None:
        still_used = session.scalar(
            select(EvidenceLink.id).where(EvidenceLink.passage_id == passage_id).limit(1)
        )
        passage = session.get(Passage, passage_id)
        if still_used is None and passage is not None:
            session.delete(passage)
            session.flush()


def _row_values(obj: Any) -> dict[str, Any]:
    mapper = inspect(type(obj))
    return {a.key: getattr(obj, a.key) for a in mapper.column_attrs}


#: Columns a program keeps, not the user: left out of :func:`state_of`.
_BOOKKEEPING = frozenset({"version", "created", "updated"})


def _user_values(obj: Any) -> list[tuple[str, str]]:
    return sorted((k, repr(v)) for k, v in _row_values(obj).items() if k not in _BOOKKEEPING)


def state_of(session: Session, item_id: int) -> dict[str, str]:
    """Digests (hex str) of what a user can change on item ``item_id``, by part: "fields"
    (its columns, not the version or timestamps), "evidence" (its evidence links) and
    "relationships"; {} when it is gone.

    An undo that removes an item it made compares the digests taken when it made it with
    these: equal means nobody changed the item since, or changed it and put it back (an edit
    and its undo). A part that differs names what another program saved on it, which removing
    the item would lose (ARCHITECTURE.md, "One way in for changes")."""
    item = session.get(Item, item_id)
    if item is None:
        return {}
    links = session.scalars(select(EvidenceLink).where(EvidenceLink.item_id == item_id)
                            .order_by(EvidenceLink.id))
    relationships = session.scalars(select(Relationship).where(
        or_(Relationship.source_id == item_id, Relationship.target_id == item_id))
        .order_by(Relationship.id))
    parts = {"fields": _user_values(item), "evidence": [_user_values(x) for x in links],
             "relationships": [_user_values(r) for r in relationships]}
    return {name: hashlib.sha256(repr(part).encode("utf-8")).hexdigest()
            for name, part in parts.items()}


def changed_part(session: Session, item_id: int, made: dict[str, str]) -> str | None:
    """The first part of :func:`state_of` ("fields", "evidence", "relationships") that differs
    from ``made`` (digests taken earlier), or None when none does (or the item is gone)."""
    now = state_of(session, item_id)
    if not now:
        return None
    return next((name for name, digest in made.items() if now.get(name) != digest), None)


def part_phrase(part: str, named: str) -> str:
    """How a refusal names ``part`` (of :func:`changed_part`) of the item ``named`` ("person
    “Ada Quill”"): "Person “Ada Quill”", "The evidence of person “Ada Quill”", "A
    relationship of person “Ada Quill”"."""
    if part == "evidence":
        return f"The evidence of {named}"
    if part == "relationships":
        return f"A relationship of {named}"
    return named[:1].upper() + named[1:]


@dataclass
class ItemSnapshot:
    """Everything :func:`restore_item` needs to bring a deleted item back under its own id.

    ``values`` are the item's column values; ``links`` the evidence links pointing at it;
    ``referrers`` the ``(item_id, field)`` pairs of other items that referenced it; for a
    document also its passages, the links from them and from it, its mentions; relationships
    and mentions tied to the item. Values are plain Python (dates, lists, dicts).
    """

    kind: str
    values: dict[str, Any]
    links: list[dict[str, Any]] = field(default_factory=list)
    referrers: list[tuple[int, str]] = field(default_factory=list)
    passages: list[dict[str, Any]] = field(default_factory=list)
    relationships: list[dict[str, Any]] = field(default_factory=list)
    mentions: list[dict[str, Any]] = field(default_factory=list)
    tied_mentions: list[int] = field(default_factory=list)

    @property
    def item_id(self) -> int:
        """The id the item had (and gets back)."""
        return int(self.values["id"])


def snapshot_item(session: Session, item_id: int) -> ItemSnapshot:
    """Capture an item and what would be lost or unset if it were deleted. NotFoundError."""
    item = get_item(session, item_id)
    snap = ItemSnapshot(kind=item.kind, values=_row_values(item))
    link_filter = [EvidenceLink.item_id == item.id]
    if isinstance(item, Document):
        passages = list(session.scalars(select(Passage).where(Passage.document_id == item.id)))
        snap.passages = [_row_values(p) for p in passages]
        link_filter.append(EvidenceLink.document_id == item.id)
        if passages:
            link_filter.append(EvidenceLink.passage_id.in_([p.id for p in passages]))
        snap.mentions = [_row_values(m) for m in session.scalars(
            select(Mention).where(Mention.document_id == item.id))]
    snap.links = [_row_values(link) for link in session.scalars(
        select(EvidenceLink).where(or_(*link_filter)).order_by(EvidenceLink.id))]
    snap.relationships = [_row_values(r) for r in session.scalars(
        select(Relationship).where(
            or_(Relationship.source_id == item.id, Relationship.target_id == item.id)))]
    snap.tied_mentions = list(session.scalars(
        select(Mention.id).where(Mention.item_id == item.id, Mention.document_id != item.id)))
    for ref_field in REF_FIELDS:
        for model in MODELS.values():
            column = getattr(model, ref_field, None)
            if column is None or ref_field not in model.__table__.c:
                continue
            for other_id in session.scalars(
                select(model.id).where(column == item.id, model.case_id == item.case_id)
            ):
                snap.referrers.append((other_id, ref_field))
    return snap


def restore_item(session: Session, snap: ItemSnapshot) -> Item:
    """Bring back a deleted item from its snapshot, under the same id, with its links.

    Links whose other end no longer exists are skipped. Raises ConflictError if the id is in
    use again (the item was not deleted, or the id was reused).
    """
    if session.get(Item, snap.item_id) is not None:
        raise ConflictError(f"cannot restore {snap.values.get('title')!r}: it is still there")
    model = MODELS[snap.kind]
    values = {k: v for k, v in snap.values.items() if k != "version"}
    item = model(**values)
    session.add(item)
    session.flush()
    for row in snap.passages:
        session.add(Passage(**row))
    session.flush()
    for row in snap.links:
        if session.get(Item, row["item_id"]) is None:
            continue
        if row.get("passage_id") is not None and session.get(Passage, row["passage_id"]) is None:
            continue
        if session.get(EvidenceLink, row["id"]) is not None:
            continue
        session.add(EvidenceLink(**row))
    for row in snap.relationships:
        if session.get(Item, row["source_id"]) and session.get(Item, row["target_id"]):
            session.add(Relationship(**row))
    for row in snap.mentions:
        session.add(Mention(**row))
    session.flush()
    for mention_id in snap.tied_mentions:
        mention = session.get(Mention, mention_id)
        if mention is not None and mention.item_id is None:
            mention.item_id = item.id
    for other_id, ref_field in snap.referrers:
        other = session.get(Item, other_id)
        if other is not None and getattr(other, ref_field, None) is None:
            setattr(other, ref_field, item.id)
    session.flush()
    reindex(session, item)
    log_change(session, f"{item.kind}.restore", case_id=item.case_id, item_id=item.id,
               summary=item.title)
    return item


@dataclass(frozen=True)
class LinkSnapshot:
    """An evidence link's row and its passage's row (None for a whole-document link)."""

    link: dict[str, Any]
    passage: dict[str, Any] | None

    @property
    def link_id(self) -> int:
        """The id the link had (and gets back)."""
        return int(self.link["id"])


def snapshot_link(session: Session, link_id: int) -> LinkSnapshot:
    """Capture an evidence link and its passage before removing them. Raises NotFoundError."""
    link = lookup.row(session, EvidenceLink, link_id, f"no evidence link with id {link_id}")
    passage = session.get(Passage, link.passage_id) if link.passage_id is not None else None
    return LinkSnapshot(_row_values(link), _row_values(passage) if passage else None)


def restore_link(session: Session, snap: LinkSnapshot) -> EvidenceLink:
    """Bring back a removed evidence link under its own id (its passage too, if it went).

    Raises NotFoundError when the item or document it joined is gone, ConflictError when the
    link is still there.
    """
    if session.get(EvidenceLink, snap.link_id) is not None:
        raise ConflictError("cannot restore the evidence link: it is still there")
    if session.get(Item, snap.link["item_id"]) is None:
        raise NotFoundError("cannot restore the evidence link: its item was deleted")
    if snap.passage is not None and session.get(Passage, snap.passage["id"]) is None:
        if session.get(Document, snap.passage["document_id"]) is None:
            raise NotFoundError("cannot restore the evidence link: its document was deleted")
        session.add(Passage(**snap.passage))
        session.flush()
    link = EvidenceLink(**snap.link)
    session.add(link)
    session.flush()
    log_change(session, "evidence.restore", case_id=link.case_id, item_id=link.item_id,
               data={"link_id": link.id, "passage_id": link.passage_id})
    return link
