"""Follow-ups: the history of each question's status, and a stable calendar UID per question.

- ``question_status_changes``: one row per status change (previous → status, on a date, note).
  Existing questions get one row each: their current status, dated by ``status_changed`` or,
  failing that, the question's ``created`` date, with the note "status when the history began".
- ``questions.uid``: a random UUID per question (existing ones get one each here), unique, so
  calendar exports (.ics) keep the same UID for the same follow-up across exports.

Generated with ``alembic revision --autogenerate`` against a database at 0001, then given the
backfill; SQLite runs it in batch mode (render_as_batch, db/env.py).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 16:27:31.611210
"""

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

HISTORY_NOTE = "status when the history began"


def upgrade() -> None:
    bind = op.get_bind()
    # questions.uid first: on SQLite the batch below copies and drops the questions table, and
    # dropping it would cascade-delete history rows pointing at it if they existed already.
    with op.batch_alter_table("questions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("uid", sa.String(length=36), nullable=True))
    questions = sa.table(
        "questions", sa.column("id", sa.Integer), sa.column("uid", sa.String),
        sa.column("status", sa.String), sa.column("status_changed", sa.DateTime),
    )
    for (qid,) in bind.execute(sa.select(questions.c.id)).all():
        bind.execute(
            questions.update().where(questions.c.id == qid).values(uid=str(uuid.uuid4()))
        )
    with op.batch_alter_table("questions", schema=None) as batch_op:
        batch_op.alter_column("uid", existing_type=sa.String(length=36), nullable=False)
        batch_op.create_unique_constraint(batch_op.f("uq_questions_uid"), ["uid"])

    op.create_table(
        "question_status_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("question_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("previous", sa.String(length=20), nullable=True),
        sa.Column("changed_on", sa.Date(), nullable=False),
        sa.Column("recorded", sa.DateTime(), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["question_id"], ["questions.id"],
            name=op.f("fk_question_status_changes_question_id_questions"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_question_status_changes")),
    )
    with op.batch_alter_table("question_status_changes", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_question_status_changes_question_id"), ["question_id"], unique=False
        )

    items = sa.table("items", sa.column("id", sa.Integer), sa.column("created", sa.DateTime))
    changes = sa.table(
        "question_status_changes", sa.column("question_id", sa.Integer),
        sa.column("status", sa.String), sa.column("previous", sa.String),
        sa.column("changed_on", sa.Date), sa.column("recorded", sa.DateTime),
        sa.column("note", sa.Text),
    )
    rows = bind.execute(
        sa.select(questions.c.id, questions.c.status, questions.c.status_changed,
                  items.c.created)
        .select_from(questions.join(items, items.c.id == questions.c.id))
    ).all()
    recorded = datetime.now(UTC).replace(tzinfo=None)
    for qid, status, changed, created in rows:
        when = changed or created or recorded
        bind.execute(changes.insert().values(
            question_id=qid, status=status or "open", previous=None, changed_on=when.date(),
            recorded=recorded, note=HISTORY_NOTE,
        ))


def downgrade() -> None:
    with op.batch_alter_table("questions", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_questions_uid"), type_="unique")
        batch_op.drop_column("uid")

    with op.batch_alter_table("question_status_changes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_question_status_changes_question_id"))

    op.drop_table("question_status_changes")
