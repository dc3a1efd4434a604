"""The ``casefile`` command: a front end over the services, one module per command group.

Contract (ARCHITECTURE.md, "Command line"): exit 0 on success, 1 for a user error with one
clear line on stderr, 2 for a usage error (argparse), 130 on Ctrl+C. Bad input never prints a
traceback; an unexpected internal error prints one line too (set CASEFILE_DEBUG=1 to see the
traceback).

The groups: :mod:`~casefile.cli.app` (gui, demo, brief), :mod:`~casefile.cli.cases`,
:mod:`~casefile.cli.trash`, :mod:`~casefile.cli.importing` (import, ocr),
:mod:`~casefile.cli.suggestions` (suggestions, suggest, extract), :mod:`~casefile.cli.items`
(items, item, followups, claims), :mod:`~casefile.cli.documents` (documents, mark,
duplicates), :mod:`~casefile.cli.search` (search, reindex), :mod:`~casefile.cli.workspace`
(workspace, backup), :mod:`~casefile.cli.tables` (export, import-table, import ftm),
:mod:`~casefile.cli.archive`, :mod:`~casefile.cli.team`. Each adds its parsers and holds its
``cmd_*`` functions; what they share is in :mod:`casefile.cli.common`. None imports the
database layer or Qt at import time, so parsing the command line and ``--version`` load
neither (``tests/test_startup_imports.py``).
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NoReturn

from casefile import __version__
from casefile.cli import (
    app,
    archive,
    cases,
    documents,
    importing,
    items,
    search,
    suggestions,
    tables,
    team,
    trash,
    watch,
    workspace,
)
from casefile.cli.common import READING_STATES, close_opened, ending_process, load_core
from casefile.errors import CasefileError

if TYPE_CHECKING:
    from sqlalchemy.exc import DBAPIError

__all__ = ["COMMANDS", "READING_STATES", "build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``casefile`` command (its commands in the order ``--help``
    lists them)."""
    parser = argparse.ArgumentParser(
        prog="casefile", description="Offline case-file organizer for reporters."
    )
    parser.add_argument("--version", action="version", version=f"casefile {__version__}")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workspace", metavar="PATH",
                       help="workspace folder (default: $CASEFILE_WORKSPACE or the user data dir)")
    where.add_argument("--db", metavar="URL",
                       help="database URL for team mode, e.g. postgresql+psycopg://host/db")
    parser.add_argument("--new-workspace", action="store_true",
                        help="create the workspace when the --workspace / $CASEFILE_WORKSPACE "
                             "folder holds none (otherwise such a path is refused)")
    parser.add_argument("--encrypt", action="store_true",
                        help="with --new-workspace: encrypt the new workspace (SQLCipher) with a "
                             "passphrase, asked twice or taken from $CASEFILE_PASSPHRASE")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    app.add_gui_parsers(sub)
    cases.add_case_parser(sub)
    trash.add_trash_parser(sub)
    importing.add_import_parser(sub)
    importing.add_ocr_parser(sub)
    suggestions.add_extract_parser(sub)
    items.add_item_parser(sub)
    items.add_items_parser(sub)
    items.add_followups_parser(sub)
    items.add_claims_parser(sub)
    documents.add_documents_parser(sub)
    documents.add_mark_parser(sub)
    documents.add_duplicates_parser(sub)
    search.add_search_parser(sub)
    search.add_reindex_parser(sub)
    suggestions.add_suggestions_parser(sub)
    suggestions.add_suggest_parser(sub)
    workspace.add_workspace_parser(sub)
    workspace.add_backup_parser(sub)
    app.add_brief_parser(sub)
    tables.add_export_parser(sub)
    tables.add_import_table_parser(sub)
    archive.add_archive_parser(sub)
    team.add_team_parser(sub)
    watch.add_watch_parser(sub)
    return parser


#: Each command's function: the parsed arguments in, the exit code out.
COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "case": cases.cmd_case, "trash": trash.cmd_trash,
    "import": importing.cmd_import, "ocr": importing.cmd_ocr,
    "extract": suggestions.cmd_extract, "suggestions": suggestions.cmd_suggestions,
    "suggest": suggestions.cmd_suggest,
    "items": items.cmd_items, "item": items.cmd_item, "followups": items.cmd_followups,
    "claims": items.cmd_claims,
    "documents": documents.cmd_documents, "mark": documents.cmd_mark,
    "duplicates": documents.cmd_duplicates,
    "search": search.cmd_search, "reindex": search.cmd_reindex,
    "workspace": workspace.cmd_workspace, "backup": workspace.cmd_backup,
    "demo": app.cmd_demo, "brief": app.cmd_brief,
    "export": tables.cmd_export, "import-table": tables.cmd_import_table,
    "archive": archive.cmd_archive, "team": team.cmd_team, "watch": watch.cmd_watch,
}
#: What a command starts before the core loads (:func:`load_core`, about 0.3 s of SQLAlchemy and
#: the models): ``import`` starts its reader workers, which load their readers meanwhile.
BEFORE_CORE: dict[str, Callable[[argparse.Namespace], None]] = {
    "import": importing.start_readers,
}


def _database_failure(exc: DBAPIError) -> str:
    """One line for a database error: the driver's own first line, without the SQL."""
    reason = (str(exc.orig).strip().splitlines() or ["unknown error"])[0]
    from casefile.store.teams import refusal

    refused = refusal(exc)  # a team workspace's refusal outside a transaction: as said
    if refused is not None:
        return str(refused)
    if "malformed" in reason or "not a database" in reason:
        return (f"the workspace database is damaged ({reason}); copies made before schema "
                "upgrades are in the workspace's backups folder")
    if "locked" in reason:
        return (f"the workspace is busy ({reason}): another Casefile window or command kept "
                "writing to it for longer than this one waits; try again when it has finished")
    return f"the workspace database failed: {reason}"


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``casefile`` command; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    # Libraries' own warnings ("Data-loss while decompressing corrupted data" from pdfminer)
    # would print beside Casefile's one line about the file; the import notes say what matters.
    import logging

    for name in ("pdfminer", "pypdf", "PIL"):
        logging.getLogger(name).setLevel(logging.ERROR)
    if args.encrypt and not args.new_workspace:
        parser.error("--encrypt only goes with --new-workspace (to encrypt an existing "
                     "workspace: casefile workspace encrypt)")
    try:
        if args.command in (None, "gui"):
            return app.run_gui(args)
        before = BEFORE_CORE.get(args.command)
        if before is not None:  # work that can start while the core loads (import's readers)
            before(args)
        if not (args.command == "demo" and args.open):  # the window's start loads the core
            load_core()
        return COMMANDS[args.command](args)
    except CasefileError as exc:
        print(f"casefile: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("casefile: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `casefile … | head`: the reader stopped; the work is done
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the exit's flush cannot fail again
        return 0
    except Exception as exc:  # a bug: still one line, the traceback only on request
        failed = sys.modules.get("sqlalchemy.exc")  # not imported for --version or --help
        if failed is not None and isinstance(exc, failed.DBAPIError):
            print(f"casefile: {_database_failure(exc)}", file=sys.stderr)
            return 1
        if os.environ.get("CASEFILE_DEBUG"):
            traceback.print_exc()
        print(f"casefile: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    finally:
        close_opened()


def run() -> NoReturn:
    """The ``casefile`` process (``python -m casefile``, the installed command, the bundle):
    :func:`main` on the process's arguments, then exit with its status.

    A command's work is done and its workspaces closed when :func:`main` returns; what is left
    is the interpreter's teardown, whose collector passes walked every object the command
    loaded (SQLAlchemy's, reportlab's, the case's: about 0.2 s of a 1.5 s ``casefile brief``
    here). The objects are frozen first (``gc.freeze``): teardown skips those passes, what
    reference counting frees is freed as before, and the memory of the rest goes back with the
    process. A window's process keeps the usual teardown (Qt's objects go in their order)."""
    ending_process()
    code = main()
    if "PySide6" not in sys.modules:
        import gc

        gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    run()
