"""The watch list in the window (ARCHITECTURE.md, "The watch list").

Case ▸ Watch list… (Ctrl+Shift+W) opens a window of its own: the names watched in the case
(its own and the workspace's) with buttons to add names, load them from a file (CSV, XLSX or
FollowTheMoney), take the case's people and organizations, or remove them (each one undoable
step on the window's undo stack), and the hits table (name, the words as found, document,
passage); activating a hit opens the document at those words.

After an import (``MainWindow.record_import``) the window says "N new documents mention names
on your watch list" and opens the list on the hits, when there are any. The check itself is
part of the import, in the services; this module only reads what it stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from casefile.services import watch_files, watch_list
from casefile.ui.dialogs import ok_cancel_buttons
from casefile.ui.undo import ActionCommand
from casefile.ui.widgets import row_at_left

if TYPE_CHECKING:
    from casefile.ui.shell import WindowShell

#: The window's shortcut for Case ▸ Watch list….
SHORTCUT = "Ctrl+Shift+W"
FILE_FILTER = ("Names (*.csv *.xlsx *.json *.jsonl *.ftm *.ijson *.ndjson);;"
               "Spreadsheets (*.csv *.xlsx);;FollowTheMoney (*.json *.jsonl *.ftm *.ijson)")


def _table(headers: Sequence[str], name: str) -> QTableWidget:
    table = QTableWidget(0, len(headers))
    table.setObjectName(name)
    table.setHorizontalHeaderLabels(list(headers))
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().setVisible(False)
    table.verticalHeader().setDefaultSectionSize(24)
    table.setWordWrap(False)
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    header.setStretchLastSection(True)
    return table


def _cell(text: str, data: Any = None, tip: str = "") -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    if data is not None:
        item.setData(Qt.ItemDataRole.UserRole, data)
    if tip:
        item.setToolTip(tip)
    return item


class AddNamesDialog(QDialog):
    """Names to watch, one a line; their kind; this case or every case."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setWindowTitle("Watch names")
        self.text = QPlainTextEdit()
        self.text.setPlaceholderText("One name a line, e.g.\nJane Q. Example\nExample Holdings Ltd")
        self.kind = QComboBox()
        for label, value in (("Guess from the name", "name"), ("People", "person"),
                             ("Organizations", "organization")):
            self.kind.addItem(label, value)
        self.everywhere = QCheckBox("Watch in every case of the workspace")
        buttons = ok_cancel_buttons(self)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Names to watch (variants such as “Last, First”, initials, "
                                "titles and other scripts are found too):"))
        layout.addWidget(self.text)
        row = QHBoxLayout()
        row.addWidget(QLabel("These are:"))
        row.addWidget(self.kind, 1)
        layout.addLayout(row)
        layout.addWidget(self.everywhere)
        layout.addWidget(buttons)

    def names(self) -> list[str]:
        """The names typed, one a line."""
        return [line.strip() for line in self.text.toPlainText().splitlines() if line.strip()]


class WatchListDialog(QDialog):
    """The names and the hits of the open case (module docstring). ``banner`` says what the
    last import found; ``names`` and ``hits`` are the two tables."""

    def __init__(self, controller: WatchListController, parent: QWidget) -> None:
        super().__init__(parent)
        self.controller = controller
        self.setObjectName("watch_list_dialog")
        self.setWindowTitle("Watch list")
        self.resize(900, 560)
        self.banner = QLabel()
        self.banner.setObjectName("watch_banner")
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet("font-weight: bold; padding: 4px;")
        self.names = _table(("Name", "Other spellings", "Kind", "Watched in", "Documents"),
                            "watch_names")
        self.names.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.hits = _table(("Name", "Variant found", "Document", "Passage"), "watch_hits")
        self.hits.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.hits.activated.connect(self._open_hit)
        self.hits.doubleClicked.connect(self._open_hit)
        self.hits_label = QLabel()
        self.add_button = QPushButton("&Add names…")
        self.load_button = QPushButton("&Load from file…")
        self.case_button = QPushButton("Watch the case's &people and organizations")
        self.remove_button = QPushButton("&Remove")
        self.add_button.clicked.connect(controller.prompt_add)
        self.load_button.clicked.connect(controller.prompt_load)
        self.case_button.clicked.connect(controller.add_from_case)
        self.remove_button.clicked.connect(self._remove_selected)
        buttons = row_at_left(self.add_button, self.load_button, self.case_button,
                              self.remove_button)
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(QLabel("Names watched"))
        top_layout.addWidget(self.names)
        top_layout.addLayout(buttons)
        bottom = QWidget()
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        bottom_layout.addWidget(self.hits_label)
        bottom_layout.addWidget(self.hits)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(top)
        split.addWidget(bottom)
        split.setSizes([200, 300])
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(split, 1)
        layout.addWidget(close)
        self.banner.hide()

    def show_list(self, names: Sequence[watch_list.WatchedName],
                  hits: Sequence[watch_list.Hit], new: set[int]) -> None:
        """Fill both tables; hits of the documents ``new`` (just imported) first."""
        self.names.setRowCount(len(names))
        for row, n in enumerate(names):
            self.names.setItem(row, 0, _cell(n.name, n.id))
            self.names.setItem(row, 1, _cell("; ".join(n.aliases)))
            self.names.setItem(row, 2, _cell(n.kind))
            self.names.setItem(row, 3, _cell("every case" if n.case_id is None
                                             else "this case", tip=f"from {n.source}"))
            self.names.setItem(row, 4, _cell(str(n.documents)))
        ordered = sorted(hits, key=lambda h: (h.document_id not in new, -h.document_id, h.name))
        self.hits.setRowCount(len(ordered))
        for row, h in enumerate(ordered):
            cells = [_cell(h.name, (h.document_id, h.start, h.end)),
                     _cell(h.variant, tip=f"{h.count} time{'s' if h.count != 1 else ''} in "
                                          "the document"),
                     _cell(h.document), _cell(h.passage, tip=h.passage)]
            for column, item in enumerate(cells):
                if h.document_id in new:  # just imported
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                self.hits.setItem(row, column, item)
        docs = len({h.document_id for h in hits})
        self.hits_label.setText(f"Documents that mention them: {docs} (activate a row to open "
                                "the passage)" if hits else "No document mentions them yet.")
        self.names.resizeColumnsToContents()
        for table, widths in ((self.hits, (180, 180, 220)),):
            for column, width in enumerate(widths):
                table.setColumnWidth(column, width)

    def hit_at(self, row: int) -> tuple[int, int, int]:
        """``(document id, start, end)`` of the hit in ``row``."""
        item = self.hits.item(row, 0)
        assert item is not None
        doc, start, end = item.data(Qt.ItemDataRole.UserRole)
        return int(doc), int(start), int(end)

    def _open_hit(self, index: Any) -> None:
        self.controller.open_hit(*self.hit_at(index.row()))

    def _remove_selected(self) -> None:
        rows = sorted({i.row() for i in self.names.selectedIndexes()})
        ids = [int(item.data(Qt.ItemDataRole.UserRole)) for r in rows
               if (item := self.names.item(r, 0)) is not None]
        if ids:
            self.controller.remove(ids)


class WatchListController(QObject):
    """Case ▸ Watch list… of ``window``:
    ``action``, the dialog (made when first shown) and the actions on the list."""

    def __init__(self, window: WindowShell, menu: QMenu) -> None:
        super().__init__(window.qt_window())
        self.window = window
        self.dialog: WatchListDialog | None = None
        self.action = QAction("&Watch list…", window.qt_window())
        self.action.setShortcut(QKeySequence(SHORTCUT))
        self.action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.action.triggered.connect(lambda: self.show())
        menu.addSeparator()
        menu.addAction(self.action)
        window.addAction(self.action)
        self._new: set[int] = set()
        window.runner.case_changed.connect(self._on_change)

    # -- showing ------------------------------------------------------------------------------

    def show(self, banner: str = "") -> WatchListDialog | None:
        """Open the list of the open case (with ``banner`` on top); None without a case."""
        case_id = self.window.case_id
        if case_id is None:
            self.window.notify("Open a case to see its watch list", 5000)
            return None
        if self.dialog is None:
            self.dialog = WatchListDialog(self, self.window.qt_window())
        self.dialog.banner.setText(banner)
        self.dialog.banner.setVisible(bool(banner))
        self.reload()
        self.dialog.show()
        self.dialog.raise_()
        return self.dialog

    def reload(self) -> None:
        """Read the names and hits again into the dialog (when it exists)."""
        case_id = self.window.case_id
        if self.dialog is None or case_id is None:
            return
        names, hits = self.window.runner.read(
            lambda s: (watch_list.list_names(s, case_id), watch_list.case_hits(s, case_id)))
        self.dialog.show_list(names, hits, self._new)

    def _on_change(self, ch: Any) -> None:
        if self.dialog is not None and self.dialog.isVisible() and (
                ch.watch or ch.cases or ch.documents or ch.structural):
            self.reload()

    def after_import(self, case_id: int, document_ids: Sequence[int]) -> int:
        """Say how many of the documents just imported mention watched names, and open the
        list on their hits when any do; returns that number."""
        if not document_ids or case_id != self.window.case_id:
            return 0
        hits = self.window.runner.read(lambda s: watch_list.case_hits(s, case_id, document_ids))
        docs = {h.document_id for h in hits}
        if not docs:
            return 0
        n = len(docs)
        said = (f"{n} new document{'s' if n != 1 else ''} mention{'s' if n == 1 else ''} "
                "names on your watch list")
        self._new = docs
        self.window.notify(said, 15000)
        self.show(banner=said + ": " + ", ".join(sorted({h.name for h in hits})[:6]))
        return n

    def open_hit(self, document_id: int, start: int, end: int) -> None:
        """Open the document at the words found. The list steps aside (it would stay in front
        of the document it opened); the status bar says how to bring it back."""
        self.window.open_passage(document_id, start, end)
        if self.dialog is not None and self.dialog.isVisible():
            self.dialog.hide()
            keys = self.action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            self.window.notify("Case ▸ Watch list… " + (f"({keys}) " if keys else "")
                               + "shows the other hits again", 8000)

    # -- changing the list --------------------------------------------------------------------

    def _push(self, text: str, action: Any) -> bool:
        case_id = self.window.case_id
        assert case_id is not None
        command = ActionCommand(self.window.runner, case_id, text, action)
        self.window.undo_stack.push(command)
        if command.changes is not None:
            said = command.changes.message
            self.window.notify(said, 8000)
            if self.dialog is not None and self.dialog.isVisible() and said:
                self.dialog.banner.setText(said)  # the status bar is behind the list
                self.dialog.banner.setVisible(True)
        return not command.failed

    def add_names(self, names: Sequence[str | watch_list.WatchEntry], kind: str = "name",
                  everywhere: bool = False, source: str = "typed") -> bool:
        """Watch ``names`` (in this case, or in every case) as one undoable step; True when
        it ran."""
        case_id = self.window.case_id
        if case_id is None or not names:
            return False
        entries = [n if isinstance(n, watch_list.WatchEntry) else
                   watch_list.WatchEntry(n, (), kind) for n in names]
        scope = None if everywhere else case_id
        what = f"“{entries[0].name}”" if len(entries) == 1 else f"{len(entries)} names"
        return self._push(f"Watch {what}", lambda s: watch_list.add_names(
            s, entries, scope, source=source))

    def prompt_add(self) -> None:
        """Ask for names (:class:`AddNamesDialog`) and watch them."""
        dialog = AddNamesDialog(self.dialog or self.window.qt_window())
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.add_names(dialog.names(), dialog.kind.currentData(),
                           dialog.everywhere.isChecked())

    def prompt_load(self) -> None:
        """Ask for a file of names and watch them in this case."""
        path, _ = QFileDialog.getOpenFileName(self.dialog or self.window.qt_window(),
                                              "Load names to watch", "", FILE_FILTER)
        if path:
            self.load_file(Path(path))

    def load_file(self, path: Path, everywhere: bool = False) -> bool:
        """Watch the names of a CSV, XLSX or FollowTheMoney file; a file that cannot be read
        is said in one line."""
        from casefile.errors import CasefileError

        try:
            entries = watch_files.read_names_file(path)
        except CasefileError as exc:
            self.window.report_error(str(exc), self.dialog)
            return False
        return self.add_names(entries, everywhere=everywhere, source=path.name)

    def add_from_case(self) -> bool:
        """Watch the case's people and organizations."""
        case_id = self.window.case_id
        if case_id is None:
            return False
        entries = self.window.runner.read(lambda s: watch_list.names_from_case(s, case_id))
        if not entries:
            self.window.notify("The case has no people or organizations yet", 5000)
            return False
        return self.add_names(entries, source="case")

    def remove(self, ids: Sequence[int]) -> bool:
        """Stop watching the names ``ids`` (their hits go with them) as one undoable step."""
        n = len(ids)
        return self._push(f"Stop watching {n} name{'s' if n != 1 else ''}",
                          lambda s: watch_list.remove_names(s, list(ids)))


def install_watch_list(window: WindowShell, menu: QMenu) -> WatchListController:
    """Add Case ▸ Watch list… to ``window``; returns the controller."""
    return WatchListController(window, menu)
