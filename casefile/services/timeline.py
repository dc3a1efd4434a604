"""The case's events for a timeline: dates with their precision, ranges, in date order.

Qt-free: the window's Timeline view (``casefile.ui.timeline``) draws what :func:`timeline`
returns. Each :class:`TimelineEvent` knows the span of days it covers (``first``..``last``,
both included) and how its date is written:

- ``exact`` / ``day``: one day ("2018-02-14"); with an ``end``, the range ("2018-02-14 –
  2018-02-16");
- ``month``: the whole month ("Feb 2018"); ``year``: the whole year ("2018");
- ``approximate``: the day give or take ``APPROXIMATE_DAYS`` ("~2018-02-20"); drawn as an
  uncertain span, never as a precise point.
"""

from __future__ import annotations

import calendar
import datetime as dt
from dataclasses import dataclass
from datetime import date, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from casefile.store import Event, EvidenceLink, Item

#: Days either side of an approximate date that the timeline's span covers.
APPROXIMATE_DAYS = 3
#: Precisions drawn as a span of uncertainty rather than a point or a bar.
UNCERTAIN_PRECISIONS = ("month", "year", "approximate")


@dataclass(frozen=True)
class TimelineEvent:
    """One event as the timeline shows it.

    ``date``/``end`` are the stored dates (``end`` only for ranges); ``first``/``last`` the
    days the drawing covers (both included; None when the event has no date); ``label`` the
    date as written ("~2018-02-20", "Feb 2018", "2018-02-14 – 2018-02-16"); ``place`` the
    place's name; ``evidence`` the number of evidence links.
    """

    id: int
    title: str
    date: dt.date | None
    precision: str
    end: dt.date | None
    first: dt.date | None
    last: dt.date | None
    label: str
    place: str | None = None
    description: str | None = None
    evidence: int = 0
    confidential: bool = False

    @property
    def approximate(self) -> bool:
        """True when the date is not known to the day (month, year or approximate)."""
        return self.precision in UNCERTAIN_PRECISIONS

    @property
    def is_range(self) -> bool:
        """True for an event with an end after its start (drawn as a bar)."""
        return self.date is not None and self.end is not None and self.end > self.date


def date_span(day: date | None, precision: str, end: date | None = None
              ) -> tuple[date | None, date | None]:
    """The first and last day (both included) an event's date covers; (None, None) undated."""
    if day is None:
        return None, None
    if precision == "month":
        first = day.replace(day=1)
        last = day.replace(day=calendar.monthrange(day.year, day.month)[1])
    elif precision == "year":
        first, last = date(day.year, 1, 1), date(day.year, 12, 31)
    elif precision == "approximate":
        first = day - timedelta(days=APPROXIMATE_DAYS)
        last = day + timedelta(days=APPROXIMATE_DAYS)
    else:
        first = last = day
    if end is not None and end > last:
        last = end
    return first, last


def date_label(day: date | None, precision: str, end: date | None = None) -> str:
    """The date as the timeline writes it (see module docstring); "no date" when undated."""
    if day is None:
        return "no date"
    if precision == "month":
        text = day.strftime("%b %Y")
    elif precision == "year":
        text = str(day.year)
    elif precision == "approximate":
        text = "~" + day.isoformat()
    else:
        text = day.isoformat()
    if end is not None and end > day:
        text += " \u2013 " + end.isoformat()
    return text


def timeline(session: Session, case_id: int) -> list[TimelineEvent]:
    """The case's events in date order (by first day covered, then date, then title); undated
    events last. Reads only."""
    counts = (select(EvidenceLink.item_id, func.count().label("n"))
              .group_by(EvidenceLink.item_id).subquery())
    rows = session.execute(
        select(Event, counts.c.n).outerjoin(counts, counts.c.item_id == Event.id)
        .where(Event.case_id == case_id)
    ).all()
    place_ids = {e.place_id for e, _n in rows if e.place_id}
    places = {i.id: i.title for i in session.scalars(
        select(Item).where(Item.id.in_(place_ids)))} if place_ids else {}
    out = []
    for event, n in rows:
        first, last = date_span(event.date, event.precision, event.end)
        out.append(TimelineEvent(
            id=event.id, title=event.title, date=event.date, precision=event.precision,
            end=event.end, first=first, last=last,
            label=date_label(event.date, event.precision, event.end),
            place=places.get(event.place_id) if event.place_id else None,
            description=event.description, evidence=int(n or 0),
            confidential=event.confidential,
        ))
    out.sort(key=lambda e: (e.first is None, e.first or date.min, e.date or date.min,
                            e.title.casefold(), e.id))
    return out
