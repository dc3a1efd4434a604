"""The Suggestions panel: what the extractor found in the case's documents, and the reporter's
decision on each (accept, accept as…, merge into…, reject) — Mentions in ARCHITECTURE.md,
"Data model".

The panel lists pending suggestions by kind (People, Organizations, Places, Events with their
dates, Follow-ups with their due dates, Claims with who said it and via whom) with counts, one
row per suggested name with its mention count and a context snippet. Decisions are the
services' user actions (``decisions.accept`` / ``accept_as`` / ``merge`` / ``reject``) run
through the window's :class:`~casefile.ui.operations.OperationRunner` (``apply``: one
transaction each, then ``case_changed``); each is pushed on the window's QUndoStack as a
:class:`DecisionCommand` (an ``ActionCommand`` like every undoable action) whose undo and
redo run the services' Steps (``apply_step``).

No row jumps under the pointer: a decided row stays where it was, greyed and marked
("✓ accepted", "✗ rejected"), and cannot be decided again; the selection moves to the next
undecided row. Undo makes the row undecided again. The list is read again (decided rows
dropped) when suggestions change from elsewhere: an import, a suggestion run. Those jobs read
it ahead on their worker thread (:meth:`SuggestionsPanel.prepare`), and the tree gets each
kind's rows a chunk at a time as they come into view, so thousands of suggestions reach the
panel without holding the window.

Keyboard (while the panel has focus): A or Ctrl+Return accept, R or F2 accept as…, M merge
into…, X reject; double-click or Return opens the document at the mention."""


from __future__ import annotations

import html
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QObject,
    QPoint,
    Qt,
    Signal,
    Slot,
)
from PySide6.QtGui import (
    QAction,
    QKeySequence,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QGridLayout,
    QHeaderView,
    QPushButton,
    QScrollArea,
    QStyledItemDelegate,
    QTreeView,
    QVBoxLayout,
    QWidget,
)
from sqlalchemy.orm import Session

from casefile.services import decisions, rejections, views
from casefile.services.changes import Changes, Step
from casefile.services.decisions import Decision, SuggestionEntry, SuggestionList
from casefile.ui.actions import menu_named
from casefile.ui.docks import DOCK_MIN_WIDTH, add_tabbed_dock
from casefile.ui.operations import CaseChange, OperationRunner, Outcome
from casefile.ui.suggestions import loading
from casefile.ui.suggestions.command import DecisionCommand
from casefile.ui.suggestions.dialogs import MergeDialog, RejectedNamesDialog, RenameDialog
from casefile.ui.suggestions.loading import PanelContents
from casefile.ui.suggestions.model import (
    COLUMNS,
    CONTEXT_COLUMN,
    DETAILS_COLUMN,
    DETAILS_MIN_WIDTH,
    DETAILS_SHARE,
    KIND_PLURAL,
    KIND_SINGULAR,
    KIND_TITLES,
    MENTIONS_COLUMN,
    PREVIEW_LINES,
    ClaimRowDelegate,
    SuggestionsModel,
    claim_speaker,
)
from casefile.ui.undo import ActionCommand
from casefile.ui.widgets import debounce_timer, wrapped_label

if TYPE_CHECKING:
    from typing import Protocol

    from casefile.ui.shell import WindowShell
    from casefile.ui.suggesting import SuggestionsController

    class PanelWindow(WindowShell, Protocol):
        """The window as the Suggestions panel sees it: the shell and the suggestion runs."""

        suggestions: SuggestionsController


log = logging.getLogger(__name__)


class SuggestionsPanel(QWidget):
    """Pending suggestions of the open case, and buttons to decide them.

    ``runner`` is the window's OperationRunner: decisions run through it (``apply``) and the
    panel reloads on its ``case_changed`` when suggestions changed elsewhere (an import, a
    suggestion run). ``undo_stack`` (optional): each decision is pushed on it as a
    :class:`DecisionCommand`. Signals: ``mention_activated(document_id, start, end)`` (Python
    str offsets) to open a document at a suggestion's first mention; ``decided(message)`` with
    the decision's message (the Changes' one sentence naming everything made; undo and redo
    send theirs too) for the status bar; ``count_changed(waiting)``; ``loaded`` when a list
    read on a worker thread is shown (:meth:`reload`).
    """

    mention_activated = Signal(int, int, int)
    decided = Signal(str)
    count_changed = Signal(int)
    suggest_again_requested = Signal()
    loaded = Signal()

    def __init__(self, runner: OperationRunner, parent: QWidget | None = None,
                 undo_stack: QUndoStack | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.undo_stack = undo_stack
        self._applying = False  # True while our own decision's case_changed goes out
        self._stamp = 0  # own decisions shown in place so far (see PanelContents)
        self._offered: PanelContents | None = None  # read ahead by a job, for the next reload
        self.loader = loading.ContentsLoader(runner, self)
        self.loader.loaded.connect(self._on_loaded)
        self._request: int | None = None  # the worker's read the panel waits for
        self._reselect: tuple[SuggestionEntry | None, tuple[str, int] | None] = (None, None)
        self._listed_case: int | None = None  # the case whose list the tree shows
        self.case_id: int | None = None
        self.listing: SuggestionList | None = None
        self.mode: str | None = None
        self.suggested_by: str | None = None  # the model of the latest run ("rules only")
        self.unread: tuple[str, ...] = ()  # language notes of documents with no suggestions
        self.dialog: QDialog | None = None

        self.model = SuggestionsModel(self)
        self.status_label = wrapped_label(name="suggestions_status")
        self.tree = QTreeView()
        self.tree.setObjectName("suggestions_tree")
        self.tree.setModel(self.model)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tree.setWordWrap(False)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.tree.setExpandsOnDoubleClick(False)
        header = self.tree.header()
        # The name stretches with the dock and elides; mentions fit their numbers; details keep
        # a modest width (tooltip for the rest). The context is shown under the list, so its
        # column stays hidden: nothing overflows the dock, no horizontal scrollbar.
        header.setStretchLastSection(False)
        header.setMinimumSectionSize(40)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # the counts' width from the largest count (reload), not from asking every row
        header.setSectionResizeMode(MENTIONS_COLUMN, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(DETAILS_COLUMN, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(DETAILS_COLUMN, DETAILS_MIN_WIDTH)
        # a claim row reads "SPEAKER: sentence", the speaker whole and the sentence cut (who
        # said it and via whom are in the preview below). Rows are not spanned across columns:
        # each span re-lays the tree out, and every re-layout hands the view the next rows of
        # each open group, so a long list would be read whole
        self.tree.setItemDelegate(ClaimRowDelegate(self.tree))
        # ... in the first column only: the others are drawn by Qt's own delegate, without a
        # call into Python for each cell painted
        self._plain_delegate = QStyledItemDelegate(self.tree)
        for column in range(1, len(COLUMNS)):
            self.tree.setItemDelegateForColumn(column, self._plain_delegate)
        self.tree.viewport().installEventFilter(self)
        self.tree.setIndentation(12)
        self.tree.setColumnHidden(CONTEXT_COLUMN, True)
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tree.doubleClicked.connect(self._on_double_clicked)
        # more rows are fetched after the view's own handling (never inside its layout)
        self._fetch_timer = debounce_timer(self, 0, self._fetch_visible)
        self.tree.verticalScrollBar().valueChanged.connect(self._fetch_timer.start)
        self.tree.expanded.connect(self._fetch_timer.start)
        self.tree.selectionModel().currentChanged.connect(self._on_current_changed)
        self.context_label = wrapped_label(name="suggestion_context", rich=True)
        self.context_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.context_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        # the preview keeps one height whatever it shows (a longer one scrolls inside), so the
        # list above it never changes height under the pointer
        self.preview = QScrollArea()
        self.preview.setObjectName("suggestion_preview")
        self.preview.setWidget(self.context_label)
        self.preview.setWidgetResizable(True)
        self.preview.setFrameShape(QScrollArea.Shape.NoFrame)
        self.preview.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.preview.setFixedHeight(
            PREVIEW_LINES * self.context_label.fontMetrics().lineSpacing() + 6)

        self.accept_button = QPushButton("Accept")
        self.accept_as_button = QPushButton("Accept as…")
        self.merge_button = QPushButton("Merge into…")
        self.reject_button = QPushButton("Reject")
        self.accept_action = self._action("Accept", ("A", "Ctrl+Return"), self.accept_current)
        self.accept_as_action = self._action("Accept as…", ("R", "F2"), self.prompt_accept_as)
        self.merge_action = self._action("Merge into…", ("M",), self.prompt_merge)
        self.reject_action = self._action("Reject", ("X",), self.reject_current)
        self.open_action = self._action("Open in document", ("Return", "Enter"),
                                        self.open_current)
        self.suggest_again_button = QPushButton("Suggest again")
        self.suggest_again_button.setObjectName("suggest_again_document_button")
        self.suggest_again_button.setToolTip(
            "Find suggestions again in the document shown (after a failed run or a new "
            "model in Edit ▸ Preferences…)")
        self.suggest_again_button.clicked.connect(self.suggest_again_requested)
        self.rejected_button = QPushButton("Rejected names…")
        self.rejected_button.setObjectName("rejected_names_button")
        self.rejected_button.setToolTip("The names rejected in any case, to suggest again")
        self.rejected_button.clicked.connect(self.prompt_rejected)
        for button, action in ((self.accept_button, self.accept_action),
                               (self.accept_as_button, self.accept_as_action),
                               (self.merge_button, self.merge_action),
                               (self.reject_button, self.reject_action)):
            button.clicked.connect(action.trigger)
            keys = ", ".join(s.toString(QKeySequence.SequenceFormat.NativeText)
                             for s in action.shortcuts())
            button.setToolTip(f"{action.text()} ({keys})")

        # two rows of two: the dock keeps every button on show when a narrow screen leaves it
        # little width (a row of four scrolled "Reject" out of sight at 1024 pixels)
        buttons = QGridLayout()
        for n, button in enumerate((self.accept_button, self.accept_as_button,
                                    self.merge_button, self.reject_button,
                                    self.suggest_again_button, self.rejected_button)):
            buttons.addWidget(button, n // 2, n % 2)
        buttons.setColumnStretch(2, 1)
        self.setMinimumWidth(DOCK_MIN_WIDTH)  # the list's columns keep their titles readable
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.status_label)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.preview)
        layout.addLayout(buttons)
        self.runner.case_changed.connect(self._on_case_changed)
        self._update_buttons()
        self._show_status()

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._fetch_timer.start()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.tree.viewport() and event.type() == QEvent.Type.Resize:
            self._fit_details_column()
        return super().eventFilter(watched, event)

    def _fit_details_column(self) -> None:
        """The Details column widens with the list: :data:`DETAILS_SHARE` of its width, never
        less than :data:`DETAILS_MIN_WIDTH` pixels; the names stretch over the rest."""
        width = self.tree.viewport().width()
        self.tree.header().resizeSection(
            DETAILS_COLUMN, max(DETAILS_MIN_WIDTH, int(width * DETAILS_SHARE)))

    def _action(self, text: str, keys: Sequence[str], slot: Callable[[], Any]) -> QAction:
        action = QAction(text, self)
        action.setShortcuts([QKeySequence(k) for k in keys])
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)
        return action

    # -- loading ------------------------------------------------------------------------------

    def set_case(self, case_id: int | None) -> None:
        """Show the suggestions of this case (None: none)."""
        self.case_id = case_id
        self.reload()

    def prepare(self, case_id: int | None) -> PanelContents | None:
        """Read what the panel will show for ``case_id`` now, off the GUI thread: a job calls
        it on its worker thread after its last commit, so the reload its ``case_changed``
        brings only fills the tree (a case with thousands of suggestions takes seconds to
        read). Touches no widget; the next :meth:`reload` uses it if it is for the case shown
        and no decision was made here since the read began, else reads again. Returns the
        contents (None for no case, or when the read failed: logged, the reload reads)."""
        if case_id is None:
            return None
        contents = loading.read_ahead(self.runner, case_id, self._stamp)
        if contents is not None:
            self._offered = contents  # one assignment: atomic for the GUI thread reading it
        return contents

    @property
    def is_loading(self) -> bool:
        """True while the list is being read on a worker thread (see :meth:`reload`)."""
        return self._request is not None

    def reload(self) -> None:
        """Read the case's pending suggestions again (or take those a job read ahead, see
        :meth:`prepare`), keeping the selection where it was (the same suggestion, else the
        row that took its place).

        A case with many suggestions (``loading.BACKGROUND_MENTIONS`` pending mentions or
        more) is read on a worker thread: the method returns at once, the status says the
        list is being read (the previous case's rows are cleared), and the tree is filled when
        the read arrives (``loaded`` is emitted then; :attr:`is_loading` is True meanwhile)."""
        old = self.current_entry()
        old_pos = self._position(self.tree.currentIndex())
        case_id = self.case_id
        offered, self._offered = self._offered, None
        self._request = None  # an answer still on its way is stale now
        if case_id is None:
            contents = None
        elif offered is not None and offered.case_id == case_id and (
                offered.stamp == self._stamp):
            contents = offered
        elif self.loader.big(case_id):
            if self._listed_case != case_id:
                self._fill(None, None, None)
            self._request = self.loader.start(case_id, self._stamp)
            self._reselect = (old, old_pos)
            self._show_status()
            return
        else:
            listing, mode, model, unread = self.runner.read(
                lambda s: loading.read_contents(s, case_id))
            contents = PanelContents(case_id, listing, mode, model, self._stamp, unread)
        self._fill(contents, old, old_pos)

    @Slot(int, object)
    def _on_loaded(self, request: int, contents: PanelContents | None) -> None:
        if request != self._request:
            return  # a later reload (or a change of case) made this read stale
        self._request = None
        if contents is None or contents.case_id != self.case_id or (
                contents.stamp != self._stamp):
            if contents is None:
                self.runner.fail("The suggestions could not be read (see the log).")
                self._fill(None, None, None)
            else:
                self.reload()  # read before a decision here or for another case: again
            return
        old, old_pos = self._reselect
        self._fill(contents, old, old_pos)
        self.loaded.emit()

    def _fill(self, contents: PanelContents | None, old: SuggestionEntry | None,
              old_pos: tuple[str, int] | None) -> None:
        """Show ``contents`` (None: nothing), selecting ``old`` again, else the row at
        ``old_pos``, else the first."""
        if contents is None:
            self.listing, self.mode, self.suggested_by, self.unread = None, None, None, ()
            self._listed_case = None
        else:
            self.listing, self.mode, self.suggested_by, self.unread = (
                contents.listing, contents.mode, contents.suggested_by, contents.unread)
            self._listed_case = contents.case_id
        # the tree is laid out for the selection below: with the rows each group starts with
        # only, those in sight are fetched after (_fetch_visible), not a chunk of every group
        self.model.hold_fetches(True)
        try:
            self.model.set_listing(self.listing)
            self._fit_mentions_column()
            for g in range(self.model.rowCount()):
                self.tree.setExpanded(self.model.index(g, 0), True)
            index = self.model.index_of(old.key) if old is not None else QModelIndex()
            if not index.isValid():
                index = self._at_position(old_pos)
            if not index.isValid():
                first = self.model.first_entry_index()
                index = first  # ready for the keyboard at once
            if index.isValid():
                self._show(index)
        finally:
            self.model.hold_fetches(False)
        self._fetch_timer.start()
        self._show_context(self.current_entry())
        self._update_buttons()
        self._show_status()
        self.count_changed.emit(self.model.waiting())

    def _fit_mentions_column(self) -> None:
        """The mentions column as wide as its title or largest count, whichever is wider."""
        most = max((e.mentions for _k, entries in (self.listing.by_kind.items()
                                                   if self.listing else ())
                    for e in entries), default=0)
        metrics = self.tree.fontMetrics()
        text = max(metrics.horizontalAdvance(str(most)),
                   self.tree.header().fontMetrics().horizontalAdvance(COLUMNS[MENTIONS_COLUMN]))
        self.tree.header().resizeSection(MENTIONS_COLUMN, max(text + 16, 40))

    def _show(self, index: QModelIndex) -> None:
        """Select the suggestion row ``index`` and scroll to it (its rows fetched first)."""
        index = self.model.reveal(index)
        self.tree.setCurrentIndex(index)
        self.tree.scrollTo(index)
        self._fetch_timer.start()

    @Slot()
    def _fetch_visible(self) -> None:
        """Hand the view more rows of each expanded group whose last row is in sight, or
        within a row below it (the tree fetches only below its very last row by itself).
        What is in sight is read from the row at the list's bottom edge (one look-up), not
        from each group's last row's place (a search of the tree's rows each)."""
        bottom = self.tree.viewport().rect().bottom()
        for _ in range(100):  # a tall panel may want a few chunks; never loop forever
            at = self.tree.indexAt(QPoint(0, bottom))
            below = self.tree.indexBelow(at) if at.isValid() else QModelIndex()
            # None: the list ends above the bottom edge, every row is in sight
            last = _place(below) if below.isValid() else None
            groups = [self.model.parent(ix) for ix in self.model.last_fetched()
                      if last is None or _place(ix) <= last]
            wanted = [group for group in groups if self.tree.isExpanded(group)]
            if not wanted:
                return
            for group in wanted:
                self.model.fetchMore(group)

    def _position(self, index: QModelIndex) -> tuple[str, int] | None:
        entry = self.model.entry(index)
        return (entry.kind, index.row()) if entry is not None else None

    def _at_position(self, pos: tuple[str, int] | None) -> QModelIndex:
        """After a decision: the row now at the decided one's place, else the next one."""
        if pos is None:  # nothing was selected
            return QModelIndex()
        kind, row = pos
        order = list(KIND_TITLES)
        rank = order.index(kind) if kind in order else len(order)
        return self.model.first_at(lambda k: order.index(k) if k in order else len(order),
                                   rank, row)

    def _show_status(self) -> None:
        if self.case_id is None:
            text = "Open a case to see suggestions."
        elif self._request is not None and self.listing is None:
            text = "Reading the suggestions…"
        elif self.listing is None or self.model.waiting() == 0:
            text = ("No suggestions waiting. Import documents, and the people, organizations, "
                    "places, dates, follow-ups and claims found in them appear here.")
        else:
            parts = [f"{n} {(KIND_SINGULAR if n == 1 else KIND_PLURAL)[k]}"
                     for k, n in self.model.waiting_counts().items()]
            total = self.model.waiting()
            text = (f"{total} suggestion{'s' if total != 1 else ''} waiting: "
                    f"{', '.join(parts)}.")
        if self.mode == "rules":
            text += "\nSuggested by rules only (no language model): some names may be missed."
        elif self.mode == "spacy":
            model = self.suggested_by or "the language model"
            text += f"\nSuggested by {model} and rules."
        for note in self.unread:
            text += f"\n{note}"
        self.status_label.setText(text)

    def _show_context(self, entry: SuggestionEntry | None) -> None:
        if entry is None:
            self.context_label.setText("")
            return
        h0, h1 = entry.highlight
        s = entry.snippet
        body = (f"{html.escape(s[:h0])}<b>{html.escape(s[h0:h1])}</b>"
                f"{html.escape(s[h1:])}")
        source = (f"{entry.mentions} mention{'s' if entry.mentions != 1 else ''} in "
                  + (f"{entry.documents} documents" if entry.documents > 1
                     else f"“{html.escape(entry.document_title)}”"))
        said = ""
        if entry.kind == "claim":  # the speaker whole, whatever the row had room for
            via = entry.detail.get("via")
            said = (f"said by <b>{html.escape(claim_speaker(entry))}</b>"
                    + (f" · via {html.escape(str(via))}" if via else "") + "<br>")
        self.context_label.setText(f"{said}{body}<br><i>{source}</i>")
        self.preview.verticalScrollBar().setValue(0)

    def _update_buttons(self) -> None:
        entry = self.current_entry()
        for w in (self.accept_button, self.accept_as_button, self.merge_button,
                  self.reject_button, self.accept_action, self.accept_as_action,
                  self.merge_action, self.reject_action, self.open_action):
            w.setEnabled(entry is not None)

    # -- selection ----------------------------------------------------------------------------

    def current_entry(self) -> SuggestionEntry | None:
        """The selected undecided suggestion, or None."""
        entry = self.model.entry(self.tree.currentIndex())
        if entry is None or self.model.decided(entry.key) is not None:
            return None
        return entry

    def waiting_entries(self) -> list[SuggestionEntry]:
        """The undecided suggestions shown, in display order."""
        out = []
        for index in self.model.entry_indexes():
            entry = self.model.entry(index)
            if entry is not None and self.model.decided(entry.key) is None:
                out.append(entry)
        return out

    def select(self, kind: str, name: str) -> bool:
        """Select the first undecided suggestion of ``kind`` named ``name``; True if found."""
        for index in self.model.entry_indexes():
            entry = self.model.entry(index)
            if entry is not None and entry.kind == kind and entry.name == name \
                    and self.model.decided(entry.key) is None:
                self._show(index)
                return True
        return False

    @Slot(QModelIndex, QModelIndex)
    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self._show_context(self.model.entry(current))
        self._update_buttons()

    @Slot(QModelIndex)
    def _on_double_clicked(self, index: QModelIndex) -> None:
        entry = self.model.entry(index)
        if entry is not None:
            self.mention_activated.emit(entry.document_id, entry.start, entry.end)

    def open_current(self) -> None:
        """Return: open the document at the selected suggestion's first mention."""
        self._on_double_clicked(self.tree.currentIndex())

    # -- decisions ----------------------------------------------------------------------------

    def _decide(self, fn: Callable[[Session], Changes]) -> Decision | None:
        """Run one decision service through the runner; on success mark its rows decided (in
        place), move the selection to the next undecided row, say what it made and push it
        on the undo stack."""
        if self.case_id is None:
            return None
        origin = self.tree.currentIndex()
        self._applying = True
        self._stamp += 1
        try:
            out = self.runner.apply(fn, label="deciding on a suggestion")
        finally:
            self._applying = False
        done = out.value
        if not out.ok or done is None or not isinstance(done.value, Decision):
            self.reload()  # e.g. decided meanwhile elsewhere: show what is stored
            return None
        decision = done.value
        decided = decision.mention_ids
        keys = self.model.listed_keys(
            self.runner.read(lambda s: decisions.suggestion_keys(s, decided)))
        self.model.set_decided(keys, decision.action)
        self._select_next_waiting(origin)
        self._after_change()
        self.decided.emit(done.message)
        if self.undo_stack is not None and done.undo is not None:
            self.undo_stack.push(DecisionCommand(self, done, keys, decision.action))
        return decision

    def run_decision_step(self, step: Step, keys: Sequence[tuple[str, str, str]],
                          how: str | None) -> Outcome[Changes]:
        """Run an undo (``how`` None: the rows become undecided again) or redo (``how``: the
        rows are marked decided again) step of a decision through ``runner.apply_step``;
        returns its outcome (a failure is reported through the runner's
        ``operation_failed``)."""
        self._applying = True
        self._stamp += 1
        try:
            out = self.runner.apply_step(step)
        finally:
            self._applying = False
        if not out.ok or out.value is None:
            self.reload()
            return out
        shown = [k for k in keys if self.model.index_of(k).isValid()]
        if len(shown) != len(keys) or self.case_id != out.value.case_id:
            self.reload()  # the list was read again since: read what is stored now
        else:
            self.model.set_decided(shown, how)
            if how is None and shown:  # the row is back: select it, ready to decide again
                self._show(self.model.index_of(shown[0]))
            elif how is not None:
                self._select_next_waiting(self.tree.currentIndex())
            self._after_change()
        self.decided.emit(out.value.message)
        return out

    def _select_next_waiting(self, origin: QModelIndex) -> None:
        """Select the first undecided row after ``origin`` in display order (else the last
        one before it; else nothing)."""
        rows = self.model.entry_indexes()
        at = next((n for n, index in enumerate(rows) if origin.isValid()
                   and index.internalId() == origin.internalId()
                   and index.row() == origin.row()), -1)
        def waiting(index: QModelIndex) -> bool:
            entry = self.model.entry(index)
            return entry is not None and self.model.decided(entry.key) is None
        after = [ix for ix in rows[at + 1:] if waiting(ix)]
        before = [ix for ix in rows[:max(at, 0)] if waiting(ix)]
        target = after[0] if after else (before[-1] if before else QModelIndex())
        if target.isValid():
            self._show(target)
        else:
            self.tree.selectionModel().clearSelection()
            self.tree.setCurrentIndex(QModelIndex())

    def _after_change(self) -> None:
        self._show_context(self.current_entry())
        self._update_buttons()
        self._show_status()
        self.count_changed.emit(self.model.waiting())

    def accept_current(self, title: str | None = None) -> Decision | None:
        """Accept the selected suggestion (A); with ``title``, under that name. Returns what
        changed, or None when nothing is selected or the service refused (reported by the
        runner's ``operation_failed``)."""
        entry = self.current_entry()
        if entry is None or self.case_id is None:
            return None
        case_id = self.case_id
        if title is not None:
            return self._decide(lambda s: decisions.accept_as(
                s, case_id, entry.kind, entry.name, title, variant=entry.variant))
        return self._decide(lambda s: decisions.accept(s, case_id, entry.kind, entry.name,
                                                       variant=entry.variant))

    def accept_as(self, title: str) -> Decision | None:
        """Accept the selected suggestion under the name ``title``."""
        return self.accept_current(title=title)

    def merge_into(self, item_id: int) -> Decision | None:
        """Merge the selected suggestion into the item ``item_id`` (of the same kind)."""
        entry = self.current_entry()
        if entry is None or self.case_id is None:
            return None
        case_id = self.case_id
        return self._decide(lambda s: decisions.merge(s, case_id, entry.kind, entry.name,
                                                      item_id, variant=entry.variant))

    def reject_current(self) -> Decision | None:
        """Reject the selected suggestion (X): it is not suggested again in any case of the
        workspace (until the reject is undone)."""
        entry = self.current_entry()
        if entry is None or self.case_id is None:
            return None
        case_id = self.case_id
        return self._decide(lambda s: decisions.reject(s, case_id, entry.kind, entry.name,
                                                       variant=entry.variant))

    def restore_rejected(self, kind: str, name: str) -> bool:
        """Suggest a rejected name again in every case (``rejections.restore_rejected``),
        pushed on the undo stack so Ctrl+Z rejects it again; the list reloads from the
        Changes. True if it ran (a failure is reported through the runner)."""
        case_id = self.case_id

        def restore(s: Session) -> Changes:
            return rejections.restore_rejected(s, kind, name, case_id=case_id)

        command = ActionCommand(self.runner, case_id or 0, f"Suggest {name} again", restore)
        if self.undo_stack is not None:
            self.undo_stack.push(command)
        else:
            command.redo()
        if command.changes is not None and not command.failed:
            self.decided.emit(command.changes.message)
            return True
        return False

    def prompt_rejected(self) -> RejectedNamesDialog:
        """"Rejected names…": the workspace's rejected names, to suggest again (a
        non-blocking dialog, kept in ``dialog``)."""
        dialog = RejectedNamesDialog(self, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self._open(dialog)
        return dialog

    def prompt_accept_as(self) -> RenameDialog | None:
        """Accept as… (R, F2): ask for the name (a non-blocking dialog, kept in ``dialog``)."""
        entry = self.current_entry()
        if entry is None:
            return None
        dialog = RenameDialog(entry, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self.accept_as(dialog.name()))
        self._open(dialog)
        return dialog

    def prompt_merge(self) -> MergeDialog | None:
        """Merge into… (M): choose the item with a completer over the case's items of the
        suggestion's kind (a non-blocking dialog, kept in ``dialog``)."""
        entry = self.current_entry()
        if entry is None or self.case_id is None:
            return None
        case_id = self.case_id
        choices = self.runner.read(lambda s: views.item_choices(s, case_id, (entry.kind,)))
        dialog = MergeDialog(entry, choices, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def accepted() -> None:
            chosen = dialog.chosen_item()
            if chosen is not None:
                self.merge_into(chosen.id)

        dialog.accepted.connect(accepted)
        self._open(dialog)
        return dialog

    def _open(self, dialog: QDialog) -> None:
        self.dialog = dialog
        dialog.finished.connect(lambda _r: setattr(self, "dialog", None))
        dialog.open()

    # -- refresh ------------------------------------------------------------------------------

    @Slot(object)
    def _on_case_changed(self, ch: CaseChange) -> None:
        """Read the list again when suggestions changed from elsewhere (an import, a
        suggestion run, a document deleted or re-dated); our own decisions are shown in place
        and other edits leave the list alone, so no row moves."""
        if self._applying or self.case_id is None or ch.case_id != self.case_id:
            return
        unspecified = not (ch.kinds or ch.created or ch.updated or ch.deleted or ch.documents
                           or ch.evidence or ch.cases)
        if ch.suggestions or ch.cases or ch.documents or "document" in ch.kinds or unspecified:
            self.reload()


def _place(index: QModelIndex) -> tuple[int, int]:
    """Where a row of the list is in display order: ``(group, row)``, -1 for a group row."""
    group = index.internalId() - 1  # a group row's internalId is GROUP_ID (0)
    return (group, index.row()) if group >= 0 else (index.row(), -1)


def install_suggestions_panel(window: PanelWindow) -> SuggestionsPanel:
    """Add the Suggestions panel to the main window: a dock tabbed with the Evidence dock
    (title "Suggestions (N)"), a View menu entry to show it, double-click opening the document
    at the mention, decisions reported in the status bar. Call before the window restores its
    saved layout; call :meth:`SuggestionsPanel.set_case` when the case changes."""
    panel = SuggestionsPanel(window.runner, window.qt_window(), undo_stack=window.undo_stack)
    dock = add_tabbed_dock(window.qt_window(), "Suggestions", "suggestions_dock", panel)
    toggle = dock.toggleViewAction()
    toggle.setText("&Suggestions")
    toggle.setShortcut(QKeySequence("Ctrl+Shift+S"))
    view_menu = menu_named(window.menuBar(), "View")
    if view_menu is not None:
        view_menu.addAction(toggle)
    window.addAction(toggle)
    panel.count_changed.connect(
        lambda n: dock.setWindowTitle(f"Suggestions ({n})" if n else "Suggestions"))
    panel.mention_activated.connect(
        lambda doc_id, start, end: window.open_document(doc_id, start, end))
    panel.decided.connect(lambda message: window.statusBar().showMessage(message, 6000))
    window.suggestions.install_tab_menu()
    panel.suggest_again_requested.connect(lambda: window.suggestions.suggest_again())
    return panel
