"""The reading ledger: each document is unread, read, relevant or not relevant
(``documents.reading``, with ``documents.read_at``), passages can be starred
(``passages.starred``).

Existing documents start unread, passages unstarred. ``downgrade`` drops
the columns (the states are lost).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02 20:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("documents", schema=None) as batch_op:
        batch_op.add_column(sa.Column("reading", sa.String(length=12), nullable=False,
                                      server_default="unread"))
        batch_op.add_column(sa.Column("read_at", sa.DateTime(), nullable=True))
    with op.batch_alter_table("passages", schema=None) as batch_op:
        batch_op.add_column(sa.Column("starred", sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("passages", schema=None) as batch_op:
        batch_op.drop_column("starred")
    with op.batch_alter_table("documents", schema=None) as batch_op:
        batch_op.drop_column("read_at")
        batch_op.drop_column("reading")
