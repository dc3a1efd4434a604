"""``casefile documents``, ``casefile mark`` and ``casefile duplicates``: a case's documents,
their reading state and the copies of one story among them.
"""

from __future__ import annotations

import argparse
from typing import Any

from casefile.cli.common import (
    READING_STATES,
    open_workspace,
    print_json,
    read_case,
    reading_state,
)


def add_documents_parser(sub: Any) -> None:
    """``casefile documents --case TITLE [--state S] [--json]``."""
    dl = sub.add_parser("documents", help="list a case's documents with their reading state "
                                          "(unread, read, relevant, irrelevant)")
    dl.add_argument("--case", required=True, metavar="TITLE")
    dl.add_argument("--state", choices=READING_STATES, help="only documents in this state")
    dl.add_argument("--json", action="store_true")


def add_mark_parser(sub: Any) -> None:
    """``casefile mark STATE DOC_ID...``."""
    mk = sub.add_parser("mark", help="set documents' reading state: unread, read, relevant or "
                                     "irrelevant")
    mk.add_argument("state", type=reading_state, choices=READING_STATES,
                    help="unread, read, relevant or irrelevant (also: not-relevant)")
    mk.add_argument("ids", nargs="+", type=int, metavar="DOC_ID",
                    help="document ids from `casefile documents`")


def add_duplicates_parser(sub: Any) -> None:
    """``casefile duplicates --case TITLE [--json]``."""
    du = sub.add_parser("duplicates", help="list the copies of one story among a case's "
                                           "documents (they count as one source)")
    du.add_argument("--case", required=True, metavar="TITLE")
    du.add_argument("--json", action="store_true")



def cmd_documents(args: argparse.Namespace) -> int:
    from casefile.services import cases, reading

    ws = open_workspace(args)
    with ws.transaction(write=False) as s:
        case_id = cases.find_case(s, args.case).id
        docs = reading.case_documents(s, case_id, args.state)
        summary = reading.reading_summary(s, case_id)
    if args.json:
        print_json([d.as_json() for d in docs])
        return 0
    for d in docs:
        print(f"{d.id:>5}  {reading.STATE_WORDS[d.reading]:<12} {d.title}")
    print(summary.as_text())
    return 0


def cmd_mark(args: argparse.Namespace) -> int:
    from casefile.services import reading

    ws = open_workspace(args)
    with ws.transaction() as s:
        done = reading.mark_documents(s, args.ids, args.state)
    print(done.message)
    return 0


def cmd_duplicates(args: argparse.Namespace) -> int:
    from casefile.services import duplicates

    clusters = read_case(args, duplicates.case_duplicates)
    if args.json:
        print_json([c.as_json() for c in clusters])
        return 0
    if not clusters:
        print("no copies: every document is its own source")
    for c in clusters:
        print(f"{c.label}: {'; '.join(c.reasons)}")
        for doc_id, title in zip(c.document_ids, c.titles, strict=True):
            print(f"  {doc_id:>5}  {title}")
    return 0
