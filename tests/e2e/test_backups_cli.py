"""Backups from the command line: ``casefile backup now`` taken while a
real ``casefile import`` runs gives whole databases (``integrity_check``), plain and encrypted;
``casefile backup restore`` gives back the earlier state."""

from __future__ import annotations

import json
import sqlite3
import subprocess
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


#: A backup is taken after every this many files the import reports stored (its stdout lines):
#: by the import's own progress, not by the clock, so some land midway however slow it runs.
EVERY = 100


@pytest.mark.parametrize("encrypted", [False, True], ids=["plain", "encrypted"])
def test_backups_taken_during_a_running_import_each_pass_the_integrity_check(
        tmp_path: Path, encrypted: bool) -> None:
    """Plain: ``casefile backup now`` runs again and again while ``casefile import`` runs (a
    process of its own). Encrypted: the backups are taken through the library (an open
    Workspace with the key).

    Each backup is checked as soon as it is taken (integrity_check, its documents counted):
    rotation deletes the older ones as later ones come. At the end the folder holds what
    rotation keeps of them (:func:`casefile.store.backups.retained`: the newest
    :data:`~casefile.store.backups.KEEP_LAST`, more than were taken), no more and no fewer."""
    folder, ws = tmp_path / "inbox", tmp_path / "ws"
    expected = mixed_folder(folder)
    (folder / "bulk").mkdir()
    for i in range(BULK):  # enough files that several backups fall inside the import
        (folder / "bulk" / f"note-{i:04}.txt").write_text(f"Tide note {i}: gauge {i % 97} cm.\n")
    env = KEY if encrypted else None
    flags = ("--encrypt",) if encrypted else ()
    assert casefile(ws, *flags, "case", "new", "Tideline", env=env).code == 0
    db_path = ws / "casefile.sqlite3"
    keyed = open_workspace(ws, passphrase=PASS) if encrypted else None

    def backup_now() -> store_backups.Backup:
        if keyed is not None:
            return backups.backup_now(keyed)
        now = casefile(ws, "backup", "now")
        assert now.code == 0, now.err
        path = _backup_path(now.out)
        return next(b for b in store_backups.list_backups(db_path) if b.path == path)

    def check(backup: store_backups.Backup) -> int:
        """The backup's documents, once it passed the integrity checks."""
        if encrypted:  # the sqlite3 module cannot read it: the library, with the key
            assert backup.path.read_bytes()[:16] != SQLITE_HEADER
            return _documents(backup.path, PASS)  # integrity_check ok, else CasefileError
        db = sqlite3.connect(f"file:{backup.path}?mode=ro", uri=True)
        try:
            assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)], backup.path
            assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        finally:
            db.close()
        return _documents(backup.path, None)

    argv, full_env = command(ws, "import", str(folder), "--case", "Tideline", "--no-suggest",
                             env={**(env or {}), "PYTHONUNBUFFERED": "1"})
    errors = (tmp_path / "import-stderr.txt").open("w+")
    importing = subprocess.Popen(argv, env=full_env, stdout=subprocess.PIPE, stderr=errors,
                                 text=True)
    taken: list[tuple[store_backups.Backup, int, bool]] = []  # (backup, documents, mid-import)
    try:
        assert importing.stdout is not None
        reported = 0
        for line in importing.stdout:
            if line.startswith(" "):  # a note under a file's line
                continue
            reported += 1
            if reported % EVERY == 0:
                running_before = importing.poll() is None
                backup = backup_now()
                taken.append((backup, check(backup), running_before and importing.poll() is None))
        importing.wait(timeout=300)
        errors.seek(0)
        assert importing.returncode == 0, errors.read()
        last = backup_now()  # and one after the import
        taken.append((last, check(last), False))
    finally:
        if importing.poll() is None:
            importing.kill()
        importing.wait()
        if importing.stdout is not None:
            importing.stdout.close()
        errors.close()
        if keyed is not None:
            keyed.close()
    counts = [documents for _backup, documents, _during in taken]
    assert sum(1 for *_rest, during in taken if during) >= 2, counts
    assert counts == sorted(counts)  # each later backup holds at least what the one before did
    final = casefile(ws, "items", "--case", "Tideline", "--kind", "document", "--json", env=env)
    imported = len(json.loads(final.out))
    assert imported >= sum(1 for status in expected.values() if status == "imported") + BULK
    assert counts[-1] == imported
    assert any(0 < n < imported for n in counts), counts  # one caught the import midway
    # rotation: the newest backups are kept, the others were deleted with their checksums
    kept = store_backups.retained([b for b, *_rest in taken], last.taken)
    assert store_backups.KEEP_LAST <= len(kept) < len(taken)
    listed = store_backups.list_backups(db_path)
    assert {b.path for b in listed} == kept
    assert all(b.checksum_path.is_file() for b in listed)
    assert sorted(p.name for p in (ws / "backups").glob("*.sha256")) == sorted(
        p.name + ".sha256" for p in kept)


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
