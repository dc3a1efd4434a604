"""A case's rows in a form two workspaces can be compared by: no ids, no clocks.

Items are keyed by kind and title, references (affiliation, attribution, via...) become the
referenced item's title, evidence links become (item, relation, document, quote), mentions are
counted by (kind, name, status). Two journeys that did the same user actions — one in the window,
one through the CLI — must give equal values.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy import inspect, select

from casefile.store import Case, EvidenceLink, Item, Mention, Passage

#: Columns that differ between two runs of the same actions (ids, clocks, random uids).
VOLATILE = {"id", "case_id", "created", "updated", "version", "uid", "status_changed",
            "recorded", "retrieved"}
#: Document columns that say how the file was chosen (path, notes on where a date came from).
DOCUMENT_VOLATILE = {"import_notes", "meta", "filename", "notes"}


def _values(obj: Any, titles: dict[int, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for attr in inspect(type(obj)).column_attrs:
        key = attr.key
        if key in VOLATILE or (obj.kind == "document" and key in DOCUMENT_VOLATILE):
            continue
        value = getattr(obj, key)
        if key.endswith("_id") and key != "answered_by_passage_id":
            value = titles.get(value) if value is not None else None
        elif key == "answered_by_passage_id":
            value = value is not None
        if isinstance(value, list):
            value = sorted(map(str, value))
        out[key] = value
    return out


def case_rows(session: Any, case_title: str) -> dict[str, Any]:
    """The comparable rows of the case titled ``case_title``: ``case`` (title, summary),
    ``items`` (sorted list of (kind, title, values)), ``evidence`` (sorted links), and
    ``mentions`` (a Counter of (kind, name, status))."""
    case = session.scalar(select(Case).where(Case.title == case_title))
    assert case is not None, f"no case {case_title!r}"
    items = list(session.scalars(select(Item).where(Item.case_id == case.id)))
    titles = {i.id: f"{i.kind}:{i.title}" for i in items}
    rows = sorted(((i.kind, i.title, sorted(_values(i, titles).items(), key=str))
                   for i in items), key=str)
    links = []
    for link in session.scalars(select(EvidenceLink).where(EvidenceLink.case_id == case.id)):
        passage = session.get(Passage, link.passage_id) if link.passage_id else None
        links.append((titles.get(link.item_id), link.relation,
                      titles.get(passage.document_id if passage else link.document_id),
                      passage.quote if passage else None,
                      (passage.start, passage.end) if passage else None))
    mentions = Counter(
        (m.kind, m.name, m.status) for m in session.scalars(
            select(Mention).where(Mention.case_id == case.id)))
    return {"case": (case.title, case.summary), "items": rows, "evidence": sorted(links, key=str),
            "mentions": mentions}
