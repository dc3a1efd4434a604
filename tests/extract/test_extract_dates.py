"""Dates, events and follow-ups on invented stories (both modes)."""

from __future__ import annotations

import datetime as dt

from casefile.extract import extract_suggestions
from casefile.extract.dates import find_anchored, find_dates
from casefile.extract.followups import due_date

PUB = dt.date(2024, 3, 15)  # a Friday


def test_explicit_dates_prefer_the_past() -> None:
    got = {d.text: (d.date, d.precision) for d in find_dates(
        "On March 3 and on March 20, then Aug. 9, 2021, 14 February, in June and 2023-11-02.",
        PUB)}
    assert got == {"March 3": ("2024-03-03", "day"), "March 20": ("2023-03-20", "day"),
                   "Aug. 9, 2021": ("2021-08-09", "day"), "14 February": ("2024-02-14", "day"),
                   "June": ("2023-06-01", "month"), "2023-11-02": ("2023-11-02", "day")}


def test_relative_dates_against_publication() -> None:
    got = {d.text: d.date for d in find_dates("He left Tuesday, came back yesterday and will "
                                              "speak next Monday.", PUB)}
    assert got == {"Tuesday": "2024-03-12", "yesterday": "2024-03-14",
                   "next Monday": "2024-03-18"}


def test_no_published_date_resolves_only_dates_with_a_year() -> None:
    got = [(d.text, d.date) for d in find_dates("On March 3 and on May 5, 2020.", None)]
    assert got == [("May 5, 2020", "2020-05-05")]


def test_anchored_phrases() -> None:
    got = [(a.amount, a.unit, a.noun) for a in find_anchored(
        "Two days after the crash, and a week before the vote; the next day; three months "
        "later.")]
    assert got == [(2, "day", "crash"), (-1, "week", "vote"), (1, "day", None),
                   (3, "month", None)]


def test_events_anchor_on_the_named_event(mode: str) -> None:
    text = ("The warehouse fire on Feb. 2 killed two workers. The mayor visited on Feb. 9. "
            "Three days after the fire, inspectors had filed a report.")
    result = extract_suggestions(text, PUB, mode=mode)  # type: ignore[arg-type]
    events = [(e["date"], e["precision"], e["text"][:20]) for e in result["events"]]
    assert events == [("2024-02-02", "day", "The warehouse fire o"),
                      ("2024-02-09", "day", "The mayor visited on"),
                      ("2024-02-05", "day", "Three days after the")]
    for e in result["events"]:
        assert text[e["start"]:e["end"]] == e["text"]


def test_due_dates() -> None:
    assert due_date("to be released in about a week", PUB) == "2024-03-22"
    assert due_date("a ruling within 30 days", PUB) == "2024-04-14"
    assert due_date("results by Friday", PUB) == "2024-03-22"
    assert due_date("expected next week", PUB) == "2024-03-22"
    assert due_date("to be released in about a week", None) is None
    assert due_date("no duration here", PUB) is None


def test_followup_cues(mode: str) -> None:
    text = ("The autopsy report is expected to be released within two weeks. "
            "It is unclear whether the driver had a license. "
            "The company declined to comment. "
            "A spokesman for the county did not respond to messages on Thursday. "
            "The newspaper filed a public records request for the footage. "
            "The weather was mild.")
    result = extract_suggestions(text, PUB, mode=mode)  # type: ignore[arg-type]
    got = [(f["kind"], f["due"]) for f in result["followups"]]
    assert got == [("expected record", "2024-03-29"), ("open question", None),
                   ("right of reply", None), ("right of reply", None),
                   ("records request", None)]
    for f in result["followups"]:
        assert text[f["start"]:f["end"]] == f["text"]


def test_recent_past_date_in_a_future_tense_sentence_keeps_its_year() -> None:
    from casefile.extract import extract_suggestions

    text = "A report on the March 3 crash is expected to be released next month."
    out = extract_suggestions(text, dt.date(2024, 3, 8), mode="rules")
    assert [e["date"] for e in out["events"]] == ["2024-03-03"]
    text = "The hearing is scheduled for January 10."
    out = extract_suggestions(text, dt.date(2024, 12, 20), mode="rules")
    assert [e["date"] for e in out["events"]] == ["2025-01-10"]


# Publication day for the tense and follow-up tests below: a Tuesday in November.
NOV = dt.date(2030, 11, 19)


def test_the_present_of_a_scheduled_act_dates_it_forward() -> None:
    text = "The agency is holding a briefing on December 2 to present its plan."
    out = extract_suggestions(text, NOV, mode="rules")
    assert [e["date"] for e in out["events"]] == ["2030-12-02"]
    text = "The agency held a briefing on December 2 to present its plan."
    out = extract_suggestions(text, NOV, mode="rules")
    assert [e["date"] for e in out["events"]] == ["2029-12-02"]


def test_a_day_naming_an_event_is_the_nearest_such_day() -> None:
    got = [d.date for d in find_dates("Parties court voters before the Dec. 12 election.", NOV)]
    assert got == ["2030-12-12"]
    got = [d.date for d in find_dates("Parties courted voters on Dec. 12 at rallies.", NOV)]
    assert got == ["2029-12-12"]


def _followups(text: str) -> list[tuple[str, str | None]]:
    out = extract_suggestions(text, NOV, mode="rules")
    return [(f["text"].split()[1], f["due"]) for f in out["followups"]]


def test_scheduled_events_become_follow_ups_due_on_their_day() -> None:
    text = ("The sentencing is scheduled for Feb. 3. "
            "The board holds a public hearing Thursday with the contractors. "
            "The storm should pass by Friday morning, forecasters said. "
            "Voters head to the polls in the Jan. 9 runoff election. "
            "A 10 percent levy the ministry had planned to impose Dec. 20 may be dropped. "
            "The mill will close its doors at the end of 2032.")
    assert _followups(text) == [("sentencing", "2031-02-03"), ("board", "2030-11-21"),
                                ("storm", "2030-11-22"), ("head", "2031-01-09"),
                                ("10", "2030-12-20"), ("mill", "2032-12-31")]


def test_a_date_alone_is_no_follow_up() -> None:
    text = ("Living there was like smoking a pack of cigarettes in a day. "
            "The pills had an effect within 2 days, he said. "
            "Importers typically must pay within 10 days of delivery. "
            "I will ask why I lost followers in a week where I posted nothing. "
            "They need new ideas if they expect to stay relevant. "
            "The plant, which became public Tuesday, will hire staff. "
            "The budget approved in April will fund two more years. "
            "He said Monday that talks will go on. "
            "The convict was due to be released in September after his term. "
            "The firm plans to spend $2 million through November 2034.")
    assert _followups(text) == []


def test_a_condition_with_a_time_limit_is_a_follow_up() -> None:
    text = "Both were released on condition that each post a bond within a week."
    assert _followups(text) == [("were", "2030-11-26")]


def test_a_past_clause_in_a_future_sentence_keeps_its_dates_in_the_past() -> None:
    got = {d.text: d.date for d in find_dates(
        "The talks, postponed from Monday, will resume on Dec. 5 under the plan approved in "
        "April.", NOV, "future")}
    assert got == {"Monday": "2030-11-18", "Dec. 5": "2030-12-05", "April": "2030-04-01"}
