"""``casefile team add|remove|list``: the members of a case on a team workspace.

Each runs one service function of :mod:`casefile.services.team` in one transaction; on a
SQLite workspace (single-user) each is refused in one line.
"""

from __future__ import annotations

import argparse
from typing import Any

from casefile.cli.common import add_actions, open_workspace, print_json, print_outcome

ROLE_HELP = ("reader (sees the case), editor (also changes it) or owner (also deletes it and "
             "manages its members)")


def add_team_parser(sub: Any) -> None:
    """``casefile team add USER --case TITLE --role ROLE | remove USER --case TITLE |
    list [--case TITLE]``, each with ``--json``."""
    acts = add_actions(sub, "team", help="the members of a case on a team workspace "
                                         "(PostgreSQL): add, remove, list")
    add = acts.add_parser("add", help="make a database user a member of a case, or change "
                                      "their role")
    add.add_argument("user", metavar="USER", help="the database user (created by the DBA)")
    add.add_argument("--case", required=True, metavar="TITLE")
    add.add_argument("--role", required=True, choices=("reader", "editor", "owner"),
                     help=ROLE_HELP)
    add.add_argument("--json", action="store_true")
    rem = acts.add_parser("remove", help="take a member out of a case")
    rem.add_argument("user", metavar="USER")
    rem.add_argument("--case", required=True, metavar="TITLE")
    rem.add_argument("--json", action="store_true")
    lst = acts.add_parser("list", help="the members of a case (of every case you can see "
                                       "without --case)")
    lst.add_argument("--case", metavar="TITLE")
    lst.add_argument("--json", action="store_true")


def _member_json(m: Any) -> dict[str, Any]:
    return {"case_id": m.case_id, "case": m.case_title, "user": m.user, "role": m.role,
            "added": m.added.isoformat(timespec="seconds"), "added_by": m.added_by}


def cmd_team(args: argparse.Namespace) -> int:
    """``team add``, ``team remove``, ``team list``."""
    from casefile.services import cases, team

    ws = open_workspace(args)
    try:
        if args.team_command == "list":
            with ws.transaction(write=False) as s:
                case_id = cases.find_case(s, args.case).id if args.case else None
                members = team.list_members(s, case_id)
            if args.json:
                print_json([_member_json(m) for m in members])
                return 0
            for m in members:
                print(f"{m.case_title}  {m.user:<20} {m.role:<7} added "
                      f"{m.added:%Y-%m-%d %H:%M} UTC by {m.added_by}")
            if not members:
                print("no members" + (f" in case “{args.case}” (only the workspace's owner "
                                      "sees it)" if args.case else ""))
            return 0
        with ws.transaction() as s:
            case_id = cases.find_case(s, args.case).id
            if args.team_command == "add":
                ch = team.add_member(s, case_id, args.user, args.role)
            else:
                ch = team.remove_member(s, case_id, args.user)
        print_outcome(args, ch.message, {**_member_json(ch.value), "message": ch.message})
        return 0
    finally:
        ws.close()
