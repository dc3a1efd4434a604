"""The window's saved state in QSettings: geometry, dock layout, splitter sizes."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import QMainWindow, QSplitter

DEFAULT_SIZE = (1280, 800)


def restore_window_state(window: QMainWindow, settings: QSettings,
                         splitters: Sequence[QSplitter]) -> None:
    """Restore what :func:`save_window_state` stored (a first run gets the default size)."""
    geometry = settings.value("window/geometry")
    if isinstance(geometry, QByteArray) and not geometry.isEmpty():
        window.restoreGeometry(geometry)
    else:
        window.resize(*DEFAULT_SIZE)
    state = settings.value("window/state")
    if isinstance(state, QByteArray) and not state.isEmpty():
        window.restoreState(state)
    for splitter in splitters:
        sizes = settings.value(f"window/{splitter.objectName()}")
        if isinstance(sizes, QByteArray) and not sizes.isEmpty():
            splitter.restoreState(sizes)


def save_window_state(window: QMainWindow, settings: QSettings,
                      splitters: Sequence[QSplitter]) -> None:
    """Store the window's geometry, dock layout and the splitters' sizes."""
    settings.setValue("window/geometry", window.saveGeometry())
    settings.setValue("window/state", window.saveState())
    for splitter in splitters:
        settings.setValue(f"window/{splitter.objectName()}", splitter.saveState())
