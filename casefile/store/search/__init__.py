"""Full-text search backend: SQLite FTS5 or PostgreSQL tsvector, behind a few functions.

Services call :func:`index_item` after a change and :func:`unindex_item` before a delete, in the
same transaction as the change; :func:`search` answers a user's free-text query. One module a
job, each with its own docstring:

- :mod:`~casefile.store.search.folding`: one normalisation, in Python, for both engines
  (:func:`fold`, :func:`tokens`: ``Łódź`` finds ``Lodz``, ``e-mail`` finds ``email``);
- :mod:`~casefile.store.search.grams`: scripts written without spaces, and Hangul, indexed as
  pairs of characters (:func:`gram_tokens`: 記者会見 → ``記者 者会 会見 見``);
- :mod:`~casefile.store.search.query`: the query language (:func:`parse_query`: words,
  ``"exact phrase"``, ``prefix*``, ``-exclude``, ``OR``) and its FTS5 and tsquery forms;
- :mod:`~casefile.store.search.index`: the tables of each engine and their upkeep
  (:func:`index_rows`, :func:`forget_deleted_words`);
- :mod:`~casefile.store.search.snippets`: the text shown around a match, words highlighted
  (:func:`make_snippet`);
- :mod:`~casefile.store.search.running`: the statements of a search, ranking and its cost
  ("Ranking and cost"), and :func:`search` itself.

The public names of those modules are importable from here too. A module setting (such as
``RANK_WINDOW`` or ``WINDOW_IDS``) is read where it is defined: to change it (a test, a
benchmark), set it on that module, not here.
"""

from casefile.store.search.folding import (
    MAX_TOKEN_CHARS,
    TOKEN_CHUNK_CHARS,
    ascii_view,
    fold,
    fold_same_length,
    token_text,
    tokens,
)
from casefile.store.search.grams import (
    GRAM_BLOCKS,
    gram_block,
    gram_class,
    gram_run,
    gram_tokens,
    is_gram,
)
from casefile.store.search.index import (
    PG_MAX_POS,
    PG_MAX_POSITIONS_PER_LEXEME,
    PG_MAX_VECTOR_BYTES,
    SEARCH_TABLE_PREFIXES,
    WINDOW_IDS,
    IndexRow,
    forget_deleted_words,
    index_item,
    index_rows,
    indexed_text,
    pair_lexeme,
    terms_literal,
    tsvector_literal,
    unindex_item,
    window_lexeme,
)
from casefile.store.search.query import (
    MAX_PREFIX_WORDS,
    MAX_TERMS,
    Phrase,
    Query,
    Unit,
    fts5_query,
    has_gram,
    parse_query,
    phrase_text,
    phrase_units,
    prefix_words,
    query_terms,
    query_tokens,
    terms_tsquery,
    tsquery,
)
from casefile.store.search.running import (
    MAX_WINDOWS,
    RANK_SAMPLE_MIN,
    RANK_SAMPLE_SHARE,
    RANK_WINDOW,
    TITLE_WEIGHT,
    SearchHit,
    SearchSQL,
    search,
    search_ids,
    search_statements,
)
from casefile.store.search.snippets import (
    CENTRE_MIN_CHARS,
    MARK_CLOSE,
    MARK_OPEN,
    SNIPPET_CHARS,
    make_snippet,
    mark,
)

__all__ = [
    "CENTRE_MIN_CHARS", "GRAM_BLOCKS", "MARK_CLOSE", "MARK_OPEN", "MAX_PREFIX_WORDS", "MAX_TERMS",
    "MAX_TOKEN_CHARS", "MAX_WINDOWS", "PG_MAX_POS", "PG_MAX_POSITIONS_PER_LEXEME",
    "PG_MAX_VECTOR_BYTES", "RANK_SAMPLE_MIN", "RANK_SAMPLE_SHARE", "RANK_WINDOW",
    "SEARCH_TABLE_PREFIXES", "SNIPPET_CHARS", "TITLE_WEIGHT", "TOKEN_CHUNK_CHARS", "WINDOW_IDS",
    "IndexRow", "Phrase", "Query", "SearchHit", "SearchSQL", "Unit",
    "ascii_view", "fold", "fold_same_length", "forget_deleted_words", "fts5_query",
    "gram_block", "gram_class", "gram_run", "gram_tokens", "has_gram", "index_item",
    "index_rows", "indexed_text", "is_gram", "make_snippet", "mark", "pair_lexeme",
    "parse_query", "phrase_text", "phrase_units", "prefix_words", "query_terms",
    "query_tokens", "search", "search_ids", "search_statements", "terms_literal",
    "terms_tsquery", "token_text", "tokens", "tsquery", "tsvector_literal", "unindex_item",
    "window_lexeme",
]
