"""The reading ledger: what the reporter has read of a case's documents, and starred passages.

ARCHITECTURE.md, "The reading ledger". Each document is ``unread``, ``read``, ``relevant`` or
``irrelevant`` (:data:`casefile.store.items.READING_STATES`); ``read_at`` is when it first left
``unread`` (UTC), None while unread. The window marks a document read after it has been shown
for a few seconds and toggles relevant with a key; the CLI marks by id. Every change is one
undoable action (:func:`mark_documents`, :func:`star_passage`); the states travel in case
archives (they are columns of the rows), CSV/XLSX and FtM exports.

No Qt here.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session, defer

from casefile.errors import NotFoundError, ValidationError
from casefile.services import lookup
from casefile.services.audit import log_change
from casefile.services.changes import Changes, Step, action, changes, moved_on, next_doing
from casefile.services.views import READING_WORDS
from casefile.store import Document, Passage
from casefile.store.base import utcnow
from casefile.store.items import READING_STATES

#: What each state is called in messages ("Marked 2 documents relevant.") and tables.
STATE_WORDS = READING_WORDS


def check_state(state: str) -> str:
    """``state`` when it is a reading state. Raises ValidationError naming the states."""
    if state not in READING_STATES:
        raise ValidationError(f"unknown reading state {state!r}; use one of "
                              f"{', '.join(READING_STATES)}")
    return state


def _documents(session: Session, ids: Iterable[int]) -> list[Document]:
    wanted = list(dict.fromkeys(int(i) for i in ids))
    if not wanted:
        raise ValidationError("no document given")
    # the text, pages and metadata are not needed here (a 300-page PDF's took ~0.3 s to load)
    heavy = (defer(Document.text), defer(Document.page_starts), defer(Document.meta))
    found = {d.id: d for d in session.scalars(
        select(Document).where(Document.id.in_(wanted)).options(*heavy))}
    missing = [i for i in wanted if i not in found]
    if missing:
        raise NotFoundError(f"no document with id {missing[0]}")
    cases = {d.case_id for d in found.values()}
    if len(cases) > 1:
        raise ValidationError("the documents belong to different cases; mark one case at a time")
    return [found[i] for i in wanted]


def _iso(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _ledger(docs: Iterable[Document]) -> dict[str, list[str | None]]:
    """document id as a string -> [state, read_at as ISO 8601 or None]: what a step keeps."""
    return {str(d.id): [d.reading, _iso(d.read_at)] for d in docs}


@action("reading.mark")
def mark_documents(session: Session, document_ids: Iterable[int], state: str) -> Changes:
    """Give the documents ``document_ids`` (of one case) the reading state ``state``; a
    document leaving ``unread`` gets ``read_at`` now, one going back to ``unread`` loses it.
    ``value`` is the number of documents whose state changed; ``undo`` gives every document
    its state and ``read_at`` back, refused (ConflictError) when another program marked one
    of them since. Raises ValidationError (unknown state, no ids, ids of
    several cases), NotFoundError."""
    check_state(state)
    docs = _documents(session, document_ids)
    before = _ledger(docs)
    now = utcnow()
    changed = []
    for d in docs:
        if d.reading == state:
            continue
        if state == "unread":
            d.read_at = None
        elif d.read_at is None:
            d.read_at = now
        d.reading = state
        changed.append(d)
    session.flush()
    case_id = docs[0].case_id
    word = STATE_WORDS[state]
    n = len(docs)
    what = f"“{docs[0].title}”" if n == 1 else f"{n} documents"
    if changed:
        log_change(session, "document.reading", case_id=case_id,
                   item_id=changed[0].id if len(changed) == 1 else None,
                   summary=f"{what} {word}", data={"state": state,
                                                   "documents": [d.id for d in changed]})
    undo = Step("reading.restore", {"states": before, "expected": _ledger(docs)},
                label=f"Undo mark {what} {word}")
    return changes(case_id, kinds={"document"} if changed else (),
                   updated=[d.id for d in changed], documents=[d.id for d in changed],
                   label=f"mark {what} {word}",
                   message=f"Marked {what} {word}." if changed else f"{what} already {word}.",
                   value=len(changed), undo=undo)


@action("reading.restore")
def restore_states(session: Session, states: Mapping[str, list[str | None]],
                   expected: Mapping[str, list[str | None]] | None = None,
                   doing: str = "undo") -> Changes:
    """Put documents back in the states ``states`` gives (document id as a string -> [state,
    read_at as ISO 8601 or None]): the undo of :func:`mark_documents`. ``expected`` (same
    shape): the states the action left; when a document to be put back is no longer in it
    (another program marked it since), nothing is written and ConflictError says so.
    ``doing`` ("undo" or "redo") names the step in that sentence. ``undo`` is the state they
    had before this call (expecting the states this call left). Raises NotFoundError,
    ValidationError, ConflictError."""
    docs = _documents(session, (int(k) for k in states))
    before = _ledger(docs)
    wanted = {d.id: _wanted(states[str(d.id)]) for d in docs}
    touched = list(docs)
    if expected is not None:  # only what the action changed, and only as it left it
        left = {d.id: _wanted(expected.get(str(d.id), states[str(d.id)])) for d in docs}
        touched = [d for d in docs if left[d.id] != wanted[d.id]]
        for d in touched:
            if (d.reading, d.read_at) != left[d.id]:
                raise moved_on(f"The reading state of “{d.title}”", doing)
    changed = []
    for d in touched:
        state, when = wanted[d.id]
        if d.reading != state or d.read_at != when:
            d.reading, d.read_at = state, when
            changed.append(d)
    session.flush()
    case_id = docs[0].case_id
    n = len(docs)
    what = f"“{docs[0].title}”" if n == 1 else f"{n} documents"
    if changed:
        log_change(session, "document.reading", case_id=case_id, summary=f"{what} restored",
                   data={"documents": [d.id for d in changed], "restored": True})
    return changes(case_id, kinds={"document"} if changed else (),
                   updated=[d.id for d in changed], documents=[d.id for d in changed],
                   label=f"reading state of {what}",
                   message=f"Reading state of {what} put back.", value=len(changed),
                   undo=Step("reading.restore",
                             {"states": before, "expected": _ledger(docs),
                              "doing": next_doing(doing)},
                             label=f"Redo reading state of {what}"))


def _wanted(entry: list[str | None]) -> tuple[str, dt.datetime | None]:
    """[state, read_at ISO or None] -> (state, read_at), the state checked."""
    state, read_at = entry
    assert state is not None
    return check_state(state), dt.datetime.fromisoformat(read_at) if read_at else None


@action("reading.star")
def star_passage(session: Session, passage_id: int, starred: bool = True,
                 expected: bool | None = None, doing: str = "") -> Changes:
    """Star (or unstar) passage ``passage_id``. ``expected``: whether it must be starred now
    (an undo or redo, named by ``doing``); when another program changed it since, nothing is
    written and ConflictError says so. ``undo`` sets it back, expecting what this call left.
    Raises NotFoundError, ConflictError."""
    passage = lookup.row(session, Passage, passage_id, f"no passage with id {passage_id}")
    was = bool(passage.starred)
    short = passage.quote if len(passage.quote) <= 60 else passage.quote[:57] + "…"
    if expected is not None and was != bool(expected):
        raise moved_on(f"The star of “{short}”", doing)
    passage.starred = bool(starred)
    session.flush()
    word = "Starred" if starred else "Unstarred"
    if was != bool(starred):
        log_change(session, "passage.star", case_id=passage.case_id, summary=short,
                   data={"passage": passage.id, "starred": bool(starred)})
    return changes(passage.case_id, evidence=was != bool(starred),
                   documents=[passage.document_id] if was != bool(starred) else (),
                   label=f"{word.lower()} passage", message=f"{word} “{short}”.",
                   value=bool(starred),
                   undo=Step("reading.star", {"passage_id": passage.id, "starred": was,
                                              "expected": bool(starred),
                                              "doing": next_doing(doing)},
                             label=f"Undo {word.lower()} passage"))


@dataclass(frozen=True)
class ReadingSummary:
    """How much of a case is reviewed: documents in each state, and ``total``."""

    total: int
    unread: int
    read: int
    relevant: int
    irrelevant: int

    @property
    def reviewed(self) -> int:
        """Documents no longer unread."""
        return self.total - self.unread

    def as_text(self) -> str:
        """One line: "12 of 20 documents reviewed (3 relevant, 1 not relevant); 8 unread"."""
        return (f"{self.reviewed} of {self.total} documents reviewed ({self.relevant} relevant,"
                f" {self.irrelevant} not relevant); {self.unread} unread")


def reading_summary(session: Session, case_id: int) -> ReadingSummary:
    """The case's documents counted by reading state. Reads only."""
    counts = dict(session.execute(
        select(Document.reading, func.count()).where(Document.case_id == case_id)
        .group_by(Document.reading)).all())
    values = {s: int(counts.get(s, 0)) for s in READING_STATES}
    return ReadingSummary(total=sum(values.values()), **values)


@dataclass(frozen=True)
class DocumentReading:
    """One document of the ledger: id, title, state, ``read_at`` and ``added`` (when it was
    imported, UTC)."""

    id: int
    title: str
    reading: str
    read_at: dt.datetime | None
    added: dt.datetime

    def as_json(self) -> dict[str, object]:
        """``{"id", "title", "state", "read_at", "added"}`` (times ISO 8601, UTC)."""
        return {"id": self.id, "title": self.title, "state": self.reading,
                "read_at": _iso(self.read_at), "added": _iso(self.added)}


def case_documents(session: Session, case_id: int, state: str | None = None
                   ) -> list[DocumentReading]:
    """The case's documents (in one state, or all), in import order. Reads only. Raises
    ValidationError for an unknown state."""
    stmt = select(Document.id, Document.title, Document.reading, Document.read_at,
                  Document.created).where(Document.case_id == case_id)
    if state is not None:
        stmt = stmt.where(Document.reading == check_state(state))
    return [DocumentReading(*row) for row in session.execute(stmt.order_by(Document.id))]


def new_since(session: Session, case_id: int, when: dt.datetime | None) -> int:
    """How many of the case's documents were added after ``when`` (UTC; None: never opened,
    0). Reads only."""
    if when is None:
        return 0
    return int(session.scalar(select(func.count()).select_from(Document).where(
        Document.case_id == case_id, Document.created > when)) or 0)
