"""Typed links between people and organizations (employed by, part of, reports to, related to).

Qt-free service functions: each takes an open Session, does one action, writes a ChangeLog row
for a change, and leaves the commit to the caller. A person's affiliation is mirrored as one
"employed by" relationship marked ``AUTO_NOTE`` (:func:`sync_affiliation`).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from casefile.errors import NotFoundError, ValidationError
from casefile.services import lookup
from casefile.services.audit import log_change
from casefile.store import Item, Person
from casefile.store.evidence import RELATIONSHIP_KINDS, Relationship

#: The note that marks a relationship created from a person's affiliation.
AUTO_NOTE = "from affiliation"


@dataclass(frozen=True)
class RelationshipView:
    """One relationship as seen from one item: ``outgoing`` when that item is the source.

    ``other_id`` / ``other_title`` / ``other_kind`` describe the item at the other end.
    """

    id: int
    kind: str
    outgoing: bool
    other_id: int
    other_title: str
    other_kind: str
    note: str | None
    passage_id: int | None

    @property
    def label(self) -> str:
        """E.g. "employed by → Harlan County Sheriff's Office" (or "← Jane Roe" when incoming)."""
        arrow = "→" if self.outgoing else "←"
        return f"{self.kind} {arrow} {self.other_title}"


def list_relationships(session: Session, item_id: int) -> list[RelationshipView]:
    """The relationships of an item in both directions, ordered by kind then other title."""
    rels = session.scalars(select(Relationship).where(
        or_(Relationship.source_id == item_id, Relationship.target_id == item_id)))
    views: list[RelationshipView] = []
    for rel in rels:
        outgoing = rel.source_id == item_id
        other = session.get(Item, rel.target_id if outgoing else rel.source_id)
        if other is None:
            continue
        views.append(RelationshipView(rel.id, rel.kind, outgoing, other.id, other.title,
                                      other.kind, rel.note, rel.passage_id))
    views.sort(key=lambda v: (not v.outgoing, v.kind, v.other_title.casefold(), v.id))
    return views


def add_relationship(
    session: Session, source_id: int, target_id: int, kind: str, note: str | None = None,
    passage_id: int | None = None,
) -> Relationship:
    """Link ``source_id`` to ``target_id`` with ``kind`` (one of RELATIONSHIP_KINDS).

    Raises ValidationError for an unknown kind, a self-link, items of different cases or an
    exact duplicate (same source, target and kind); NotFoundError for a missing item.
    """
    if kind not in RELATIONSHIP_KINDS:
        raise ValidationError(
            f"relationship kind must be one of {', '.join(RELATIONSHIP_KINDS)}; got {kind!r}")
    if source_id == target_id:
        raise ValidationError("an item cannot be related to itself")
    source = session.get(Item, source_id)
    target = session.get(Item, target_id)
    if source is None or target is None:
        raise NotFoundError("an item of this relationship no longer exists")
    if source.case_id != target.case_id:
        raise ValidationError("related items must belong to the same case")
    duplicate = session.scalar(select(Relationship.id).where(
        Relationship.source_id == source_id, Relationship.target_id == target_id,
        Relationship.kind == kind))
    if duplicate is not None:
        raise ValidationError(f"{source.title!r} is already {kind} {target.title!r}")
    rel = Relationship(case_id=source.case_id, source_id=source_id, target_id=target_id,
                       kind=kind, note=note, passage_id=passage_id)
    session.add(rel)
    session.flush()
    log_change(session, "relationship.create", case_id=source.case_id, item_id=source_id,
               summary=f"{source.title} {kind} {target.title}",
               data={"relationship_id": rel.id, "target_id": target_id, "kind": kind})
    return rel


def remove_relationship(session: Session, rel_id: int) -> None:
    """Delete a relationship. Raises NotFoundError when it is gone."""
    rel = lookup.row(session, Relationship, rel_id,
                     f"no relationship with id {rel_id} (it may have been removed)")
    log_change(session, "relationship.delete", case_id=rel.case_id, item_id=rel.source_id,
               summary=rel.kind,
               data={"relationship_id": rel.id, "source_id": rel.source_id,
                     "target_id": rel.target_id, "kind": rel.kind, "note": rel.note})
    session.delete(rel)
    session.flush()


def sync_affiliation(session: Session, person_id: int) -> None:
    """Mirror a person's affiliation as one auto-created "employed by" relationship.

    Auto-created relationships (note ``AUTO_NOTE``) to another organization are removed; one to
    the current affiliation is added unless an "employed by" link to it already exists.
    """
    person = session.get(Item, person_id)
    if not isinstance(person, Person):
        return
    org_id = person.affiliation_id
    autos = session.scalars(select(Relationship).where(
        Relationship.source_id == person_id, Relationship.kind == "employed by",
        Relationship.note == AUTO_NOTE))
    for rel in autos:
        if rel.target_id != org_id:
            remove_relationship(session, rel.id)
    if org_id is None:
        return
    existing = session.scalar(select(Relationship.id).where(
        Relationship.source_id == person_id, Relationship.target_id == org_id,
        Relationship.kind == "employed by"))
    if existing is None:
        add_relationship(session, person_id, org_id, "employed by", note=AUTO_NOTE)
