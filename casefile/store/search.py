"""Full-text search backend: SQLite FTS5 or PostgreSQL tsvector, behind three functions.

The index holds one row per item (title + body text). Services call :func:`index_item` after a
change and :func:`unindex_item` before a delete; :func:`search` answers a user's free text query.
User text is never passed to the engine's query language as is: it is reduced to words (and
"quoted phrases"), so input such as ``O'Brien``, ``NEAR(``, ``*`` or a lone ``AND`` cannot raise
a syntax error. The tables are created by the first Alembic revision (db/versions/0001).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.orm import Session

#: Table names Alembic autogenerate must ignore (FTS5 virtual table and its shadow tables).
SEARCH_TABLE_PREFIXES = ("search_fts", "search_pg")

_WORD = re.compile(r"\w+", re.UNICODE)
_PHRASE = re.compile(r'"([^"]+)"')


@dataclass(frozen=True)
class SearchHit:
    """One result: the item's id, kind, title, and a short snippet of matching text."""

    item_id: int
    case_id: int
    kind: str
    title: str
    snippet: str


def _is_sqlite(session: Session) -> bool:
    return session.get_bind().dialect.name == "sqlite"


def index_item(session: Session, item_id: int, case_id: int, title: str, body: str) -> None:
    """(Re)index one item: its title and body text replace what was indexed before."""
    unindex_item(session, item_id)
    table = "search_fts" if _is_sqlite(session) else "search_pg"
    session.execute(
        text(f"INSERT INTO {table} (item_id, case_id, title, body) VALUES (:i, :c, :t, :b)"),
        {"i": item_id, "c": case_id, "t": title or "", "b": body or ""},
    )


def unindex_item(session: Session, item_id: int) -> None:
    """Remove an item from the index (no error if it was not indexed)."""
    table = "search_fts" if _is_sqlite(session) else "search_pg"
    session.execute(text(f"DELETE FROM {table} WHERE item_id = :i"), {"i": item_id})


def query_terms(query: str) -> list[str]:
    """Split a user's query into search terms: quoted phrases first, then single words.

    Returns a list of phrases/words (each a string of words joined by single spaces); operators
    and punctuation are dropped, so any input yields a safe (possibly empty) list.
    """
    terms: list[str] = []
    rest = query
    for m in _PHRASE.finditer(query):
        words = _WORD.findall(m.group(1))
        if words:
            terms.append(" ".join(words))
    rest = _PHRASE.sub(" ", query)
    for word in _WORD.findall(rest):
        terms.append(word)
    return terms


def search(
    session: Session, query: str, case_id: int | None = None, limit: int = 50
) -> list[SearchHit]:
    """Items whose title or text match every term of ``query``, best first.

    Returns an empty list for a query with no words. Deleted items are never returned (the
    results are joined to the live ``items`` table).
    """
    terms = query_terms(query)
    if not terms:
        return []
    params: dict[str, object] = {"limit": limit}
    case_filter = ""
    if case_id is not None:
        case_filter = "AND i.case_id = :case_id"
        params["case_id"] = case_id
    if _is_sqlite(session):
        params["q"] = " AND ".join('"' + t.replace('"', "") + '"' for t in terms)
        sql = (
            "SELECT i.id, i.case_id, i.kind, i.title, "
            "snippet(search_fts, 3, '[', ']', '…', 12) "
            "FROM search_fts JOIN items i ON i.id = search_fts.item_id "
            f"WHERE search_fts MATCH :q {case_filter} ORDER BY rank LIMIT :limit"
        )
    else:
        params["q"] = " & ".join(
            "(" + " <-> ".join(f"'{w}'" for w in _WORD.findall(t.lower())) + ")" for t in terms
        )
        sql = (
            "SELECT i.id, i.case_id, i.kind, i.title, "
            "ts_headline('simple', s.body, to_tsquery('simple', :q), "
            "'StartSel=[,StopSel=],MaxWords=20,MinWords=5') "
            "FROM search_pg s JOIN items i ON i.id = s.item_id "
            f"WHERE s.tsv @@ to_tsquery('simple', :q) {case_filter} "
            "ORDER BY ts_rank(s.tsv, to_tsquery('simple', :q)) DESC LIMIT :limit"
        )
    rows = session.execute(text(sql), params).all()
    return [SearchHit(r[0], r[1], r[2], r[3], r[4] or "") for r in rows]
