"""Workspace dialogs: the passphrase asked at open, File ▸ New workspace…, File ▸ Encrypt
workspace…, and opening an encrypted workspace with retries.

Passphrases live only in these dialogs' fields and the open Workspace; nothing is written to
QSettings or disk.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from casefile.errors import CasefileError
from casefile.store.encryption import MIN_PASSPHRASE, EncryptionState, WrongPassphraseError
from casefile.store.workspace import Workspace, encrypted_database, open_workspace
from casefile.ui.dialogs import ok_cancel_buttons
from casefile.ui.widgets import folder_row

WRONG_MESSAGE = "That passphrase is wrong. Try again:"


def _password_field(name: str) -> QLineEdit:
    edit = QLineEdit()
    edit.setObjectName(name)
    edit.setEchoMode(QLineEdit.EchoMode.Password)
    return edit


class PassphraseDialog(QDialog):
    """Asks the passphrase of the encrypted workspace in ``folder``; ``wrong`` first says the
    last one was wrong. ``passphrase()`` is the text typed."""

    def __init__(self, folder: Path, *, wrong: bool = False,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Encrypted workspace")
        layout = QVBoxLayout(self)
        self.message = QLabel(WRONG_MESSAGE if wrong else
                              f"The workspace in {folder} is encrypted.\nPassphrase to open it:")
        self.message.setObjectName("passphrase-message")
        layout.addWidget(self.message)
        self.field = _password_field("passphrase")
        layout.addWidget(self.field)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.open_button = buttons.button(QDialogButtonBox.StandardButton.Open)
        self.open_button.setEnabled(False)
        self.field.textChanged.connect(lambda t: self.open_button.setEnabled(bool(t)))
        layout.addWidget(buttons)

    def passphrase(self) -> str:
        """The passphrase typed."""
        return self.field.text()


class NewPassphraseFields(QWidget):
    """A passphrase and its confirmation, with a line saying what is wrong; ``valid()`` is
    True when both agree and are long enough."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        self.first = _password_field("new-passphrase")
        self.second = _password_field("confirm-passphrase")
        form.addRow("Passphrase:", self.first)
        form.addRow("Again:", self.second)
        self.problem = QLabel("")
        self.problem.setObjectName("passphrase-problem")
        form.addRow(self.problem)
        self.first.textChanged.connect(self._check)
        self.second.textChanged.connect(self._check)
        self._check()

    def _check(self) -> None:
        self.problem.setText(self.why_not() or "")

    def why_not(self) -> str | None:
        """What keeps the passphrase from being used, or None."""
        if len(self.first.text()) < MIN_PASSPHRASE:
            return f"At least {MIN_PASSPHRASE} characters."
        if self.first.text() != self.second.text():
            return "The two passphrases differ."
        return None

    def passphrase(self) -> str:
        """The passphrase typed (check :meth:`why_not` first)."""
        return self.first.text()


class NewWorkspaceDialog(QDialog):
    """File ▸ New workspace…: a folder, and optionally a passphrase (typed twice) to encrypt
    the new workspace. ``folder()`` / ``passphrase()`` (None: not encrypted) once accepted."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New workspace")
        layout = QVBoxLayout(self)
        self.folder_edit = QLineEdit()
        self.folder_edit.setObjectName("workspace-folder")
        self.folder_edit.setPlaceholderText("A new or empty folder")
        layout.addWidget(QLabel("Folder:"))
        layout.addLayout(folder_row(self.folder_edit, "Folder for the new workspace",
                                    from_typed=False))
        self.encrypt = QCheckBox("Encrypt with a passphrase (it cannot be recovered if lost)")
        self.encrypt.setObjectName("encrypt")
        layout.addWidget(self.encrypt)
        self.fields = NewPassphraseFields()
        self.fields.setEnabled(False)
        layout.addWidget(self.fields)
        self.buttons = ok_cancel_buttons(self)
        layout.addWidget(self.buttons)
        self.encrypt.toggled.connect(self._update)
        self.folder_edit.textChanged.connect(self._update)
        self.fields.first.textChanged.connect(self._update)
        self.fields.second.textChanged.connect(self._update)
        self._update()

    def _update(self) -> None:
        self.fields.setEnabled(self.encrypt.isChecked())
        ok = bool(self.folder_edit.text().strip()) and (
            not self.encrypt.isChecked() or self.fields.why_not() is None)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok)

    def folder(self) -> Path:
        """The folder typed or chosen."""
        return Path(self.folder_edit.text().strip()).expanduser()

    def passphrase(self) -> str | None:
        """The new workspace's passphrase, None when it is not to be encrypted."""
        return self.fields.passphrase() if self.encrypt.isChecked() else None


class NewPassphraseDialog(QDialog):
    """A new passphrase typed twice, under ``message`` (File ▸ Encrypt workspace…, and a
    new encrypted workspace asked for on the command line)."""

    def __init__(self, title: str, message: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        layout = QVBoxLayout(self)
        note = QLabel(message)
        note.setWordWrap(True)
        layout.addWidget(note)
        self.fields = NewPassphraseFields()
        layout.addWidget(self.fields)
        self.buttons = ok_cancel_buttons(self)
        layout.addWidget(self.buttons)
        for edit in (self.fields.first, self.fields.second):
            edit.textChanged.connect(self._update)
        self._update()

    def _update(self) -> None:
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(
            self.fields.why_not() is None)

    def passphrase(self) -> str:
        """The passphrase typed."""
        return self.fields.passphrase()


def encrypt_message(folder: Path) -> str:
    """What File ▸ Encrypt workspace… says will happen."""
    return (f"The workspace in {folder} will be copied into an encrypted database, checked "
            "table by table, and the plain file overwritten and removed.\n"
            "The passphrase cannot be recovered if lost.")


def unfinished_message(state: EncryptionState) -> str | None:
    """What the window says on opening a workspace whose encryption or passphrase change was
    interrupted (every file left named, relative to the folder), or None when nothing was."""
    if state.unfinished is None:
        return None

    def listing(files: tuple[Path, ...]) -> str:
        names = [str(p.relative_to(state.folder)) for p in files]
        shown = "\n".join(f"  • {n}" for n in names[:12])
        return shown + (f"\n  … and {len(names) - 12} more" if len(names) > 12 else "")

    if state.unfinished == "passphrase":
        return ("A change of this workspace's passphrase was interrupted. These files may still "
                f"be under the old passphrase:\n{listing(state.old_key)}\n\nFinish the change "
                "on the command line: casefile workspace passphrase (the old passphrase, then "
                "the new one).")
    if state.database_encrypted:
        head = "An encryption of this workspace was interrupted."
        fix = ("Choose File ▸ Finish encryption… to encrypt them with this workspace's "
               "passphrase and overwrite the plain copies.")
    else:
        head = ("An encryption of this workspace was interrupted before the database was done: "
                "the workspace is not encrypted.")
        fix = "Choose File ▸ Encrypt workspace… to encrypt it again."
    left = (f"These files can still be read without a passphrase:\n{listing(state.plain)}"
            if state.plain else "No plain file is left; temporary copies remain.")
    return f"{head} {left}\n\n{fix}"


def open_asking(workspace: str | Path | None = None, db_url: str | None = None,
                parent: QWidget | None = None) -> Workspace | None:
    """Open the chosen workspace; an encrypted one asks its passphrase (PassphraseDialog),
    again after a wrong one, until it opens or the dialog is cancelled (None). Other
    CasefileErrors propagate."""
    encrypted = encrypted_database(workspace, db_url)
    if encrypted is None:
        return open_workspace(workspace, db_url)
    wrong = False
    while True:
        dialog = PassphraseDialog(encrypted.parent, wrong=wrong, parent=parent)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        try:
            return open_workspace(workspace, db_url, passphrase=dialog.passphrase())
        except WrongPassphraseError:
            wrong = True


def create_new(folder: Path, passphrase: str | None) -> Workspace:
    """Create the workspace of File ▸ New workspace… in ``folder`` (encrypted when a
    ``passphrase`` is given). Raises CasefileError when the folder holds a workspace."""
    from casefile.store.workspace import holds_workspace

    if holds_workspace(folder):
        raise CasefileError(f"{folder} already holds a workspace; open it instead")
    return open_workspace(folder, passphrase=passphrase, encrypt=passphrase is not None)
