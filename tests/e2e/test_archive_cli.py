"""`casefile archive export|import`, run as a user runs them: a sealed case moved to a new
workspace, the wrong passphrase refused in one line."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.cli_helpers import casefile

TITLE = "Sample: Alder Creek flood response"


def test_a_sealed_case_moves_to_another_workspace(tmp_path: Path):
    here, there = tmp_path / "here", tmp_path / "there"
    assert casefile(here, "demo").code == 0
    out = tmp_path / "case.casefile"
    sealed = casefile(here, "archive", "export", "--case", TITLE, "-o", str(out), "--seal",
                      env={"CASEFILE_ARCHIVE_PASSPHRASE": "long enough phrase"})
    assert sealed.code == 0, sealed.err
    assert b"Alder Creek" not in out.read_bytes()

    wrong = casefile(there, "archive", "import", str(out),
                     env={"CASEFILE_ARCHIVE_PASSPHRASE": "guess"})
    assert wrong.code == 1 and wrong.err.count("\n") == 1 and "wrong passphrase" in wrong.err
    right = casefile(there, "archive", "import", str(out), "--json",
                     env={"CASEFILE_ARCHIVE_PASSPHRASE": "long enough phrase"})
    assert right.code == 0, right.err
    listed = casefile(there, "case", "list")
    assert TITLE in listed.out
    found = casefile(there, "search", "flood", "--case", TITLE)
    assert found.code == 0 and "flood" in found.out.lower()
