"""Actions shared by the window's menus and toolbar, and finding the menu bar's menus that
controllers add their actions to."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QAction, QKeySequence, QUndoStack
from PySide6.QtWidgets import QMenu, QMenuBar, QWidget


def undo_redo_actions(parent: QWidget, stack: QUndoStack, undo: Callable[[], None],
                      redo: Callable[[], None]) -> tuple[QAction, QAction]:
    """Edit ▸ Undo (Ctrl+Z) and Redo (Ctrl+Shift+Z, Ctrl+Y) over ``stack``: enabled when there
    is something to undo / redo, named after it ("Undo Delete “Ann”"); they call ``undo`` and
    ``redo`` (which save pending edits first)."""
    undo_action = QAction("&Undo", parent)
    undo_action.setShortcuts([QKeySequence("Ctrl+Z")])
    undo_action.triggered.connect(undo)
    redo_action = QAction("&Redo", parent)
    redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
    redo_action.triggered.connect(redo)
    stack.canUndoChanged.connect(undo_action.setEnabled)
    stack.canRedoChanged.connect(redo_action.setEnabled)
    stack.undoTextChanged.connect(lambda t: undo_action.setText(f"&Undo {t}" if t else "&Undo"))
    stack.redoTextChanged.connect(lambda t: redo_action.setText(f"&Redo {t}" if t else "&Redo"))
    undo_action.setEnabled(stack.canUndo())
    redo_action.setEnabled(stack.canRedo())
    return undo_action, redo_action


def menu_named(bar: QMenuBar, name: str) -> QMenu | None:
    """The menu of ``bar`` titled ``name`` ("Edit": the ``&`` of its mnemonic left out), or
    None when there is none."""
    for entry in bar.actions():
        menu = entry.menu()
        if isinstance(menu, QMenu) and entry.text().replace("&", "") == name:
            return menu
    return None


def menu_holding(bar: QMenuBar, action: QAction) -> QMenu | None:
    """The menu of ``bar`` that holds ``action``, or None."""
    return next((m for entry in bar.actions()
                 if isinstance(m := entry.menu(), QMenu) and action in m.actions()), None)


def insert_after(menu: QMenu, anchor: QAction, action: QAction) -> None:
    """Put ``action`` in ``menu`` right after ``anchor``; at the end when ``anchor`` is the
    last entry or not in the menu."""
    entries = menu.actions()
    after = entries.index(anchor) + 1 if anchor in entries else len(entries)
    if after < len(entries):
        menu.insertAction(entries[after], action)
    else:
        menu.addAction(action)

