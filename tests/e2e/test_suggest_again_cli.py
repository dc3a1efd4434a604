"""The ways back from the command line: `casefile suggest` finds suggestions again in
a document already imported (after a failed run or a model change, when re-importing only says
"already in the case"), and `casefile suggestions rejected` / `restore KIND NAME` bring back a
name rejected in an earlier session."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import ARTICLE
from tests.e2e.cli_helpers import casefile


def waiting(ws: Path, kind: str) -> list[str]:
    run = casefile(ws, "suggestions", "--case", "T", "--json")
    assert run.code == 0, run.err
    return [r["name"] for r in json.loads(run.out) if r["kind"] == kind]


def test_suggest_again_then_reject_list_and_restore(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    assert casefile(ws, "case", "new", "T").code == 0
    run = casefile(ws, "import", str(ARTICLE), "--case", "T", "--published", "2018-02-23",
                   "--no-suggest", "--json")
    assert run.code == 0, run.err
    doc_id = json.loads(run.out)["files"][0]["document_id"]
    assert waiting(ws, "place") == []
    # re-importing does not help: the document is already in the case
    again = casefile(ws, "import", str(ARTICLE), "--case", "T", "--json")
    assert json.loads(again.out)["already_there"] == 1 and waiting(ws, "place") == []

    # a model that is no pipeline is refused in one line, nothing runs
    bad = casefile(ws, "suggest", "--document", str(doc_id), "--model", "spacy")
    assert bad.code == 1 and bad.out == ""
    assert bad.err.strip().count("\n") == 0 and "not a spaCy pipeline" in bad.err
    missing = casefile(ws, "suggest", "--document", "9999", "--rules-only")
    assert (missing.code, missing.err.strip()) == (1, "casefile: no document with id 9999")

    done = casefile(ws, "suggest", "--document", str(doc_id), "--rules-only")
    assert done.code == 0, done.err
    assert done.out.startswith(f"document {doc_id} ") and "rules" in done.out
    assert "Sunrise" in waiting(ws, "place") and "Parkland" in waiting(ws, "place")
    whole = casefile(ws, "suggest", "--case", "T", "--rules-only", "--json")
    assert whole.code == 0, whole.err
    [row] = json.loads(whole.out)
    assert row["document_id"] == doc_id and row["mode"] == "rules"
    assert waiting(ws, "place").count("Sunrise") == 1  # nothing suggested twice

    rows = json.loads(casefile(ws, "suggestions", "--case", "T", "--json").out)
    sunrise = next(r["id"] for r in rows if (r["kind"], r["name"]) == ("place", "Sunrise"))
    assert casefile(ws, "suggestions", "reject", str(sunrise)).code == 0
    assert "Sunrise" not in waiting(ws, "place")

    listed = casefile(ws, "suggestions", "rejected", "--json")
    assert listed.code == 0, listed.err
    [gone] = json.loads(listed.out)
    assert (gone["kind"], gone["name"], gone["cases"]) == ("place", "Sunrise", ["T"])
    assert gone["mentions"] >= 1 and gone["when"]
    text = casefile(ws, "suggestions", "rejected")
    assert text.out.splitlines()[0].split()[:2] == ["place", "Sunrise"]

    unknown = casefile(ws, "suggestions", "restore", "place", "Atlantis")
    assert unknown.code == 1 and unknown.err.strip().count("\n") == 0
    assert "no rejected place named 'Atlantis'" in unknown.err
    back = casefile(ws, "suggestions", "restore", "place", "sunrise")
    assert back.code == 0, back.err
    assert "suggested again" in back.out
    assert "Sunrise" in waiting(ws, "place")
    assert json.loads(casefile(ws, "suggestions", "rejected", "--json").out) == []
    assert casefile(ws, "suggestions", "rejected").out.strip() == "no rejected names"


def test_suggest_waiting_reads_only_the_documents_no_run_has_read(tmp_path: Path) -> None:
    """An import with --no-suggest leaves its documents waiting; `suggest --case T --waiting`
    reads those and no other, then says there is nothing left."""
    ws = tmp_path / "ws"
    assert casefile(ws, "case", "new", "T").code == 0
    first = casefile(ws, "import", str(ARTICLE), "--case", "T", "--published", "2018-02-23",
                     "--no-suggest", "--json")
    assert first.code == 0, first.err
    other = tmp_path / "note.txt"
    other.write_text("Mayor Lena Holt said the harbor report is due Friday.", encoding="utf-8")
    second = casefile(ws, "import", str(other), "--case", "T", "--published", "2018-02-23",
                      "--no-suggest", "--json")
    read_id = json.loads(second.out)["files"][0]["document_id"]
    assert casefile(ws, "suggest", "--document", str(read_id), "--rules-only").code == 0

    run = casefile(ws, "suggest", "--case", "T", "--waiting", "--rules-only", "--json")
    assert run.code == 0, run.err
    assert [r["document_id"] for r in json.loads(run.out)] == [
        json.loads(first.out)["files"][0]["document_id"]]
    assert "Parkland" in waiting(ws, "place")
    again = casefile(ws, "suggest", "--case", "T", "--waiting", "--rules-only")
    assert (again.code, again.out.strip()) == (
        0, "every document of case 'T' has been read for suggestions")
    lone = casefile(ws, "suggest", "--document", str(read_id), "--waiting")
    assert lone.code != 0 and "--waiting goes with --case" in lone.err
