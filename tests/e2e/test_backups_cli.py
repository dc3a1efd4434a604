"""Backups from the command line (issue 18's acceptance): ``casefile backup now`` taken while a
real ``casefile import`` runs gives whole databases (``integrity_check``), plain and encrypted;
``casefile backup restore`` gives back the earlier state."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from casefile.services import backups, cases, items
from casefile.store import backups as store_backups
from casefile.store.encryption import SQLITE_HEADER
from casefile.store.workspace import open_workspace
from tests.e2e.cli_helpers import casefile, command
from tests.e2e.make_files import mixed_folder

PASS = "tide tables at dawn"
KEY = {"CASEFILE_PASSPHRASE": PASS}
BULK = 1200  # small text files after the mixed folder: the import then spans several backups


def _backup_path(out: str) -> Path:
    """The file named by ``casefile backup now``: "backup ID taken (1.1 MB): PATH"."""
    (line,) = [line for line in out.splitlines() if line.startswith("backup ")]
    return Path(line.rsplit(": ", 1)[1])


def _documents(path: Path, passphrase: str | None) -> int:
    return store_backups.check_copy(path, passphrase)["documents"]


@pytest.mark.parametrize("encrypted", [False, True], ids=["plain", "encrypted"])
def test_backups_taken_during_a_running_import_each_pass_the_integrity_check(
        tmp_path: Path, encrypted: bool) -> None:
    """Plain: ``casefile backup now`` runs again and again while ``casefile import`` runs.
    Encrypted: the backups are taken through the library (an open Workspace with the key: one
    command's start-up, passphrase check included, takes about as long as the whole import)."""
    folder, ws = tmp_path / "inbox", tmp_path / "ws"
    expected = mixed_folder(folder)
    (folder / "bulk").mkdir()
    for i in range(BULK):  # enough groups that several commits fall between backups
        (folder / "bulk" / f"note-{i:04}.txt").write_text(f"Tide note {i}: gauge {i % 97} cm.\n")
    env = KEY if encrypted else None
    flags = ("--encrypt",) if encrypted else ()
    assert casefile(ws, *flags, "case", "new", "Tideline", env=env).code == 0
    keyed = open_workspace(ws, passphrase=PASS) if encrypted else None

    def backup_now() -> Path:
        if keyed is not None:
            return backups.backup_now(keyed).path
        now = casefile(ws, "backup", "now")
        assert now.code == 0, now.err
        return _backup_path(now.out)

    argv, full_env = command(ws, "import", str(folder), "--case", "Tideline", "--no-suggest",
                             env=env)
    importing = subprocess.Popen(argv, env=full_env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
    taken: list[tuple[Path, bool]] = []  # (file, the import ran before and after it)
    try:
        # no more than rotation keeps: each one taken is checked afterwards
        while importing.poll() is None and len(taken) < store_backups.KEEP_LAST:
            running_before = importing.poll() is None
            path = backup_now()
            taken.append((path, running_before and importing.poll() is None))
            if keyed is not None:
                time.sleep(0.5)
    finally:
        _out, err = importing.communicate(timeout=300)
        if keyed is not None:
            keyed.close()
    assert importing.returncode == 0, err
    during = [path for path, while_running in taken if while_running]
    assert len(during) >= 2, f"only {len(during)} backups were taken while the import ran"
    for path, _ in taken:
        if encrypted:  # the sqlite3 module cannot read it: the library, with the key
            assert path.read_bytes()[:16] != SQLITE_HEADER
            store_backups.check_copy(path, PASS)  # integrity_check ok, else CasefileError
        else:
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)], path
                assert db.execute("PRAGMA foreign_key_check").fetchall() == []
            finally:
                db.close()
    counts = [_documents(path, PASS if encrypted else None) for path, _ in taken]
    assert counts == sorted(counts)  # each later backup holds at least what the one before did
    final = casefile(ws, "items", "--case", "Tideline", "--kind", "document", "--json", env=env)
    imported = len(json.loads(final.out))
    assert counts[-1] <= imported and imported >= sum(
        1 for status in expected.values() if status == "imported") + BULK
    assert any(0 < n < imported for n in counts), counts  # one caught the import midway


def _titles(ws_folder: Path, case: str) -> list[str]:
    out = casefile(ws_folder, "items", "--case", case, "--json")
    assert out.code == 0, out.err
    return sorted(i["title"] for i in json.loads(out.out))


def test_a_restore_from_the_command_line_gives_back_the_earlier_state(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    ws = open_workspace(folder)
    try:
        with ws.transaction() as s:
            case_id = int(cases.create_case(s, "Harbor inquiry").id)
            kept = items.create_item(s, case_id, "person", "Board clerk")
            doomed = int(items.create_item(s, case_id, "person", "Harbor pilot").id)
            kept_id = int(kept.id)
    finally:
        ws.close()
    now = casefile(folder, "backup", "now")
    assert now.code == 0, now.err
    backup_id = now.out.split()[1]
    ws = open_workspace(folder)
    try:
        with ws.transaction() as s:
            items.delete_item(s, doomed)
            items.create_item(s, case_id, "organization", "Dredging contractor")
            items.update_item(s, kept_id, notes="written after the backup")
    finally:
        ws.close()
    assert _titles(folder, "Harbor inquiry") == ["Board clerk", "Dredging contractor"]
    listed = json.loads(casefile(folder, "backup", "list", "--json").out)
    assert [b["id"] for b in listed if b["reason"] == "manual"] == [backup_id]

    restored = casefile(folder, "backup", "restore", backup_id)
    assert restored.code == 0, restored.err
    assert f"restored backup {backup_id}" in restored.out
    assert _titles(folder, "Harbor inquiry") == ["Board clerk", "Harbor pilot"]
    ws = open_workspace(folder)
    try:
        with ws.transaction() as s:
            assert not items.get_item(s, kept_id).notes
    finally:
        ws.close()
    # the state before the restore was kept, and restoring it undoes the restore
    before = [b for b in json.loads(casefile(folder, "backup", "list", "--json").out)
              if b["reason"] == "before-restore"]
    assert len(before) == 1
    assert casefile(folder, "backup", "restore", before[0]["id"]).code == 0
    assert _titles(folder, "Harbor inquiry") == ["Board clerk", "Dredging contractor"]


def test_a_backup_with_one_altered_byte_is_refused_by_the_command_in_one_line(
        tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    ws = open_workspace(folder)
    try:
        with ws.transaction() as s:
            case_id = int(cases.create_case(s, "Harbor inquiry").id)
            items.create_item(s, case_id, "person", "Harbor pilot")
    finally:
        ws.close()
    now = casefile(folder, "backup", "now")
    assert now.code == 0, now.err
    backup_id, path = now.out.split()[1], _backup_path(now.out)
    data = bytearray(path.read_bytes())
    data[data.index(b"Harbor pilot") + 7] ^= 0x01  # "Harbor qilot": a sound database still
    path.write_bytes(bytes(data))
    assert casefile(folder, "case", "new", "Later case").code == 0

    refused = casefile(folder, "backup", "restore", backup_id)
    assert refused.code != 0
    assert refused.err.strip().splitlines() == [
        f"casefile: backup {backup_id} is damaged: its checksum does not match; "
        "nothing was changed"]
    cases_now = json.loads(casefile(folder, "case", "list", "--json").out)
    assert sorted(c["title"] for c in cases_now) == ["Harbor inquiry", "Later case"]
    listed = json.loads(casefile(folder, "backup", "list", "--json").out)
    assert [b["reason"] for b in listed] == ["manual"]  # no state-before copy was taken

    # the same backup without its checksum (as an older Casefile left it): restored, noted
    path.with_name(path.name + ".sha256").unlink()
    restored = casefile(folder, "backup", "restore", backup_id)
    assert restored.code == 0, restored.err
    assert f"backup {backup_id} has no recorded checksum" in restored.err
    cases_now = json.loads(casefile(folder, "case", "list", "--json").out)
    assert [c["title"] for c in cases_now] == ["Harbor inquiry"]
