"""The window's central area: one tab widget (Items and Follow-ups fixed, documents and views
closable beside them) beside the case navigator in a splitter; the actions that need an open
case; and steps run one per turn of the event loop (a case opening at the window's start)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QSplitter, QTabWidget, QWidget


def central_tabs() -> QTabWidget:
    """The central tab widget (object name "tabs"): closable tabs that do not move."""
    tabs = QTabWidget()
    tabs.setObjectName("tabs")
    tabs.setDocumentMode(True)
    tabs.setTabsClosable(True)
    tabs.setMovable(False)
    return tabs


def add_fixed_tab(tabs: QTabWidget, page: QWidget, title: str) -> None:
    """Add ``page`` as a tab without a close button (Items, Follow-ups)."""
    n = tabs.addTab(page, title)
    bar = tabs.tabBar()
    for side in (bar.ButtonPosition.RightSide, bar.ButtonPosition.LeftSide):
        bar.setTabButton(n, side, None)


def navigator_splitter(navigator: QWidget, tabs: QTabWidget) -> QSplitter:
    """The splitter (object name "main_splitter") with the navigator at its left (200 px, not
    stretched) and the tabs taking the rest; neither side collapses."""
    splitter = QSplitter(Qt.Orientation.Horizontal)
    splitter.setObjectName("main_splitter")
    splitter.addWidget(navigator)
    splitter.addWidget(tabs)
    splitter.setStretchFactor(0, 0)
    splitter.setStretchFactor(1, 1)
    splitter.setChildrenCollapsible(False)
    splitter.setSizes([200, 740])
    return splitter


def enable_all(actions: Iterable[QAction], enabled: bool) -> None:
    """Enable or disable each of ``actions`` (those that need an open case)."""
    for action in actions:
        action.setEnabled(enabled)


def run_in_turns(owner: QObject, steps: Sequence[Callable[[], object]], *,
                 still: Callable[[], bool], then: Callable[[], object]) -> None:
    """Run ``steps`` one per later turn of the event loop (a 1 ms timer owned by ``owner``
    before each), each only while ``still()`` holds; ``then()`` runs after the last (or at
    once when there are none)."""
    if not steps:
        then()
        return

    def step() -> None:
        if still():
            steps[0]()
        run_in_turns(owner, steps[1:], still=still, then=then)

    QTimer.singleShot(1, owner, step)
