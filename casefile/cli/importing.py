"""``casefile import PATH... --case T`` and ``casefile ocr``: files into a case, then OCR of
their scanned pages and suggestions in their text (ARCHITECTURE.md, "Import: the document
first, suggestions after"). ``import ftm FILE`` goes to :mod:`casefile.cli.tables`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from casefile.cli.common import (
    MODEL_HELP,
    OCR_ENGINE_HELP,
    OCR_ENGINES,
    check_model,
    open_workspace,
    parse_date,
    print_json,
    suggest_document,
)
from casefile.errors import CasefileError


def add_import_parser(sub: Any) -> None:
    """``casefile import PATH... --case TITLE [--published D] [--password P] [--no-suggest]
    [--no-ocr] [--ocr-engine E] [--model M] [--json]``."""
    imp = sub.add_parser("import", help="import files and folders into a case; `import ftm "
                                        "FILE` imports FollowTheMoney entities")
    imp.add_argument("files", nargs="+", metavar="PATH",
                     help="a file, or a folder to import recursively (hidden files skipped); "
                          "or `ftm FILE`: the FollowTheMoney entities (JSON lines) of FILE "
                          "become the case's people, organizations... merged with those it "
                          "has (unless a file named ftm is here: then ./ftm is imported)")
    imp.add_argument("--case", required=True, metavar="TITLE")
    imp.add_argument("--published", type=parse_date, metavar="YYYY-MM-DD",
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


def add_ocr_parser(sub: Any) -> None:
    """``casefile ocr --case TITLE | --document ID [--engine E] [--no-suggest] [--model M]
    [--json]``."""
    ocr = sub.add_parser("ocr", help="OCR the scanned pages and images still waiting for it")
    which = ocr.add_mutually_exclusive_group(required=True)
    which.add_argument("--case", metavar="TITLE", help="every document of the case waiting")
    which.add_argument("--document", type=int, metavar="ID", help="one document")
    ocr.add_argument("--engine", choices=OCR_ENGINES, help=OCR_ENGINE_HELP)
    ocr.add_argument("--no-suggest", action="store_true",
                     help="skip entity suggestions on the new text")
    ocr.add_argument("--model", metavar="NAME_OR_PATH", help=MODEL_HELP)
    ocr.add_argument("--json", action="store_true")



def _imports_ftm(args: argparse.Namespace) -> bool:
    return args.files[0] == "ftm" and len(args.files) > 1 and not Path("ftm").exists()


def start_readers(args: argparse.Namespace) -> None:
    """Before the core loads: start the reader worker processes of a folder of web pages,
    PDFs... (:func:`casefile.services.walking.start_readers`), so they are ready when the
    import begins; :func:`cmd_import` stops them when it ends without taking them."""
    if _imports_ftm(args):
        return
    from casefile.services.walking import start_readers as start

    start(args.files)


def cmd_import(args: argparse.Namespace) -> int:
    from casefile.services.walking import close_readers

    try:
        return _import(args)
    finally:
        close_readers()


def _import(args: argparse.Namespace) -> int:
    from casefile.filenames import printable_name
    from casefile.services import batch, cases, imports

    if _imports_ftm(args):
        from casefile.cli.tables import cmd_import_ftm

        return cmd_import_ftm(args, args.files[1:])
    ws = open_workspace(args)
    with ws.transaction(write=False) as s:
        case_id = cases.find_case_id(s, args.case)
    if not args.no_suggest:
        check_model(args.model)
    given = {Path(name) for name in args.files}
    results: list[dict[str, Any]] = []

    show = sys.stderr.isatty() and not args.json

    def on_file(outcome: batch.FileOutcome) -> None:
        entry = outcome.as_json()
        r = outcome.result
        if r is not None and r.created and not args.no_ocr:
            ids = [d.document_id for d in (r, *r.children) if d.created and d.needs_ocr]
            read = [d for i in ids if (d := _ocr(ws, i, args.ocr_engine, show, args.password))]
            if read:
                entry["ocr"] = read[0] if len(ids) == 1 else read
        if r is not None and r.created and not args.no_suggest:
            entry["suggestions"] = suggest_document(ws, r.document_id, args.model)
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

    done = imports.import_documents(ws.transaction, case_id, args.files,
                                    published=args.published, password=args.password,
                                    on_file=on_file, guess_dates=args.published is None)
    if done.total == 0:
        raise CasefileError("no files to import in " + ", ".join(args.files)
                            + " (hidden files are skipped)")
    if args.json:
        print_json({"imported": done.count("imported"),
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
    from casefile.services.ocr import ocr_document
    from casefile.services.waiting import pending_ocr

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
    from casefile.services.waiting import pending_ocr

    ws = open_workspace(args)
    with ws.transaction(write=False) as s:
        if args.case is not None:
            waiting = pending_ocr(s, cases.find_case(s, args.case).id)
        else:
            from casefile.store import Document

            if s.get(Document, args.document) is None:
                raise NotFoundError(f"no document with id {args.document}")
            waiting = pending_ocr(s, document_ids=[args.document])
    if not args.no_suggest:
        check_model(args.model)
    show = sys.stderr.isatty() and not args.json
    results: list[dict[str, Any]] = []
    failed = False
    for doc in waiting:
        done = _ocr(ws, doc.document_id, args.engine, show)
        if done is None:
            continue
        entry: dict[str, Any] = {"title": doc.title, **done}
        if "error" not in done and not args.no_suggest:
            entry["suggestions"] = suggest_document(ws, doc.document_id, args.model)
        results.append(entry)
        failed = failed or "error" in done
        if not args.json:
            if "error" in done:
                print(f"casefile: document {doc.document_id} “{doc.title}”: OCR failed: "
                      f"{done['error']}", file=sys.stderr)
            else:
                print(f"document {doc.document_id} “{doc.title}”: {_ocr_line(done)}")
    if args.json:
        print_json(results)
    elif not waiting:
        print("no documents waiting for OCR")
    return 1 if failed else 0
