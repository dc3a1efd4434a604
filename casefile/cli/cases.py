"""``casefile case new | list | rename | edit | delete``: the cases of the workspace.

Each runs the same service function as the window (:mod:`casefile.services.cases`,
:mod:`casefile.services.case_actions`; ``delete`` moves the case to the Trash through
:mod:`casefile.services.trash`, and ``casefile trash restore ID`` brings it back).
"""

from __future__ import annotations

import argparse
from typing import Any

from casefile.cli.common import add_actions, open_workspace, print_json


def add_case_parser(sub: Any) -> None:
    """``casefile case new TITLE [--summary S] | list | rename OLD NEW | edit TITLE --summary
    TEXT | delete TITLE``, each with ``--json``."""
    case_sub = add_actions(sub, "case", help="create, list, rename, edit or delete cases")
    new = case_sub.add_parser("new", help="create a case")
    new.add_argument("title")
    new.add_argument("--summary")
    new.add_argument("--json", action="store_true")
    lst = case_sub.add_parser("list", help="list cases")
    lst.add_argument("--json", action="store_true")
    ren = case_sub.add_parser("rename", help="rename a case")
    ren.add_argument("title", metavar="OLD")
    ren.add_argument("new_title", metavar="NEW")
    ren.add_argument("--json", action="store_true")
    ed = case_sub.add_parser("edit", help="change a case's summary")
    ed.add_argument("title", metavar="TITLE")
    ed.add_argument("--summary", required=True, metavar="TEXT",
                    help="the new summary ('' clears it)")
    ed.add_argument("--json", action="store_true")
    de = case_sub.add_parser("delete", help="move a case to the Trash (casefile trash restore "
                                            "ID brings it back)")
    de.add_argument("title", metavar="TITLE")
    de.add_argument("--json", action="store_true")



def cmd_case(args: argparse.Namespace) -> int:
    """``case new``, ``case list``; the others go to :func:`_case_action`."""
    from casefile.services import cases

    if args.case_command in ("rename", "edit", "delete"):
        return _case_action(args)
    ws = open_workspace(args)
    if args.case_command == "new":
        with ws.transaction() as s:
            case = cases.create_case(s, args.title, args.summary)
            case_id, title = case.id, case.title
        if args.json:
            print_json({"id": case_id, "title": title})
        else:
            print(f"created case {case_id}: {title}")
        return 0
    with ws.transaction(write=False) as s:
        listed = cases.list_cases(s)
    if args.json:
        print_json([
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


def _case_action(args: argparse.Namespace) -> int:
    """``case rename OLD NEW``, ``case edit TITLE --summary TEXT``, ``case delete TITLE``."""
    from casefile.services import case_actions, cases, trash

    ws = open_workspace(args)
    try:
        with ws.transaction() as s:
            case_id = cases.find_case(s, args.title).id
            if args.case_command == "rename":
                ch = case_actions.rename(s, case_id, args.new_title)
                out: dict[str, Any] = {"id": case_id, "title": ch.value}
            elif args.case_command == "edit":
                ch = case_actions.edit_summary(s, case_id, args.summary)
                out = {"id": case_id, "title": args.title, "summary": ch.value}
            else:
                ch = trash.delete_case(s, case_id)
                out = {"id": case_id, "title": args.title, "trash_id": ch.value}
    finally:
        ws.close()
    if args.json:
        print_json(out)
    elif args.case_command == "delete":
        print(f"moved case “{args.title}” to the Trash as entry {out['trash_id']}; bring it back "
              f"with: casefile trash restore {out['trash_id']}")
    else:
        print(ch.message)
    return 0
