"""File ▸ Trash… of the main window: what is in the Trash (deleted cases and items), with
Restore and Empty Trash.

:class:`TrashDialog` only shows the entries and says which one is chosen;
:class:`TrashController` runs the services through the window's runner: Restore is
:func:`casefile.services.trash.restore` (items of the open case come back as an undoable step;
a restored case is opened), Empty Trash asks first (nothing brings those back) and runs
:func:`casefile.services.trash.empty`.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialogButtonBox,
    QHeaderView,
    QMenu,
    QMessageBox,
    QPushButton,
    QTableWidgetItem,
    QWidget,
)

from casefile.services import trash
from casefile.services.trash import TrashListing
from casefile.ui.dialogs import DialogHolder, ListingDialog
from casefile.ui.undo import ActionCommand

if TYPE_CHECKING:
    from casefile.ui.shell import WindowShell


def deleted_local(listing: TrashListing) -> str:
    """When the entry was deleted, in local time: "2026-12-02 14:03"."""
    when = datetime.fromisoformat(listing.deleted).replace(tzinfo=UTC).astimezone()
    return f"{when:%Y-%m-%d %H:%M}"


def confirm_empty(parent: QWidget | None, n: int) -> bool:
    """Ask before deleting the ``n`` entries of the Trash for good; True to go ahead."""
    entries = f"{n} {'entry' if n == 1 else 'entries'}"
    answer = QMessageBox.question(
        parent, "Empty Trash",
        f"Delete the {entries} in the Trash for good?\n\nNothing brings them back afterwards "
        "(a backup taken before still holds them).",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Cancel)
    return answer == QMessageBox.StandardButton.Yes


#: The widest the "What" column starts (px); a longer title is cut with … (whole in its tooltip).
WHAT_WIDTH = 320


class TrashDialog(ListingDialog):
    """The Trash's entries, newest first (Deleted, What, From case, Holds). Signals:
    ``restore_requested(entry_id)``, ``empty_requested()``."""

    restore_requested = Signal(int)
    empty_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, "Trash", ("Deleted", "What", "From case", "Holds"),
                         name="trash_table")
        self.listed: list[TrashListing] = []
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # what was deleted is read first: as wide as its title (at most WHAT_WIDTH px); what
        # it holds takes the rest and its tooltip has it whole
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.restore_button = QPushButton("&Restore")
        self.empty_button = QPushButton("&Empty Trash…")
        self.buttons.addButton(self.restore_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.addButton(self.empty_button, QDialogButtonBox.ButtonRole.DestructiveRole)
        self.buttons.rejected.connect(self.reject)
        self.restore_button.clicked.connect(self._on_restore)
        self.empty_button.clicked.connect(self.empty_requested)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.table.doubleClicked.connect(lambda _index: self._on_restore())
        self.body.addWidget(self.buttons)
        self.resize(640, 360)
        self.set_entries([])

    def set_entries(self, listed: list[TrashListing]) -> None:
        """Show ``listed`` (newest first); the first row is selected."""
        self.listed = list(listed)
        self.intro.setText(
            "Deleted cases and items stay here until the Trash is emptied. Restore brings one "
            "back as it was, with its documents, passages and evidence." if listed else
            "The Trash is empty.")
        self.table.setRowCount(len(listed))
        for row, entry in enumerate(listed):
            source = "" if entry.what == "case" else entry.case_title
            for column, value in enumerate((deleted_local(entry), entry.label, source,
                                            entry.holds)):
                cell = QTableWidgetItem(value)
                cell.setData(Qt.ItemDataRole.UserRole, entry.id)
                cell.setToolTip(value)
                self.table.setItem(row, column, cell)
        self.table.resizeColumnToContents(1)
        self.table.setColumnWidth(1, min(self.table.columnWidth(1), WHAT_WIDTH))
        if listed:
            self.table.selectRow(0)
        self._update_buttons()

    def chosen(self) -> TrashListing | None:
        """The selected entry (None: none)."""
        rows = self.table.selectionModel().selectedRows()
        return self.listed[rows[0].row()] if rows else None

    def select_entry(self, entry_id: int) -> None:
        """Select the row of entry ``entry_id``."""
        for row, entry in enumerate(self.listed):
            if entry.id == entry_id:
                self.table.selectRow(row)

    def _update_buttons(self) -> None:
        self.restore_button.setEnabled(self.chosen() is not None)
        self.empty_button.setEnabled(bool(self.listed))

    def _on_restore(self) -> None:
        entry = self.chosen()
        if entry is not None:
            self.restore_requested.emit(entry.id)


class TrashController(DialogHolder[TrashDialog]):
    """File ▸ Trash… of ``window``. ``action`` is
    the menu action; ``dialog`` the Trash dialog while it is open."""

    def __init__(self, window: WindowShell) -> None:
        self.window = window
        super().__init__()
        self.action: Any = None
        window.runner.case_changed.connect(lambda _ch: self.reload())

    def listed(self) -> list[TrashListing]:
        """What is in the Trash now, newest first."""
        return self.window.runner.read(trash.list_trash)

    def prompt(self) -> TrashDialog:
        """Open the Trash dialog (window-modal, not blocking); returns it."""

        def make() -> TrashDialog:
            dialog = TrashDialog(self.window.qt_window())
            dialog.restore_requested.connect(self.restore)
            dialog.empty_requested.connect(self.prompt_empty)
            return dialog

        return self.open_dialog(make, lambda _dialog: self.reload())

    def reload(self) -> None:
        """List the Trash again in the open dialog (nothing when it is closed)."""
        if self.dialog is not None:
            self.dialog.set_entries(self.listed())

    def restore(self, entry_id: int) -> bool:
        """Bring entry ``entry_id`` back: a case is then opened; items of the open case come
        back as an undoable step (Ctrl+Z puts them back in the Trash). True when done."""
        window = self.window
        entry = next((e for e in self.listed() if e.id == entry_id), None)
        if entry is None:
            window.report_error(f"nothing in the Trash with id {entry_id}")
            return False
        window.flush_edits()
        if entry.what == "items" and entry.case_id == window.case_id \
                and window.case_id is not None:
            command = ActionCommand(window.runner, window.case_id, f"Restore {entry.label}",
                                    action=lambda s: trash.restore(s, entry_id))
            window.undo_stack.push(command)
            ok = not command.failed
            message = command.changes.message if ok and command.changes else ""
        else:
            out = window.runner.apply(lambda s: trash.restore(s, entry_id),
                                      label=f"restoring {entry.label}", parent=self.dialog)
            ok = out.ok and out.value is not None
            message = out.value.message if ok and out.value is not None else ""
            if ok and entry.what == "case" and out.value is not None:
                window.open_case(int(out.value.value))
        self.reload()
        if ok:
            window.notify(message, 10000)
        return ok

    def prompt_empty(self) -> bool:
        """Empty Trash…: ask, then delete every entry for good. True when emptied."""
        n = len(self.listed())
        if not n or not confirm_empty(self.dialog or self.window.qt_window(), n):
            return False
        return self.empty()

    def empty(self) -> bool:
        """Delete every entry of the Trash for good (no question: :meth:`prompt_empty`
        asks). True when done."""
        out = self.window.runner.apply(lambda s: trash.empty(s), label="emptying the Trash",
                                       parent=self.dialog)
        self.reload()
        if out.ok and out.value is not None:
            self.window.notify(out.value.message, 10000)
        return out.ok


def install_trash(window: WindowShell, file_menu: QMenu) -> TrashController:
    """Add File ▸ Trash… to ``file_menu`` (the controller's ``action``); returns the
    controller."""
    controller = TrashController(window)
    controller.action = file_menu.addAction("&Trash…", controller.prompt)
    return controller
