"""Side panels of the main window as docks tabbed with the Evidence dock."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget


def add_tabbed_dock(window: QMainWindow, title: str, name: str, widget: QWidget) -> QDockWidget:
    """Put ``widget`` in a movable, closable, floatable dock titled ``title`` (object name
    ``name``, which QSettings uses to restore the layout) on the right, tabbed behind the
    window's ``evidence_dock`` when there is one, which stays in front. Returns the dock."""
    dock = QDockWidget(title, window)
    dock.setObjectName(name)
    dock.setWidget(widget)
    dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                     | QDockWidget.DockWidgetFeature.DockWidgetClosable
                     | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    evidence = window.findChild(QDockWidget, "evidence_dock")
    if isinstance(evidence, QDockWidget):
        window.tabifyDockWidget(evidence, dock)
        evidence.raise_()
    return dock
