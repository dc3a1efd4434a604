"""Set a document's published date, and move with it the dates suggested from its text.

Relative dates in a document ("in about a week", "on February 14" without a year, "two days
after the shooting") are resolved against its published date when suggestions are made
(``casefile.extract``). Changing that date re-derives them from the document's text with the
new reference date, with the extractor's own (rules-based) date logic:

- pending suggestions of the document (and rejected ones, so a later suggestion run still
  recognises them): a follow-up's ``due``, an event's ``date`` and ``precision``; an event
  suggestion whose date no longer follows from the text is dropped, and events that only now
  get a date (e.g. the document had no published date) are suggested;
- accepted items tied to this document's mentions: ``Question.due`` and ``Event.date`` —
  **unless a person edited them**: a stored value is moved only while it still equals the
  value derived from the old date; otherwise it is left as it is (and the message says so).

Claims carry no date of their own in this schema, so nothing of a claim moves.

One user action: one transaction (the caller's), one ChangeLog row (``document.published``),
and Changes whose ``undo`` Step restores the old date and the old values (unless edited since).
No Qt here.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from casefile.services import lookup
from casefile.services.audit import log_change
from casefile.services.changes import Changes, Step, action, changes, moved_on
from casefile.services.items import parse_date
from casefile.store import Document, Event, Item, Mention, Question

#: Mention kinds whose details carry a date derived from the published date.
DATED_KINDS = ("event", "question")


def derived_dates(text: str, published: dt.date | None
                  ) -> tuple[dict[tuple[int, int], list[tuple[str, str]]],
                             dict[tuple[int, int], str | None]]:
    """The dates the extractor derives from ``text`` with ``published`` as reference date.

    Returns ``(events, dues)``: ``events`` maps a sentence's ``(start, end)`` (Python str
    offsets) to its events' ``(ISO date, precision)`` in the extractor's order; ``dues`` maps
    a follow-up sentence's ``(start, end)`` to its ISO due date or None. Rules only (no model).
    """
    from casefile.extract.followups import find_followups
    from casefile.extract.pipeline import _events
    from casefile.extract.text import fold, sentence_spans

    ft = fold(text)
    sentences = sentence_spans(ft)
    events: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for e in _events(ft, text, sentences, published):
        events.setdefault((int(str(e["start"])), int(str(e["end"]))), []).append(
            (str(e["date"]), str(e["precision"])))
    dues = {(int(f["start"]), int(f["end"])): f["due"]
            for f in find_followups(ft, sentences, published)}
    return events, dues


def _iso(value: dt.date | None) -> str | None:
    return value.isoformat() if value is not None else None


def _document(session: Session, document_id: int) -> Document:
    doc = lookup.row(session, Document, document_id,
                     f"no document with id {document_id} (it may have been deleted)")
    return doc


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _mention_row(m: Mention) -> dict[str, Any]:
    return {"id": m.id, "case_id": m.case_id, "document_id": m.document_id,
            "item_id": m.item_id, "kind": m.kind, "name": m.name, "start": m.start,
            "end": m.end, "text": m.text, "role": m.role, "affiliation": m.affiliation,
            "status": m.status, "detail": dict(m.detail or {}), "created": m.created}


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


@dataclass
class Rederived:
    """What :func:`rederive` moved: ``mention_changes`` ``[mention id, detail before, detail
    after]``; ``item_changes`` ``[item id, field, before, after]``; ``kept``: ids of items edited
    by hand (left alone); ``removed``: rows of event suggestions dropped; ``added``: ids of event
    suggestions made; ``touched_suggestions``: pending suggestions re-dated or dropped."""

    mention_changes: list[list[Any]] = field(default_factory=list)
    item_changes: list[list[Any]] = field(default_factory=list)
    kept: list[int] = field(default_factory=list)
    removed: list[dict[str, Any]] = field(default_factory=list)
    added: list[int] = field(default_factory=list)
    touched_suggestions: int = 0

    @property
    def moved(self) -> list[int]:
        """Ids of the items whose dates moved."""
        return [c[0] for c in self.item_changes]

    def phrase(self, session: Session) -> str:
        """"; 1 follow-up now due 2018-03-03, ..." for a status line."""
        return _moved_phrase(session, self.item_changes, self.kept,
                             self.touched_suggestions + len(self.added))


def rederive(session: Session, doc: Document, old: dt.date | None,
             new: dt.date | None) -> Rederived:
    """Move the dates derived from ``doc``'s text with ``old`` as published date to those
    derived with ``new`` (see the module docstring); ``doc.published`` itself is left to the
    caller. Used by :func:`set_published` and by an edit of the document's Published field
    (``item_actions.edit``), whose undo (the old date) re-derives back the same way."""
    old_events, old_dues = derived_dates(doc.text, old)
    new_events, new_dues = derived_dates(doc.text, new)
    mention_changes: list[list[Any]] = []  # [mention id, detail before, detail after]
    item_changes: list[list[Any]] = []  # [item id, field, before, after]
    kept: list[int] = []
    removed: list[dict[str, Any]] = []
    touched_suggestions = 0
    mentions = list(session.scalars(
        select(Mention).where(Mention.document_id == doc.id, Mention.kind.in_(DATED_KINDS))
        .order_by(Mention.start, Mention.id)))
    for m in mentions:
        detail = dict(m.detail or {})
        span = (m.start, m.end)
        after = dict(detail)
        item_update: list[tuple[str, Any, Any]] = []  # (field, derived before, derived after)
        if m.kind == "question":
            if span not in new_dues and span not in old_dues:
                continue
            before_due, after_due = old_dues.get(span), new_dues.get(span)
            after["due"] = after_due
            item_update.append(("due", parse_date(before_due), parse_date(after_due)))
        else:
            olds, news = old_events.get(span, []), new_events.get(span, [])
            index = next((i for i, (d, _p) in enumerate(olds) if d == detail.get("date")), None)
            if index is None or index >= len(news):
                if m.status == "suggested" and index is not None:
                    removed.append(_mention_row(m))  # no date follows from the text any more
                continue
            after["date"], after["precision"] = news[index]
            item_update.append(("date", parse_date(olds[index][0]), parse_date(news[index][0])))
            if olds[index][1] != news[index][1]:
                item_update.append(("precision", olds[index][1], news[index][1]))
        if after != detail:
            mention_changes.append([m.id, detail, after])
            m.detail = after
            if m.status != "confirmed":
                touched_suggestions += 1
        if m.status == "confirmed" and m.item_id is not None:
            item = session.get(Item, m.item_id)
            if not isinstance(item, Question | Event):
                continue
            date_field = item_update[0][0]
            if not hasattr(item, date_field):
                continue
            if getattr(item, date_field) != item_update[0][1]:
                if item_update[0][1] != item_update[0][2] and item.id not in kept:
                    kept.append(item.id)  # edited by a person: leave it
                continue
            for name, before, value in item_update:
                if before != value and getattr(item, name) == before and not any(
                        c[0] == item.id and c[1] == name for c in item_changes):
                    item_changes.append([item.id, name, before, value])
                    setattr(item, name, value)
    for row in removed:
        gone = session.get(Mention, row["id"])
        if gone is not None:
            session.delete(gone)
            touched_suggestions += 1
    # events that only now get a date (or a second one) become suggestions
    have = {(m.start, m.end, str((m.detail or {}).get("date")))
            for m in mentions if m.kind == "event" and m.id not in {r["id"] for r in removed}}
    added: list[int] = []
    text = doc.text
    for (start, end), found in new_events.items():
        for when, precision in found:
            if (start, end, when) in have:
                continue
            mention = Mention(case_id=doc.case_id, document_id=doc.id, kind="event",
                              name=text[start:end][:500], start=start, end=end,
                              text=text[start:end], detail={"date": when, "precision": precision})
            session.add(mention)
            session.flush()
            added.append(mention.id)
            have.add((start, end, when))
    session.flush()
    return Rederived(mention_changes, item_changes, kept, removed, added, touched_suggestions)


@action("document.set_published")
def set_published(session: Session, document_id: int,
                  published: dt.date | str | None, expected: Any = ...) -> Changes:
    """Set a document's published date (``published``: a date, ISO ``YYYY-MM-DD`` or None)
    and re-derive the dates suggested from its text (see the module docstring).

    Returns Changes: ``updated`` holds the document and the items whose dates moved,
    ``value`` a dict ``{"moved": [item ids], "kept": [item ids edited by hand],
    "suggestions": number of suggestions whose dates changed}``, ``undo`` restores the old
    date and values. ``expected``: the date (ISO or None) the document must have now (a redo;
    ``...`` for no check). Raises NotFoundError for an unknown document, ValidationError for a
    bad date, ConflictError when the date is no longer ``expected`` (nothing is written).
    """
    doc = _document(session, document_id)
    new = parse_date(published, "published")
    old = doc.published
    if expected is not ... and _iso(old) != expected:
        raise moved_on(f"The published date of “{_short(doc.title)}”", "redo")
    label = f"set the published date of “{_short(doc.title)}”"
    if new == old:
        return changes(doc.case_id, label=label, value={"moved": [], "kept": [],
                                                         "suggestions": 0},
                       message=f"The published date of “{_short(doc.title)}” is already "
                               f"{_iso(new) or 'unset'}.")
    found = rederive(session, doc, old, new)
    mention_changes, item_changes = found.mention_changes, found.item_changes
    kept, removed, added = found.kept, found.removed, found.added
    touched_suggestions = found.touched_suggestions
    doc.published = new
    session.flush()
    moved = [c[0] for c in item_changes]
    record = {"document_id": doc.id, "case_id": doc.case_id, "before": _iso(old),
              "after": _iso(new), "mentions": mention_changes, "items": item_changes,
              "added": added, "removed": removed, "label": label}
    log_change(session, "document.published", case_id=doc.case_id, item_id=doc.id,
               summary=f"{_iso(old) or 'none'} \u2192 {_iso(new) or 'none'}",
               data={"before": _iso(old), "after": _iso(new), "moved": moved, "kept": kept,
                     "suggestions": touched_suggestions + len(added)})
    message = (f"Published date of “{_short(doc.title)}” set to {_iso(new) or 'none'}"
               + _moved_phrase(session, item_changes, kept, touched_suggestions + len(added))
               + ".")
    kinds = {"document"} | {i.kind for i in (session.get(Item, m) for m in moved) if i}
    return changes(
        doc.case_id, kinds=kinds, updated=[doc.id, *moved], documents=[doc.id],
        suggestions=bool(touched_suggestions or added), label=label, message=message,
        value={"moved": moved, "kept": kept, "suggestions": touched_suggestions + len(added)},
        undo=Step("document.restore_published", {"record": record}, f"undo {label}"))


def _moved_phrase(session: Session, item_changes: Sequence[Sequence[Any]], kept: Sequence[int],
                  suggestions: int) -> str:
    parts: list[str] = []
    dues = [c for c in item_changes if c[1] == "due"]
    dates = [c for c in item_changes if c[1] == "date"]
    if dues:
        shown = ", ".join(f"{_iso(c[3]) or 'no date'}" for c in dues[:3])
        parts.append(f"{_plural(len(dues), 'follow-up')} now due {shown}")
    if dates:
        parts.append(f"{_plural(len(dates), 'event')} re-dated")
    if suggestions:
        parts.append(f"{_plural(suggestions, 'suggestion')} re-dated")
    if kept:
        parts.append(f"{_plural(len(kept), 'date')} edited by hand left as "
                     f"{'it was' if len(kept) == 1 else 'they were'}")
    return ("; " + ", ".join(parts)) if parts else "; no suggested date depends on it"


@action("document.restore_published")
def restore_published(session: Session, record: dict[str, Any]) -> Changes:
    """Undo :func:`set_published`: the old published date, the suggestions' old dates, and
    the old dates of the items it moved (those edited since are left). Returns Changes whose
    ``undo`` sets the new date again. Raises NotFoundError when the document is gone,
    ConflictError when its date is no longer the one the action set (nothing is written)."""
    doc = _document(session, int(record["document_id"]))
    if _iso(doc.published) != record["after"]:
        raise moved_on(f"The published date of “{_short(doc.title)}”", "undo")
    before = parse_date(record["before"], "published")
    for mid, detail_before, detail_after in record["mentions"]:
        m = session.get(Mention, mid)
        if m is not None and dict(m.detail or {}) == detail_after:
            m.detail = detail_before
    restored: list[int] = []
    for item_id, name, value_before, value_after in record["items"]:
        item = session.get(Item, item_id)
        if item is not None and getattr(item, name, None) == value_after:
            setattr(item, name, value_before)
            restored.append(item_id)
    for mid in record["added"]:
        m = session.get(Mention, mid)
        if m is not None and m.status == "suggested":
            session.delete(m)
    session.flush()
    for row in record["removed"]:
        if session.get(Mention, row["id"]) is None:
            session.add(Mention(**row))
    doc.published = before
    session.flush()
    label = str(record["label"])
    log_change(session, "document.published", case_id=doc.case_id, item_id=doc.id,
               summary=f"undo: {record['after'] or 'none'} \u2192 {record['before'] or 'none'}",
               data={"before": record["after"], "after": record["before"], "moved": restored,
                     "undo": True})
    kinds = {"document"} | {i.kind for i in (session.get(Item, r) for r in restored) if i}
    return changes(
        doc.case_id, kinds=kinds, updated=[doc.id, *restored], documents=[doc.id],
        suggestions=True, label=f"undo {label}",
        message=(f"Published date of “{_short(doc.title)}” back to {record['before'] or 'none'}"
                 f" ({_plural(len(restored), 'date')} restored)."),
        value={"moved": restored},
        undo=Step("document.set_published",
                  {"document_id": doc.id, "published": record["after"],
                   "expected": record["before"]}, f"redo {label}"))
