"""Keeping a window current when another process writes to its workspace.

:func:`install_workspace_watch` gives a window a timer (about once a second) that asks
:class:`casefile.store.watch.CommitWatch` whether another process committed, and if so emits the
window's ``runner.case_changed`` with a :class:`Changes` that makes every view reload — the same
signal the window's own actions use, so no view has a second way to refresh. When another
process restored a backup (a new "before-restore" backup appeared) or the window's case is gone,
the window is reloaded whole instead and says what happened
(:meth:`casefile.ui.backup_restore.BackupRestorer.show_replaced`). It also marks the window open
in the workspace folder (:class:`casefile.store.watch.Presence`) and says once, in the status
bar, when another Casefile window has the workspace open.

Uses only public members of the window: ``workspace``, ``runner``, ``case_id``, ``statusBar()``,
``restoring``, ``backup_restore``.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Slot
from PySide6.QtWidgets import QApplication
from sqlalchemy.exc import DBAPIError

from casefile.errors import CasefileError
from casefile.services.changes import Changes, changes
from casefile.services.views import case_titles
from casefile.store.items import ITEM_KINDS
from casefile.store.watch import CommitWatch, ForeignCommits, Presence

if TYPE_CHECKING:
    from typing import Protocol

    from casefile.ui.backup_restore import BackupRestorer
    from casefile.ui.shell import WindowShell

    class WatchedWindow(WindowShell, Protocol):
        """The window as the workspace watch sees it: the shell, and File ▸ Restore from backup…."""

        backup_restore: BackupRestorer

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

    def __init__(self, window: WatchedWindow, interval_ms: int = POLL_MS) -> None:
        workspace = window.workspace
        super().__init__(window.qt_window())
        self.window = window
        self.commits = CommitWatch(workspace)
        self.presence = Presence(workspace)
        self.presence.announce()
        self.told = False
        self.restores_seen: str | None = None
        self.restores_seen = self._newest_restore()
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
        window.qt_window().destroyed.connect(let_go)

    @Slot()
    def tick(self) -> None:
        """One poll: presence first (so the message comes before the first reload), then
        commits. A database that cannot be read this time is polled again next time."""
        self._check_presence()
        if getattr(self.window, "restoring", False):
            return  # this window is restoring a backup; it shows the outcome itself
        try:
            foreign = self.commits.poll()
        except (DBAPIError, CasefileError) as exc:
            log.debug("workspace poll failed: %s", exc)
            return
        if foreign is None:
            return
        restored = self._newest_restore() != self.restores_seen
        if restored or not self._case_still_there():
            self.window.backup_restore.show_replaced(restored)  # reloads: rebases this watch
            return
        self.window.runner.case_changed.emit(self.changes_for(foreign))

    def rebase(self) -> None:
        """Take the workspace as it is now as seen: its change log and its restores (after
        this window reloaded it whole)."""
        self.commits.rebase()
        self.see_restores()

    def see_restores(self) -> None:
        """Take the restores made until now as seen (this window's own, also one cancelled
        after its "before-restore" backup was taken)."""
        self.restores_seen = self._newest_restore()

    def _newest_restore(self) -> str | None:
        """The id of the newest "before-restore" backup: another one appears when any process
        restores a backup (None: none, or no backups folder, as on a database server)."""
        from casefile.store.backups import backups_dir, list_backups
        from casefile.store.workspace import database_path

        path = database_path(self.window.workspace.url)
        if path is None or not backups_dir(path).is_dir():
            return None
        try:
            return next((b.id for b in list_backups(path) if b.reason == "before-restore"),
                        None)
        except OSError:  # the folder could not be read this time: nothing new seen
            return self.restores_seen

    def _case_still_there(self) -> bool:
        """True when the window shows no case or its case still exists."""
        case_id = self.window.case_id
        if case_id is None:
            return True
        try:
            return any(i == case_id for i, _title in self.window.runner.read(case_titles))
        except (DBAPIError, CasefileError):
            return True  # unreadable now: the next poll asks again

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
        if not self.window.qt_window().isVisible():
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


def install_workspace_watch(window: WatchedWindow, interval_ms: int = POLL_MS) -> WorkspaceWatch:
    """Make ``window`` reload when another process commits to its workspace and
    say when another window has it open; returns the watch (owned by the window)."""
    return WorkspaceWatch(window, interval_ms)
