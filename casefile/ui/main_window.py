"""The main window: a shell of layout, menus and docks (ARCHITECTURE.md, "The window") around
controllers with small public interfaces — the Items page and item actions (ui.items), document
tabs (ui.document_tabs), evidence (ui.evidence_dock), import (ui.importing), the brief
(ui.exporting), suggestions (ui.suggesting). Every change goes through the OperationRunner; its
``case_changed`` reaches the window's views in one place, :meth:`MainWindow.refresh`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date

from PySide6.QtCore import QModelIndex, QSettings, Slot
from PySide6.QtGui import QCloseEvent, QDragMoveEvent, QDropEvent, QUndoStack
from PySide6.QtWidgets import QMainWindow, QMessageBox, QSplitter, QWidget

from casefile.services import questions, reading, views
from casefile.store.workspace import Workspace
from casefile.ui import window_state
from casefile.ui.auto_backup import install_auto_backup
from casefile.ui.case_archive import ArchiveController
from casefile.ui.case_views import install_case_views
from casefile.ui.dialogs import confirm_quit, open_warning
from casefile.ui.docks import show_dock
from casefile.ui.document_tabs import DocumentTabs
from casefile.ui.evidence_dock import EvidenceDock
from casefile.ui.exporting import ExportController
from casefile.ui.folder_import import install_folder_import
from casefile.ui.followups_view import FollowupsPage
from casefile.ui.ftm import FtmController
from casefile.ui.importing import ImportController
from casefile.ui.items import ItemsController
from casefile.ui.keyboard import stylesheet
from casefile.ui.models import FollowupsModel
from casefile.ui.navigator import FOLLOWUPS_KEY, CaseNavigator
from casefile.ui.ocr_runner import OcrController
from casefile.ui.operations import CaseChange, Job, OperationRunner
from casefile.ui.preferences import install_preferences
from casefile.ui.quick_open import install_quick_open
from casefile.ui.search_panel import install_search_panel
from casefile.ui.spreadsheets import SpreadsheetController
from casefile.ui.suggesting import SuggestionsController
from casefile.ui.suggestions import install_suggestions_panel
from casefile.ui.viewer import DocumentViewer
from casefile.ui.watch import install_workspace_watch
from casefile.ui.window_layout import (
    add_fixed_tab,
    central_tabs,
    enable_all,
    navigator_splitter,
    run_in_turns,
)
from casefile.ui.window_menus import MenuParts, build_menus, build_status_bar, install_keyboard

#: The status line while the window's first case is read (see ``open_now``).
OPENING_MESSAGE = "Opening case…"
#: The status line of a workspace with no case (cleared once a case is open).
NO_CASE_MESSAGE = "Create a case to begin: File ▸ New case…"


class MainWindow(QMainWindow, MenuParts):
    """The Casefile window over an open workspace; its controllers see it as a
    :class:`~casefile.ui.shell.WindowShell`.

    ``case_id`` opens that case (else the last one used in this workspace, else the first);
    ``suggest_after_import`` runs entity suggestions in the background after an import when the
    extractor is available; ``ocr_after_import`` reads scanned pages and images with OCR in
    the background after an import (then suggests on their text). Tests and scripts reach the
    controllers themselves (``items``, ``documents``, ``imports``, ``suggestions``...).
    ``today`` gives the window's date (follow-ups due, overdue; default the local date).
    ``auto_backup`` False: no automatic backups (tests; File ▸ Restore from backup… stays).
    ``open_now`` False: the case opens at a later :meth:`open_first_case`, the status line
    saying :data:`OPENING_MESSAGE` till then (the window's start: ARCHITECTURE.md).
    """

    def __init__(
        self, workspace: Workspace, *, case_id: int | None = None,
        settings: QSettings | None = None, suggest_after_import: bool = True,
        parent: QWidget | None = None, today: Callable[[], date] | None = None,
        ocr_after_import: bool = True, auto_backup: bool = True, open_now: bool = True,
    ) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.settings = settings if settings is not None else window_state.app_settings()
        self.runner = OperationRunner(workspace, self)
        self.runner.case_changed.connect(self.refresh)
        self.runner.operation_failed.connect(
            lambda message: self.report_error(message, self.runner.failure_parent))
        self.undo_stack = QUndoStack(self)
        self.clock: Callable[[], date] = today or date.today
        self.case_id: int | None = None
        self.opening = False  # a case opening over several turns (open_case's in_turns)
        self.last_job: Job | None = None
        self._quit_confirmed = False  # Quit asked already: the close that follows does not
        self.messages: list[QMessageBox] = []  # the error boxes open now
        self.pdf_passwords: dict[str, str] = {}  # sha256 -> password given this session
        self.restoring = False  # True while a backup is being restored

        self.setWindowTitle("Casefile")
        self.setAcceptDrops(True)
        self.setStyleSheet(stylesheet())  # before the children: each is polished once, at show
        self.suggestions = SuggestionsController(self, enabled=suggest_after_import)
        self.ocr = OcrController(self, enabled=ocr_after_import)
        self._build_widgets()
        self.imports = ImportController(self)
        self.exports = ExportController(self)
        self.spreadsheets = SpreadsheetController(self)
        self.ftm = FtmController(self)
        self.archives = ArchiveController(self)
        build_menus(self)
        self.suggestions_panel = install_suggestions_panel(self)
        self.case_views = install_case_views(self)
        self.folder_import = install_folder_import(self)
        self.quick_open = install_quick_open(self)
        self.search_panel = install_search_panel(self)
        self.preferences = install_preferences(self)
        install_keyboard(self)
        self.status_line = build_status_bar(self)
        window_state.restore_window_state(self, self.settings, (self.splitter, self.items.splitter))
        self.load_cases()
        self._first_case = case_id
        if open_now:
            self.open_first_case()
        else:
            self._enable_case_actions(False)
            self.statusBar().showMessage(OPENING_MESSAGE)
        self.watch = install_workspace_watch(self)  # other processes' commits, other windows
        self.auto_backup = install_auto_backup(self, enabled=auto_backup)

    def _build_widgets(self) -> None:
        self.picker = CaseNavigator()
        self.picker.case_chosen.connect(self._on_case_chosen)
        self.picker.section_chosen.connect(self._on_section_chosen)

        self.tabs = central_tabs()
        self.documents = DocumentTabs(self)
        self.items = ItemsController(self, self.documents.text)
        self.items.current_changed.connect(self.show_evidence)
        self.items.document_activated.connect(self.open_document)
        self.items.section_shown.connect(self._on_section_shown)
        self.documents.link_requested.connect(self.items.prompt_link)
        self.documents.new_item_requested.connect(self.items.create_from_span)

        self.followups_model = FollowupsModel(self._load_followups, self)
        self.followups_view: FollowupsPage = FollowupsPage(
            self.followups_model, self.runner, self.undo_stack, self.clock)
        self.followups_view.item_activated.connect(
            lambda item_id: self.select_item(item_id, "question"))
        self.followups_view.table.selectionModel().currentRowChanged.connect(
            self._on_followup_row_changed)
        self.followups_model.status_change_requested.connect(  # dated by self.clock()
            lambda question_id, status: self.case_id is not None
            and self.followups_view.change_status(question_id, status))

        add_fixed_tab(self.tabs, self.items.page, "Items")
        add_fixed_tab(self.tabs, self.followups_view, "Follow-ups")
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self.splitter: QSplitter = navigator_splitter(self.picker, self.tabs)
        self.setCentralWidget(self.splitter)

        self.evidence = EvidenceDock(self, self.items)

    # -- the shell's interface to its controllers (casefile.ui.shell.WindowShell) ------------

    def qt_window(self) -> QMainWindow:
        """This window, as the Qt parent of the controllers' dialogs, docks and timers."""
        return self

    def open_document(self, document_id: int, start: int | None = None,
                      end: int | None = None, *, asked: bool = True) -> DocumentViewer | None:
        """Open a document in a tab (:meth:`ReadingController.open_document`)."""
        return self.reading.open_document(self.documents, document_id, start, end, asked)

    def select_item(self, item_id: int, kind: str) -> bool:
        """Show an item in the Items page (:meth:`ItemsController.select_item`)."""
        return self.items.select_item(item_id, kind)

    def flush_edits(self) -> None:
        """Save the item editor's pending edits."""
        self.items.editor.flush()

    # -- settings and quitting ------------------------------------------------------------------

    def save_window_state(self) -> None:
        """Store geometry, dock layout, splitter sizes and the last case in QSettings."""
        window_state.save_window_state(self, self.settings, (self.splitter, self.items.splitter))
        if self.case_id is not None:
            self.settings.setValue(f"last_case/{self.workspace.url}", self.case_id)
        self.settings.sync()

    def record_import(self, case_id: int, document_ids: list[int],
                      attachments: Sequence[int] = ()) -> None:
        """Put an import the window ran on the undo stack (``document_ids`` the new files,
        ``attachments`` the new documents taken out of them): Ctrl+Z takes them all out
        again, Ctrl+Shift+Z brings them back. Attachments go first and come back last (each
        names its parent)."""
        from casefile.ui.undo import ImportedCommand

        if document_ids and case_id == self.case_id:
            n = len(document_ids)
            self.undo_stack.push(ImportedCommand(
                self.runner, case_id, [*attachments, *document_ids],
                f"Import {n} document{'s' if n != 1 else ''}"))
            self.watch_list.after_import(case_id, [*document_ids, *attachments])

    def quit_requested(self) -> bool:
        """File ▸ Quit (Ctrl+Q): close the window, after asking when background jobs run
        (:func:`~casefile.ui.dialogs.confirm_quit`). True when the window closed."""
        if not confirm_quit(self, self.runner.running_labels()):
            return False
        self._quit_confirmed = True
        try:
            return self.close()
        finally:
            self._quit_confirmed = False

    def closeEvent(self, event: QCloseEvent) -> None:
        # The window manager's close button asks as Quit does; a close from code (tests,
        # shutdown) does not.
        if (event.spontaneous() and not self._quit_confirmed
                and not confirm_quit(self, self.runner.running_labels())):
            event.ignore()
            return
        self.flush_edits()
        if self.runner.busy:
            self.statusBar().showMessage("Cancelling the running job…")
        self.runner.shutdown()
        self.save_window_state()
        super().closeEvent(event)

    # -- cases ----------------------------------------------------------------------------------

    def load_cases(self) -> None:
        """Fill the case list afresh (the case shown stays chosen)."""
        self.picker.set_cases(self.runner.read(views.case_titles), self.case_id)

    def open_first_case(self, *, in_turns: bool = False) -> None:
        """Open the case the window was made for: the ``case_id`` given, else the last one used
        in this workspace, else the first (none in an empty workspace); ``in_turns`` as for
        :meth:`open_case`."""
        chosen = self._first_case if self._first_case is not None else window_state.remembered_case(
            self.settings, self.workspace.url)
        ids = self.picker.case_ids()
        if self.statusBar().currentMessage() == OPENING_MESSAGE:
            self.statusBar().clearMessage()
        self.open_case(chosen if chosen in ids else (ids[0] if ids else None),
                       in_turns=in_turns)

    @Slot(int)
    def _on_case_chosen(self, case_id: int) -> None:
        if case_id != self.case_id:
            self.open_case(case_id)

    def case_title(self) -> str:
        """The open case's title ("" with none)."""
        return self.picker.case_box.currentText() if self.case_id is not None else ""

    def open_case(self, case_id: int | None, *, in_turns: bool = False) -> None:
        """Show a case (None: no case). Pending edits are saved, the undo history is cleared,
        document tabs are closed. ``in_turns``: the Suggestions panel, then the status line's
        counts and what the reading ledger says on opening, come at later turns of the event
        loop, each step short (the window's start: ARCHITECTURE.md, "The window");
        :attr:`opening` is True until the last."""
        self.flush_edits()
        self.undo_stack.clear()
        self.documents.close_all()
        self.case_id = case_id
        if case_id is not None:
            self.picker.select_case(case_id)
            self.settings.setValue(f"last_case/{self.workspace.url}", case_id)
            self._show_title()
            if self.statusBar().currentMessage() == NO_CASE_MESSAGE:
                self.statusBar().clearMessage()
        else:
            self.setWindowTitle("Casefile")
            self.statusBar().showMessage(NO_CASE_MESSAGE)
        self._enable_case_actions(case_id is not None)
        def status() -> None:
            self._refresh_counts()
            self.reading.set_case(case_id)

        later = (lambda: self.suggestions_panel.set_case(case_id), status)
        self.case_views.set_case(case_id)
        self.search_panel.set_case(case_id)
        self.followups_model.reload() if case_id is not None else self.followups_model.clear()
        self.items.set_case(case_id)
        self.watch_list.reload()
        self.opening = in_turns
        if in_turns:
            run_in_turns(self, later, still=lambda: case_id == self.case_id,
                         then=lambda: setattr(self, "opening", False))
        else:
            for step in later:
                step()

    def _enable_case_actions(self, enabled: bool) -> None:
        enable_all((self.import_action, self.export_action, self.export_confidential_action,
                    self.export_archive_action, self.export_xlsx_action, self.export_csv_action,
                    self.import_table_action, self.export_ftm_action, self.import_ftm_action,
                    *self.case_menu.actions), enabled)

    def _show_title(self) -> None:
        self.setWindowTitle(f"{self.picker.case_box.currentText()} — Casefile")

    @Slot(str)
    def _on_section_chosen(self, key: str) -> None:
        if key == FOLLOWUPS_KEY:
            self.tabs.setCurrentWidget(self.followups_view)
        else:
            self.items.show_section(key)

    @Slot(str)
    def _on_section_shown(self, kind: str) -> None:
        self.tabs.setCurrentWidget(self.items.page)
        self.picker.mark(kind)

    def find_or_filter(self) -> None:
        """Ctrl+F: the find bar of the document tab being shown; elsewhere the section filter
        (:meth:`focus_filter`)."""
        widget = self.tabs.currentWidget()
        if isinstance(widget, DocumentViewer):
            widget.open_find_bar()
        else:
            self.focus_filter()

    def focus_filter(self) -> None:
        """Ctrl+F: show the items table and put the cursor in its filter box."""
        self.tabs.setCurrentWidget(self.items.page)
        self.items.focus_filter()

    def show_followups(self) -> None:
        """Show the follow-ups view."""
        self.tabs.setCurrentWidget(self.followups_view)

    def undo(self) -> None:
        """Ctrl+Z: save pending edits, then undo the last action."""
        self.flush_edits()
        self.undo_stack.undo()

    def redo(self) -> None:
        """Ctrl+Shift+Z: redo the last undone action."""
        self.flush_edits()
        self.undo_stack.redo()

    @Slot(int, int, int)
    def open_passage(self, document_id: int, start: int, end: int) -> None:
        """Open a document at ``text[start:end]`` (the whole document when start < 0)."""
        whole = start < 0 or end <= start
        self.open_document(document_id, None if whole else start, None if whole else end)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        if self.imports.accepts(event.mimeData().urls()):
            event.acceptProposedAction()
        else:
            event.ignore()

    dragEnterEvent = dragMoveEvent

    def dropEvent(self, event: QDropEvent) -> None:
        if not self.imports.accepts(event.mimeData().urls()):
            event.ignore()
            return
        event.acceptProposedAction()
        self.imports.drop(event.mimeData().urls())

    @Slot(int)
    def _on_tab_changed(self, index: int) -> None:
        widget = self.tabs.widget(index)
        if widget is self.followups_view:
            table = self.followups_view.table
            if table.currentIndex().isValid():
                self._on_followup_row_changed(table.currentIndex(), QModelIndex())
            else:
                self.show_evidence(None)
        elif widget is self.items.page:
            self.show_evidence(self.items.current_item_id())
        key = FOLLOWUPS_KEY if widget is self.followups_view else (
            self.items.kind if widget is self.items.page else None)
        if key is not None:
            self.picker.mark(key)

    @Slot(QModelIndex, QModelIndex)
    def _on_followup_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        # only while on show: a reload of the hidden table must not swap the Evidence panel
        if current.isValid() and self.tabs.currentWidget() is self.followups_view:
            self.show_evidence(int(self.followups_model.row_at(current.row()).id))

    # -- refresh --------------------------------------------------------------------------------

    @Slot(object)
    def show_evidence(self, item_id: int | None, raise_dock: bool = False) -> None:
        """Show an item's evidence (None: empty); ``raise_dock`` brings its dock forward."""
        self.evidence.show_item(item_id)
        if raise_dock:
            show_dock(self.evidence.dock, focus=False)

    @Slot(object)
    def refresh(self, ch: CaseChange) -> None:
        """The one place the window's views refresh after a change (ARCHITECTURE.md, "One way in
        for changes")."""
        if ch.message and ch.case_id == self.case_id:  # what the action (or its undo) did
            self.notify(ch.message, 8000)
        if ch.cases:
            self.load_cases()
            ids = self.picker.case_ids()
            if self.case_id is not None and self.case_id not in ids:  # deleted (here or not)
                self.open_case(ids[0] if ids else None)
                return
            if self.case_id is None and ids:  # the first case, made here or by another program
                self.open_case(ch.case_id if ch.case_id in ids else ids[0])
                return
            if self.case_id is not None:
                self._show_title()  # renamed, perhaps
        if ch.case_id is None or ch.case_id != self.case_id:
            return
        self._refresh_counts()
        self.items.on_case_changed(ch)
        if ch.touches("question") or ch.structural:
            self.followups_model.reload()
        self.evidence.on_case_changed(ch, self.items.current_item_id())
        self.documents.on_case_changed(ch)

    def _refresh_counts(self) -> None:
        if self.case_id is None:
            self.picker.set_counts(None)
            self.status_line.show_status(None)
            return
        case_id, today = self.case_id, self.clock()
        status, reviewed, open_count = self.runner.read(lambda s: (
            views.case_status(s, case_id, today=today), reading.reading_summary(s, case_id),
            questions.followup_view_counts(s, case_id, ("open",), today=today)["open"]))
        self.picker.set_counts(status.counts, open_count)
        self.status_line.show_status(status, reviewed)

    def _load_followups(self) -> list[questions.FollowUp]:
        ready = self.case_id is not None and hasattr(self, "followups_view")
        return self.followups_view.load() if ready else []

    # -- messages and jobs ----------------------------------------------------------------------

    def notify(self, message: str, timeout_ms: int = 6000) -> None:
        """Say ``message`` in the status bar for ``timeout_ms`` milliseconds (0: until the next)."""
        self.statusBar().showMessage(message, timeout_ms)

    @Slot(str)
    def report_error(self, message: str, parent: QWidget | None = None) -> QMessageBox:
        """Say a failure in the status bar and in a warning box (window-modal, not blocking)
        parented to ``parent`` (default the window); returns the box."""
        self.statusBar().showMessage(message, 10000)
        return open_warning(parent or self, message, self.messages)
