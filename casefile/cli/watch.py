"""``casefile watch add|load|list|remove|hits``: the watch list on the command line (the parser
of the ``casefile`` command lives in :mod:`casefile.cli`; this module adds these actions).

Each runs the same service function as the window (:mod:`casefile.services.watch_list`) in
one transaction. Names are watched in one case (``--case``) or in every case of the workspace
(no ``--case``); ``casefile import`` lists the names each new document mentions.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from casefile.cli.common import add_actions, open_workspace, print_outcome, print_rows
from casefile.errors import ValidationError

if TYPE_CHECKING:
    from casefile.services.watch_list import Hit, WatchedName

KIND_CHOICES = ("person", "organization", "name")


def add_watch_parser(sub: Any) -> None:
    """``casefile watch add NAME… | load FILE | list | remove ID… | hits --case T``."""
    acts = add_actions(sub, "watch", help="names to watch: every import says which new "
                                          "documents mention them")
    add = acts.add_parser("add", help="watch names (the case's documents are checked for them "
                                      "at once)")
    add.add_argument("names", nargs="*", metavar="NAME")
    add.add_argument("--case", metavar="TITLE",
                     help="watch in this case only (default: in every case of the workspace)")
    add.add_argument("--kind", choices=KIND_CHOICES, default="name",
                     help="a person's name also matches 'Last, First', initials and a title "
                          "before the family name; default: guessed from the name")
    add.add_argument("--alias", action="append", default=[], metavar="SPELLING",
                     help="another spelling of the (one) name given")
    add.add_argument("--from-case", action="store_true",
                     help="also watch every person and organization of --case")
    add.add_argument("--json", action="store_true")
    load = acts.add_parser("load", help="watch the names of a CSV/XLSX file (a 'name' column, "
                                        "optional 'aliases' and 'kind') or of FollowTheMoney "
                                        "entities (.json/.jsonl/.ftm: an OpenSanctions or "
                                        "Aleph export)")
    load.add_argument("file", metavar="FILE")
    load.add_argument("--case", metavar="TITLE", help="watch in this case only")
    load.add_argument("--json", action="store_true")
    lst = acts.add_parser("list", help="the names watched (in a case: its own and the "
                                       "workspace's), with how many documents mention each")
    lst.add_argument("--case", metavar="TITLE")
    lst.add_argument("--json", action="store_true")
    rem = acts.add_parser("remove", help="stop watching names (by id, from watch list)")
    rem.add_argument("ids", nargs="+", type=int, metavar="ID")
    rem.add_argument("--json", action="store_true")
    hits = acts.add_parser("hits", help="the case's documents that mention watched names")
    hits.add_argument("--case", metavar="TITLE", required=True)
    hits.add_argument("--json", action="store_true")


def cmd_watch(args: argparse.Namespace) -> int:
    """Run ``casefile watch ACTION``."""
    from casefile.services import cases, watch_list

    ws = open_workspace(args)
    try:
        case_id = None
        if getattr(args, "case", None):
            with ws.transaction(write=False) as s:
                case_id = cases.find_case(s, args.case).id
        if args.watch_command == "list":
            with ws.transaction(write=False) as s:
                listed = watch_list.list_names(s, case_id)
            print_rows(args, listed, watch_list.WatchedName.as_json, _name_line,
                       "no names watched yet (casefile watch add NAME…)")
            return 0
        if args.watch_command == "hits":
            assert case_id is not None
            with ws.transaction(write=False) as s:
                found = watch_list.case_hits(s, case_id)
            print_rows(args, found, watch_list.Hit.as_json, _hit_line,
                       f"no document of “{args.case}” mentions a watched name")
            return 0
        if args.watch_command == "remove":
            with ws.transaction() as s:
                ch = watch_list.remove_names(s, args.ids)
        else:
            entries = _entries(args, ws, case_id)
            source = "typed" if args.watch_command == "add" else _file_name(args.file)
            with ws.transaction() as s:
                ch = watch_list.add_names(s, entries, case_id, source=source)
        print_outcome(args, ch.message, {
            "message": ch.message,
            **(ch.value if isinstance(ch.value, dict) else {"removed": ch.value})})
        return 0
    finally:
        ws.close()


def _name_line(n: WatchedName) -> str:
    scope = "workspace" if n.case_id is None else "case"
    also = f" (also {'; '.join(n.aliases)})" if n.aliases else ""
    return (f"{n.id:>5}  {n.name}{also}  [{n.kind}, {scope}, {n.source}]  "
            f"{n.documents} document{'s' if n.documents != 1 else ''}")


def _hit_line(h: Hit) -> str:
    return (f"document {h.document_id} “{h.document}”: {h.name} as “{h.variant}”"
            f"{f' ({h.count} times)' if h.count > 1 else ''}\n    {h.passage}")


def _file_name(path: str) -> str:
    from pathlib import Path

    from casefile.filenames import printable_name

    return printable_name(Path(path).name)


def _entries(args: argparse.Namespace, ws: Any, case_id: int | None) -> list[Any]:
    from casefile.services import watch_files, watch_list

    if args.watch_command == "load":
        return list(watch_files.read_names_file(args.file))
    if args.alias and len(args.names) != 1:
        raise ValidationError("--alias goes with one name")
    entries: list[Any] = [watch_list.WatchEntry(n, tuple(args.alias), args.kind)
                          for n in args.names]
    if args.from_case:
        if case_id is None:
            raise ValidationError("--from-case needs --case TITLE")
        with ws.transaction(write=False) as s:
            entries += watch_list.names_from_case(s, case_id)
    if not entries:
        raise ValidationError("give names to watch (or --from-case with --case TITLE)")
    return entries
