"""The dialog shown when someone else saved an item while you were editing it.

It lists, for each field you changed, the value you started from, yours, and the one the other
writer saved (a :class:`~casefile.errors.ConflictError` carries them), and lets you choose:
"Keep theirs" (the default, also Esc / closing: your values are dropped, "Copy mine" puts them
on the clipboard first) or "Use mine" (your values are saved over theirs, as one undoable step).
Nothing is overwritten without that explicit choice.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtGui import (
    QColor,
    QFont,
    QGuiApplication,
    QPalette,
    QResizeEvent,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from casefile.errors import ConflictError, FieldConflict
from casefile.ui.editor import FIELD_SPECS, field_spec
from casefile.ui.widgets import wrapped_label

KEEP_THEIRS = "theirs"
USE_MINE = "mine"
EMPTY = "(empty)"
WIDTH = 780  # px on first show (less on a small screen)
MAX_TABLE_HEIGHT = 460  # px; a taller table scrolls

#: Column titles, left to right; "When you opened it" is left out when it is not known.
COLUMNS = ("Field", "When you opened it", "Yours", "Saved by the other writer")


def breakable(text: str, longest: int = 24) -> str:
    """``text`` with a zero-width space after every ``longest`` characters of a word, so a
    long URL or file name wraps in a table cell instead of running out of it."""
    def split(word: str) -> str:
        return "\u200b".join(word[i:i + longest] for i in range(0, len(word), longest))
    return re.sub(rf"\S{{{longest + 1},}}", lambda m: split(m.group(0)), text)


class _FitTable(QTableWidget):
    """A table whose preferred height is that of its rows (set by ``fit_height``)."""

    fit_height = 0

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(hint.width(), self.fit_height or hint.height())


def field_label(kind: str, name: str) -> str:
    """The label the editor shows for a field ("Role / title", "Affiliation"...)."""
    if name == "title" or f"{kind}.{name}" in FIELD_SPECS or name in FIELD_SPECS:
        return field_spec(kind, name)[0]
    return name.replace("_", " ").capitalize()


class ConflictDialog(QDialog):
    """Shows a ConflictError and asks which values to keep.

    After ``exec()``, ``choice`` is ``USE_MINE`` ("Use mine") or ``KEEP_THEIRS`` ("Keep
    theirs", Esc, or closing the window). ``table`` has one row per field you changed.
    """

    def __init__(self, conflict: ConflictError, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.conflict = conflict
        self.choice = KEEP_THEIRS
        kind = conflict.kind or "item"
        title = f"Someone else changed “{conflict.title}”"
        self.setWindowTitle(title)
        self.setObjectName("conflict_dialog")

        self.heading = wrapped_label(title)
        font = self.heading.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.heading.setFont(font)
        version = f" (now version {conflict.version})" if conflict.version is not None else ""
        self.explanation = QLabel(
            f"While you were editing this {kind}, someone else saved it{version}. "
            "Your changes below are not saved yet. Which values should it keep?")
        self.explanation.setTextFormat(Qt.TextFormat.PlainText)
        self.explanation.setWordWrap(True)

        fields = list(conflict.fields)
        with_base = bool(fields) and all(f.base_text is not None for f in fields)
        self.columns = [c for c in COLUMNS if with_base or c != "When you opened it"]
        self.table = _FitTable(len(fields), len(self.columns))
        self.table.setObjectName("conflict_table")
        self.table.setHorizontalHeaderLabels(self.columns)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.table.setWordWrap(True)
        self.table.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.table.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        for col in range(1, len(self.columns)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Stretch)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        for row, fc in enumerate(fields):
            self._fill_row(row, kind, fc)

        self.hint = QLabel(
            "Keep theirs drops your values (Copy mine puts them on the clipboard first). "
            "Use mine saves your values over theirs; Edit ▸ Undo brings theirs back.")
        self.hint.setTextFormat(Qt.TextFormat.PlainText)
        self.hint.setWordWrap(True)
        palette = self.hint.palette()
        palette.setColor(QPalette.ColorRole.WindowText,
                         palette.color(QPalette.ColorRole.PlaceholderText))
        self.hint.setPalette(palette)

        buttons = QDialogButtonBox()
        self.copy_button = QPushButton("Copy mine")
        self.copy_button.setToolTip("Put your values on the clipboard")
        self.copy_button.setAutoDefault(False)
        self.use_mine_button = QPushButton("Use mine")
        self.use_mine_button.setToolTip("Save your values over the ones the other writer saved")
        self.use_mine_button.setAutoDefault(False)
        self.keep_theirs_button = QPushButton("Keep theirs")
        self.keep_theirs_button.setToolTip("Show the saved values; yours are dropped")
        buttons.addButton(self.use_mine_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.keep_theirs_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.keep_theirs_button.setDefault(True)
        self.copy_button.clicked.connect(self.copy_mine)
        self.use_mine_button.clicked.connect(self._use_mine)
        self.keep_theirs_button.clicked.connect(self.reject)
        button_row = QHBoxLayout()
        button_row.addWidget(self.copy_button)
        button_row.addStretch(1)
        button_row.addWidget(buttons)

        self.table.setMinimumWidth(480)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.explanation)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.hint)
        layout.addLayout(button_row)
        self._layout = layout
        self._sized = False

    def _fill_row(self, row: int, kind: str, fc: FieldConflict) -> None:
        label = QTableWidgetItem(field_label(kind, fc.name))
        bold = QFont(label.font())
        bold.setBold(True)
        label.setFont(bold)
        self.table.setItem(row, 0, label)
        values = {"When you opened it": fc.base_text, "Yours": fc.yours_text,
                  "Saved by the other writer": fc.theirs_text}
        for col, name in enumerate(self.columns[1:], start=1):
            text = values[name] or ""
            cell = QTableWidgetItem(breakable(text) or EMPTY)
            cell.setToolTip(text)
            cell.setTextAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
            if not text:
                italic = QFont(cell.font())
                italic.setItalic(True)
                cell.setFont(italic)
                cell.setForeground(QColor("#6e7781"))
            elif name == "When you opened it":
                cell.setForeground(QColor("#57606a"))
            self.table.setItem(row, col, cell)
        label.setTextAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)

    # -- rows fit their wrapped text --------------------------------------------------------

    def _fit_rows(self) -> None:
        """Rows as tall as their wrapped text; the table asks for room for all of them (up to
        ``MAX_TABLE_HEIGHT``, then it scrolls)."""
        self.table.resizeRowsToContents()
        rows = sum(self.table.rowHeight(r) for r in range(self.table.rowCount()))
        wanted = (self.table.horizontalHeader().height() + rows
                  + 2 * self.table.frameWidth())
        self.table.setMinimumHeight(min(wanted, MAX_TABLE_HEIGHT))
        if self.table.fit_height != wanted:
            self.table.fit_height = wanted
            self.table.updateGeometry()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._sized:  # first show: wide enough for four columns, tall enough for all
            self._sized = True
            screen = self.screen().availableGeometry()
            self.resize(min(max(self.width(), WIDTH), int(screen.width() * 0.9)), self.height())
            self._fit_height()
            QTimer.singleShot(0, self._fit_height)  # again once the window has settled
        self.keep_theirs_button.setFocus()

    def _fit_height(self) -> None:
        """As tall as the content at the current width (wrapped labels and rows), within the
        screen."""
        self._fit_rows()
        layout = self._layout
        height = (layout.totalHeightForWidth(self.width()) if layout.hasHeightForWidth()
                  else self.sizeHint().height())
        self.resize(self.width(), min(height, int(self.screen().availableGeometry().height()
                                                  * 0.9)))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_rows()

    # -- choices ----------------------------------------------------------------------------

    def mine_as_text(self) -> str:
        """Your values, one "Field: value" line each (what "Copy mine" puts on the clipboard)."""
        kind = self.conflict.kind or "item"
        return "\n".join(f"{field_label(kind, f.name)}: {f.yours_text}"
                         for f in self.conflict.fields)

    def copy_mine(self) -> None:
        """Put your values on the clipboard (the dialog stays open)."""
        QGuiApplication.clipboard().setText(self.mine_as_text())
        self.copy_button.setText("Copied")

    def _use_mine(self) -> None:
        self.choice = USE_MINE
        self.accept()

    def reject(self) -> None:
        self.choice = KEEP_THEIRS
        super().reject()

    @classmethod
    def ask(cls, conflict: ConflictError, parent: QWidget | None = None) -> str:
        """Show the dialog (window-modal) and return ``USE_MINE`` or ``KEEP_THEIRS``."""
        dialog = cls(conflict, parent)
        try:
            dialog.exec()
            return dialog.choice
        finally:
            dialog.deleteLater()
