"""`casefile suggestions` as a reporter uses it on the Parkland article: list what waits (every
kind, with ids, dates, due dates and attributions), then accept, reject and merge by id."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import ARTICLE
from tests.e2e.cli_helpers import casefile


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace holding case "T" with the article imported (published 2018-02-23)."""
    ws = tmp_path_factory.mktemp("suggestions") / "ws"
    assert casefile(ws, "case", "new", "T").code == 0
    run = casefile(ws, "import", str(ARTICLE), "--case", "T", "--published", "2018-02-23")
    assert run.code == 0, run.err
    return ws


def waiting(ws: Path) -> list[dict]:
    run = casefile(ws, "suggestions", "--case", "T", "--json")
    assert run.code == 0, run.err
    return json.loads(run.out)


def test_the_list_shows_every_kind_with_ids_dates_and_attribution(imported: Path) -> None:
    rows = waiting(imported)
    kinds = {r["kind"] for r in rows}
    assert kinds == {"person", "organization", "place", "event", "question", "claim"}
    assert len({r["id"] for r in rows}) == len(rows)  # one id per suggestion
    assert {"2018-02-14", "2018-02-15"} <= {r["date"] for r in rows if r["kind"] == "event"}
    report = next(r for r in rows if "report by the Coral Springs Police Department" in r["name"])
    assert (report["kind"], report["followup_kind"], report["due"]) == (
        "question", "expected record", "2018-03-02")
    described = next(r for r in rows if r["kind"] == "claim"
                     and r["name"].startswith("CNN describes the emotions"))
    assert (described["attributed_to"], described["via"]) == ("CNN", "CNN")
    told = next(r for r in rows if r["kind"] == "claim" and "sources tell CNN" in r["name"])
    assert told["attributed_to"] == "unnamed Coral Springs sources"

    text = casefile(imported, "suggestions", "--case", "T")
    assert text.code == 0
    line = next(x for x in text.out.splitlines() if "report by the Coral Springs" in x)
    assert line.split()[0] == str(report["id"]) and "due 2018-03-02" in line
    assert any("said by unnamed Coral Springs sources" in x for x in text.out.splitlines())


def test_accept_reject_and_merge_by_id(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    assert casefile(ws, "case", "new", "T").code == 0
    assert casefile(ws, "import", str(ARTICLE), "--case", "T", "--published", "2018-02-23",
                    ).code == 0
    rows = waiting(ws)

    def sid(kind: str, name: str) -> str:
        return str(next(r["id"] for r in rows if r["kind"] == kind and r["name"] == name))

    report = str(next(r["id"] for r in rows if "report by the Coral Springs" in r["name"]))
    # the sheriff's office is accepted with the sheriff (his affiliation): naming it too in
    # the same command is no error
    office = sid("organization", "Broward County Sheriff's Office")
    run = casefile(ws, "suggestions", "accept", sid("person", "Scott Israel"), office, report,
                   "--case", "T")
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert len(lines) == 3
    assert "Added person “Scott Israel” and organization “Broward County Sheriff's Office”" in (
        lines[0])
    assert lines[1] == f"{office}: already settled by an earlier suggestion of this command"
    assert "due 2018-03-02" in lines[2]

    run = casefile(ws, "suggestions", "reject", sid("place", "America"))
    assert run.code == 0 and "Rejected place “America”" in run.out

    items = json.loads(casefile(ws, "items", "--case", "T", "--json").out)
    israel = next(i for i in items if i["title"] == "Scott Israel")
    run = casefile(ws, "suggestions", "merge", sid("person", "Scot Peterson"),
                   "--into", str(israel["id"]))
    assert run.code == 0 and "Merged “Scot Peterson” into person “Scott Israel”" in run.out

    followups = json.loads(casefile(ws, "followups", "--case", "T", "--json").out)
    assert [f["due"] for f in followups if "report" in f["text"]] == ["2018-03-02"]
    left = {(r["kind"], r["name"]) for r in waiting(ws)}
    assert ("person", "Scott Israel") not in left and ("place", "America") not in left
    assert ("organization", "Broward County Sheriff's Office") not in left  # taken over

    # an id decided already, or never given: one line, exit 1; the other ids still go through
    run = casefile(ws, "suggestions", "accept", sid("person", "Scott Israel"), "999999",
                   sid("place", "Parkland"))
    assert run.code == 1
    assert run.err.count("\n") == 2 and "no waiting suggestion with id 999999" in run.err
    assert "Added place “Parkland”" in run.out
    assert "Traceback" not in run.err
    run = casefile(ws, "suggestions", "merge", sid("place", "Sunrise"), "--into",
                   str(israel["id"]))
    assert run.code == 1 and run.err.strip().endswith("is a person")
    run = casefile(ws, "suggestions")
    assert run.code == 1 and "--case" in run.err
