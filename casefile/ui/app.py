"""Starting the desktop app: the QApplication, the workspace, the main window."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import casefile.ui.preload  # noqa: F401  (the core first, before PySide6: see that module)

# isort: split
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from casefile.errors import CasefileError
from casefile.store.workspace import (
    Workspace,
    is_new_database,
    missing_workspace,
    open_workspace,
)
from casefile.ui.application import EXIT_AFTER_SHOW, ensure_application, quit_after_show
from casefile.ui.main_window import MainWindow
from casefile.ui.window_state import app_settings
from casefile.ui.workspace_dialogs import NewPassphraseDialog, open_asking

__all__ = ["EXIT_AFTER_SHOW", "close_on_terminate", "confirm_new_workspace", "ensure_application",
           "keep_settings_private", "open_chosen", "run_app"]


def close_on_terminate(app: QApplication, window: MainWindow) -> QTimer:
    """End the window as File ▸ Quit does (edits saved, jobs cancelled, the workspace closed
    and its write-ahead log folded into the database file) when the session ends it: SIGTERM
    (a logout, ``kill``) or SIGHUP (its terminal closed). Python runs signal handlers only
    between bytecodes, so a quiet timer gives it a turn every half second; returns it."""
    def close(_signum: int, _frame: object) -> None:
        window.close()  # not spontaneous: no question asked
        app.quit()

    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            signal.signal(sig, close)
    ticker = QTimer(app)
    ticker.timeout.connect(lambda: None)
    ticker.start(500)
    return ticker


def confirm_new_workspace(folder: Path, parent: QWidget | None = None) -> bool:
    """Ask "Create a new workspace here?" about ``folder`` (Yes/No, No the default)."""
    answer = QMessageBox.question(
        parent, "Casefile",
        f"There is no Casefile workspace in {folder}.\n\nCreate a new workspace here?",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.No,
    )
    return answer == QMessageBox.StandardButton.Yes


def _create_encrypted(workspace: str | Path | None, db_url: str | None) -> Workspace | None:
    """A new encrypted workspace, its passphrase typed twice in a dialog; None if cancelled."""
    from casefile.store.workspace import choose_location

    where = choose_location(workspace, db_url)
    dialog = NewPassphraseDialog(
        "New encrypted workspace",
        f"Passphrase for the new encrypted workspace in {where.folder or where.url}.\n"
        "It cannot be recovered if lost.")
    if dialog.exec() != NewPassphraseDialog.DialogCode.Accepted:
        return None
    return open_workspace(workspace, db_url, passphrase=dialog.passphrase(), encrypt=True)


def run_app(
    workspace: str | Path | None = None, db_url: str | None = None,
    case_id: int | None = None, new_workspace: bool = False, encrypt: bool = False,
) -> int:
    """Open the window on a workspace and run until it closes; returns the exit code.

    ``workspace``/``db_url`` choose the workspace as on the command line (default: environment,
    then the user's data folder); ``case_id`` opens that case, else the last case used. A
    workspace that cannot be opened is reported in a message box and gives exit code 1.

    A chosen folder that holds no workspace is created only with ``new_workspace`` or when the
    user answers Yes to "Create a new workspace here?"; No prints the command line's one line
    (``casefile: no workspace at PATH; ...``) on stderr and gives exit code 1, creating nothing.
    An encrypted workspace asks its passphrase (again after a wrong one; Cancel gives exit code
    1); ``encrypt`` makes a workspace created here encrypted, its passphrase typed twice.
    """
    app = ensure_application()
    ws = open_chosen(workspace, db_url, new_workspace, encrypt)
    if not isinstance(ws, Workspace):
        return ws
    try:
        window = MainWindow(ws, case_id=case_id)
        window.show()
        close_on_terminate(app, window)
        if os.environ.get(EXIT_AFTER_SHOW) == "1":
            QTimer.singleShot(0, lambda: quit_after_show(app))
        code = app.exec()
    finally:
        ws.close()
        keep_settings_private()
    return int(code)


def open_chosen(workspace: str | Path | None, db_url: str | None, new_workspace: bool,
                encrypt: bool) -> Workspace | int:
    """The workspace :func:`run_app` names, opened (asking what it must ask), or the exit
    code 1 when it is not: no to "Create a new workspace here?", no passphrase given, or one
    it cannot open (said in a message box). Prints the command line's one line on stderr."""
    missing = None if new_workspace else missing_workspace(workspace, db_url)
    if missing is not None and not confirm_new_workspace(missing.folder):
        print(f"casefile: {missing}", file=sys.stderr)
        return 1
    try:
        if encrypt and is_new_database(workspace, db_url):
            ws = _create_encrypted(workspace, db_url)
        else:
            ws = open_asking(workspace, db_url)
        if ws is None:
            print("casefile: no passphrase given; the workspace was not opened", file=sys.stderr)
            return 1
    except CasefileError as exc:
        QMessageBox.critical(None, "Casefile", f"The workspace cannot be opened:\n{exc}")
        return 1
    return ws


def keep_settings_private() -> None:
    """Make the files where the window and Qt's file dialogs remember folders (the sources'
    folder, the workspace's path, recent places) readable by this user only, as the workspace
    is: ``Casefile/Casefile.ini`` and ``QtProject.conf`` in the user's config folder, and the
    ``Casefile`` folder itself. Missing files are skipped; a failure is not an error."""
    settings = app_settings()
    settings.sync()
    ini = Path(settings.fileName())
    for path, mode in ((ini.parent, 0o700), (ini, 0o600),
                       (ini.parent.parent / "QtProject.conf", 0o600)):
        try:
            if path.exists():
                path.chmod(mode)
        except OSError:
            pass
