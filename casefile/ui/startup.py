"""The window's start: a frame painted before the core loads, then the window, then its case.

See ARCHITECTURE.md, "The window". A cold start spends about half a second loading SQLAlchemy,
the store, the services and the window's modules before anything could be drawn. So
:func:`start_app` first shows a :class:`StartupFrame` (the window's title, size and place,
its menus, tool bar and docks, "Opening case…"), which needs PySide6 alone; after its first
paint a thread loads the rest (``casefile.ui.app``, as :func:`~casefile.ui.app.run_app`
would) while the event loop keeps the frame answering; then, one event-loop turn each, the
workspace is opened (with the same questions as :func:`~casefile.ui.app.run_app`: create it?
its passphrase?), the :class:`~casefile.ui.main_window.MainWindow` is made, it is shown in the
frame's place, its case is opened, and the status line says what the case holds: no turn holds
the event loop long (the start-up benchmark reports the longest).

Importing this module loads PySide6 and none of the core (``tests/test_startup_imports.py``).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import QLabel, QMainWindow, QWidget

from casefile.ui.application import EXIT_AFTER_SHOW, ensure_application, quit_after_show
from casefile.ui.docks import add_tabbed_dock
from casefile.ui.window_state import app_settings, restore_window_state

if TYPE_CHECKING:
    from casefile.ui.main_window import MainWindow

#: The menu bar's menus, as ``casefile.ui.window_menus.build_menus`` makes them.
MENU_TITLES = ("&File", "&Edit", "&View", "&Reading", "&Case", "&Help")
#: The tool bar's buttons (None: a separator), as ``build_menus`` makes them.
TOOLBAR = ("&Import documents…", "&Export brief…", None, "&Undo", "&Redo")
#: The docks on the window's side, (title, object name), the first in front of the others.
DOCKS = (("Evidence", "evidence_dock"), ("Suggestions", "suggestions_dock"),
         ("Search", "search_dock"))
#: What the frame says while the window loads.
OPENING_TEXT = "Opening case…"
#: How long the frame waits for its first paint before loading all the same, milliseconds
#: (a window that is never exposed is never painted).
PAINT_WAIT_MS = 300
#: The delay between two steps of the start, milliseconds: a timer, not a zero-time call (Qt
#: runs those in the same pass as the step that posted them), so that input, paints and other
#: timers are served between the steps.
NEXT_TURN_MS = 1


class StartupFrame(QMainWindow):
    """What the window looks like while it loads: its title, its size, place and docks
    (restored as the window restores them; the docks empty), the menus of its menu bar and
    its tool bar's buttons (disabled) and "Opening case…" in the middle and on the status line.
    ``painted`` is called once, at the first event-loop turn after its first paint; ``closed``
    is True once the user closed it."""

    def __init__(self) -> None:
        self.closed = False
        self.painted: list[Any] = []  # callables, run once after the first paint
        self._waiting = True
        super().__init__()
        self.setWindowTitle("Casefile")
        for title in MENU_TITLES:
            self.menuBar().addMenu(title).setEnabled(False)
        toolbar = self.addToolBar("Main")
        toolbar.setObjectName("main_toolbar")
        toolbar.setMovable(False)
        for text in TOOLBAR:
            if text is None:
                toolbar.addSeparator()
            else:
                toolbar.addAction(text).setEnabled(False)
        for title, name in DOCKS:
            add_tabbed_dock(self, title, name, QWidget())
        label = QLabel(OPENING_TEXT)
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setCentralWidget(label)
        self.statusBar().showMessage(OPENING_TEXT)
        # Quit works while the window loads: closing the frame ends the start (start_app)
        # (the platform's Quit key; Ctrl+Q where the platform names none)
        keys = QKeySequence.keyBindings(QKeySequence.StandardKey.Quit) or [QKeySequence("Ctrl+Q")]
        self.quit_shortcut = QShortcut(keys[0], self, self.close)
        # the window's size, place and dock layout as it will restore them
        restore_window_state(self, app_settings(), ())
        QTimer.singleShot(PAINT_WAIT_MS, self._after_paint)

    def event(self, event: QEvent) -> bool:
        done = super().event(event)
        if self._waiting and event.type() == QEvent.Type.Paint:
            QTimer.singleShot(0, self._after_paint)
        return done

    def _after_paint(self) -> None:
        if not self._waiting:
            return
        self._waiting = False
        for call in self.painted:
            call()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.closed = True
        super().closeEvent(event)


class _Loader(QObject):
    """Imports ``casefile.ui.app`` (the core, the window's modules) on a thread of its own,
    then runs ``prepare`` there when given (its result: ``case_id``); ``loaded`` is emitted,
    to the GUI thread, when it is done (``error``: what it raised)."""

    loaded = Signal()

    def __init__(self, prepare: Callable[[], int] | None = None) -> None:
        super().__init__()
        self.error: BaseException | None = None
        self.worker: threading.Thread | None = None
        self.prepare = prepare
        self.case_id: int | None = None

    def start(self) -> None:
        self.worker = threading.Thread(target=self._load, name="casefile-start", daemon=True)
        self.worker.start()

    def _load(self) -> None:
        import gc

        from casefile.collector import paused

        try:
            with paused():  # then frozen, as a command's core is (collector.loaded_and_frozen)
                import casefile.ui.app  # noqa: F401  (the core, then the window's modules)

                gc.freeze()
            if self.prepare is not None:
                self.case_id = self.prepare()
        except BaseException as exc:  # raised again on the GUI thread by start_app
            self.error = exc
        self.loaded.emit()


class _StallMeter(QObject):
    """The longest gap between two ticks of a 10 ms timer (:data:`EXIT_AFTER_SHOW` only)."""

    def __init__(self) -> None:
        super().__init__()
        self.longest = 0.0
        self._last = time.perf_counter()
        self._timer = QTimer(self)
        self._timer.setInterval(10)
        self._timer.timeout.connect(self.tick)
        self._timer.start()

    def tick(self) -> None:
        now = time.perf_counter()
        self.longest = max(self.longest, now - self._last)
        self._last = now


def start_app(workspace: str | Path | None = None, db_url: str | None = None,
              case_id: int | None = None, new_workspace: bool = False,
              encrypt: bool = False, prepare: Callable[[], int] | None = None) -> int:
    """:func:`casefile.ui.app.run_app` for a cold process: the same questions, window and exit
    codes, with the :class:`StartupFrame` painted before the core loads (module docstring).
    An error raised while loading or opening is raised again after the event loop ends.
    When ``casefile.ui.app`` is loaded already (``main`` run again in one process, as the
    end-to-end tests do) there is nothing to wait for: :func:`~casefile.ui.app.run_app`.
    ``prepare`` (``casefile demo --open``: build the sample case) runs after the core loads,
    off the GUI thread, while the frame is up; the case it returns is the one opened."""
    if "casefile.ui.app" in sys.modules:
        from casefile.ui.app import run_app

        if prepare is not None:
            case_id = prepare()

        return run_app(workspace=workspace, db_url=db_url, case_id=case_id,
                       new_workspace=new_workspace, encrypt=encrypt)
    app = ensure_application()
    trace = os.environ.get(EXIT_AFTER_SHOW) == "1"
    frame = StartupFrame()
    loader = _Loader(prepare)
    state: dict[str, Any] = {}
    meter: list[_StallMeter] = []

    def failed(exc: BaseException) -> None:
        state["error"] = exc
        app.exit(1)

    def painted() -> None:
        if trace:
            print(f"casefile: painted {time.process_time():.3f}", flush=True)
            meter.append(_StallMeter())
        loader.start()

    def open_workspace() -> None:
        if loader.error is not None:
            failed(loader.error)
            return
        if frame.closed:
            return
        try:
            from casefile.ui import app as app_module

            ws = app_module.open_chosen(workspace, db_url, new_workspace, encrypt)
            if isinstance(ws, int):
                app.exit(ws)
                return
            state["workspace"] = ws
        except BaseException as exc:
            failed(exc)
            return
        QTimer.singleShot(NEXT_TURN_MS, make_window)

    def make_window() -> None:
        try:
            from casefile.ui import app as app_module
            from casefile.ui.main_window import MainWindow

            chosen = loader.case_id if prepare is not None else case_id
            window = MainWindow(state["workspace"], case_id=chosen, open_now=False)
            state["window"] = window
            app_module.close_on_terminate(app, window)
        except BaseException as exc:
            failed(exc)
            return
        QTimer.singleShot(NEXT_TURN_MS, show_window)

    def show_window() -> None:
        window: MainWindow = state["window"]
        window.show()  # in the frame's place: both restore the same geometry
        frame.hide()
        QTimer.singleShot(NEXT_TURN_MS, open_case)

    def open_case() -> None:
        window: MainWindow = state["window"]
        try:
            window.open_first_case(in_turns=True)
        except BaseException as exc:
            failed(exc)
            return
        if trace:
            QTimer.singleShot(NEXT_TURN_MS, shown)

    def shown() -> None:
        if state["window"].opening:  # its last steps (MainWindow.open_case) still to come
            QTimer.singleShot(NEXT_TURN_MS, shown)
            return
        if meter:
            meter[0].tick()  # the turn that ran the last step counts too
        print(f"casefile: stall {meter[0].longest if meter else 0.0:.3f}", flush=True)
        quit_after_show(app)

    frame.painted.append(painted)
    loader.loaded.connect(open_workspace, Qt.ConnectionType.QueuedConnection)
    frame.show()
    try:
        code = app.exec()
    finally:
        if loader.worker is not None:
            loader.worker.join()
        frame.close()
        ws = state.get("workspace")
        if ws is not None:
            ws.close()
        if "casefile.ui.app" in sys.modules:  # loaded: the window may have written settings
            from casefile.ui.app import keep_settings_private

            keep_settings_private()
    if "error" in state:
        raise state["error"]
    return int(code)
