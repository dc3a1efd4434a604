"""The Help menu: Keyboard shortcuts (a table generated from the window's actions, so it
cannot go stale), Getting started (a short page inside the app) and About."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QHeaderView,
    QMainWindow,
    QMenu,
    QMessageBox,
    QTableWidgetItem,
    QTextBrowser,
    QWidget,
)

from casefile.ui.dialogs import listing_table, stack_with_close
from casefile.ui.resource_files import resource_text


def _plain(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip(".…").strip()


def _where(action: QAction, window: QMainWindow) -> str:
    for menu in window.menuBar().findChildren(QMenu):
        if action in menu.actions() and menu.title():
            return _plain(menu.title()) + " menu"
    owner = action.parent()
    if owner is window or owner is None:
        return "Window"
    name = re.sub(r"(?<!^)(?=[A-Z])", " ", type(owner).__name__)
    return name[:1].upper() + name[1:].lower()


def shortcut_rows(window: QMainWindow) -> list[tuple[str, str, str]]:
    """``(action, keys, where)`` for every action of the window and its panels that has a
    shortcut (keys in the platform's text, ", " between several), sorted by where, then
    action; an action built once per document viewer is listed once."""
    rows: set[tuple[str, str, str]] = set()
    for action in window.findChildren(QAction):
        keys = [s.toString(QKeySequence.SequenceFormat.NativeText) for s in action.shortcuts()
                if not s.isEmpty()]
        if keys and action.text():
            rows.add((_plain(action.text()), ", ".join(keys), _where(action, window)))
    return sorted(rows, key=lambda r: (r[2] != "Window" and not r[2].endswith("menu"),
                                       r[2], r[0]))


class ShortcutsDialog(QDialog):
    """Help ▸ Keyboard shortcuts: every shortcut of the window in a table (``table``)."""

    def __init__(self, window: QMainWindow, parent: QWidget | None = None) -> None:
        super().__init__(parent or window)
        self.setWindowTitle("Keyboard shortcuts")
        rows = shortcut_rows(window)
        self.table = listing_table(("Action", "Keys", "Where"), len(rows), name="shortcuts_table")
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                self.table.setItem(r, c, QTableWidgetItem(text))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in (1, 2):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        stack_with_close(self, self.table)
        self.resize(560, 480)


def getting_started_html() -> str:
    """The Getting started page (resources/getting-started.html)."""
    return resource_text("getting-started.html")


class GettingStartedDialog(QDialog):
    """Help ▸ Getting started: import, suggestions, evidence, follow-ups, the brief."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Getting started")
        self.browser = QTextBrowser()
        self.browser.setObjectName("getting_started")
        self.browser.setHtml(getting_started_html())
        self.browser.setOpenLinks(False)
        stack_with_close(self, self.browser)
        self.resize(560, 520)


class HelpMenu:
    """Fills the window's Help menu; ``dialog`` is the help dialog open now (tests read it)."""

    def __init__(self, window: QMainWindow, menu: QMenu) -> None:
        self.window = window
        self.dialog: QDialog | None = None
        self.shortcuts_action = menu.addAction("&Keyboard shortcuts", self.show_shortcuts)
        self.shortcuts_action.setShortcut(QKeySequence("Ctrl+/"))
        window.addAction(self.shortcuts_action)
        self.getting_started_action = menu.addAction("&Getting started",
                                                     self.show_getting_started)
        self.getting_started_action.setShortcut(QKeySequence.StandardKey.HelpContents)
        window.addAction(self.getting_started_action)
        menu.addSeparator()
        menu.addAction("&About Casefile", self.show_about)

    def _open(self, dialog: QDialog) -> QDialog:
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.finished.connect(lambda _r: setattr(self, "dialog", None)
                                if self.dialog is dialog else None)
        self.dialog = dialog
        dialog.show()
        return dialog

    def show_shortcuts(self) -> QDialog:
        """Help ▸ Keyboard shortcuts (non-modal)."""
        return self._open(ShortcutsDialog(self.window))

    def show_getting_started(self) -> QDialog:
        """Help ▸ Getting started (non-modal)."""
        return self._open(GettingStartedDialog(self.window))

    def show_about(self) -> None:
        """Help ▸ About Casefile."""
        QMessageBox.about(self.window, "About Casefile",
                          "Casefile — an offline case-file organizer for reporters.")
