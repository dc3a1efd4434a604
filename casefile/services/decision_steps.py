"""The decisions on suggestions as undoable user actions: :func:`accept`, :func:`accept_as`,
:func:`merge` and :func:`reject` return :class:`~casefile.services.changes.Changes` (value: the
:class:`~casefile.services.decision_making.Decision`; message: one sentence naming everything
made) whose ``undo`` is :func:`undo_decision`, whose own undo is :func:`redo_decision`
(ARCHITECTURE.md, "One way in for changes").

Part of :mod:`casefile.services.decisions`, which re-exports these names. No Qt here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from casefile.errors import ConflictError
from casefile.services import lookup
from casefile.services.audit import log_change
from casefile.services.changes import Changes, Step, action, changes, moved_on
from casefile.services.decision_making import (
    Decision,
    _short,
    accept_suggestion,
    merge_suggestion,
    reject_suggestion,
)
from casefile.services.items import reindex
from casefile.services.suggestion_list import KIND_WORDS
from casefile.store import Event, EvidenceLink, Item, Mention, Passage, Question, search


def _quoted(kind: str, title: str) -> str:
    return f"{KIND_WORDS.get(kind, kind)} “{_short(title)}”"


def _and(parts: Sequence[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _item_phrase(session: Session, item_id: int) -> str:
    item = session.get(Item, item_id)
    if item is None:
        return f"item {item_id}"
    phrase = _quoted(item.kind, item.title)
    if isinstance(item, Question) and item.due is not None:
        phrase += f" due {item.due.isoformat()}"
    elif isinstance(item, Event) and item.date is not None:
        phrase += f" dated {item.date.isoformat()}"
    return phrase


def _message(session: Session, d: Decision) -> str:
    """One sentence naming everything the decision made."""
    evidence_part = f"{_plural(len(d.mention_ids), 'mention')} as evidence"
    extra = "".join(f", {r}" for r in d.remarks)
    if d.action == "reject":
        return (f"Rejected {_quoted(d.kind, d.name)}; it will not be suggested again in this "
                "or any other case.")
    if d.action == "merge":
        return (f"Merged “{_short(d.name)}” into {_quoted(d.kind, d.title or '')}{extra} "
                f"({evidence_part}).")
    if d.created:
        main = [i for i in d.created_ids if i == d.item_id]
        others = [i for i in d.created_ids if i != d.item_id]
        names = [_item_phrase(session, i) for i in main + others]
        return f"Added {_and(names)}{extra} ({evidence_part})."
    return (f"Linked {_plural(len(d.mention_ids), 'mention')} to the existing "
            f"{_quoted(d.kind, d.title or '')}{extra}.")


def _record(session: Session, case_id: int, d: Decision, label: str) -> dict[str, Any]:
    """The plain-value account of a decision its undo and redo steps work from; ``states``
    holds each created item's :func:`~casefile.services.editing.state_of` digest."""
    from casefile.services.editing import state_of

    mentions = []
    documents: set[int] = set()
    for mid in d.mention_ids:
        m = session.get(Mention, mid)
        if m is not None:
            mentions.append([m.id, m.item_id, m.status])
            documents.add(m.document_id)
    return {
        "case_id": case_id, "action": d.action, "kind": d.kind, "name": d.name,
        "item_id": d.item_id, "label": label, "message": _message(session, d),
        "mentions": mentions, "documents": sorted(documents),
        "created": list(d.created_ids), "updated": list(d.updated_ids),
        "passages": list(d.passage_ids), "links": list(d.link_ids),
        "fields": [list(f) for f in d.field_changes], "kinds": sorted(d.kinds | {d.kind}),
        "states": {str(i): state_of(session, i) for i in d.created_ids},
    }


def _decision_changes(session: Session, case_id: int, d: Decision, label: str) -> Changes:
    record = _record(session, case_id, d, label)
    return changes(
        case_id, kinds=record["kinds"], created=d.created_ids, updated=d.updated_ids,
        documents=record["documents"], evidence=bool(d.links or d.passages),
        suggestions=True, label=label, message=record["message"], value=d,
        undo=Step("suggestion.undo", {"record": record}, f"undo {label}"))


@action("suggestion.accept")
def accept(session: Session, case_id: int, kind: str, name: str, *, variant: str | None = None,
           title: str | None = None) -> Changes:
    """Accept a suggestion (see :func:`accept_suggestion`) as one undoable user action:
    returns Changes whose value is the Decision, whose message names every item made
    ("Added person “Scott Israel” and organization “Broward County Sheriff's Office”
    (3 mentions as evidence).") and whose ``undo`` removes them again. Errors as for
    :func:`accept_suggestion`."""
    d = accept_suggestion(session, case_id, kind, name, variant=variant, title=title)
    verb = "accept" if title is None else "accept as"
    return _decision_changes(session, case_id, d, f"{verb} {_quoted(kind, name)}")


@action("suggestion.accept_as")
def accept_as(session: Session, case_id: int, kind: str, name: str, title: str, *,
              variant: str | None = None) -> Changes:
    """Accept a suggestion under the name ``title`` ("Accept as…"); as :func:`accept`."""
    return accept(session, case_id, kind, name, variant=variant, title=title)


@action("suggestion.merge")
def merge(session: Session, case_id: int, kind: str, name: str, target_id: int, *,
          variant: str | None = None) -> Changes:
    """Merge a suggestion into an existing item (see :func:`merge_suggestion`) as one
    undoable user action; the undo takes back the alias or role added and the links."""
    d = merge_suggestion(session, case_id, kind, name, target_id, variant=variant)
    return _decision_changes(session, case_id, d, f"merge {_quoted(kind, name)}")


@action("suggestion.reject")
def reject(session: Session, case_id: int, kind: str, name: str, *,
           variant: str | None = None) -> Changes:
    """Reject a suggestion (see :func:`reject_suggestion`) as one undoable user action; the
    undo puts its mentions back to "suggested"."""
    d = reject_suggestion(session, case_id, kind, name, variant=variant)
    return _decision_changes(session, case_id, d, f"reject {_quoted(kind, name)}")


def _row(obj: Any) -> dict[str, Any]:
    from sqlalchemy import inspect

    return {a.key: getattr(obj, a.key) for a in inspect(type(obj)).column_attrs}


@action("suggestion.undo")
def undo_decision(session: Session, record: dict[str, Any]) -> Changes:
    """Take back a decision described by ``record`` (the ``undo`` Step of :func:`accept`,
    :func:`merge` or :func:`reject` carries it): its mentions become "suggested" again, the
    evidence links and passages it made and the items it created are removed, an alias or
    role it added is taken back (unless edited since). Items, links or passages already gone
    are skipped. Returns Changes whose ``undo`` is the redo step (same rows, same ids).
    Raises ConflictError, undoing nothing, when another program changed an item it made
    since (its fields, evidence or relationships): removing it would lose that change."""
    from casefile.services.editing import changed_part, part_phrase, snapshot_item

    case_id = int(record["case_id"])
    created = [i for i in record["created"] if session.get(Item, i) is not None]
    states = record.get("states") or {}
    for i in created:
        part = changed_part(session, i, states.get(str(i)) or {})
        if part is not None:
            made_by = "" if i == record["item_id"] else f", which {record['label']} made,"
            raise moved_on(part_phrase(part, _item_phrase(session, i)) + made_by)
    snapshots = [snapshot_item(session, i) for i in created]
    titles = [_item_phrase(session, i) for i in sorted(created,
                                                      key=lambda i: i != record["item_id"])]
    passages = [_row(p) for p in (session.get(Passage, i) for i in record["passages"])
                if p is not None]
    links = [_row(x) for x in (session.get(EvidenceLink, i) for i in record["links"])
             if x is not None]
    back = 0
    for mid, item_id, status in record["mentions"]:
        m = session.get(Mention, mid)
        if m is not None and m.status == status and (m.item_id == item_id or m.item_id is None):
            m.status, m.item_id = "suggested", None
            back += 1
    session.flush()
    touched: set[int] = set()
    for row in links:
        link = session.get(EvidenceLink, row["id"])
        if link is not None:
            touched.add(link.item_id)
            session.delete(link)
    session.flush()
    touched |= _set_fields(session, record["fields"], undoing=True)
    session.flush()
    for item_id in reversed(created):
        item = session.get(Item, item_id)
        if item is not None:
            search.unindex_item(session, item.id)
            session.delete(item)
            session.flush()
    for row in passages:
        p = session.get(Passage, row["id"])
        used = session.scalar(select(EvidenceLink.id).where(EvidenceLink.passage_id == row["id"])
                              .limit(1))
        if p is not None and used is None:
            session.delete(p)
    session.flush()
    remaining = [i for i in touched if i not in created and session.get(Item, i) is not None]
    for i in remaining:
        item = session.get(Item, i)
        assert item is not None
        reindex(session, item)
    from casefile.services.claims import refresh_claims_of

    refresh_claims_of(session, remaining)
    label = str(record["label"])
    removed = f": removed {_and(titles)}" if titles else ""
    message = (f"Undid {label}{removed}; {_plural(back, 'mention')} "
               f"{'is' if back == 1 else 'are'} waiting again.")
    log_change(session, "suggestion.undo", case_id=case_id, item_id=record.get("item_id"),
               summary=label, data={"deleted": created, "mentions": back})
    return changes(
        case_id, kinds=record["kinds"], deleted=created, updated=remaining,
        documents=record["documents"], evidence=True, suggestions=True, label=f"undo {label}",
        message=message,
        undo=Step("suggestion.redo", {"record": record, "items": snapshots,
                                      "passages": passages, "links": links}, f"redo {label}"))


@action("suggestion.redo")
def redo_decision(session: Session, record: dict[str, Any], items: Sequence[Any] = (),
                  passages: Sequence[dict[str, Any]] = (),
                  links: Sequence[dict[str, Any]] = ()) -> Changes:
    """Make a decision again after :func:`undo_decision`: the same passages, items (under
    their ids, via ``editing.restore_item``), links, alias or role, and mention states.
    Raises ConflictError when one of its suggestions was decided again meanwhile,
    NotFoundError when its document was deleted."""
    from casefile.services.editing import restore_item

    case_id = int(record["case_id"])
    mentions = []
    for mid, _item_id, _status in record["mentions"]:
        m = lookup.row(session, Mention, mid,
                       f"cannot redo {record['label']}: its document was deleted")
        if m.status != "suggested":
            raise ConflictError(f"cannot redo {record['label']}: it was decided again since")
        mentions.append(m)
    for row in passages:
        if session.get(Passage, row["id"]) is None:
            session.add(Passage(**row))
    session.flush()
    for snap in items:
        restore_item(session, snap)
    for row in links:
        target = session.get(Item, row["item_id"])
        passage_ok = row.get("passage_id") is None or session.get(
            Passage, row["passage_id"]) is not None
        if session.get(EvidenceLink, row["id"]) is None and target is not None and passage_ok:
            session.add(EvidenceLink(**row))
    session.flush()
    touched: set[int] = set()
    for m, (_mid, item_id, status) in zip(mentions, record["mentions"], strict=True):
        m.status = status
        m.item_id = item_id if item_id is not None and session.get(
            Item, item_id) is not None else None
    touched |= _set_fields(session, record["fields"], undoing=False)
    session.flush()
    for row in links:
        touched.add(int(row["item_id"]))
    for i in touched:
        item = session.get(Item, i)
        if item is not None:
            reindex(session, item)
    from casefile.services.claims import refresh_claims_of

    refresh_claims_of(session, touched)
    label = str(record["label"])
    log_change(session, "suggestion.redo", case_id=case_id, item_id=record.get("item_id"),
               summary=label, data={"created": list(record["created"])})
    return changes(
        case_id, kinds=record["kinds"], created=record["created"],
        updated=[i for i in touched if i not in record["created"]],
        documents=record["documents"], evidence=True, suggestions=True, label=label,
        message=str(record["message"]),
        undo=Step("suggestion.undo", {"record": record}, f"undo {label}"))


def _set_fields(session: Session, fields: Sequence[Sequence[Any]], *, undoing: bool) -> set[int]:
    """Put back (``undoing``) or set again the fields a decision changed: ``fields`` holds
    ``(item_id, name, before, after)``; a field is changed only while it still holds what the
    decision left (``after``) or found (``before``), so a later edit stays. Returns the ids of
    the items changed."""
    changed: set[int] = set()
    for item_id, name, before, after in fields:
        held, value = (after, before) if undoing else (before, after)
        item = session.get(Item, item_id)
        if item is not None and _same(getattr(item, name, None), held):
            setattr(item, name, value)
            changed.add(item_id)
    return changed


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return list(a) == list(b)
    return bool(a == b)
