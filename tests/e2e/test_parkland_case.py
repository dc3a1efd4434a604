"""The reporter's path on the real sample article: CLI import, build the case, print the brief.

Checks the six required people and organizations of parkland-gold.json
with roles and affiliations, a quoted passage for each person, the two required follow-ups, the
three events; then `casefile brief` and checks on the PDF's extracted text; then the same brief
with one person flagged confidential, with and without --include-confidential.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from casefile.services import cases, evidence, items, passages, questions
from casefile.store.workspace import open_workspace
from tests.conftest import ARTICLE, GOLD
from tests.e2e.cli_helpers import casefile, pdf_text, squash

CASE = "Parkland: the deputies outside"

# Quotes (exact article text, typographic quotes included) a reporter marks for each person.
PERSON_QUOTES = {
    "Scott Israel": "failures of leadership and training under Broward County Sheriff Scott Israel",
    "Scot Peterson": "remained outside for over four minutes without acting",
    "Mike Goodrum": "\u201cupset that the Broward deputies had remained outside the school while "
                    "kids inside could have been bleeding out, among other reasons.\u201d",
    "Tony Pustizzi": "Please know that this issue will be addressed, and the truth will come out "
                     "in time.",
    "Aaron Feis": "Teacher Aaron Feis threw himself in front of students to protect them from "
                  "the bullets",
    "Sarah Rumpf": "Follow Sarah Rumpf on Twitter",
}
EVENTS = [
    ("Shooting at Marjory Stoneman Douglas High School", "2018-02-14", "February 14 shooting"),
    ("Vigil: Goodrum confronts Sheriff Israel", "2018-02-15",
     "at a vigil for the victims on February 15"),
    ("Chief Pustizzi's internal email", "2018-02-16", "two days after the shooting"),
]
REPORT_FOLLOWUP = "Coral Springs Police Department report on the response"


def build_case(ws_path: Path) -> dict[str, int]:
    """Through the services, as the window would: people, organizations, evidence, questions."""
    gold = json.loads(GOLD.read_text())
    ids: dict[str, int] = {}
    ws = open_workspace(ws_path)
    try:
        with ws.transaction() as s:
            case_id = cases.find_case(s, CASE).id
            doc = items.list_items(s, case_id, "document")[0]
            for org in gold["organizations"]["required"] + [{"name": "City of Coral Springs",
                                                            "kind": "government body"}]:
                kind = org["kind"] if org["kind"] != "government agency" else "government body"
                ids[org["name"]] = items.create_item(s, case_id, "organization", org["name"],
                                                     org_kind=kind).id
            for person in gold["people"]["required"]:
                p = items.create_item(
                    s, case_id, "person", person["name"], role=person["role"],
                    affiliation_id=ids.get(person["affiliation"] or ""),
                    aliases=[f for f in person["surface_forms"] if f != person["name"]],
                )
                ids[person["name"]] = p.id
                passage = passages.add_passage_by_quote(s, doc.id, PERSON_QUOTES[person["name"]])
                evidence.link_evidence(s, p.id, passage_id=passage.id, relation="supports")
            report = questions.create_question(
                s, case_id, REPORT_FOLLOWUP, kind="expected record", due="2018-03-02",
                ask_id=ids["Coral Springs Police Department"],
            )
            cue = passages.add_passage_by_quote(s, doc.id, "to be released in about a week")
            evidence.link_evidence(s, report.id, passage_id=cue.id, relation="context")
            questions.create_question(
                s, case_id, "Was the shooter still in the building when Coral Springs police "
                "arrived?", kind="question",
            )
            for title, day, cue_text in EVENTS:
                event = items.create_item(s, case_id, "event", title, date=day, precision="day")
                p = passages.add_passage_by_quote(s, doc.id, cue_text)
                evidence.link_evidence(s, event.id, passage_id=p.id)
            ids["case"] = case_id
    finally:
        ws.close()
    return ids


@pytest.fixture(scope="module")
def parkland(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    ws = tmp_path_factory.mktemp("parkland") / "ws"
    assert casefile(ws, "case", "new", CASE).code == 0
    run = casefile(ws, "import", str(ARTICLE), "--case", CASE, "--published", "2018-02-23",
                   "--json", "--no-suggest")
    assert run.code == 0, run.err
    imported = json.loads(run.out)["files"][0]
    ids = build_case(ws)
    return {"ws": ws, "sha256": imported["sha256"], "ids": ids}


def test_cli_lists_people_with_roles_and_affiliations(parkland: dict) -> None:
    people = json.loads(casefile(parkland["ws"], "items", "--case", CASE, "--kind", "person",
                                 "--json").out)
    got = {p["title"]: (p["role"], p["affiliation"]) for p in people}
    gold = json.loads(GOLD.read_text())
    assert got == {p["name"]: (p["role"], p["affiliation"]) for p in gold["people"]["required"]}
    orgs = json.loads(casefile(parkland["ws"], "items", "--case", CASE, "--kind",
                               "organization", "--json").out)
    assert {o["title"] for o in orgs} >= {o["name"] for o in gold["organizations"]["required"]}
    events = json.loads(casefile(parkland["ws"], "items", "--case", CASE, "--kind", "event",
                                 "--json").out)
    assert sorted(e["date"] for e in events) == ["2018-02-14", "2018-02-15", "2018-02-16"]


def test_followups_due_within_a_week_of_publication(parkland: dict) -> None:
    run = casefile(parkland["ws"], "followups", "--case", CASE, "--due-within", "7",
                   "--today", "2018-02-26", "--json")
    assert run.code == 0, run.err
    listed = json.loads(run.out)
    assert [(f["text"], f["due"], f["kind"], f["overdue"]) for f in listed] == [
        (REPORT_FOLLOWUP, "2018-03-02", "expected record", False)
    ]
    later = json.loads(casefile(parkland["ws"], "followups", "--case", CASE, "--today",
                                "2018-03-05", "--json").out)
    assert [(f["due"], f["overdue"]) for f in later] == [("2018-03-02", True), (None, False)]


def test_brief_has_every_name_the_followup_a_curly_quote_and_the_hash(
    parkland: dict, tmp_path: Path
) -> None:
    out = tmp_path / "brief.pdf"
    run = casefile(parkland["ws"], "brief", "--case", CASE, "-o", str(out),
                   "--today", "2018-02-26")
    assert run.code == 0, run.err
    assert out.read_bytes().startswith(b"%PDF-")
    text = squash(pdf_text(out))
    for name in PERSON_QUOTES:
        assert name in text, name
    assert REPORT_FOLLOWUP in text and "2018-03-02" in text
    assert squash(PERSON_QUOTES["Mike Goodrum"]) in text
    assert "\u201cupset that the Broward deputies" in text
    assert parkland["sha256"][:12] in text.replace(" ", "")
    for _title, day, _cue in EVENTS:
        assert day in text
    if shutil.which("qpdf"):
        subprocess.run(["qpdf", "--check", str(out)], check=True, capture_output=True)


def test_confidential_person_is_left_out_unless_asked(parkland: dict, tmp_path: Path) -> None:
    ws = open_workspace(parkland["ws"])
    try:
        with ws.transaction() as s:
            items.update_item(s, parkland["ids"]["Scot Peterson"], confidential=True)
    finally:
        ws.close()
    try:
        hidden = tmp_path / "hidden.pdf"
        assert casefile(parkland["ws"], "brief", "--case", CASE, "-o", str(hidden)).code == 0
        text = pdf_text(hidden)
        assert "Peterson" not in text and "Scot " not in text
        assert "Scott Israel" in text  # only the confidential person is withheld
        shown = tmp_path / "shown.pdf"
        run = casefile(parkland["ws"], "brief", "--case", CASE, "-o", str(shown),
                       "--include-confidential")
        assert run.code == 0
        assert "Scot Peterson" in squash(pdf_text(shown))
    finally:
        ws = open_workspace(parkland["ws"])
        with ws.transaction() as s:
            items.update_item(s, parkland["ids"]["Scot Peterson"], confidential=False)
        ws.close()
