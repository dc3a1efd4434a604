"""People keep the reporter's identifying phrases (``people.identifying_phrases``, JSON list).

Phrases that identify a confidential person without naming them ("the clerk who signed the
contract"); exports withhold them as they withhold the name (casefile.services.disclosure).
Existing people get an empty list. ``downgrade`` drops the column (the phrases are lost).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02 16:45:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("people", schema=None) as batch_op:
        batch_op.add_column(sa.Column("identifying_phrases", sa.JSON(), nullable=False,
                                      server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("people", schema=None) as batch_op:
        batch_op.drop_column("identifying_phrases")
