"""Search on PostgreSQL: a positionless ``terms`` vector with word pairs and id windows.

Written by hand (autogenerate ignores the search tables, db/env.py). PostgreSQL only; SQLite is
unchanged.

- ``search_pg.terms`` (``tsvector``, no positions) holds an item's words, its pairs of adjacent
  words (``_harbor_police``) and its id-window lexeme (``_w97``), written by
  ``casefile.store.search.terms_literal``; the GIN index ``search_pg_terms`` indexes it. Every
  search now finds its candidates there: a two-word phrase is one lexeme (no positional check of
  each row, which read the whole vector from TOAST), and the newest matches of a common word are
  found window by window inside the index (``store.search.search_ids``).
- The GIN index on ``tsv`` is dropped (``tsv`` is only read for ranking and to check phrases of
  three words or more, row by row); at 100,000 documents it was about 60 MB.

Existing rows are filled here from the index's title and body and the document text, in
batches of 500 in id order.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 01:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from casefile.store.search import indexed_text, terms_literal

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 500


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    op.execute("ALTER TABLE search_pg ADD COLUMN terms tsvector NOT NULL DEFAULT ''")
    last = 0
    while True:
        rows = bind.execute(
            sa.text("SELECT s.item_id, s.title, s.body, d.text FROM search_pg s "
                    "LEFT JOIN documents d ON d.id = s.item_id WHERE s.item_id > :last "
                    "ORDER BY s.item_id LIMIT :n"),
            {"last": last, "n": BATCH},
        ).all()
        if not rows:
            break
        updates = []
        for item_id, title, body, doc_text in rows:
            full = indexed_text(body, doc_text)
            updates.append({"i": item_id, "w": terms_literal(item_id, title or "", full)})
        bind.execute(
            sa.text("UPDATE search_pg SET terms = CAST(:w AS tsvector) WHERE item_id = :i"),
            updates,
        )
        last = rows[-1][0]
    op.execute("CREATE INDEX search_pg_terms ON search_pg USING GIN (terms)")
    op.execute("DROP INDEX IF EXISTS search_pg_tsv")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("CREATE INDEX IF NOT EXISTS search_pg_tsv ON search_pg USING GIN (tsv)")
    op.execute("DROP INDEX IF EXISTS search_pg_terms")
    op.execute("ALTER TABLE search_pg DROP COLUMN terms")
