"""The item actions of the window and the CLI, each returning :class:`Changes` with its undo
:class:`Step`: create an item (optionally from a selection of a document), edit its fields,
delete items.

Every function takes a Session and plain values, does one user action in the caller's
transaction (writing the ChangeLog rows of the services it uses) and returns what changed.
Undo and redo are the registered actions below: a deleted item goes to the Trash
(:mod:`casefile.services.trash`) and its undo brings it back from there under its own id, with
its links, passages and mentions, so later steps still name the right rows and the delete can
also be taken back from File ▸ Trash… after a restart; an undone create comes back from an
in-memory snapshot (:func:`casefile.services.editing.restore_item`); an edit's undo expects
the version the edit saved, so it never writes over another writer's later save (it is
refused with ConflictError instead).

No Qt here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from casefile.errors import ConflictError
from casefile.services import editing, items, published
from casefile.services.changes import Changes, Step, action, changes, moved_on, next_doing
from casefile.services.editing import ItemSnapshot, LinkedSpan, LinkSnapshot
from casefile.store import Document, Item, Passage


@dataclass(frozen=True)
class NewItem:
    """``Changes.value`` of :func:`create`: the new item's id and, when it was created from a
    selection, the passage and evidence link made for it (``linked``)."""

    item_id: int
    linked: LinkedSpan | None = None


def _named(kind: str, title: str) -> str:
    return f"{kind} “{title}”"


def _plain(value: Any) -> Any:
    """A field value as a Step may keep it (lists copied, so later edits cannot change it)."""
    return list(value) if isinstance(value, list) else value


@action("item.create")
def create(
    session: Session, case_id: int, kind: str, title: str,
    fields: Mapping[str, Any] | None = None, *,
    span: Sequence[int] | None = None, relation: str = "mentions",
) -> Changes:
    """Create an item of ``kind`` titled ``title`` with ``fields`` (see ``items.FIELDS``);
    with ``span`` = ``(document_id, start, end)`` (Python str offsets) also link that text of
    the document to it as ``relation`` evidence, a passage being made if none has this span.

    ``value`` is a :class:`NewItem`; ``undo`` removes the item (and the link, and a passage made
    for it). Raises ValidationError for a bad kind, field, value, span or relation,
    NotFoundError for an unknown case or document.
    """
    item = items.create_item(session, case_id, kind, title, **dict(fields or {}))
    linked = None
    documents: set[int] = set()
    if span is not None:
        document_id, start, end = (int(v) for v in span)
        linked = editing.link_span(session, item.id, document_id, start, end, relation=relation)
        documents.add(document_id)
    label = f"new {_named(kind, item.title)}"
    message = f"Added {_named(kind, item.title)}"
    message += f" with the selected passage as {relation} evidence." if linked else "."
    undo = Step("item.discard", {
        "item_id": item.id,
        "link_id": linked.link_id if linked else None,
        "drop_passage": bool(linked and linked.passage_created),
        "state": editing.state_of(session, item.id),
    }, label=f"Undo {label}")
    return changes(case_id, kinds={kind}, created={item.id}, documents=documents,
                   evidence=linked is not None, label=label, message=message,
                   value=NewItem(item.id, linked), undo=undo)


@action("item.discard")
def discard(session: Session, item_id: int, link_id: int | None = None,
            drop_passage: bool = False, state: dict[str, str] | None = None) -> Changes:
    """Undo of :func:`create`: remove the evidence link ``link_id`` made with the item (its
    passage too when ``drop_passage`` and nothing else uses it), then the item. ``undo``
    brings both back under the same ids. ``state`` is the item's ``editing.state_of`` digests
    when it was made. Raises NotFoundError when they are gone, ConflictError (removing
    nothing) when one differs: another program changed the item since."""
    part = editing.changed_part(session, item_id, state or {})
    if part is not None:
        item = items.get_item(session, item_id)
        raise moved_on(editing.part_phrase(part, _named(item.kind, item.title)))
    link_snap: LinkSnapshot | None = None
    documents: set[int] = set()
    if link_id is not None:
        link_snap = editing.snapshot_link(session, link_id)
        documents |= _link_documents(session, [link_snap.link])
        editing.unlink_span(session, link_id, drop_unused_passage=drop_passage)
    snap = editing.snapshot_item(session, item_id)
    items.delete_item(session, item_id)
    title = _named(snap.kind, str(snap.values.get("title")))
    undo = Step("item.recreate", {"snapshot": snap, "link": link_snap,
                                  "drop_passage": drop_passage},
                label=f"Redo new {title}")
    return changes(snap.values["case_id"], kinds={snap.kind}, deleted={item_id},
                   documents=documents, evidence=link_id is not None,
                   label=f"remove new {title}", message=f"Removed {title}.", undo=undo)


@action("item.recreate")
def recreate(session: Session, snapshot: ItemSnapshot, link: LinkSnapshot | None = None,
             drop_passage: bool = False) -> Changes:
    """Redo of :func:`create` after :func:`discard`: the item and its link (and passage) come
    back under their own ids. Raises ConflictError when the item is still there,
    NotFoundError when the linked document was deleted."""
    item = editing.restore_item(session, snapshot)
    documents: set[int] = set()
    if link is not None:
        editing.restore_link(session, link)
        documents |= _link_documents(session, [link.link])
    title = _named(item.kind, item.title)
    undo = Step("item.discard", {"item_id": item.id,
                                 "link_id": link.link_id if link else None,
                                 "drop_passage": drop_passage,
                                 "state": editing.state_of(session, item.id)},
                label=f"Undo new {title}")
    return changes(item.case_id, kinds={item.kind}, created={item.id}, documents=documents,
                   evidence=link is not None, label=f"new {title}",
                   message=f"Added {title} again.", value=NewItem(item.id), undo=undo)


@action("item.edit")
def edit(
    session: Session, item_id: int, fields: Mapping[str, Any], *,
    expected_version: int | None = None, loaded: Mapping[str, Any] | None = None,
    doing: str = "",
) -> Changes:
    """Change some fields of an item (``items.update_item``, with its optimistic locking:
    ``expected_version`` is the version the editor loaded, ``loaded`` the values it started
    from). ``value`` is the item's new version; ``undo`` puts the values stored before back,
    expecting that new version, so it is refused (ConflictError) once someone else saved the
    item since. Raises ConflictError, ValidationError, NotFoundError as ``update_item``; as an
    undo or redo step (``doing``) the refusal says "… was changed since (by another program);
    nothing was undone", as every step's does.
    """
    item = items.get_item(session, item_id)
    editable = set(items.FIELDS[item.kind]) | set(items.COMMON_FIELDS)
    before = {name: _plain(getattr(item, name)) for name in fields if name in editable}
    old_published = item.published if isinstance(item, Document) else None
    try:
        updated = items.update_item(session, item_id, expected_version=expected_version,
                                    loaded=loaded, **dict(fields))
    except ConflictError as exc:
        if not doing:
            raise  # the editor's own save: its dialog shows both values
        said = moved_on(_named(item.kind.capitalize(), item.title), doing)
        raise ConflictError(str(said), item_id=exc.item_id, title=exc.title, kind=exc.kind,
                            version=exc.version, fields=exc.fields) from None
    names = ", ".join(sorted(fields))
    title = _named(updated.kind, updated.title)
    label = f"edit {names} of {title}"
    message = f"Saved {names} of {title}"
    kinds, moved, suggestions = {updated.kind}, [], False
    if isinstance(updated, Document) and updated.published != old_published:
        # the dates suggested from the text follow the new published date (an undo, which
        # edits the field back, moves them back the same way)
        found = published.rederive(session, updated, old_published, updated.published)
        moved, suggestions = found.moved, bool(found.touched_suggestions or found.added)
        kinds |= {i.kind for i in (session.get(Item, m) for m in moved) if i is not None}
        message += found.phrase(session)
    undo = Step("item.edit", {
        "item_id": item_id, "fields": before, "expected_version": updated.version,
        "loaded": {name: _plain(value) for name, value in fields.items()},
        "doing": next_doing(doing),
    }, label=f"Undo {label}")
    return changes(updated.case_id, kinds=kinds, updated={item_id, *moved},
                   documents={item_id} if isinstance(updated, Document) else (),
                   suggestions=suggestions, label=label, message=message + ".",
                   value=updated.version, undo=undo)


def merged_edit_undo(earlier: Step, later: Step) -> Step:
    """The undo of two consecutive :func:`edit` calls on the same fields of one item, as one
    step: put back the values from before ``earlier`` (its undo), expecting the version
    ``later`` saved (so it is still refused after another writer's save)."""
    if earlier.action != "item.edit" or later.action != "item.edit":
        raise ValueError("only the undo steps of two item edits merge")
    return Step("item.edit", {**later.params, "fields": dict(earlier.params["fields"])},
                label=earlier.label)


@action("item.delete")
def delete(session: Session, item_ids: Sequence[int], as_undo_of: str | None = None
           ) -> Changes:
    """Delete items with their evidence links (a document with its passages and mentions):
    they go to the Trash (:func:`casefile.services.trash.move_items`), so they can be brought
    back after a restart too. ``value`` is the Trash entry's id; ``undo`` restores it, the
    items under their own ids with what hung on them. ``as_undo_of`` names the action this
    delete undoes ("import 2 documents"), for the messages. Raises NotFoundError."""
    from casefile.services import trash

    ids = [int(i) for i in item_ids]
    named = {i.id: (i.kind, i.title) for i in session.scalars(
        select(Item).where(Item.id.in_(ids)))}
    kinds_titles = [named.get(i, ("item", str(i))) for i in ids]
    label = _delete_label(kinds_titles)
    entry_label = label.removeprefix("delete ") if as_undo_of is None else \
        f"{as_undo_of} (undone)"
    moved = trash.move_items(session, ids, entry_label)
    undo = Step("item.restore", {"entry_id": moved.entry_id, "as_undo_of": as_undo_of},
                label=f"Undo {label}" if as_undo_of is None else f"Redo {as_undo_of}")
    message = (f"{label[0].upper()}{label[1:]} (in the Trash)." if as_undo_of is None
               else f"Undid {as_undo_of}: {_count(kinds_titles)} taken out.")
    return changes(moved.case_id, kinds=moved.kinds, deleted=ids, documents=moved.documents,
                   evidence=True, label=label, message=message, value=moved.entry_id,
                   undo=undo)


def _count(kinds_titles: Sequence[tuple[str, str]]) -> str:
    kinds = {kind for kind, _title in kinds_titles}
    word = "document" if kinds == {"document"} else "item"
    return f"{len(kinds_titles)} {word}{'s' if len(kinds_titles) != 1 else ''}"


@action("item.restore")
def restore(session: Session, entry_id: int, as_undo_of: str | None = None) -> Changes:
    """Undo of :func:`delete`, and File ▸ Trash ▸ Restore of deleted items: bring the items of
    Trash entry ``entry_id`` back with their links, references and (for documents) passages
    and mentions (:func:`casefile.services.trash.take_back_items`); ``undo`` deletes them
    again. ``as_undo_of`` as for :func:`delete` (the restore is then a redo of that action).
    ``value`` is the items' ids now. Raises NotFoundError (no such entry; the case is gone)."""
    from casefile.services import trash

    back = trash.take_back_items(session, entry_id)
    kinds_titles = [(i.kind, i.title) for i in (session.get(Item, n) for n in back.item_ids)
                    if i is not None]
    label = _delete_label(kinds_titles)
    undo = Step("item.delete", {"item_ids": list(back.item_ids), "as_undo_of": as_undo_of},
                label=f"Redo {label}" if as_undo_of is None else f"Undo {as_undo_of}")
    restored_what = label.replace("delete", "restored", 1)
    message = (f"{restored_what[0].upper()}{restored_what[1:]}" if as_undo_of is None
               else f"Redid {as_undo_of}: {_count(kinds_titles)} back")
    message += trash.left_out_phrase(back.left_out) + "."
    return changes(back.case_id, kinds=back.kinds, created=back.item_ids,
                   documents=back.documents, evidence=True, label=f"undo {label}",
                   message=message, value=list(back.item_ids), undo=undo)


def _delete_label(kinds_titles: Sequence[tuple[str, str]]) -> str:
    if len(kinds_titles) == 1:
        return f"delete {_named(*kinds_titles[0])}"
    return f"delete {len(kinds_titles)} items"


def _link_documents(session: Session, links: Sequence[Mapping[str, Any]]) -> set[int]:
    """The documents the evidence link rows ``links`` point into (their passages' documents,
    or the whole document linked)."""
    found = {int(row["document_id"]) for row in links if row.get("document_id") is not None}
    passage_ids = [row["passage_id"] for row in links if row.get("passage_id") is not None]
    if passage_ids:
        found |= set(session.scalars(
            select(Passage.document_id).where(Passage.id.in_(passage_ids))))
    return found

