"""Automatic backups while a window has a SQLite workspace open: one shortly after the window
opens (reason "open"), then one every :data:`INTERVAL_MS` while the change log has moved since
the last one ("periodic"), through ``casefile.services.backups.backup_now`` (rotated there).

Each backup runs as a quiet job of the window's OperationRunner (a worker thread, no progress
dialog: the status line's busy bar shows meanwhile), so a big workspace does not pause the
window. When it is done the status bar says "Backed up" if it has nothing else to say. A
failure is shown in the status bar, never as a dialog: the work goes on. No backup starts while
one is still running or while the window restores a backup (``window.restoring``).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer
from sqlalchemy.orm import Session

from casefile.ui.operations import Job

if TYPE_CHECKING:
    from typing import Protocol

    from casefile.ui.shell import WindowShell

    class BackupWindow(WindowShell, Protocol):
        """The window as its automatic backups see it: the shell, and whether it is restoring."""

        restoring: bool

log = logging.getLogger(__name__)

#: Between two automatic backups while there are changes, in milliseconds (5 minutes).
INTERVAL_MS = 5 * 60 * 1000
#: The first backup waits this long after the window opens (out of the start-up path).
FIRST_MS = 3000
#: How long "Backed up" stays in the status bar, in milliseconds.
MESSAGE_MS = 4000


class AutoBackup(QObject):
    """The timer of one window; ``last_marker`` is the change-log id at the last backup,
    ``taken`` the backups this window took, ``job`` the running (or last) backup job."""

    def __init__(self, window: BackupWindow, interval_ms: int | None = None,
                 first_ms: int | None = None) -> None:
        super().__init__(window.qt_window())
        self.window = window
        self.last_marker: int | None = None
        self.taken = 0
        self.job: Job | None = None
        self.timer = QTimer(self)
        self.timer.setInterval(INTERVAL_MS if interval_ms is None else interval_ms)
        self.timer.timeout.connect(self.tick)
        if window.workspace.folder is not None:
            QTimer.singleShot(FIRST_MS if first_ms is None else first_ms, self, self.tick)
            self.timer.start()

    @property
    def running(self) -> bool:
        """True while a backup job of this window runs."""
        return self.job is not None and not self.job.done

    def tick(self) -> Job | None:
        """Start a backup job when nothing was backed up yet in this window or the log moved
        since (the check is made on the worker thread too); returns the job, or None when
        none was started (window hidden, a backup or a restore running)."""
        from casefile.services.backups import backup_now

        window = self.window
        if not window.qt_window().isVisible():  # a closed window lets go of its workspace
            return None
        if self.running or getattr(window, "restoring", False):
            return None
        workspace, last = window.workspace, self.last_marker
        reason = "open" if last is None else "periodic"

        def work(_session: Session, _job: Job) -> tuple[int, bool]:
            # the session is left unused: no read transaction stays open across the copy
            with workspace.reading() as r:
                marker = int(r.run("SELECT coalesce(max(id), 0) FROM change_log", {})[0][0])
            if marker == last:
                return marker, False
            backup_now(workspace, reason)
            return marker, True

        self.job = window.runner.start(
            work, label="Backing up the workspace", change=None, progress=False,
            on_done=self._done, on_failed=self._failed)
        return self.job

    def _done(self, job: Job) -> None:
        if job.outcome != "succeeded":
            return
        marker, took = job.result
        self.last_marker = marker
        if took:
            self.taken += 1
            bar = self.window.statusBar()
            if not bar.currentMessage():
                bar.showMessage(f"Backed up at {datetime.now():%H:%M}", MESSAGE_MS)

    def _failed(self, message: str) -> None:
        log.warning("automatic backup failed: %s", message)
        self.window.statusBar().showMessage(f"Automatic backup failed: {message}", 15000)


def install_auto_backup(window: BackupWindow, enabled: bool = True) -> AutoBackup | None:
    """Give ``window`` its automatic backups; returns the timer object (None
    when ``enabled`` is False: tests that must not see a backup job start)."""
    return AutoBackup(window) if enabled else None
