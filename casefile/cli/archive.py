"""``casefile archive export|import``: a case in one file, to hand on or move.

A sealed archive's passphrase comes from ``$CASEFILE_ARCHIVE_PASSPHRASE`` (for scripts) or a
prompt on the terminal (twice when sealing); it is never written anywhere."""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from pathlib import Path
from typing import Any

from casefile.cli.common import add_actions, open_workspace, print_json
from casefile.errors import ValidationError

PASSPHRASE_ENV = "CASEFILE_ARCHIVE_PASSPHRASE"


def add_archive_parser(sub: Any) -> None:
    acts = add_actions(sub, "archive", help="export a case to one archive file, or import one")
    ex = acts.add_parser("export", help="write the case, its documents' bytes and a manifest "
                                        "of SHA-256s to one file")
    ex.add_argument("--case", required=True, metavar="TITLE")
    ex.add_argument("-o", "--output", required=True, metavar="FILE")
    sealing = ex.add_mutually_exclusive_group()
    sealing.add_argument("--seal", action="store_true",
                         help=f"encrypt with a passphrase (prompted, or ${PASSPHRASE_ENV})")
    sealing.add_argument("--unsealed", action="store_true",
                         help="from an encrypted workspace: write the archive unsealed anyway "
                              "(anyone with the file can read the case)")
    ex.add_argument("--include-confidential", action="store_true",
                    help="allow a case holding confidential items (the archive carries them)")
    im = acts.add_parser("import", help="bring an archive in as a new case")
    im.add_argument("file", metavar="FILE")
    im.add_argument("--json", action="store_true")


def _passphrase(confirm: bool) -> str:
    given = os.environ.get(PASSPHRASE_ENV)
    if given:
        return given
    if not sys.stdin.isatty():
        raise ValidationError(f"the archive needs a passphrase: set ${PASSPHRASE_ENV} or run "
                              "on a terminal")
    first = getpass.getpass("Archive passphrase: ")
    if not first:
        raise ValidationError("an empty passphrase does not protect anything")
    if confirm and getpass.getpass("Repeat the passphrase: ") != first:
        raise ValidationError("the two passphrases differ; nothing was written")
    return first


def cmd_archive(args: argparse.Namespace) -> int:
    from casefile.export.archive_file import is_sealed
    from casefile.services import archive, cases

    if args.archive_command == "export":
        out = Path(args.output)
        if out.is_dir():
            raise ValidationError(f"{out} is a folder; give a file name for the archive")
        if not args.seal and not args.unsealed:
            from casefile.store.workspace import encrypted_database

            if encrypted_database(args.workspace, args.db) is not None:
                raise ValidationError(
                    "the workspace is encrypted, and an unsealed archive can be read by anyone "
                    "who gets the file; add --seal to seal it with a passphrase, or --unsealed "
                    "to write it readable anyway; nothing was written")
        passphrase = _passphrase(confirm=True) if args.seal else None
        ws = open_workspace(args)
        with ws.transaction(write=False) as s:
            case_id = cases.find_case(s, args.case).id
            archive.export_archive(s, case_id, out, passphrase=passphrase,
                                   include_confidential=args.include_confidential)
        print(f"wrote {out}" + (" (sealed)" if passphrase else ""))
        return 0
    path = Path(args.file)
    if not path.is_file():
        raise ValidationError(f"no such file: {path}")
    try:
        sealed = is_sealed(path)
    except OSError as exc:
        raise ValidationError(f"cannot read {path}: {exc.strerror or exc}") from exc
    passphrase = _passphrase(confirm=False) if sealed else None
    ws = open_workspace(args)
    with ws.transaction() as s:
        done = archive.import_archive(s, path, passphrase=passphrase)
    if args.json:
        print_json({"case_id": done.case_id, "title": done.title, "rows": done.rows,
                     "shared_blobs": done.shared_blobs})
    else:
        print(done.summary())
    return 0
