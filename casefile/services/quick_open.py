"""Quick open (Ctrl+K in the window): find an item of a case by part of its name, or a document
by a word of its text, as the reporter types. Read-only; plain values only.

Two sources, merged: items whose title contains every typed word (case-insensitive, anywhere in
the title: "eters" finds "Scot Peterson"), titles starting with the query first; then the case's
full-text search (:func:`casefile.store.search.search`) with each plain word taken as a prefix,
for items (mostly documents) whose *text* holds the words, with a snippet.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from casefile.store import Item
from casefile.store.search import search

_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class QuickHit:
    """One quick-open result.

    ``source`` is ``"title"`` (the name matched) or ``"text"`` (the words are in its text);
    ``snippet`` is the text around a match (text hits), ``match`` the first matched
    word as it is written in the text (to select it when the document opens).
    """

    item_id: int
    kind: str
    title: str
    source: str
    snippet: str = ""
    match: str | None = None


def quick_open(session: Session, case_id: int, query: str, *, limit: int = 30) -> list[QuickHit]:
    """Items of the case for ``query``: title matches first, then full-text matches.

    An empty (or blank) query returns nothing. At most ``limit`` hits in all.
    """
    words = query.casefold().split()
    if not words:
        return []
    hits: list[QuickHit] = []
    lowered = func.lower(Item.title)
    stmt = select(Item.id, Item.kind, Item.title).where(Item.case_id == case_id)
    for word in words:
        stmt = stmt.where(lowered.contains(word, autoescape=True))
    starts = case((lowered.startswith(words[0], autoescape=True), 0), else_=1)
    stmt = stmt.order_by(starts, func.length(Item.title), lowered, Item.id).limit(limit)
    for item_id, kind, title in session.execute(stmt):
        hits.append(QuickHit(item_id, kind, title, "title"))
    room = limit - len(hits)
    if room <= 0:
        return hits
    seen = {h.item_id for h in hits}
    terms = [w + "*" if _WORD.fullmatch(w) else w for w in query.split()]
    for hit in search(session, " ".join(terms), case_id, limit=room + len(seen)):
        if hit.item_id in seen:
            continue
        match = hit.text[hit.highlights[0][0]:hit.highlights[0][1]] if hit.highlights else None
        hits.append(QuickHit(hit.item_id, hit.kind, hit.title, "text", hit.text, match))
        if len(hits) >= limit:
            break
    return hits
