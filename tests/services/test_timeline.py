"""Timeline: the case's events in date order, spans and labels by precision."""

from __future__ import annotations

from datetime import date

from casefile.services import items
from casefile.services.timeline import date_label, date_span, timeline


def test_events_in_date_order_with_spans_and_labels(workspace, case_id) -> None:
    with workspace.transaction() as s:
        place = items.create_item(s, case_id, "place", "Parkland")
        items.create_item(s, case_id, "event", "Hearing", date="2018-03-10", precision="day")
        items.create_item(s, case_id, "event", "Undated rumour")
        items.create_item(s, case_id, "event", "Shooting", date="2018-02-14", precision="exact",
                          place_id=place.id)
        items.create_item(s, case_id, "event", "Deputies resign", date="2018-02-20",
                          precision="approximate")
        items.create_item(s, case_id, "event", "Review", date="2018-02-01", precision="month")
        items.create_item(s, case_id, "event", "Vigils", date="2018-02-15", end="2018-02-18")
    with workspace.transaction() as s:
        events = timeline(s, case_id)
    assert [e.title for e in events] == [
        "Review", "Shooting", "Vigils", "Deputies resign", "Hearing", "Undated rumour"]
    by = {e.title: e for e in events}
    assert by["Review"].label == "Feb 2018" and by["Review"].approximate
    assert (by["Review"].first, by["Review"].last) == (date(2018, 2, 1), date(2018, 2, 28))
    assert by["Deputies resign"].label == "~2018-02-20" and by["Deputies resign"].approximate
    assert by["Vigils"].is_range and by["Vigils"].label == "2018-02-15 \u2013 2018-02-18"
    assert not by["Shooting"].approximate and by["Shooting"].place == "Parkland"
    assert by["Undated rumour"].first is None and by["Undated rumour"].label == "no date"


def test_spans_by_precision() -> None:
    assert date_span(date(2020, 2, 10), "year") == (date(2020, 1, 1), date(2020, 12, 31))
    assert date_span(date(2020, 2, 10), "approximate") == (date(2020, 2, 7), date(2020, 2, 13))
    assert date_span(None, "day") == (None, None)
    assert date_label(date(2020, 2, 10), "year") == "2020"
