"""Relationship actions of the editor: add and remove a typed link between people and
organizations, each returning :class:`Changes` with its undo :class:`Step`. A removed
relationship comes back under its own id. ChangeLog rows: ``relationship.create`` /
``relationship.delete`` (``services.relationships``) and ``relationship.restore``.

No Qt here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import inspect
from sqlalchemy.orm import Session

from casefile.errors import ConflictError, NotFoundError
from casefile.services import relationships
from casefile.services.audit import log_change
from casefile.services.changes import Changes, Step, action, changes
from casefile.store import Item
from casefile.store.evidence import Relationship


def _ends(session: Session, source_id: int, target_id: int) -> tuple[Item, Item]:
    source, target = session.get(Item, source_id), session.get(Item, target_id)
    if source is None or target is None:
        raise NotFoundError("an item of this relationship no longer exists")
    return source, target


def _changes(source: Item, target: Item, label: str, message: str, undo: Step,
             value: Any = None) -> Changes:
    return changes(source.case_id, kinds={source.kind, target.kind},
                   updated={source.id, target.id}, label=label, message=message,
                   value=value, undo=undo)


@action("relationship.add")
def add(session: Session, source_id: int, target_id: int, kind: str,
        note: str | None = None, passage_id: int | None = None) -> Changes:
    """Link ``source_id`` to ``target_id`` with ``kind`` (employed by, part of, reports to,
    related to). ``value`` is the relationship's id; ``undo`` removes it. Raises
    ValidationError / NotFoundError as ``relationships.add_relationship``."""
    rel = relationships.add_relationship(session, source_id, target_id, kind, note=note,
                                         passage_id=passage_id)
    source, target = _ends(session, source_id, target_id)
    label = f"add relationship {source.title} {kind} {target.title}"
    return _changes(source, target, label, f"{source.title} is {kind} {target.title} now.",
                    Step("relationship.remove", {"relationship_id": rel.id},
                         label=f"Undo {label}"), value=rel.id)


@action("relationship.remove")
def remove(session: Session, relationship_id: int) -> Changes:
    """Delete a relationship; ``undo`` brings it back under its own id. Raises NotFoundError
    when it is gone."""
    rel = session.get(Relationship, relationship_id)
    if rel is None:
        raise NotFoundError(f"no relationship with id {relationship_id} (it may have been "
                            "removed)")
    row = {a.key: getattr(rel, a.key) for a in inspect(Relationship).column_attrs}
    source, target = _ends(session, rel.source_id, rel.target_id)
    relationships.remove_relationship(session, relationship_id)
    label = f"remove relationship {source.title} {row['kind']} {target.title}"
    return _changes(source, target, label,
                    f"{source.title} is no longer {row['kind']} {target.title}.",
                    Step("relationship.restore", {"row": row}, label=f"Undo {label}"))


@action("relationship.restore")
def restore(session: Session, row: Mapping[str, Any]) -> Changes:
    """Undo of :func:`remove`: the relationship ``row`` (its column values) comes back under
    its own id; ``undo`` removes it again. Raises ConflictError when it is still there,
    NotFoundError when an item at either end was deleted."""
    if session.get(Relationship, row["id"]) is not None:
        raise ConflictError("cannot restore the relationship: it is still there")
    source, target = _ends(session, row["source_id"], row["target_id"])
    rel = Relationship(**dict(row))
    session.add(rel)
    session.flush()
    log_change(session, "relationship.restore", case_id=rel.case_id, item_id=rel.source_id,
               summary=f"{source.title} {rel.kind} {target.title}",
               data={"relationship_id": rel.id, "target_id": rel.target_id, "kind": rel.kind})
    label = f"restore relationship {source.title} {rel.kind} {target.title}"
    return _changes(source, target, label, f"{source.title} is {rel.kind} {target.title} again.",
                    Step("relationship.remove", {"relationship_id": rel.id},
                         label=f"Undo {label}"), value=rel.id)
