"""A process never loses its SQLite locks on a workspace: no second SQLite library on a file it
holds, no plain open() of it, and another process closing its last connection then leaves the
WAL in place and sees every commit."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from casefile.store import db_files
from casefile.store.encryption import connect_raw, is_encrypted_file
from casefile.store.workspace import DB_FILENAME, encrypted_database, open_workspace

WRITER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA busy_timeout = 5000")
db.execute("INSERT INTO cases (title, created, updated) "
           "VALUES ('written by another process', '2026-12-02T10:00:00', '2026-12-02T10:00:00')")
db.commit()
db.close()
"""


def _titles(ws) -> set[str]:
    with ws.engine.connect() as conn:
        return {r[0] for r in conn.execute(text("SELECT title FROM cases"))}


def test_another_process_sees_and_keeps_what_this_one_writes(tmp_path: Path) -> None:
    ws = open_workspace(tmp_path / "ws")
    try:
        with ws.engine.begin() as conn:
            conn.execute(text("INSERT INTO cases (title, created, updated) VALUES "
                              "('written here', '2026-12-02T09:00:00', '2026-12-02T09:00:00')"))
        db = tmp_path / "ws" / DB_FILENAME
        # what a window does before it opens a workspace, while this one is open
        assert encrypted_database(tmp_path / "ws") is None
        assert is_encrypted_file(db) is False
        subprocess.run([sys.executable, "-c", WRITER, str(db)], check=True, timeout=60)
        assert db.with_name(DB_FILENAME + "-wal").exists(), "the other process deleted the WAL"
        assert _titles(ws) == {"written here", "written by another process"}
    finally:
        ws.close()


def test_a_second_sqlite_library_on_a_held_file_is_refused(tmp_path: Path) -> None:
    ws = open_workspace(tmp_path / "ws")
    db = tmp_path / "ws" / DB_FILENAME
    conn = ws.engine.connect()
    try:
        assert db_files.holder(db) == "sqlite3"
        with pytest.raises(db_files.SecondLibraryError, match="sqlite3"):
            connect_raw(db, None)  # sqlcipher3's own SQLite
        with pytest.raises(db_files.FileHeldError):
            db_files.ensure_free(db)
    finally:
        conn.close()
        ws.close()
    assert db_files.holder(db) is None
    other = connect_raw(db, None)  # nothing holds it now: allowed
    try:
        assert db_files.holder(db) == "sqlcipher3"
    finally:
        other.close()
    assert db_files.holder(db) is None


def test_the_encrypted_verdict_is_kept_while_the_file_is_held(tmp_path: Path) -> None:
    ws = open_workspace(tmp_path / "ws", passphrase="correct horse", encrypt=True)
    db = tmp_path / "ws" / DB_FILENAME
    try:
        with ws.engine.connect() as conn:
            conn.execute(text("SELECT count(*) FROM cases"))
            assert db_files.holder(db) == "sqlcipher3"
            assert is_encrypted_file(db) is True
    finally:
        ws.close()
    assert db_files.holder(db) is None
    assert is_encrypted_file(db) is True  # read from the file itself now


def test_connections_are_counted_until_the_last_one_closes(tmp_path: Path) -> None:
    db = tmp_path / "plain.sqlite3"
    first = db_files.connect(db)
    second = db_files.connect(db)
    first.close()
    assert db_files.holder(db) == "sqlite3"
    second.close()
    assert db_files.holder(db) is None
    forgotten = db_files.connect(db)
    del forgotten  # collected without close: released too
    gc.collect()
    assert db_files.holder(db) is None
