"""The Reading menu of the window: what the reporter has read (ARCHITECTURE.md, "The reading
ledger").

- A document shown in a viewer tab for :data:`READ_AFTER_MS` is marked read (unless it was
  already read or decided); that mark is not an undo step of its own. A document the window
  opened by itself (the file just imported) counts only once the reporter works with it: they
  choose its tab, or click, scroll or type in its viewer; then the same time starts.
- Reading ▸ Toggle relevant (Ctrl+Shift+R), Mark not relevant (Ctrl+Shift+X), Mark unread
  (Ctrl+Shift+M), Mark read: on the documents selected in the Documents section, or else the
  document of the current viewer tab; each is one undoable action
  (:func:`casefile.services.reading.mark_documents`). The shortcuts work from any focus.
- Opening a case says in the status bar how many documents arrived since this user last
  opened it (kept in the window's settings, per workspace and case), joined only to this
  case's own overdue line. How much is reviewed is not a passing message: the status line's
  counts say it, read again whenever the case changes (``MainWindow.refresh``).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QMenu, QWidget

from casefile.errors import CasefileError
from casefile.services import reading, waiting
from casefile.store.base import utcnow
from casefile.ui.undo import ActionCommand
from casefile.ui.widgets import debounce_timer

if TYPE_CHECKING:
    from typing import Protocol

    from PySide6.QtWidgets import QTabWidget

    from casefile.ui.case_views import CaseViews
    from casefile.ui.document_tabs import DocumentTabs
    from casefile.ui.items import ItemsController
    from casefile.ui.ocr_runner import OcrController
    from casefile.ui.shell import WindowShell
    from casefile.ui.suggesting import SuggestionsController
    from casefile.ui.viewer import DocumentViewer

    class ReadingWindow(WindowShell, Protocol):
        """The window as the Reading menu sees it: the shell, its tabs, the Items page, the
        case's views (its overdue line), and the OCR and suggestion runs (what waits for
        them)."""

        tabs: QTabWidget
        items: ItemsController
        case_views: CaseViews
        ocr: OcrController
        suggestions: SuggestionsController

#: How long a document must stay on screen to count as read (milliseconds).
READ_AFTER_MS = 3000


class ReadingController(QObject):
    """The Reading menu of ``window``. Actions:
    ``relevant_action``, ``irrelevant_action``, ``unread_action``, ``read_action``; ``timer``
    marks the current viewer's document read."""

    def __init__(self, window: ReadingWindow, menu: QMenu) -> None:
        super().__init__(window.qt_window())
        self.window = window
        self.relevant_action = self._action(menu, "Toggle &relevant", "Ctrl+Shift+R",
                                            self.toggle_relevant)
        self.irrelevant_action = self._action(menu, "Mark &not relevant", "Ctrl+Shift+X",
                                              lambda: self.mark("irrelevant"))
        self.unread_action = self._action(menu, "Mark &unread", "Ctrl+Shift+M",
                                          lambda: self.mark("unread"))
        self.read_action = self._action(menu, "Mark r&ead", None, lambda: self.mark("read"))
        self.actions = (self.relevant_action, self.irrelevant_action, self.unread_action,
                        self.read_action)
        self.timer = debounce_timer(self, READ_AFTER_MS, self._shown_long_enough)
        self._showing: int | None = None
        self._unasked: set[int] = set()  # opened by the window, not yet worked with
        self._watching_input = False
        self._said = ""  # the opening line said for the case open now
        window.tabs.currentChanged.connect(self._tab_changed)
        window.tabs.tabBar().tabBarClicked.connect(self._tab_chosen)

    def _action(self, menu: Any, text: str, keys: str | None, slot: Any) -> QAction:
        action = QAction(text, self.window.qt_window())
        if keys:
            action.setShortcut(QKeySequence(keys))
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(slot)
        menu.addAction(action)
        self.window.addAction(action)
        return action

    # -- which documents ----------------------------------------------------------------------

    def current_viewer_document(self) -> int | None:
        """The document of the current viewer tab, if a viewer is the current tab."""
        widget = self.window.tabs.currentWidget()
        doc = getattr(widget, "document_id", None)
        return int(doc) if doc is not None else None

    def targets(self) -> list[int]:
        """The documents a mark applies to: the current viewer's document when a viewer tab
        is current, else those selected in the Documents section."""
        doc = self.current_viewer_document()
        if doc is not None:
            return [doc]
        items = self.window.items
        if items.kind == "document":
            return list(items.selected_item_ids())
        return []

    # -- marks ------------------------------------------------------------------------------------

    def mark(self, state: str, ids: list[int] | None = None) -> bool:
        """Mark ``ids`` (default: :meth:`targets`) ``state`` as one undoable step; True when
        it ran (a refusal is shown)."""
        ids = ids if ids is not None else self.targets()
        case_id = self.window.case_id
        if not ids or case_id is None:
            self.window.notify("Select documents in the Documents section, or open one, "
                               "to mark it", 5000)
            return False
        word = reading.STATE_WORDS[state]
        what = "the document" if len(ids) == 1 else f"{len(ids)} documents"
        command = ActionCommand(self.window.runner, case_id, f"Mark {what} {word}",
                                lambda s: reading.mark_documents(s, ids, state))
        self.window.undo_stack.push(command)
        if command.changes is not None:
            self.window.notify(command.changes.message, 5000)
        return not command.failed

    def toggle_relevant(self) -> bool:
        """Relevant, or back to read when every target already is."""
        ids = self.targets()
        if not ids:
            return self.mark("relevant", ids)
        states = self.window.runner.read(
            lambda s: {d.id: d.reading for d in reading.case_documents(s, self._case())})
        already = all(states.get(i) == "relevant" for i in ids)
        return self.mark("read" if already else "relevant", ids)

    def _case(self) -> int:
        case_id = self.window.case_id
        assert case_id is not None
        return int(case_id)

    # -- read by being shown ------------------------------------------------------------------

    def open_document(self, tabs: DocumentTabs, document_id: int, start: int | None,
                      end: int | None, asked: bool) -> DocumentViewer | None:
        """Open ``document_id`` in ``tabs`` (:meth:`DocumentTabs.open`). ``asked``: the
        reporter opened it; False when the window opens it by itself (after an import), so it
        is not counted as read until they work with it (:meth:`attend`)."""
        if not asked and document_id not in tabs.viewers:
            self.opened_unasked(document_id)
        viewer = tabs.open(document_id, start, end)
        if asked:
            self.attend(document_id)
        return viewer

    def opened_unasked(self, document_id: int) -> None:
        """The window is about to open ``document_id`` by itself (after an import): it is not
        counted as read until the reporter works with it (:meth:`attend`)."""
        self._unasked.add(int(document_id))
        if not self._watching_input:
            app = QApplication.instance()
            if app is not None:
                app.installEventFilter(self)
                self._watching_input = True

    def attend(self, document_id: int) -> None:
        """The reporter works with ``document_id`` (opened it, chose its tab, clicked, scrolled
        or typed in it): from now on it counts as read after :data:`READ_AFTER_MS` on screen."""
        if int(document_id) not in self._unasked:
            return
        self._unasked.discard(int(document_id))
        if not self._unasked:
            self._stop_watching_input()
        if self.current_viewer_document() == int(document_id):
            self._showing = int(document_id)
            self.timer.start()

    def _stop_watching_input(self) -> None:
        if self._watching_input:
            app = QApplication.instance()
            if app is not None:
                app.removeEventFilter(self)
            self._watching_input = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() in (QEvent.Type.MouseButtonPress, QEvent.Type.Wheel,
                            QEvent.Type.KeyPress) and isinstance(watched, QWidget):
            doc = self.current_viewer_document()
            viewer = self.window.tabs.currentWidget()
            if doc in self._unasked and viewer is not None and (
                    watched is viewer or viewer.isAncestorOf(watched)):
                self.attend(doc)
        return super().eventFilter(watched, event)

    def _tab_chosen(self, index: int) -> None:
        doc = getattr(self.window.tabs.widget(index), "document_id", None)
        if doc is not None:
            self.attend(int(doc))

    def _tab_changed(self, _index: int) -> None:
        self._showing = self.current_viewer_document()
        if self._showing is None or self._showing in self._unasked:
            self.timer.stop()
        else:
            self.timer.start()

    def _shown_long_enough(self) -> None:
        doc = self.current_viewer_document()
        if (doc is None or doc != self._showing or doc in self._unasked
                or self.window.case_id is None):
            return
        state = self.window.runner.read(
            lambda s: next((d.reading for d in reading.case_documents(s, self._case())
                            if d.id == doc), None))
        if state == "unread":  # not an undo step: reading is not an edit
            self.window.runner.apply(lambda s: reading.mark_documents(s, [doc], "read"),
                                     label="marking the document read")

    # -- opening a case -----------------------------------------------------------------------

    def set_case(self, case_id: int | None) -> None:
        """A case was opened: say what is new since this user last opened it, and what waits
        (scans for OCR, documents never read for suggestions), after this case's own overdue
        line, never another case's message; remember now as its last opening. How much is
        reviewed is in the status line's counts."""
        self.timer.stop()
        self._unasked.clear()
        self._stop_watching_input()
        bar = self.window.statusBar()
        if self._said and bar.currentMessage() == self._said:
            bar.clearMessage()  # about the case shown before
        self._said = ""
        for action in self.actions:
            action.setEnabled(case_id is not None)
        if case_id is None:
            return
        key = f"last_opened/{self.window.workspace.url}/{case_id}"
        stored = self.window.settings.value(key)
        when = None
        if stored:
            try:
                when = dt.datetime.fromisoformat(str(stored))
            except ValueError:
                when = None
        new = self.window.runner.read(lambda s: reading.new_since(s, case_id, when))
        self.window.settings.setValue(key, utcnow().isoformat())
        parts = [f"{new} new document{'s' if new != 1 else ''} since you last opened this "
                 "case"] if new else []
        try:  # what a slow step never reached, in one read (scans, then suggestions)
            ocr_ids, unread_ids = self.window.runner.read(
                lambda s: waiting.waiting_in_case(s, case_id))
        except CasefileError:
            ocr_ids, unread_ids = [], []
        scans = len(ocr_ids)
        if scans:
            parts.append(f"{scans} scanned document{'s' if scans != 1 else ''} wait"
                         f"{'s' if scans == 1 else ''} for OCR: Case ▸ Read scans waiting "
                         "for OCR")
        unread = len(unread_ids)
        if unread:
            parts.append(f"{unread} document{'s' if unread != 1 else ''} never read for "
                         "suggestions: Case ▸ Suggest for documents never read")
        if not parts:
            return
        overdue = self.window.case_views.overdue_text  # this case's, said just before
        if self.window.case_views.overdue_count and overdue:
            parts.insert(0, overdue)
        self._said = " · ".join(parts)
        self.window.notify(self._said, 20000)
