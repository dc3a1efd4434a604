"""The Suggestions panel's dialogs: accept under another name (:class:`RenameDialog`), merge
into an existing item (:class:`MergeDialog`), the names rejected in any case
(:class:`RejectedNamesDialog`).
"""


from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import (
    QStringListModel,
    Qt,
    Slot,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from casefile.services import decisions, rejections
from casefile.services.decisions import SuggestionEntry
from casefile.services.rejections import RejectedName
from casefile.services.views import ItemChoice
from casefile.ui.dialogs import ok_cancel_buttons
from casefile.ui.operations import CaseChange
from casefile.ui.suggestions.model import (
    KIND_SINGULAR,
    _short,
)

if TYPE_CHECKING:
    from casefile.ui.suggestions.panel import SuggestionsPanel


class RenameDialog(QDialog):
    """Accept a suggestion under another name: a line edit prefilled with the suggested name.
    OK is enabled while the name is not empty; :meth:`name` is the stripped text."""

    def __init__(self, entry: SuggestionEntry, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Accept as…")
        self.name_edit = QLineEdit(entry.name if entry.kind in ("person", "organization", "place")
                                   else _short(entry.name, decisions.TITLE_LIMIT))
        self.name_edit.selectAll()
        self.buttons = ok_cancel_buttons(self)
        intro = QLabel(f"Accept the suggested {KIND_SINGULAR.get(entry.kind, entry.kind)} "
                       f"“{_short(entry.name, 80)}” under this name:")
        intro.setTextFormat(Qt.TextFormat.PlainText)
        intro.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.name_edit)
        layout.addWidget(self.buttons)
        self.name_edit.textChanged.connect(self._on_text_changed)
        self._on_text_changed(self.name_edit.text())
        self.resize(420, self.sizeHint().height())

    def name(self) -> str:
        """The name typed, stripped."""
        return self.name_edit.text().strip()

    @Slot(str)
    def _on_text_changed(self, text: str) -> None:
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(bool(text.strip()))


class MergeDialog(QDialog):
    """Choose the existing item a suggestion is merged into: a completer over the titles and
    aliases of the case's items of the suggestion's kind. OK is enabled while the text names
    exactly one of them; :meth:`chosen_item` is it."""

    def __init__(self, entry: SuggestionEntry, choices: Sequence[ItemChoice],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Merge into…")
        self._choices = list(choices)
        words: list[str] = []
        for c in self._choices:
            for written in (c.title, *c.aliases):
                if written not in words:
                    words.append(written)
        self.item_edit = QLineEdit()
        kind = KIND_SINGULAR.get(entry.kind, entry.kind)
        self.item_edit.setPlaceholderText(f"Type the name of a {kind} of this case")
        self.completer = QCompleter(QStringListModel(words, self), self)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.item_edit.setCompleter(self.completer)
        self.problem = QLabel()
        self.problem.setTextFormat(Qt.TextFormat.PlainText)
        self.buttons = ok_cancel_buttons(self)
        intro = QLabel(f"Merge the suggested {kind} “{_short(entry.name, 80)}” into an "
                       f"existing {kind}; its mentions become evidence for it"
                       + (" and the name one of its aliases." if entry.kind in
                          ("person", "organization", "place") else "."))
        intro.setTextFormat(Qt.TextFormat.PlainText)
        intro.setWordWrap(True)
        form = QFormLayout()
        form.addRow("Merge into:", self.item_edit)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.item_edit.textChanged.connect(self._on_text_changed)
        self._on_text_changed("")
        if not self._choices:
            self.problem.setText(f"This case has no {kind} yet: use Accept instead.")
        self.resize(460, self.sizeHint().height())

    def chosen_item(self) -> ItemChoice | None:
        """The item whose title or alias is the text (ignoring case), if exactly one."""
        key = decisions.name_key(self.item_edit.text())
        if not key:
            return None
        hits = [c for c in self._choices
                if key in {decisions.name_key(f) for f in (c.title, *c.aliases)}]
        return hits[0] if len(hits) == 1 else None

    @Slot(str)
    def _on_text_changed(self, text: str) -> None:
        ok = self.chosen_item() is not None
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok)
        if text.strip() and not ok:
            self.problem.setText("No single item of this kind has that name.")
        elif self._choices:
            self.problem.setText("")


class RejectedNamesDialog(QDialog):
    """"Rejected names…": the names rejected in any case of the workspace (kind, name, cases,
    mentions, when), and "Suggest again" for the selected one. The list is read through
    ``panel``'s runner and read again after each restore (and after undo / redo while open);
    ``tree`` holds one row per name (its RejectedName under ``Qt.UserRole``)."""

    def __init__(self, panel: SuggestionsPanel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.panel = panel
        self.setWindowTitle("Rejected names")
        self.rows: list[RejectedName] = []
        intro = QLabel("These names are not suggested in any case of this workspace. "
                       "“Suggest again” puts their mentions back in the Suggestions panel "
                       "of their cases (Undo takes it back).")
        intro.setTextFormat(Qt.TextFormat.PlainText)
        intro.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setObjectName("rejected_names_tree")
        self.tree.setHeaderLabels(["Kind", "Name", "Cases", "#", "Rejected"])
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.empty = QLabel("No names are rejected.")
        self.empty.setTextFormat(Qt.TextFormat.PlainText)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.restore_button = self.buttons.addButton(
            "&Suggest again", QDialogButtonBox.ButtonRole.ActionRole)
        self.restore_button.setObjectName("suggest_again_button")
        self.restore_button.clicked.connect(self.restore_selected)
        self.buttons.rejected.connect(self.reject)
        self.tree.itemSelectionChanged.connect(self._update_button)
        self.tree.itemDoubleClicked.connect(lambda *_args: self.restore_selected())
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.empty)
        layout.addWidget(self.buttons)
        panel.runner.case_changed.connect(self._on_case_changed)
        self.reload()
        self.resize(560, 320)

    def reload(self) -> None:
        """Read the rejected names again (the selection stays on the same name if it is
        still there, else the first row)."""
        old = self.selected()
        self.rows = self.panel.runner.read(rejections.rejected_suggestions)
        self.tree.clear()
        self._items: list[QTreeWidgetItem] = []
        for r in self.rows:
            row = QTreeWidgetItem([KIND_SINGULAR.get(r.kind, r.kind), r.name,
                                   ", ".join(r.cases), str(r.mentions),
                                   (r.when or "")[:10]])
            row.setData(0, Qt.ItemDataRole.UserRole, r)
            row.setToolTip(1, f"{r.name}\n{r.mentions} mention{'s' if r.mentions != 1 else ''}"
                              f" in {r.documents} document{'s' if r.documents != 1 else ''}")
            row.setToolTip(2, ", ".join(r.cases))
            self.tree.addTopLevelItem(row)
            self._items.append(row)
        for column in (0, 3, 4):
            self.tree.resizeColumnToContents(column)
        target = next((n for n, r in enumerate(self.rows) if old is not None
                       and (r.kind, r.name) == (old.kind, old.name)), 0)
        if self.rows:
            self.tree.setCurrentItem(self._items[target])
        self.tree.setVisible(bool(self.rows))
        self.empty.setVisible(not self.rows)
        self._update_button()

    def selected(self) -> RejectedName | None:
        """The selected rejected name, or None."""
        row = self.tree.currentItem()
        if row is None or not row.isSelected():
            return None
        value = row.data(0, Qt.ItemDataRole.UserRole)
        return value if isinstance(value, RejectedName) else None

    def select(self, kind: str, name: str) -> bool:
        """Select the row of this rejected name; True if it is listed."""
        for n, r in enumerate(self.rows):
            if (r.kind, r.name) == (kind, name):
                self.tree.setCurrentItem(self._items[n])
                return True
        return False

    def restore_selected(self) -> bool:
        """Suggest the selected name again (through the panel: undoable); True if done."""
        chosen = self.selected()
        if chosen is None:
            return False
        done = self.panel.restore_rejected(chosen.kind, chosen.name)
        self.reload()
        return done

    def _update_button(self) -> None:
        self.restore_button.setEnabled(self.selected() is not None)

    @Slot(object)
    def _on_case_changed(self, ch: CaseChange) -> None:
        if ch.suggestions and self.isVisible():
            self.reload()

