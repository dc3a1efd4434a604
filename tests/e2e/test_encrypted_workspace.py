"""Encrypted workspaces from the command line: nothing readable in the folder, the
passphrase asked at open, a plain workspace encrypted in place, the passphrase changed."""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import datetime
from pathlib import Path

from sqlalchemy import text

from casefile.store import backups as store_backups
from casefile.store import workspace as wsmod
from casefile.store.encryption import SQLITE_HEADER, connect_raw, table_digests
from tests.e2e.cli_helpers import casefile, pdf_text
from tests.e2e.crypt_helpers import (
    CANARIES,
    DOC_WORD,
    NOTE_WORD,
    QUOTE_WORD,
    add_note_and_passage,
    leaks,
    write_document,
)
from tests.store.old_rows import upgrade_to

PASS = "tide tables at dawn"
KEY = {"CASEFILE_PASSPHRASE": PASS}


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def _header(path: Path) -> bytes:
    return path.read_bytes()[:16]


def test_encrypted_workspace_shows_no_word_and_opens_only_with_its_passphrase(
        tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    made = casefile(folder, "--encrypt", "case", "new", "Harbor inquiry", env=KEY,
                    new_workspace=True)
    assert made.code == 0, made.err
    assert _header(folder / "casefile.sqlite3") != SQLITE_HEADER
    doc = write_document(tmp_path / "inbox")
    imported = casefile(folder, "import", str(doc), "--case", "Harbor inquiry", "--no-suggest",
                        env=KEY)
    assert imported.code == 0, imported.err

    ws = wsmod.open_workspace(folder, passphrase=PASS)
    try:
        add_note_and_passage(ws, 1)
        # while it is open the latest writes sit in the WAL: that file is encrypted too
        assert (folder / "casefile.sqlite3-wal").stat().st_size > 0
        assert leaks(folder) == {}
    finally:
        ws.close()
    assert leaks(folder) == {}

    wrong = casefile(folder, "case", "list", env={"CASEFILE_PASSPHRASE": "not the one"})
    assert wrong.code == 1
    assert _one_line(wrong.err) == (f"casefile: wrong passphrase for the encrypted workspace at "
                                    f"{folder} (or its database file is damaged)")
    assert wrong.out == ""
    unasked = casefile(folder, "case", "list", env={"CASEFILE_PASSPHRASE": ""})
    assert unasked.code == 1
    assert "set $CASEFILE_PASSPHRASE" in _one_line(unasked.err)

    listed = casefile(folder, "case", "list", "--json", env=KEY)
    assert listed.code == 0, listed.err
    assert json.loads(listed.out)[0]["counts"]
    for word in (DOC_WORD, QUOTE_WORD, NOTE_WORD):
        found = casefile(folder, "search", word, "--json", env=KEY)
        assert found.code == 0, found.err
        assert json.loads(found.out), f"search found no {word}"
    brief = tmp_path / "out" / "brief.pdf"
    brief.parent.mkdir()
    wrote = casefile(folder, "brief", "--case", "Harbor inquiry", "-o", str(brief), env=KEY)
    assert wrote.code == 0, wrote.err
    assert "Harbor inquiry" in pdf_text(brief)
    info = casefile(folder, "workspace", "info", "--json")
    assert info.code == 0 and json.loads(info.out)["encrypted"] is True
    assert leaks(folder) == {}


def _case_at_0006(folder: Path, passphrase: str | None, **case: str) -> None:
    """A workspace at ``folder`` left at revision 0006 (a SQLCipher one with ``passphrase``)
    holding case 1 with the columns ``case`` (title, summary...), made 2024-05-01."""
    engine = wsmod.make_engine(wsmod.sqlite_url(folder), passphrase)
    try:
        upgrade_to(engine, "0006")
        with engine.begin() as conn:
            conn.execute(text(f"INSERT INTO cases (id, {', '.join(case)}, created, updated) "
                              f"VALUES (1, {', '.join(f':{c}' for c in case)}, :t, :t)"),
                         {**case, "t": datetime(2024, 5, 1)})
    finally:
        engine.dispose()


def test_the_pre_upgrade_backup_of_an_encrypted_workspace_is_encrypted(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    _case_at_0006(folder, PASS, title=f"{NOTE_WORD} inquiry")
    ws = wsmod.open_workspace(folder, passphrase=PASS)
    try:
        assert ws.backup_path is not None and "rev0006" in ws.backup_path.name
        assert wsmod.current_revision(ws.engine) == wsmod.head_revision()
    finally:
        ws.close()
    assert _header(ws.backup_path) != SQLITE_HEADER
    copy = connect_raw(ws.backup_path, PASS)
    try:
        assert copy.execute("SELECT title FROM cases").fetchall() == [(f"{NOTE_WORD} inquiry",)]
    finally:
        copy.close()
    assert leaks(folder) == {}


def _plain_at_0006_with_backup(folder: Path) -> None:
    _case_at_0006(folder, None, title="Harbor inquiry", summary=f"{NOTE_WORD} tip")
    wsmod.open_workspace(folder).close()  # upgraded: a plain backup is left in backups/


def _digests(path: Path, passphrase: str | None) -> dict[str, tuple[int, str]]:
    conn = connect_raw(path, passphrase) if passphrase else sqlite3.connect(path)
    try:
        return table_digests(conn)
    finally:
        conn.close()


def test_encrypting_a_plain_workspace_keeps_every_row_and_leaves_no_plain_copy(
        tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    _plain_at_0006_with_backup(folder)
    _fill_more = write_document(tmp_path / "inbox")
    imported = casefile(folder, "import", str(_fill_more), "--case", "Harbor inquiry",
                        "--no-suggest")
    assert imported.code == 0, imported.err
    ws = wsmod.open_workspace(folder)
    add_note_and_passage(ws, 1)
    ws.close()
    db = folder / "casefile.sqlite3"
    (backup,) = (folder / "backups").glob("*.sqlite3")
    plain_leaks = leaks(folder)
    assert set(plain_leaks["casefile.sqlite3"]) == set(CANARIES)  # what the check would see
    assert NOTE_WORD in plain_leaks[f"backups/{backup.name}"]
    before, backup_before = _digests(db, None), _digests(backup, None)
    assert before["items"][0] >= 2 and before["passages"][0] == 1 and before["blobs"][0] == 1

    done = casefile(folder, "workspace", "encrypt", env=KEY)
    assert done.code == 0, done.err
    assert "1 backups encrypted" in done.out

    assert leaks(folder) == {}
    assert sorted(p.name for p in folder.iterdir() if p.is_file()) == ["casefile.sqlite3"]
    assert sorted(p.name for p in (folder / "backups").iterdir()) == [
        backup.name, backup.name + ".sha256"]  # the checksum is of the encrypted bytes now
    [listed] = store_backups.list_backups(folder / "casefile.sqlite3")
    assert store_backups.verify_checksum(listed) is True
    assert _header(db) != SQLITE_HEADER and _header(backup) != SQLITE_HEADER
    assert _digests(db, PASS) == before  # every row of every table, search index included
    assert _digests(backup, PASS) == backup_before
    sample = casefile(folder, "items", "--case", "Harbor inquiry", "--json", env=KEY)
    assert sample.code == 0, sample.err
    assert "Board clerk" in {i["title"] for i in json.loads(sample.out)}
    cases = casefile(folder, "case", "list", "--json", env=KEY)
    assert json.loads(cases.out)[0]["summary"] == f"{NOTE_WORD} tip"
    found = casefile(folder, "search", QUOTE_WORD, "--json", env=KEY)
    assert found.code == 0 and json.loads(found.out), found.err
    again = casefile(folder, "workspace", "encrypt", env=KEY)
    assert again.code == 1 and "already encrypted" in _one_line(again.err)


def test_a_workspace_open_in_a_window_is_not_encrypted(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    made = casefile(folder, "case", "new", "Harbor inquiry")
    assert made.code == 0, made.err
    marks = folder / "open-windows"
    marks.mkdir()
    import socket

    (marks / "other.json").write_text(json.dumps(
        {"host": socket.gethostname(), "pid": os.getpid(), "since": 0}), encoding="utf-8")
    before = (folder / "casefile.sqlite3").read_bytes()
    refused = casefile(folder, "workspace", "encrypt", env=KEY)
    assert refused.code == 1
    assert "close it first" in _one_line(refused.err)
    assert (folder / "casefile.sqlite3").read_bytes()[:16] == SQLITE_HEADER
    assert _digests(folder / "casefile.sqlite3", None) == _digests_of_bytes(before, tmp_path)


def _digests_of_bytes(data: bytes, tmp_path: Path) -> dict[str, tuple[int, str]]:
    copy = tmp_path / "copy.sqlite3"
    copy.write_bytes(data)
    return _digests(copy, None)


def test_the_passphrase_can_be_changed(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    made = casefile(folder, "--encrypt", "case", "new", "Harbor inquiry", env=KEY,
                    new_workspace=True)
    assert made.code == 0, made.err
    new = "a longer winter passphrase"
    changed = casefile(folder, "workspace", "passphrase",
                       env={**KEY, "CASEFILE_NEW_PASSPHRASE": new})
    assert changed.code == 0, changed.err
    old = casefile(folder, "case", "list", env=KEY)
    assert old.code == 1 and "wrong passphrase" in _one_line(old.err)
    listed = casefile(folder, "case", "list", env={"CASEFILE_PASSPHRASE": new})
    assert listed.code == 0 and "Harbor inquiry" in listed.out
    short = casefile(folder, "workspace", "passphrase",
                     env={"CASEFILE_PASSPHRASE": new, "CASEFILE_NEW_PASSPHRASE": "short"})
    assert short.code == 1 and "at least 8 characters" in _one_line(short.err)


def test_encrypt_is_refused_for_an_existing_plain_workspace_and_without_new_workspace(
        tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    assert casefile(folder, "case", "new", "Harbor inquiry").code == 0
    plain = casefile(folder, "--new-workspace", "--encrypt", "case", "list", env=KEY,
                     new_workspace=False)
    assert plain.code == 1
    assert "casefile workspace encrypt" in _one_line(plain.err)
    usage = casefile(folder, "--encrypt", "case", "list", env=KEY, new_workspace=False)
    assert usage.code == 2


def test_backup_now_list_and_restore_from_the_command_line(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    made = casefile(folder, "--encrypt", "case", "new", "Harbor inquiry", env=KEY,
                    new_workspace=True)
    assert made.code == 0, made.err
    now = casefile(folder, "backup", "now", env=KEY)
    assert now.code == 0, now.err
    assert casefile(folder, "case", "new", "Later case", env=KEY).code == 0
    listed = casefile(folder, "backup", "list", "--json", env=KEY)
    (manual,) = [b for b in json.loads(listed.out) if b["reason"] == "manual"]
    restored = casefile(folder, "backup", "restore", manual["id"], env=KEY)
    assert restored.code == 0, restored.err
    titles = casefile(folder, "case", "list", "--json", env=KEY)
    assert [c["title"] for c in json.loads(titles.out)] == ["Harbor inquiry"]
    missing = casefile(folder, "backup", "restore", "nope", env=KEY)
    assert missing.code == 1 and "no backup 'nope'" in _one_line(missing.err)
    assert leaks(folder, ("Later case", "Harbor inquiry")) == {}
