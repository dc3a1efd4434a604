"""An encryption killed at any step finishes when run again, and leaves nothing readable.

Each test kills ``casefile workspace encrypt`` (or ``workspace passphrase``) with SIGKILL at a
named step (``CASEFILE_FAULT_AT``, :mod:`casefile.store.faults`) in a real process, then runs
``workspace info`` and the same command again, as a reporter would after a crash, and reads
every byte of every file under the workspace folder for the case's words."""

from __future__ import annotations

import json
import shutil
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from casefile.store import backups as store_backups
from casefile.store.encryption import (
    SQLITE_HEADER,
    WrongPassphraseError,
    check_passphrase,
    connect_raw,
    table_digests,
)
from casefile.store.faults import FAULT_ENV
from casefile.store.workspace import open_workspace
from tests.e2e.cli_helpers import casefile, command
from tests.e2e.crypt_helpers import CANARIES, add_note_and_passage, leaks, write_document

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL and modes are POSIX")

PASS = "tide tables at dawn"
KEY = {"CASEFILE_PASSPHRASE": PASS}
CASE = "Harbor inquiry"
BACKUPS = 3


def _plain_workspace(folder: Path, inbox: Path) -> None:
    """A plain workspace whose case words are in the database and in each of its backups."""
    assert casefile(folder, "case", "new", CASE).code == 0
    doc = write_document(inbox)
    done = casefile(folder, "import", str(doc), "--case", CASE, "--no-suggest")
    assert done.code == 0, done.err
    ws = open_workspace(folder)
    try:
        add_note_and_passage(ws, 1)
    finally:
        ws.close()
    for _ in range(BACKUPS):
        made = casefile(folder, "backup", "now")
        assert made.code == 0, made.err


@pytest.fixture(scope="module")
def plain_base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("base")
    folder = root / "ws"
    _plain_workspace(folder, root / "inbox")
    assert len(list((folder / "backups").glob("*.sqlite3"))) == BACKUPS
    # every backup and the database show the words: what the scan below would find
    found = leaks(folder)
    assert set(found["casefile.sqlite3"]) == set(CANARIES)
    assert sum(1 for f in found if f.startswith("backups/")) == BACKUPS
    return folder


def _digests(path: Path, passphrase: str | None) -> dict[str, tuple[int, str]]:
    """Every table's row count and digest of the database file ``path``."""
    conn = connect_raw(path, passphrase)
    try:
        return table_digests(conn)
    finally:
        conn.close()


def _killed_at(folder: Path, step: str, *args: str, env: dict[str, str]) -> None:
    argv, full_env = command(folder, *args, env={**env, FAULT_ENV: step}, new_workspace=False)
    proc = subprocess.run(argv, capture_output=True, text=True, env=full_env, timeout=300)
    assert proc.returncode == -signal.SIGKILL, (step, proc.returncode, proc.stderr)


def _info(folder: Path) -> dict[str, object]:
    done = casefile(folder, "workspace", "info", "--json")
    assert done.code == 0, done.err
    return dict(json.loads(done.out))


def _modes(folder: Path) -> dict[str, str]:
    """path -> octal mode of every folder and file under ``folder`` (itself included) that is
    not 0700 (folders) or 0600 (files)."""
    wrong = {}
    for path in [folder, *folder.rglob("*")]:
        mode = stat.S_IMODE(path.lstat().st_mode)
        want = 0o700 if path.is_dir() else 0o600
        if mode != want:
            wrong[str(path.relative_to(folder))] = oct(mode)
    return wrong


STEPS = ["encrypt:start", "encrypt:database:copied", "encrypt:database:swapped",
         "encrypt:backup-1:copied", "encrypt:backup-1:swapped", "encrypt:backup-2:copied",
         "encrypt:backup-2:swapped", "encrypt:backup-3:copied", "encrypt:backup-3:swapped"]


@pytest.mark.parametrize("step", STEPS)
def test_an_encryption_killed_at_any_step_is_named_by_info_and_finished_by_a_second_run(
        plain_base: Path, tmp_path: Path, step: str) -> None:
    folder = tmp_path / "ws"
    shutil.copytree(plain_base, folder)
    _killed_at(folder, step, "workspace", "encrypt", env=KEY)

    info = _info(folder)
    assert info["encrypted"] is False and info["unfinished"] == "encrypt"
    readable = leaks(folder)
    assert readable, "the kill came before any plain file was erased: some must show words"
    named = {str(Path(p).relative_to(folder)) for p in info["plain_files"]}  # type: ignore
    assert set(readable) <= named, f"info did not name {set(readable) - named}"
    text = casefile(folder, "workspace", "info")
    assert "interrupted" in text.out and "casefile workspace encrypt" in text.out
    for rel in named:
        assert f"plain (readable without the passphrase): {folder / rel}" in text.out

    again = casefile(folder, "workspace", "encrypt", env=KEY)
    assert again.code == 0, again.err
    assert leaks(folder) == {}, f"after the second run, killed at {step}"
    info = _info(folder)
    assert info["encrypted"] is True and info["unfinished"] is None
    assert info["plain_files"] == [] and info["temporary_files"] == []
    assert sorted(p.name for p in folder.iterdir() if p.is_file()) == ["casefile.sqlite3"]
    assert _modes(folder) == {}
    # every row of the database and of each backup is there under the passphrase, and each
    # backup's recorded checksum is of its encrypted bytes (a restore would take it)
    assert _digests(folder / "casefile.sqlite3", PASS) == _digests(
        plain_base / "casefile.sqlite3", None)
    listed = store_backups.list_backups(folder / "casefile.sqlite3")
    assert len(listed) == BACKUPS
    for backup in listed:
        assert backup.path.read_bytes()[:16] != SQLITE_HEADER
        assert store_backups.verify_checksum(backup) is True
        assert _digests(backup.path, PASS) == _digests(
            plain_base / "backups" / backup.path.name, None)
    if step == STEPS[-1]:  # and one restores, from the command line, leaving nothing plain
        restored = casefile(folder, "backup", "restore", listed[-1].id, env=KEY)
        assert restored.code == 0, restored.err
        assert leaks(folder) == {}


def test_a_second_run_with_another_passphrase_is_refused_and_changes_nothing(
        plain_base: Path, tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    shutil.copytree(plain_base, folder)
    _killed_at(folder, "encrypt:backup-1:copied", "workspace", "encrypt", env=KEY)
    before = _info(folder)
    other = casefile(folder, "workspace", "encrypt",
                     env={"CASEFILE_PASSPHRASE": "another long passphrase"})
    assert other.code == 1
    assert "wrong passphrase" in other.err and len(other.err.strip().splitlines()) == 1
    assert _info(folder) == before


def test_a_plain_half_made_backup_is_erased_by_the_encryption(plain_base: Path,
                                                              tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    shutil.copytree(plain_base, folder)
    first = sorted((folder / "backups").glob("*.sqlite3"))[0]
    half = first.with_name("casefile-20240101T000000000000-manual.sqlite3.partial")
    half.write_bytes(first.read_bytes()[:8192])  # what a backup killed midway leaves
    done = casefile(folder, "workspace", "encrypt", env=KEY)
    assert done.code == 0, done.err
    assert not half.exists()
    assert leaks(folder) == {}


NEW = "gulls over the breakwater"


@pytest.mark.parametrize("step", ["passphrase:database:swapped", "passphrase:backup-2:copied",
                                  "passphrase:backup-3:swapped"])
def test_a_passphrase_change_killed_midway_is_named_and_finished_by_a_second_run(
        plain_base: Path, tmp_path: Path, step: str) -> None:
    folder = tmp_path / "ws"
    shutil.copytree(plain_base, folder)
    assert casefile(folder, "workspace", "encrypt", env=KEY).code == 0
    both = {**KEY, "CASEFILE_NEW_PASSPHRASE": NEW}
    _killed_at(folder, step, "workspace", "passphrase", env=both)

    info = _info(folder)
    assert info["unfinished"] == "passphrase" and info["encrypted"] is False
    old_files = {Path(p) for p in info["old_passphrase_files"]}  # type: ignore[union-attr]
    for backup in (folder / "backups").glob("*.sqlite3"):
        try:
            check_passphrase(backup, PASS)
        except WrongPassphraseError:
            continue
        assert backup in old_files, f"{backup.name} is under the old key and not named"
    text = casefile(folder, "workspace", "info")
    assert "change of passphrase was interrupted" in text.out
    assert leaks(folder) == {}

    again = casefile(folder, "workspace", "passphrase", env=both)
    assert again.code == 0, again.err
    assert "change finished" in again.out
    info = _info(folder)
    assert info["encrypted"] is True and info["unfinished"] is None
    for path in [folder / "casefile.sqlite3", *(folder / "backups").glob("*.sqlite3")]:
        check_passphrase(path, NEW)
        with pytest.raises(WrongPassphraseError):
            check_passphrase(path, PASS)
    for backup in store_backups.list_backups(folder / "casefile.sqlite3"):
        assert store_backups.verify_checksum(backup) is True
    listed = casefile(folder, "case", "list", env={"CASEFILE_PASSPHRASE": NEW})
    assert listed.code == 0 and CASE in listed.out
    assert sorted(p.name for p in folder.iterdir() if p.is_file()) == ["casefile.sqlite3"]
    assert leaks(folder) == {}
