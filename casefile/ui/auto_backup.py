"""Automatic backups while a window has a SQLite workspace open: one shortly after the window
opens, then one every :data:`INTERVAL_MS` while the change log has moved since the last one
(``casefile.services.backups.backup_now``, reason "auto"; rotated there). A failure is shown in
the status bar, never as a dialog: the work goes on."""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QObject, QTimer

from casefile.errors import CasefileError

log = logging.getLogger(__name__)

#: Between two automatic backups while there are changes, in milliseconds (5 minutes).
INTERVAL_MS = 5 * 60 * 1000
#: The first backup waits this long after the window opens (out of the start-up path).
FIRST_MS = 3000


class AutoBackup(QObject):
    """The timer of one window; ``last_marker`` is the change-log id at the last backup."""

    def __init__(self, window: Any, interval_ms: int = INTERVAL_MS,
                 first_ms: int = FIRST_MS) -> None:
        super().__init__(window)
        self.window = window
        self.last_marker: int | None = None
        self.taken = 0
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.tick)
        if window.workspace.folder is not None:
            QTimer.singleShot(first_ms, self, self.tick)
            self.timer.start()

    def _marker(self) -> int:
        with self.window.workspace.reading() as r:
            return int(r.run("SELECT coalesce(max(id), 0) FROM change_log", {})[0][0])

    def tick(self) -> None:
        """Back up when nothing was backed up yet in this window or the log moved since."""
        from casefile.services.backups import backup_now

        if not self.window.isVisible():  # a closed window lets go of its workspace
            return
        try:
            marker = self._marker()
            if marker == self.last_marker:
                return
            backup_now(self.window.workspace, "auto")
        except CasefileError as exc:
            self.window.statusBar().showMessage(f"Automatic backup failed: {exc}", 15000)
            return
        except Exception as exc:  # a closed workspace, a busy file: try again next time
            log.warning("automatic backup failed: %s", exc)
            return
        self.last_marker = marker
        self.taken += 1


def install_auto_backup(window: Any) -> AutoBackup:
    """Give ``window`` (a MainWindow) its automatic backups; returns the timer object."""
    return AutoBackup(window)
