"""`casefile reindex`: repairing a damaged search index from the command line, as a user would."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

from casefile.store.workspace import DB_FILENAME
from tests.e2e.cli_helpers import casefile

CASE = "Harbor audit"
OTHER = "Other story"


def _search(ws: Path, query: str, case: str) -> list[str]:
    run = casefile(ws, "search", query, "--case", case, "--json")
    assert run.code == 0, run.err
    return [hit["title"] for hit in json.loads(run.out)]


def test_reindex_case_repairs_its_index_and_reports_json(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    files = tmp_path / "files"
    files.mkdir()
    (files / "audit.txt").write_text("Quarterly audit\n\nOvertime at the harbor doubled.\n")
    (files / "memo.txt").write_text("Retention memo\n\nE-mails are kept for ninety days.\n")
    (files / "other.txt").write_text("Other audit\n\nThe harbor fund's audit, elsewhere.\n")
    for title in (CASE, OTHER):
        assert casefile(ws, "case", "new", title).code == 0
    imported = casefile(ws, "import", str(files / "audit.txt"), str(files / "memo.txt"),
                        "--case", CASE, "--no-suggest", "--json")
    assert imported.code == 0, imported.err
    other = casefile(ws, "import", str(files / "other.txt"), "--case", OTHER, "--no-suggest")
    assert other.code == 0, other.err

    # Damage: the audit loses its search rows, the other case's document too, and an orphan row
    # (an item id that does not exist) appears.
    with closing(sqlite3.connect(ws / DB_FILENAME)) as conn:
        conn.execute("DELETE FROM search_fts WHERE rowid IN (SELECT id FROM items "
                     "WHERE title IN ('Quarterly audit', 'Other audit'))")
        conn.execute("INSERT INTO search_fts (rowid, title, body) VALUES (9999, 'ghost', '')")
        conn.commit()
    assert _search(ws, "overtime", CASE) == []

    run = casefile(ws, "reindex", "--case", CASE, "--json")

    assert run.code == 0, run.err
    report = json.loads(run.out)
    assert report == {"case_id": report["case_id"], "items": 2, "missing": 1, "orphans": 1,
                      "stale": 0, "integrity_ok": True}
    assert isinstance(report["case_id"], int)
    assert _search(ws, "overtime", CASE) == ["Quarterly audit"]
    assert _search(ws, "audit", OTHER) == []  # the other case was not touched

    everything = casefile(ws, "reindex")
    assert everything.code == 0, everything.err
    assert everything.out == "reindexed 3 items (1 was missing from the index)\n"
    assert _search(ws, "audit", OTHER) == ["Other audit"]

    unknown = casefile(ws, "reindex", "--case", "No such case")
    assert (unknown.code, unknown.out) == (1, "")
    assert unknown.err == ("casefile: no case titled 'No such case' (create it: casefile case "
                           "new 'No such case'; see: casefile case list)\n")
