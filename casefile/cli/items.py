"""``casefile items``, ``casefile item ID`` (confidential, identifying phrases), ``casefile
followups`` (with its calendar file) and ``casefile claims``: a case's items as lists.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from casefile.cli.common import open_workspace, parse_date, parse_days, print_json, read_case
from casefile.errors import ValidationError
from casefile.export.profiles import PROFILE_HELP, PROFILE_NAMES


def add_item_parser(sub: Any) -> None:
    """``casefile item ID [--confidential | --not-confidential] [--identifying PHRASE...]
    [--clear-identifying] [--json]``."""
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


def add_items_parser(sub: Any) -> None:
    """``casefile items --case TITLE [--kind K] [--json]``."""
    items = sub.add_parser("items", help="list a case's items")
    items.add_argument("--case", required=True, metavar="TITLE")
    items.add_argument("--kind", choices=("person", "organization", "place", "document", "event",
                                          "claim", "question"))
    items.add_argument("--json", action="store_true")


def add_followups_parser(sub: Any) -> None:
    """``casefile followups --case TITLE [filters] [--ics FILE [--ics-as K] [--profile P]]``."""
    fu = sub.add_parser("followups", help="list open follow-ups, soonest first; export .ics")
    fu.add_argument("--case", required=True, metavar="TITLE")
    fu.add_argument("--due-within", type=parse_days, metavar="DAYS")
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
    fu.add_argument("--today", type=parse_date, metavar="YYYY-MM-DD", help=argparse.SUPPRESS)
    fu.add_argument("--json", action="store_true")


def add_claims_parser(sub: Any) -> None:
    """``casefile claims --case TITLE [--json]``."""
    cl = sub.add_parser("claims", help="list claims with their status and attribution chain")
    cl.add_argument("--case", required=True, metavar="TITLE")
    cl.add_argument("--json", action="store_true")



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
    ws = open_workspace(args)
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
        print_json(row)
    else:
        state = "confidential" if row["confidential"] else "not confidential"
        print(f"{row['id']} {row['kind']} {row['title']}: {state}")
        if "identifying_phrases" in fields:
            phrases = row.get("identifying_phrases") or []
            print("identifying phrases: " + ("; ".join(phrases) if phrases else "none"))
    return 0


def cmd_items(args: argparse.Namespace) -> int:
    from casefile.services import cases, items

    ws = open_workspace(args)
    with ws.transaction(write=False) as s:
        case_id = cases.find_case(s, args.case).id
        listed = items.list_items(s, case_id, args.kind)
        names = {i.id: i.title for i in items.list_items(s, case_id)}
        rows = [_item_json(i, names) for i in listed]
    if args.json:
        print_json(rows)
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
    ws = open_workspace(args)
    with ws.transaction(write=False) as s:
        case_id = cases.find_case(s, args.case).id
        listed = questions.followups(
            s, case_id, due_within=args.due_within, today=args.today, statuses=statuses,
            include_closed=bool(args.status and "all" in args.status),
            overdue_only=args.overdue,
        )
    if args.json:
        print_json([f.as_json() for f in listed])
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
    ws = open_workspace(args)
    with ws.transaction(write=False) as s:
        case_id = cases.find_case(s, args.case).id
        done = calendar.export_followups_ics(
            s, case_id, out, include_confidential=args.include_confidential,
            profile=args.profile, component=args.ics_as)
    if args.json:
        print_json({"file": str(out), **done.as_json()})
        return 0
    print(f"wrote {out} ({done.entries} follow-up{'s' if done.entries != 1 else ''})")
    if done.undated:
        print(f"  {done.undated} without a due date left out")
    if done.withheld:
        print(f"  {done.withheld} confidential left out (--include-confidential adds them)")
    return 0


def cmd_claims(args: argparse.Namespace) -> int:
    from casefile.services import claims

    rows = read_case(args, claims.claims_overview)
    if args.json:
        print_json([
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
