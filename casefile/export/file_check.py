"""Re-read the files an export wrote and refuse them when a protected string is in them: the
self-check of the CSV, Excel and FollowTheMoney exports, as :mod:`casefile.export.pdf_check`
is the brief's and :func:`casefile.export.ics.ics_places` the calendar's.

The exports also check their values before writing (naming the row and column); this re-read
is what a reader of the file sees: every CSV cell, every cell of every sheet of the workbook
(as openpyxl reads it back), every line of the FtM JSON file (the JSON text and each string
value decoded). Matching is :func:`casefile.export.pdf_check.find_in_places` (whole words,
any case, any spacing). No Qt, no database.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from casefile.export.errors import ExportError
from casefile.export.pdf_check import ProtectedStringFoundError, find_in_places


def csv_places(paths: Iterable[Path]) -> Iterator[tuple[str, str]]:
    """Each cell of each CSV file: ("NAME.csv, row R, column C", text)."""
    for path in paths:
        with path.open(encoding="utf-8-sig", newline="") as fh:
            for r, row in enumerate(csv.reader(fh), start=1):
                for c, cell in enumerate(row, start=1):
                    if cell:
                        yield f"{path.name}, row {r}, column {c}", cell


def xlsx_places(path: Path) -> Iterator[tuple[str, str]]:
    """Each non-empty cell of each sheet of the workbook: ("sheet S, cell B3", text); the
    sheet names too ("sheet name")."""
    from openpyxl import load_workbook

    try:
        book = load_workbook(path, read_only=True)
    except Exception as exc:  # openpyxl raises many kinds on a broken file
        raise ExportError(f"cannot re-read the written workbook: {exc}") from exc
    try:
        for sheet in book.worksheets:
            yield "sheet name", sheet.title
            for row in sheet.iter_rows():
                for cell in row:
                    value = getattr(cell, "value", None)
                    if value is not None and str(value):
                        where = getattr(cell, "coordinate", "?")
                        yield f"sheet {sheet.title!r}, cell {where}", str(value)
    finally:
        book.close()


def jsonl_places(path: Path) -> Iterator[tuple[str, str]]:
    """Each line of a JSON-lines file as written, then every string value in it decoded
    (escapes undone): ("line N", text)."""
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            yield f"line {n}", line
            try:
                data = json.loads(line)
            except ValueError as exc:
                raise ExportError(f"cannot re-read line {n} of the written file: {exc}") from exc
            yield f"line {n}", " \n ".join(_strings(data))


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def check_written(paths: Sequence[Path], places: Iterable[tuple[str, str]],
                  protected: Iterable[str]) -> None:
    """Search ``places`` (read from the files ``paths`` just written) for ``protected``
    strings; when one is found, delete every file of ``paths`` and raise.

    Raises:
        ProtectedStringFoundError: naming the string and the place (the files are gone).
        ExportError: a file cannot be read back (the files are gone too).
    """
    protected = list(protected)
    if not protected:
        return
    try:
        found = find_in_places(places, protected)
    except (ExportError, OSError, UnicodeDecodeError) as exc:
        for path in paths:
            path.unlink(missing_ok=True)
        if isinstance(exc, ExportError):
            raise
        raise ExportError(f"cannot re-read the written export: {exc}") from exc
    if found is not None:
        for path in paths:
            path.unlink(missing_ok=True)
        raise ProtectedStringFoundError(found.text, found.place)
