"""Index upkeep on both engines: what is written for an item, and when.

Services call :func:`index_item` after a change and :func:`unindex_item` before a delete, in the
same transaction as the change; imports and the rebuild (:mod:`casefile.services.reindex`) call
:func:`index_rows`. The tokens are those of :mod:`casefile.store.search.folding`.

- SQLite: ``search_fts`` is an FTS5 table (rowid = item id) over the folded tokens joined by
  spaces, with FTS5's ``ascii`` tokenizer, which then only splits at the spaces
  (sqlite.org/fts5.html, "Tokenizers": non-ASCII characters are token characters, ASCII ones
  are lower-cased). ``search_fts_docs`` holds each item's title and its indexed text *besides*
  a document's extracted text (notes, author, outlet...; short); snippets take the document text
  from ``documents.text`` (revision 0004: the index kept a full second copy before). A trigger
  deletes an item's ``search_fts`` row with the item (also through a case's cascade).
  ``search_fts_vocab`` (revision 0006) lists every word ever indexed, so that a ``prefix*``
  query is sent to FTS5 as the OR of its words
  (:func:`~casefile.store.search.query.prefix_words`,
  :func:`~casefile.store.search.query.fts5_query`).
- PostgreSQL: ``search_pg.tsv`` is a ``tsvector`` built here as a literal (lexemes with positions;
  the title's positions carry weight A), so PostgreSQL's own parser and dictionaries, which differ
  from SQLite's and depend on the server locale, never see the text (postgresql.org/docs/15/
  datatype-textsearch.html). Its limits apply: positions above 16383 are stored as 16383 and a
  lexeme keeps at most 256 positions, so in the rare documents longer than ~16,000 words a
  phrase of three words or more far down the text can be missed on PostgreSQL; a run of CJK,
  Hangul, Thai... characters takes about one position a character, so there it is a word of four
  characters or more (three pairs) beyond the first ~16,000 characters of such text.
  ``search_pg.terms`` (revision 0005, :func:`terms_literal`) is a second, positionless vector
  with a GIN index: the words, every pair of adjacent words (``_harbor_police``) and an id-window
  lexeme (``_w97``). Matching is done there (:func:`~casefile.store.search.query.terms_tsquery`):
  a two-word phrase is one lexeme, so the index answers it alone, and only phrases of three words
  or more are checked against ``tsv``'s positions, row by row. ``tsv`` is otherwise read for
  ranking only. ``search_pg.body`` likewise holds the text besides a document's
  ``documents.text``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import overload

from sqlalchemy import text
from sqlalchemy.orm import Session

from casefile.store.search.folding import _words, token_text, tokens

#: Table names Alembic autogenerate must ignore (FTS5 table, its shadow tables, the snippet text
#: table, and the PostgreSQL search table).
SEARCH_TABLE_PREFIXES = ("search_fts", "search_pg")
#: PostgreSQL tsvector limits (docs/15/datatype-textsearch.html): highest position, positions
#: per lexeme; and a cap on a vector's size, under the 1 MB the type allows.
PG_MAX_POS = 16383
PG_MAX_POSITIONS_PER_LEXEME = 256
PG_MAX_VECTOR_BYTES = 900_000


def _is_sqlite(session: Session) -> bool:
    return session.get_bind().dialect.name == "sqlite"


def forget_deleted_words(session: Session) -> None:
    """Take the words of deleted items out of the SQLite index for good (emptying the Trash).

    FTS5 keeps a deleted row's words in its index segments, marked deleted, until the segments
    are merged, and ``search_fts_vocab`` keeps every word ever indexed: both would still hold a
    deleted source's name in the file. This merges the segments (FTS5 ``optimize``) and drops
    the vocabulary words no item has any more; with ``secure_delete`` (every connection,
    :mod:`casefile.store.workspace`) the freed pages are zeroed. Costs a rewrite of the index
    (a few seconds for a large workspace). PostgreSQL: nothing (its ``VACUUM`` reclaims rows)."""
    if not _is_sqlite(session):
        return
    session.execute(text("INSERT INTO search_fts(search_fts) VALUES ('optimize')"))
    session.execute(text("CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_fts_terms "
                         "USING fts5vocab(main, search_fts, row)"))
    session.execute(text("DELETE FROM search_fts_vocab WHERE term NOT IN "
                         "(SELECT term FROM temp.search_fts_terms)"))


def tsvector_literal(title: str, body: str) -> str:
    """The ``tsvector`` literal of an item: title tokens at positions 1.. with weight A, body
    tokens after a one-position gap (so a phrase never spans title and body, as in FTS5's
    separate columns). Positions are clamped to PG_MAX_POS, at most 256 kept per lexeme, and
    lexemes beyond PG_MAX_VECTOR_BYTES are left out."""
    positions: dict[str, list[str]] = {}
    size = 0
    pos = 0
    for part, weight in ((title, "A"), (body, "")):
        for tok in tokens(part):
            pos = min(pos + 1, PG_MAX_POS)
            seen = positions.get(tok)
            if seen is None:
                size += len(tok.encode()) + 8
                if size > PG_MAX_VECTOR_BYTES:
                    continue
                positions[tok] = [f"{pos}{weight}"]
            elif len(seen) < PG_MAX_POSITIONS_PER_LEXEME and pos < PG_MAX_POS:
                seen.append(f"{pos}{weight}")
                size += 2
        pos = min(pos + 1, PG_MAX_POS)
    return " ".join(f"'{tok}':{','.join(p)}" for tok, p in positions.items())


#: Ids per id-window lexeme in ``search_pg.terms`` (:func:`terms_literal`).
WINDOW_IDS = 1024


def pair_lexeme(first: str, second: str) -> str:
    """The lexeme of two adjacent tokens (``_harbor_police``): it starts with ``_``, which no
    token does, so a word's prefix query (``'th':*``) never runs over the far more numerous
    pairs, and it holds a second ``_``, which a :func:`window_lexeme` does not."""
    return f"_{first}_{second}"


def window_lexeme(item_id: int) -> str:
    """The lexeme naming the id window of ``item_id`` (``_w<item_id // WINDOW_IDS>``): it starts
    with ``_``, which no word or pair lexeme does."""
    return f"_w{item_id // WINDOW_IDS}"


def indexed_text(body: str | None, doc_text: str | None) -> str:
    """An item's indexed body followed by its document text (a newline between), as the
    PostgreSQL vectors and the snippets see it."""
    return body + "\n" + doc_text if body and doc_text else body or doc_text or ""


def terms_literal(item_id: int, title: str, body: str) -> str:
    """The positionless ``tsvector`` literal of ``search_pg.terms`` for an item (PostgreSQL).

    Lexemes: every token of ``title`` and ``body`` (:func:`tokens`), every pair of adjacent
    tokens within the title or within the body (:func:`pair_lexeme`, ``_harbor_police``: tokens
    never hold ``_``), and the item's :func:`window_lexeme`. Why: PostgreSQL checks a phrase
    (``<->``) against the positions of every candidate row, and a newest-first scan reads each
    row's vector from TOAST (about 8 us a row, so up to 0.9 s at 100,000 documents); a pair
    lexeme makes a two-word phrase one GIN entry, and the window lexeme lets the GIN index find
    the newest matches without reading rows (:func:`search_statements`). Words come first and
    pairs stop at PG_MAX_VECTOR_BYTES, so in a document of several MB a pair may be missing
    (the words are still found).
    """
    seen: dict[str, None] = {window_lexeme(item_id): None}
    parts = [tokens(title), tokens(body)]
    for toks in parts:
        seen.update(dict.fromkeys(toks))
    size = sum(len(t) + 8 for t in seen)
    for toks in parts:
        for a, b in pairwise(toks):
            pair = pair_lexeme(a, b)
            if pair not in seen:
                size += len(pair) + 8
                if size > PG_MAX_VECTOR_BYTES:
                    break
                seen[pair] = None
    return " ".join(f"'{lex}'" for lex in seen)


@dataclass(frozen=True)
class IndexRow:
    """What is indexed for one item: ``body`` is its text besides the title (notes, aliases...)
    and ``text``, for a document, its extracted text (``documents.text``), indexed after the body
    but not copied: snippets read it from ``documents``."""

    item_id: int
    case_id: int
    title: str
    body: str = ""
    text: str = ""


def _index_params(row: IndexRow, sqlite: bool, words: set[bytes] | None = None
                  ) -> dict[str, object]:
    """The statements' parameters for ``row``; on SQLite its tokens go into ``words`` too."""
    title, body, doc_text = row.title or "", row.body or "", row.text or ""
    params: dict[str, object] = {"i": row.item_id, "c": row.case_id, "t": title, "b": body}
    if sqlite:
        params["ft"] = token_text(title, words=words)
        params["fb"] = token_text(body, doc_text, words=words)
    else:
        full = indexed_text(body, doc_text)
        params["v"] = tsvector_literal(title, full)
        params["w"] = terms_literal(row.item_id, title, full)
    return params


_SQLITE_INSERT = (
    "INSERT INTO search_fts (rowid, title, body) VALUES (:i, :ft, :fb)",
    "INSERT INTO search_fts_docs (item_id, case_id, title, body) VALUES (:i, :c, :t, :b)",
)
#: Every word ever indexed on SQLite, for :func:`prefix_words` (revision 0006). Words of
#: deleted or edited items stay: a word no row holds any more only adds a term that matches
#: nothing to a query.
_SQLITE_VOCAB = ("INSERT OR IGNORE INTO search_fts_vocab (term) "
                 "SELECT value FROM json_each(:words)")
_PG_UPSERT = (
    "INSERT INTO search_pg (item_id, case_id, title, body, tsv, terms) "
    "VALUES (:i, :c, :t, :b, CAST(:v AS tsvector), CAST(:w AS tsvector)) "
    "ON CONFLICT (item_id) DO UPDATE "
    "SET case_id = EXCLUDED.case_id, title = EXCLUDED.title, body = EXCLUDED.body, "
    "tsv = EXCLUDED.tsv, terms = EXCLUDED.terms"
)


def index_item(
    session: Session, item_id: int, case_id: int, title: str, body: str, *,
    text: str = "", new: bool = False,
) -> None:
    """(Re)index one item: its title, ``body`` and (for a document) ``text`` replace what was
    indexed before (see :class:`IndexRow`). ``new=True`` says the item was never indexed (just
    inserted), which saves the deletes of the old rows.

    Runs in the caller's transaction, so the index changes with the data. The search tables keep
    a copy of ``title`` and ``body`` (short) but not of ``text``.
    """
    index_rows(session, [IndexRow(item_id, case_id, title, body, text)], new=new)


class BodyWords(Sequence["set[str] | None"]):
    """What :func:`index_rows` returns: per row, the distinct words indexed for its body and
    text when they are all ASCII, else None. Each set is made when it is first asked for
    (an import asks only while the case has a watch list)."""

    def __init__(self, texts: Sequence[str | None]) -> None:
        self._texts = list(texts)
        self._made: dict[int, set[str]] = {}

    def __len__(self) -> int:
        return len(self._texts)

    @overload
    def __getitem__(self, index: int) -> set[str] | None: ...

    @overload
    def __getitem__(self, index: slice) -> list[set[str] | None]: ...

    def __getitem__(self, index: int | slice) -> set[str] | None | list[set[str] | None]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        text = self._texts[index]
        if text is None:
            return None
        made = self._made.get(index)
        if made is None:
            made = self._made[index] = _words(text)
        return made


def index_rows(session: Session, rows: Sequence[IndexRow], *,
               new: bool = False) -> Sequence[set[str] | None]:
    """Index many items at once (one ``executemany`` per table); same rules as
    :func:`index_item`. Used by imports and to rebuild the index.

    Returns, per row, the distinct words indexed for its body and text when they are all
    ASCII (news text once folded), else None; None for every row on PostgreSQL
    (:class:`BodyWords`: each set made when asked). An import reads them as the text's
    vocabulary instead of cutting the text again (ARCHITECTURE.md, "The watch list")."""
    if not rows:
        return []
    sqlite = _is_sqlite(session)
    # every word of the rows (UTF-8), gathered while the texts are cut (search_fts_vocab)
    words: set[bytes] = set()
    params = [_index_params(r, sqlite, words) for r in rows]
    conn = session.connection()
    if sqlite:
        if not new:
            for r in rows:
                unindex_item(session, r.item_id)
        for sql in _SQLITE_INSERT:
            conn.execute(text(sql), params)
        conn.execute(text(_SQLITE_VOCAB), {
            "words": json.dumps(sorted(w.decode("utf-8") for w in words))})
        bodies = [str(p["fb"]) for p in params]
        return BodyWords([b if b.isascii() else None for b in bodies])
    conn.execute(text(_PG_UPSERT), params)
    return [None] * len(rows)


def unindex_item(session: Session, item_id: int) -> None:
    """Remove an item from the index (no error if it was not indexed). Deleting the item does
    it too (an SQLite trigger, a PostgreSQL foreign key; revision 0004)."""
    if _is_sqlite(session):
        session.execute(text("DELETE FROM search_fts WHERE rowid = :i"), {"i": item_id})
        session.execute(text("DELETE FROM search_fts_docs WHERE item_id = :i"), {"i": item_id})
    else:
        session.execute(text("DELETE FROM search_pg WHERE item_id = :i"), {"i": item_id})
