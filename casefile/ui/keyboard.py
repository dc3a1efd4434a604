"""Keyboard access to the window: application-wide shortcuts that work from any focus, tab
switching (Ctrl+Tab / Ctrl+Shift+Tab, Ctrl+PgDn / Ctrl+PgUp), and the focus outline style.

Why Ctrl+E did nothing in a text field: on X11 Qt's key bindings make Ctrl+E "end of line",
Ctrl+U "delete line" and Ctrl+K "delete to end of line" in a QLineEdit, so the line edit
accepts the ShortcutOverride event and the window's QAction never sees the key.
:class:`GlobalShortcuts` answers that event first for the window's global keys, so the
action runs whatever has the focus.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QTabWidget, QWidget

from casefile.ui.resource_files import resource_text


def stylesheet() -> str:
    """The window's style sheet (resources/casefile.qss: the focus outline); "" if missing."""
    try:
        return resource_text("casefile.qss")
    except FileNotFoundError:
        return ""


def key_of(event: QKeyEvent) -> QKeySequence:
    """The key combination of a key event as a sequence (Shift+Backtab read as Shift+Tab)."""
    key = event.key()
    if key == Qt.Key.Key_Backtab:
        key = Qt.Key.Key_Tab
    return QKeySequence(event.modifiers().value | key)


class GlobalShortcuts(QObject):
    """An application event filter that keeps text fields and views from taking the keys of
    ``actions`` (their shortcuts work from any focus inside ``window``)."""

    def __init__(self, window: QWidget, actions: Iterable[QAction]) -> None:
        super().__init__(window)
        self.window = window
        self.actions = list(actions)
        for action in self.actions:
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)

    def add(self, action: QAction) -> None:
        """One more global action."""
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.actions.append(action)

    def keys(self) -> set[str]:
        """The global key sequences, portable text ("Ctrl+E")."""
        return {s.toString() for a in self.actions for s in a.shortcuts() if not s.isEmpty()}

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.ShortcutOverride or not isinstance(event, QKeyEvent):
            return False
        if not isinstance(watched, QWidget) or watched.window() is not self.window:
            return False
        if key_of(event).toString() in self.keys():
            event.ignore()  # not the text field's: let the window's shortcut run
            return True
        return False


def install_tab_switching(window: QWidget, tabs: QTabWidget) -> tuple[QAction, QAction]:
    """Next tab (Ctrl+Tab, Ctrl+PgDn) and previous tab (Ctrl+Shift+Tab, Ctrl+PgUp) over
    ``tabs``, wrapping around; returns the two actions (added to ``window``)."""

    def step(by: int) -> None:
        if tabs.count():
            tabs.setCurrentIndex((tabs.currentIndex() + by) % tabs.count())

    following = QAction("&Next tab", window)
    following.setShortcuts([QKeySequence("Ctrl+Tab"), QKeySequence("Ctrl+PgDown")])
    following.triggered.connect(lambda: step(1))
    previous = QAction("&Previous tab", window)
    previous.setShortcuts([QKeySequence("Ctrl+Shift+Tab"), QKeySequence("Ctrl+PgUp")])
    previous.triggered.connect(lambda: step(-1))
    for action in (following, previous):
        window.addAction(action)
    return following, previous
