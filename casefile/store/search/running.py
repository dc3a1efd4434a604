"""Running a search: the statements for each engine, which ids they return, and the hits.

Ranking and cost
----------------
When a query matches fewer than :data:`RANK_WINDOW` items (in the searched case), hits are
ranked by relevance: FTS5 ``bm25`` / ``ts_rank``, the title weighing TITLE_WEIGHT. When it
matches more, ranking would cost per match (FTS5's bm25 counts all matches of each phrase for its
IDF and reads every matching row's sizes and positions, sqlite.org/fts5.html 5.1.1), so the hits
are the newest matching items (by id, so by import order), the same on both engines whatever the
size of the workspace. On SQLite the matches are counted up to RANK_WINDOW (among the newest ids
first, which guesses the answer), then either the newest ``limit`` are read, or, for fewer, one
FTS5 pass reads every match with its bm25 score and they are sorted in Python: a ranked query
is matched once, not counted by one pass and ranked by another (:func:`_sqlite_ids`; a phrase
costs about as much to match as to rank). On PostgreSQL the matches are counted up to
RANK_WINDOW from the GIN index, and the newest are found in the newest id window, then 8, 64
windows (:func:`search_ids`); the search statements run with ``enable_seqscan`` and
``enable_indexscan`` off for their transaction (docs/15/runtime-config-query.html), because
otherwise the planner walks the primary key newest first and reads each row's vector from TOAST
(8 us a row: 0.9 s for a phrase in 1,246 of 100,000 documents).
The hits' rows (items, the body copy, documents.text) are read for the returned ids only, and
snippets made for them only (:mod:`casefile.store.search.snippets`). The statements
run through the driver (:mod:`casefile.store.reader`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from casefile.store.reader import Reader, Run, session_reader
from casefile.store.search import index
from casefile.store.search.grams import gram_block
from casefile.store.search.index import indexed_text, window_lexeme
from casefile.store.search.query import (
    Query,
    fts5_query,
    parse_query,
    prefix_words,
    terms_tsquery,
    tsquery,
)
from casefile.store.search.snippets import (
    CENTRE_MIN_CHARS,
    _matcher,
    _probes,
    make_snippet,
    mark,
)

#: Ranking weights of the title and body columns (FTS5 bm25 column weights; tsvector A/D).
TITLE_WEIGHT = 10.0
#: A query matching at least this many items is shown newest first, not ranked by relevance
#: (module docstring, "Ranking and cost"): FTS5's bm25 counts every match of every phrase (for
#: its IDF) and reads each matching row's sizes and positions, so a word in most of 100,000
#: documents took 0.1-0.9 s to rank.
RANK_WINDOW = 2000


@dataclass(frozen=True)
class SearchHit:
    """One result: the item, its snippet (markers: :mod:`casefile.store.search.snippets`) and,
    in ``highlights``, the ``(start, end)`` spans of matched words in ``text``;
    ``document_text``, a document's whole text (None for other kinds), read with the hit."""

    item_id: int
    case_id: int
    kind: str
    title: str
    text: str = ""
    highlights: tuple[tuple[int, int], ...] = ()
    document_text: str | None = field(default=None, repr=False)

    @property
    def snippet(self) -> str:
        """``text`` with each highlighted span between MARK_OPEN and MARK_CLOSE."""
        return mark(self.text, self.highlights)


@dataclass(frozen=True)
class SearchSQL:
    """The statements :func:`search` runs (``:name`` parameters, see :func:`search_statements`).

    - ``newest``: the ids of the newest matches, newest first. SQLite: the newest ``:window``
      (RANK_WINDOW, or ``:limit`` if more), which also tells whether there are RANK_WINDOW
      matches. PostgreSQL: the newest ``:limit`` matching ``:tqw``, the terms query narrowed to
      some id windows (:func:`search_ids`).
    - ``ranked``: the best ``:limit`` matches by ``bm25`` (FTS5, title weighing TITLE_WEIGHT,
      sqlite.org/fts5.html 5.1.1) or ``ts_rank`` (PostgreSQL, docs/15/textsearch-controls.html
      12.3.3); run only when there are fewer than RANK_WINDOW matches.
    - ``rows``: id, case id, kind, title, indexed body copy and document text of the items whose
      ids are formatted into ``{ids}``.
    - PostgreSQL only (None on SQLite): ``count``, the number of matches up to ``:window``;
      ``begin``, one row (the planner settings ``enable_seqscan`` and ``enable_indexscan`` as they
      were, the highest indexed item id), which also turns those two settings off for the
      transaction (read first, in a subquery, then set) so that the GIN index answers every search
      statement (otherwise the planner may choose a scan in id order that reads each row's vector
      from TOAST, up to 0.9 s at 100,000 documents); ``end``, which puts back the values ``begin``
      read (``:seqscan``, ``:indexscan``, ``:jit``). JIT is off meanwhile too: a plan that
      must scan anyway (a team member's search, whose row-level policies keep the GIN index
      out: ``@@`` is not leakproof) costs 10^10 with those settings off, and compiling it took
      about 0.25 s a statement.
    - SQLite only: ``prefixes``, the parsed query when it has ``prefix*`` phrases, whose
      words :func:`search_ids` looks up (:func:`prefix_words`) to write ``:q`` out; ``top``,
      the highest item id; ``sample``, the number of matches above the id ``:cut``, up to
      ``:window``; ``rest``, the number at or below ``:cut``, up to ``:rest``; ``scored``, the
      newest ``:window`` matches with their ``bm25`` score (one pass that both tells whether
      there are RANK_WINDOW matches and ranks them when there are fewer).
    """

    newest: str
    ranked: str
    rows: str
    params: dict[str, object]
    count: str | None = None
    begin: str | None = None
    end: str | None = None
    prefixes: Query | None = None
    top: str | None = None
    sample: str | None = None
    rest: str | None = None
    scored: str | None = None


_PG_ROWS = (
    "SELECT i.id, i.case_id, i.kind, i.title, s.body, doc.text FROM items i "
    "LEFT JOIN search_pg s ON s.item_id = i.id "
    "LEFT JOIN documents doc ON doc.id = i.id WHERE i.id IN ({ids})"
)


def search_statements(dialect: str, parsed: Query, case_id: int | None) -> SearchSQL:
    """The SQL of a search on ``dialect`` ("sqlite" or "postgresql"); see :class:`SearchSQL`.

    A case filter joins ``items`` (SQLite) or uses ``search_pg.case_id`` (PostgreSQL). On
    PostgreSQL the matching is done by ``search_pg.terms`` (:func:`terms_tsquery`, ``:tq``),
    plus the positional ``tsv`` (:func:`tsquery`, ``:q``) for phrases of three words or more.
    """
    params: dict[str, object] = {"window": RANK_WINDOW}
    if case_id is not None:
        params["case_id"] = case_id
    if dialect == "sqlite":
        params["q"] = fts5_query(parsed)
        case_join = ("" if case_id is None else
                     "CROSS JOIN items ci ON ci.id = search_fts.rowid AND ci.case_id = :case_id ")
        matches = f"FROM search_fts {case_join}WHERE search_fts MATCH :q "
        bm25 = f"bm25(search_fts, {TITLE_WEIGHT}, 1.0)"
        newest = "ORDER BY search_fts.rowid DESC LIMIT :window"
        return SearchSQL(
            newest=f"SELECT search_fts.rowid {matches}{newest}",
            ranked=f"SELECT search_fts.rowid {matches}"
                   f"ORDER BY {bm25}, search_fts.rowid LIMIT :limit",
            top="SELECT max(id) FROM items",
            sample=f"SELECT count(*) FROM (SELECT 1 {matches}AND search_fts.rowid > :cut "
                   "LIMIT :window)",
            rest=f"SELECT count(*) FROM (SELECT 1 {matches}AND search_fts.rowid <= :cut "
                 "LIMIT :rest)",
            scored=f"SELECT search_fts.rowid, {bm25} {matches}{newest}",
            rows="SELECT i.id, i.case_id, i.kind, i.title, d.body, doc.text FROM items i "
                 "LEFT JOIN search_fts_docs d ON d.item_id = i.id "
                 "LEFT JOIN documents doc ON doc.id = i.id WHERE i.id IN ({ids})",
            params=params,
            prefixes=parsed if any(p.prefix for p in [*parsed.phrases(), *parsed.exclude])
            else None,
        )
    params["q"] = tsquery(parsed)
    params["tq"], exact = terms_tsquery(parsed)
    rest = ("" if exact else "AND s.tsv @@ CAST(:q AS tsquery) ") + (
        "" if case_id is None else "AND s.case_id = :case_id ")
    matches = f"FROM search_pg s WHERE s.terms @@ CAST(:tq AS tsquery) {rest}"
    return SearchSQL(
        newest=f"SELECT s.item_id FROM search_pg s WHERE s.terms @@ CAST(:tqw AS tsquery) "
               f"{rest}ORDER BY s.item_id DESC LIMIT :limit",
        ranked=f"SELECT s.item_id {matches}"
               "ORDER BY ts_rank(s.tsv, CAST(:q AS tsquery)) DESC, s.item_id LIMIT :limit",
        rows=_PG_ROWS,
        params=params,
        count=f"SELECT count(*) FROM (SELECT 1 {matches}LIMIT :window) m",
        begin="SELECT b.seqscan, b.indexscan, b.top, b.jit, "
              "set_config('enable_seqscan', 'off', true), "
              "set_config('enable_indexscan', 'off', true), set_config('jit', 'off', true) "
              "FROM (SELECT current_setting('enable_seqscan') AS seqscan, "
              "current_setting('enable_indexscan') AS indexscan, "
              "(SELECT max(item_id) FROM search_pg) AS top, "
              "current_setting('jit') AS jit OFFSET 0) b",
        end="SELECT set_config('enable_seqscan', :seqscan, true), "
            "set_config('enable_indexscan', :indexscan, true), set_config('jit', :jit, true)",
    )


#: The newest-first search on PostgreSQL looks in the newest id window, then in 8 times as
#: many, and so on; beyond this many windows, in all.
MAX_WINDOWS = 64


def search_ids(run: Run, stmts: SearchSQL, limit: int) -> list[int]:
    """The ids of the hits, best first, running ``stmts`` with ``run(sql, params)`` (which
    returns the rows): the newest ``limit`` when the query matches RANK_WINDOW items or more,
    else every match ranked by relevance.

    On PostgreSQL the newest are looked for in the newest id window
    (:data:`casefile.store.search.index.WINDOW_IDS` ids, a lexeme of ``search_pg.terms``), then
    in the newest 8, 64... windows until ``limit`` are found (the newest ``limit`` of a run of
    windows ending at the newest are the newest of all), so the GIN index returns a few thousand
    rows, not every match of a common word.
    """
    params = {**stmts.params, "limit": limit, "window": max(RANK_WINDOW, limit)}
    if stmts.count is None or stmts.begin is None or stmts.end is None:
        if stmts.prefixes is not None:
            words = prefix_words(run, stmts.prefixes)
            if words:
                params["q"] = fts5_query(stmts.prefixes, words)
        return _sqlite_ids(run, stmts, params, limit)
    seqscan, indexscan, top, jit = run(stmts.begin, params)[0][:4]
    # No try/finally: after an error the transaction is aborted, and its rollback puts the
    # settings back (set_config(..., true) is transaction-local).
    ids = _pg_ids(run, stmts, params, int(top or 0) // index.WINDOW_IDS, limit)
    run(stmts.end, {"seqscan": seqscan, "indexscan": indexscan, "jit": jit})
    return ids


#: SQLite: before a search matches everything, it looks at the newest 1/RANK_SAMPLE_SHARE of
#: the ids (at least RANK_SAMPLE_MIN ids) to guess whether the query matches RANK_WINDOW items
#: or more (:func:`_sqlite_ids`).
RANK_SAMPLE_SHARE = 16
RANK_SAMPLE_MIN = 1024


def _sqlite_ids(run: Run, stmts: SearchSQL, params: dict[str, object],
                limit: int) -> list[int]:
    """:func:`search_ids` on SQLite: the matching runs once in the usual cases.

    A query matching fewer than RANK_WINDOW items is ranked by the ``scored`` statement,
    which reads the newest RANK_WINDOW matches with their bm25 score: if it finds fewer, that
    was every match, and they are sorted here as ``ranked`` would sort them (bm25, then id;
    the same float scores). That pass computes bm25 for each match, which a query matching
    many more items than RANK_WINDOW should not pay (bm25 counts all matches of each phrase
    for its IDF), so the matches among the newest ids are counted first (``sample``: the
    newest 1/RANK_SAMPLE_SHARE of the ids), and that count, scaled up, chooses: under
    RANK_WINDOW, the ``scored`` pass; else the matches below the sample are counted too
    (``rest``) up to RANK_WINDOW, and with RANK_WINDOW the hits are the newest ``limit``
    (``newest``, which stops there); only a query whose guess was wrong, with fewer matches
    after all, is ranked by a second pass (``ranked``). A workspace with fewer ids than
    RANK_WINDOW is ranked at once (``ranked``). The answer is the same whichever way.
    """
    assert stmts.top and stmts.sample and stmts.rest and stmts.scored
    top = int(run(stmts.top, {})[0][0] or 0)
    if top < RANK_WINDOW:  # fewer items than RANK_WINDOW: always ranked
        return [int(r[0]) for r in run(stmts.ranked, params)]
    cut = top - max(top // RANK_SAMPLE_SHARE, RANK_SAMPLE_MIN)
    if cut > 0:
        found = int(run(stmts.sample, {**params, "cut": cut, "window": RANK_WINDOW})[0][0])
        # RANK_WINDOW matches or more in the sample, or likely so in all
        if found >= RANK_WINDOW or found * top >= RANK_WINDOW * (top - cut):
            if found < RANK_WINDOW:
                found += int(run(stmts.rest, {**params, "cut": cut,
                                              "rest": RANK_WINDOW - found})[0][0])
            if found >= RANK_WINDOW:
                return [int(r[0]) for r in run(stmts.newest, {**params, "window": limit})]
            return [int(r[0]) for r in run(stmts.ranked, params)]
    scored = run(stmts.scored, params)
    if len(scored) >= RANK_WINDOW:
        return [int(r[0]) for r in scored[:limit]]
    ranked = sorted((float(r[1]), int(r[0])) for r in scored)
    return [i for _score, i in ranked[:limit]]


def _pg_ids(run: Run, stmts: SearchSQL, params: dict[str, object], last: int,
            limit: int) -> list[int]:
    """:func:`search_ids` on PostgreSQL once the planner settings are made; ``last`` is the
    newest id window."""
    assert stmts.count is not None
    if int(run(stmts.count, params)[0][0]) < RANK_WINDOW:
        return [int(r[0]) for r in run(stmts.ranked, params)]
    span = 1
    while True:
        first = last - span + 1
        if first <= 0 or span > MAX_WINDOWS:
            tqw = str(params["tq"])
        else:
            windows = " | ".join(f"'{window_lexeme(k * index.WINDOW_IDS)}'"
                                 for k in range(last, first - 1, -1))
            tqw = f"({params['tq']}) & ({windows})"
        ids = [int(r[0]) for r in run(stmts.newest, {**params, "tqw": tqw})]
        if len(ids) >= limit or tqw == params["tq"]:
            return ids
        span *= 8


def search(
    source: Session | Reader, query: str, case_id: int | None = None, limit: int = 50, *,
    parsed: Query | None = None,
) -> list[SearchHit]:
    """Items whose title or text match ``query`` (syntax: :mod:`casefile.store.search.query`),
    best first.

    ``source`` is a session (the statements then run on its connection, in its transaction,
    through the driver: :func:`~casefile.store.reader.session_reader`) or a
    :class:`~casefile.store.reader.Reader` (``Workspace.reading()``, no session: about
    0.5 ms less a search).

    Order: when the query matches fewer than :data:`RANK_WINDOW` items, by relevance (FTS5
    ``bm25`` on SQLite, ``ts_rank`` on PostgreSQL, the title weighing more; the two engines
    return the same set of items, not always in the same order); when it matches more, newest
    first (module docstring, "Ranking and cost"). Returns an empty list for a query with
    nothing to look for. Deleted items are never returned. ``limit`` caps the number of hits
    (at least 1). Snippets (:mod:`casefile.store.search.snippets`) are made for the returned
    hits only, from the item's indexed body followed by its document text. ``parsed``:
    ``parse_query(query)``, when the caller has it already.
    """
    if parsed is None:
        parsed = parse_query(query)
    if parsed.empty:
        return []
    reader = session_reader(source) if isinstance(source, Session) else source
    run = reader.run
    stmts = search_statements(reader.dialect, parsed, case_id)
    ids = search_ids(run, stmts, max(1, int(limit)))
    if not ids:
        return []
    rows = {r[0]: r for r in run(stmts.rows.format(ids=",".join(map(str, ids))), {})}
    phrases = tuple(parsed.phrases())
    matcher, probes = _matcher(phrases), _probes(phrases, query)
    centre = _matcher(phrases, CENTRE_MIN_CHARS)
    hits: list[SearchHit] = []
    for item_id in ids:
        row = rows.get(item_id)
        if row is None:
            continue
        _id, hit_case, kind, title, body, doc_text = row
        full = indexed_text(body, doc_text)
        plain, spans = make_snippet(full, matcher, probes, centre)
        if not spans and not full.isascii() and gram_block().search(full) is not None:
            # a word touching CJK, Hangul, Thai... characters (NHK in NHKの)
            gram = _matcher(phrases, 0, True)
            plain, spans = make_snippet(full, gram, (), _matcher(phrases, CENTRE_MIN_CHARS, True))
        hits.append(SearchHit(item_id, hit_case, kind, title, plain, spans, doc_text))
    return hits
