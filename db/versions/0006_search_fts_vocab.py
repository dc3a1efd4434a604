"""Search on SQLite: a table of every indexed word, so ``prefix*`` queries are written out.

Written by hand (autogenerate ignores the search tables, db/env.py). SQLite only; PostgreSQL is
unchanged (a ``:*`` prefix is answered by the GIN index).

``search_fts_vocab`` (``term`` primary key, WITHOUT ROWID) holds every word written to
``search_fts``; ``casefile.store.search.index_rows`` adds an item's words in the same
transaction as its index row. A search looks up the words starting with a ``prefix*`` word
there and, when there are at most ``MAX_PREFIX_WORDS``, asks FTS5 for their OR instead of the
prefix (``casefile.store.search.fts5_query``): FTS5 without a prefix index merges the full
doclists of every word of a prefix before it returns the first row (28 ms for ``audit*`` at
100,000 documents), while an OR stops at the LIMIT (2.4 ms).

Existing words are read from the FTS5 index itself through a temporary ``fts5vocab`` table
(sqlite.org/fts5.html, "The fts5vocab Virtual Table Module").

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 04:30:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute("CREATE TABLE search_fts_vocab (term TEXT PRIMARY KEY) WITHOUT ROWID")
    op.execute("CREATE VIRTUAL TABLE temp.search_fts_terms USING fts5vocab(main, search_fts, row)")
    op.execute("INSERT INTO search_fts_vocab (term) SELECT term FROM temp.search_fts_terms")
    op.execute("DROP TABLE temp.search_fts_terms")


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute("DROP TABLE search_fts_vocab")
