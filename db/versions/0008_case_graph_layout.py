"""Cases keep the relationship graph's node positions (``cases.graph_layout``, JSON, nullable).

``{"positions": {"<item id>": [x, y]}, "pinned": [item ids]}`` (casefile.services.graph). Existing
cases get NULL: their graph is laid out the first time it is drawn. ``downgrade`` drops the
column (the positions are lost; nothing else depends on them).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02 23:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("cases", schema=None) as batch_op:
        batch_op.add_column(sa.Column("graph_layout", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("cases", schema=None) as batch_op:
        batch_op.drop_column("graph_layout")
