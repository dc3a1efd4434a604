"""Small dialogs: a new case (title and summary), choosing the item a passage is evidence for,
a combo-box delegate, OK and Cancel buttons, and :class:`DialogHolder` (a controller's one
dialog, made when first shown and let go when closed)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QPersistentModelIndex,
    QStringListModel,
    Qt,
    Slot,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from casefile.quoting import quoted
from casefile.services.views import ItemChoice
from casefile.store.evidence import EVIDENCE_RELATIONS
from casefile.ui.widgets import wrapped_label


class NewCaseDialog(QDialog):
    """File ▸ New case…: the case's ``title`` (a line) and ``summary`` (a few lines, which
    open the brief). OK stays disabled while the title is blank. ``refusal(title)`` (None:
    none) says why a title cannot be taken ("a case titled … already exists"): OK then keeps
    the dialog open with the reason under the title, and what was typed stays."""

    def __init__(self, parent: QWidget | None = None,
                 refusal: Callable[[str], str | None] | None = None, title: str = "",
                 summary: str | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New case")
        self._refusal = refusal
        self.title_edit = QLineEdit(title)
        self.title_edit.setObjectName("case_title")
        self.title_edit.setPlaceholderText("e.g. School shooting: the police response")
        self.problem = wrapped_label(name="case_title_problem")
        self.problem.setStyleSheet("color: #b3261e;")
        self.problem.hide()
        self.summary_edit = QPlainTextEdit(summary or "")
        self.summary_edit.setObjectName("case_summary")
        self.summary_edit.setPlaceholderText("What the story is about, in a sentence or two.")
        self.summary_edit.setTabChangesFocus(True)
        self.summary_edit.setFixedHeight(self.summary_edit.fontMetrics().lineSpacing() * 5 + 12)
        form = QFormLayout()
        form.addRow("&Title:", self.title_edit)
        form.addRow("", self.problem)
        form.addRow("&Summary:", self.summary_edit)
        self.buttons = ok_cancel_buttons(self)
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.title_edit.textChanged.connect(self._update_ok)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        self._update_ok()
        self.resize(480, self.sizeHint().height())

    def _update_ok(self, *_args: Any) -> None:
        self.ok_button.setEnabled(bool(self.title().strip()))
        self.problem.hide()

    def accept(self) -> None:
        """OK: close, unless the title is refused (the reason is shown, the dialog stays)."""
        reason = self._refusal(self.title()) if self._refusal is not None else None
        if reason:
            self.problem.setText(reason[:1].upper() + reason[1:] + ": choose another title.")
            self.problem.show()
            self.title_edit.setFocus()
            self.title_edit.selectAll()
            return
        super().accept()

    def title(self) -> str:
        """The title typed (as typed)."""
        return self.title_edit.text()

    def summary(self) -> str | None:
        """The summary typed, trimmed; None when blank."""
        return self.summary_edit.toPlainText().strip() or None

    @staticmethod
    def ask(parent: QWidget | None = None, refusal: Callable[[str], str | None] | None = None,
            title: str = "", summary: str | None = None) -> tuple[str, str | None] | None:
        """Show the dialog (modal, prefilled with ``title`` and ``summary``) and return
        ``(title, summary)``, or None when cancelled."""
        dialog = NewCaseDialog(parent, refusal, title, summary)
        try:
            if dialog.exec() != QDialog.DialogCode.Accepted or not dialog.title().strip():
                return None
            return dialog.title().strip(), dialog.summary()
        finally:
            dialog.deleteLater()


def choice_label(choice: ItemChoice) -> str:
    """How an item is offered in the completer: ``"Scot Peterson (person)"``."""
    return f"{choice.title} ({choice.kind})"


def alias_label(alias: str, choice: ItemChoice) -> str:
    """How another name of an item is offered: ``"Tony Rivera (another name of Chief Anthony
    Rivera, person)"``."""
    return f"{alias} (another name of {choice.title}, {choice.kind})"


class LinkDialog(QDialog):
    """Pick an item of the case (a completer over titles and aliases) and a relation.

    After ``accepted``, :meth:`chosen_item` is the chosen item's id and :attr:`relation_box`
    holds the relation. OK is enabled only while the text names exactly one item.
    """

    def __init__(
        self, quote: str, choices: Sequence[ItemChoice], parent: QWidget | None = None,
        relation: str = "supports",
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Link as evidence")
        self._choices = list(choices)
        self._labels = {choice_label(c): c for c in self._choices}
        for c in self._choices:  # another name of an item says whose it is (not a second one)
            for alias in c.aliases:
                self._labels.setdefault(alias_label(alias, c), c)
        words = list(self._labels)
        self.quote_label = wrapped_label(quoted(quote, 240))
        self.item_edit = QLineEdit()
        self.item_edit.setPlaceholderText("Type a name: person, organization, question…")
        self.completer = QCompleter(QStringListModel(words, self), self)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.item_edit.setCompleter(self.completer)
        self.relation_box = QComboBox()
        self.relation_box.addItems(list(EVIDENCE_RELATIONS))
        self.relation_box.setCurrentText(relation)
        self.buttons = ok_cancel_buttons(self)
        self.problem = QLabel()
        self.problem.setTextFormat(Qt.TextFormat.PlainText)

        form = QFormLayout()
        form.addRow("Evidence for:", self.item_edit)
        form.addRow("Relation:", self.relation_box)
        layout = QVBoxLayout(self)
        layout.addWidget(self.quote_label)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.item_edit.textChanged.connect(self._on_text_changed)
        self._on_text_changed("")
        self.resize(480, self.sizeHint().height())

    def chosen_item(self) -> ItemChoice | None:
        """The item the text names: an exact completer entry, else a unique title or alias
        (case-insensitive), else None."""
        text = self.item_edit.text().strip()
        if not text:
            return None
        if text in self._labels:
            return self._labels[text]
        folded = text.casefold()
        hits = [c for c in self._choices
                if folded in {choice_label(c).casefold(), c.title.casefold()}
                or folded in {a.casefold() for a in c.aliases}
                or folded in {f"{a} ({c.kind})".casefold() for a in c.aliases}]
        return hits[0] if len(hits) == 1 else None

    @property
    def relation(self) -> str:
        """The chosen relation."""
        return self.relation_box.currentText()

    @Slot(str)
    def _on_text_changed(self, text: str) -> None:
        ok = self.chosen_item() is not None
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok)
        if not text.strip():
            self.problem.setText("")
        elif not ok:
            self.problem.setText("No single item of this case has that name.")
        else:
            self.problem.setText("")


class ComboDelegate(QStyledItemDelegate):
    """Edits a cell with a combo box of fixed choices (relation, status)."""

    def __init__(self, choices: Sequence[str], parent: Any = None) -> None:
        super().__init__(parent)
        self.choices = list(choices)

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,
                     index: QModelIndex | QPersistentModelIndex) -> QWidget:
        box = QComboBox(parent)
        box.addItems(self.choices)
        box.activated.connect(lambda _n, b=box: self.commitData.emit(b))
        return box

    def setEditorData(self, editor: QWidget,
                      index: QModelIndex | QPersistentModelIndex) -> None:
        assert isinstance(editor, QComboBox)
        editor.setCurrentText(str(index.data(Qt.ItemDataRole.EditRole) or ""))

    def setModelData(self, editor: QWidget, model: QAbstractItemModel,
                     index: QModelIndex | QPersistentModelIndex) -> None:
        assert isinstance(editor, QComboBox)
        model.setData(index, editor.currentText(), Qt.ItemDataRole.EditRole)


def confirm_quit(parent: QWidget, running: Sequence[str]) -> bool:
    """Ask before quitting while the jobs labelled ``running`` run: True when nothing runs, or
    the reporter chose to quit anyway (the jobs are then cancelled: what an import stored
    stays; the documents a suggestion run had not read yet get no suggestions until "Suggest
    again")."""
    if not running:
        return True
    box = QMessageBox(
        QMessageBox.Icon.Question, "Quit while a job runs?",
        "Still running:\n" + "\n".join(f"  • {label}" for label in running)
        + "\n\nQuit now and stop it? What is finished is kept; what is not done yet "
        "(e.g. suggestions for the documents not read yet) is not.", parent=parent)
    quit_button = box.addButton("Stop and quit", QMessageBox.ButtonRole.DestructiveRole)
    wait_button = box.addButton("Keep working", QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(wait_button)
    box.exec()
    return box.clickedButton() is quit_button


def ok_cancel_buttons(dialog: QDialog) -> QDialogButtonBox:
    """OK and Cancel for ``dialog``, accepting and rejecting it; the caller lays them out."""
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                               | QDialogButtonBox.StandardButton.Cancel)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    return buttons


def listing_table(headers: Sequence[str], rows: int = 0, *, name: str = "",
                  single: bool = False) -> QTableWidget:
    """A read-only table of ``rows`` rows under ``headers``, as the window's dialogs list
    things: no row numbers, whole rows selected (one at a time when ``single``); ``name`` is
    its object name (tests find it by it)."""
    table = QTableWidget(rows, len(headers))
    if name:
        table.setObjectName(name)
    table.setHorizontalHeaderLabels(list(headers))
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    if single:
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().setVisible(False)
    return table


class ListingDialog(QDialog):
    """Base of a dialog that lists rows to act on (the members of a case, the Trash, the
    backups): ``intro``, a word-wrapped sentence, over ``table``, a :func:`listing_table`
    selecting one row at a time, in the vertical layout ``body``, where a subclass adds its
    buttons below them."""

    def __init__(self, parent: QWidget | None, title: str, headers: Sequence[str], *,
                 name: str = "", rows: int = 0, intro: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.body = QVBoxLayout(self)
        self.intro = QLabel(intro)
        self.intro.setWordWrap(True)
        self.table = listing_table(headers, rows, name=name, single=True)
        self.body.addWidget(self.intro)
        self.body.addWidget(self.table)


def stack_with_close(dialog: QDialog, *widgets: QWidget) -> QVBoxLayout:
    """Lay ``widgets`` out in ``dialog`` one under the other, with a Close button (rejecting
    the dialog) below them; returns the layout."""
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    for widget in (*widgets, buttons):
        layout.addWidget(widget)
    return layout


DialogT = TypeVar("DialogT", bound=QDialog)


class DialogHolder(Generic[DialogT]):
    """A controller's one window-modal dialog: ``dialog`` is the dialog while it is open
    (None otherwise); :meth:`open_dialog` makes it the first time (``make()``, its signals
    connected there) and opens it; closing it lets it go."""

    def __init__(self) -> None:
        self.dialog: DialogT | None = None

    def open_dialog(self, make: Callable[[], DialogT],
                    fill: Callable[[DialogT], None]) -> DialogT:
        """Make the dialog unless it is open, ``fill`` it, open it (not blocking); returns it."""
        dialog = self.dialog
        if dialog is None:
            dialog = self.dialog = make()
            dialog.finished.connect(self._closed)
        fill(dialog)
        dialog.open()
        return dialog

    def _closed(self, _result: int) -> None:
        if self.dialog is not None:
            self.dialog.deleteLater()
            self.dialog = None


def open_warning(parent: QWidget, message: str, kept: list[QMessageBox]) -> QMessageBox:
    """Open a warning box saying ``message`` (window-modal, not blocking, deleted on close),
    kept in ``kept`` while it is open; returns the box."""
    box = QMessageBox(QMessageBox.Icon.Warning, "Casefile", message,
                      QMessageBox.StandardButton.Ok, parent)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.finished.connect(lambda _r, b=box: kept.remove(b) if b in kept else None)
    kept.append(box)
    box.open()
    return box
