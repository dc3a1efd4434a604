"""The Reading menu of the window: what the reporter has read (ARCHITECTURE.md, "The reading
ledger").

- A document shown in a viewer tab for :data:`READ_AFTER_MS` is marked read (unless it was
  already read or decided); that mark is not an undo step of its own.
- Reading ▸ Toggle relevant (Ctrl+Shift+R), Mark not relevant (Ctrl+Shift+X), Mark unread
  (Ctrl+Shift+M), Mark read: on the documents selected in the Documents section, or else the
  document of the current viewer tab; each is one undoable action
  (:func:`casefile.services.reading.mark_documents`). The shortcuts work from any focus.
- Opening a case says in the status bar how many documents arrived since this user last
  opened it (kept in the window's settings, per workspace and case) and how much is reviewed.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence

from casefile.services import reading
from casefile.store.base import utcnow
from casefile.ui.undo import ActionCommand

#: How long a document must stay on screen to count as read (milliseconds).
READ_AFTER_MS = 3000


class ReadingController(QObject):
    """The Reading menu of ``window`` (a MainWindow; not imported here: no cycle). Actions:
    ``relevant_action``, ``irrelevant_action``, ``unread_action``, ``read_action``; ``timer``
    marks the current viewer's document read."""

    def __init__(self, window: Any, menu: Any) -> None:
        super().__init__(window)
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
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(READ_AFTER_MS)
        self.timer.timeout.connect(self._shown_long_enough)
        self._showing: int | None = None
        window.tabs.currentChanged.connect(self._tab_changed)

    def _action(self, menu: Any, text: str, keys: str | None, slot: Any) -> QAction:
        action = QAction(text, self.window)
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

    def _tab_changed(self, _index: int) -> None:
        self._showing = self.current_viewer_document()
        if self._showing is None:
            self.timer.stop()
        else:
            self.timer.start()

    def _shown_long_enough(self) -> None:
        doc = self.current_viewer_document()
        if doc is None or doc != self._showing or self.window.case_id is None:
            return
        state = self.window.runner.read(
            lambda s: next((d.reading for d in reading.case_documents(s, self._case())
                            if d.id == doc), None))
        if state == "unread":  # not an undo step: reading is not an edit
            self.window.runner.apply(lambda s: reading.mark_documents(s, [doc], "read"),
                                     label="marking the document read")

    # -- opening a case -----------------------------------------------------------------------

    def set_case(self, case_id: int | None) -> None:
        """A case was opened: say what is new since this user last opened it and how much is
        reviewed; remember now as its last opening."""
        self.timer.stop()
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
        new, summary = self.window.runner.read(
            lambda s: (reading.new_since(s, case_id, when), reading.reading_summary(s, case_id)))
        self.window.settings.setValue(key, utcnow().isoformat())
        if summary.total:
            said = f"{new} new since you last opened this case · " if new else ""
            said += summary.as_text()
            scans = len(self.window.ocr.waiting_in_case(case_id))
            if scans:
                said += (f" · {scans} scanned document{'s' if scans != 1 else ''} wait"
                         f"{'s' if scans == 1 else ''} for OCR: Case ▸ Read scans waiting "
                         "for OCR")
            unread = len(self.window.suggestions.waiting_in_case(case_id))
            if unread:
                said += (f" · {unread} document{'s' if unread != 1 else ''} never read for "
                         "suggestions: Case ▸ Suggest for documents never read")
            earlier = self.window.statusBar().currentMessage()  # e.g. overdue follow-ups first
            if earlier and earlier != said:
                said = f"{earlier} · {said}"
            self.window.notify(said, 20000)
