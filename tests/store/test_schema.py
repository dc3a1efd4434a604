"""The schema made by Alembic is the schema of the models, and old workspaces are upgraded."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, select, text

from casefile.services.cases import create_case
from casefile.store import Base, Case, document_notes, mention_groups
from casefile.store import workspace as wsmod
from casefile.store.search import SEARCH_TABLE_PREFIXES
from casefile.store.teams import TEAM_TABLES
from casefile.store.workspace import head_revision, open_workspace


def _diff(ws) -> list[object]:
    def include_name(name, type_, parent_names):
        if type_ == "index":  # SQLite's own, made by migrations (revisions 0015, 0016)
            return name not in (*mention_groups.SQLITE_INDEXES, *document_notes.SQLITE_INDEXES)
        return not (type_ == "table" and (name.startswith(SEARCH_TABLE_PREFIXES)
                                          or name in TEAM_TABLES))

    with ws.engine.connect() as conn:
        mc = MigrationContext.configure(
            conn, opts={"compare_type": True, "include_name": include_name}
        )
        return list(compare_metadata(mc, Base.metadata))


def test_new_workspace_is_at_head_and_matches_the_models(workspace) -> None:
    with workspace.engine.connect() as conn:
        assert MigrationContext.configure(conn).get_current_revision() == head_revision()
    assert _diff(workspace) == []
    tables = set(inspect(workspace.engine).get_table_names())
    assert set(Base.metadata.tables) <= tables


def test_models_create_all_and_migration_give_same_columns(tmp_path: Path, workspace) -> None:
    insp = inspect(workspace.engine)
    for table in Base.metadata.sorted_tables:
        migrated = {c["name"] for c in insp.get_columns(table.name)}
        assert migrated == {c.name for c in table.columns}, table.name


def test_sqlite_workspace_uses_wal_and_foreign_keys(sqlite_workspace) -> None:
    with sqlite_workspace.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
    assert (sqlite_workspace.folder / "casefile.sqlite3").is_file()


def test_workspace_location_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASEFILE_WORKSPACE", str(tmp_path / "env"))
    assert wsmod.resolve_location().endswith("/env/casefile.sqlite3")
    assert wsmod.resolve_location(tmp_path / "flag").endswith("/flag/casefile.sqlite3")
    monkeypatch.setenv("CASEFILE_DB_URL", "postgresql+psycopg://h/db")
    assert wsmod.resolve_location() == "postgresql+psycopg://h/db"
    assert wsmod.resolve_location(tmp_path / "flag").endswith("/flag/casefile.sqlite3")
    assert wsmod.resolve_location(db_url="sqlite:///x.db") == "sqlite:///x.db"
    monkeypatch.delenv("CASEFILE_DB_URL")
    monkeypatch.delenv("CASEFILE_WORKSPACE")
    default = wsmod.resolve_location()
    assert str(wsmod.default_workspace_dir()) in default


NEXT_REVISION = '''
"""Test-only revision: add a column, as a future release would."""
import sqlalchemy as sa
from alembic import op

revision = "9999"
down_revision = "{head}"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("cases") as batch:
        batch.add_column(sa.Column("test_only", sa.Text(), nullable=True))


def downgrade():
    with op.batch_alter_table("cases") as batch:
        batch.drop_column("test_only")
'''


def test_older_workspace_is_backed_up_then_upgraded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A workspace at today's head, opened by a Casefile with one more revision."""
    folder = tmp_path / "ws"
    old_head = head_revision()
    ws = open_workspace(folder)
    with ws.transaction() as s:
        create_case(s, "Kept across the upgrade")
    ws.close()

    versions = tmp_path / "future_versions"
    versions.mkdir()
    (versions / "9999_test_only.py").write_text(NEXT_REVISION.format(head=head_revision()))
    real_config = wsmod.alembic_config

    def future_config(url: str | None = None):
        cfg = real_config(url)
        shipped = str(Path(cfg.get_main_option("script_location") or "") / "versions")
        cfg.set_main_option("version_locations", os.pathsep.join([shipped, str(versions)]))
        return cfg

    monkeypatch.setattr(wsmod, "alembic_config", future_config)
    ws = open_workspace(folder)
    try:
        assert ws.backup_path is not None and ws.backup_path.is_file()
        assert ws.backup_path.parent == folder / "backups"
        with ws.transaction() as s:
            assert s.scalar(select(Case.title)) == "Kept across the upgrade"
            assert "test_only" in {c["name"] for c in inspect(s.get_bind()).get_columns("cases")}
        backup = sqlite3.connect(ws.backup_path)
        assert backup.execute("select title from cases").fetchone() == ("Kept across the upgrade",)
        stored = backup.execute("select version_num from alembic_version").fetchone()
        backup.close()
        assert stored == (old_head,)
        assert ws.backup_path.name.endswith(f"rev{old_head}.sqlite3")
        assert wsmod.current_revision(ws.engine) == "9999"
    finally:
        ws.close()


def test_workspace_from_a_newer_casefile_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    open_workspace(folder).close()
    db = sqlite3.connect(folder / "casefile.sqlite3")
    db.execute("update alembic_version set version_num = 'ffff'")
    db.commit()
    db.close()
    from casefile.errors import CasefileError

    with pytest.raises(CasefileError, match="newer Casefile"):
        open_workspace(folder)


def test_not_a_database_gives_a_clear_error(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / "casefile.sqlite3").write_bytes(b"this is not sqlite" * 100)
    from casefile.errors import CasefileError

    with pytest.raises(CasefileError, match="cannot open the workspace"):
        open_workspace(folder)
    shutil.rmtree(folder)
