"""File ▸ New workspace… and File ▸ Encrypt workspace… of the main window.

New workspace… creates the workspace (encrypted when a passphrase is given) and opens it in a
second window. Encrypt workspace… lets go of the window's connections, encrypts the workspace
in place (:func:`casefile.services.encryption.encrypt_workspace`) and reopens it, with the
same case, in a new window that replaces this one. A workspace whose encryption was
interrupted says so in words when the window opens (every plain file named); when its
database is encrypted already, the action becomes Finish encryption…, which finishes it with
the passphrase the window was opened with.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDialog, QMenu, QMessageBox, QWidget

from casefile.errors import CasefileError
from casefile.store.workspace import Workspace, open_workspace
from casefile.ui.workspace_dialogs import (
    NewPassphraseDialog,
    NewWorkspaceDialog,
    create_new,
    encrypt_message,
    unfinished_message,
)

if TYPE_CHECKING:
    from typing import Protocol

    from PySide6.QtGui import QAction

    from casefile.services.encryption import EncryptionState
    from casefile.ui.shell import WindowShell
    from casefile.ui.watch import WorkspaceWatch

    class WorkspaceWindow(WindowShell, Protocol):
        """The window as File ▸ New workspace… and Encrypt workspace… see it: the shell, the
        two actions and the workspace's encryption state they set, and the workspace watch
        (stopped while the workspace is encrypted)."""

        new_workspace_action: QAction
        encrypt_workspace_action: QAction
        encryption_state: EncryptionState | None

        watch: WorkspaceWatch

#: Windows opened from a menu here, kept alive until they close.
_WINDOWS: set[QWidget] = set()


def install_workspace_actions(window: WorkspaceWindow, file_menu: QMenu) -> None:
    """Add New workspace… and Encrypt workspace… to ``file_menu`` of ``window``; sets
    ``window.new_workspace_action``, ``window.encrypt_workspace_action`` and
    ``window.encryption_state``."""
    window.new_workspace_action = file_menu.addAction(
        "New &workspace…", lambda: prompt_new_workspace(window))
    window.encrypt_workspace_action = file_menu.addAction(
        "Encr&ypt workspace…", lambda: prompt_encrypt_workspace(window))
    window.encryption_state = None
    folder = window.workspace.folder
    if folder is not None:
        from casefile.services.encryption import encryption_state

        try:
            window.encryption_state = encryption_state(folder)
        except CasefileError as exc:
            window.notify(f"Cannot tell whether an encryption was interrupted: {exc}")
    state = window.encryption_state
    finishing = (state is not None and state.unfinished == "encrypt"
                 and state.database_encrypted and window.workspace.encrypted)
    if finishing:
        window.encrypt_workspace_action.setText("Finish encr&yption…")
    window.encrypt_workspace_action.setEnabled(
        folder is not None and (finishing or not window.workspace.encrypted))
    said = unfinished_message(state) if state is not None else None
    problems = window.workspace.private_problems
    if problems:  # told only when narrowing failed (casefile.store.private.tighten)
        said = "\n\n".join(filter(None, [said, (
            "These files of the workspace could not be made readable by you alone:\n"
            + "\n".join(f"  • {p}" for p in problems[:12]))]))
    if said:  # once the window is up: a box that does not block it
        QTimer.singleShot(0, lambda: window.report_error(said))


def open_window(like: WindowShell, ws: Workspace, case_id: int | None = None) -> QWidget:
    """A new main window on ``ws`` of the same class as the window ``like`` (this module is
    imported by the main window, so it does not import it back), shown; ``ws`` is closed when
    the window is."""
    window = cast("Callable[..., QWidget]", type(like))(ws, case_id=case_id)
    window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    _WINDOWS.add(window)

    def let_go() -> None:
        _WINDOWS.discard(window)
        ws.close()

    window.destroyed.connect(let_go)
    window.show()
    return window


def prompt_new_workspace(window: WorkspaceWindow) -> QWidget | None:
    """Ask a folder (and optionally a passphrase), create the workspace, open it in a new
    window (returned; None when cancelled or refused, the reason shown)."""
    dialog = NewWorkspaceDialog(window.qt_window())
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    try:
        ws = create_new(dialog.folder(), dialog.passphrase())
    except CasefileError as exc:
        QMessageBox.warning(window.qt_window(), "New workspace", str(exc))
        return None
    return open_window(window, ws)


def prompt_encrypt_workspace(window: WorkspaceWindow) -> QWidget | None:
    """Encrypt the window's plain workspace with a passphrase typed twice; on success the
    workspace reopens encrypted in a new window (returned) and this one closes."""
    ws: Workspace = window.workspace
    folder = ws.folder
    state = window.encryption_state
    finishing = ws.encrypted and state is not None and state.unfinished == "encrypt"
    if folder is None or (ws.encrypted and not finishing):
        return None
    if window.runner.busy:
        QMessageBox.information(window.qt_window(), "Encrypt workspace",
                                "Wait for the running job to finish, then try again.")
        return None
    if finishing:  # an interrupted encryption: its passphrase is the one this window holds
        assert ws.passphrase is not None
        passphrase = ws.passphrase
    else:
        dialog = NewPassphraseDialog("Encrypt workspace", encrypt_message(folder),
                                     window.qt_window())
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        passphrase = dialog.passphrase()
    from casefile.services.encryption import encrypt_workspace

    window.flush_edits()
    window.watch.timer.stop()
    window.runner.shutdown()
    ws.close()  # no connection of this process stays on the plain file
    try:
        result = encrypt_workspace(folder, passphrase, own_window=window.watch.presence.name)
    except CasefileError as exc:
        window.watch.timer.start()
        QMessageBox.warning(window.qt_window(), "Encrypt workspace", f"Not encrypted: {exc}")
        return None
    reopened = open_window(window, open_workspace(folder, passphrase=passphrase),
                           window.case_id)
    window.qt_window().close()
    if result.resumed:
        message = (f"The workspace is encrypted: {len(result.backups)} backups encrypted and "
                   f"{len(result.erased)} plain files overwritten and removed.")
    else:
        message = (f"The workspace is encrypted: {sum(result.tables.values())} rows checked "
                   f"in {len(result.tables)} tables; the plain file was overwritten and "
                   "removed.")
    if result.others:
        message += ("\nThese files in the folder are not part of the database and were left "
                    "as they are:\n" + "\n".join(str(p) for p in result.others))
    QMessageBox.information(reopened, "Encrypt workspace", message)
    return reopened
