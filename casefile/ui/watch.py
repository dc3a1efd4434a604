"""Keeping a window current when another process writes to its workspace.

:func:`install_workspace_watch` gives a MainWindow a timer (about once a second) that asks
:class:`casefile.store.watch.CommitWatch` whether another process committed, and if so emits the
window's ``runner.case_changed`` with a :class:`Changes` that makes every view reload — the same
signal the window's own actions use, so no view has a second way to refresh. It also marks the
window open in the workspace folder (:class:`casefile.store.watch.Presence`) and says once, in
the status bar, when another Casefile window has the workspace open.

Uses only public members of the window: ``workspace``, ``runner``, ``case_id``, ``statusBar()``.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from PySide6.QtCore import QObject, QTimer, Slot
from PySide6.QtWidgets import QApplication, QWidget
from sqlalchemy.exc import DBAPIError

from casefile.errors import CasefileError
from casefile.services.changes import Changes, changes
from casefile.store.items import ITEM_KINDS
from casefile.store.watch import CommitWatch, ForeignCommits, Presence

log = logging.getLogger(__name__)

#: The status-bar line shown when a second window has the workspace open.
OTHER_WINDOW_MESSAGE = ("Another Casefile window has this workspace open; changes made there "
                        "appear here within a second.")
#: How often the workspace is polled, in milliseconds.
POLL_MS = 1000
#: How long the other-window message stays in the status bar, in milliseconds.
MESSAGE_MS = 15000


class WorkspaceWatch(QObject):
    """The timer and state behind :func:`install_workspace_watch` (a child of the window).

    ``commits`` and ``presence`` are the core objects it polls; ``told`` is True while the
    other-window message has been shown for the windows present now.
    """

    def __init__(self, window: Any, interval_ms: int = POLL_MS) -> None:
        main: Any = window  # a MainWindow (not imported: no cycle in casefile.ui)
        workspace = main.workspace
        if not isinstance(window, QWidget):
            raise TypeError("install_workspace_watch needs the main window")
        super().__init__(window)
        self.window: Any = main
        self.commits = CommitWatch(workspace)
        self.presence = Presence(workspace)
        self.presence.announce()
        self.told = False
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.tick)
        self.timer.start()
        presence, commits = self.presence, self.commits

        def let_go(*_args: object) -> None:  # holds no reference to the window or the timer
            presence.withdraw()
            commits.close()

        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(let_go)
        window.destroyed.connect(let_go)

    @Slot()
    def tick(self) -> None:
        """One poll: presence first (so the message comes before the first reload), then
        commits. A database that cannot be read this time is polled again next time."""
        self._check_presence()
        try:
            foreign = self.commits.poll()
        except (DBAPIError, CasefileError) as exc:
            log.debug("workspace poll failed: %s", exc)
            return
        if foreign is not None:
            self.window.runner.case_changed.emit(self.changes_for(foreign))

    def changes_for(self, foreign: ForeignCommits) -> Changes:
        """The Changes announced for other processes' commits: every kind, evidence,
        suggestions and the case list of the window's case; the items the new change-log rows
        name are ``updated`` (still there) or ``deleted``. When the rows name only other cases,
        only the case list is refreshed."""
        case_id = self.window.case_id
        label = "changes made in another window"
        if foreign.cases and case_id not in foreign.cases and None not in foreign.cases:
            return changes(None, cases=True, label=label)
        return changes(case_id, kinds=ITEM_KINDS, updated=foreign.present,
                       deleted=foreign.gone, cases=True, evidence=True, suggestions=True,
                       label=label)

    def _check_presence(self) -> None:
        if not self.window.isVisible():
            self.presence.withdraw()
            return
        if not self.presence.announced:
            self.presence.announce()
        self.presence.refresh()
        if self.presence.others():
            if not self.told:
                self.window.statusBar().showMessage(OTHER_WINDOW_MESSAGE, MESSAGE_MS)
                self.told = True
        else:
            self.told = False

    @Slot()
    def stop(self) -> None:
        """Stop polling, remove this window's presence mark and stop counting commits."""
        with contextlib.suppress(RuntimeError):  # the timer went with the window
            self.timer.stop()
        self.presence.withdraw()
        self.commits.close()


def install_workspace_watch(window: Any, interval_ms: int = POLL_MS) -> WorkspaceWatch:
    """Make ``window`` (a MainWindow) reload when another process commits to its workspace and
    say when another window has it open; returns the watch (owned by the window)."""
    return WorkspaceWatch(window, interval_ms)
