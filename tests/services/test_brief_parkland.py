"""The brief of the sample case: the summary on the cover, no sentence twice, the evidence the
window shows, plurals right."""

from __future__ import annotations

import re
import shutil
import subprocess
from datetime import date
from pathlib import Path

import pytest

from casefile.services import brief, cases, decisions
from tests.services.conftest import import_with_suggestions

SUMMARY = ("Why did the deputies stay outside the school during the shooting, and what did "
           "the officers of the next town see?")
REPORT = "More information is expected to be contained in a report by the Coral Springs"


def _pages(pdf: Path) -> list[str]:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext is not installed (apt-get install poppler-utils)")
    out = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True,
                         text=True, check=True).stdout
    return [" ".join(page.split()) for page in out.split("\f") if page.strip()]


@pytest.fixture
def parkland_brief(sqlite_workspace, tmp_path: Path) -> list[str]:
    ws = sqlite_workspace
    with ws.transaction() as s:
        cid = cases.create_case(s, "Parkland", SUMMARY).id
    import_with_suggestions(ws, cid)
    with ws.transaction() as s:
        waiting = decisions.list_suggestions(s, cid)
        for kind, name in [("person", "Scott Israel"), ("person", "Scot Peterson"),
                           ("person", "Tony Pustizzi"), ("place", "Parkland")]:
            assert waiting.find(kind, name) is not None, (kind, name)
            decisions.accept_suggestion(s, cid, kind, name)
        report = next(e for e in waiting.by_kind["question"] if e.name.startswith(REPORT))
        decisions.accept_suggestion(s, cid, "question", report.name, variant=report.variant)
        event = waiting.by_kind["event"][0]
        decisions.accept_suggestion(s, cid, "event", event.name, variant=event.variant)
    out = tmp_path / "brief.pdf"
    with ws.transaction() as s:
        brief.export_brief(s, cid, out, today=date(2018, 3, 5))
    return _pages(out)


def test_the_cover_carries_the_summary_and_the_key_counts(parkland_brief: list[str]) -> None:
    cover = parkland_brief[0]
    assert SUMMARY in cover
    # the counts table: a row of numbers over a row of labels
    counts = re.search(r"((?:\d+ ){7})(\w+ \w+ \w+ \w+ \w+ open follow-ups? overdue)", cover)
    assert counts is not None, cover
    people, orgs, docs, events, claims, followups, overdue = map(int, counts[1].split())
    assert (people, docs, events, claims, followups, overdue) == (3, 1, 1, 0, 1, 1)
    assert orgs >= 2  # the sheriff's office and the police department, made for affiliations
    labels = "people organizations document event claims open follow-up overdue"
    assert counts[2] == labels
    assert "(1 document)" in cover and "(1 event)" in cover
    assert "No summary written yet" not in " ".join(parkland_brief)


def test_no_sentence_is_printed_twice(parkland_brief: list[str]) -> None:
    body = " ".join(parkland_brief[1:])
    assert body.count(REPORT) == 1
    assert "context:" not in body
    event_sentence = "three other Broward County Sheriff’s deputies were at Marjory Stoneman"
    assert body.count(event_sentence) <= 2  # the event once; Peterson's mention context once
    timeline = body[body.index("Timeline 2018-02-14"):body.index("Claims")]
    assert timeline.count(event_sentence) == 1


def test_every_person_shows_the_evidence_the_window_shows(parkland_brief: list[str]) -> None:
    body = " ".join(parkland_brief[1:])
    people = body[body.index("People "):body.index("Organizations ")]
    assert "No evidence linked yet" not in people
    pustizzi = people[people.index("Tony Pustizzi"):]
    assert re.search(r"mentioned (once|\d+ times) in \[1\]: “[^”]*Tony Pustizzi", pustizzi)
    peterson = people[people.index("Scot Peterson"):people.index("Scott Israel")]
    assert re.search(r"mentioned \d+ times in \[1\]", peterson)
    assert "“Peterson”" not in peterson  # no bare name printed as if it were a quote
    assert not re.search(r"\b1 (documents|events|times)\b", body)
