"""On SQLite, an index for the pending events and follow-ups grouped by their ``detail``:
``ix_mentions_variants`` on ``mentions (case_id, kind, name, detail, document_id, start, id)``
for the rows with ``status = 'suggested' AND kind IN ('event', 'question')`` (a partial index).

The Suggestions list groups a case's events and follow-ups by what their ``detail`` says (an
event's date, a follow-up's kind and due date: the suggestion's variant). Read from the
table, the detail of 5,000 such mentions took ~5 ms of every reload of a big case (a table row
looked up per mention); from this index the list is read in its order, without the table
(``casefile.store.mention_groups``, whose statement repeats the index's condition word for
word so that SQLite uses it; ARCHITECTURE.md, "The window"). PostgreSQL has no B-tree for a
``json`` column and reads the list its own way: nothing changes there. Not in the models
(``mention_groups.SQLITE_INDEXES``: the schema test leaves it out of its comparison).
``downgrade`` drops it. No data changes.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-03 09:40:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute("CREATE INDEX ix_mentions_variants ON mentions (case_id, kind, name, detail, "
               "document_id, start, id) WHERE status = 'suggested' "
               "AND kind IN ('event', 'question')")


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute("DROP INDEX ix_mentions_variants")
