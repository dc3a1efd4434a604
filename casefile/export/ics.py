"""Follow-ups as an iCalendar file (RFC 5545) for calendar apps; no Qt, no database.

The services (``casefile.services.calendar``) turn a case's dated follow-ups into
:class:`CalendarEntry` values; :func:`render_ics` writes them with the ``icalendar`` package.

Choices, and why:

- **One all-day VEVENT per dated follow-up, on its due date** (the default). Every calendar a
  reporter uses (Apple Calendar, Google Calendar, Outlook, Thunderbird) shows VEVENTs; VTODO
  tasks are dropped on import by Google Calendar and Outlook. ``component="todo"`` writes
  VTODOs with ``DUE`` instead, for task apps (Thunderbird, Apple Reminders via CalDAV).
- **Stable UIDs**: ``UID`` is ``<question uid>@casefile``, from a random UUID stored on the
  question when it is created, so it does not depend on the workspace, the database ids or the
  case title, and a second export of the same follow-up carries the same UID: calendar apps
  then update the entry instead of adding a duplicate (RFC 5545, 3.8.4.7).
- ``SEQUENCE`` is the question's edit counter (its optimistic-locking version minus one), so it
  grows with every change and apps take the newer copy (RFC 5545, 3.8.7.4); ``DTSTAMP`` is the
  time of the export (UTC); ``LAST-MODIFIED`` the question's last change.
- Closed follow-ups stay in the file so a re-import updates them: an answered one is kept with
  "Answered:" before its summary (VTODO: ``STATUS:COMPLETED``), a dropped one is
  ``STATUS:CANCELLED``. All-day events are ``TRANSP:TRANSPARENT`` (they do not block time).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from casefile.export.errors import ExportError

if TYPE_CHECKING:  # icalendar loads when a calendar is first written (start-up time)
    from icalendar import Calendar, Event, Todo

PRODID = "-//Casefile//Casefile follow-ups//EN"
UID_DOMAIN = "casefile"
COMPONENTS = ("event", "todo")

_TODO_STATUS = {"open": "NEEDS-ACTION", "waiting": "IN-PROCESS", "answered": "COMPLETED",
                "dropped": "CANCELLED"}


def ical_uid(question_uid: str) -> str:
    """The iCalendar UID of a follow-up: ``<question uid>@casefile``."""
    return f"{question_uid}@{UID_DOMAIN}"


@dataclass(frozen=True)
class CalendarEntry:
    """One dated follow-up for the calendar.

    ``uid`` is the full iCalendar UID (see :func:`ical_uid`); ``due`` the due date; ``status``
    the follow-up's status (open, waiting, answered, dropped); ``description`` plain text, one
    fact per line; ``sequence`` ≥ 0; ``last_modified`` naive UTC or None; ``answered_on`` the
    date of the answer, if answered.
    """

    uid: str
    summary: str
    due: date
    description: str
    status: str = "open"
    kind: str = "question"
    sequence: int = 0
    last_modified: datetime | None = None
    answered_on: date | None = None
    categories: tuple[str, ...] = field(default=("Casefile",))


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def build_calendar(
    entries: Iterable[CalendarEntry],
    *,
    name: str,
    component: str = "event",
    stamp: datetime | None = None,
) -> Calendar:
    """The icalendar Calendar of ``entries`` (see the module docstring for the mapping).

    ``name`` becomes X-WR-CALNAME; ``stamp`` (default now, UTC) every DTSTAMP. Raises
    ValueError for a ``component`` other than "event" or "todo".
    """
    from icalendar import Calendar, Event, Todo

    if component not in COMPONENTS:
        raise ValueError(f"component must be one of {', '.join(COMPONENTS)}; got {component!r}")
    stamp = _utc(stamp or datetime.now(UTC))
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", name)
    for entry in sorted(entries, key=lambda e: (e.due, e.uid)):
        summary = entry.summary
        if component == "event":
            comp: Event | Todo = Event()
            if entry.status == "answered":
                summary = "Answered: " + summary
            comp.add("dtstart", entry.due)
            comp.add("dtend", entry.due + timedelta(days=1))
            comp.add("transp", "TRANSPARENT")
            comp.add("status", "CANCELLED" if entry.status == "dropped" else "CONFIRMED")
        else:
            comp = Todo()
            comp.add("due", entry.due)
            comp.add("status", _TODO_STATUS.get(entry.status, "NEEDS-ACTION"))
            if entry.status == "answered" and entry.answered_on is not None:
                comp.add("completed", datetime(entry.answered_on.year, entry.answered_on.month,
                                               entry.answered_on.day, tzinfo=UTC))
        comp.add("uid", entry.uid)
        comp.add("dtstamp", stamp)
        comp.add("sequence", max(entry.sequence, 0))
        if entry.last_modified is not None:
            comp.add("last-modified", _utc(entry.last_modified))
        comp.add("summary", summary)
        comp.add("description", entry.description)
        comp.add("categories", list(entry.categories))
        cal.add_component(comp)
    return cal


def render_ics(
    entries: Iterable[CalendarEntry],
    out: Path | BinaryIO,
    *,
    name: str,
    component: str = "event",
    stamp: datetime | None = None,
    protected: Iterable[str] = (),
) -> bytes:
    """Write the calendar of ``entries`` to ``out`` (a path or a binary file) and return its
    bytes (UTF-8, CRLF line ends, lines folded at 75 octets, as RFC 5545 asks).

    Self-check: when ``protected`` strings are given, the calendar is read back
    (:func:`ics_places`) before anything is written; if one of them is in it, nothing is
    written (an earlier file at ``out`` stays as it was) and ProtectedStringFoundError names
    the string and the place ("SUMMARY of the entry due 2024-03-01", "calendar name"...).

    Raises ExportError when the file cannot be written; ProtectedStringFoundError (an
    ExportError) when the self-check finds a protected string.
    """
    from casefile.export.pdf_check import ProtectedStringFoundError, find_in_places

    data = build_calendar(entries, name=name, component=component, stamp=stamp).to_ical()
    protected = list(protected)
    if protected:
        found = find_in_places(ics_places(data), protected)
        if found is not None:
            raise ProtectedStringFoundError(found.text, found.place, deleted=False)
    if isinstance(out, Path):
        from casefile.export.files import write_private

        try:
            write_private(out, lambda tmp: tmp.write_bytes(data), make_folder=False)
        except OSError as exc:
            raise ExportError(f"cannot write {out}: {exc.strerror or exc}") from exc
    else:
        out.write(data)
    return data


def ics_places(data: bytes) -> Iterator[tuple[str, str]]:
    """Every text a calendar app shows of an .ics file's bytes, read back with icalendar (lines
    unfolded, escapes undone), as ``(place, text)`` pairs: "calendar name", then for each entry
    every property (SUMMARY, DESCRIPTION, CATEGORIES...: "SUMMARY of the entry due
    2024-03-01").

    Raises ExportError when the bytes are not a calendar.
    """
    from icalendar import Calendar

    try:
        cal = Calendar.from_ical(data)
    except ValueError as exc:
        raise ExportError(f"cannot re-read the written calendar: {exc}") from exc
    for key in ("X-WR-CALNAME", "PRODID"):
        if key in cal:
            yield "calendar name" if key == "X-WR-CALNAME" else key, str(cal[key])
    for comp in cal.walk():
        if comp.name not in ("VEVENT", "VTODO"):
            continue
        when = comp.get("DTSTART") or comp.get("DUE")
        label = f"the entry due {when.dt.isoformat()}" if when is not None else "an entry"
        for key, value in comp.property_items(recursive=False):
            if key in ("BEGIN", "END"):
                continue
            values = value if isinstance(value, list) else [value]
            text = " ".join(_unescape(v.to_ical()) if hasattr(v, "to_ical") else str(v)
                            for v in values)
            yield f"{key} of {label}", text


def _unescape(raw: bytes | str) -> str:
    """An iCalendar TEXT value as shown (RFC 5545, 3.3.11: ``\\,`` ``\\;`` ``\\n``)."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    return (text.replace("\\n", "\n").replace("\\N", "\n").replace("\\,", ",")
            .replace("\\;", ";").replace("\\\\", "\\"))
