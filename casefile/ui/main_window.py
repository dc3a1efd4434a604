"""The main window: a shell of layout, menus and docks (ARCHITECTURE.md, "The window") around
controllers with small public interfaces — the Items page and item actions (ui.items), document
tabs (ui.document_tabs), evidence (ui.evidence_dock), import (ui.importing), the brief
(ui.exporting), suggestions (ui.suggesting). Every change goes through the OperationRunner; its
``case_changed`` reaches the window's views in one place, :meth:`MainWindow.refresh`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from typing import Any

from PySide6.QtCore import QModelIndex, QSettings, Qt, Slot
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QKeySequence,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QDockWidget,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QWidget,
)

from casefile.services import cases, questions, views
from casefile.services.changes import changes
from casefile.store.items import ITEM_KINDS
from casefile.store.workspace import Workspace
from casefile.ui.actions import undo_redo_actions
from casefile.ui.auto_backup import install_auto_backup
from casefile.ui.backup_restore import install_backup_restore
from casefile.ui.case_archive import ArchiveController
from casefile.ui.case_menu import install_case_menu
from casefile.ui.case_views import install_case_views
from casefile.ui.dialogs import NewCaseDialog
from casefile.ui.docks import focusing_view_action, show_dock
from casefile.ui.document_tabs import DocumentTabs
from casefile.ui.evidence_dock import EvidenceDock
from casefile.ui.exporting import ExportController
from casefile.ui.folder_import import install_folder_import
from casefile.ui.followups_view import FollowupsPage
from casefile.ui.ftm import FtmController
from casefile.ui.help import HelpMenu
from casefile.ui.importing import ImportController
from casefile.ui.items import ItemsController
from casefile.ui.keyboard import GlobalShortcuts, install_tab_switching, stylesheet
from casefile.ui.models import FollowupsModel
from casefile.ui.navigator import FOLLOWUPS_KEY, CaseNavigator
from casefile.ui.ocr_runner import OcrController
from casefile.ui.operations import CaseChange, Job, OperationRunner, change
from casefile.ui.preferences import install_preferences
from casefile.ui.quick_open import install_quick_open
from casefile.ui.reading import ReadingController
from casefile.ui.search_panel import install_search_panel
from casefile.ui.spreadsheets import SpreadsheetController
from casefile.ui.status_line import MessageBar, StatusLine
from casefile.ui.suggesting import SuggestionsController
from casefile.ui.suggestions_panel import install_suggestions_panel
from casefile.ui.trash_dialog import install_trash
from casefile.ui.viewer import DocumentViewer
from casefile.ui.watch import install_workspace_watch
from casefile.ui.watch_list import install_watch_list
from casefile.ui.window_state import remembered_case, restore_window_state, save_window_state
from casefile.ui.workspace_menu import install_workspace_actions


def app_settings() -> QSettings:
    """The application's settings (organization and application "Casefile", INI format).

    Tests redirect the INI location with ``QSettings.setPath`` so they never touch the user's.
    """
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "Casefile", "Casefile")


#: The status line of a workspace with no case (cleared once a case is open).
NO_CASE_MESSAGE = "Create a case to begin: File ▸ New case…"


class MainWindow(QMainWindow):
    """The Casefile window over an open workspace.

    ``case_id`` opens that case (else the last one used in this workspace, else the first);
    ``suggest_after_import`` runs entity suggestions in the background after an import when the
    extractor is available; ``ocr_after_import`` reads scanned pages and images with OCR in
    the background after an import (then suggests on their text). ``runner`` and
    ``undo_stack`` are public for tests and scripts.
    ``today`` gives the window's date (follow-ups due, overdue; default the local date).
    ``auto_backup`` False: no automatic backups (tests; File ▸ Restore from backup… stays).
    """

    def __init__(
        self, workspace: Workspace, *, case_id: int | None = None,
        settings: QSettings | None = None, suggest_after_import: bool = True,
        parent: QWidget | None = None, today: Callable[[], date] | None = None,
        ocr_after_import: bool = True,
        auto_backup: bool = True,
    ) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.settings = settings if settings is not None else app_settings()
        self.runner = OperationRunner(workspace, self)
        self.runner.case_changed.connect(self.refresh)
        self.runner.operation_failed.connect(
            lambda message: self.report_error(message, self.runner.failure_parent))
        self.undo_stack = QUndoStack(self)
        self.clock: Callable[[], date] = today or date.today
        self.case_id: int | None = None
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
        self.prompt_import, self.import_files = self.imports.prompt, self.imports.import_files
        self.prompt_export, self.export_brief = self.exports.prompt, self.exports.export_brief
        self._build_actions()
        self.suggestions_panel = install_suggestions_panel(self)
        self.case_views = install_case_views(self)
        self.folder_import = install_folder_import(self)
        self.quick_open = install_quick_open(self)
        self.search_panel = install_search_panel(self)
        self.preferences = install_preferences(self)
        self._install_keyboard()
        self._build_status_bar()
        restore_window_state(self, self.settings, (self.splitter, self.items_splitter))
        self._load_cases()
        chosen = case_id if case_id is not None else remembered_case(self.settings,
                                                                     self.workspace.url)
        ids = self.picker.case_ids()
        self.open_case(chosen if chosen in ids else (ids[0] if ids else None))
        self.watch = install_workspace_watch(self)  # other processes' commits, other windows
        self.auto_backup = install_auto_backup(self, enabled=auto_backup)

    def _build_widgets(self) -> None:
        self.picker = CaseNavigator()
        self.case_box, self.navigator = self.picker.case_box, self.picker.navigator
        self.new_case_button = self.picker.new_case_button
        self.picker.case_chosen.connect(self._on_case_chosen)
        self.picker.section_chosen.connect(self._on_section_chosen)

        self.tabs = QTabWidget()
        self.tabs.setObjectName("tabs")
        self.tabs.setDocumentMode(True)
        self.tabs.setTabsClosable(True)
        self.tabs.setMovable(False)
        self.documents = DocumentTabs(self)
        self.viewers = self.documents.viewers
        self.items = ItemsController(self, self.documents.text)
        # thin delegations, for tests and scripts (the controllers do the work)
        self.open_document, self.close_document = self.documents.open, self.documents.close
        self.show_section, self.select_item = self.items.show_section, self.items.select_item
        self.current_item_id = self.items.current_item_id
        self.selected_item_ids = self.items.selected_item_ids
        self.new_item, self.create_item = self.items.new_item, self.items.create_item
        self.delete_selected, self.link_span = self.items.delete_selected, self.items.link_span
        self.start_suggestions = self.suggestions.start
        self.items.current_changed.connect(self.show_evidence)
        self.items.document_activated.connect(self.open_document)
        self.items.section_shown.connect(self._on_section_shown)
        self.documents.link_requested.connect(self.items.prompt_link)
        self.documents.new_item_requested.connect(self.items.create_from_span)
        self.items_page: QWidget = self.items.page
        self.editor, self.table = self.items.editor, self.items.table
        self.proxy, self.filter_edit = self.items.proxy, self.items.filter_edit
        self.items_splitter: QSplitter = self.items.splitter
        self.new_item_button = self.items.new_item_button
        self.delete_item_button = self.items.delete_item_button

        self.followups_model = FollowupsModel(self._load_followups, self)
        self.followups_model.status_change_requested.connect(self._on_status_change_requested)
        self.followups_view: FollowupsPage = FollowupsPage(
            self.followups_model, self.runner, self.undo_stack, self.clock)
        self.followups_view.item_activated.connect(
            lambda item_id: self.select_item(item_id, "question"))
        self.followups_view.table.selectionModel().currentRowChanged.connect(
            self._on_followup_row_changed)

        self.tabs.addTab(self.items_page, "Items")
        self.tabs.addTab(self.followups_view, "Follow-ups")
        for n in (0, 1):
            for side in (self.tabs.tabBar().ButtonPosition.RightSide,
                         self.tabs.tabBar().ButtonPosition.LeftSide):
                self.tabs.tabBar().setTabButton(n, side, None)
        self.tabs.currentChanged.connect(self._on_tab_changed)

        self.splitter: QSplitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("main_splitter")
        self.splitter.addWidget(self.picker)
        self.splitter.addWidget(self.tabs)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([200, 740])
        self.setCentralWidget(self.splitter)

        self.evidence = EvidenceDock(self, self.items)
        self.evidence_panel, self.evidence_dock = self.evidence.panel, self.evidence.dock

    def _build_actions(self) -> None:
        menu = self.menuBar()
        file_menu = menu.addMenu("&File")
        self.new_case_action = file_menu.addAction("&New case…", self.prompt_new_case)
        self.new_case_button.clicked.connect(self.prompt_new_case)
        file_menu.addSeparator()
        self.import_action = file_menu.addAction("&Import documents…", self.prompt_import)
        self.import_action.setShortcut(QKeySequence("Ctrl+I"))
        import_menu = file_menu.addMenu("Import &from")
        self.import_table_action = import_menu.addAction(
            "&Spreadsheet of people or organizations…", self.spreadsheets.prompt_import)
        self.import_ftm_action = import_menu.addAction("&FollowTheMoney…",
                                                       self.ftm.prompt_import)
        self.import_archive_action = file_menu.addAction("Import case a&rchive…",
                                                         self.archives.prompt_import)
        file_menu.addSeparator()
        self.export_action = file_menu.addAction("&Export brief…", self.prompt_export)
        self.export_action.setShortcut(QKeySequence("Ctrl+E"))
        self.export_confidential_action = file_menu.addAction(
            "Export brief with &confidential sources…",
            lambda: self.prompt_export(include_confidential=True))
        export_menu = file_menu.addMenu("Export &case as")
        self.export_xlsx_action = export_menu.addAction("&Excel workbook (.xlsx)…",
                                                        self.spreadsheets.prompt_xlsx)
        self.export_csv_action = export_menu.addAction("&CSV files…",
                                                       self.spreadsheets.prompt_csv)
        self.export_ftm_action = export_menu.addAction("&FollowTheMoney (.ftm.json)…",
                                                       self.ftm.prompt_export)
        self.export_archive_action = file_menu.addAction("Export case &archive…",
                                                         self.archives.prompt_export)
        file_menu.addSeparator()
        install_workspace_actions(self, file_menu)
        self.backup_restore = install_backup_restore(self, file_menu)
        self.trash = install_trash(self, file_menu)
        file_menu.addSeparator()
        quit_action = file_menu.addAction("&Quit", self.quit_requested)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)

        edit_menu = menu.addMenu("&Edit")
        self.undo_action, self.redo_action = undo_redo_actions(self, self.undo_stack, self.undo,
                                                               self.redo)
        self.new_item_action = self.items.new_item_action
        self.delete_action = self.items.delete_action
        edit_menu.addActions([self.undo_action, self.redo_action])
        edit_menu.addSeparator()
        edit_menu.addActions([self.new_item_action, self.delete_action])
        edit_menu.addSeparator()
        self.find_action = QAction("&Find / filter", self)
        self.find_action.setShortcut(QKeySequence("Ctrl+F"))
        self.find_action.setStatusTip("Find in the open document, or filter the section table")
        self.find_action.triggered.connect(self.find_or_filter)
        edit_menu.addAction(self.find_action)

        view_menu = menu.addMenu("&View")
        self.followups_action = view_menu.addAction("&Follow-ups", self.show_followups)
        self.followups_action.setShortcut(QKeySequence("Ctrl+U"))
        view_menu.addAction(self.evidence_dock.toggleViewAction())
        self.view_menu = view_menu
        self.reading = ReadingController(self, menu.addMenu("&Reading"))
        case_menu = menu.addMenu("&Case")
        self.case_menu = install_case_menu(self, case_menu)
        self.watch_list = install_watch_list(self, case_menu)
        self.help = HelpMenu(self, menu.addMenu("&Help"))
        for action in (self.import_action, self.export_action, self.export_confidential_action,
                       self.new_item_action, self.delete_action, self.find_action,
                       self.followups_action, self.undo_action, self.redo_action):
            self.addAction(action)

        toolbar = self.addToolBar("Main")
        toolbar.setObjectName("main_toolbar")
        toolbar.setMovable(False)
        toolbar.addActions([self.import_action, self.export_action])
        toolbar.addSeparator()
        toolbar.addActions([self.undo_action, self.redo_action])

    def _install_keyboard(self) -> None:
        """Docks shown and focused from the View menu; global keys; tab switching; focus."""
        docks = [d for d in self.findChildren(QDockWidget) if d.objectName().endswith("_dock")]
        self.docks = {d.objectName(): d for d in docks}
        self.dock_actions = {name: focusing_view_action(self, d) for name, d in self.docks.items()}
        self.view_menu.addSeparator()
        self.next_tab_action, self.previous_tab_action = install_tab_switching(self, self.tabs)
        self.view_menu.addActions([self.next_tab_action, self.previous_tab_action])
        self.shortcuts = GlobalShortcuts(self, [
            self.import_action, self.export_action, self.quick_open.action,
            self.followups_action, *[a for a in [self.search_panel.action] if a is not None],
            self.next_tab_action, self.previous_tab_action, *self.dock_actions.values()])

    def _build_status_bar(self) -> None:
        self.setStatusBar(MessageBar(self))
        self.status_line = StatusLine(self.statusBar(), self.runner, self.workspace.label)
        line = self.status_line
        self.counts_label, self.due_label = line.counts_label, line.due_label
        self.workspace_label, self.job_bar = line.workspace_label, line.job_bar

    # -- settings -------------------------------------------------------------------------------

    def save_window_state(self) -> None:
        """Store geometry, dock layout, splitter sizes and the last case in QSettings."""
        save_window_state(self, self.settings, (self.splitter, self.items_splitter))
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
        (:meth:`confirm_quit_while_busy`). True when the window closed."""
        if not self.confirm_quit_while_busy():
            return False
        self._quit_confirmed = True
        try:
            return self.close()
        finally:
            self._quit_confirmed = False

    def confirm_quit_while_busy(self) -> bool:
        """True when nothing runs in the background, or the reporter chose to quit anyway:
        running jobs are then cancelled (what an import stored stays; the documents a
        suggestion run had not read yet get no suggestions until "Suggest again")."""
        running = self.runner.running_labels()
        if not running:
            return True
        box = QMessageBox(
            QMessageBox.Icon.Question, "Quit while a job runs?",
            "Still running:\n" + "\n".join(f"  • {label}" for label in running)
            + "\n\nQuit now and stop it? What is finished is kept; what is not done yet "
            "(e.g. suggestions for the documents not read yet) is not.", parent=self)
        quit_button = box.addButton("Stop and quit", QMessageBox.ButtonRole.DestructiveRole)
        wait_button = box.addButton("Keep working", QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(wait_button)
        box.exec()
        return box.clickedButton() is quit_button

    def closeEvent(self, event: QCloseEvent) -> None:
        # The window manager's close button asks as Quit does; a close from code (tests,
        # shutdown) does not.
        if (event.spontaneous() and not self._quit_confirmed
                and not self.confirm_quit_while_busy()):
            event.ignore()
            return
        self.editor.flush()
        if self.runner.busy:
            self.statusBar().showMessage("Cancelling the running job…")
        self.runner.shutdown()
        self.save_window_state()
        super().closeEvent(event)

    # -- cases ----------------------------------------------------------------------------------

    def _load_cases(self) -> None:
        self.picker.set_cases(self.runner.read(views.case_titles), self.case_id)

    @Slot(int)
    def _on_case_chosen(self, case_id: int) -> None:
        if case_id != self.case_id:
            self.open_case(case_id)

    def case_title(self) -> str:
        """The open case's title ("" with none)."""
        return self.case_box.currentText() if self.case_id is not None else ""

    def open_case(self, case_id: int | None) -> None:
        """Show a case (None: no case). Pending edits are saved, the undo history is cleared,
        document tabs are closed."""
        self.editor.flush()
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
        for action in (self.import_action, self.export_action, self.export_confidential_action,
                       self.export_archive_action, self.export_xlsx_action,
                       self.export_csv_action, self.import_table_action,
                       self.export_ftm_action, self.import_ftm_action,
                       *self.case_menu.actions):
            action.setEnabled(case_id is not None)
        self._refresh_counts()
        self.suggestions_panel.set_case(case_id)
        self.case_views.set_case(case_id)
        self.search_panel.set_case(case_id)
        self.followups_model.reload() if case_id is not None else self.followups_model.clear()
        self.items.set_case(case_id)
        self.reading.set_case(case_id)
        self.watch_list.reload()

    def _show_title(self) -> None:
        self.setWindowTitle(f"{self.case_box.currentText()} — Casefile")

    def prompt_new_case(self) -> int | None:
        """Ask for a title and a summary (:class:`NewCaseDialog`) and create the case; returns
        its id (None when cancelled or refused)."""
        def refusal(title: str) -> str | None:
            return self.runner.read(lambda s: cases.title_refusal(s, title))

        title, summary = "", None
        while True:
            answer = NewCaseDialog.ask(self, refusal, title, summary)
            if answer is None:
                return None
            case_id = self.create_case(*answer)
            if case_id is not None:
                return case_id
            # refused after all (a case another writer made meanwhile): ask again, as typed
            title, summary = answer

    def create_case(self, title: str, summary: str | None = None) -> int | None:
        """Create a case and open it; returns its id (None when the title is refused)."""
        out = self.runner.run(
            lambda s: cases.create_case(s, title, summary).id,
            change=lambda cid: change(cid, cases=True, label="new case"), label="creating a case")
        if out.ok and out.value is not None:
            self.open_case(out.value)
            return out.value
        return None

    def reload_workspace(self) -> str | None:
        """Show the workspace afresh after its content was replaced (a restored backup): the
        case list, the case (this one when it is still there, else the first), every view
        (one Changes that reloads them all); the undo history is cleared. Returns the title of
        the case shown before when it is no longer there (another case, or none, is shown
        now: :meth:`case_title`), else None."""
        before, before_title = self.case_id, self.case_title()
        self._load_cases()
        ids = self.picker.case_ids()
        self.open_case(self.case_id if self.case_id in ids else (ids[0] if ids else None))
        self.watch.rebase()  # the change log seen before is not this one's
        if self.case_id is not None:
            self.runner.case_changed.emit(changes(
                self.case_id, kinds=ITEM_KINDS, evidence=True, suggestions=True, cases=True,
                label="restore from backup"))
        return before_title if before is not None and before not in ids else None

    # -- sections, tabs and delegations to the controllers ----------------------------------

    @property
    def kind(self) -> str:
        """The item kind of the section shown in the Items page."""
        return self.items.kind

    @property
    def link_dialog(self) -> Any:
        """The "Link as evidence…" dialog while it is open, else None."""
        return self.items.link_dialog

    @property
    def suggest_after_import(self) -> bool:
        """Whether an import runs entity suggestions afterwards."""
        return self.suggestions.enabled

    @suggest_after_import.setter
    def suggest_after_import(self, value: bool) -> None:
        self.suggestions.enabled = value

    @Slot(str)
    def _on_section_chosen(self, key: str) -> None:
        if key == FOLLOWUPS_KEY:
            self.tabs.setCurrentWidget(self.followups_view)
        else:
            self.show_section(key)

    @Slot(str)
    def _on_section_shown(self, kind: str) -> None:
        self.tabs.setCurrentWidget(self.items_page)
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
        if self.tabs.currentWidget() is not self.items_page:
            self.tabs.setCurrentWidget(self.items_page)
        self.items.focus_filter()

    def show_followups(self) -> None:
        """Show the follow-ups view."""
        self.tabs.setCurrentWidget(self.followups_view)

    def undo(self) -> None:
        """Ctrl+Z: save pending edits, then undo the last action."""
        self.editor.flush()
        self.undo_stack.undo()

    def redo(self) -> None:
        """Ctrl+Shift+Z: redo the last undone action."""
        self.editor.flush()
        self.undo_stack.redo()

    @Slot(int, int, int)
    def open_passage(self, document_id: int, start: int, end: int) -> None:
        """Open a document at ``text[start:end]`` (the whole document when start < 0)."""
        if start >= 0 and end > start:
            self.open_document(document_id, start, end)
        else:
            self.open_document(document_id)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if self.imports.accepts(event.mimeData().urls()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: Any) -> None:
        if self.imports.accepts(event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        if not self.imports.accepts(event.mimeData().urls()):
            event.ignore()
            return
        event.acceptProposedAction()
        self.imports.drop(event.mimeData().urls())

    @Slot(int, str)
    def _on_status_change_requested(self, question_id: int, status: str) -> None:
        if self.case_id is not None:
            self.followups_view.change_status(question_id, status)  # dated by self.clock()

    @Slot(int)
    def _on_tab_changed(self, index: int) -> None:
        widget = self.tabs.widget(index)
        if widget is self.followups_view:
            table = self.followups_view.table
            if table.currentIndex().isValid():
                self._on_followup_row_changed(table.currentIndex(), QModelIndex())
            else:
                self.show_evidence(None)
        elif widget is self.items_page:
            self.show_evidence(self.current_item_id())
        key = FOLLOWUPS_KEY if widget is self.followups_view else (
            self.kind if widget is self.items_page else None)
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
            self._load_cases()
            ids = self.picker.case_ids()
            if self.case_id is not None and self.case_id not in ids:  # deleted (here or not)
                self.open_case(ids[0] if ids else None)
                return
            if self.case_id is not None:
                self._show_title()  # renamed, perhaps
        if ch.case_id is None or ch.case_id != self.case_id:
            return
        self._refresh_counts()
        self.items.on_case_changed(ch)
        if ch.touches("question") or ch.structural:
            self.followups_model.reload()
        self.evidence.on_case_changed(ch, self.current_item_id())
        self.documents.on_case_changed(ch)

    def _refresh_counts(self) -> None:
        if self.case_id is None:
            self.picker.set_counts(None)
            self.status_line.show_status(None)
            return
        case_id, today = self.case_id, self.clock()
        status = self.runner.read(lambda s: views.case_status(s, case_id, today=today))
        open_count = self.runner.read(lambda s: questions.followup_view_counts(
            s, case_id, ("open",), today=today))["open"]
        self.picker.set_counts(status.counts, open_count)
        self.status_line.show_status(status)

    def _load_followups(self) -> list[questions.FollowUp]:
        if self.case_id is None:
            return []
        return self.followups_view.load() if hasattr(self, "followups_view") else []

    # -- messages and jobs ----------------------------------------------------------------------

    def notify(self, message: str, timeout_ms: int = 6000) -> None:
        """Say ``message`` in the status bar for ``timeout_ms`` milliseconds (0: until the next)."""
        self.statusBar().showMessage(message, timeout_ms)

    @Slot(str)
    def report_error(self, message: str, parent: QWidget | None = None) -> QMessageBox:
        """Say a failure in the status bar and in a warning box (window-modal, not blocking)
        parented to ``parent`` (default the window); returns the box."""
        self.statusBar().showMessage(message, 10000)
        box = QMessageBox(QMessageBox.Icon.Warning, "Casefile", message,
                          QMessageBox.StandardButton.Ok, parent or self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.finished.connect(lambda _r, b=box: self.messages.remove(b)
                             if b in self.messages else None)
        self.messages.append(box)
        box.open()
        return box
