"""Alembic environment for Casefile (shipped in the package as casefile.db).

Used programmatically by casefile.store.workspace (the open connection is passed in
``config.attributes["connection"]``) and by developers with ``alembic -c db/alembic.ini``.
Autogenerate ignores the full-text search tables (FTS5 virtual table, its shadow tables, and the
PostgreSQL search table), which are created by hand in the first revision, and the team
workspace's ``case_members`` (PostgreSQL only, revision 0010).
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from casefile.store import Base
from casefile.store.search import SEARCH_TABLE_PREFIXES
from casefile.store.teams import TEAM_TABLES

config = context.config
target_metadata = Base.metadata


def include_name(name: str | None, type_: str, parent_names: object) -> bool:
    """Skip the search tables in autogenerate comparisons."""
    if type_ == "table" and name is not None:
        # case_members: PostgreSQL only (revision 0010), not a model table
        return not name.startswith(SEARCH_TABLE_PREFIXES) and name not in TEAM_TABLES
    return True


def _configure_and_run(connection) -> None:  # type: ignore[no-untyped-def]
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        include_name=include_name,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure_and_run(connection)
        return
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
    with engine.begin() as conn:
        _configure_and_run(conn)


def run_migrations_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
        include_name=include_name,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
