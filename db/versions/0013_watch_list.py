"""The watch list: ``watch_names`` (names to watch, for one case or, with ``case_id`` NULL, the
whole workspace) and ``watch_hits`` (a name found in a document: one row per name and
document). Existing workspaces start with an empty list; ``downgrade`` drops both tables.

PostgreSQL (team workspaces): row-level security as for every table holding case content
(revision 0011): hits by their ``case_id``; a case's names by theirs, the workspace's names
(``case_id`` NULL) seen and kept by every member.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03 02:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_READ = "case_id IN (SELECT public.casefile_cases('reader'))"
_EDIT = "case_id IN (SELECT public.casefile_cases('editor'))"


def _policies(table: str, read: str, write: str, delete: str) -> list[str]:
    return [
        f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY",
        f"CREATE POLICY casefile_read ON {table} FOR SELECT USING ({read})",
        f"CREATE POLICY casefile_insert ON {table} FOR INSERT WITH CHECK ({write})",
        f"CREATE POLICY casefile_update ON {table} FOR UPDATE USING ({read}) "
        f"WITH CHECK ({write})",
        f"CREATE POLICY casefile_delete ON {table} FOR DELETE USING ({delete})",
    ]


def upgrade() -> None:
    op.create_table(
        "watch_names",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=500), nullable=False),
        sa.Column("aliases", sa.JSON(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("source", sa.String(length=300), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["case_id"], ["cases.id"],
                                name=op.f("fk_watch_names_case_id_cases"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_watch_names")),
    )
    with op.batch_alter_table("watch_names", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_watch_names_case_id"), ["case_id"], unique=False)
    op.create_table(
        "watch_hits",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("watch_name_id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(length=500), nullable=False),
        sa.Column("start", sa.Integer(), nullable=False),
        sa.Column("end", sa.Integer(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("found", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["case_id"], ["cases.id"],
                                name=op.f("fk_watch_hits_case_id_cases"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["watch_name_id"], ["watch_names.id"],
                                name=op.f("fk_watch_hits_watch_name_id_watch_names"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["document_id"], ["documents.id"],
                                name=op.f("fk_watch_hits_document_id_documents"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_watch_hits")),
        sa.UniqueConstraint("watch_name_id", "document_id",
                            name=op.f("uq_watch_hits_watch_name_id")),
    )
    with op.batch_alter_table("watch_hits", schema=None) as batch_op:
        for column in ("case_id", "watch_name_id", "document_id"):
            batch_op.create_index(batch_op.f(f"ix_watch_hits_{column}"), [column], unique=False)
    if op.get_bind().dialect.name == "postgresql":
        for statement in (
            *_policies("watch_hits", _READ, "public.casefile_check_write(case_id)", _EDIT),
            *_policies("watch_names", f"case_id IS NULL OR {_READ}",
                       "case_id IS NULL OR public.casefile_check_write(case_id)",
                       f"case_id IS NULL OR {_EDIT}"),
        ):
            op.execute(statement)


def downgrade() -> None:
    with op.batch_alter_table("watch_hits", schema=None) as batch_op:
        for column in ("document_id", "watch_name_id", "case_id"):
            batch_op.drop_index(batch_op.f(f"ix_watch_hits_{column}"))
    op.drop_table("watch_hits")
    with op.batch_alter_table("watch_names", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_watch_names_case_id"))
    op.drop_table("watch_names")
