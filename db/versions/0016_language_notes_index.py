"""On SQLite, an index of the documents left without suggestions for their language:
``ix_documents_language_notes`` on ``documents (id)`` for the rows whose ``import_notes`` hold
"No suggestions: the text is in " (a partial index).

The Suggestions panel's status names those documents, and a case opens with that read. Looked
for in every document's notes, it read every document row of the case (a row's notes come after
its text, so a case of long texts was read whole: ~2.5 ms of every reload of a case of 2,000
short documents); from this index only the documents holding the note are read
(``casefile.store.document_notes``, whose statement repeats the index's condition word for word
so that SQLite uses it). PostgreSQL reads the notes its own way: nothing changes there. Not in
the models (``document_notes.SQLITE_INDEXES``: the schema test leaves it out of its
comparison). ``downgrade`` drops it. No data changes.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-03 12:10:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute("CREATE INDEX ix_documents_language_notes ON documents (id) "
               "WHERE instr(import_notes, 'No suggestions: the text is in ') > 0")


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute("DROP INDEX ix_documents_language_notes")
