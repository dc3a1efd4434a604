"""How the window's row tables look: whole rows selected, alternating colours, one line per row
of a fixed height (never ``resizeRowsToContents`` on a large table: ARCHITECTURE.md, "The
window"), no row numbers."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView


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
