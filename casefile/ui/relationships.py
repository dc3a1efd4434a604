"""The editor's "Relationships" list for people and organizations, and its Add dialog.

Adding and removing are service actions (``casefile.services.relationship_actions``) run
through the window's :class:`OperationRunner` (``apply``), as undoable commands when the panel
is given the window's undo stack; the list reloads from the runner's ``case_changed`` signal
like every other view.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QDialog,
    QFormLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)
from sqlalchemy.orm import Session

from casefile.services import relationship_actions, relationships
from casefile.services.changes import Changes
from casefile.services.views import ItemChoice
from casefile.store.evidence import RELATIONSHIP_KINDS
from casefile.ui.dialogs import ok_cancel_buttons
from casefile.ui.operations import CaseChange, OperationRunner
from casefile.ui.undo import ActionCommand
from casefile.ui.widgets import row_at_left

RELATED_KINDS = ("person", "organization")


class RelationshipDialog(QDialog):
    """Asks for a relationship kind and the person or organization at the other end."""

    def __init__(self, title: str, choices: list[ItemChoice],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add relationship")
        self.kind_box = QComboBox()
        self.kind_box.addItems(list(RELATIONSHIP_KINDS))
        self.target_box = QComboBox()
        self.target_box.setEditable(True)
        self.target_box.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        for choice in choices:
            self.target_box.addItem(f"{choice.title} ({choice.kind})", choice.id)
        completer = self.target_box.completer()
        if completer is not None:
            completer.setFilterMode(Qt.MatchFlag.MatchContains)
            completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        form = QFormLayout()
        form.addRow(QLabel(title))
        form.addRow("Relationship:", self.kind_box)
        form.addRow("To:", self.target_box)
        buttons = ok_cancel_buttons(self)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def kind(self) -> str:
        """The chosen relationship kind."""
        return self.kind_box.currentText()

    def target_id(self) -> int | None:
        """The id of the chosen item, or None when the typed text names none."""
        n = self.target_box.findText(self.target_box.currentText())
        return self.target_box.itemData(n) if n >= 0 else None


class RelationshipsPanel(QWidget):
    """Lists an item's relationships ("employed by → Harlan County Sheriff's Office") with
    Add… and Remove buttons. With ``undo_stack`` each change is pushed there as one undoable
    command; without, it is run through the runner directly."""

    def __init__(self, runner: OperationRunner,
                 choices_provider: Callable[[tuple[str, ...]], list[ItemChoice]],
                 parent: QWidget | None = None, *,
                 undo_stack: QUndoStack | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.undo_stack = undo_stack
        self._choices_provider = choices_provider
        self.item_id: int | None = None
        self.case_id: int | None = None
        self.title = ""
        self.list = QListWidget()
        self.list.setObjectName("relationships_list")
        self.list.setMaximumHeight(110)
        self.add_button = QPushButton("Add…")
        self.remove_button = QPushButton("Remove")
        self.remove_button.setEnabled(False)
        self.add_button.clicked.connect(self.ask_add)
        self.remove_button.clicked.connect(self.remove_selected)
        self.list.currentRowChanged.connect(
            lambda row: self.remove_button.setEnabled(row >= 0))
        buttons = row_at_left(self.add_button, self.remove_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addWidget(QLabel("Relationships:"))
        layout.addWidget(self.list)
        layout.addLayout(buttons)
        runner.case_changed.connect(self._on_case_changed)

    def load(self, item_id: int | None, case_id: int | None = None, title: str = "") -> None:
        """Show the relationships of ``item_id`` (None: show nothing)."""
        self.item_id, self.case_id, self.title = item_id, case_id, title
        self.reload()

    def reload(self) -> None:
        """Re-read the shown item's relationships."""
        self.list.clear()
        if self.item_id is None:
            return
        item_id = self.item_id
        for rel in self.runner.read(lambda s: relationships.list_relationships(s, item_id)):
            row = QListWidgetItem(rel.label)
            row.setData(Qt.ItemDataRole.UserRole, rel.id)
            row.setData(Qt.ItemDataRole.UserRole + 1, rel.other_id)
            if rel.note:
                row.setToolTip(rel.note)
            self.list.addItem(row)
        self.remove_button.setEnabled(self.list.currentRow() >= 0)

    def labels(self) -> list[str]:
        """The rows shown, as text (for tests and accessibility)."""
        return [self.list.item(i).text() for i in range(self.list.count())]

    @Slot(object)
    def _on_case_changed(self, ch: CaseChange) -> None:
        if self.item_id is not None and ch.case_id == self.case_id:
            try:
                self.reload()
            except Exception:  # the item went away; the editor clears itself
                self.list.clear()

    @Slot()
    def ask_add(self) -> None:
        """Open the Add dialog and add the chosen relationship."""
        if self.item_id is None:
            return
        choices = [c for c in self._choices_provider(RELATED_KINDS) if c.id != self.item_id]
        dialog = RelationshipDialog(self.title, choices, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        target = dialog.target_id()
        if target is None:
            self.runner.operation_failed.emit("Choose a person or organization from the list.")
            return
        self.add(dialog.kind(), target)

    def _run(self, text: str, action: Callable[[Session], Changes]) -> bool:
        """Run one service action: as an undoable command when there is an undo stack."""
        if self.undo_stack is None or self.case_id is None:
            return self.runner.apply(action, label=text).ok
        command = ActionCommand(self.runner, self.case_id, text, action)
        self.undo_stack.push(command)
        return not command.failed

    def add(self, kind: str, target_id: int) -> bool:
        """Add ``kind`` from the shown item to ``target_id`` (undoable with an undo stack)."""
        if self.item_id is None:
            return False
        source = self.item_id
        return self._run(
            f"Add relationship {kind}",
            lambda s: relationship_actions.add(s, source, target_id, kind))

    @Slot()
    def remove_selected(self) -> None:
        """Remove the selected relationship (undoable with an undo stack)."""
        row = self.list.currentItem()
        if row is None or self.item_id is None:
            return
        rel_id = int(row.data(Qt.ItemDataRole.UserRole))
        self._run("Remove relationship",
                  lambda s: relationship_actions.remove(s, rel_id))
