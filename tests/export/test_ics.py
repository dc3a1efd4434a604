"""The .ics writer on its own (no database): RFC 5545 shape, determinism, statuses, UIDs."""

from __future__ import annotations

import io
from datetime import date, datetime
from pathlib import Path

import icalendar
import pytest

from casefile.errors import CasefileError
from casefile.export.ics import CalendarEntry, ical_uid, render_ics

STAMP = datetime(2018, 2, 26, 9, 0)
ENTRIES = [
    CalendarEntry(uid=ical_uid("7f0c6a52-0000-4000-8000-000000000001"),
                  summary="Coral Springs Police Department report on the response",
                  due=date(2018, 3, 2), description="Kind: expected record\nAsk: CSPD",
                  kind="expected record", sequence=3, last_modified=datetime(2018, 2, 25, 8)),
    CalendarEntry(uid=ical_uid("7f0c6a52-0000-4000-8000-000000000002"),
                  summary="Ask the chief about his email", due=date(2018, 2, 28),
                  description="Kind: right of reply", status="answered",
                  answered_on=date(2018, 2, 27)),
    CalendarEntry(uid=ical_uid("7f0c6a52-0000-4000-8000-000000000003"),
                  summary="Board minutes", due=date(2018, 3, 9), description="",
                  status="dropped"),
]


def _components(data: bytes, name: str) -> list[icalendar.cal.Component]:
    return [c for c in icalendar.Calendar.from_ical(data).walk() if c.name == name]


def test_events_are_all_day_on_the_due_date_with_their_uid() -> None:
    data = render_ics(ENTRIES, io.BytesIO(), name="Casefile: Parkland", stamp=STAMP)
    assert data.startswith(b"BEGIN:VCALENDAR\r\n") and b"\r\nEND:VCALENDAR\r\n" in data
    cal = icalendar.Calendar.from_ical(data)
    assert str(cal["x-wr-calname"]) == "Casefile: Parkland" and str(cal["version"]) == "2.0"
    events = _components(data, "VEVENT")
    assert [(str(e["uid"]), e.decoded("dtstart"), e.decoded("dtend")) for e in events] == [
        ("7f0c6a52-0000-4000-8000-000000000002@casefile", date(2018, 2, 28), date(2018, 3, 1)),
        ("7f0c6a52-0000-4000-8000-000000000001@casefile", date(2018, 3, 2), date(2018, 3, 3)),
        ("7f0c6a52-0000-4000-8000-000000000003@casefile", date(2018, 3, 9), date(2018, 3, 10)),
    ]
    answered, report, dropped = events
    assert str(answered["summary"]) == "Answered: Ask the chief about his email"
    assert str(report["status"]) == "CONFIRMED" and int(report["sequence"]) == 3
    assert str(dropped["status"]) == "CANCELLED"
    assert str(report["description"]) == "Kind: expected record\nAsk: CSPD"
    assert report.decoded("dtstamp") == datetime(2018, 2, 26, 9, 0, tzinfo=report.decoded(
        "dtstamp").tzinfo)


def test_same_entries_and_stamp_give_the_same_bytes(tmp_path: Path) -> None:
    one, two = tmp_path / "a.ics", tmp_path / "b.ics"
    render_ics(ENTRIES, one, name="x", stamp=STAMP)
    render_ics(list(reversed(ENTRIES)), two, name="x", stamp=STAMP)
    assert one.read_bytes() == two.read_bytes()
    assert not list(tmp_path.glob("*.part"))


def test_todos_carry_due_and_status() -> None:
    data = render_ics(ENTRIES, io.BytesIO(), name="x", component="todo", stamp=STAMP)
    todos = _components(data, "VTODO")
    assert [(t.decoded("due"), str(t["status"])) for t in todos] == [
        (date(2018, 2, 28), "COMPLETED"), (date(2018, 3, 2), "NEEDS-ACTION"),
        (date(2018, 3, 9), "CANCELLED")]
    assert todos[0].decoded("completed").date() == date(2018, 2, 27)
    assert not _components(data, "VEVENT")


def test_unknown_component_and_unwritable_file() -> None:
    with pytest.raises(ValueError, match="component"):
        render_ics(ENTRIES, io.BytesIO(), name="x", component="journal")
    with pytest.raises(CasefileError, match="cannot write"):
        render_ics(ENTRIES, Path("/nonexistent-folder/x.ics"), name="x")
