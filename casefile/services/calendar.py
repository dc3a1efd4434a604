"""Export a case's follow-ups to an .ics calendar file (the window and ``followups --ics``).

Which follow-ups: every dated one, open and waiting and also answered and dropped (so that a
re-import updates an entry the reporter already has, instead of leaving it stale); undated ones
have no place on a calendar and are left out. The entries' format and UIDs are described in
:mod:`casefile.export.ics`.

Confidentiality (the brief's rules, ARCHITECTURE.md, "Exports protect confidential sources";
calendars are often synced to servers) follows the export profile
(:mod:`casefile.services.disclosure`): under every profile but internal, follow-ups flagged
confidential are left out, a confidential person or organization to ask is shown as
"[withheld]" without contact details, passages of confidential documents are not quoted, and
withheld names are replaced in the texts that remain; under legal and public a confidential
person is "Source A"… (the same letter as in the brief), no contact detail is printed, and
public leaves out the notes. The file is read back and refused if a protected string is in it.

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
from casefile.services.cases import get_case
from casefile.services.disclosure import (
    Disclosure,
    ExportProfile,
    case_evidenced,
    disclosure_for,
    get_profile,
)
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


def _who(item: Item | None, by_id: dict[int, Item], shown: Disclosure) -> str | None:
    """Whom to ask, as the profile allows: pseudonym or "[withheld]" without details, else
    the name with role, affiliation and (if the profile prints them) contact details."""
    if item is None:
        return None
    name = shown.name_of(item) or ""
    if not shown.shows(item.id):
        return name
    details: list[str] = []
    if isinstance(item, Person) and (item.id not in shown.pseudonyms
                                     or shown.profile.source_details):
        if item.role:
            details.append(shown.substitute(item.role) or "")
        if item.affiliation_id and item.affiliation_id in by_id:
            details.append(shown.name_of(by_id[item.affiliation_id]) or "")
    elif isinstance(item, Organization) and item.org_kind:
        details.append(shown.substitute(item.org_kind) or "")
    text = name + (f" ({', '.join(details)})" if details else "")
    contact = shown.contact_of(item)
    if contact:
        text += " \u2014 contact: " + contact
    return text


def calendar_entries(
    session: Session, case_id: int, *, include_confidential: bool = False,
    profile: str | ExportProfile | None = None,
) -> tuple[list[CalendarEntry], int, int]:
    """The calendar entries of a case's dated follow-ups under ``profile`` (None: the default,
    or internal with ``include_confidential``), with the numbers of follow-ups left out as
    undated and as confidential: ``(entries, undated, withheld)``. Raises ValidationError for
    an unknown profile."""
    return _entries(session, case_id, get_profile(
        profile, include_confidential=include_confidential))[:3]


def _entries(
    session: Session, case_id: int, profile: ExportProfile,
) -> tuple[list[CalendarEntry], int, int, Disclosure]:
    case = get_case(session, case_id)
    items = list(session.scalars(select(Item).where(Item.case_id == case_id)))
    by_id = {i.id: i for i in items}
    shown = disclosure_for(items, profile, evidenced=case_evidenced(session, case_id))
    red, quote = shown.substitute, shown.quote
    entries: list[CalendarEntry] = []
    undated = withheld = 0
    for f in followups(session, case_id, include_closed=True):
        if not shown.shows(f.id):
            withheld += 1
            continue
        if f.due is None or f.uid is None:
            undated += 1
            continue
        q = by_id[f.id]
        lines = [f"Kind: {f.kind}",
                 f"Status: {f.status}" + (f" since {f.status_since}" if f.status_since else "")]
        ask = _who(by_id.get(f.ask_id) if f.ask_id else None, by_id, shown)
        if ask:
            lines.append(f"Ask: {ask}")
        for ev in evidence_for(session, f.id):
            if ev.quote and shown.shows(ev.document_id):
                lines.append(f"Raised by: \u201c{quote(ev.quote)}\u201d \u2014 "
                             f"{red(ev.document_title)}")
        if f.status == "answered":
            head = "Answer" + (f" ({f.answered_on})" if f.answered_on else "")
            lines.append(f"{head}: {red(f.answer) or '(no text)'}")
            src = f.answered_by
            if src is not None and shown.shows(src.document_id):
                quoted = f"\u201c{quote(src.quote)}\u201d \u2014 " if src.quote else ""
                lines.append(f"Answered by: {quoted}{red(src.document_title)}")
        if q.notes and profile.notes:
            lines.append(f"Notes: {red(q.notes)}")
        lines.append(f"Case: {case.title}")
        entries.append(CalendarEntry(
            uid=ical_uid(f.uid), summary=red(f.text) or f.text, due=date.fromisoformat(f.due),
            description="\n".join(lines), status=f.status, kind=f.kind,
            sequence=max(q.version - 1, 0), last_modified=q.updated,
            answered_on=date.fromisoformat(f.answered_on) if f.answered_on else None,
            categories=("Casefile", f.kind),
        ))
    return entries, undated, withheld, shown


def export_followups_ics(
    session: Session,
    case_id: int,
    out: Path | BinaryIO,
    *,
    include_confidential: bool = False,
    profile: str | ExportProfile | None = None,
    component: str = "event",
    stamp: datetime | None = None,
) -> CalendarExport:
    """Write the case's dated follow-ups to ``out`` as an .ics file; returns what was written.

    ``component`` is "event" (all-day VEVENTs on the due dates, the default) or "todo"
    (VTODOs with DUE); ``stamp`` the export time for DTSTAMP (default now); ``profile`` the
    export profile (:data:`casefile.services.disclosure.PROFILES`; None: editor, or internal
    with ``include_confidential``). The calendar is read back before it is written and refused
    if it holds a string the profile protects (nothing is written then).

    Raises NotFoundError for an unknown case, ValidationError for another component or an
    unknown profile, ProtectedStringFoundError (naming the string and the entry) when the
    self-check finds a protected string, ExportError when the file cannot be written.
    """
    if component not in ("event", "todo"):
        raise ValidationError(f"calendar entries are events or todos, not {component!r}")
    case = get_case(session, case_id)
    chosen = get_profile(profile, include_confidential=include_confidential)
    entries, undated, withheld, shown = _entries(session, case_id, chosen)
    data = render_ics(entries, out, name=f"Casefile: {case.title}", component=component,
                      stamp=stamp, protected=shown.protected)
    log_change(session, "followups.ics", case_id=case_id,
               summary=str(out) if isinstance(out, Path) else "calendar",
               data={"entries": len(entries), "include_confidential": chosen.confidential_items,
                     "profile": chosen.name})
    return CalendarExport(len(entries), tuple(e.uid for e in sorted(
        entries, key=lambda e: (e.due, e.uid))), undated, withheld, data)
