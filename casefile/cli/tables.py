"""``casefile export csv|xlsx|ftm``, ``casefile import-table`` and ``casefile import ftm``: a
case's sections as spreadsheets or its items as FollowTheMoney entities, and people or
organizations from a spreadsheet or entities from a FollowTheMoney file."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from casefile.cli.common import open_workspace


def add_export_parser(sub: Any) -> None:
    """``casefile export {csv,xlsx,ftm} --case T -o OUT [--include-confidential]``."""
    ex = sub.add_parser("export", help="write a case's sections as CSV files or an Excel "
                                       "workbook, or its items as FollowTheMoney entities")
    ex.add_argument("format", choices=("csv", "xlsx", "ftm"),
                    help="csv: a UTF-8 file per section in the folder OUT; xlsx: one workbook "
                         "with a sheet per section; ftm: FollowTheMoney entities as JSON "
                         "lines (for Aleph, OpenAleph and the ftm tools)")
    ex.add_argument("--case", required=True, metavar="TITLE")
    ex.add_argument("-o", "--output", required=True, metavar="OUT",
                    help="a folder (csv), a file ending in .xlsx, or a file (ftm, e.g. "
                         "case.ftm.json)")
    ex.add_argument("--include-confidential", action="store_true",
                    help="include items flagged confidential and their names (the internal "
                         "profile)")
    ex.add_argument("--profile", choices=("internal", "editor", "legal", "public"),
                    help="who the export is for, as for the brief (default editor: "
                         "confidential items left out, their names [withheld])")


def cmd_export(args: argparse.Namespace) -> int:
    from casefile.errors import ValidationError
    from casefile.services import cases, sheets

    out = Path(args.output)
    if args.format == "xlsx" and out.suffix.lower() != ".xlsx":
        raise ValidationError(f"{out}: give a file name ending in .xlsx")
    ws = open_workspace(args)
    with ws.transaction(write=False) as s:
        case_id = cases.find_case(s, args.case).id
        if args.format == "ftm":
            from casefile.services import ftm_export

            done = ftm_export.export_ftm(s, case_id, out, profile=args.profile,
                                         include_confidential=args.include_confidential)
            print(done.summary())
        elif args.format == "csv":
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
    ws = open_workspace(args)
    with ws.transaction() as s:
        case_id = cases.find_case(s, args.case).id
        result = table_import.import_records(s, case_id, args.kind, records)
    print(result.message)
    return 0


def cmd_import_ftm(args: argparse.Namespace, files: list[str]) -> int:
    """``casefile import ftm FILE --case T [--json]``: FollowTheMoney entities into the case
    (:func:`casefile.services.ftm_import.import_file`); prints what was added and merged."""
    import json
    import sys

    from casefile.errors import ValidationError
    from casefile.services import cases, ftm_import

    if len(files) != 1:
        raise ValidationError("give one FollowTheMoney file: casefile import ftm FILE --case T")
    given = [name for name, value in (("--published", args.published),
                                      ("--password", args.password), ("--model", args.model))
             if value]
    if given:
        raise ValidationError(f"{given[0]} is for documents, not a FollowTheMoney import")
    path = Path(files[0])
    entities = ftm_import.read_ftm(path)
    ws = open_workspace(args)
    with ws.transaction() as s:
        case_id = cases.find_case(s, args.case).id
        result = ftm_import.import_entities(s, case_id, entities, source=path.name)
    value = result.value
    if args.json:
        json.dump({"created": value.created, "relationships": value.relationships,
                   "evidence": value.evidence, "skipped": value.skipped,
                   "merged": [{"item_id": i, "title": t, "entity": c, "schema": sc}
                              for i, t, c, sc in value.merged]},
                  sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return 0
    print(f"imported {len(entities)} entities from {path.name}: {value.summary()}")
    for _item_id, title, caption, schema in value.merged:
        print(f"  merged {schema} {caption!r} into {title!r}")
    return 0
