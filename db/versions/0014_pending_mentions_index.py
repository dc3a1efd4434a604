"""An index for a case's pending suggestions grouped by name: ``ix_mentions_pending`` on
``mentions (case_id, status, kind, name, document_id, start, id, role, affiliation)``.

The Suggestions list groups a case's suggested mentions by kind and name and takes each name's
first mention (by document, then position) and first role and affiliation
(``casefile.store.mention_groups``). With this index the database reads them in that order
from the index alone, without sorting or visiting the table's rows (ARCHITECTURE.md, "Layers":
the grouping lives in the store). Existing workspaces get the index on upgrade; ``downgrade``
drops it. No data changes.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03 06:30:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = ["case_id", "status", "kind", "name", "document_id", "start", "id",
           "role", "affiliation"]


def upgrade() -> None:
    with op.batch_alter_table("mentions", schema=None) as batch_op:
        batch_op.create_index("ix_mentions_pending", COLUMNS, unique=False)


def downgrade() -> None:
    with op.batch_alter_table("mentions", schema=None) as batch_op:
        batch_op.drop_index("ix_mentions_pending")
