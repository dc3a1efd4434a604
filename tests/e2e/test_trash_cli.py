"""`casefile case rename|edit|delete` and `casefile trash list|restore|empty`, run as a user runs
them: a case deleted leaves the case list, search and every command, and `trash restore` brings
it back with the same rows; emptying the Trash needs a yes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from casefile.store.workspace import open_workspace
from tests.e2e.case_rows import case_rows
from tests.e2e.cli_helpers import casefile

TITLE = "Sample: Alder Creek flood response"


def _rows(folder: Path, title: str) -> dict[str, Any]:
    ws = open_workspace(folder)
    try:
        with ws.transaction() as s:
            return case_rows(s, title)
    finally:
        ws.close()


def test_delete_a_case_then_restore_it_from_the_trash(tmp_path: Path):
    ws = tmp_path / "ws"
    assert casefile(ws, "demo").code == 0
    assert casefile(ws, "case", "new", "Another story").code == 0
    before = _rows(ws, TITLE)
    assert json.loads(casefile(ws, "search", "flood", "--json").out)

    deleted = casefile(ws, "case", "delete", TITLE)
    assert deleted.code == 0, deleted.err
    assert "casefile trash restore 1" in deleted.out
    listed = json.loads(casefile(ws, "case", "list", "--json").out)
    assert [c["title"] for c in listed] == ["Another story"]
    assert json.loads(casefile(ws, "search", "flood", "--json").out) == []
    gone = casefile(ws, "items", "--case", TITLE)
    assert gone.code == 1 and gone.err.count("\n") == 1 and "no case titled" in gone.err

    (entry,) = json.loads(casefile(ws, "trash", "list", "--json").out)
    assert (entry["id"], entry["what"], entry["case"]) == (1, "case", TITLE)
    assert entry["counts"]["items"] == sum(1 for _ in before["items"])
    text = casefile(ws, "trash", "list").out
    assert f"case “{TITLE}”" in text and "evidence links" in text

    restored = casefile(ws, "trash", "restore", "1")
    assert restored.code == 0, restored.err
    assert restored.out.strip() == f"Restored case “{TITLE}” from the Trash."
    assert _rows(ws, TITLE) == before
    assert json.loads(casefile(ws, "trash", "list", "--json").out) == []
    assert json.loads(casefile(ws, "search", "flood", "--json").out)
    again = casefile(ws, "trash", "restore", "1")
    assert again.code == 1 and "nothing in the Trash with id 1" in again.err


def test_rename_edit_and_empty(tmp_path: Path):
    ws = tmp_path / "ws"
    assert casefile(ws, "case", "new", "Harbor audit", "--summary", "Old").code == 0
    assert casefile(ws, "case", "new", "Pier inquiry").code == 0
    renamed = casefile(ws, "case", "rename", "Harbor audit", "Harbor dredging")
    assert renamed.code == 0 and "Renamed case “Harbor audit” to “Harbor dredging”" in renamed.out
    taken = casefile(ws, "case", "rename", "Harbor dredging", "Pier inquiry")
    assert taken.code == 1 and taken.err.count("\n") == 1 and "already exists" in taken.err
    edited = casefile(ws, "case", "edit", "Harbor dredging", "--summary", "Who paid.", "--json")
    assert json.loads(edited.out)["summary"] == "Who paid."
    listed = {c["title"]: c["summary"] for c in
              json.loads(casefile(ws, "case", "list", "--json").out)}
    assert listed == {"Harbor dredging": "Who paid.", "Pier inquiry": None}

    assert casefile(ws, "case", "delete", "Pier inquiry").code == 0
    refused = casefile(ws, "trash", "empty")  # no terminal to ask on, no --yes
    assert refused.code == 1 and refused.err.count("\n") == 1 and "--yes" in refused.err
    assert len(json.loads(casefile(ws, "trash", "list", "--json").out)) == 1
    emptied = casefile(ws, "trash", "empty", "--yes")
    assert emptied.code == 0 and "1 entry deleted for good" in emptied.out
    assert "Backups taken before still hold them" in emptied.out
    assert casefile(ws, "trash", "list").out.strip() == "the Trash is empty"
