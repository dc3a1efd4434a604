"""The Trash, as the window (File ▸ Trash…) and the CLI (``casefile trash``, ``casefile case
delete``) use it: a deleted case or deleted items go there, survive restarts, and come back
exactly as they were, evidence links, passages, mentions and change log included.

How the rows are kept is :mod:`casefile.store.trash` (a copy of every deleted row in the
``trash_rows`` table, revision 0009). This module holds the user actions, each one service
function returning :class:`~casefile.services.changes.Changes` with its undo step:

- :func:`delete_case` (``case.delete``): the case and everything in it go to the Trash; its
  undo restores the entry.
- :func:`restore` (``trash.restore``): an entry comes back (a case, or items into their case,
  which must be there); its undo deletes them again (a new entry).
- :func:`empty` (``trash.empty``): entries deleted for good (no undo: callers ask first).

Deleting items (``item.delete`` in :mod:`casefile.services.item_actions`) uses
:func:`move_items` and :func:`take_back_items` from here, so an item delete survives a restart
or a case switch too. No Qt here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from casefile.errors import NotFoundError, ValidationError
from casefile.services import lookup
from casefile.services.audit import log_change
from casefile.services.cases import get_case
from casefile.services.changes import Changes, Step, action, changes
from casefile.store import Case, ChangeLog, Item
from casefile.store import trash as store
from casefile.store.items import ITEM_KINDS
from casefile.store.search import forget_deleted_words
from casefile.store.trash import PutBack, Removal, TrashEntry

#: How the tables an entry holds are named for people, in the order they are listed.
_TABLE_WORDS = (("items", "item"), ("passages", "passage"),
                ("evidence_links", "evidence link"), ("mentions", "mention"),
                ("relationships", "relationship"))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@dataclass(frozen=True)
class TrashListing:
    """One entry of the Trash as listed: ``id`` (what ``trash restore`` takes), ``what``
    (``"case"`` or ``"items"``), ``label`` ("case “Harbor audit”", "person “Ann Lee”"),
    ``case_id`` / ``case_title`` (the case it came from), ``deleted`` (ISO 8601, UTC, seconds),
    ``counts`` (rows by table) and ``item_ids`` (the ids the items had)."""

    id: int
    what: str
    label: str
    case_id: int | None
    case_title: str
    deleted: str
    counts: dict[str, int]
    item_ids: tuple[int, ...]

    @property
    def holds(self) -> str:
        """What the entry holds, in words: "12 items, 30 passages, 4 evidence links"."""
        parts = [_plural(self.counts[t], w) for t, w in _TABLE_WORDS if self.counts.get(t)]
        return ", ".join(parts) or "no items"

    def as_json(self) -> dict[str, Any]:
        """The ``trash list --json`` shape of one entry."""
        return {"id": self.id, "what": self.what, "label": self.label,
                "case_id": self.case_id, "case": self.case_title, "deleted": self.deleted,
                "counts": dict(self.counts), "item_ids": list(self.item_ids)}


def _listing(entry: TrashEntry) -> TrashListing:
    return TrashListing(entry.id, entry.what, entry.label, entry.case_id, entry.case_title,
                        entry.deleted.isoformat(timespec="seconds"), dict(entry.counts or {}),
                        tuple(int(i) for i in entry.item_ids or ()))


def list_trash(session: Session) -> list[TrashListing]:
    """Everything in the Trash, newest first."""
    entries = session.scalars(select(TrashEntry).order_by(TrashEntry.deleted.desc(),
                                                          TrashEntry.id.desc()))
    return [_listing(e) for e in entries]


def get_entry(session: Session, entry_id: int) -> TrashEntry:
    """The Trash entry ``entry_id``. Raises NotFoundError."""
    entry = lookup.row(session, TrashEntry, int(entry_id),
                       f"nothing in the Trash with id {entry_id} (see: casefile trash list)")
    return entry


@dataclass(frozen=True)
class ItemsTrashed:
    """What :func:`move_items` did: the new entry's id, the case, the items' kinds, and the
    documents whose passages or evidence changed (the deleted documents among them)."""

    entry_id: int
    case_id: int
    kinds: frozenset[str]
    documents: frozenset[int]


def _documents_touched(session: Session, removal: Removal) -> set[int]:
    """Documents that lost something in ``removal``: deleted ones, and those whose passages
    were evidence in a deleted link."""
    found = {int(r["id"]) for r in removal.rows.get("documents", [])}
    passages = {int(r["id"]): int(r["document_id"]) for r in removal.rows.get("passages", [])}
    for link in removal.rows.get("evidence_links", []):
        if link.get("document_id") is not None:
            found.add(int(link["document_id"]))
        passage_id = link.get("passage_id")
        if passage_id is None:
            continue
        if int(passage_id) in passages:
            found.add(passages[int(passage_id)])
        else:
            from casefile.store import Passage

            document_id = session.scalar(select(Passage.document_id).where(
                Passage.id == int(passage_id)))
            if document_id is not None:
                found.add(int(document_id))
    return found


def move_items(session: Session, item_ids: Sequence[int], label: str) -> ItemsTrashed:
    """Move items of one case to the Trash with everything that hangs on them (their kind
    rows, evidence links, a document's passages and mentions, follow-up history), under one
    entry labelled ``label``. Raises NotFoundError for an unknown id, ValidationError for
    items of several cases or none."""
    ids = [int(i) for i in item_ids]
    if not ids:
        raise ValidationError("no items to delete")
    found = {i.id: i for i in session.scalars(select(Item).where(Item.id.in_(ids)))}
    for item_id in ids:
        if item_id not in found:
            raise NotFoundError(f"no item with id {item_id}")
    case_ids = {i.case_id for i in found.values()}
    if len(case_ids) != 1:
        raise ValidationError("the items to delete belong to different cases")
    case_id = case_ids.pop()
    case = get_case(session, case_id)
    kinds = frozenset(i.kind for i in found.values())
    # logged first: the change log's newest id always grows, so other windows see the delete
    for item_id in ids:
        item = found[item_id]
        log_change(session, f"{item.kind}.delete", case_id=case_id, item_id=item_id,
                   summary=item.title)
    removal = store.collect(session, {"items": ids})
    documents = _documents_touched(session, removal)
    entry = TrashEntry(what="items", case_id=case_id, case_title=case.title, label=label,
                       item_ids=ids)
    store.remove(session, removal)
    store.store(session, entry, removal)
    return ItemsTrashed(entry.id, case_id, kinds, frozenset(documents))


@dataclass(frozen=True)
class ItemsBack:
    """What :func:`take_back_items` did: the case, the items' ids now (in the entry's order),
    their kinds, the documents touched, and the rows that could not come back (table ->
    count)."""

    case_id: int
    item_ids: tuple[int, ...]
    kinds: frozenset[str]
    documents: frozenset[int]
    left_out: dict[str, int]
    label: str


def _reindex(session: Session, item_ids: Sequence[int]) -> list[Item]:
    from casefile.services.items import reindex

    restored = list(session.scalars(select(Item).where(Item.id.in_(list(item_ids)))))
    for item in restored:
        reindex(session, item, new=True)
    return restored


def take_back_items(session: Session, entry_id: int) -> ItemsBack:
    """Put the items of Trash entry ``entry_id`` back into their case (module
    :mod:`casefile.store.trash` says how ids and references are kept) and delete the entry.
    Raises NotFoundError when there is no such entry or its case is not in the workspace
    (restore the case first), ValidationError when the entry is a whole case."""
    entry = get_entry(session, entry_id)
    if entry.what != "items":
        raise ValidationError(f"Trash entry {entry_id} is a whole case; restore it as one")
    if entry.case_id is None or session.get(Case, entry.case_id) is None:
        raise NotFoundError(f"the case “{entry.case_title}” of {entry.label} is not in the "
                            "workspace; restore the case from the Trash first")
    case_id, label = entry.case_id, entry.label
    removal = store.load(session, entry.id)
    put = store.put_back(session, removal)
    documents = _documents_touched(session, removal)
    documents = {put.new_id("items", d) or d for d in documents}
    new_ids = [n for n in (put.new_id("items", i) for i in entry.item_ids) if n is not None]
    restored = {i.id: i for i in _reindex(session, new_ids)}
    _remap_layout(session, case_id, put)
    for item_id in reversed(new_ids):
        item = restored[item_id]
        log_change(session, f"{item.kind}.restore", case_id=case_id, item_id=item.id,
                   summary=item.title)
    store.drop(session, [entry_id])
    return ItemsBack(case_id, tuple(new_ids), frozenset(i.kind for i in restored.values()),
                     frozenset(documents), dict(put.left_out), label)


def _remap_layout(session: Session, case_id: int, put: PutBack) -> None:
    """Move the graph positions of items that came back under new ids to those ids."""
    moved = {old: new for old, new in put.ids.get("items", {}).items() if old != new}
    case = session.get(Case, case_id)
    if not moved or case is None or not case.graph_layout:
        return
    layout = dict(case.graph_layout)
    positions = dict(layout.get("positions") or {})
    for old, new in moved.items():
        if str(old) in positions:
            positions[str(new)] = positions.pop(str(old))
    pinned = [moved.get(int(i), int(i)) for i in layout.get("pinned") or []]
    session.execute(update(Case).where(Case.id == case_id).values(
        graph_layout={**layout, "positions": positions, "pinned": pinned},
        updated=Case.updated))


def left_out_phrase(left_out: dict[str, int]) -> str:
    """" (2 evidence links were left out: what they named was deleted since)" or ""."""
    if not left_out:
        return ""
    words = dict(_TABLE_WORDS)
    parts = [_plural(n, words.get(t, t.replace("_", " ").rstrip("s"))) for t, n in
             sorted(left_out.items())]
    return f" ({', '.join(parts)} left out: what they named was deleted since)"


@action("case.delete")
def delete_case(session: Session, case_id: int) -> Changes:
    """Move the case ``case_id`` to the Trash with everything in it (items, passages,
    evidence links, relationships, mentions, follow-up history, change log). ``value`` is the
    Trash entry's id; ``undo`` restores it. Raises NotFoundError."""
    case = get_case(session, case_id)
    title = case.title
    # logged outside the case (its own log goes to the Trash with it) and before the delete,
    # so the change log's newest id grows and other windows notice
    log_change(session, "case.delete", case_id=None, summary=title, data={"case_id": case_id})
    removal = store.collect(session, {"cases": [case_id]})
    entry = TrashEntry(what="case", case_id=case_id, case_title=title,
                       label=f"case “{title}”", item_ids=removal.ids("items"))
    store.remove(session, removal)
    store.store(session, entry, removal)
    undo = Step("trash.restore", {"entry_id": entry.id}, label=f"Undo delete case “{title}”")
    # everything in the case went: every kind, its evidence and its suggestions (views that
    # show another window's copy of the case refresh from this, not from ``cases`` alone)
    return changes(case_id, kinds=ITEM_KINDS, cases=True, deleted=removal.ids("items"),
                   evidence=True, suggestions=True, label=f"delete case “{title}”",
                   message=f"Moved case “{title}” to the Trash (File ▸ Trash… brings it back).",
                   value=entry.id, undo=undo)


def case_in_trash(session: Session, case_id: int) -> bool:
    """Whether case ``case_id`` lies in the Trash (moved there, not restored or emptied)."""
    return session.scalar(select(TrashEntry.id).where(
        TrashEntry.what == "case", TrashEntry.case_id == case_id).limit(1)) is not None


@action("trash.restore")
def restore(session: Session, entry_id: int) -> Changes:
    """Bring Trash entry ``entry_id`` back exactly as it was deleted (a case with everything
    in it, or items into their case) and take it out of the Trash. ``value`` is the case's id
    (a case restored) or the items' ids; ``undo`` deletes them again. Raises NotFoundError
    (no such entry; the items' case is not there)."""
    entry = get_entry(session, entry_id)
    if entry.what == "items":
        from casefile.services.item_actions import restore as restore_items

        return restore_items(session, entry_id)
    old_id, title = int(entry.case_id or 0), entry.case_title
    removal = store.load(session, entry.id)
    put = store.put_back(session, removal)
    case_id = put.new_id("cases", old_id)
    if case_id is None:
        raise NotFoundError(f"Trash entry {entry_id} holds no case row")
    item_ids = [n for n in (put.new_id("items", i) for i in removal.ids("items"))
                if n is not None]
    _reindex(session, item_ids)
    _remap_layout(session, case_id, put)
    store.drop(session, [entry_id])
    now_title = session.get(Case, case_id).title  # type: ignore[union-attr]
    log_change(session, "case.restore", case_id=case_id, summary=now_title,
               data={"entry_id": entry_id})
    message = f"Restored case “{now_title}” from the Trash"
    if put.renamed:
        message += f" (“{title}” is taken now)"
    message += left_out_phrase(dict(put.left_out)) + "."
    undo = Step("case.delete", {"case_id": case_id}, label=f"Redo delete case “{title}”")
    return changes(case_id, kinds=ITEM_KINDS, created=item_ids, cases=True, evidence=True,
                   suggestions=True, label=f"restore case “{title}”", message=message,
                   value=case_id, undo=undo)


def _forget_case_titles(session: Session, case_ids: set[int]) -> None:
    """Blank the title in the change-log rows kept outside the cases ``case_ids`` (their
    delete and restore rows): the rest of their log went with them."""
    if not case_ids:
        return
    for row in session.scalars(select(ChangeLog).where(
            ChangeLog.case_id.is_(None), ChangeLog.action.in_(("case.delete", "case.restore")))):
        if isinstance(row.data, dict) and row.data.get("case_id") in case_ids:
            row.summary = "a case deleted for good"
            row.data = {"case_id": row.data["case_id"]}


@action("trash.empty")
def empty(session: Session, entry_ids: Sequence[int] | None = None) -> Changes:
    """Delete Trash entries for good: those of ``entry_ids``, or every one (None). ``value``
    is how many went; there is no undo (ask before calling). Raises NotFoundError for an
    unknown id."""
    if entry_ids is None:
        ids = list(session.scalars(select(TrashEntry.id)))
    else:
        ids = [get_entry(session, i).id for i in entry_ids]
    cases = {int(e.case_id) for e in session.scalars(
        select(TrashEntry).where(TrashEntry.id.in_(ids), TrashEntry.what == "case"))
        if e.case_id is not None}
    n, _blobs = store.drop_for_good(session, ids)
    _forget_case_titles(session, cases)
    forget_deleted_words(session)
    log_change(session, "trash.empty", case_id=None, summary=_plural(n, "entry").replace(
        "entrys", "entries"), data={"entry_ids": ids})
    message = ("The Trash was already empty." if not n else
               f"Emptied the Trash: {_plural(n, 'entry').replace('entrys', 'entries')} "
               "deleted for good from the workspace. Backups taken before still hold them "
               "until they age out (casefile backup list).")
    return changes(None, label="empty the Trash", message=message, value=n)
