"""An import's many transactions in a row checkpoint the WAL seldom (``bulk_writes``), and what
they commit is there for every other connection at once; the transactions after it go back to
SQLite's threshold, so the WAL of a long-lived window does not grow on."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

from casefile.services import cases
from casefile.store.workspace import (
    BULK_CHECKPOINT_PAGES,
    CHECKPOINT_PAGES,
    bulk_writes,
    open_workspace,
)


def _threshold(ws) -> int:
    with ws.transaction() as s:
        return int(s.execute(text("PRAGMA wal_autocheckpoint")).scalar_one())


def test_bulk_writes_checkpoint_seldom_and_commit_at_once(tmp_path: Path) -> None:
    ws = open_workspace(tmp_path / "ws")
    try:
        assert _threshold(ws) == CHECKPOINT_PAGES
        with bulk_writes():
            for n in range(3):
                with ws.transaction() as s:
                    cases.create_case(s, f"case {n}")
                assert _threshold(ws) == BULK_CHECKPOINT_PAGES
                # committed: another connection (another process) sees it before the block ends
                other = open_workspace(tmp_path / "ws", create=False)
                try:
                    with other.transaction(write=False) as s:
                        titles = set(s.scalars(text("SELECT title FROM cases")))
                finally:
                    other.close()
                assert f"case {n}" in titles
        assert _threshold(ws) == CHECKPOINT_PAGES
    finally:
        ws.close()
