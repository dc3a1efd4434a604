"""``casefile search`` and ``casefile reindex``: full-text search over the workspace, and the
repair that rebuilds its index.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from casefile.cli.common import open_workspace, print_json


def add_search_parser(sub: Any) -> None:
    """``casefile search QUERY [--case TITLE] [--json]``."""
    se = sub.add_parser("search", help="full-text search")
    se.add_argument("query")
    se.add_argument("--case", metavar="TITLE")
    se.add_argument("--json", action="store_true")


def add_reindex_parser(sub: Any) -> None:
    """``casefile reindex [--case TITLE] [--json]``."""
    ri = sub.add_parser("reindex", help="rebuild the search index (repair only: every change "
                                        "already updates it)")
    ri.add_argument("--case", metavar="TITLE", help="only this case's items (default: all)")
    ri.add_argument("--json", action="store_true")



def cmd_search(args: argparse.Namespace) -> int:
    from casefile.services import cases
    from casefile.services.search import search_workspace

    ws = open_workspace(args)
    with ws.transaction(write=False) as s:
        case_id = cases.find_case(s, args.case).id if args.case else None
        hits = search_workspace(s, args.query, case_id, limit=50).hits
    if args.json:
        print_json([{"item_id": h.item_id, "case_id": h.case_id, "kind": h.kind,
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

    ws = open_workspace(args)
    try:
        with ws.transaction() as s:  # one transaction: a failure leaves the old index
            case_id = cases.find_case(s, args.case).id if args.case else None
            report = rebuild_search_index(
                s, case_id, progress if sys.stderr.isatty() and not args.json else None)
    finally:
        if shown:
            print(file=sys.stderr)
    if args.json:
        print_json(report.as_json())
    else:
        print(report.summary())
    return 0
