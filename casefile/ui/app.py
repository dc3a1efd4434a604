"""Starting the desktop app: the QApplication, the workspace, the main window."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication, QMessageBox

from casefile.errors import CasefileError
from casefile.store.workspace import open_workspace
from casefile.ui.main_window import MainWindow


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


def run_app(
    workspace: str | Path | None = None, db_url: str | None = None,
    case_id: int | None = None,
) -> int:
    """Open the window on a workspace and run until it closes; returns the exit code.

    ``workspace``/``db_url`` choose the workspace as on the command line (default: environment,
    then the user's data folder); ``case_id`` opens that case, else the last case used. A
    workspace that cannot be opened is reported in a message box and gives exit code 1.
    """
    app = ensure_application()
    try:
        ws = open_workspace(workspace, db_url)
    except CasefileError as exc:
        QMessageBox.critical(None, "Casefile", f"The workspace cannot be opened:\n{exc}")
        return 1
    try:
        window = MainWindow(ws, case_id=case_id)
        window.show()
        code = app.exec()
    finally:
        ws.close()
    return int(code)
