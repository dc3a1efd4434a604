"""Initial schema: cases, items and their kinds, passages, evidence, mentions, change log, blobs,
plus the full-text search index (FTS5 on SQLite, tsvector + GIN on PostgreSQL).

Revision ID: 0001
Revises:
Create Date: 2026-11-30 16:11:30.219364
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _create_search_index() -> None:
    """The search index is not a model table: autogenerate ignores it (db/env.py)."""
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        op.execute(
            "CREATE VIRTUAL TABLE search_fts USING fts5("
            "item_id UNINDEXED, case_id UNINDEXED, title, body, "
            "tokenize = 'unicode61 remove_diacritics 2')"
        )
    else:
        op.execute(
            "CREATE TABLE search_pg ("
            "item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE, "
            "case_id INTEGER NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL, "
            "tsv tsvector GENERATED ALWAYS AS "
            "(to_tsvector('simple', title || ' ' || body)) STORED)"
        )
        op.execute("CREATE INDEX search_pg_tsv ON search_pg USING GIN (tsv)")
        op.execute("CREATE INDEX search_pg_case ON search_pg (case_id)")


def _drop_search_index() -> None:
    bind = op.get_bind()
    op.execute(
        "DROP TABLE IF EXISTS " + ("search_fts" if bind.dialect.name == "sqlite" else "search_pg")
    )


#: The tables in the order they are made (each after the tables it references); downgrade
#: drops them in the reverse order.
TABLES = ("blobs", "cases", "change_log", "items", "claims", "documents", "events",
          "organizations", "people", "places", "mentions", "passages", "evidence_links",
          "questions", "relationships")
#: Each table's indexes on one column (``ix_<table>_<column>``), in the order they are made.
INDEXED: dict[str, tuple[str, ...]] = {
    "change_log": ("case_id",),
    "items": ("case_id", "kind"),
    "documents": ("sha256",),
    "mentions": ("case_id", "document_id", "item_id"),
    "passages": ("case_id", "document_id"),
    "evidence_links": ("case_id", "document_id", "item_id", "passage_id"),
    "questions": ("due",),
    "relationships": ("case_id", "source_id", "target_id"),
}
#: An item kind table's ``id`` is its item's id: the row goes with the item.
KIND_KEY = {"id": ("items", "CASCADE")}


def _create(table: str, *columns: sa.Column, refs: dict[str, tuple[str, str]] | None = None,
            check: tuple[str, str] | None = None, unique: str | None = None,
            key: str = "id") -> None:
    """Create ``table`` with ``columns`` and its constraints, named as the models' naming
    convention names them (casefile.store): ``refs`` maps a column to the table it references
    (its ``id``; ``"blobs.sha256"`` names another column) and the ON DELETE action, ``check`` is
    (name, SQL condition), ``unique`` one unique column, ``key`` the primary key; then the
    table's ``INDEXED`` columns.

    The constraints are made in the order Alembic's autogenerate wrote them (check, the foreign
    keys by column name, primary key, unique): SQLite keeps the CREATE TABLE text as written."""
    constraints: list[sa.Constraint] = []
    if check is not None:
        constraints.append(sa.CheckConstraint(check[1], name=op.f(f"ck_{table}_{check[0]}")))
    for column, (target, ondelete) in sorted((refs or {}).items()):
        parent, _, parent_key = target.partition(".")
        constraints.append(sa.ForeignKeyConstraint(
            [column], [f"{parent}.{parent_key or 'id'}"],
            name=op.f(f"fk_{table}_{column}_{parent}"), ondelete=ondelete))
    constraints.append(sa.PrimaryKeyConstraint(key, name=op.f(f"pk_{table}")))
    if unique is not None:
        constraints.append(sa.UniqueConstraint(unique, name=op.f(f"uq_{table}_{unique}")))
    op.create_table(table, *columns, *constraints)
    if table in INDEXED:
        with op.batch_alter_table(table, schema=None) as batch_op:
            for column in INDEXED[table]:
                batch_op.create_index(batch_op.f(f"ix_{table}_{column}"), [column], unique=False)


def _id() -> sa.Column:
    return sa.Column("id", sa.Integer(), nullable=False)


def upgrade() -> None:
    _create(
        "blobs",
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        key="sha256",
    )
    _create(
        "cases",
        _id(),
        sa.Column("title", sa.String(length=300), nullable=False),
        sa.Column("summary", sa.Text(), nullable=True),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("updated", sa.DateTime(), nullable=False),
        unique="title",
    )
    _create(
        "change_log",
        _id(),
        sa.Column("case_id", sa.Integer(), nullable=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("actor", sa.String(length=120), nullable=False),
        sa.Column("action", sa.String(length=60), nullable=False),
        sa.Column("item_id", sa.Integer(), nullable=True),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=True),
        refs={"case_id": ("cases", "CASCADE")},
    )
    _create(
        "items",
        _id(),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("title", sa.String(length=500), nullable=False),
        sa.Column("notes", sa.Text(), nullable=True),
        sa.Column("confidential", sa.Boolean(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("updated", sa.DateTime(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        refs={"case_id": ("cases", "CASCADE")},
    )
    _create(
        "claims",
        _id(),
        sa.Column("statement", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("status_reason", sa.Text(), nullable=True),
        sa.Column("attributed_to_id", sa.Integer(), nullable=True),
        sa.Column("attributed_to_text", sa.String(length=500), nullable=True),
        sa.Column("via_id", sa.Integer(), nullable=True),
        refs={**KIND_KEY, "attributed_to_id": ("items", "SET NULL"),
              "via_id": ("items", "SET NULL")},
    )
    _create(
        "documents",
        _id(),
        sa.Column("doc_kind", sa.String(length=40), nullable=False),
        sa.Column("author", sa.String(length=300), nullable=True),
        sa.Column("outlet", sa.String(length=300), nullable=True),
        sa.Column("url", sa.Text(), nullable=True),
        sa.Column("published", sa.Date(), nullable=True),
        sa.Column("retrieved", sa.Date(), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=True),
        sa.Column("mime_type", sa.String(length=100), nullable=True),
        sa.Column("filename", sa.String(length=500), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("page_starts", sa.JSON(), nullable=True),
        sa.Column("import_notes", sa.JSON(), nullable=False),
        sa.Column("meta", sa.JSON(), nullable=False),
        sa.Column("parent_id", sa.Integer(), nullable=True),
        refs={**KIND_KEY, "parent_id": ("items", "SET NULL"),
              "sha256": ("blobs.sha256", "RESTRICT")},
    )
    _create(
        "events",
        _id(),
        sa.Column("date", sa.Date(), nullable=True),
        sa.Column("precision", sa.String(length=20), nullable=False),
        sa.Column("end", sa.Date(), nullable=True),
        sa.Column("place_id", sa.Integer(), nullable=True),
        sa.Column("description", sa.Text(), nullable=True),
        refs={**KIND_KEY, "place_id": ("items", "SET NULL")},
    )
    _create(
        "organizations",
        _id(),
        sa.Column("aliases", sa.JSON(), nullable=False),
        sa.Column("org_kind", sa.String(length=60), nullable=True),
        sa.Column("jurisdiction", sa.String(length=300), nullable=True),
        sa.Column("parent_id", sa.Integer(), nullable=True),
        refs={**KIND_KEY, "parent_id": ("items", "SET NULL")},
    )
    _create(
        "people",
        _id(),
        sa.Column("aliases", sa.JSON(), nullable=False),
        sa.Column("role", sa.String(length=300), nullable=True),
        sa.Column("affiliation_id", sa.Integer(), nullable=True),
        sa.Column("contact", sa.Text(), nullable=True),
        refs={**KIND_KEY, "affiliation_id": ("items", "SET NULL")},
    )
    _create("places", _id(), sa.Column("aliases", sa.JSON(), nullable=False), refs=KIND_KEY)
    _create(
        "mentions",
        _id(),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("item_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("name", sa.String(length=500), nullable=False),
        sa.Column("start", sa.Integer(), nullable=False),
        sa.Column("end", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("role", sa.String(length=300), nullable=True),
        sa.Column("affiliation", sa.String(length=300), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=True),
        sa.Column("created", sa.DateTime(), nullable=False),
        refs={"case_id": ("cases", "CASCADE"), "document_id": ("documents", "CASCADE"),
              "item_id": ("items", "SET NULL")},
    )
    _create(
        "passages",
        _id(),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("start", sa.Integer(), nullable=False),
        sa.Column("end", sa.Integer(), nullable=False),
        sa.Column("page", sa.Integer(), nullable=True),
        sa.Column("quote", sa.Text(), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("created", sa.DateTime(), nullable=False),
        check=("span", 'start >= 0 AND "end" > start'),
        refs={"case_id": ("cases", "CASCADE"), "document_id": ("documents", "CASCADE")},
    )
    _create(
        "evidence_links",
        _id(),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("passage_id", sa.Integer(), nullable=True),
        sa.Column("document_id", sa.Integer(), nullable=True),
        sa.Column("item_id", sa.Integer(), nullable=False),
        sa.Column("relation", sa.String(length=20), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("created", sa.DateTime(), nullable=False),
        check=("passage_or_document", "passage_id IS NOT NULL OR document_id IS NOT NULL"),
        refs={"case_id": ("cases", "CASCADE"), "document_id": ("documents", "CASCADE"),
              "item_id": ("items", "CASCADE"), "passage_id": ("passages", "CASCADE")},
    )
    _create(
        "questions",
        _id(),
        sa.Column("question_kind", sa.String(length=30), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("status_changed", sa.DateTime(), nullable=True),
        sa.Column("due", sa.Date(), nullable=True),
        sa.Column("ask_id", sa.Integer(), nullable=True),
        sa.Column("answer", sa.Text(), nullable=True),
        sa.Column("answered_at", sa.Date(), nullable=True),
        sa.Column("answered_by_passage_id", sa.Integer(), nullable=True),
        sa.Column("answered_by_document_id", sa.Integer(), nullable=True),
        refs={**KIND_KEY, "answered_by_document_id": ("items", "SET NULL"),
              "answered_by_passage_id": ("passages", "SET NULL"),
              "ask_id": ("items", "SET NULL")},
    )
    _create(
        "relationships",
        _id(),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("source_id", sa.Integer(), nullable=False),
        sa.Column("target_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("passage_id", sa.Integer(), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        refs={"case_id": ("cases", "CASCADE"), "passage_id": ("passages", "SET NULL"),
              "source_id": ("items", "CASCADE"), "target_id": ("items", "CASCADE")},
    )
    _create_search_index()


def downgrade() -> None:
    _drop_search_index()
    for table in reversed(TABLES):
        if table in INDEXED:
            with op.batch_alter_table(table, schema=None) as batch_op:
                for column in reversed(INDEXED[table]):
                    batch_op.drop_index(batch_op.f(f"ix_{table}_{column}"))
        op.drop_table(table)
