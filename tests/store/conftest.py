"""Fixtures of the store's migration tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from casefile.store.workspace import sqlite_url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database on each engine: a SQLite workspace folder's URL, or a PostgreSQL
    database's (``pg_database``)."""
    if request.param == "sqlite":
        (tmp_path / "ws").mkdir()
        return sqlite_url(tmp_path / "ws")
    return str(request.getfixturevalue("pg_database"))
