"""``casefile trash list | restore | empty``: deleted cases and items.

Each runs the same service function as the window (:mod:`casefile.services.trash`) in one
transaction. ``casefile case delete`` (:mod:`casefile.cli.cases`) moves a case to the Trash
and ``trash restore ID`` brings it back; ``trash empty`` is the one delete that cannot be
taken back, so it asks on a terminal and needs ``--yes`` in a script.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from casefile.cli.common import add_actions, id_type, open_workspace, print_outcome, print_rows
from casefile.errors import ValidationError

if TYPE_CHECKING:
    from casefile.services.trash import TrashListing


def add_trash_parser(sub: Any) -> None:
    """``casefile trash list [--json] | restore ID [--json] | empty [--yes]``."""
    acts = add_actions(sub, "trash", help="list, restore or empty the Trash (deleted cases and "
                                          "items)")
    lst = acts.add_parser("list", help="what is in the Trash, newest first")
    lst.add_argument("--json", action="store_true")
    res = acts.add_parser("restore", help="bring an entry back exactly as it was deleted")
    res.add_argument("entry_id", metavar="ID",
                     type=id_type("a Trash id", "casefile trash list"))
    res.add_argument("--json", action="store_true")
    emp = acts.add_parser("empty", help="delete everything in the Trash for good")
    emp.add_argument("--yes", action="store_true", help="do not ask (for scripts)")
    emp.add_argument("--json", action="store_true")


def cmd_trash(args: argparse.Namespace) -> int:
    """``trash list``, ``trash restore ID``, ``trash empty``."""
    from casefile.services import trash

    ws = open_workspace(args)
    try:
        if args.trash_command == "list":
            with ws.transaction() as s:
                listed = trash.list_trash(s)
            print_rows(args, listed, trash.TrashListing.as_json, _entry_line, "the Trash is empty")
            return 0
        if args.trash_command == "restore":
            with ws.transaction() as s:
                ch = trash.restore(s, args.entry_id)
            print_outcome(args, ch.message, {"id": args.entry_id, "case_id": ch.case_id,
                                             "item_ids": sorted(ch.created),
                                             "message": ch.message})
            return 0
        with ws.transaction() as s:
            n = len(trash.list_trash(s))
        if n and not args.yes:
            _confirm_empty(n)
        with ws.transaction() as s:
            ch = trash.empty(s)
        print_outcome(args, ch.message, {"deleted": ch.value})
        return 0
    finally:
        ws.close()


def _entry_line(e: TrashListing) -> str:
    where = "" if e.what == "case" else f" from case “{e.case_title}”"
    return f"{e.id:>4}  {e.deleted.replace('T', ' ')} UTC  {e.label}{where}  ({e.holds})"


def _confirm_empty(n: int) -> None:
    """Ask on the terminal before emptying ``n`` entries; raises ValidationError when there is
    no terminal (a script must say --yes) or the answer is not yes."""
    entries = f"{n} {'entry' if n == 1 else 'entries'}"
    if not sys.stdin.isatty():
        raise ValidationError(f"emptying the Trash deletes {entries} for good; add --yes to do "
                              "it from a script")
    answer = input(f"Delete the {entries} in the Trash for good? This cannot be undone. [y/N] ")
    if answer.strip().lower() not in ("y", "yes"):
        raise ValidationError("the Trash was left as it is")
