"""A canary for the installed PySide6: Qt calls that return nothing must not lose references to
``None``.

PySide6-Essentials 6.12.0 on Python 3.11 takes one reference off ``None`` on every such call
(``setText``, ``setEnabled``, …); ``None`` is not immortal before Python 3.12, so after a few
thousand calls of a working day the window dies with "Fatal Python error: none_dealloc".
pyproject.toml keeps that release out; this test catches the next release with the fault
before a reporter does. It makes 10,000 typical calls in batches and stops at the first batch
that shows a loss, so on a broken release it fails with a message instead of taking the test
process down.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable

import PySide6
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QAction, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QMainWindow,
    QProgressBar,
    QPushButton,
    QTableView,
    QTabWidget,
    QTreeView,
)

#: How many Qt calls the canary makes.
CALLS = 10_000
#: Calls between two counts of ``None``'s references.
BATCH = 250
#: References to ``None`` that may come and go for other reasons (caches, the test's own
#: objects); a release with the fault loses one per call, i.e. a whole batch at the first count.
TOLERANCE = 50

_Index = QModelIndex | QPersistentModelIndex


class _Table(QAbstractTableModel):
    """Three rows of two cells, reset as the window's table models are."""

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else 3

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else 2

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        return f"{index.row()}:{index.column()}" if role == Qt.ItemDataRole.DisplayRole else None

    def reset(self) -> None:
        """A model reset (two calls that return nothing)."""
        self.beginResetModel()
        self.endResetModel()


def _typical_calls(window: QMainWindow, keep: list[QObject]) -> list[Callable[[], object]]:
    """The calls of the loop: each one Qt call (or two) returning nothing, on widgets of the
    kinds the window uses — labels, buttons, line edits, actions, tabs, combo boxes, table and
    tree views over a table model and a standard item model, list items, the status bar."""
    label, button, edit = QLabel(), QPushButton("Accept"), QLineEdit()
    action, progress = QAction("Undo", window), QProgressBar()
    table_model, table = _Table(window), QTableView()
    table.setModel(table_model)
    items = QStandardItemModel(window)
    item = QStandardItem("People (3)")
    item.appendRow(QStandardItem("Ana Ortiz"))
    items.appendRow(item)
    tree = QTreeView()
    tree.setModel(items)
    listing = QListWidget()
    listing.addItem("Documents (1)")
    row = listing.item(0)
    combo = QComboBox()
    combo.addItems(["Harbor crash", "Parkland"])
    tabs = QTabWidget()
    for widget, title in ((table, "Table"), (tree, "Tree"), (label, "Label"), (button, "Button"),
                          (edit, "Edit"), (listing, "List"), (combo, "Combo"),
                          (progress, "Progress")):
        tabs.addTab(widget, title)
    window.setCentralWidget(tabs)
    keep += [action, table_model, items, tabs]
    return [
        lambda: label.setText("People (4)"),
        lambda: button.setEnabled(False),
        lambda: button.setToolTip("Accept the suggestion (A)"),
        lambda: edit.setText("deputies"),
        lambda: action.setEnabled(True),
        lambda: action.setText("Undo accept"),
        table_model.reset,
        lambda: table.selectRow(1),
        lambda: table.viewport().update(),
        lambda: table.resizeColumnsToContents(),
        lambda: item.setText("People (4)"),
        lambda: tree.expandAll(),
        lambda: tree.setCurrentIndex(items.index(0, 0)),
        lambda: row.setText("Documents (2)"),
        lambda: combo.setCurrentIndex(1),
        lambda: tabs.setCurrentIndex(1 - tabs.currentIndex()),  # Table, Tree, Table…
        lambda: progress.setValue(40),
        lambda: window.statusBar().showMessage("Accepted Ana Ortiz.", 8000),
        lambda: window.setWindowTitle("Harbor crash — Casefile"),
        lambda: window.update(),
    ]


def test_qt_calls_that_return_nothing_keep_their_reference_to_none(qtbot) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    keep: list[QObject] = []
    calls = _typical_calls(window, keep)
    window.show()
    for call in calls:  # warm up: first-call caches, lazily made Python wrappers
        call()
    made = 0
    gc.collect()
    start = sys.getrefcount(None)
    while made < CALLS:
        for _ in range(BATCH // len(calls) + 1):
            for call in calls:
                call()
                made += 1
        lost = start - sys.getrefcount(None)
        if lost > TOLERANCE:  # collected garbage first (a collection costs seconds late in a run)
            gc.collect()
            lost = start - sys.getrefcount(None)
        assert lost <= TOLERANCE, (
            f"PySide6 {PySide6.__version__} lost {lost} references to None in {made} Qt calls "
            "that return nothing: a long session would end in 'Fatal Python error: "
            "none_dealloc'. Keep this release out in pyproject.toml.")
    assert made >= CALLS
