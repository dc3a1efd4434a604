"""What a controller may ask of the window: :class:`WindowShell`, a small ``Protocol``.

Controllers (the classes of ``casefile/ui`` that take the window) are typed against this
interface, not against :class:`~casefile.ui.main_window.MainWindow`, so a newcomer sees in one
place what they may use of it and a controller can be tested with any object that has these
members (ARCHITECTURE.md, "The window"). Another controller's members are reached through that
controller (``window.items.select_item``), never copied onto the window.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QAction, QUndoStack
    from PySide6.QtWidgets import QMainWindow, QMenuBar, QMessageBox, QStatusBar, QWidget

    from casefile.store.workspace import Workspace
    from casefile.ui.operations import Job, OperationRunner
    from casefile.ui.viewer import DocumentViewer


class WindowShell(Protocol):
    """The window as its controllers see it: the open workspace and case, the runner every
    change goes through, the undo stack, settings, the window's date, messages, and the few
    window-level requests (open a case, a document, an item)."""

    #: The job started last (tests and scripts wait on it); a controller sets it when it
    #: starts one.
    last_job: Job | None

    @property
    def workspace(self) -> Workspace: ...

    @property
    def runner(self) -> OperationRunner: ...

    @property
    def undo_stack(self) -> QUndoStack: ...

    @property
    def settings(self) -> QSettings: ...

    @property
    def clock(self) -> Callable[[], date]:
        """Today's date as the window sees it (tests set it)."""
        ...

    @property
    def case_id(self) -> int | None:
        """The open case (None: no case)."""
        ...

    def case_title(self) -> str: ...

    def open_case(self, case_id: int | None) -> None: ...

    def open_document(self, document_id: int, start: int | None = None,
                      end: int | None = None, *,
                      asked: bool = True) -> DocumentViewer | None:
        """Open a document in a tab, with ``text[start:end]`` selected when given (None: it
        cannot be read, and the window said why); ``asked`` False when the window opens it by
        itself (not counted as read until worked with)."""
        ...

    def open_passage(self, document_id: int, start: int, end: int) -> None:
        """Open a document at ``text[start:end]`` (the whole document when start < 0)."""
        ...

    def select_item(self, item_id: int, kind: str) -> bool:
        """Show ``kind``'s section of the Items page with ``item_id`` selected."""
        ...

    def show_evidence(self, item_id: int | None, raise_dock: bool = False) -> None:
        """Show an item's evidence in the Evidence dock (None: empty)."""
        ...

    def flush_edits(self) -> None:
        """Save the item editor's pending edits (before anything that reloads)."""
        ...

    def notify(self, message: str, timeout_ms: int = 6000) -> None: ...

    def report_error(self, message: str, parent: QWidget | None = None) -> QMessageBox: ...

    def qt_window(self) -> QMainWindow:
        """The window as a Qt widget: the parent of dialogs, docks and timers."""
        ...

    def statusBar(self) -> QStatusBar: ...

    def menuBar(self) -> QMenuBar: ...

    def addAction(self, action: QAction) -> None: ...
