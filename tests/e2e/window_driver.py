"""A real Casefile window in a process of its own, started through the command line's own code
path and steered by files in a control folder, for tests that need a window beside other
processes on one workspace.

    python tests/e2e/window_driver.py CONTROL_DIR [casefile arguments...]

runs ``casefile.cli.main(arguments)`` (``demo --open``, or no command: the plain start) and,
every 100 ms once the main window is shown, answers the requests found in CONTROL_DIR:

* ``ready`` is written (holding this process's pid) once the window is shown;
* ``NAME.request`` holding ``case TITLE`` creates a case the way the window's New case does
  (``casefile.ui.case_menu.create_case``); the answer is ``created ID`` or ``refused``;
* ``NAME.request`` holding ``list`` answers one JSON object: ``stored``, the case titles read
  through the window's own workspace connections, and ``shown``, the titles in its case box;
* ``NAME.request`` holding ``quit`` closes the window (the process then ends as the app does).

Answers are written to ``NAME.answer`` (renamed into place, so a reader never sees half).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path


def _answer(control: Path, name: str, text: str) -> None:
    tmp = control / f"{name}.tmp"
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, control / f"{name}.answer")


def main() -> int:
    control = Path(sys.argv[1])
    args = sys.argv[2:]
    from PySide6.QtCore import QTimer

    from casefile import cli
    from casefile.services import cases
    from casefile.ui.app import ensure_application
    from casefile.ui.case_menu import create_case
    from casefile.ui.main_window import MainWindow

    app = ensure_application()

    def window() -> MainWindow | None:
        return next((w for w in app.topLevelWidgets()
                     if isinstance(w, MainWindow) and w.isVisible()), None)

    def poll() -> None:
        win = window()
        if win is None:
            return
        if not (control / "ready").exists():
            (control / "ready.tmp").write_text(str(os.getpid()), encoding="utf-8")
            os.replace(control / "ready.tmp", control / "ready")  # never read half-written
        for request in sorted(control.glob("*.request")):
            name = request.name.removesuffix(".request")
            verb, _, rest = request.read_text(encoding="utf-8").partition(" ")
            request.unlink()
            if verb == "case":
                made = create_case(win, rest.strip())
                _answer(control, name, f"created {made}" if made is not None else "refused")
            elif verb == "list":
                with win.workspace.transaction() as s:
                    stored = sorted(c.title for c in cases.list_cases(s))
                box = win.picker.case_box
                shown = sorted(box.itemText(i) for i in range(box.count()))
                _answer(control, name, json.dumps({"stored": stored, "shown": shown}))
            elif verb == "quit":
                _answer(control, name, "closing")
                win.close()

    timer = QTimer()
    timer.timeout.connect(poll)
    timer.start(100)
    return cli.main(args)


if __name__ == "__main__":
    sys.exit(main())
