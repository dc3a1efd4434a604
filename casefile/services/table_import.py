"""People and organizations from a spreadsheet (CSV or .xlsx), with a column-mapping step.

The reporter's path: :func:`read_table` shows the file's header and first rows, and
:func:`guess_mapping` proposes which column holds which field; the reporter corrects the
mapping; :func:`map_rows` turns the rows into records (plain dicts of item fields) and
:func:`import_records` (the user action, undoable) stores them.

Records are dicts with ``title`` (required) and any of: ``aliases`` (list of str), ``notes``,
``confidential`` (bool), and for people ``role``, ``contact``, ``affiliation`` (an organization's
name), for organizations ``org_kind``, ``jurisdiction``. A record whose name (case and spacing
aside) is the title or an alias of an item of the same kind already in the case merges into it:
empty fields are filled, new aliases added, nothing overwritten. An affiliation names an
organization of the case (by title or alias) or a new one made for it.

Errors: :class:`~casefile.errors.ValidationError` for an unreadable file, an unknown field or
a mapping without a name column; nothing is stored then.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from casefile.errors import ValidationError
from casefile.services import items
from casefile.services.changes import Changes, Step, action, changes
from casefile.store import Organization, Person

KINDS = ("person", "organization")
#: The fields a column can map to, per kind ("title" is the name).
MAPPABLE: dict[str, tuple[str, ...]] = {
    "person": ("title", "aliases", "role", "affiliation", "contact", "notes", "confidential"),
    "organization": ("title", "aliases", "org_kind", "jurisdiction", "notes", "confidential"),
}
#: Header words that suggest a field (compared case-folded, spaces and punctuation aside).
_HINTS: dict[str, tuple[str, ...]] = {
    "title": ("name", "fullname", "person", "organization", "organisation", "entity", "title"),
    "aliases": ("aliases", "alias", "aka", "alsoknownas", "othernames"),
    "role": ("role", "position", "jobtitle", "job", "function", "rank"),
    "affiliation": ("affiliation", "employer", "worksfor", "organization", "organisation",
                    "company", "agency"),
    "contact": ("contact", "email", "phone", "telephone", "mobile"),
    "org_kind": ("kind", "type", "category", "sector"),
    "jurisdiction": ("jurisdiction", "country", "state"),
    "notes": ("notes", "note", "comments", "comment", "description"),
    "confidential": ("confidential", "private", "protected"),
}
MAX_ROWS = 100_000
_TRUE = {"yes", "y", "true", "1", "x", "confidential"}


@dataclass(frozen=True)
class SheetRows:
    """A spreadsheet as read: ``columns`` (header labels) and ``rows`` (lists of str, each as
    long as ``columns``)."""

    columns: list[str]
    rows: list[list[str]]


def _squash(label: str) -> str:
    return "".join(c for c in label.casefold() if c.isalnum())


def read_table(path: Path) -> SheetRows:
    """The header and rows of a CSV file (UTF-8 with or without BOM, else Windows-1252;
    delimiter guessed among , ; tab) or of the first sheet of an .xlsx. Cells guarded against
    formula injection by Casefile's own CSV export ("'=…") are read back unguarded. Raises
    ValidationError for a file that cannot be read, an empty file, a file over the import size
    limit (200 MB), an .xlsx that would expand too much (a zip bomb, see
    :func:`casefile.ingest.limits.check_zip`) or over ``MAX_ROWS`` rows."""
    from casefile.export.sheets import unguard
    from casefile.ingest import DEFAULT_MAX_BYTES
    from casefile.ingest.limits import size_text

    try:
        size = path.stat().st_size
        if size > DEFAULT_MAX_BYTES:
            raise ValidationError(f"{path.name} is {size_text(size)}, over the "
                                  f"{size_text(DEFAULT_MAX_BYTES)} limit for imports")
        data = path.read_bytes()
    except OSError as exc:
        raise ValidationError(f"cannot read {path.name}: {exc.strerror}") from exc
    if path.suffix.lower() == ".xlsx":
        grid = _xlsx_grid(data, path.name)
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("cp1252", errors="replace")
        try:
            dialect: Any = csv.Sniffer().sniff(text[:8192], delimiters=",;\t")
        except csv.Error:
            dialect = csv.excel
        try:
            grid = [[unguard(cell) for cell in row]
                    for row in csv.reader(io.StringIO(text), dialect)]
        except csv.Error as exc:
            raise ValidationError(f"{path.name} is not a CSV file Casefile can read ({exc}); "
                                  "nothing was imported") from exc
    grid = [row for row in grid if any(cell.strip() for cell in row)]
    if not grid:
        raise ValidationError(f"{path.name} has no rows")
    if len(grid) - 1 > MAX_ROWS:
        raise ValidationError(f"{path.name} has {len(grid) - 1:,} rows; the most Casefile "
                              f"imports at once is {MAX_ROWS:,}")
    columns = [c.strip() or f"column {n}" for n, c in enumerate(grid[0], start=1)]
    width = len(columns)
    for number, row in enumerate(grid[1:], start=2):
        extra = [cell for cell in row[width:] if cell.strip()]
        if extra:  # every later field would land in the wrong column: refuse, say where
            raise ValidationError(
                f"{path.name}: row {number} has {len(row)} fields but the header has {width} "
                "(a comma or semicolon inside a value? put that value in quotes); nothing was "
                "imported")
    rows = [(row + [""] * width)[:width] for row in grid[1:]]
    return SheetRows(columns, rows)


def _xlsx_grid(data: bytes, name: str) -> list[list[str]]:
    from openpyxl import load_workbook

    from casefile.errors import IngestError
    from casefile.ingest.limits import check_zip

    try:
        check_zip(data, name)
    except IngestError as exc:
        if " is damaged " in str(exc):
            raise ValidationError(f"{name} is not a readable .xlsx workbook") from exc
        raise ValidationError(str(exc)) from exc
    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # zipfile, XML and openpyxl errors alike: not a workbook we read
        raise ValidationError(f"{name} is not a readable .xlsx workbook") from exc
    sheet = book.worksheets[0]
    grid = [["" if v is None else str(v) for v in row]
            for row in sheet.iter_rows(values_only=True)]
    book.close()
    return grid


def guess_mapping(columns: Sequence[str], kind: str) -> dict[str, str]:
    """A proposed ``{field: column}`` for ``kind`` from the header labels: a column whose label
    (case-folded, letters and digits only) is one of a field's hint words, first match wins and a
    column maps to one field at most. Raises ValidationError for an unknown kind."""
    if kind not in MAPPABLE:
        raise ValidationError(f"import people or organizations, not {kind!r}")
    out: dict[str, str] = {}
    used: set[str] = set()
    for fld in MAPPABLE[kind]:
        for column in columns:
            if column not in used and _squash(column) in _HINTS.get(fld, ()):
                out[fld] = column
                used.add(column)
                break
    return out


def _split_aliases(value: str) -> list[str]:
    parts = value.replace("|", ";").split(";")
    return [p.strip() for p in parts if p.strip()]


def map_rows(sheet: SheetRows, kind: str, mapping: Mapping[str, str]) -> list[dict[str, Any]]:
    """Records (module docstring) from ``sheet`` by ``mapping`` ``{field: column}``; rows with
    an empty name are skipped. Raises ValidationError for an unknown field or column, or no
    name column."""
    allowed = MAPPABLE.get(kind)
    if allowed is None:
        raise ValidationError(f"import people or organizations, not {kind!r}")
    if "title" not in mapping:
        raise ValidationError("choose the column that holds the name")
    index: dict[str, int] = {}
    for fld, column in mapping.items():
        if fld not in allowed:
            raise ValidationError(f"a {kind} has no field {fld!r} to fill from a column")
        if column not in sheet.columns:
            raise ValidationError(f"the file has no column {column!r}")
        index[fld] = sheet.columns.index(column)
    records: list[dict[str, Any]] = []
    for row in sheet.rows:
        record: dict[str, Any] = {}
        for fld, i in index.items():
            value = " ".join(row[i].split()) if fld != "notes" else row[i].strip()
            if not value:
                continue
            if fld == "aliases":
                record[fld] = _split_aliases(row[i])
            elif fld == "confidential":
                record[fld] = value.casefold() in _TRUE
            else:
                record[fld] = value
        if record.get("title"):
            records.append(record)
    return records


def _key(name: str) -> str:
    return " ".join(name.casefold().split())


def _index(session: Session, case_id: int, model: type[Person] | type[Organization]
           ) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for item in session.scalars(select(model).where(model.case_id == case_id)
                                .order_by(model.id)):
        for name in [item.title, *(getattr(item, "aliases", None) or [])]:
            found.setdefault(_key(name), item)
    return found


@dataclass(frozen=True)
class TableImport:
    """``Changes.value`` of :func:`import_records`: ids of the items ``created`` (including
    organizations made for an affiliation), of those ``merged`` into, and of the items made
    from the rows themselves (``rows_created``)."""

    created: list[int]
    merged: list[int]
    rows_created: list[int] | None = None  # the items made from rows (no affiliations)

    def summary(self) -> str:
        rows = self.created if self.rows_created is None else self.rows_created
        made = len(self.created) - len(rows)
        orgs = f" (and {made} organization{'s' if made != 1 else ''} for their affiliation)" \
            if made else ""
        return f"{len(rows)} added{orgs}, {len(self.merged)} merged into existing items"


@action("table.import")
def import_records(session: Session, case_id: int, kind: str,
                   records: Sequence[Mapping[str, Any]]) -> Changes:
    """Store ``records`` (module docstring) as items of ``kind`` in the case, merging by name;
    one transaction. ``value`` is a :class:`TableImport`; ``undo`` deletes what was created and
    gives merged items their earlier values. Raises ValidationError for a bad kind or value,
    NotFoundError for no case."""
    if kind not in KINDS:
        raise ValidationError(f"import people or organizations, not {kind!r}")
    model = Person if kind == "person" else Organization
    known = _index(session, case_id, model)
    orgs = known if kind == "organization" else _index(session, case_id, Organization)
    created: list[int] = []
    affiliations: set[int] = set()  # organizations made for a person's affiliation
    merged: dict[int, dict[str, Any]] = {}  # item id -> the values it had before
    for record in records:
        fields = {k: v for k, v in record.items() if k not in ("title", "affiliation")}
        bad = set(record) - set(MAPPABLE[kind])
        if bad:
            raise ValidationError(f"a {kind} has no field {sorted(bad)[0]!r}")
        title = " ".join(str(record.get("title") or "").split())
        if not title:
            continue
        if record.get("affiliation"):
            org = orgs.get(_key(str(record["affiliation"])))
            if org is None:
                org = items.create_item(session, case_id, "organization",
                                        " ".join(str(record["affiliation"]).split()))
                orgs[_key(org.title)] = org
                created.append(org.id)
                affiliations.add(org.id)
            fields["affiliation_id"] = org.id
        item = known.get(_key(title))
        if item is None:
            item = items.create_item(session, case_id, kind, title, **fields)
            created.append(item.id)
        else:
            _merge(session, item, fields, merged)
        for name in [item.title, *(getattr(item, "aliases", None) or [])]:
            known.setdefault(_key(name), item)
    result = TableImport(created, [i for i in merged if i not in created],
                         [i for i in created if i not in affiliations])
    label = f"import {len(result.rows_created or [])} {_plural(kind)} from a table"
    undo = Step("table.unimport", {"case_id": case_id, "kind": kind, "created": created,
                                   "before": {str(k): v for k, v in merged.items()},
                                   "records": [dict(r) for r in records]},
                label=f"Undo {label}")
    return changes(case_id, kinds={kind, "organization"}, created=created,
                   updated=result.merged, label=label,
                   message=f"Imported {_plural(kind)}: {result.summary()}.", value=result,
                   undo=undo)


def _merge(session: Session, item: Any, fields: Mapping[str, Any],
           merged: dict[int, dict[str, Any]]) -> None:
    """Fill ``item``'s empty fields and add new aliases (never overwrite), remembering the
    values it had before in ``merged``."""
    update: dict[str, Any] = {}
    for fld, value in fields.items():
        old = getattr(item, fld)
        if fld == "aliases":
            have = {_key(a) for a in [item.title, *(old or [])]}
            extra = [a for a in value if _key(a) not in have]
            if extra:
                update[fld] = [*(old or []), *extra]
        elif fld == "confidential":
            if value and not old:
                update[fld] = True
        elif old in (None, ""):
            update[fld] = value
    if update:
        merged.setdefault(item.id, {k: (list(v) if isinstance(v, list) else v) for k, v in
                                    ((f, getattr(item, f)) for f in update)})
        items.update_item(session, item.id, **update)
    else:
        merged.setdefault(item.id, {})


@action("table.unimport")
def unimport(session: Session, case_id: int, kind: str, created: Sequence[int],
             before: Mapping[str, Mapping[str, Any]],
             records: Sequence[Mapping[str, Any]]) -> Changes:
    """Undo of :func:`import_records`: delete the items it created and give the items it merged
    into their earlier values; ``undo`` imports the same records again."""
    for item_id in reversed(list(created)):
        items.delete_item(session, int(item_id))
    for key, values in before.items():
        if values:
            items.update_item(session, int(key), **dict(values))
    label = f"import {len(created)} {_plural(kind)} from a table"
    redo = Step("table.import", {"case_id": case_id, "kind": kind, "records": list(records)},
                label=f"Redo {label}")
    return changes(case_id, kinds={kind, "organization"}, deleted=created,
                   updated=[int(i) for i in before], label=f"undo {label}",
                   message=f"Removed what the table import added ({len(created)} items).",
                   undo=redo)


def _plural(kind: str) -> str:
    return "people" if kind == "person" else "organizations"
