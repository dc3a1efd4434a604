"""Revision 0015 (SQLite's partial index of pending events and follow-ups) upgrades a 0014
workspace holding suggestions: the Suggestions list is the same before and after, and
downgrading drops the index and keeps the mentions."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

from casefile.store import workspace as wsmod
from tests.store.old_rows import sqlite_indexes, upgrade_to
from tests.store.test_migration_0014 import MENTIONS, _fill_0013, _listed


def _indexes(url: str) -> set[str]:
    return sqlite_indexes(url, "mentions")


def test_0014_workspace_upgrades_and_lists_its_suggestions_alike(tmp_path: Path) -> None:
    url = wsmod.sqlite_url(tmp_path / "ws")
    _fill_0013(url)
    engine = wsmod.make_engine(url)
    try:
        upgrade_to(engine, "0014")
    finally:
        engine.dispose()
    assert "ix_mentions_variants" not in _indexes(url)
    before = _listed(url)
    wsmod.open_workspace(db_url=url).close()
    assert "ix_mentions_variants" in _indexes(url)
    assert _listed(url) == before
    engine = wsmod.make_engine(url)
    try:
        upgrade_to(engine, "0014", down=True)
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM mentions")).scalar() == len(MENTIONS)
    finally:
        engine.dispose()
    assert "ix_mentions_variants" not in _indexes(url)
    assert _listed(url) == before
