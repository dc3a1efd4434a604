"""A workspace folder is owner-only (0700, its files 0600) whatever the umask: after creation,
import, backup, restore and encryption, and an older, too open workspace is narrowed when it
is opened."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from tests.e2e.cli_helpers import Run, casefile
from tests.e2e.crypt_helpers import write_document

pytestmark = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")

PASS = "tide tables at dawn"


def _run(folder: Path, umask: int, *args: str, env: dict[str, str] | None = None,
         new_workspace: bool | None = None) -> Run:
    done = casefile(folder, *args, env=env, umask=umask, new_workspace=new_workspace)
    assert done.code == 0, (args, done.err)
    return done


def _too_open(folder: Path) -> dict[str, str]:
    """What ``stat`` shows for every folder not 0700 and every file not 0600 under
    ``folder`` (itself included): relative path -> octal mode."""
    wrong = {}
    for path in [folder, *folder.rglob("*")]:
        mode = stat.S_IMODE(path.lstat().st_mode)
        want = 0o700 if path.is_dir() else 0o600
        if mode != want:
            wrong[str(path.relative_to(folder)) or "."] = oct(mode)
    return wrong


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o000])
def test_every_file_of_a_workspace_is_owner_only_whatever_the_umask(
        tmp_path: Path, umask: int) -> None:
    folder = tmp_path / "ws"
    _run(folder, umask, "case", "new", "Harbor inquiry")
    names = {p.name for p in folder.iterdir()}
    assert "casefile.sqlite3" in names
    assert _too_open(folder) == {}

    doc = write_document(tmp_path / "inbox")
    _run(folder, umask, "import", str(doc), "--case", "Harbor inquiry", "--no-suggest")
    made = _run(folder, umask, "backup", "now")
    backup_id = made.out.split()[1]
    assert {p.suffix for p in (folder / "backups").iterdir()} == {".sqlite3", ".sha256"}
    assert _too_open(folder) == {}

    _run(folder, umask, "case", "new", "Later case")
    _run(folder, umask, "backup", "restore", backup_id)
    assert len(list((folder / "backups").glob("*.sqlite3"))) == 2  # and one before-restore
    assert _too_open(folder) == {}

    key = {"CASEFILE_PASSPHRASE": PASS}
    _run(folder, umask, "workspace", "encrypt", env=key)
    assert _too_open(folder) == {}
    _run(folder, umask, "backup", "now", env=key)
    listed = json.loads(_run(folder, umask, "backup", "list", "--json", env=key).out)
    _run(folder, umask, "backup", "restore", listed[-1]["id"], env=key)
    assert _too_open(folder) == {}


def test_a_new_encrypted_workspace_is_owner_only(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    _run(folder, 0o022, "--encrypt", "case", "new", "Harbor inquiry",
         env={"CASEFILE_PASSPHRASE": PASS}, new_workspace=True)
    assert _too_open(folder) == {}


def test_an_older_workspace_left_open_to_others_is_narrowed_when_opened(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    _run(folder, 0o022, "case", "new", "Harbor inquiry")
    _run(folder, 0o022, "backup", "now")
    mine = folder / "my-notes.txt"  # the reporter's own file in the folder: not Casefile's
    mine.write_text("left as it is", encoding="utf-8")
    for path in [folder, *folder.rglob("*")]:  # what an older Casefile left
        os.chmod(path, 0o755 if path.is_dir() else 0o644)

    listed = _run(folder, 0o022, "case", "list")
    assert listed.err == ""  # narrowed without a word
    assert _too_open(folder) == {"my-notes.txt": "0o644"}
