"""Write a case's tables (:class:`Table`, built by :mod:`casefile.services.sheets`) as CSV files
or one .xlsx.

- CSV: one file per section, UTF-8 with a byte-order mark (so Excel reads accents and CJK),
  RFC 4180 quoting, ``\\r\\n`` line ends.
- XLSX (openpyxl): one sheet per section, header row bold and frozen, column widths from the
  content (capped), every text cell stored as text.

Formula injection (OWASP "CSV Injection"): a text cell starting with ``=``, ``+``, ``-``, ``@``,
tab or carriage return would run as a formula in a spreadsheet. In the .xlsx such a cell is
stored with the string type and Excel's quote prefix (the value itself is unchanged); in CSV,
which has no types, it gets a leading apostrophe, which Excel hides and
:func:`unguard` removes on import.

Both writers write through :func:`casefile.export.files.write_private` (a temporary name renamed
into place, so a failed export leaves no half file; the files are owner-only, 0600). Errors:
:class:`casefile.export.errors.ExportError` for a file that cannot be written.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from casefile.export.errors import ExportError
from casefile.export.files import write_private

#: One cell of a table: plain values only (ISO 8601 strings for dates).
Cell = str | int | bool | None


@dataclass
class Table:
    """One section: ``name`` (file and sheet name, e.g. ``"people"``), ``columns`` (header
    labels) and ``rows`` (each as long as ``columns``)."""

    name: str
    columns: list[str]
    rows: list[list[Cell]] = field(default_factory=list)

RISKY_START = ("=", "+", "-", "@", "\t", "\r")
MAX_WIDTH = 60  # characters; longer cells wrap instead of widening the column


def is_risky(value: object) -> bool:
    """True for a text cell a spreadsheet would read as a formula (module docstring)."""
    return isinstance(value, str) and value.startswith(RISKY_START)


def unguard(value: str) -> str:
    """A CSV cell as it was before :func:`write_csv` guarded it ("'=1+1" -> "=1+1")."""
    if value.startswith("'") and value[1:].startswith(RISKY_START):
        return value[1:]
    return value


def _csv_cell(value: Cell) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    text = str(value)
    return "'" + text if is_risky(text) else text


def file_stem(name: str) -> str:
    """A section name as a file name: "evidence links" -> "evidence-links"."""
    return name.replace(" ", "-")


def write_csv(tables: Sequence[Table], folder: Path) -> list[Path]:
    """One ``SECTION.csv`` per table in ``folder`` (created if missing); returns the paths."""
    if folder.exists() and not folder.is_dir():
        raise ExportError(f"{folder} is a file; give a folder for the CSV files")
    out: list[Path] = []
    try:
        for table in tables:
            path = folder / f"{file_stem(table.name)}.csv"

            def write(tmp: Path, table: Table = table) -> None:
                with tmp.open("w", encoding="utf-8-sig", newline="") as fh:
                    writer = csv.writer(fh)
                    writer.writerow(table.columns)
                    writer.writerows([_csv_cell(v) for v in row] for row in table.rows)

            write_private(path, write)
            out.append(path)
    except OSError as exc:
        raise ExportError(f"could not write the CSV files to {folder}: {exc.strerror}") from exc
    return out


#: Control characters a worksheet cell cannot hold (XML 1.0 forbids them); a vertical tab
#: (Word's manual line break) and a form feed (its page break) become line breaks.
_BREAKS = {0x0B: "\n", 0x0C: "\n"}
_NOT_IN_XML = re.compile(r"[\x00-\x08\x0e-\x1f]")


def cell_text(value: str) -> str:
    """``value`` as a worksheet cell can hold it: vertical tabs and form feeds as line
    breaks, every other control character that XML forbids (tab, line feed and carriage
    return stay) as U+FFFD."""
    return _NOT_IN_XML.sub("\ufffd", value.translate(_BREAKS))


def write_xlsx(tables: Sequence[Table], target: Path) -> Path:
    """The whole case as one workbook at ``target``, a sheet per table (module docstring)."""
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font
    from openpyxl.utils import get_column_letter

    if target.is_dir():
        raise ExportError(f"{target} is a folder; give a file name ending in .xlsx")
    book = Workbook()
    book.remove(book.active)
    bold = Font(bold=True)
    wrap = Alignment(wrap_text=True, vertical="top")
    for table in tables:
        sheet = book.create_sheet(title=table.name[:31])
        sheet.append(table.columns)
        for cell in sheet[1]:
            cell.font = bold
        widths = [len(c) for c in table.columns]
        for r, row in enumerate(table.rows, start=2):
            for c, value in enumerate(row, start=1):
                if value is None:
                    continue
                cell = sheet.cell(row=r, column=c)
                if isinstance(value, str):
                    value = cell_text(value)
                    cell.value = value
                    cell.data_type = "s"  # never a formula, whatever it starts with
                    if is_risky(value):
                        cell.quotePrefix = True
                    longest = max((len(line) for line in value.splitlines()), default=0)
                    if longest > MAX_WIDTH:
                        cell.alignment = wrap
                    widths[c - 1] = max(widths[c - 1], min(longest, MAX_WIDTH))
                else:
                    cell.value = value
                    widths[c - 1] = max(widths[c - 1], len(str(value)))
        for c, width in enumerate(widths, start=1):
            sheet.column_dimensions[get_column_letter(c)].width = width + 2
        sheet.freeze_panes = "A2"
        if table.rows:
            sheet.auto_filter.ref = sheet.dimensions
    try:
        write_private(target, lambda tmp: book.save(tmp))
    except OSError as exc:
        raise ExportError(f"could not write {target}: {exc.strerror}") from exc
    return target
