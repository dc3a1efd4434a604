"""How the window's row tables look: whole rows selected, alternating colours, one line per row
of a fixed height (never ``resizeRowsToContents`` on a large table: ARCHITECTURE.md, "The
window"), no row numbers; and a table over the details of its current row."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHeaderView,
    QScrollArea,
    QSplitter,
    QTableView,
    QWidget,
)


def set_up_row_table(
    table: QTableView, selection: QAbstractItemView.SelectionMode, *,
    edit_triggers: QAbstractItemView.EditTrigger = QAbstractItemView.EditTrigger.NoEditTriggers,
) -> None:
    """Give ``table`` the look of the window's row tables, with ``selection`` (single or
    extended) and ``edit_triggers`` (none unless a column is edited in place)."""
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(selection)
    table.setEditTriggers(edit_triggers)
    table.setAlternatingRowColors(True)
    table.setWordWrap(False)
    rows = table.verticalHeader()
    rows.setVisible(False)
    rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    rows.setDefaultSectionSize(table.fontMetrics().height() + 10)


def table_over_details(table: QTableView, details: QWidget, stretch: tuple[int, int],
                       sizes: tuple[int, int]) -> QSplitter:
    """A vertical splitter of ``table`` over ``details`` (in a frameless scroll area), neither
    collapsible, sharing its height by ``stretch`` and starting at ``sizes`` pixels."""
    scroll = QScrollArea()
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QFrame.Shape.NoFrame)
    scroll.setWidget(details)
    splitter = QSplitter(Qt.Orientation.Vertical)
    splitter.addWidget(table)
    splitter.addWidget(scroll)
    splitter.setChildrenCollapsible(False)
    for index, factor in enumerate(stretch):
        splitter.setStretchFactor(index, factor)
    splitter.setSizes(list(sizes))
    return splitter
