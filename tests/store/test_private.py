"""Owner-only workspace files (casefile.store.private): what cannot be narrowed is reported,
what is not Casefile's is left alone, symbolic links are not followed."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from casefile.store import private
from casefile.store.workspace import open_workspace

pytestmark = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def test_a_file_that_cannot_be_narrowed_is_reported_in_one_line_at_open(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "ws"
    open_workspace(folder).close()
    db = folder / "casefile.sqlite3"
    os.chmod(db, 0o644)
    real_chmod = os.chmod

    def refused(path: object, mode: int, **kwargs: object) -> None:
        if Path(str(path)) == db:
            raise PermissionError(1, "Operation not permitted")
        real_chmod(path, mode, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(private.os, "chmod", refused)
    ws = open_workspace(folder)
    ws.close()
    assert ws.private_problems == (f"{db}: Operation not permitted",)


def test_only_casefile_files_are_narrowed_and_links_are_not_followed(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    open_workspace(folder).close()
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("not in the workspace", encoding="utf-8")
    os.chmod(outside, 0o644)
    (folder / "backups").mkdir()
    (folder / "backups" / "link.sqlite3").symlink_to(outside)
    mine = folder / "brief-draft.txt"
    mine.write_text("the reporter's own", encoding="utf-8")
    os.chmod(mine, 0o644)
    os.chmod(folder / "backups", 0o755)
    assert private.tighten(folder) == []
    assert _mode(folder / "backups") == 0o700
    assert _mode(outside) == 0o644 and _mode(mine) == 0o644


def test_a_shared_folder_is_never_narrowed_and_says_why(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o1777)  # as /tmp is
    ws = open_workspace(shared)
    ws.close()
    assert _mode(shared) == 0o1777
    assert _mode(shared / "casefile.sqlite3") == 0o600
    assert ws.private_problems == (f"{shared}: a shared folder (sticky bit) is left as it is; "
                                   "keep the workspace in a folder of its own",)
