"""``casefile gui`` (the default: the desktop app), ``casefile demo [--open]`` and ``casefile
brief``. Only :func:`run_gui` imports Qt, when it runs (ARCHITECTURE.md, "Layers": the CLI
starts without loading Qt).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from casefile.cli.common import load_core, open_workspace, parse_date, process_ends
from casefile.errors import CasefileError, ValidationError
from casefile.export.profiles import PROFILE_HELP, PROFILE_NAMES

if TYPE_CHECKING:
    from casefile.store.workspace import Workspace


def add_gui_parsers(sub: Any) -> None:
    """``casefile gui`` and ``casefile demo [--open]``."""
    sub.add_parser("gui", help="open the desktop app (the default)")
    demo = sub.add_parser("demo", help="build the sample case and print its id")
    demo.add_argument("--open", action="store_true", help="then open it in the desktop app")


def add_brief_parser(sub: Any) -> None:
    """``casefile brief --case TITLE -o FILE.pdf [--profile P | --include-confidential]``."""
    br = sub.add_parser("brief", help="write the case's PDF brief")
    br.add_argument("--case", required=True, metavar="TITLE")
    br.add_argument("-o", "--output", required=True, metavar="FILE.pdf")
    br_who = br.add_mutually_exclusive_group()
    br_who.add_argument("--profile", choices=PROFILE_NAMES, metavar="PROFILE",
                        help=PROFILE_HELP)
    br_who.add_argument("--include-confidential", action="store_true",
                        help="include items and sources flagged confidential (the same as "
                             "--profile internal)")
    br.add_argument("--today", type=parse_date, metavar="YYYY-MM-DD", help=argparse.SUPPRESS)



class GuiUnavailable(CasefileError):
    """The desktop app cannot start on this machine (no display, or Qt cannot load)."""


def _check_display() -> None:
    if os.environ.get("QT_QPA_PLATFORM"):
        return
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        raise GuiUnavailable("no display to open the window on (DISPLAY is not set)")


def run_gui(args: argparse.Namespace, case_id: int | None = None,
            prepare: Callable[[], int] | None = None) -> int:
    _check_display()
    # PySide6 and the frame painted first; the core and the window's modules load after it, on
    # a thread, with the garbage collector paused and then frozen out of its reach, as the
    # commands' core is (casefile.cli.common.load_core; casefile.ui.startup)
    from casefile.collector import paused

    try:
        with paused():
            from casefile.ui.startup import start_app
    except ImportError as exc:
        raise GuiUnavailable(f"the desktop app cannot start: {exc}") from exc
    return start_app(workspace=args.workspace, db_url=args.db, case_id=case_id,
                     new_workspace=args.new_workspace, encrypt=args.encrypt, prepare=prepare)


def _build_demo(args: argparse.Namespace, ws: Workspace | None = None) -> int:
    """Build the sample case in ``ws`` (else in the workspace ``args`` name, closed after) if
    it is not there yet, and print its id; returns the id."""
    from casefile.services.demo import build_demo

    opened = open_workspace(args) if ws is None else ws
    try:
        with opened.transaction() as s:
            case_id, created = build_demo(s)
    finally:
        if ws is None:  # the window opens the workspace itself; no second set idles here
            opened.close()
    print(case_id, flush=True)
    if not created:
        print("(the sample case was already there)", file=sys.stderr)
    return case_id


def cmd_demo(args: argparse.Namespace) -> int:
    if not args.open:
        _build_demo(args)
        return 0
    try:
        # the window's frame is painted first; the sample case is built while it shows
        return run_gui(args, prepare=lambda: _build_demo(args))
    except GuiUnavailable as exc:
        # No window can open here (no display, or Qt missing): print the brief instead, so the
        # README's first command still ends with something to look at.
        load_core()
        from casefile.services import brief

        ws = open_workspace(args)
        case_id = _build_demo(args, ws)
        # never a plain PDF beside an encrypted database
        folder = ws.folder if ws.folder is not None and not ws.encrypted else Path.cwd()
        target = folder / "sample-brief.pdf"
        with ws.transaction(write=False) as s:
            brief.export_brief(s, case_id, target)
        print(f"casefile: {exc}; wrote the sample brief to {target} instead", file=sys.stderr)
        return 0


#: What ``casefile brief`` loads beyond the core: the brief's services, its renderer and
#: reportlab.
BRIEF_MODULES = ("casefile.services.brief", "casefile.export.brief")


def cmd_brief(args: argparse.Namespace) -> int:
    from casefile.collector import loaded_and_frozen, paused

    # the brief's modules load with the collector out of the way and are then frozen out of its
    # reach, as the core is (load_core): the first collection after would walk them all
    loaded_and_frozen(BRIEF_MODULES)
    from casefile.services import brief, cases

    out = Path(args.output)
    if out.is_dir():
        raise ValidationError(f"{out} is a folder; give a file name ending in .pdf")
    ws = open_workspace(args)
    # a brief's rows, flowables and layout are many objects made fast; in a process that ends
    # with the command (casefile.cli.run) they are frozen before the collector resumes, whose
    # first pass would walk every one of them for the few cycles the exit frees anyway
    with paused():
        with ws.transaction(write=False) as s:  # reads; the PDF goes to a temp file renamed
            case_id = cases.find_case(s, args.case).id
            data = brief.export_brief(s, case_id, out,
                                      include_confidential=args.include_confidential,
                                      profile=args.profile, today=args.today)
        if process_ends():
            gc.freeze()
    print(f"wrote {out} (profile {data.profile})")
    return 0
