"""``casefile export csv|xlsx`` and ``casefile import-table``: a case's sections as spreadsheets,
and people or organizations from one (the ``casefile`` command's parser lives in
:mod:`casefile.cli`; this module adds these subcommands to it)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def add_export_parser(sub: Any) -> None:
    """``casefile export {csv,xlsx} --case T -o OUT [--include-confidential]``."""
    ex = sub.add_parser("export", help="write a case's sections as CSV files or an Excel "
                                       "workbook")
    ex.add_argument("format", choices=("csv", "xlsx"),
                    help="csv: a UTF-8 file per section in the folder OUT; xlsx: one workbook "
                         "with a sheet per section")
    ex.add_argument("--case", required=True, metavar="TITLE")
    ex.add_argument("-o", "--output", required=True, metavar="OUT",
                    help="a folder (csv) or a file ending in .xlsx")
    ex.add_argument("--include-confidential", action="store_true",
                    help="include items flagged confidential and their names (the internal "
                         "profile)")
    ex.add_argument("--profile", choices=("internal", "editor", "legal", "public"),
                    help="who the export is for, as for the brief (default editor: "
                         "confidential items left out, their names [withheld])")


def cmd_export(args: argparse.Namespace) -> int:
    from casefile.cli import _open
    from casefile.errors import ValidationError
    from casefile.services import cases, sheets

    out = Path(args.output)
    if args.format == "xlsx" and out.suffix.lower() != ".xlsx":
        raise ValidationError(f"{out}: give a file name ending in .xlsx")
    ws = _open(args)
    with ws.transaction() as s:
        case_id = cases.find_case(s, args.case).id
        if args.format == "csv":
            paths = sheets.export_csv(s, case_id, out, profile=args.profile,
                                      include_confidential=args.include_confidential)
            print(f"wrote {len(paths)} files to {out}")
        else:
            sheets.export_xlsx(s, case_id, out, profile=args.profile,
                               include_confidential=args.include_confidential)
            print(f"wrote {out}")
    return 0


def add_import_table_parser(sub: Any) -> None:
    """``casefile import-table FILE --case T --kind person|organization [--map FIELD=COLUMN]
    [--dry-run]``."""
    it = sub.add_parser("import-table", help="import people or organizations from a CSV or "
                                             ".xlsx file, mapping its columns to fields")
    it.add_argument("file", metavar="FILE", help="a .csv or .xlsx file with a header row")
    it.add_argument("--case", required=True, metavar="TITLE")
    it.add_argument("--kind", choices=("person", "organization"), default="person")
    it.add_argument("--map", action="append", default=[], metavar="FIELD=COLUMN",
                    help="take FIELD (title, aliases, role, affiliation, contact, org_kind, "
                         "jurisdiction, notes, confidential) from COLUMN; repeatable; fields "
                         "not given are guessed from the header")
    it.add_argument("--dry-run", action="store_true",
                    help="show the mapping and the first records; store nothing")


def cmd_import_table(args: argparse.Namespace) -> int:
    from casefile.cli import _open
    from casefile.errors import ValidationError
    from casefile.services import cases, table_import

    sheet = table_import.read_table(Path(args.file))
    mapping = table_import.guess_mapping(sheet.columns, args.kind)
    for given in args.map:
        fld, sep, column = given.partition("=")
        if not sep:
            raise ValidationError(f"--map wants FIELD=COLUMN, not {given!r}")
        mapping = {f: c for f, c in mapping.items() if c != column.strip()}
        mapping[fld.strip()] = column.strip()
    records = table_import.map_rows(sheet, args.kind, mapping)
    shown = ", ".join(f"{f} <- {c!r}" for f, c in mapping.items())
    print(f"columns: {shown}")
    if args.dry_run:
        for record in records[:5]:
            print("  " + "; ".join(f"{k}={v}" for k, v in record.items()))
        print(f"{len(records)} records; nothing stored (--dry-run)")
        return 0
    ws = _open(args)
    with ws.transaction() as s:
        case_id = cases.find_case(s, args.case).id
        result = table_import.import_records(s, case_id, args.kind, records)
    print(result.message)
    return 0
