"""Choosing a workspace on the command line: a mistyped path is refused, nothing is created."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.cli_helpers import casefile


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def test_a_missing_workspace_folder_is_refused_and_nothing_is_created(tmp_path: Path) -> None:
    typo = tmp_path / "Casefile-typo"
    run = casefile(typo, "case", "list", new_workspace=False)
    assert run.code == 1
    line = _one_line(run.err)
    assert line.startswith(f"casefile: no workspace at {typo}")
    assert "--new-workspace" in line
    assert run.out == ""
    assert not typo.exists()
    assert list(tmp_path.iterdir()) == []


def test_new_workspace_creates_it_and_later_runs_need_no_flag(tmp_path: Path) -> None:
    folder = tmp_path / "Casefile-new"
    made = casefile(folder, "case", "new", "Harbor audit", new_workspace=True)
    assert made.code == 0, made.err
    assert (folder / "casefile.sqlite3").is_file()
    listed = casefile(folder, "case", "list", "--json", new_workspace=False)
    assert listed.code == 0, listed.err
    assert [c["title"] for c in json.loads(listed.out)] == ["Harbor audit"]


def test_an_empty_existing_folder_is_no_workspace_either(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    run = casefile(empty, "case", "new", "Harbor audit", new_workspace=False)
    assert run.code == 1
    assert _one_line(run.err).startswith(f"casefile: no workspace at {empty}")
    assert list(empty.iterdir()) == []


def test_the_environment_variable_is_checked_the_same_way(tmp_path: Path) -> None:
    typo = tmp_path / "env-typo"
    run = casefile(None, "case", "list", env={"CASEFILE_WORKSPACE": str(typo)})
    assert run.code == 1
    line = _one_line(run.err)
    assert line.startswith(f"casefile: no workspace at {typo} (from $CASEFILE_WORKSPACE)")
    assert not typo.exists()
    made = casefile(None, "--new-workspace", "case", "list",
                    env={"CASEFILE_WORKSPACE": str(typo)})
    assert made.code == 0, made.err
    assert (typo / "casefile.sqlite3").is_file()


def test_the_default_workspace_is_still_created_on_first_run(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = {"XDG_DATA_HOME": str(data), "HOME": str(tmp_path)}
    run = casefile(None, "case", "list", env={**env, "CASEFILE_WORKSPACE": ""})
    assert run.code == 0, run.err
    assert "no cases yet" in run.out
    assert (data / "Casefile" / "workspace" / "casefile.sqlite3").is_file()
