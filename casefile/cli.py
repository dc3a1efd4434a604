"""Command line front end over the services (no Qt import here; ``gui`` imports it lazily).

Contract (ARCHITECTURE.md, "Command line"): exit 0 on success, 1 for a user error with one
clear line on stderr, 2 for a usage error (argparse). Bad input never prints a traceback; an
unexpected internal error prints one line too (set CASEFILE_DEBUG=1 to see the traceback).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from casefile import __version__
from casefile.errors import CasefileError, ValidationError
from casefile.export.profiles import PROFILE_HELP, PROFILE_NAMES

#: The reading states (casefile.store.items.READING_STATES, repeated here so that parsing the
#: command line does not import the database layer; a test keeps the two equal).
READING_STATES = ("unread", "read", "relevant", "irrelevant")

if TYPE_CHECKING:
    from sqlalchemy.exc import DBAPIError

    from casefile.store.workspace import Workspace


def _reading_state(text: str) -> str:
    """A reading state as typed: "not relevant" and "not-relevant" are "irrelevant", the
    word the Documents section shows for it."""
    word = " ".join(text.casefold().replace("-", " ").split())
    return "irrelevant" if word == "not relevant" else word


def _print_json(value: Any) -> None:
    json.dump(value, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def _days(value: str) -> int:
    try:
        days = int(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a number of days: {value!r}") from exc
    if days < 0:
        raise argparse.ArgumentTypeError(f"a number of days, 0 or more: {value!r}")
    return days


def _parse_iso_date(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a date like 2018-02-23: {value!r}") from exc


MODEL_HELP = ("the spaCy pipeline that suggests names: an installed package name or a pipeline "
              "folder (default: $CASEFILE_SPACY_MODEL, else the installed en_core_web_sm)")


OCR_ENGINES = ("rapidocr", "tesseract")
OCR_ENGINE_HELP = ("rapidocr (the default, offline, models in the package) or tesseract (when "
                   "the system has it); default: $CASEFILE_OCR_ENGINE, else rapidocr")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``casefile`` command."""
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

    sub.add_parser("gui", help="open the desktop app (the default)")

    demo = sub.add_parser("demo", help="build the sample case and print its id")
    demo.add_argument("--open", action="store_true", help="then open it in the desktop app")

    case = sub.add_parser("case", help="create, list, rename, edit or delete cases")
    case_sub = case.add_subparsers(dest="case_command", metavar="ACTION", required=True)
    new = case_sub.add_parser("new", help="create a case")
    new.add_argument("title")
    new.add_argument("--summary")
    new.add_argument("--json", action="store_true")
    lst = case_sub.add_parser("list", help="list cases")
    lst.add_argument("--json", action="store_true")
    from casefile.cli_trash import add_case_actions, add_trash_parser
    add_case_actions(case_sub)
    add_trash_parser(sub)

    imp = sub.add_parser("import", help="import files and folders into a case; `import ftm "
                                        "FILE` imports FollowTheMoney entities")
    imp.add_argument("files", nargs="+", metavar="PATH",
                     help="a file, or a folder to import recursively (hidden files skipped); "
                          "or `ftm FILE`: the FollowTheMoney entities (JSON lines) of FILE "
                          "become the case's people, organizations... merged with those it "
                          "has (unless a file named ftm is here: then ./ftm is imported)")
    imp.add_argument("--case", required=True, metavar="TITLE")
    imp.add_argument("--published", type=_parse_iso_date, metavar="YYYY-MM-DD",
                     help="publication date (relative dates in the text resolve against it); "
                          "without it, the date in the file's metadata or near the top of its "
                          "text, else the file's modification date (a note says which)")
    imp.add_argument("--password", help="password of an encrypted PDF")
    imp.add_argument("--no-suggest", action="store_true", help="skip entity suggestions")
    imp.add_argument("--no-ocr", action="store_true",
                     help="do not OCR scanned pages and images now (later: casefile ocr)")
    imp.add_argument("--ocr-engine", choices=OCR_ENGINES, help=OCR_ENGINE_HELP)
    imp.add_argument("--model", metavar="NAME_OR_PATH", help=MODEL_HELP)
    imp.add_argument("--json", action="store_true")

    ocr = sub.add_parser("ocr", help="OCR the scanned pages and images still waiting for it")
    which = ocr.add_mutually_exclusive_group(required=True)
    which.add_argument("--case", metavar="TITLE", help="every document of the case waiting")
    which.add_argument("--document", type=int, metavar="ID", help="one document")
    ocr.add_argument("--engine", choices=OCR_ENGINES, help=OCR_ENGINE_HELP)
    ocr.add_argument("--no-suggest", action="store_true",
                     help="skip entity suggestions on the new text")
    ocr.add_argument("--model", metavar="NAME_OR_PATH", help=MODEL_HELP)
    ocr.add_argument("--json", action="store_true")

    ext = sub.add_parser("extract", help="print suggestions for a file; nothing is stored")
    ext.add_argument("file", metavar="FILE")
    ext.add_argument("--published", type=_parse_iso_date, metavar="YYYY-MM-DD")
    how = ext.add_mutually_exclusive_group()
    how.add_argument("--rules-only", action="store_true", help="do not use the spaCy model")
    how.add_argument("--model", metavar="NAME_OR_PATH", help=MODEL_HELP)
    ext.add_argument("--password", help="password of an encrypted PDF")
    ext.add_argument("--json", action="store_true")

    it = sub.add_parser("item", help="mark an item confidential (or not); set a person's "
                                     "identifying phrases")
    it.add_argument("id", type=int, metavar="ITEM_ID", help="an id from `casefile items`")
    it.add_argument("--identifying", action="append", metavar="PHRASE",
                    help="a phrase that identifies this person without naming them (\"the "
                         "clerk who signed the contract\"); exports that hide the person "
                         "withhold it too. Repeat for several; replaces the person's list")
    it.add_argument("--clear-identifying", action="store_true",
                    help="remove the person's identifying phrases")
    flag = it.add_mutually_exclusive_group()
    flag.add_argument("--confidential", dest="confidential", action="store_true",
                      default=None, help="flag the item confidential (exports then leave it "
                                         "out, or give a person a pseudonym)")
    flag.add_argument("--not-confidential", dest="confidential", action="store_false",
                      help="clear the flag")
    it.add_argument("--json", action="store_true")

    items = sub.add_parser("items", help="list a case's items")
    items.add_argument("--case", required=True, metavar="TITLE")
    items.add_argument("--kind", choices=("person", "organization", "place", "document", "event",
                                          "claim", "question"))
    items.add_argument("--json", action="store_true")

    fu = sub.add_parser("followups", help="list open follow-ups, soonest first; export .ics")
    fu.add_argument("--case", required=True, metavar="TITLE")
    fu.add_argument("--due-within", type=_days, metavar="DAYS")
    fu.add_argument("--overdue", action="store_true", help="only overdue follow-ups")
    fu.add_argument("--status", action="append", metavar="STATUS",
                    choices=("open", "waiting", "answered", "dropped", "all"),
                    help="only follow-ups with this status (open, waiting, answered, dropped, "
                         "or all); repeatable; default open and waiting")
    fu.add_argument("--ics", metavar="FILE.ics",
                    help="write every dated follow-up to a calendar file instead of listing")
    fu.add_argument("--ics-as", choices=("event", "todo"), default="event",
                    help="calendar entries as all-day events (default) or to-dos")
    fu_who = fu.add_mutually_exclusive_group()
    fu_who.add_argument("--profile", choices=PROFILE_NAMES, metavar="PROFILE",
                        help="with --ics: " + PROFILE_HELP)
    fu_who.add_argument("--include-confidential", action="store_true",
                        help="with --ics: include follow-ups and names flagged confidential "
                             "(the same as --profile internal)")
    fu.add_argument("--today", type=_parse_iso_date, metavar="YYYY-MM-DD", help=argparse.SUPPRESS)
    fu.add_argument("--json", action="store_true")

    cl = sub.add_parser("claims", help="list claims with their status and attribution chain")
    cl.add_argument("--case", required=True, metavar="TITLE")
    cl.add_argument("--json", action="store_true")

    dl = sub.add_parser("documents", help="list a case's documents with their reading state "
                                          "(unread, read, relevant, irrelevant)")
    dl.add_argument("--case", required=True, metavar="TITLE")
    dl.add_argument("--state", choices=READING_STATES, help="only documents in this state")
    dl.add_argument("--json", action="store_true")

    mk = sub.add_parser("mark", help="set documents' reading state: unread, read, relevant or "
                                     "irrelevant")
    mk.add_argument("state", type=_reading_state, choices=READING_STATES,
                    help="unread, read, relevant or irrelevant (also: not-relevant)")
    mk.add_argument("ids", nargs="+", type=int, metavar="DOC_ID",
                    help="document ids from `casefile documents`")

    du = sub.add_parser("duplicates", help="list the copies of one story among a case's "
                                           "documents (they count as one source)")
    du.add_argument("--case", required=True, metavar="TITLE")
    du.add_argument("--json", action="store_true")

    se = sub.add_parser("search", help="full-text search")
    se.add_argument("query")
    se.add_argument("--case", metavar="TITLE")
    se.add_argument("--json", action="store_true")

    ri = sub.add_parser("reindex", help="rebuild the search index (repair only: every change "
                                        "already updates it)")
    ri.add_argument("--case", metavar="TITLE", help="only this case's items (default: all)")
    ri.add_argument("--json", action="store_true")

    _add_suggestions_parser(sub)
    _add_suggest_parser(sub)
    _add_workspace_parser(sub)
    bk = sub.add_parser("backup", help="list, take or restore the workspace's backups")
    bk_acts = bk.add_subparsers(dest="backup_command", metavar="ACTION", required=True)
    bk_list = bk_acts.add_parser("list", help="the backups, newest first")
    bk_list.add_argument("--json", action="store_true")
    bk_acts.add_parser("now", help="take a backup now (checked, then older ones rotated)")
    bk_res = bk_acts.add_parser("restore", help="restore a backup (its checksum and integrity "
                                "checked first; the current state is backed up before)")
    bk_res.add_argument("backup_id", metavar="ID")

    br = sub.add_parser("brief", help="write the case's PDF brief")
    br.add_argument("--case", required=True, metavar="TITLE")
    br.add_argument("-o", "--output", required=True, metavar="FILE.pdf")
    br_who = br.add_mutually_exclusive_group()
    br_who.add_argument("--profile", choices=PROFILE_NAMES, metavar="PROFILE",
                        help=PROFILE_HELP)
    br_who.add_argument("--include-confidential", action="store_true",
                        help="include items and sources flagged confidential (the same as "
                             "--profile internal)")
    br.add_argument("--today", type=_parse_iso_date, metavar="YYYY-MM-DD", help=argparse.SUPPRESS)

    from casefile.cli_tables import add_export_parser, add_import_table_parser
    add_export_parser(sub)
    add_import_table_parser(sub)
    from casefile.cli_archive import add_archive_parser
    add_archive_parser(sub)
    from casefile.cli_team import add_team_parser
    add_team_parser(sub)
    from casefile.cli_watch import add_watch_parser
    add_watch_parser(sub)
    return parser


def _add_workspace_parser(sub: Any) -> None:
    """``casefile workspace info | encrypt | passphrase``."""
    wsp = sub.add_parser("workspace", help="the workspace itself: whether it is encrypted; "
                                           "encrypt it; change its passphrase")
    acts = wsp.add_subparsers(dest="workspace_command", metavar="ACTION", required=True)
    info = acts.add_parser("info", help="where the workspace is, whether it is encrypted, and "
                                        "every plain file an interrupted encryption left")
    info.add_argument("--json", action="store_true")
    acts.add_parser("encrypt", help="encrypt a plain workspace in place (passphrase asked twice, "
                                    "or $CASEFILE_PASSPHRASE); the plain files are overwritten. "
                                    "Run again, it finishes an interrupted encryption (with "
                                    "the same passphrase)")
    acts.add_parser("passphrase", help="change the passphrase of an encrypted workspace (old one "
                                       "asked or $CASEFILE_PASSPHRASE, new one asked twice or "
                                       "$CASEFILE_NEW_PASSPHRASE); run again with the same two, "
                                       "it finishes an interrupted change")


#: Environment variables a script can give passphrases in (a terminal is asked otherwise).
PASSPHRASE_ENV = "CASEFILE_PASSPHRASE"
NEW_PASSPHRASE_ENV = "CASEFILE_NEW_PASSPHRASE"


def _ask(prompt: str, env: str) -> str:
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


def _ask_new(what: str, env: str) -> str:
    """A new passphrase: from ``$env``, else typed twice (both must agree)."""
    from casefile.store.encryption import check_new_passphrase

    if os.environ.get(env):
        return check_new_passphrase(os.environ[env])
    first = _ask(f"{what}: ", env)
    return check_new_passphrase(first, _ask(f"{what} again: ", env))


def _suggestion_id(value: str) -> int:
    try:
        return int(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(
            f"not a suggestion id (a number from `casefile suggestions --case T`): {value!r}"
        ) from exc


def _add_suggestions_parser(sub: Any) -> None:
    """``casefile suggestions --case T [--json]`` and its accept / reject / merge actions."""
    sg = sub.add_parser("suggestions", help="list the waiting suggestions; accept, reject or "
                                            "merge them")
    sg.add_argument("--case", metavar="TITLE")
    sg.add_argument("--json", action="store_true")
    actions = sg.add_subparsers(dest="suggestions_command", metavar="ACTION")
    acc = actions.add_parser("accept", help="accept suggestions by id")
    acc.add_argument("ids", nargs="+", type=_suggestion_id, metavar="ID")
    acc.add_argument("--as", dest="title", metavar="NAME",
                     help="accept one suggestion under another name")
    rej = actions.add_parser("reject", help="reject suggestions by id (never suggested again)")
    rej.add_argument("ids", nargs="+", type=_suggestion_id, metavar="ID")
    mer = actions.add_parser("merge", help="merge a suggestion into an existing item")
    mer.add_argument("ids", nargs=1, type=_suggestion_id, metavar="ID")
    mer.add_argument("--into", required=True, type=int, metavar="ITEM_ID")
    for action_parser in (acc, rej, mer):
        action_parser.add_argument("--case", metavar="TITLE", default=argparse.SUPPRESS)
        action_parser.add_argument("--json", action="store_true", default=argparse.SUPPRESS)
    gone = actions.add_parser("rejected", help="list the names rejected in any case (never "
                                               "suggested again until restored)")
    back = actions.add_parser("restore", help="suggest a rejected name again in every case")
    back.add_argument("kind", metavar="KIND", help="person, organization or place")
    back.add_argument("name", metavar="NAME", help="the rejected name (case is ignored)")
    for action_parser in (gone, back):
        action_parser.add_argument("--json", action="store_true", default=argparse.SUPPRESS)


def _add_suggest_parser(sub: Any) -> None:
    """``casefile suggest --document ID | --case TITLE [--model M] [--json]``."""
    sg = sub.add_parser("suggest", help="find suggestions again in documents already imported "
                                        "(after a failed run or a new model)")
    which = sg.add_mutually_exclusive_group(required=True)
    which.add_argument("--document", type=int, metavar="ID", help="one document, by id")
    which.add_argument("--case", metavar="TITLE", help="every document of the case")
    how = sg.add_mutually_exclusive_group()
    how.add_argument("--rules-only", action="store_true", help="do not use the spaCy model")
    how.add_argument("--model", metavar="NAME_OR_PATH", help=MODEL_HELP)
    sg.add_argument("--json", action="store_true")


def _suggestion_json(entry: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": entry.mention_ids[0], "kind": entry.kind, "name": entry.name,
                           "mentions": entry.mentions, "documents": entry.documents,
                           "document_id": entry.document_id, "mention_ids":
                           list(entry.mention_ids)}
    d = entry.detail
    if entry.kind == "person":
        out.update(role=entry.role, affiliation=entry.affiliation)
    elif entry.kind == "organization":
        out.update(org_kind=d.get("org_kind"))
    elif entry.kind == "event":
        out.update(date=d.get("date"), precision=d.get("precision"))
    elif entry.kind == "question":
        out.update(followup_kind=entry.question_kind, due=d.get("due"))
    elif entry.kind == "claim":
        out.update(attributed_to=d.get("attributed_to"), via=d.get("via"))
    return out


def _suggestion_line(row: dict[str, Any]) -> str:
    def short(text: str, limit: int = 80) -> str:
        text = " ".join(str(text).split())
        return text if len(text) <= limit else text[:limit - 1] + "…"

    kind = {"question": "follow-up"}.get(row["kind"], row["kind"])
    name = short(row["name"])
    extra: list[str] = []
    if row["kind"] == "person":
        extra = [x for x in (row.get("role"), row.get("affiliation")) if x]
    elif row["kind"] == "organization" and row.get("org_kind"):
        extra = [row["org_kind"]]
    elif row["kind"] == "event":
        name = f"{row.get('date') or 'no date'}  {short(row['name'], 70)}"
    elif row["kind"] == "question":
        extra = [row["followup_kind"], f"due {row['due']}" if row.get("due") else "no due date"]
    elif row["kind"] == "claim":
        extra = [f"said by {row.get('attributed_to') or 'no one named'}"]
        if row.get("via"):
            extra.append(f"via {row['via']}")
    if row["mentions"] > 1:
        extra.append(f"{row['mentions']} mentions")
    return f"{row['id']:>6}  {kind:<12} {name}" + (f"  ({'; '.join(extra)})" if extra else "")


def cmd_suggestions(args: argparse.Namespace) -> int:
    """List the waiting suggestions of a case, or accept / reject / merge some by id."""
    from casefile.services import cases, decisions

    ws = _open(args)
    if args.suggestions_command in ("rejected", "restore"):
        return _rejected_names(ws, args)
    if args.suggestions_command is None:
        if not args.case:
            raise ValidationError("say which case: casefile suggestions --case TITLE")
        with ws.transaction(write=False) as s:
            case_id = cases.find_case(s, args.case).id
            listed = decisions.list_suggestions(s, case_id)
            rows = [_suggestion_json(e) for es in listed.by_kind.values() for e in es]
        if args.json:
            _print_json(rows)
        elif not rows:
            print("no suggestions waiting")
        else:
            for row in rows:
                print(_suggestion_line(row))
            print(f"{len(rows)} suggestion{'s' if len(rows) != 1 else ''} waiting; decide with "
                  "`casefile suggestions accept|reject ID...` or `merge ID --into ITEM_ID`")
        return 0
    if getattr(args, "title", None) is not None and len(args.ids) > 1:
        raise ValidationError("--as names one suggestion; give one ID with it")
    only_case: int | None = None
    if args.case:
        with ws.transaction(write=False) as s:
            only_case = cases.find_case(s, args.case).id
    failed = False
    done: list[dict[str, Any]] = []
    with ws.transaction(write=False) as s:  # accepting one suggestion can settle another given here
        waiting_at_start = _waiting_ids(s, args.ids)
    for sid in args.ids:
        if done and sid in waiting_at_start:
            with ws.transaction(write=False) as s:
                settled = sid not in _waiting_ids(s, [sid])
            if settled:
                if not args.json:
                    print(f"{sid}: already settled by an earlier suggestion of this command")
                continue
        try:
            with ws.transaction() as s:
                entry = decisions.find_suggestion(s, sid, only_case)
                if args.suggestions_command == "accept":
                    ch = decisions.accept(s, _case_of(s, sid), entry.kind, entry.name,
                                          variant=entry.variant, title=args.title)
                elif args.suggestions_command == "reject":
                    ch = decisions.reject(s, _case_of(s, sid), entry.kind, entry.name,
                                          variant=entry.variant)
                else:
                    ch = decisions.merge(s, _case_of(s, sid), entry.kind, entry.name,
                                         args.into, variant=entry.variant)
        except CasefileError as exc:
            failed = True
            print(f"casefile: {exc}", file=sys.stderr)
            continue
        d = ch.value
        done.append({"id": sid, "action": d.action, "kind": d.kind, "name": d.name,
                     "item_id": d.item_id, "created": list(d.created_ids),
                     "message": ch.message})
        if not args.json:
            print(f"{sid}: {ch.message}")
    if args.json:
        _print_json(done)
    return 1 if failed else 0


def _waiting_ids(session: Any, ids: Sequence[int]) -> set[int]:
    """Those of the suggestion ids ``ids`` whose mention still waits for a decision."""
    from sqlalchemy import select

    from casefile.store import Mention

    return set(session.scalars(select(Mention.id).where(
        Mention.id.in_(list(ids)), Mention.status == "suggested")))


def _rejected_names(ws: Any, args: argparse.Namespace) -> int:
    """``suggestions rejected``: list the workspace's rejected names; ``suggestions restore KIND
    NAME``: suggest one again in every case."""
    from casefile.services import rejections

    if args.suggestions_command == "rejected":
        with ws.transaction(write=False) as s:
            listed = rejections.rejected_suggestions(s)
        if args.json:
            _print_json([r.as_json() for r in listed])
        elif not listed:
            print("no rejected names")
        else:
            for r in listed:
                when = f"; rejected {r.when[:10]}" if r.when else ""
                mentions = f"{r.mentions} mention{'s' if r.mentions != 1 else ''}"
                print(f"{r.kind:<12} {r.name}  ({mentions} in {', '.join(r.cases)}{when})")
            print(f"{len(listed)} rejected name{'s' if len(listed) != 1 else ''}; suggest one "
                  "again with `casefile suggestions restore KIND NAME`")
        return 0
    with ws.transaction() as s:
        ch = rejections.restore_rejected(s, args.kind, args.name)
    if args.json:
        _print_json({"kind": args.kind, "name": args.name, "mentions": ch.value,
                     "documents": sorted(ch.documents), "message": ch.message})
    else:
        print(ch.message)
    return 0


def cmd_suggest(args: argparse.Namespace) -> int:
    """Run the suggestion step again on documents already imported (one, or all of a case)."""
    from sqlalchemy import select

    from casefile.errors import NotFoundError
    from casefile.services import cases
    from casefile.store import Document

    ws = _open(args)
    with ws.transaction(write=False) as s:
        if args.case is not None:
            case_id = cases.find_case(s, args.case).id
            docs = [(int(i), str(t)) for i, t in s.execute(
                select(Document.id, Document.title).where(Document.case_id == case_id)
                .order_by(Document.id))]
            if not docs:
                raise CasefileError(f"case {args.case!r} has no documents yet (import some: "
                                    "casefile import PATH --case TITLE)")
        else:
            doc = s.get(Document, args.document)
            if doc is None:
                raise NotFoundError(f"no document with id {args.document}")
            docs = [(doc.id, doc.title)]
    mode: Literal["auto", "rules"] = "rules" if args.rules_only else "auto"
    if not args.rules_only:
        _check_model(args.model)
    failed = False
    results: list[dict[str, Any]] = []
    for doc_id, title in docs:
        sug = _suggest(ws, doc_id, args.model, mode)
        results.append({"document_id": doc_id, "title": title, **sug})
        if "error" in sug:
            failed = True
            if not args.json:
                print(f"casefile: document {doc_id} “{title}”: {sug['error']}", file=sys.stderr)
            continue
        if not args.json and sug.get("skipped"):
            print(f"document {doc_id} “{title}”: {sug['skipped']}")
        elif not args.json:
            counts = ", ".join(f"{n} {k}" for k, n in sorted(sug["counts"].items()))
            print(f"document {doc_id} “{title}”: suggestions ({sug.get('model') or sug['mode']})"
                  f": {counts or 'none new'}")
    if args.json:
        _print_json(results)
    return 1 if failed else 0


def _case_of(session: Any, mention_id: int) -> int:
    """The case of a suggestion's mention (found by :func:`decisions.find_suggestion`)."""
    from casefile.store import Mention

    mention = session.get(Mention, mention_id)
    assert mention is not None
    return int(mention.case_id)


#: The workspaces :func:`_open` opened during this run of :func:`main`, closed when it returns
#: (a command need not close its own; ``main`` may run again in the same process).
_opened: list[Workspace] = []


def _open(args: argparse.Namespace) -> Workspace:
    from casefile.store.workspace import encrypted_database, is_new_database, open_workspace

    encrypted = encrypted_database(args.workspace, args.db)
    passphrase = None
    if encrypted is not None:
        passphrase = _ask(f"Passphrase for the workspace at {encrypted.parent}: ",
                          PASSPHRASE_ENV)
    elif args.encrypt and is_new_database(args.workspace, args.db):
        passphrase = _ask_new("Passphrase for the new encrypted workspace", PASSPHRASE_ENV)
    ws = open_workspace(args.workspace, args.db, create=args.new_workspace,
                        passphrase=passphrase, encrypt=args.encrypt)
    _opened.append(ws)
    for problem in ws.private_problems:
        print(f"casefile: warning: cannot make owner-only: {problem}", file=sys.stderr)
    return ws


def cmd_backup(args: argparse.Namespace) -> int:
    from casefile.services import backups

    ws = _open(args)
    try:
        if args.backup_command == "list":
            listed = backups.list_backups(ws)
            if args.json:
                _print_json([{"id": b.id, "taken": b.taken.isoformat(), "reason": b.reason,
                              "size": b.size, "path": str(b.path)} for b in listed])
            elif not listed:
                print("no backups yet")
            for b in listed if not args.json else ():
                print(f"{b.id:<32} {b.taken:%Y-%m-%d %H:%M:%S} UTC  {b.reason:<15} "
                      f"{b.size / 1e6:.1f} MB")
            return 0
        if args.backup_command == "now":
            made = backups.backup_now(ws)
            print(f"backup {made.id} taken ({made.size / 1e6:.1f} MB): {made.path}")
            return 0
        done = backups.restore(ws, args.backup_id)
        print(f"restored backup {done.restored.id} ({sum(done.tables.values())} rows checked); "
              f"the state before it is backup {done.before.id}")
        if done.note:
            print(f"casefile: note: {done.note}", file=sys.stderr)
        return 0
    finally:
        ws.close()


def cmd_workspace(args: argparse.Namespace) -> int:
    from casefile.services import encryption
    from casefile.store.workspace import choose_location, database_path, missing_workspace

    missing = missing_workspace(args.workspace, args.db)
    if missing is not None:
        raise missing
    url = choose_location(args.workspace, args.db).url
    path = database_path(url)
    if path is None:
        raise CasefileError("a database server workspace is not encrypted by Casefile")
    if not path.is_file():
        raise CasefileError(f"no workspace at {path.parent}")
    from casefile.store.encryption import is_encrypted_file

    if args.workspace_command == "info":
        state = encryption.encryption_state(path.parent)
        if args.json:
            _print_json({"folder": str(path.parent), "database": str(path),
                         "encrypted": state.encrypted,
                         "database_encrypted": state.database_encrypted,
                         "unfinished": state.unfinished,
                         "plain_files": [str(p) for p in state.plain],
                         "old_passphrase_files": [str(p) for p in state.old_key],
                         "temporary_files": [str(p) for p in state.temporary]})
            return 0
        print(f"{path.parent}: {state.describe()}")
        for label, files in (("plain (readable without the passphrase)", state.plain),
                             ("still under the old passphrase", state.old_key),
                             ("temporary copy", state.temporary)):
            for file in files:
                print(f"  {label}: {file}")
        return 0
    if args.workspace_command == "encrypt":
        state = encryption.encryption_state(path.parent)
        if state.encrypted:
            raise CasefileError(f"the workspace at {path.parent} is already encrypted")
        if state.database_encrypted:  # an interrupted encryption: finished with its passphrase
            passphrase = _ask(f"Passphrase of the partly encrypted workspace at {path.parent}: ",
                              PASSPHRASE_ENV)
        else:
            _open(args).close()  # brings the schema to head, with its pre-upgrade backup
            passphrase = _ask_new("New passphrase", PASSPHRASE_ENV)
        result = encryption.encrypt_workspace(path.parent, passphrase)
        if result.resumed:
            print(f"finished encrypting {path.parent}: {len(result.backups)} backups encrypted, "
                  f"{len(result.erased)} plain files overwritten and removed")
        else:
            print(f"encrypted {path.parent}: {sum(result.tables.values())} rows in "
                  f"{len(result.tables)} tables checked, {len(result.backups)} backups "
                  f"encrypted, {len(result.erased)} plain files overwritten and removed")
        for other in result.others:
            print(f"casefile: note: {other} is not part of the database and was left as it is",
                  file=sys.stderr)
        return 0
    if not is_encrypted_file(path):
        raise CasefileError(f"the workspace at {path.parent} is not encrypted; encrypt it "
                            "with: casefile workspace encrypt")
    old = _ask(f"Current passphrase for the workspace at {path.parent}: ", PASSPHRASE_ENV)
    new = _ask_new("New passphrase", NEW_PASSPHRASE_ENV)
    done = encryption.change_workspace_passphrase(path.parent, old, new)
    print(f"passphrase {'change finished' if done.resumed else 'changed'} for {path.parent} "
          f"({len(done.rekeyed)} backups re-keyed)")
    for other in done.other_key:
        print(f"casefile: note: backup {other.name} was made under another passphrase and was "
              "left as it is", file=sys.stderr)
    return 0


def cmd_case(args: argparse.Namespace) -> int:
    from casefile.services import cases

    if args.case_command in ("rename", "edit", "delete"):
        from casefile.cli_trash import cmd_case_action
        return cmd_case_action(args)
    ws = _open(args)
    if args.case_command == "new":
        with ws.transaction() as s:
            case = cases.create_case(s, args.title, args.summary)
            case_id, title = case.id, case.title
        if args.json:
            _print_json({"id": case_id, "title": title})
        else:
            print(f"created case {case_id}: {title}")
        return 0
    with ws.transaction(write=False) as s:
        listed = cases.list_cases(s)
    if args.json:
        _print_json([
            {"id": c.id, "title": c.title, "summary": c.summary, "created": c.created,
             "counts": c.counts}
            for c in listed
        ])
    elif not listed:
        print("no cases yet (create one: casefile case new TITLE)")
    else:
        for c in listed:
            n = sum(c.counts.values())
            print(f"{c.id:>4}  {c.title}  ({n} items, {c.counts['document']} documents)")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from casefile.filenames import printable_name
    from casefile.services import batch, cases

    if args.files[0] == "ftm" and len(args.files) > 1 and not Path("ftm").exists():
        from casefile.cli_tables import cmd_import_ftm
        return cmd_import_ftm(args, args.files[1:])
    ws = _open(args)
    with ws.transaction(write=False) as s:
        case_id = cases.find_case(s, args.case).id
    if not args.no_suggest:
        _check_model(args.model)
    given = {Path(name) for name in args.files}
    results: list[dict[str, Any]] = []

    show = sys.stderr.isatty() and not args.json

    def on_file(outcome: batch.FileOutcome) -> None:
        entry = outcome.as_json()
        r = outcome.result
        if r is not None and r.created and not args.no_ocr:
            ids = [r.document_id] + [c.document_id for c in r.children if c.created]
            read = [d for i in ids if (d := _ocr(ws, i, args.ocr_engine, show, args.password))]
            if read:
                entry["ocr"] = read[0] if len(ids) == 1 else read
        if r is not None and r.created and not args.no_suggest:
            entry["suggestions"] = _suggest(ws, r.document_id, args.model)
        results.append(entry)
        if args.json:
            return
        if r is None:
            reason = outcome.error or "cannot be imported"
            named = outcome.path in given and printable_name(outcome.path.name) in reason
            where = printable_name(str(outcome.path))
            print(f"casefile: {reason if named else f'{where}: {reason}'}", file=sys.stderr)
            return
        print(f"{outcome.status}: {r.title} (document {r.document_id}, sha256 {r.sha256[:12]})")
        for note in r.notes:
            print(f"  note: {note}")
        for name, variant in r.watch + [w for c in r.children for w in c.watch]:
            print(f"  watch list: {name}" + (f" (as “{variant}”)" if variant != name else ""))
        for done in _listed(entry.get("ocr")):
            print(f"  {_ocr_line(done)}")
        sug = entry.get("suggestions")
        if isinstance(sug, dict):
            if "error" in sug:
                print(f"  suggestions failed: {sug['error']}")
            elif sug.get("skipped"):
                print(f"  {sug['skipped']}")
            else:
                counts = ", ".join(f"{n} {k}" for k, n in sorted(sug["counts"].items()))
                print(f"  suggestions ({sug.get('model') or sug['mode']}): {counts or 'none'}")

    done = batch.import_paths(ws.transaction, case_id, args.files, published=args.published,
                              password=args.password, on_file=on_file,
                              guess_dates=args.published is None)
    if done.total == 0:
        raise CasefileError("no files to import in " + ", ".join(args.files)
                            + " (hidden files are skipped)")
    if args.json:
        _print_json({"imported": done.count("imported"),
                     "already_there": done.count("already there"),
                     "failed": done.count("failed"), "total": done.total, "files": results})
    else:
        print(done.summary())
    return 0 if done.any_stored else 1


def _listed(value: Any) -> list[dict[str, Any]]:
    return value if isinstance(value, list) else [value] if isinstance(value, dict) else []


def _ocr_line(done: dict[str, Any]) -> str:
    """One line saying what OCR of a document did (or why it failed)."""
    if "error" in done:
        return f"OCR failed: {done['error']}"
    confidence = done.get("mean_confidence")
    pages = done.get("pages") or []
    said = (f"OCR ({done['engine']}): {len(pages)} page{'s' if len(pages) != 1 else ''}, "
            f"{done['words']} words")
    if confidence is not None:
        said += f", mean confidence {confidence:.0%}"
    if done.get("kept"):
        said += f"; kept the text of pages {', '.join(map(str, done['kept']))}"
    return said


def _ocr(ws: Any, document_id: int, engine: str | None, show: bool,
         password: str | None = None) -> dict[str, Any] | None:
    """OCR one document's waiting pages (:func:`casefile.services.ocr.ocr_document`); on a
    terminal (``show``) a progress line on stderr. Returns its ``as_json()``, ``{"error"}``,
    or None when nothing was waiting."""
    from casefile.services.ocr import ocr_document, pending_ocr

    with ws.transaction(write=False) as s:
        waiting = pending_ocr(s, document_ids=[document_id])
    if not waiting:
        return None
    title = waiting[0].title
    shown: list[int] = []

    def progress(done: int, total: int) -> None:
        print(f"\rOCR “{title}”: page {min(done + 1, total)} of {total}", end="",
              file=sys.stderr, flush=True)
        shown.append(done)

    try:
        ch = ocr_document(ws.transaction, document_id, engine=engine,
                          progress=progress if show else None, password=password)
    except CasefileError as exc:
        return {"document_id": document_id, "error": str(exc)}
    finally:
        if shown:
            print("\r\033[K", end="", file=sys.stderr, flush=True)
    return ch.value.as_json() if ch.value is not None else None


def cmd_ocr(args: argparse.Namespace) -> int:
    """OCR documents waiting for it (imported with --no-ocr, or before OCR existed), then
    find suggestions in their new text."""
    from casefile.errors import NotFoundError
    from casefile.services import cases
    from casefile.services.ocr import pending_ocr

    ws = _open(args)
    with ws.transaction(write=False) as s:
        if args.case is not None:
            waiting = pending_ocr(s, cases.find_case(s, args.case).id)
        else:
            from casefile.store import Document

            if s.get(Document, args.document) is None:
                raise NotFoundError(f"no document with id {args.document}")
            waiting = pending_ocr(s, document_ids=[args.document])
    if not args.no_suggest:
        _check_model(args.model)
    show = sys.stderr.isatty() and not args.json
    results: list[dict[str, Any]] = []
    failed = False
    for doc in waiting:
        done = _ocr(ws, doc.document_id, args.engine, show)
        if done is None:
            continue
        entry: dict[str, Any] = {"title": doc.title, **done}
        if "error" not in done and not args.no_suggest:
            entry["suggestions"] = _suggest(ws, doc.document_id, args.model)
        results.append(entry)
        failed = failed or "error" in done
        if not args.json:
            if "error" in done:
                print(f"casefile: document {doc.document_id} “{doc.title}”: OCR failed: "
                      f"{done['error']}", file=sys.stderr)
            else:
                print(f"document {doc.document_id} “{doc.title}”: {_ocr_line(done)}")
    if args.json:
        _print_json(results)
    elif not waiting:
        print("no documents waiting for OCR")
    return 1 if failed else 0


def _check_model(model: str | None) -> None:
    """Load a chosen spaCy model (``--model``, else $CASEFILE_SPACY_MODEL) before anything is
    imported, so a missing one is one error (ModelError) rather than one per file."""
    try:
        from casefile.services.suggestion_models import load_chosen_model
    except ImportError:
        return
    load_chosen_model(model)


def _suggest(ws: Any, document_id: int, model: str | None = None,
             mode: Literal["auto", "rules"] = "auto") -> dict[str, Any]:
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


def cmd_extract(args: argparse.Namespace) -> int:
    from casefile.services.suggestions import extract_file

    result = extract_file(Path(args.file), published=args.published or None,
                          mode="rules" if args.rules_only else "auto", model=args.model,
                          password=args.password)
    if args.json:
        _print_json(result)
        return 0
    print(f"mode: {result.get('mode')}")
    if result.get("skipped"):
        print(f"note: {result['skipped']}")
        return 0
    print(f"model: {result.get('model') or 'none (rules only)'}")
    for key in ("people", "organizations", "places"):
        for e in result.get(key, []):
            extra = ", ".join(x for x in (e.get("role"), e.get("affiliation")) if x)
            print(f"{key[:-1] if key != 'people' else 'person'}: {e['name']}"
                  + (f" ({extra})" if extra else ""))
    for e in result.get("events", []):
        print(f"event: {e['date']} ({e['precision']}): {e['text'][:80]}")
    for f in result.get("followups", []):
        print(f"follow-up: {f['kind']}, due {f['due'] or '-'}: {f['text'][:80]}")
    return 0



def _capture_json(capture: object) -> dict[str, object] | None:
    """A saved web page's capture for ``--json``: ``{"url", "captured", "sha256", "format"}``
    (None for other documents)."""
    if not isinstance(capture, dict):
        return None
    return {key: capture.get(key) for key in ("url", "captured", "sha256", "format")}

def _item_json(item: Any, names: dict[int, str]) -> dict[str, Any]:
    out: dict[str, Any] = {"id": item.id, "kind": item.kind, "title": item.title,
                           "confidential": item.confidential, "notes": item.notes}
    if item.kind in ("person", "organization", "place"):
        out["aliases"] = list(item.aliases or [])
    if item.kind == "person":
        out["role"] = item.role
        out["affiliation"] = names.get(item.affiliation_id) if item.affiliation_id else None
        out["identifying_phrases"] = list(item.identifying_phrases or [])
    elif item.kind == "organization":
        out["org_kind"] = item.org_kind
    elif item.kind == "document":
        out.update(doc_kind=item.doc_kind, author=item.author, outlet=item.outlet,
                   url=item.url, sha256=item.file_sha256, mime_type=item.mime_type,
                   published=item.published.isoformat() if item.published else None,
                   notes_on_import=list(item.import_notes or []),
                   capture=_capture_json((item.meta or {}).get("capture")))
    elif item.kind == "event":
        out.update(date=item.date.isoformat() if item.date else None, precision=item.precision)
    elif item.kind == "question":
        out.update(question_kind=item.question_kind, status=item.status,
                   due=item.due.isoformat() if item.due else None)
    elif item.kind == "claim":
        out.update(statement=item.statement, status=item.status)
    return out


def cmd_item(args: argparse.Namespace) -> int:
    """``casefile item ID --confidential | --not-confidential | --identifying PHRASE...``: the
    window's edit of the Confidential box and of a person's identifying phrases
    (``item_actions.edit``)."""
    from casefile.services import item_actions, items

    fields: dict[str, Any] = {}
    if args.confidential is not None:
        fields["confidential"] = args.confidential
    if args.identifying and args.clear_identifying:
        raise ValidationError("give --identifying phrases or --clear-identifying, not both")
    if args.identifying or args.clear_identifying:
        fields["identifying_phrases"] = list(args.identifying or [])
    if not fields:
        raise ValidationError("say what to change: --confidential, --not-confidential, "
                              "--identifying PHRASE or --clear-identifying")
    ws = _open(args)
    with ws.transaction() as s:
        item = items.get_item(s, args.id)
        if "identifying_phrases" in fields and item.kind != "person":
            raise ValidationError(f"identifying phrases belong to a person; item {item.id} is "
                                  f"a {item.kind}")
        item_actions.edit(s, item.id, fields)
        row: dict[str, Any] = {"id": item.id, "kind": item.kind, "title": item.title,
                               "confidential": item.confidential}
        if item.kind == "person":
            row["identifying_phrases"] = list(getattr(item, "identifying_phrases", None) or [])
    if args.json:
        _print_json(row)
    else:
        state = "confidential" if row["confidential"] else "not confidential"
        print(f"{row['id']} {row['kind']} {row['title']}: {state}")
        if "identifying_phrases" in fields:
            phrases = row.get("identifying_phrases") or []
            print("identifying phrases: " + ("; ".join(phrases) if phrases else "none"))
    return 0


def cmd_items(args: argparse.Namespace) -> int:
    from casefile.services import cases, items

    ws = _open(args)
    with ws.transaction(write=False) as s:
        case_id = cases.find_case(s, args.case).id
        listed = items.list_items(s, case_id, args.kind)
        names = {i.id: i.title for i in items.list_items(s, case_id)}
        rows = [_item_json(i, names) for i in listed]
    if args.json:
        _print_json(rows)
        return 0
    for r in rows:
        extra = ", ".join(str(r[k]) for k in ("role", "affiliation", "date", "due", "status")
                          if r.get(k))
        print(f"{r['id']:>5}  {r['kind']:<12} {r['title']}" + (f"  ({extra})" if extra else ""))
    if not rows:
        print("no items")
    return 0


def cmd_followups(args: argparse.Namespace) -> int:
    from casefile.services import cases, questions

    if args.ics:
        return _followups_ics(args)
    statuses = None if not args.status or "all" in args.status else tuple(args.status)
    ws = _open(args)
    with ws.transaction(write=False) as s:
        case_id = cases.find_case(s, args.case).id
        listed = questions.followups(
            s, case_id, due_within=args.due_within, today=args.today, statuses=statuses,
            include_closed=bool(args.status and "all" in args.status),
            overdue_only=args.overdue,
        )
    if args.json:
        _print_json([f.as_json() for f in listed])
        return 0
    if not listed:
        print("no overdue follow-ups" if args.overdue else "no follow-ups" if args.status
              else "no open follow-ups")
    for f in listed:
        flag = "OVERDUE " if f.overdue else ""
        status = "" if f.status == "open" else f", {f.status}"
        print(f"{flag}{f.due or 'no due date'}  [{f.kind}{status}] {f.text}")
        if f.status == "answered":
            print(f"    answered {f.answered_on or ''}: {f.answer or ''}".rstrip())
    return 0


def _followups_ics(args: argparse.Namespace) -> int:
    from casefile.services import calendar, cases

    if args.overdue or args.status or args.due_within is not None:
        raise ValidationError("--ics writes every dated follow-up; leave out --overdue, "
                              "--status and --due-within")
    out = Path(args.ics)
    if out.is_dir():
        raise ValidationError(f"{out} is a folder; give a file name ending in .ics")
    ws = _open(args)
    with ws.transaction(write=False) as s:
        case_id = cases.find_case(s, args.case).id
        done = calendar.export_followups_ics(
            s, case_id, out, include_confidential=args.include_confidential,
            profile=args.profile, component=args.ics_as)
    if args.json:
        _print_json({"file": str(out), **done.as_json()})
        return 0
    print(f"wrote {out} ({done.entries} follow-up{'s' if done.entries != 1 else ''})")
    if done.undated:
        print(f"  {done.undated} without a due date left out")
    if done.withheld:
        print(f"  {done.withheld} confidential left out (--include-confidential adds them)")
    return 0


def cmd_claims(args: argparse.Namespace) -> int:
    from casefile.services import cases, claims

    ws = _open(args)
    with ws.transaction(write=False) as s:
        case_id = cases.find_case(s, args.case).id
        rows = claims.claims_overview(s, case_id)
    if args.json:
        _print_json([
            {"id": r.id, "statement": r.statement, **r.assessment.as_json(),
             "attributed_to": r.chain.attributed_to, "attributed_kind": r.chain.attributed_kind,
             "via": r.chain.via, "via_kind": r.chain.via_kind}
            for r in rows
        ])
        return 0
    if not rows:
        print("no claims")
    for r in rows:
        a = r.assessment
        print(f"{a.status.upper():<14} {r.chain.as_text()}")
        if a.overridden:
            print(f"    set by hand: {a.reason} (the evidence alone: {a.computed})")
        else:
            print(f"    {a.explanation}")
    return 0


def cmd_documents(args: argparse.Namespace) -> int:
    from casefile.services import cases, reading

    ws = _open(args)
    with ws.transaction(write=False) as s:
        case_id = cases.find_case(s, args.case).id
        docs = reading.case_documents(s, case_id, args.state)
        summary = reading.reading_summary(s, case_id)
    if args.json:
        _print_json([d.as_json() for d in docs])
        return 0
    for d in docs:
        print(f"{d.id:>5}  {reading.STATE_WORDS[d.reading]:<12} {d.title}")
    print(summary.as_text())
    return 0


def cmd_mark(args: argparse.Namespace) -> int:
    from casefile.services import reading

    ws = _open(args)
    with ws.transaction() as s:
        done = reading.mark_documents(s, args.ids, args.state)
    print(done.message)
    return 0


def cmd_duplicates(args: argparse.Namespace) -> int:
    from casefile.services import cases, duplicates

    ws = _open(args)
    with ws.transaction(write=False) as s:
        case_id = cases.find_case(s, args.case).id
        clusters = duplicates.case_duplicates(s, case_id)
    if args.json:
        _print_json([c.as_json() for c in clusters])
        return 0
    if not clusters:
        print("no copies: every document is its own source")
    for c in clusters:
        print(f"{c.label}: {'; '.join(c.reasons)}")
        for doc_id, title in zip(c.document_ids, c.titles, strict=True):
            print(f"  {doc_id:>5}  {title}")
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    from casefile.services import cases
    from casefile.services.search import search_workspace

    ws = _open(args)
    with ws.transaction(write=False) as s:
        case_id = cases.find_case(s, args.case).id if args.case else None
        hits = search_workspace(s, args.query, case_id, limit=50).hits
    if args.json:
        _print_json([{"item_id": h.item_id, "case_id": h.case_id, "kind": h.kind,
                      "title": h.title, "snippet": h.marked_snippet} for h in hits])
        return 0
    for h in hits:
        print(f"{h.item_id:>5}  {h.kind:<12} {h.title}\n       {h.marked_snippet}")
    if not hits:
        print("no results")
    return 0


def cmd_reindex(args: argparse.Namespace) -> int:
    from casefile.services import cases
    from casefile.services.reindex import rebuild_search_index

    shown: list[int] = []

    def progress(done: int, total: int) -> None:  # on a terminal only
        print(f"\rreindexing: {done}/{total} items", end="", file=sys.stderr, flush=True)
        shown.append(done)

    ws = _open(args)
    try:
        with ws.transaction() as s:  # one transaction: a failure leaves the old index
            case_id = cases.find_case(s, args.case).id if args.case else None
            report = rebuild_search_index(
                s, case_id, progress if sys.stderr.isatty() and not args.json else None)
    finally:
        if shown:
            print(file=sys.stderr)
    if args.json:
        _print_json(report.as_json())
    else:
        print(report.summary())
    return 0


def cmd_brief(args: argparse.Namespace) -> int:
    from casefile.services import brief, cases

    out = Path(args.output)
    if out.is_dir():
        raise ValidationError(f"{out} is a folder; give a file name ending in .pdf")
    ws = _open(args)
    with ws.transaction(write=False) as s:  # reads; the PDF goes to a temp file renamed into place
        case_id = cases.find_case(s, args.case).id
        data = brief.export_brief(s, case_id, out, include_confidential=args.include_confidential,
                                  profile=args.profile, today=args.today)
    print(f"wrote {out} (profile {data.profile})")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from casefile.services.demo import build_demo

    ws = _open(args)
    with ws.transaction() as s:
        case_id, created = build_demo(s)
    print(case_id)
    if not created:
        print("(the sample case was already there)", file=sys.stderr)
    if not args.open:
        return 0
    ws.close()  # the window opens the workspace itself; no second set of connections idles here
    try:
        return _run_gui(args, case_id)
    except GuiUnavailable as exc:
        # No window can open here (no display, or Qt missing): print the brief instead, so the
        # README's first command still ends with something to look at.
        from casefile.services import brief

        # never a plain PDF beside an encrypted database
        folder = ws.folder if ws.folder is not None and not ws.encrypted else Path.cwd()
        target = folder / "sample-brief.pdf"
        with ws.transaction(write=False) as s:
            brief.export_brief(s, case_id, target)
        print(f"casefile: {exc}; wrote the sample brief to {target} instead", file=sys.stderr)
        return 0


class GuiUnavailable(CasefileError):
    """The desktop app cannot start on this machine (no display, or Qt cannot load)."""


def _check_display() -> None:
    if os.environ.get("QT_QPA_PLATFORM"):
        return
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        raise GuiUnavailable("no display to open the window on (DISPLAY is not set)")


def _run_gui(args: argparse.Namespace, case_id: int | None = None) -> int:
    _check_display()
    try:
        from casefile.ui.app import run_app
    except ImportError as exc:
        raise GuiUnavailable(f"the desktop app cannot start: {exc}") from exc
    return run_app(workspace=args.workspace, db_url=args.db, case_id=case_id,
                   new_workspace=args.new_workspace, encrypt=args.encrypt)


COMMANDS = {
    "case": cmd_case, "import": cmd_import, "extract": cmd_extract, "items": cmd_items,
    "item": cmd_item,
    "followups": cmd_followups, "claims": cmd_claims, "duplicates": cmd_duplicates,
    "documents": cmd_documents, "mark": cmd_mark,
    "search": cmd_search, "brief": cmd_brief,
    "demo": cmd_demo, "reindex": cmd_reindex, "suggestions": cmd_suggestions,
    "suggest": cmd_suggest, "workspace": cmd_workspace, "backup": cmd_backup,
    "ocr": cmd_ocr,
    "export": lambda args: _tables_command(args),
    "import-table": lambda args: _tables_command(args),
    "archive": lambda args: _archive_command(args),
    "trash": lambda args: _trash_command(args),
    "team": lambda args: _team_command(args),
    "watch": lambda args: __import__("casefile.cli_watch").cli_watch.cmd_watch(args),
}


def _team_command(args: argparse.Namespace) -> int:
    from casefile.cli_team import cmd_team
    return cmd_team(args)


def _trash_command(args: argparse.Namespace) -> int:
    from casefile.cli_trash import cmd_trash
    return cmd_trash(args)


def _archive_command(args: argparse.Namespace) -> int:
    from casefile.cli_archive import cmd_archive
    return cmd_archive(args)


def _tables_command(args: argparse.Namespace) -> int:
    from casefile.cli_tables import cmd_export, cmd_import_table
    return cmd_export(args) if args.command == "export" else cmd_import_table(args)


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
            return _run_gui(args)
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
        while _opened:
            _opened.pop().close()


if __name__ == "__main__":
    sys.exit(main())
