"""``casefile suggestions`` (list, accept, reject, merge, rejected, restore), ``casefile
suggest`` (find them again in documents already imported) and ``casefile extract`` (what a
file would suggest, nothing stored): the suggested names, dates and follow-ups of a case.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from casefile.cli.common import (
    MODEL_HELP,
    check_model,
    id_type,
    open_workspace,
    parse_date,
    print_json,
    print_outcome,
    suggest_document,
)
from casefile.errors import CasefileError, ValidationError


def add_extract_parser(sub: Any) -> None:
    """``casefile extract FILE [--published D] [--rules-only | --model M] [--password P]
    [--json]``."""
    ext = sub.add_parser("extract", help="print suggestions for a file; nothing is stored")
    ext.add_argument("file", metavar="FILE")
    ext.add_argument("--published", type=parse_date, metavar="YYYY-MM-DD")
    how = ext.add_mutually_exclusive_group()
    how.add_argument("--rules-only", action="store_true", help="do not use the spaCy model")
    how.add_argument("--model", metavar="NAME_OR_PATH", help=MODEL_HELP)
    ext.add_argument("--password", help="password of an encrypted PDF")
    ext.add_argument("--json", action="store_true")


#: The argument type of a suggestion's id.
_suggestion_id = id_type("a suggestion id", "casefile suggestions --case T")


def add_suggestions_parser(sub: Any) -> None:
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


def add_suggest_parser(sub: Any) -> None:
    """``casefile suggest --document ID | --case TITLE [--waiting] [--model M] [--json]``."""
    sg = sub.add_parser("suggest", help="find suggestions again in documents already imported "
                                        "(after a failed run or a new model)")
    which = sg.add_mutually_exclusive_group(required=True)
    which.add_argument("--document", type=int, metavar="ID", help="one document, by id")
    which.add_argument("--case", metavar="TITLE", help="every document of the case")
    sg.add_argument("--waiting", action="store_true",
                    help="with --case: only the documents no suggestion run has read yet (a "
                         "run cut short, an import with --no-suggest)")
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

    ws = open_workspace(args)
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
            print_json(rows)
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
        print_json(done)
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
            print_json([r.as_json() for r in listed])
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
    print_outcome(args, ch.message, {"kind": args.kind, "name": args.name, "mentions": ch.value,
                                     "documents": sorted(ch.documents), "message": ch.message})
    return 0


def cmd_suggest(args: argparse.Namespace) -> int:
    """Run the suggestion step again on documents already imported (one, or all of a case)."""
    from sqlalchemy import select

    from casefile.errors import NotFoundError
    from casefile.services import cases
    from casefile.store import Document

    ws = open_workspace(args)
    with ws.transaction(write=False) as s:
        if args.case is not None:
            case_id = cases.find_case(s, args.case).id
            stmt = select(Document.id, Document.title).where(Document.case_id == case_id)
            if args.waiting:
                from casefile.services.waiting import waiting_for_suggestions

                stmt = stmt.where(Document.id.in_(waiting_for_suggestions(s, case_id)))
            docs = [(int(i), str(t)) for i, t in s.execute(stmt.order_by(Document.id))]
            if not docs and args.waiting:
                if not args.json:
                    print(f"every document of case {args.case!r} has been read for "
                          "suggestions")
                else:
                    print_json([])
                return 0
            if not docs:
                raise CasefileError(f"case {args.case!r} has no documents yet (import some: "
                                    "casefile import PATH --case TITLE)")
        else:
            if args.waiting:
                raise ValidationError("--waiting goes with --case")
            doc = s.get(Document, args.document)
            if doc is None:
                raise NotFoundError(f"no document with id {args.document}")
            docs = [(doc.id, doc.title)]
    mode: Literal["auto", "rules"] = "rules" if args.rules_only else "auto"
    if not args.rules_only:
        check_model(args.model)
    failed = False
    results: list[dict[str, Any]] = []
    for doc_id, title in docs:
        sug = suggest_document(ws, doc_id, args.model, mode)
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
        print_json(results)
    return 1 if failed else 0


def _case_of(session: Any, mention_id: int) -> int:
    """The case of a suggestion's mention (found by :func:`decisions.find_suggestion`)."""
    from casefile.store import Mention

    mention = session.get(Mention, mention_id)
    assert mention is not None
    return int(mention.case_id)


def cmd_extract(args: argparse.Namespace) -> int:
    from casefile.services.suggestions import extract_file

    result = extract_file(Path(args.file), published=args.published or None,
                          mode="rules" if args.rules_only else "auto", model=args.model,
                          password=args.password)
    if args.json:
        print_json(result)
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
