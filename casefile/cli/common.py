"""What the command groups of ``casefile`` share: opening the workspace a command names,
printing ``--json``, asking for a passphrase, the argument types and help texts several
groups use, and running OCR-free suggestions on one document.

Nothing here imports the database layer or Qt at import time: parsing the command line and
``--version`` load neither (``tests/test_startup_imports.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from casefile.errors import CasefileError

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from casefile.store.workspace import Workspace

T = TypeVar("T")
R = TypeVar("R")


#: The reading states (casefile.store.items.READING_STATES, repeated here so that parsing the
#: command line does not import the database layer; a test keeps the two equal).
READING_STATES = ("unread", "read", "relevant", "irrelevant")


def reading_state(text: str) -> str:
    """A reading state as typed: "not relevant" and "not-relevant" are "irrelevant", the
    word the Documents section shows for it."""
    word = " ".join(text.casefold().replace("-", " ").split())
    return "irrelevant" if word == "not relevant" else word


def print_json(value: Any) -> None:
    """``value`` as ``--json`` output on stdout: indented, non-ASCII kept as it is. Written
    at once: ``json.dump`` writes each of its tens of thousands of pieces (an import of 1,000
    files) to the stream apart."""
    sys.stdout.write(json.dumps(value, ensure_ascii=False, indent=2) + "\n")


def print_outcome(args: argparse.Namespace, message: str, as_json: Any) -> None:
    """An action's outcome on stdout: ``as_json`` (any JSON-able value) with ``--json``, else
    the one ``message`` line the service wrote."""
    if args.json:
        print_json(as_json)
    else:
        print(message)


def print_rows(args: argparse.Namespace, rows: Sequence[R], as_json: Callable[[R], Any],
               line: Callable[[R], str], empty: str) -> None:
    """A listing on stdout: with ``--json`` the list of ``as_json(row)``, else ``line(row)``
    for each row (a row's text may run over several lines), or ``empty`` when there is none."""
    if args.json:
        print_json([as_json(row) for row in rows])
    elif not rows:
        print(empty)
    for row in rows if not args.json else ():
        print(line(row))


def add_actions(sub: Any, command: str, help: str) -> Any:
    """Add ``casefile COMMAND ACTION ...`` to the subparsers ``sub``: the command's parser with
    its own subparsers, one of which the user must name (kept as ``args.COMMAND_command``).
    Returns those subparsers, for the actions' parsers."""
    parser = sub.add_parser(command, help=help)
    return parser.add_subparsers(dest=f"{command}_command", metavar="ACTION", required=True)


def id_type(what: str, where: str) -> Callable[[str], int]:
    """An argument type: a row id, as a number; the message of a value that is none names
    ``what`` ("a Trash id") and ``where`` the user finds one (a command)."""

    def parse(value: str) -> int:
        try:
            return int(value)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(
                f"not {what} (a number from `{where}`): {value!r}") from exc

    return parse


def parse_days(value: str) -> int:
    """An argument type: a whole number of days, 0 or more."""
    try:
        days = int(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a number of days: {value!r}") from exc
    if days < 0:
        raise argparse.ArgumentTypeError(f"a number of days, 0 or more: {value!r}")
    return days


def parse_date(value: str) -> date:
    """An argument type: an ISO date (YYYY-MM-DD)."""
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a date like 2018-02-23: {value!r}") from exc


MODEL_HELP = ("the spaCy pipeline that suggests names: an installed package name or a pipeline "
              "folder (default: $CASEFILE_SPACY_MODEL, else the installed en_core_web_sm)")


OCR_ENGINES = ("rapidocr", "tesseract")
OCR_ENGINE_HELP = ("rapidocr (the default, offline, models in the package) or tesseract (when "
                   "the system has it); default: $CASEFILE_OCR_ENGINE, else rapidocr")


#: Environment variables a script can give passphrases in (a terminal is asked otherwise).
PASSPHRASE_ENV = "CASEFILE_PASSPHRASE"
NEW_PASSPHRASE_ENV = "CASEFILE_NEW_PASSPHRASE"


def ask_passphrase(prompt: str, env: str) -> str:
    """A passphrase from ``$env``, else typed at the terminal without echo. Raises
    CasefileError when there is neither (a script without the variable)."""
    given = os.environ.get(env)
    if given:
        return given
    if not sys.stdin.isatty():
        what = prompt.rstrip(": ")
        raise CasefileError(f"{what[0].lower()}{what[1:]} is needed and there is no terminal "
                            f"to ask on; set ${env}")
    import getpass

    return getpass.getpass(prompt)


def ask_new_passphrase(what: str, env: str) -> str:
    """A new passphrase: from ``$env``, else typed twice (both must agree)."""
    from casefile.store.encryption import check_new_passphrase

    if os.environ.get(env):
        return check_new_passphrase(os.environ[env])
    first = ask_passphrase(f"{what}: ", env)
    return check_new_passphrase(first, ask_passphrase(f"{what} again: ", env))


#: What nearly every command reads through, loaded by :func:`load_core` before it runs.
CORE_MODULES = ("casefile.store.workspace", "casefile.services.cases")


def load_core() -> None:
    """Import :data:`CORE_MODULES` (SQLAlchemy, the models, the store) with the garbage
    collector paused, then move what the imports made into the collector's permanent generation
    (``gc.freeze``): a cold command otherwise spends about 0.2 s of CPU on collections that
    walk SQLAlchemy's hundreds of thousands of long-lived objects, during the imports, the
    command and the interpreter's exit. Once per process: a no-op when the core is loaded
    already (``main`` run again in the same process), so nothing made later is frozen."""
    from casefile.collector import loaded_and_frozen

    loaded_and_frozen(CORE_MODULES)


_process = {"ends": False}


def ending_process() -> None:
    """Say that this process ends when the command does (``casefile.cli.run``, not ``main``
    run by a test or a script)."""
    _process["ends"] = True


def process_ends() -> bool:
    """Whether the process ends when the command does (:func:`ending_process`): what it made
    may then be frozen out of the collector's reach (``gc.freeze``) rather than walked."""
    return _process["ends"]


#: The workspaces :func:`open_workspace` opened during this run of ``main``, closed by
#: :func:`close_opened` when it returns (a command need not close its own; ``main`` may run
#: again in the same process).
_opened: list[Workspace] = []


def open_workspace(args: argparse.Namespace) -> Workspace:
    """The workspace the global options name (``--workspace``, ``--db``, ``--new-workspace``,
    ``--encrypt``), asking for its passphrase when it is encrypted. Raises CasefileError
    (no workspace there, a wrong passphrase...)."""
    from casefile.store import workspace

    encrypted = workspace.encrypted_database(args.workspace, args.db)
    passphrase = None
    if encrypted is not None:
        passphrase = ask_passphrase(f"Passphrase for the workspace at {encrypted.parent}: ",
                                    PASSPHRASE_ENV)
    elif args.encrypt and workspace.is_new_database(args.workspace, args.db):
        passphrase = ask_new_passphrase("Passphrase for the new encrypted workspace",
                                        PASSPHRASE_ENV)
    ws = workspace.open_workspace(args.workspace, args.db, create=args.new_workspace,
                                  passphrase=passphrase, encrypt=args.encrypt)
    _opened.append(ws)
    for problem in ws.private_problems:
        print(f"casefile: warning: cannot make owner-only: {problem}", file=sys.stderr)
    return ws


def read_case(args: argparse.Namespace, read: Callable[[Session, int], T]) -> T:
    """Open the workspace, find the case ``--case`` names and return ``read(session,
    case_id)`` from one read-only transaction. Raises NotFoundError for an unknown case."""
    from casefile.services import cases

    ws = open_workspace(args)
    with ws.transaction(write=False) as s:
        return read(s, cases.find_case(s, args.case).id)


def close_opened() -> None:
    """Close every workspace :func:`open_workspace` opened (``main`` calls it as it returns)."""
    while _opened:
        _opened.pop().close()


def check_model(model: str | None) -> None:
    """Load a chosen spaCy model (``--model``, else $CASEFILE_SPACY_MODEL) before anything is
    imported, so a missing one is one error (ModelError) rather than one per file."""
    try:
        from casefile.services.suggestion_models import load_chosen_model
    except ImportError:
        return
    load_chosen_model(model)


def suggest_document(ws: Any, document_id: int, model: str | None = None,
                     mode: Literal["auto", "rules"] = "auto") -> dict[str, Any]:
    """Find suggestions in one stored document (extracted in a read transaction, stored in a
    write one retried on a conflict): ``{"mode", "model", "counts", "linked_to_known"}`` and
    ``"skipped"`` when its language is not read, or ``{"error"}``; never raises a
    CasefileError."""
    try:
        from casefile.services.suggestions import extract_for_document, suggest_for_document
        from casefile.store.conflicts import retry_on_conflict

        with ws.transaction(write=False) as s:  # read and extract; nothing written yet
            extracted = extract_for_document(s, document_id, model=model, mode=mode)

        def store() -> Any:
            with ws.transaction() as s:
                return suggest_for_document(s, document_id, extracted=extracted)

        res = retry_on_conflict(store)
    except (CasefileError, ImportError) as exc:
        return {"error": str(exc)}
    return {"mode": res.mode, "model": res.model, "counts": res.counts,
            "linked_to_known": res.linked_to_known} | (
                {"skipped": res.skipped} if res.skipped else {})
