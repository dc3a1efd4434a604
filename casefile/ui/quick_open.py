"""Quick open (Ctrl+K): a popup with a line edit and a list over the
case's items (by part of the name) and documents (by words of their text), updated as you type.

Enter (or a double-click) opens the chosen hit: an item is selected in its section; a document
opens in the viewer, with the first matched word selected when it was found by its text. Up and
Down move in the list without leaving the line edit; Escape closes the popup. Ctrl+F is not
quick open: it focuses the section filter, or the find bar on a document tab.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, Slot
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
)

from casefile.errors import CasefileError
from casefile.services.quick_open import QuickHit, quick_open
from casefile.ui.actions import insert_after, menu_holding
from casefile.ui.models import SECTION_TITLES
from casefile.ui.widgets import debounce_timer

if TYPE_CHECKING:  # the window as Quick open sees it: as the Search panel does
    from casefile.ui.search_panel import SearchWindow as QuickOpenWindow

HIT_ROLE = Qt.ItemDataRole.UserRole + 1
_KIND_LABELS = {
    "person": "Person", "organization": "Organization", "place": "Place",
    "document": "Document", "event": "Event", "claim": "Claim", "question": "Question",
}


def _elide(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def snippet_around(hit: QuickHit, width: int = 90) -> str:
    """A one-line part of the hit's snippet of about ``width`` characters, the match in it."""
    text = hit.snippet.strip("… ")
    at = text.casefold().find(hit.match.casefold()) if hit.match else -1
    if len(text) <= width:
        return text
    start = max(0, min(at - width // 3, len(text) - width)) if at >= 0 else 0
    part = text[start:start + width]
    return ("…" if start else "") + part.strip() + ("…" if start + width < len(text) else "")


def hit_label(hit: QuickHit) -> str:
    """How a hit is listed: its title and kind; a text hit adds a line of its snippet."""
    kind = _KIND_LABELS.get(hit.kind, hit.kind)
    title = _elide(hit.title, 72)
    if hit.source == "text":
        return f"{title}   ·  {kind}, found in the text\n      {snippet_around(hit)}"
    return f"{title}   ·  {kind}"


class QuickOpenDialog(QDialog):
    """The popup. ``hits()`` are the listed results; :meth:`open_current` opens the selected
    one through the window."""

    def __init__(self, window: QuickOpenWindow) -> None:
        super().__init__(window.qt_window())
        self.window_ = window
        self.setObjectName("quick_open")
        self.setWindowTitle("Quick open")
        self.setWindowFlag(Qt.WindowType.FramelessWindowHint, True)
        self.setModal(False)
        self.edit = QLineEdit()
        self.edit.setObjectName("quick_open_edit")
        self.edit.setPlaceholderText("Go to a person, organization, document… or words of a text")
        self.edit.setClearButtonEnabled(True)
        self.edit.installEventFilter(self)
        self.list = QListWidget()
        self.list.setObjectName("quick_open_list")
        self.list.setUniformItemSizes(False)
        self.list.setWordWrap(False)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setSpacing(2)
        self.list.itemActivated.connect(lambda _item: self.open_current())
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 10, 10, 8)
        layout.addWidget(self.edit)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.status)
        self.timer = debounce_timer(self, 120, self.refresh)
        self.edit.textChanged.connect(lambda _t: self.timer.start())
        self.edit.returnPressed.connect(self.open_current)
        self.setStyleSheet("QDialog#quick_open { border: 1px solid palette(mid); }")

    # -- showing ----------------------------------------------------------------------------

    def popup(self) -> None:
        """Show the popup near the top of the window, the previous query selected."""
        win = self.window_
        width = min(640, max(420, win.qt_window().width() - 200))
        self.resize(width, min(420, max(260, win.qt_window().height() // 2)))
        top_left = win.qt_window().mapToGlobal(QPoint((win.qt_window().width() - width) // 2, 70))
        self.move(top_left)
        self.show()
        self.raise_()
        self.activateWindow()
        self.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.edit.selectAll()
        self.refresh()

    # -- results ------------------------------------------------------------------------------

    @Slot()
    def refresh(self) -> None:
        """Run the query now and list the hits (the first one selected)."""
        self.timer.stop()
        query = self.edit.text()
        case_id = self.window_.case_id
        self.list.clear()
        if case_id is None:
            self.status.setText("Open a case first.")
            return
        if not query.strip():
            self.status.setText("Type part of a name, or words of a document.  "
                                "Enter opens · Esc closes")
            return
        try:
            hits = self.window_.runner.read(lambda s: quick_open(s, case_id, query))
        except CasefileError as exc:
            self.status.setText(str(exc))
            return
        for hit in hits:
            entry = QListWidgetItem(hit_label(hit))
            entry.setData(HIT_ROLE, hit)
            entry.setToolTip(hit.snippet or hit.title)
            self.list.addItem(entry)
        if hits:
            self.list.setCurrentRow(0)
        n = len(hits)
        self.status.setText(f"{n} result{'s' if n != 1 else ''}" if n else "Nothing found.")

    def hits(self) -> list[QuickHit]:
        """The listed hits, in order."""
        return [self.list.item(i).data(HIT_ROLE) for i in range(self.list.count())]

    @Slot()
    def open_current(self) -> bool:
        """Open the selected hit (the first when none is selected); True when one opened."""
        if self.timer.isActive():
            self.refresh()  # Enter typed before the results caught up
        entry = self.list.currentItem() or self.list.item(0)
        if entry is None:
            return False
        hit: QuickHit = entry.data(HIT_ROLE)
        self.hide()
        window = self.window_
        window.qt_window().activateWindow()
        if hit.kind == "document":
            viewer = window.open_document(hit.item_id)
            if viewer is not None and hit.match:
                found = re.search(re.escape(hit.match), viewer.text, re.IGNORECASE)
                if found:
                    viewer.select_span(found.start(), found.end())
            return viewer is not None
        if hit.kind in SECTION_TITLES:
            return window.select_item(hit.item_id, hit.kind)
        return False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.edit and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            key = event.key()
            if key in (Qt.Key.Key_Down, Qt.Key.Key_Up, Qt.Key.Key_PageDown, Qt.Key.Key_PageUp):
                if self.timer.isActive():
                    self.refresh()
                step = {Qt.Key.Key_Down: 1, Qt.Key.Key_Up: -1, Qt.Key.Key_PageDown: 8,
                        Qt.Key.Key_PageUp: -8}[Qt.Key(key)]
                if self.list.count():
                    row = max(0, min(self.list.currentRow() + step, self.list.count() - 1))
                    self.list.setCurrentRow(row)
                return True
        return super().eventFilter(watched, event)


class QuickOpen(QObject):
    """The window's quick open: the Ctrl+K action (Edit menu) and its popup."""

    def __init__(self, window: QuickOpenWindow) -> None:
        super().__init__(window.qt_window())
        self.window = window
        self.dialog: QuickOpenDialog | None = None
        self.action = QAction("&Quick open…", window.qt_window())
        self.action.setShortcut(QKeySequence("Ctrl+K"))
        self.action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.action.setStatusTip("Go to any item by name, or a document by words of its text")
        self.action.triggered.connect(self.show)
        window.addAction(self.action)
        menu = menu_holding(window.menuBar(), window.find_action)
        if menu is not None:
            insert_after(menu, window.find_action, self.action)

    @Slot()
    def show(self) -> QuickOpenDialog:
        """Ctrl+K: show the popup (made once, kept for the next time)."""
        if self.dialog is None:
            self.dialog = QuickOpenDialog(self.window)
        self.dialog.popup()
        return self.dialog


def install_quick_open(window: QuickOpenWindow) -> QuickOpen:
    """Add Edit ▸ Quick open… (Ctrl+K) to the window; returns the controller."""
    return QuickOpen(window)
