"""Follow-ups with the clock set: the Coral Springs report follow-up of the
sample case through the CLI (views, answering, overdue count) and the .ics calendar export read
back with icalendar."""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import icalendar
import pytest

from casefile.services import cases, documents, items, passages, questions, views
from casefile.store.workspace import open_workspace
from tests.conftest import ARTICLE
from tests.e2e.cli_helpers import casefile
from tests.e2e.test_parkland_case import CASE, REPORT_FOLLOWUP, build_case

REPORT_DUE = "2018-03-02"
LATER_REPORT = (
    "Coral Springs Police Department\n"
    "After-action report: response to Marjory Stoneman Douglas High School, February 14, 2018\n"
    "Released March 5, 2018\n\n"
    "When the first Coral Springs officers arrived, four Broward Sheriff's deputies were outside "
    "the building behind their vehicles. None of the four had entered the school.\n"
)
REPLY = "Ask Chief Pustizzi whether the internal email went to all officers"
SECRET = "Call back the dispatcher who spoke off the record"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample case as in test_parkland_case, plus a right-of-reply follow-up asking a
    person with contact details and a confidential one."""
    ws = tmp_path_factory.mktemp("followups") / "ws"
    assert casefile(ws, "case", "new", CASE).code == 0
    run = casefile(ws, "import", str(ARTICLE), "--case", CASE, "--published", "2018-02-23",
                   "--no-suggest")
    assert run.code == 0, run.err
    ids = build_case(ws)
    w = open_workspace(ws)
    try:
        with w.transaction() as s:
            items.update_item(s, ids["Tony Pustizzi"],
                              contact="press office +1 954-555-0100, chief@example.org")
            questions.create_question(s, ids["case"], REPLY, kind="right of reply",
                                      due="2018-02-28", ask_id=ids["Tony Pustizzi"],
                                      status="waiting")
            source = items.create_item(s, ids["case"], "person", "Dana Whitlock",
                                       role="dispatcher", contact="555-0199", confidential=True)
            questions.create_question(s, ids["case"], SECRET, kind="call back", due="2018-03-01",
                                      ask_id=source.id, confidential=True)
    finally:
        w.close()
    return ws


@pytest.fixture
def ws(base: Path, tmp_path: Path) -> Path:
    """A copy of the built workspace for one test (tests change follow-ups)."""
    target = tmp_path / "ws"
    shutil.copytree(base, target)
    return target


def _followups(ws: Path, *args: str) -> list[dict]:
    run = casefile(ws, "followups", "--case", CASE, "--json", *args)
    assert run.code == 0, run.err
    return json.loads(run.out)


def test_report_is_due_this_week_then_overdue(ws: Path) -> None:
    w = open_workspace(ws)
    try:
        with w.transaction() as s:
            case_id = cases.find_case(s, CASE).id
            week = questions.due_this_week(s, case_id, today=date(2018, 2, 26))
            late = questions.overdue(s, case_id, today=date(2018, 3, 5))
            count = questions.overdue_count(s, case_id, today=date(2018, 3, 5))
            status = views.case_status(s, case_id, today=date(2018, 3, 5))
    finally:
        w.close()
    assert REPORT_FOLLOWUP in [f.text for f in week]
    assert [f.text for f in late] == [REPLY, SECRET, REPORT_FOLLOWUP]
    assert count == 3 == status.overdue

    assert _followups(ws, "--overdue", "--today", "2018-02-26") == []
    overdue = _followups(ws, "--overdue", "--today", "2018-03-05")
    assert [(f["text"], f["due"], f["days_left"]) for f in overdue] == [
        (REPLY, "2018-02-28", -5), (SECRET, "2018-03-01", -4), (REPORT_FOLLOWUP, REPORT_DUE, -3)]
    waiting = _followups(ws, "--status", "waiting", "--today", "2018-03-05")
    assert [(f["text"], f["ask"]) for f in waiting] == [(REPLY, "Tony Pustizzi")]
    text = casefile(ws, "followups", "--case", CASE, "--overdue", "--today", "2018-03-05")
    assert f"OVERDUE {REPORT_DUE}  [expected record] {REPORT_FOLLOWUP}" in text.out


def test_answering_with_a_later_document_records_answer_date_and_link(
    ws: Path, tmp_path: Path
) -> None:
    later = tmp_path / "coral-springs-after-action-report.txt"
    later.write_text(LATER_REPORT, encoding="utf-8")
    run = casefile(ws, "import", str(later), "--case", CASE, "--published", "2018-03-05",
                   "--no-suggest", "--json")
    assert run.code == 0, run.err
    doc_id = json.loads(run.out)["files"][0]["document_id"]
    quote = "four Broward Sheriff's deputies were outside the building behind their vehicles"
    w = open_workspace(ws)
    try:
        with w.transaction() as s:
            case_id = cases.find_case(s, CASE).id
            assert questions.overdue_count(s, case_id, today=date(2018, 3, 5)) == 3
            [report] = [f for f in questions.followups(s, case_id)
                        if f.text == REPORT_FOLLOWUP]
            passage = passages.add_passage_by_quote(s, doc_id, quote)
            questions.answer_question(s, report.id, "Report released: four deputies outside.",
                                      passage_id=passage.id, on="2018-03-05")
            pid = passage.id
        with w.transaction() as s:
            # what the window says on opening the case that day
            count = questions.overdue_count(s, case_id, today=date(2018, 3, 5))
            status = views.case_status(s, case_id, today=date(2018, 3, 5))
            history = questions.status_history(s, report.id)
            doc_title = documents.existing_document(
                s, case_id, json.loads(run.out)["files"][0]["sha256"]).title
    finally:
        w.close()
    assert count == 2 == status.overdue
    assert [(h.previous, h.status, h.on) for h in history][-1] == ("open", "answered",
                                                                   "2018-03-05")

    answered = _followups(ws, "--status", "answered", "--today", "2018-03-05")
    assert [(f["text"], f["status"], f["answer"], f["answered_on"], f["overdue"],
             f["status_since"]) for f in answered] == [
        (REPORT_FOLLOWUP, "answered", "Report released: four deputies outside.", "2018-03-05",
         False, "2018-03-05")]
    assert answered[0]["answered_by"] == {"document_id": doc_id, "document_title": doc_title,
                                          "passage_id": pid, "quote": quote}
    assert REPORT_FOLLOWUP not in [
        f["text"] for f in _followups(ws, "--overdue", "--today", "2018-03-05")]
    everything = _followups(ws, "--status", "all", "--today", "2018-03-05")
    assert len(everything) == 4


def _read_ics(path: Path) -> list[icalendar.cal.Component]:
    cal = icalendar.Calendar.from_ical(path.read_bytes())
    return [c for c in cal.walk() if c.name in ("VEVENT", "VTODO")]


def test_ics_export_reads_back_with_the_same_followups_dates_and_uids(
    ws: Path, tmp_path: Path
) -> None:
    listed = [f for f in _followups(ws, "--status", "all") if f["due"]]
    first, second = tmp_path / "one.ics", tmp_path / "two.ics"
    run = casefile(ws, "followups", "--case", CASE, "--ics", str(first))
    assert run.code == 0, run.err
    assert run.out.startswith(f"wrote {first} (2 follow-ups)")
    assert "1 without a due date left out" in run.out and "1 confidential left out" in run.out
    events = _read_ics(first)
    public = [f for f in listed if f["text"] != SECRET]
    assert sorted((str(e["summary"]), e.decoded("dtstart"), str(e["uid"])) for e in events) == \
        sorted((f["text"], date.fromisoformat(f["due"]), f"{f['uid']}@casefile") for f in public)
    report = next(e for e in events if str(e["summary"]) == REPORT_FOLLOWUP)
    assert report.decoded("dtend") == date(2018, 3, 3)
    description = str(report["description"])
    assert "Kind: expected record" in description
    assert "Ask: Coral Springs Police Department (law enforcement agency)" in description
    assert "to be released in about a week" in description
    reply = next(e for e in events if str(e["summary"]) == REPLY)
    assert "press office +1 954-555-0100, chief@example.org" in str(reply["description"])
    assert "Status: waiting" in str(reply["description"])
    assert "Dana" not in first.read_text(encoding="utf-8")

    # a second export, after a change, carries the same UIDs: calendar apps update
    w = open_workspace(ws)
    try:
        with w.transaction() as s:
            case_id = cases.find_case(s, CASE).id
            report_id = next(f.id for f in questions.followups(s, case_id)
                             if f.text == REPORT_FOLLOWUP)
            items.update_item(s, report_id, due="2018-03-09")
    finally:
        w.close()
    run = casefile(ws, "followups", "--case", CASE, "--ics", str(second), "--json")
    assert run.code == 0, run.err
    again = _read_ics(second)
    assert sorted(str(e["uid"]) for e in again) == sorted(str(e["uid"]) for e in events)
    summary = json.loads(run.out)
    assert summary["entries"] == 2 and summary["file"] == str(second)
    assert sorted(summary["uids"]) == sorted(str(e["uid"]) for e in events)
    moved = next(e for e in again if str(e["uid"]) == str(report["uid"]))
    assert moved.decoded("dtstart") == date(2018, 3, 9)
    assert int(moved["sequence"]) > int(report["sequence"])


def test_ics_with_confidential_and_as_todos(ws: Path, tmp_path: Path) -> None:
    out = tmp_path / "all.ics"
    run = casefile(ws, "followups", "--case", CASE, "--ics", str(out), "--ics-as", "todo",
                   "--include-confidential")
    assert run.code == 0, run.err
    todos = _read_ics(out)
    assert {t.name for t in todos} == {"VTODO"}
    secret = next(t for t in todos if str(t["summary"]) == SECRET)
    assert secret.decoded("due") == date(2018, 3, 1)
    assert "Dana Whitlock (dispatcher) \u2014 contact: 555-0199" in str(secret["description"])
    assert {str(t["status"]) for t in todos} == {"NEEDS-ACTION", "IN-PROCESS"}


def test_ics_refuses_filters_and_folders(ws: Path, tmp_path: Path) -> None:
    run = casefile(ws, "followups", "--case", CASE, "--ics", str(tmp_path))
    assert run.code == 1 and "is a folder" in run.err and "Traceback" not in run.err
    run = casefile(ws, "followups", "--case", CASE, "--ics", str(tmp_path / "x.ics"),
                   "--overdue")
    assert run.code == 1 and "--ics writes every dated follow-up" in run.err
    run = casefile(ws, "followups", "--case", CASE, "--status", "pending")
    assert run.code == 2
