"""A case as tables, one per section, for the CSV and Excel exports (:mod:`casefile.export.sheets`).

Shape: :func:`case_tables` returns ``list[Table]`` in a fixed section order (people,
organizations, places, documents, events, follow-ups, claims, evidence links); each table has a
header and rows of plain values (``str``, ``int``, ``bool``, ISO 8601 date strings or ``None``).

Confidentiality follows the brief's export profiles (:mod:`casefile.services.disclosure`,
ARCHITECTURE.md, "Exports protect confidential sources"): under the default profile
("editor") confidential items are not rows, evidence quoted from a confidential document is not a
row, and a reference to a withheld item reads "[withheld]", as do its names and aliases inside
the text of the rows that remain; "legal" and "public" name confidential people "Source A"…
(their own row then shows only the pseudonym, without role or affiliation;
of their evidence links only supports / contradicts rows, without start and end offsets,
which would point at the name in the document: the rule of
:mod:`casefile.services.disclosure`, "What travels with a pseudonym"), "public" also leaves
out notes, and profiles without contact details print none; ``include_confidential`` is the
"internal" profile.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session, with_polymorphic

from casefile.errors import ValidationError
from casefile.export.profiles import ExportProfile, get_profile
from casefile.export.sheets import Table
from casefile.services.audit import log_change
from casefile.services.cases import get_case
from casefile.services.disclosure import case_evidenced, case_links, disclosure_for
from casefile.store.items import Claim, Document, Event, Item, Organization, Person, Place, Question

SECTIONS = ("people", "organizations", "places", "documents", "events", "follow-ups",
            "claims", "evidence links")


def _iso(value: object) -> str | None:
    return value.isoformat() if value is not None else None  # type: ignore[attr-defined]


def case_tables(session: Session, case_id: int, *, include_confidential: bool = False,
                profile: str | ExportProfile | None = None) -> list[Table]:
    """Every section of the case as a :class:`Table`, in :data:`SECTIONS` order, filtered by
    the export ``profile`` (module docstring; None: "editor", or "internal" with
    ``include_confidential``). Raises ``NotFoundError`` for an unknown case, ValidationError
    for an unknown profile or ``include_confidential`` with another profile."""
    get_case(session, case_id)
    chosen = get_profile(profile, include_confidential=include_confidential)
    every_kind = with_polymorphic(Item, "*")
    items: list[Item] = list(session.scalars(
        select(every_kind).where(every_kind.case_id == case_id).order_by(every_kind.id)))
    d = disclosure_for(items, chosen, evidenced=case_evidenced(session, case_id))
    hidden = d.hidden
    red = d.substitute
    by_id = {i.id: i for i in items}
    shown = [i for i in items if i.id not in hidden]

    def ref(item_id: int | None) -> str | None:
        return d.name_of(by_id.get(item_id)) if item_id is not None else None

    def notes(item: Item) -> str | None:
        return red(item.notes) if chosen.notes else None

    def aliases(values: Sequence[str] | None) -> str:
        return "; ".join(red(a) or "" for a in values or [])

    def of(kind: type[Item]) -> list[Item]:
        return [i for i in shown if isinstance(i, kind)]

    people = Table("people", ["id", "name", "aliases", "role", "affiliation", "contact",
                              "confidential", "notes"])
    for p in of(Person):
        assert isinstance(p, Person)
        if p.id in d.pseudonyms:  # a confidential source under a pseudonym: nothing else
            details = chosen.source_details
            people.rows.append([p.id, d.pseudonyms[p.id], "", red(p.role) if details else None,
                                ref(p.affiliation_id) if details else None, None, True, None])
            continue
        people.rows.append([p.id, d.name_of(p), aliases(p.aliases), red(p.role),
                            ref(p.affiliation_id), d.contact_of(p), p.confidential, notes(p)])
    orgs = Table("organizations", ["id", "name", "aliases", "kind", "jurisdiction", "part of",
                                   "confidential", "notes"])
    for o in of(Organization):
        assert isinstance(o, Organization)
        orgs.rows.append([o.id, d.name_of(o), aliases(o.aliases), red(o.org_kind),
                          red(o.jurisdiction),
                          ref(o.parent_id), o.confidential, notes(o)])
    places = Table("places", ["id", "name", "aliases", "confidential", "notes"])
    for pl in of(Place):
        assert isinstance(pl, Place)
        places.rows.append([pl.id, d.name_of(pl), aliases(pl.aliases), pl.confidential,
                            notes(pl)])
    docs = Table("documents", ["id", "title", "kind", "author", "outlet", "published",
                               "retrieved", "status", "reading", "url", "file name",
                               "sha256", "confidential", "notes"])
    for doc in of(Document):
        assert isinstance(doc, Document)
        docs.rows.append([doc.id, red(doc.title), doc.doc_kind, red(doc.author),
                          red(doc.outlet), _iso(doc.published), _iso(doc.retrieved), doc.status,
                          doc.reading, d.url(doc.url), red(doc.filename), doc.file_sha256,
                          doc.confidential, notes(doc)])
    events = Table("events", ["id", "title", "date", "precision", "end", "place",
                              "description", "confidential", "notes"])
    for e in of(Event):
        assert isinstance(e, Event)
        events.rows.append([e.id, red(e.title), _iso(e.date), e.precision, _iso(e.end),
                            ref(e.place_id), red(e.description), e.confidential, notes(e)])
    follow = Table("follow-ups", ["id", "question", "kind", "status", "due", "ask",
                                  "answer", "answered on", "confidential", "notes"])
    for q in of(Question):
        assert isinstance(q, Question)
        follow.rows.append([q.id, red(q.title), q.question_kind, q.status, _iso(q.due),
                            ref(q.ask_id), red(q.answer), _iso(q.answered_at), q.confidential,
                            notes(q)])
    claims = Table("claims", ["id", "statement", "status", "status reason", "attributed to",
                              "via", "confidential", "notes"])
    for c in of(Claim):
        assert isinstance(c, Claim)
        who = ref(c.attributed_to_id) if c.attributed_to_id else red(c.attributed_to_text)
        claims.rows.append([c.id, red(c.statement or c.title), c.status, red(c.status_reason),
                            who, ref(c.via_id), c.confidential, notes(c)])
    links = Table("evidence links", ["id", "item", "item kind", "relation", "document",
                                     "page", "start", "end", "quote", "note"])
    for link, passage, doc_id in case_links(session, case_id):
        if link.item_id in hidden or (doc_id is not None and doc_id in hidden) \
                or not d.evidence_shown(link.item_id, link.relation):
            continue
        item = by_id.get(link.item_id)
        # a source's offsets would point at the name in the document
        span = passage if link.item_id not in d.pseudonyms else None
        links.rows.append([
            link.id, ref(link.item_id), item.kind if item else None, link.relation,
            ref(doc_id), passage.page if passage else None,
            span.start if span else None, span.end if span else None,
            d.quote(passage.quote) if passage else None,
            red(link.note) if chosen.notes else None])
    tables = [people, orgs, places, docs, events, follow, claims, links]
    _check(tables, d.protected)
    return tables


def _check(tables: list[Table], protected: Sequence[str]) -> None:
    """Refuse tables that still hold a protected string (the self-check the brief makes on its
    PDF, :mod:`casefile.export.pdf_check`, made here on the cells before anything is written).
    Raises ProtectedStringFoundError naming the string, the section, the row and the column."""
    if not protected:
        return
    from casefile.export.pdf_check import ProtectedStringFoundError, find_in_places

    places = ((f"{t.name} section, row {n}, column {t.columns[c]!r}", str(v))
              for t in tables for n, row in enumerate(t.rows, start=2)
              for c, v in enumerate(row) if isinstance(v, str) and v)
    found = find_in_places(places, protected)
    if found is not None:
        raise ProtectedStringFoundError(found.text, found.place, deleted=False)


def _protected(session: Session, case_id: int, profile: str | ExportProfile | None,
               include_confidential: bool) -> tuple[str, ...]:
    """The strings the written files are searched for (``Disclosure.protected``)."""
    from casefile.services.disclosure import case_disclosure

    return case_disclosure(session, case_id, get_profile(
        profile, include_confidential=include_confidential)).protected


def _profile_name(profile: str | ExportProfile | None, include_confidential: bool) -> str:
    return get_profile(profile, include_confidential=include_confidential).name


def export_csv(session: Session, case_id: int, folder: Path, *,
               include_confidential: bool = False,
               profile: str | ExportProfile | None = None) -> list[Path]:
    """Write the case as one CSV file per section into ``folder`` (see
    :func:`casefile.export.sheets.write_csv`); logs ``tables.export``. Returns the paths written.
    The files are read back and searched for the strings the profile protects (names,
    descriptions, contact details: ``Disclosure.protected``). Raises ``NotFoundError`` (case),
    ``ProtectedStringFoundError`` (one was found: the files are deleted; the message names the
    string, the file, row and column) or ``ExportError`` (folder not writable)."""
    from casefile.export.file_check import check_written, csv_places
    from casefile.export.sheets import write_csv

    protected = _protected(session, case_id, profile, include_confidential)
    paths = write_csv(case_tables(session, case_id, include_confidential=include_confidential,
                                profile=profile),
                      folder)
    check_written(paths, csv_places(paths), protected)
    log_change(session, "tables.export", case_id=case_id, summary=str(folder),
               data={"format": "csv", "profile": _profile_name(profile, include_confidential)})
    return paths


def export_xlsx(session: Session, case_id: int, target: Path, *,
                include_confidential: bool = False,
                profile: str | ExportProfile | None = None) -> Path:
    """Write the case as one .xlsx workbook, a sheet per section (see
    :func:`casefile.export.sheets.write_xlsx`); logs ``tables.export``. The workbook is read
    back and every cell searched for the strings the profile protects. Raises
    ``NotFoundError`` (case), ``ProtectedStringFoundError`` (one was found: the file is
    deleted; the message names the string, the sheet and the cell) or ``ExportError`` (file
    not writable)."""
    from casefile.export.file_check import check_written, xlsx_places
    from casefile.export.sheets import write_xlsx

    protected = _protected(session, case_id, profile, include_confidential)
    path = write_xlsx(case_tables(session, case_id, include_confidential=include_confidential,
                                profile=profile),
                      target)
    check_written([path], xlsx_places(path), protected)
    log_change(session, "tables.export", case_id=case_id, summary=str(target),
               data={"format": "xlsx", "profile": _profile_name(profile, include_confidential)})
    return path


def export_tables(session: Session, case_id: int, out: Path, fmt: str, *,
                  include_confidential: bool = False,
                  profile: str | ExportProfile | None = None) -> Path:
    """The window's one call: ``fmt`` "xlsx" writes the workbook ``out`` (:func:`export_xlsx`),
    "csv" the CSV files into the folder ``out`` (:func:`export_csv`). Returns ``out``. Raises
    ValidationError for another format."""
    if fmt == "xlsx":
        return export_xlsx(session, case_id, out, include_confidential=include_confidential,
                           profile=profile)
    if fmt == "csv":
        export_csv(session, case_id, out, include_confidential=include_confidential,
                   profile=profile)
        return out
    raise ValidationError(f"export as csv or xlsx, not {fmt!r}")
