"""The QApplication of the window, and the start-up benchmark's switch. Imports PySide6 only."""

from __future__ import annotations

import sys
import time

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication

#: Set to 1 to quit at the first event-loop turn after the window is shown with its case,
#: printing ``casefile: shown CPU_SECONDS`` on stdout; ``casefile.ui.startup.start_app`` prints
#: ``casefile: painted CPU_SECONDS`` first, at the first turn after its frame is painted, and
#: ``casefile: stall SECONDS`` before ``shown``: the longest the event loop was held between
#: the two. The start-up benchmark times the process to those lines.
EXIT_AFTER_SHOW = "CASEFILE_EXIT_AFTER_SHOW"


def ensure_application(argv: list[str] | None = None) -> QApplication:
    """The running QApplication, created (named "Casefile", organization "Casefile") if needed.

    Follows the system palette and style: no theme or stylesheet is forced.
    """
    app = QApplication.instance()
    if app is None:
        app = QApplication(argv if argv is not None else sys.argv[:1])
    QCoreApplication.setOrganizationName("Casefile")
    QCoreApplication.setApplicationName("Casefile")
    assert isinstance(app, QApplication)
    return app


def quit_after_show(app: QApplication) -> None:
    """Print ``casefile: shown CPU_SECONDS`` and quit (:data:`EXIT_AFTER_SHOW`)."""
    print(f"casefile: shown {time.process_time():.3f}", flush=True)
    app.quit()
