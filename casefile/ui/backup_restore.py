"""File ▸ Restore from backup… of the main window.

:class:`RestoreBackupDialog` lists the workspace's backups (when, why, size; newest first);
after the choice and a confirmation, :class:`BackupRestorer` runs the same service call as
``casefile backup restore ID`` (:func:`casefile.services.backups.restore`: the backup checked
first, the current state backed up, then the copy) as a background job with a progress dialog.
The window's engine stays open: the service copies into one of its connections and then lets
go of the pooled ones, which reopen on the restored database (keyed with the passphrase the
Workspace holds in memory, for an encrypted workspace). The window then shows the workspace
afresh (:meth:`BackupRestorer.reload_workspace`): the case list, the case, every view; the undo
history is cleared, since it is about a state that is gone. It says in words what was restored
and, when the case it showed did not exist then, which case it shows instead. The same is said
when another process restored a backup or removed the window's case
(:meth:`BackupRestorer.show_replaced`, called by the window's workspace watch).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMenu,
    QMessageBox,
    QTableWidgetItem,
    QWidget,
)
from sqlalchemy.orm import Session

from casefile.errors import CasefileError
from casefile.services import trash
from casefile.services.changes import changes
from casefile.store.items import ITEM_KINDS
from casefile.ui.dialogs import ListingDialog
from casefile.ui.operations import Job

if TYPE_CHECKING:  # the store's backups module loads when File ▸ Restore from backup… is used
    from typing import Protocol

    from casefile.store.backups import Backup, Restored
    from casefile.ui.navigator import CaseNavigator
    from casefile.ui.shell import WindowShell
    from casefile.ui.watch import WorkspaceWatch

    class RestoreWindow(WindowShell, Protocol):
        """The window as File ▸ Restore from backup… sees it: the shell, the case picker it
        reloads, the workspace watch, the error boxes open and whether it is restoring."""

        restoring: bool

        messages: list[QMessageBox]
        picker: CaseNavigator
        watch: WorkspaceWatch

        def load_cases(self) -> None: ...


def taken_local(backup: Backup) -> str:
    """When the backup was taken, in local time: "2024-05-02 14:03:11"."""
    return f"{backup.taken.replace(tzinfo=UTC).astimezone():%Y-%m-%d %H:%M:%S}"


def taken_words(backup: Backup, now: datetime | None = None) -> str:
    """When the backup was taken, in local time and in words: "2 Dec 10:05" ("2 Dec 2025
    10:05" in another year than ``now``'s, default today)."""
    taken = backup.taken.replace(tzinfo=UTC).astimezone()
    year = "" if taken.year == (now or datetime.now()).year else f" {taken.year}"
    return f"{taken.day} {taken:%b}{year} {taken:%H:%M}"


def case_gone_sentence(gone: str, shown: str, then: bool, trashed: bool = False) -> str:
    """Why the window shows another case: ``gone`` the title of the case it showed, ``shown``
    the one it shows now ("" for none), ``then`` True when the case is missing from a restored
    backup ("did not exist then"), False when it was removed (``trashed``: to the Trash)."""
    where = ("did not exist then" if then else
             "was moved to the Trash by another window or command (File ▸ Trash… brings it "
             "back)" if trashed else "is no longer in this workspace")
    instead = f"showing “{shown}” instead." if shown else "no case is shown."
    return f"The case “{gone}” {where}; {instead}"


def size_text(size: int) -> str:
    """A file size for people: "812 kB", "3.4 MB"."""
    if size < 1_000_000:
        return f"{max(size, 1) / 1000:.0f} kB"
    return f"{size / 1e6:.1f} MB"


class RestoreBackupDialog(ListingDialog):
    """The backups of the workspace, newest first; ``chosen()`` is the selected one."""

    def __init__(self, listed: list[Backup], parent: QWidget | None = None) -> None:
        super().__init__(
            parent, "Restore from backup", ("Taken", "Why", "Size"), rows=len(listed),
            intro="Choose the state to go back to. The workspace as it is now is backed up "
            "first, so a restore can itself be undone by restoring that backup." if listed else
            "This workspace has no backups yet. Casefile backs up a few seconds after a window "
            "opens, and every few minutes while there are changes.")
        self.listed = listed
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        for row, backup in enumerate(listed):
            cells = (taken_local(backup), backup.why, size_text(backup.size))
            for column, value in enumerate(cells):
                cell = QTableWidgetItem(value)
                cell.setToolTip(backup.id)
                if column == 2:
                    cell.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, column, cell)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.restore_button = self.buttons.addButton(
            "Restore…", QDialogButtonBox.ButtonRole.AcceptRole)
        self.restore_button.setEnabled(False)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.body.addWidget(self.buttons)
        self.table.itemSelectionChanged.connect(
            lambda: self.restore_button.setEnabled(self.chosen() is not None))
        self.table.doubleClicked.connect(lambda _index: self.accept())
        if listed:
            self.table.selectRow(0)
        self.resize(560, 360)

    def chosen(self) -> Backup | None:
        """The selected backup (None: none)."""
        rows = self.table.selectionModel().selectedRows()
        return self.listed[rows[0].row()] if rows else None

    @classmethod
    def choose(cls, parent: QWidget | None, listed: list[Backup]) -> Backup | None:
        """Show the dialog; the backup chosen, None when cancelled."""
        dialog = cls(listed, parent)
        accepted = dialog.exec() == QDialog.DialogCode.Accepted
        return dialog.chosen() if accepted else None


def confirm_restore(parent: QWidget | None, backup: Backup, others: bool = False) -> bool:
    """Ask before replacing the workspace with ``backup``; ``others``: another window has the
    workspace open (it will show the restored state too). True to go ahead."""
    text = (f"Go back to the workspace as it was at {taken_local(backup)} ({backup.why})?\n\n"
            "Everything changed since then in every case of this workspace is replaced. The "
            "state as it is now is backed up first.")
    if others:
        text += "\n\nAnother Casefile window has this workspace open; it will show the " \
                "restored state too."
    answer = QMessageBox.question(
        parent, "Restore from backup", text,
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Cancel)
    return answer == QMessageBox.StandardButton.Yes


class BackupRestorer:
    """File ▸ Restore from backup… of ``window``.
    ``action`` is the menu action; ``job`` the running (or last) restore; ``restored`` what
    the last restore did."""

    def __init__(self, window: RestoreWindow) -> None:
        self.window = window
        self.job: Job | None = None
        self.restored: Restored | None = None
        self.action: Any = None

    def prompt(self) -> Job | None:
        """Ask which backup, confirm, and start the restore (returned; None when cancelled,
        refused or impossible, the reason shown)."""
        from casefile.services import backups

        window = self.window
        if window.workspace.folder is None:
            QMessageBox.information(window.qt_window(), "Restore from backup",
                                    "A workspace on a database server has no backups here; "
                                    "restore it with the server's own tools.")
            return None
        if window.runner.busy:
            QMessageBox.information(window.qt_window(), "Restore from backup",
                                    "Wait for the running job to finish, then try again.")
            return None
        try:
            listed = backups.list_backups(window.workspace)
        except CasefileError as exc:
            window.report_error(str(exc))
            return None
        chosen = RestoreBackupDialog.choose(window.qt_window(), listed)
        if chosen is None:
            return None
        others = bool(window.watch.presence.others())
        if not confirm_restore(window.qt_window(), chosen, others):
            return None
        return self.restore(chosen.id)

    def restore(self, backup_id: str) -> Job:
        """Restore backup ``backup_id`` in the background (progress dialog; Cancel stops it
        before the copy is complete, and nothing is changed then); the window reloads after."""
        from casefile.services import backups

        window = self.window
        window.flush_edits()  # a pending edit belongs to the state backed up before
        window.restoring = True
        workspace = window.workspace
        outcome: dict[str, Restored] = {}

        def work(_session: Session, job: Job) -> Restored:
            outcome["done"] = backups.restore(workspace, backup_id, progress=job.report)
            return outcome["done"]

        self.job = window.runner.start(
            work, label="Restoring the backup…", change=None, parent=window.qt_window(),
            on_done=lambda job: self._finished(job, outcome))
        return self.job

    def _finished(self, job: Job, outcome: dict[str, Restored]) -> None:
        window = self.window
        window.restoring = False
        window.watch.see_restores()  # its "before-restore" backup is this window's own
        done = outcome.get("done")
        if done is None:  # refused (said by the runner) or cancelled before the copy ended
            if job.outcome == "cancelled":
                window.notify("Restore cancelled; nothing was changed.", 8000)
            return
        self.restored = done  # done, even when Cancel came after the copy
        gone = self.reload_workspace()
        message = f"Restored the backup of {taken_words(done.restored)}. " + (
            case_gone_sentence(gone, window.case_title(), then=True) if gone is not None
            else "The state before is a backup too.")
        if done.note:
            message += (" It had no recorded checksum (an older backup) and passed its "
                        "integrity check.")
        self.tell(message, box=gone is not None)

    def reload_workspace(self) -> str | None:
        """Show the workspace afresh after its content was replaced (a restored backup): the
        case list, the case (this one when it is still there, else the first), every view
        (one Changes that reloads them all); the undo history is cleared. Returns the title of
        the case shown before when it is no longer there (another case, or none, is shown
        now: ``window.case_title()``), else None."""
        window = self.window
        before, before_title = window.case_id, window.case_title()
        window.load_cases()
        ids = window.picker.case_ids()
        window.open_case(window.case_id if window.case_id in ids else (ids[0] if ids else None))
        window.watch.rebase()  # the change log seen before is not this one's
        if window.case_id is not None:
            window.runner.case_changed.emit(changes(
                window.case_id, kinds=ITEM_KINDS, evidence=True, suggestions=True, cases=True,
                label="restore from backup"))
        return before_title if before is not None and before not in ids else None

    def show_replaced(self, restored: bool) -> None:
        """Reload the window after another process replaced the workspace's content
        (``restored``: it restored a backup) or removed the window's case, and say what
        happened: in the status bar, and in a message box when the case shown changed."""
        window = self.window
        before = window.case_id
        gone = self.reload_workspace()
        parts = ["Another window or command restored a backup of this workspace."
                 if restored else ""]
        if gone is not None:
            trashed = not restored and before is not None and window.runner.read(
                lambda s: trash.case_in_trash(s, before))
            parts.append(case_gone_sentence(gone, window.case_title(), then=restored,
                                            trashed=trashed))
        self.tell(" ".join(p for p in parts if p), box=gone is not None)

    def tell(self, message: str, box: bool) -> None:
        """Say ``message`` in the status bar (30 s) and, with ``box``, in an information box
        (window-modal, not blocking; kept in ``window.messages`` while open)."""
        window = self.window
        window.notify(message, 30000)
        if not box:
            return
        shown = QMessageBox(QMessageBox.Icon.Information, "Casefile", message,
                            QMessageBox.StandardButton.Ok, window.qt_window())
        shown.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        shown.finished.connect(lambda _r, b=shown: window.messages.remove(b)
                               if b in window.messages else None)
        window.messages.append(shown)
        shown.open()


def install_backup_restore(window: RestoreWindow, file_menu: QMenu) -> BackupRestorer:
    """Add File ▸ Restore from backup… to ``file_menu`` (the controller's ``action``); returns
    the controller."""
    restorer = BackupRestorer(window)
    restorer.action = file_menu.addAction("Restore from &backup…", restorer.prompt)
    restorer.action.setEnabled(window.workspace.folder is not None)
    return restorer
