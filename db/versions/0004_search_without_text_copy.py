"""Search: the index no longer keeps a second copy of every document's text.

Written by hand (autogenerate ignores the search tables, db/env.py). What changes:

- ``search_fts_docs.body`` (SQLite) and ``search_pg.body`` (PostgreSQL) keep only an item's
  indexed text *besides* a document's extracted text (notes, author, outlet...); snippets read the
  text from ``documents.text`` (``casefile.store.search.search_sql``). At 100,000 documents of
  3 KB this copy was ~300 MB of a workspace. The FTS5 table and the tsvector are unchanged (the
  document text is still indexed).
- SQLite: a trigger removes an item's ``search_fts`` row when the item is deleted, also through a
  foreign-key cascade (deleting a case), as PostgreSQL's foreign key on ``search_pg`` already did.
  So no stale row can take a place in a search's LIMIT (the search ranks before it joins).

The space freed in a SQLite file is reused by later imports; ``VACUUM`` (which cannot run inside
the upgrade's transaction) gives it back to the disk.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 17:30:00
"""

from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 500
TRIGGER = (
    "CREATE TRIGGER search_fts_item_deleted AFTER DELETE ON items BEGIN "
    "DELETE FROM search_fts WHERE rowid = old.id; END"
)


def _table() -> str:
    return "search_fts_docs" if op.get_bind().dialect.name == "sqlite" else "search_pg"


def without_text(body: str, doc_text: str) -> str:
    """``body`` as 0003 stored it (parts joined by newlines, the document text last) without the
    document text; unchanged when it does not end with it."""
    if not doc_text:
        return body
    if body == doc_text:
        return ""
    if body.endswith("\n" + doc_text):
        return body[: -len(doc_text) - 1]
    return body


def _rewrite(change: Callable[[str, str], str]) -> None:
    """Apply ``change(body, text) -> body`` to the search rows of documents, in id order, in
    batches (a 100,000-document workspace is not read into memory at once)."""
    bind = op.get_bind()
    table = _table()
    last = 0
    while True:
        rows = bind.execute(
            sa.text(f"SELECT s.item_id, s.body, d.text FROM {table} s "
                    "JOIN documents d ON d.id = s.item_id WHERE s.item_id > :last "
                    "ORDER BY s.item_id LIMIT :n"),
            {"last": last, "n": BATCH},
        ).all()
        if not rows:
            return
        updates = [{"i": r[0], "b": change(r[1] or "", r[2] or "")} for r in rows]
        bind.execute(sa.text(f"UPDATE {table} SET body = :b WHERE item_id = :i"), updates)
        last = rows[-1][0]


def upgrade() -> None:
    _rewrite(without_text)
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DELETE FROM search_fts WHERE rowid NOT IN (SELECT id FROM items)")
        op.execute(TRIGGER)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS search_fts_item_deleted")
    _rewrite(lambda body, doc_text: body + "\n" + doc_text if body and doc_text
             else body or doc_text)
