"""Side panels of the main window as docks tabbed with the Evidence dock, and the View menu
entries that show them."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QMainWindow,
    QMenu,
    QScrollArea,
    QWidget,
)

#: A side panel never makes its dock wider than this: what does not fit scrolls sideways.
DOCK_MIN_WIDTH = 240


def make_dock(window: QMainWindow, title: str, name: str, widget: QWidget) -> QDockWidget:
    """A movable, closable, floatable dock titled ``title`` (object name ``name``, which
    QSettings uses to restore the layout) holding ``widget``, on the window's right. A panel
    wider than :data:`DOCK_MIN_WIDTH` scrolls sideways in a narrow dock rather than widening
    the window."""
    dock = QDockWidget(title, window)
    dock.setObjectName(name)
    scroll = QScrollArea()
    scroll.setObjectName(f"{name}_scroll")
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QScrollArea.Shape.NoFrame)
    scroll.setWidget(widget)
    # an empty panel's hint is -1 (no minimum): Qt refuses a negative minimum width
    scroll.setMinimumWidth(max(0, min(widget.minimumSizeHint().width(), DOCK_MIN_WIDTH)))
    scroll.setFocusProxy(widget)
    dock.setWidget(scroll)
    dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                     | QDockWidget.DockWidgetFeature.DockWidgetClosable
                     | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    return dock


def add_tabbed_dock(window: QMainWindow, title: str, name: str, widget: QWidget) -> QDockWidget:
    """:func:`make_dock`, tabbed behind the window's ``evidence_dock`` when there is one,
    which stays in front. Returns the dock."""
    dock = make_dock(window, title, name, widget)
    evidence = window.findChild(QDockWidget, "evidence_dock")
    if isinstance(evidence, QDockWidget) and evidence is not dock:  # not tabbed with itself
        window.tabifyDockWidget(evidence, dock)
        evidence.raise_()
    return dock


def in_front(dock: QDockWidget) -> bool:
    """True when the dock is shown and not behind another dock's tab (Qt keeps a tabified
    dock "visible" behind the front one, moved out of the window: nothing of it shows)."""
    return dock.isVisible() and not dock.visibleRegion().isEmpty()


def show_dock(dock: QDockWidget, *, focus: bool = True) -> None:
    """Show the dock, bring its tab to the front and (``focus``) put the focus in it."""
    dock.show()
    dock.raise_()
    panel = dock.widget()
    if not focus or panel is None:
        return
    for child in panel.findChildren(QWidget):  # the panel's first widget that takes focus
        if (child.focusPolicy() & Qt.FocusPolicy.TabFocus) and child.isVisibleTo(panel) \
                and child.isEnabled() and not isinstance(child, QScrollArea):
            child.setFocus(Qt.FocusReason.ShortcutFocusReason)
            return
    panel.setFocus(Qt.FocusReason.ShortcutFocusReason)


def toggle_dock(dock: QDockWidget) -> None:
    """A View menu entry or its shortcut: a dock hidden, or behind another dock's tab, or
    without the focus is shown, raised and focused; pressed again (in front, focus in it)
    it hides."""
    focused = QApplication.focusWidget()
    has_focus = focused is not None and (focused is dock or dock.isAncestorOf(focused))
    if in_front(dock) and has_focus:
        dock.hide()
    else:
        show_dock(dock)


def focusing_view_action(window: QMainWindow, dock: QDockWidget) -> QAction:
    """Replace the dock's toggleViewAction (in the window's menus and actions) by an action of
    the same text and shortcut that calls :func:`toggle_dock`; it stays ticked while the dock
    is open. Returns the new action."""
    old = dock.toggleViewAction()
    action = QAction(old.text(), window)
    action.setObjectName(f"{dock.objectName()}_action")
    action.setCheckable(True)
    action.setShortcuts(old.shortcuts())
    action.setShortcutContext(Qt.ShortcutContext.ApplicationShortcut)
    old.setShortcuts([])

    def sync(*_args: object) -> None:
        action.setChecked(not dock.isHidden())

    def triggered() -> None:
        toggle_dock(dock)
        sync()

    action.triggered.connect(triggered)
    dock.visibilityChanged.connect(sync)
    sync()
    for menu in window.menuBar().findChildren(QMenu):
        if old in menu.actions():
            menu.insertAction(old, action)
            menu.removeAction(old)
    if old in window.actions():
        window.removeAction(old)
    window.addAction(action)
    return action
