"""Evidence actions of the window, each returning :class:`Changes` with its undo
:class:`Step`: link a span of a document to an item, remove an evidence link, change a link's
relation.

Each takes a Session and plain values, does one user action in the caller's transaction (the
ChangeLog rows are those of ``services.evidence`` / ``services.editing``) and returns what
changed. A removed link comes back under its own id (``editing.restore_link``), its passage
too if it went, so later steps still name the right rows.

No Qt here.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from casefile.quoting import quoted
from casefile.services import editing, evidence, items, lookup
from casefile.services.changes import Changes, Step, action, changes, moved_on, next_doing
from casefile.services.editing import LinkSnapshot
from casefile.store import EvidenceLink, Item, Passage


def _quote(text: str, limit: int = 40) -> str:
    return quoted(text, limit) or "“”"


def _link_parts(session: Session, link_id: int) -> tuple[EvidenceLink, Item, int | None]:
    """The link, its item and the document it points into. Raises NotFoundError."""
    link = lookup.row(session, EvidenceLink, link_id,
                      f"no evidence link with id {link_id} (it may have been removed)")
    item = items.get_item(session, link.item_id)
    document_id = link.document_id
    if link.passage_id is not None:
        passage = session.get(Passage, link.passage_id)
        document_id = passage.document_id if passage is not None else None
    return link, item, document_id


@action("evidence.link_span")
def link_span(
    session: Session, item_id: int, document_id: int, start: int, end: int, *,
    relation: str = "supports", note: str | None = None,
) -> Changes:
    """Link ``document.text[start:end]`` (Python str offsets) to an item as ``relation``
    evidence, reusing a passage with that span or making one. ``value`` is the
    :class:`~casefile.services.editing.LinkedSpan`; ``undo`` removes the link (and the passage
    if this call made it). Raises ValidationError for a bad span or relation, NotFoundError
    for unknown ids."""
    linked = editing.link_span(session, item_id, document_id, start, end, relation=relation,
                               note=note)
    item = items.get_item(session, item_id)
    passage = session.get(Passage, linked.passage_id)
    quote = _quote(passage.quote if passage is not None else "")
    label = f"link {quote} to {item.title}"
    undo = Step("evidence.unlink", {"link_id": linked.link_id,
                                    "drop_unused_passage": linked.passage_created},
                label=f"Undo {label}")
    return changes(item.case_id, kinds={item.kind}, updated={item.id}, documents={document_id},
                   evidence=True, label=label,
                   message=f"Linked {quote} as {relation} evidence for {item.title}.",
                   value=linked, undo=undo)


@action("evidence.unlink")
def unlink(session: Session, link_id: int, *, drop_unused_passage: bool = False) -> Changes:
    """Remove an evidence link; the passage stays unless ``drop_unused_passage`` and no other
    link uses it. ``undo`` restores the link (and passage) under the same ids. Raises
    NotFoundError when the link is gone."""
    _link, item, document_id = _link_parts(session, link_id)
    snap = editing.snapshot_link(session, link_id)
    editing.unlink_span(session, link_id, drop_unused_passage=drop_unused_passage)
    label = f"remove an evidence link of {item.title}"
    undo = Step("evidence.restore", {"snapshot": snap,
                                     "drop_unused_passage": drop_unused_passage},
                label=f"Undo {label}")
    return changes(item.case_id, kinds={item.kind}, updated={item.id},
                   documents={document_id} if document_id is not None else (),
                   evidence=True, label=label,
                   message=f"Removed an evidence link of {item.title}.", undo=undo)


@action("evidence.restore")
def restore(session: Session, snapshot: LinkSnapshot, *,
            drop_unused_passage: bool = False) -> Changes:
    """Undo of :func:`unlink`: the link comes back under its own id, with its passage if that
    went too. ``undo`` removes it again the same way. Raises NotFoundError when its item or
    document was deleted, ConflictError when the link is still there."""
    link = editing.restore_link(session, snapshot)
    _link, item, document_id = _link_parts(session, link.id)
    undo = Step("evidence.unlink", {"link_id": link.id,
                                    "drop_unused_passage": drop_unused_passage},
                label=f"Redo remove an evidence link of {item.title}")
    return changes(item.case_id, kinds={item.kind}, updated={item.id},
                   documents={document_id} if document_id is not None else (),
                   evidence=True, label=f"restore an evidence link of {item.title}",
                   message=f"Restored an evidence link of {item.title}.", undo=undo)


@action("evidence.relation")
def set_relation(session: Session, link_id: int, relation: str, expected: str | None = None,
                 doing: str = "") -> Changes:
    """Change an evidence link's relation (supports, contradicts, mentions, context); ``undo``
    puts the previous relation back, expecting the one this call left. ``expected``: the
    relation the link must have now (an undo or redo, named by ``doing``). Raises
    ValidationError for an unknown relation, NotFoundError when the link is gone,
    ConflictError when its relation is no longer ``expected`` (nothing is written)."""
    link, item, document_id = _link_parts(session, link_id)
    before = link.relation
    if expected is not None and before != expected:
        raise moved_on(f"The evidence link of {item.title}", doing)
    evidence.update_link(session, link_id, relation=relation)
    label = f"relation {before} → {relation}"
    undo = Step("evidence.relation", {"link_id": link_id, "relation": before,
                                      "expected": relation, "doing": next_doing(doing)},
                label=f"Undo {label}")
    return changes(item.case_id, kinds={item.kind}, updated={item.id},
                   documents={document_id} if document_id is not None else (),
                   evidence=True, label=label,
                   message=f"Evidence for {item.title} now {relation}.", undo=undo)
