"""A longer invented news article (tests/extract/ridgefield-invented.txt, written for these
tests) with a dateline, a byline, quotes, a legislator, a police chief, an outlet, a company and
future deadlines: checks precision as well as recall in both modes."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from casefile.extract import extract_suggestions

TEXT = (Path(__file__).parent / "ridgefield-invented.txt").read_text(encoding="utf-8")
PUB = dt.date(2024, 3, 15)  # a Friday


def test_people_exactly(mode: str) -> None:
    result = extract_suggestions(TEXT, PUB, mode=mode)  # type: ignore[arg-type]
    people = {p["name"]: p for p in result["people"]}
    assert set(people) == {"Marcus Delaney", "Helen Abernathy", "Gloria Santos",
                           "Victor Nakamura", "Rachel Goldfarb", "Ned Lamont", "Will Haskell",
                           "Jeffrey Kreitz"}
    assert people["Marcus Delaney"]["role"] == "Author"
    assert people["Will Haskell"]["role"] == "State Senator (D-Westport)"
    assert people["Jeffrey Kreitz"]["affiliation"] == "Ridgefield Police Department"
    assert people["Gloria Santos"]["role"] == "Superintendent"


def test_organizations_and_places(mode: str) -> None:
    result = extract_suggestions(TEXT, PUB, mode=mode)  # type: ignore[arg-type]
    orgs = {o["name"] for o in result["organizations"]}
    assert {"Ridgefield Board of Education", "Associated Press", "Brightline Consulting LLC",
            "Connecticut Office of the State Auditors", "Education Committee",
            "Ridgefield Police Department"} <= orgs
    assert orgs <= {"Ridgefield Board of Education", "Associated Press", "Education Committee",
                    "Brightline Consulting LLC", "Connecticut Office of the State Auditors",
                    "Ridgefield Police Department", "Hale & Porter"}
    places = {p["name"] for p in result["places"]}
    assert {"Ridgefield", "Connecticut", "Hartford"} <= places


def test_weekdays_and_future_deadlines(mode: str) -> None:
    result = extract_suggestions(TEXT, PUB, mode=mode)  # type: ignore[arg-type]
    by_text = {}
    for e in result["events"]:
        by_text.setdefault(e["text"][:25], []).append(e["date"])
    assert by_text["Santos said in a statemen"][-1] == "2024-03-15"  # "Friday" = published
    assert by_text["The review is expected to"] == ["2024-06-30"]  # future tense, not 2023
    due = {f["text"][:25]: (f["kind"], f["due"]) for f in result["followups"]}
    assert due["The review is expected to"] == ("expected record", "2024-06-30")
    assert due["The board is expected to "] == ("open question", "2024-04-14")
    assert due["Nakamura did not respond "] == ("right of reply", None)
