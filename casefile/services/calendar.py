"""Export a case's follow-ups to an .ics calendar file (the window and ``followups --ics``).

Which follow-ups: every dated one, open and waiting and also answered and dropped (so that a
re-import updates an entry the reporter already has, instead of leaving it stale); undated ones
have no place on a calendar and are left out. The entries' format and UIDs are described in
:mod:`casefile.export.ics`.

Confidentiality (the brief's rule, DESIGN.md: "exports that protect confidential sources by
default"; calendars are often synced to servers): unless ``include_confidential`` is set,
follow-ups flagged confidential are left out, a confidential person or organization to ask is
shown as "[withheld]" without contact details, passages of confidential documents are not
quoted, and withheld names are replaced in the texts that remain.

Each entry's description holds, one per line: the kind, the status and since when, whom to ask
(with role, affiliation and contact details), the passage that raised it, the answer (date,
text and source) and the case.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import BinaryIO

from sqlalchemy import select
from sqlalchemy.orm import Session

from casefile.errors import ValidationError
from casefile.export.ics import CalendarEntry, ical_uid, render_ics
from casefile.services.audit import log_change
from casefile.services.brief import WITHHELD, _Redactor, _withheld_names
from casefile.services.cases import get_case
from casefile.services.evidence import evidence_for
from casefile.services.questions import followups
from casefile.store import Item, Organization, Person


@dataclass(frozen=True)
class CalendarExport:
    """What an export wrote: the number of entries, their UIDs (in file order), and the
    follow-ups left out because they have no due date or are confidential."""

    entries: int
    uids: tuple[str, ...]
    undated: int
    withheld: int
    data: bytes

    def as_json(self) -> dict[str, object]:
        """``{"entries", "uids", "undated", "withheld"}`` (``followups --ics --json``)."""
        return {"entries": self.entries, "uids": list(self.uids), "undated": self.undated,
                "withheld": self.withheld}


def _who(item: Item | None, by_id: dict[int, Item], hidden: set[int]) -> str | None:
    if item is None:
        return None
    if item.id in hidden:
        return WITHHELD
    details: list[str] = []
    if isinstance(item, Person):
        if item.role:
            details.append(item.role)
        if item.affiliation_id and item.affiliation_id in by_id:
            details.append(WITHHELD if item.affiliation_id in hidden
                           else by_id[item.affiliation_id].title)
    elif isinstance(item, Organization) and item.org_kind:
        details.append(item.org_kind)
    text = item.title + (f" ({', '.join(details)})" if details else "")
    contact = getattr(item, "contact", None)
    if contact and contact.strip():
        text += " \u2014 contact: " + " ".join(contact.split())
    return text


def calendar_entries(
    session: Session, case_id: int, *, include_confidential: bool = False,
) -> tuple[list[CalendarEntry], int, int]:
    """The calendar entries of a case's dated follow-ups, with the numbers of follow-ups left
    out as undated and as confidential: ``(entries, undated, withheld)``."""
    case = get_case(session, case_id)
    items = list(session.scalars(select(Item).where(Item.case_id == case_id)))
    by_id = {i.id: i for i in items}
    hidden = set() if include_confidential else {i.id for i in items if i.confidential}
    red = _Redactor(_withheld_names([i for i in items if i.id in hidden]))
    entries: list[CalendarEntry] = []
    undated = withheld = 0
    for f in followups(session, case_id, include_closed=True):
        if f.id in hidden:
            withheld += 1
            continue
        if f.due is None or f.uid is None:
            undated += 1
            continue
        q = by_id[f.id]
        lines = [f"Kind: {f.kind}",
                 f"Status: {f.status}" + (f" since {f.status_since}" if f.status_since else "")]
        ask = _who(by_id.get(f.ask_id) if f.ask_id else None, by_id, hidden)
        if ask:
            lines.append(f"Ask: {red(ask)}")
        for ev in evidence_for(session, f.id):
            if ev.quote and (include_confidential or not ev.confidential_source):
                lines.append(f"Raised by: \u201c{red(ev.quote)}\u201d \u2014 "
                             f"{red(ev.document_title)}")
        if f.status == "answered":
            head = "Answer" + (f" ({f.answered_on})" if f.answered_on else "")
            lines.append(f"{head}: {red(f.answer) or '(no text)'}")
            src = f.answered_by
            if src is not None and (include_confidential or src.document_id not in hidden):
                quoted = f"\u201c{red(src.quote)}\u201d \u2014 " if src.quote else ""
                lines.append(f"Answered by: {quoted}{red(src.document_title)}")
        if q.notes:
            lines.append(f"Notes: {red(q.notes)}")
        lines.append(f"Case: {case.title}")
        entries.append(CalendarEntry(
            uid=ical_uid(f.uid), summary=red(f.text) or f.text, due=date.fromisoformat(f.due),
            description="\n".join(lines), status=f.status, kind=f.kind,
            sequence=max(q.version - 1, 0), last_modified=q.updated,
            answered_on=date.fromisoformat(f.answered_on) if f.answered_on else None,
            categories=("Casefile", f.kind),
        ))
    return entries, undated, withheld


def export_followups_ics(
    session: Session,
    case_id: int,
    out: Path | BinaryIO,
    *,
    include_confidential: bool = False,
    component: str = "event",
    stamp: datetime | None = None,
) -> CalendarExport:
    """Write the case's dated follow-ups to ``out`` as an .ics file; returns what was written.

    ``component`` is "event" (all-day VEVENTs on the due dates, the default) or "todo"
    (VTODOs with DUE); ``stamp`` the export time for DTSTAMP (default now). Raises
    NotFoundError for an unknown case, ValidationError for another component, ExportError
    when the file cannot be written.
    """
    if component not in ("event", "todo"):
        raise ValidationError(f"calendar entries are events or todos, not {component!r}")
    case = get_case(session, case_id)
    entries, undated, withheld = calendar_entries(
        session, case_id, include_confidential=include_confidential)
    data = render_ics(entries, out, name=f"Casefile: {case.title}", component=component,
                      stamp=stamp)
    log_change(session, "followups.ics", case_id=case_id,
               summary=str(out) if isinstance(out, Path) else "calendar",
               data={"entries": len(entries), "include_confidential": include_confidential})
    return CalendarExport(len(entries), tuple(e.uid for e in sorted(
        entries, key=lambda e: (e.due, e.uid))), undated, withheld, data)
