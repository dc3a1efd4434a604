"""The Trash: deleted cases and items kept row for row until restored or emptied.

``trash_entries`` holds one row per delete (a case, or some items: what, from which case, a
label, when, row counts, the item ids); ``trash_rows`` the rows it took away, one JSON value
per deleted row (``op`` "row"), and the references it set to NULL in rows that stayed (``op``
"unset"), in the order they go back (``seq``). A copy rather than a deleted-at marker, so no
other query has to skip deleted rows (see casefile.store.trash). Existing workspaces start with
an empty Trash; ``downgrade`` drops both tables and whatever is in the Trash with them.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 12:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "trash_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("what", sa.String(length=20), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=True),
        sa.Column("case_title", sa.String(length=300), nullable=False),
        sa.Column("label", sa.Text(), nullable=False),
        sa.Column("deleted", sa.DateTime(), nullable=False),
        sa.Column("counts", sa.JSON(), nullable=False),
        sa.Column("item_ids", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_trash_entries")),
    )
    with op.batch_alter_table("trash_entries", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_trash_entries_case_id"), ["case_id"], unique=False)
    op.create_table(
        "trash_rows",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("table_name", sa.String(length=60), nullable=False),
        sa.Column("op", sa.String(length=10), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["entry_id"], ["trash_entries.id"],
                                name=op.f("fk_trash_rows_entry_id_trash_entries"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_trash_rows")),
    )
    with op.batch_alter_table("trash_rows", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_trash_rows_entry_id"), ["entry_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("trash_rows", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_trash_rows_entry_id"))
    op.drop_table("trash_rows")
    with op.batch_alter_table("trash_entries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_trash_entries_case_id"))
    op.drop_table("trash_entries")
