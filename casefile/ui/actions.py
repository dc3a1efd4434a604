"""Actions shared by the window's menus and toolbar."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QAction, QKeySequence, QUndoStack
from PySide6.QtWidgets import QWidget


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
