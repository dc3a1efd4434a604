"""A reporter's identifying phrases, through the real ``casefile`` command: mark an invented
person confidential with a phrase of their own (``casefile item ID --confidential
--identifying PHRASE``), export the case, and find neither the name, nor the phrase, nor the
clause the text attaches to the name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from casefile.services.ftm_export import followthemoney_installed
from tests.e2e.cli_helpers import casefile

TEXT = ("Ferry timetable questioned\n\n"
        "Harlan Voss, a night dispatcher at the Quayside Ferry Board, said the timetable was "
        "changed before the vote. Reporters later met the man who logs the night crossings, "
        "who confirmed the change.\n")
PHRASE = "the man who logs the night crossings"


@pytest.mark.skipif(not followthemoney_installed(), reason="followthemoney is not installed")
def test_identifying_phrase_set_from_the_command_line_is_withheld(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    story = tmp_path / "ferry.txt"
    story.write_text(TEXT, "utf-8")
    assert casefile(ws, "case", "new", "Ferry").code == 0
    run = casefile(ws, "import", "--case", "Ferry", str(story), "--published", "2026-10-02")
    assert run.code == 0, run.err
    waiting = json.loads(casefile(ws, "suggestions", "--case", "Ferry", "--json").out)
    voss = next(r for r in waiting if r["kind"] == "person" and r["name"] == "Harlan Voss")
    assert casefile(ws, "suggestions", "accept", str(voss["id"])).code == 0
    people = json.loads(casefile(ws, "items", "--case", "Ferry", "--kind", "person",
                                 "--json").out)
    person = next(p for p in people if p["title"] == "Harlan Voss")

    marked = casefile(ws, "item", str(person["id"]), "--confidential", "--identifying",
                      PHRASE, "--json")
    assert marked.code == 0, marked.err
    row = json.loads(marked.out)
    assert row["confidential"] is True and row["identifying_phrases"] == [PHRASE]
    listed = json.loads(casefile(ws, "items", "--case", "Ferry", "--kind", "person",
                                 "--json").out)
    assert next(p for p in listed if p["id"] == person["id"])["identifying_phrases"] == [PHRASE]

    out = tmp_path / "legal.ftm.json"
    run = casefile(ws, "export", "ftm", "--case", "Ferry", "-o", str(out), "--profile", "legal")
    assert run.code == 0, run.err
    written = out.read_text("utf-8")
    assert "timetable was changed before the vote" in written  # the document's text is there
    for gone in ("Harlan Voss", "Voss", PHRASE, "night dispatcher", "Quayside Ferry Board"):
        assert gone not in written, gone
    assert "[Source A] said the timetable was changed" in written

    wrong = casefile(ws, "item", str(person["id"]), "--identifying", "x")
    assert wrong.code == 1 and "at least 3 characters" in wrong.err
    cleared = casefile(ws, "item", str(person["id"]), "--clear-identifying")
    assert cleared.code == 0 and "identifying phrases: none" in cleared.out
    nothing = casefile(ws, "item", str(person["id"]))
    assert nothing.code == 1 and "say what to change" in nothing.err
