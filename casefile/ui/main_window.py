"""The main window: case picker and navigator, the section table with its editor, the evidence
panel, the follow-ups view and document viewers (DESIGN.md, "Desktop app").

Every change goes through :class:`~casefile.ui.operations.OperationRunner` (mostly wrapped in
undoable commands, :mod:`casefile.ui.undo`); the window refreshes its views in one place,
:meth:`MainWindow._on_case_changed`, from the ``case_changed`` signal.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from datetime import date
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QByteArray,
    QItemSelectionModel,
    QModelIndex,
    QSettings,
    Qt,
    QTimer,
    Slot,
)
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QKeySequence,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)
from sqlalchemy.orm import Session

from casefile.errors import CasefileError
from casefile.ingest import PdfPasswordError
from casefile.services import brief, cases, documents, evidence, questions, views
from casefile.services.views import ItemChoice
from casefile.store.workspace import Workspace
from casefile.ui.case_views import install_case_views
from casefile.ui.dialogs import LinkDialog
from casefile.ui.editor import ItemEditor
from casefile.ui.folder_import import install_folder_import
from casefile.ui.followups_view import FollowupsPage
from casefile.ui.models import (
    ID_ROLE,
    SECTION_TITLES,
    FollowupsModel,
    ItemTableModel,
    SectionProxyModel,
)
from casefile.ui.operations import Cancelled, CaseChange, Job, OperationRunner, change
from casefile.ui.panels import EvidencePanel
from casefile.ui.passwords import ask_pdf_password
from casefile.ui.pdf_pages import install_pdf_pages
from casefile.ui.quick_open import install_quick_open
from casefile.ui.search_panel import install_search_panel
from casefile.ui.suggestions_panel import install_suggestions_panel
from casefile.ui.undo import (
    CreateItemCommand,
    DeleteItemsCommand,
    EditItemCommand,
    LinkSpanCommand,
    RelationCommand,
    UnlinkCommand,
)
from casefile.ui.viewer import DocumentViewer

log = logging.getLogger(__name__)

FOLLOWUPS_KEY = "followups"
KIND_SINGULAR = {
    "person": "person", "organization": "organization", "place": "place",
    "document": "document", "event": "event", "claim": "claim", "question": "question",
}
NEW_TITLES = {
    "person": "New person", "organization": "New organization", "place": "New place",
    "document": "New note", "event": "New event", "claim": "New claim", "question": "New question",
}


def suggestions_available() -> bool:
    """True when the entity extractor (issue 4) is installed: imports then run suggestions."""
    try:
        from casefile.extract import extract_suggestions  # noqa: F401
    except ImportError:
        return False
    return True


def app_settings() -> QSettings:
    """The application's settings (organization and application "Casefile", INI format).

    Tests redirect the INI location with ``QSettings.setPath`` so they never touch the user's.
    """
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "Casefile",
                     "Casefile")


class SectionTable(QTableView):
    """The section table. Ctrl+End (and End) first loads the pages not fetched yet, so the jump
    lands on the real last row rather than the last loaded one."""

    def keyPressEvent(self, event: Any) -> None:
        if event.key() == Qt.Key.Key_End:
            model = self.model()
            source = model.sourceModel() if isinstance(model, SectionProxyModel) else None
            if isinstance(source, ItemTableModel):
                source.fetch_all()
        super().keyPressEvent(event)


class MainWindow(QMainWindow):
    """The Casefile window over an open workspace.

    ``case_id`` opens that case (else the last one used in this workspace, else the first);
    ``suggest_after_import`` runs entity suggestions in the background after an import when the
    extractor is available. ``runner`` and ``undo_stack`` are public for tests and scripts.
    ``today`` gives the window's date (follow-ups due, overdue; default the local date), so
    tests can set the clock.
    """

    def __init__(
        self, workspace: Workspace, *, case_id: int | None = None,
        settings: QSettings | None = None, suggest_after_import: bool = True,
        parent: QWidget | None = None, today: Callable[[], date] | None = None,
    ) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.settings = settings if settings is not None else app_settings()
        self.suggest_after_import = suggest_after_import
        self.runner = OperationRunner(workspace, self)
        self.runner.case_changed.connect(self._on_case_changed)
        self.runner.operation_failed.connect(self._on_operation_failed)
        self.runner.job_started.connect(self._on_job_started)
        self.runner.job_finished.connect(self._on_job_finished)
        self.undo_stack = QUndoStack(self)
        self.clock: Callable[[], date] = today or date.today
        self.case_id: int | None = None
        self.kind = "person"
        self.section_model: ItemTableModel | None = None
        self.viewers: dict[int, DocumentViewer] = {}
        self.link_dialog: LinkDialog | None = None
        self.last_job: Job | None = None
        self._sort_by_kind: dict[str, tuple[int, Qt.SortOrder]] = {}
        self._messages: list[QMessageBox] = []
        self.pdf_passwords: dict[str, str] = {}  # sha256 -> password given this session

        self.setWindowTitle("Casefile")
        self.setAcceptDrops(True)
        self._build_widgets()
        self._build_actions()
        self.suggestions_panel = install_suggestions_panel(self)
        self.case_views = install_case_views(self)
        self.folder_import = install_folder_import(self)
        self.quick_open = install_quick_open(self)
        self.search_panel = install_search_panel(self)
        self._build_status_bar()
        self._restore_window_state()
        self._load_cases()
        chosen = case_id if case_id is not None else self._remembered_case()
        ids = [self.case_box.itemData(i) for i in range(self.case_box.count())]
        if chosen not in ids:
            chosen = ids[0] if ids else None
        self.open_case(chosen)

    # -- construction -------------------------------------------------------------------------

    def _build_widgets(self) -> None:
        # left: case picker and navigator
        self.case_box = QComboBox()
        self.case_box.setObjectName("case_box")
        self.case_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.case_box.setMinimumContentsLength(12)
        self.case_box.activated.connect(self._on_case_box_activated)
        self.new_case_button = QPushButton("New case…")
        self.navigator = QListWidget()
        self.navigator.setObjectName("navigator")
        for kind, title in SECTION_TITLES.items():
            entry = QListWidgetItem(title)
            entry.setData(Qt.ItemDataRole.UserRole, kind)
            self.navigator.addItem(entry)
        entry = QListWidgetItem("Follow-ups")
        entry.setData(Qt.ItemDataRole.UserRole, FOLLOWUPS_KEY)
        self.navigator.addItem(entry)
        self.navigator.currentItemChanged.connect(self._on_navigator_changed)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(6, 6, 0, 6)
        case_label = QLabel("Case")
        left_layout.addWidget(case_label)
        left_layout.addWidget(self.case_box)
        left_layout.addWidget(self.new_case_button)
        left_layout.addSpacing(6)
        left_layout.addWidget(self.navigator, 1)

        # centre: items page (filter, table, editor), follow-ups page, document tabs
        self.filter_edit = QLineEdit()
        self.filter_edit.setObjectName("filter_edit")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_timer = QTimer(self)
        self.filter_timer.setSingleShot(True)
        self.filter_timer.setInterval(120)
        self.filter_timer.timeout.connect(self._apply_filter)
        self.filter_edit.textChanged.connect(lambda _t: self.filter_timer.start())
        self.new_item_button = QPushButton("New")
        self.delete_item_button = QPushButton("Delete")
        self.section_label = QLabel()
        self.section_label.setTextFormat(Qt.TextFormat.PlainText)
        self.proxy = SectionProxyModel(self)
        self.table = SectionTable()
        self.table.setObjectName("section_table")
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 10)
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.horizontalHeader().setHighlightSections(False)
        self.table.doubleClicked.connect(self._on_table_double_clicked)
        self.editor = ItemEditor(self._choices, runner=self.runner)
        self.editor.changes_ready.connect(self._on_editor_changes_ready)
        editor_scroll = QScrollArea()
        editor_scroll.setWidgetResizable(True)
        editor_scroll.setWidget(self.editor)
        editor_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.items_splitter = QSplitter(Qt.Orientation.Vertical)
        self.items_splitter.setObjectName("items_splitter")
        self.items_splitter.addWidget(self.table)
        self.items_splitter.addWidget(editor_scroll)
        self.items_splitter.setStretchFactor(0, 1)
        self.items_splitter.setStretchFactor(1, 1)
        self.items_splitter.setChildrenCollapsible(False)
        self.items_splitter.setSizes([340, 320])
        bar = QHBoxLayout()
        bar.addWidget(self.section_label)
        bar.addWidget(self.filter_edit, 1)
        bar.addWidget(self.new_item_button)
        bar.addWidget(self.delete_item_button)
        items_page = QWidget()
        items_layout = QVBoxLayout(items_page)
        items_layout.setContentsMargins(6, 6, 6, 6)
        items_layout.addLayout(bar)
        items_layout.addWidget(self.items_splitter, 1)
        self.items_page = items_page

        self.followups_model = FollowupsModel(self._load_followups, self)
        self.followups_model.status_change_requested.connect(self._on_status_change_requested)
        self.followups_view = FollowupsPage(self.followups_model, self.runner, self.undo_stack,
                                            self.clock)
        self.followups_view.item_activated.connect(
            lambda item_id: self.select_item(item_id, "question"))
        self.followups_view.table.selectionModel().currentRowChanged.connect(
            self._on_followup_row_changed)

        self.tabs = QTabWidget()
        self.tabs.setObjectName("tabs")
        self.tabs.setDocumentMode(True)
        self.tabs.setTabsClosable(True)
        self.tabs.setMovable(False)
        self.tabs.addTab(self.items_page, "Items")
        self.tabs.addTab(self.followups_view, "Follow-ups")
        for n in (0, 1):
            for side in (self.tabs.tabBar().ButtonPosition.RightSide,
                         self.tabs.tabBar().ButtonPosition.LeftSide):
                self.tabs.tabBar().setTabButton(n, side, None)
        self.tabs.tabCloseRequested.connect(self._on_tab_close_requested)
        self.tabs.currentChanged.connect(self._on_tab_changed)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("main_splitter")
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.tabs)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        left.setMinimumWidth(150)
        self.splitter.setSizes([200, 740])
        self.setCentralWidget(self.splitter)

        # right: evidence panel
        self.evidence_panel = EvidencePanel()
        self.evidence_panel.passage_activated.connect(self._on_passage_activated)
        self.evidence_panel.unlink_requested.connect(self._on_unlink_requested)
        self.evidence_panel.relation_change_requested.connect(self._on_relation_change_requested)
        self.evidence_dock = QDockWidget("Evidence", self)
        self.evidence_dock.setObjectName("evidence_dock")
        self.evidence_dock.setWidget(self.evidence_panel)
        self.evidence_dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                                       | QDockWidget.DockWidgetFeature.DockWidgetClosable
                                       | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        self.evidence_panel.setMinimumWidth(260)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.evidence_dock)
        self.resizeDocks([self.evidence_dock], [350], Qt.Orientation.Horizontal)

    def _build_actions(self) -> None:
        menu = self.menuBar()
        file_menu = menu.addMenu("&File")
        self.new_case_action = file_menu.addAction("&New case…", self.prompt_new_case)
        self.new_case_button.clicked.connect(self.prompt_new_case)
        file_menu.addSeparator()
        self.import_action = file_menu.addAction("&Import documents…", self.prompt_import)
        self.import_action.setShortcut(QKeySequence("Ctrl+I"))
        self.export_action = file_menu.addAction("&Export brief…", self.prompt_export)
        self.export_action.setShortcut(QKeySequence("Ctrl+E"))
        self.export_confidential_action = file_menu.addAction(
            "Export brief with &confidential sources…",
            lambda: self.prompt_export(include_confidential=True))
        file_menu.addSeparator()
        quit_action = file_menu.addAction("&Quit", self.close)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)

        edit_menu = menu.addMenu("&Edit")
        self.undo_action = QAction("&Undo", self)
        self.undo_action.setShortcuts([QKeySequence("Ctrl+Z")])
        self.undo_action.triggered.connect(self.undo)
        self.redo_action = QAction("&Redo", self)
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.redo_action.triggered.connect(self.redo)
        self.undo_stack.canUndoChanged.connect(self.undo_action.setEnabled)
        self.undo_stack.canRedoChanged.connect(self.redo_action.setEnabled)
        self.undo_stack.undoTextChanged.connect(
            lambda t: self.undo_action.setText(f"&Undo {t}" if t else "&Undo"))
        self.undo_stack.redoTextChanged.connect(
            lambda t: self.redo_action.setText(f"&Redo {t}" if t else "&Redo"))
        self.undo_action.setEnabled(False)
        self.redo_action.setEnabled(False)
        edit_menu.addAction(self.undo_action)
        edit_menu.addAction(self.redo_action)
        edit_menu.addSeparator()
        self.new_item_action = QAction("&New item", self)
        self.new_item_action.setShortcut(QKeySequence("Ctrl+N"))
        self.new_item_action.triggered.connect(self.new_item)
        self.new_item_button.clicked.connect(self.new_item)
        edit_menu.addAction(self.new_item_action)
        self.delete_action = QAction("&Delete", self)
        self.delete_action.setShortcut(QKeySequence(Qt.Key.Key_Delete))
        self.delete_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.delete_action.triggered.connect(self.delete_selected)
        self.table.addAction(self.delete_action)
        self.delete_item_button.clicked.connect(self.delete_selected)
        edit_menu.addAction(self.delete_action)
        for signal in (self.proxy.modelReset, self.proxy.rowsRemoved, self.proxy.layoutChanged):
            signal.connect(self._update_delete_enabled)
        self._update_delete_enabled()
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
        help_menu = menu.addMenu("&Help")
        help_menu.addAction("&About Casefile", self._show_about)
        for action in (self.import_action, self.export_action, self.export_confidential_action,
                       self.new_item_action, self.delete_action, self.find_action,
                       self.followups_action):
            self.addAction(action)

        toolbar = self.addToolBar("Main")
        toolbar.setObjectName("main_toolbar")
        toolbar.setMovable(False)
        toolbar.addAction(self.import_action)
        toolbar.addAction(self.export_action)
        toolbar.addSeparator()
        toolbar.addAction(self.undo_action)
        toolbar.addAction(self.redo_action)

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.workspace_label = QLabel(f"Workspace: {self.workspace.label}")
        self.workspace_label.setTextFormat(Qt.TextFormat.PlainText)
        self.workspace_label.setToolTip(self.workspace.label)
        self.counts_label = QLabel()
        self.counts_label.setTextFormat(Qt.TextFormat.PlainText)
        self.due_label = QLabel()
        self.due_label.setTextFormat(Qt.TextFormat.PlainText)
        self.job_bar = QProgressBar()
        self.job_bar.setRange(0, 0)
        self.job_bar.setMaximumWidth(120)
        self.job_bar.setVisible(False)
        bar.addPermanentWidget(self.job_bar)
        bar.addPermanentWidget(self.counts_label)
        bar.addPermanentWidget(self.due_label)
        bar.addPermanentWidget(self.workspace_label)

    # -- settings -------------------------------------------------------------------------------

    def _settings_key(self, name: str) -> str:
        return f"window/{name}"

    def _remembered_case(self) -> int | None:
        value = self.settings.value(f"last_case/{self.workspace.url}")
        try:
            return int(value) if value is not None else None
        except (TypeError, ValueError):
            return None

    def _restore_window_state(self) -> None:
        s = self.settings
        geometry = s.value(self._settings_key("geometry"))
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        else:
            self.resize(1280, 800)
        state = s.value(self._settings_key("state"))
        if isinstance(state, QByteArray) and not state.isEmpty():
            self.restoreState(state)
        for splitter in (self.splitter, self.items_splitter):
            sizes = s.value(self._settings_key(splitter.objectName()))
            if isinstance(sizes, QByteArray) and not sizes.isEmpty():
                splitter.restoreState(sizes)

    def save_window_state(self) -> None:
        """Store geometry, dock layout, splitter sizes and the last case in QSettings."""
        s = self.settings
        s.setValue(self._settings_key("geometry"), self.saveGeometry())
        s.setValue(self._settings_key("state"), self.saveState())
        for splitter in (self.splitter, self.items_splitter):
            s.setValue(self._settings_key(splitter.objectName()), splitter.saveState())
        if self.case_id is not None:
            s.setValue(f"last_case/{self.workspace.url}", self.case_id)
        s.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.editor.flush()
        if self.runner.busy:
            self.statusBar().showMessage("Cancelling the running job…")
        self.runner.shutdown()
        self.save_window_state()
        super().closeEvent(event)

    # -- cases ----------------------------------------------------------------------------------

    def _load_cases(self) -> None:
        titles = self.runner.read(views.case_titles)
        self.case_box.blockSignals(True)
        self.case_box.clear()
        for case_id, title in titles:
            self.case_box.addItem(title, case_id)
        self.case_box.blockSignals(False)
        if self.case_id is not None:
            self.case_box.setCurrentIndex(max(self.case_box.findData(self.case_id), 0))

    @Slot(int)
    def _on_case_box_activated(self, index: int) -> None:
        case_id = self.case_box.itemData(index)
        if case_id != self.case_id:
            self.open_case(case_id)

    def open_case(self, case_id: int | None) -> None:
        """Show a case (None: no case). Pending edits are saved, the undo history is cleared,
        document tabs are closed."""
        self.editor.flush()
        self.undo_stack.clear()
        for doc_id in list(self.viewers):
            self.close_document(doc_id)
        self.case_id = case_id
        if case_id is not None:
            self.case_box.setCurrentIndex(max(self.case_box.findData(case_id), 0))
            self.case_box.setToolTip(self.case_box.currentText())
            self.settings.setValue(f"last_case/{self.workspace.url}", case_id)
            self.setWindowTitle(f"{self.case_box.currentText()} — Casefile")
        else:
            self.setWindowTitle("Casefile")
            self.statusBar().showMessage("Create a case to begin: File ▸ New case…")
        for action in (self.import_action, self.export_action, self.export_confidential_action,
                       self.new_item_action):
            action.setEnabled(case_id is not None)
        self.new_item_button.setEnabled(case_id is not None)
        self._refresh_counts()
        self.suggestions_panel.set_case(case_id)
        self.case_views.set_case(case_id)
        self.search_panel.set_case(case_id)
        self.followups_model.reload() if case_id is not None else self.followups_model.clear()
        self.show_section(self.kind, force=True)

    def prompt_new_case(self) -> int | None:
        """Ask for a title (QInputDialog) and create the case; returns its id."""
        title, ok = QInputDialog.getText(self, "New case", "Title of the new case:")
        if not ok or not title.strip():
            return None
        return self.create_case(title)

    def create_case(self, title: str, summary: str | None = None) -> int | None:
        """Create a case and open it; returns its id (None when the title is refused)."""
        out = self.runner.run(
            lambda s: cases.create_case(s, title, summary).id,
            change=lambda cid: change(cid, cases=True, label="new case"), label="creating a case")
        if out.ok and out.value is not None:
            self.open_case(out.value)
            return out.value
        return None

    # -- sections -------------------------------------------------------------------------------

    @Slot(QListWidgetItem, QListWidgetItem)
    def _on_navigator_changed(self, current: QListWidgetItem | None, _previous: Any) -> None:
        if current is None:
            return
        key = current.data(Qt.ItemDataRole.UserRole)
        if key == FOLLOWUPS_KEY:
            self.tabs.setCurrentWidget(self.followups_view)
        else:
            self.show_section(key)

    def show_section(self, kind: str, *, force: bool = False) -> None:
        """Show one section (item kind) in the items table."""
        self.tabs.setCurrentWidget(self.items_page)
        for row in range(self.navigator.count()):
            if self.navigator.item(row).data(Qt.ItemDataRole.UserRole) == kind:
                self.navigator.blockSignals(True)
                self.navigator.setCurrentRow(row)
                self.navigator.blockSignals(False)
        if kind == self.kind and self.section_model is not None and not force:
            return
        self.editor.flush()
        if self.section_model is not None and self.section_model._sort_column >= 0:
            self._sort_by_kind[self.kind] = (self.section_model._sort_column,
                                             self.section_model._sort_order)
        self.kind = kind
        case_id = self.case_id
        model = ItemTableModel(
            kind,
            counter=lambda: self.runner.read(lambda s: views.count_items(s, case_id, kind))
            if case_id is not None else 0,
            loader=lambda offset, limit: self.runner.read(
                lambda s: views.item_rows(s, case_id, kind, offset=offset, limit=limit))
            if case_id is not None else [],
            refresher=lambda ids: self.runner.read(
                lambda s: views.item_rows_by_id(s, case_id, kind, list(ids)))
            if case_id is not None else [],
            parent=self,
        )
        sort = self._sort_by_kind.get(kind)
        if sort is not None:
            model._sort_column, model._sort_order = sort
        model.reload()
        old = self.section_model
        self.proxy.setSourceModel(model)
        self.section_model = model
        if old is not None:
            old.deleteLater()
        header = self.table.horizontalHeader()
        header.blockSignals(True)
        header.setSortIndicator(sort[0] if sort else -1, sort[1] if sort else
                                Qt.SortOrder.AscendingOrder)
        header.blockSignals(False)
        header = self.table.horizontalHeader()
        for column, name in enumerate(model.headers):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            self.table.setColumnWidth(column, 80 if name == "Evidence" else 150)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.selectionModel().currentRowChanged.connect(self._on_current_row_changed)
        self.table.selectionModel().selectionChanged.connect(self._update_delete_enabled)
        self.table.selectionModel().modelChanged.connect(self._update_delete_enabled)
        self.filter_edit.blockSignals(True)
        self.filter_edit.clear()
        self.filter_edit.blockSignals(False)
        self.proxy.set_filter_text("")
        title = SECTION_TITLES[kind]
        self.section_label.setText(title)
        self.filter_edit.setPlaceholderText(f"Filter {title.lower()}…  (Ctrl+F)")
        self.new_item_action.setText(f"&New {KIND_SINGULAR[kind]}")
        self.new_item_button.setText(f"New {KIND_SINGULAR[kind]}")
        self.editor.clear()
        self._show_evidence(None)
        if self.proxy.rowCount() > 0:
            self.table.selectRow(0)
        self._update_delete_enabled()

    def _update_delete_enabled(self, *_args: Any) -> None:
        """Delete (button and key) only with a row selected."""
        selection = self.table.selectionModel()
        enabled = selection is not None and selection.hasSelection()
        self.delete_item_button.setEnabled(enabled)
        self.delete_action.setEnabled(enabled)

    def _apply_filter(self) -> None:
        self.proxy.set_filter_text(self.filter_edit.text())

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
        self.filter_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.filter_edit.selectAll()

    def show_followups(self) -> None:
        """Show the follow-ups view."""
        self.tabs.setCurrentWidget(self.followups_view)

    def current_item_id(self) -> int | None:
        """The id of the current row of the section table, or None."""
        index = self.table.currentIndex()
        if not index.isValid():
            return None
        value = index.siblingAtColumn(0).data(ID_ROLE)
        return int(value) if value is not None else None

    def selected_item_ids(self) -> list[int]:
        """Ids of the selected rows of the section table (in view order)."""
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        return [int(self.proxy.index(r, 0).data(ID_ROLE)) for r in rows]

    def select_item(self, item_id: int, kind: str) -> bool:
        """Show ``kind``'s section with ``item_id`` selected and scrolled into view."""
        self.show_section(kind)
        model = self.section_model
        assert model is not None
        row = model.row_of_id(item_id)
        if row < 0:
            model.fetch_all()
            row = model.row_of_id(item_id)
        if row < 0:
            return False
        index = self.proxy.mapFromSource(model.index(row, 0))
        if not index.isValid():  # hidden by the filter
            self.filter_edit.clear()
            self._apply_filter()
            index = self.proxy.mapFromSource(model.index(row, 0))
        self.table.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows)
        self.table.scrollTo(index)
        return True

    @Slot(QModelIndex, QModelIndex)
    def _on_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        item_id = self.current_item_id() if current.isValid() else None
        if item_id is None:
            self.editor.clear()
            self._show_evidence(None)
            return
        if item_id != self.editor.item_id:
            self._load_editor(item_id)
        self._show_evidence(item_id)

    def _load_editor(self, item_id: int) -> None:
        try:
            fields = self.runner.read(lambda s: views.item_fields(s, item_id))
        except CasefileError:
            self.editor.clear()
            return
        self.editor.load(fields)

    def _show_evidence(self, item_id: int | None) -> None:
        if item_id is None:
            self.evidence_panel.show_evidence(None, "", [])
            return
        try:
            title, rows = self.runner.read(
                lambda s: (views.item_fields(s, item_id).values["title"],
                           evidence.evidence_for(s, item_id)))
        except CasefileError:
            self.evidence_panel.show_evidence(None, "", [])
            return
        self.evidence_panel.show_evidence(item_id, title, rows)

    @Slot(QModelIndex, QModelIndex)
    def _on_followup_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self._show_evidence(int(self.followups_model.row_at(current.row()).id))

    @Slot(QModelIndex)
    def _on_table_double_clicked(self, index: QModelIndex) -> None:
        item_id = self.current_item_id()
        if item_id is not None and self.kind == "document":
            self.open_document(item_id)

    def _choices(self, kinds: tuple[str, ...] | None = None) -> list[ItemChoice]:
        if self.case_id is None:
            return []
        case_id = self.case_id
        return self.runner.read(lambda s: views.item_choices(s, case_id, kinds))

    # -- item actions -----------------------------------------------------------------------------

    def new_item(self) -> int | None:
        """Ctrl+N: create an item in the current section, select it, focus its name."""
        if self.case_id is None:
            return None
        kind = self.kind
        command = CreateItemCommand(self.runner, self.case_id, kind, NEW_TITLES[kind])
        self.undo_stack.push(command)
        if command.item_id is None or command.failed:
            return None
        self.select_item(command.item_id, kind)
        title = self.editor.widgets.get("title")
        if isinstance(title, QLineEdit):
            title.setFocus(Qt.FocusReason.ShortcutFocusReason)
            title.selectAll()
        return command.item_id

    def create_item(self, kind: str, title: str, *, span: tuple[int, int, int] | None = None,
                    relation: str = "mentions", select: bool = True,
                    **fields: Any) -> int | None:
        """Create an item (undoable), optionally with ``span`` = (document id, start, end) as
        its first passage; returns the new id or None."""
        if self.case_id is None:
            return None
        command = CreateItemCommand(self.runner, self.case_id, kind, title, fields, span=span,
                                    relation=relation)
        self.undo_stack.push(command)
        if command.failed or command.item_id is None:
            return None
        if select:
            self.select_item(command.item_id, kind)
        return command.item_id

    def undo(self) -> None:
        """Ctrl+Z: save pending edits, then undo the last action."""
        self.editor.flush()
        self.undo_stack.undo()

    def redo(self) -> None:
        """Ctrl+Shift+Z: redo the last undone action."""
        self.editor.flush()
        self.undo_stack.redo()

    def delete_selected(self) -> None:
        """Delete: remove the selected items of the table (undoable)."""
        ids = self.selected_item_ids()
        if not ids or self.case_id is None:
            return
        self.editor.flush()
        titles = [self.proxy.index(r, 0).data() for r in
                  sorted({i.row() for i in self.table.selectionModel().selectedRows()})]
        label = f"Delete “{titles[0]}”" if len(ids) == 1 else f"Delete {len(ids)} items"
        row = min(i.row() for i in self.table.selectionModel().selectedRows())
        self.undo_stack.push(DeleteItemsCommand(self.runner, self.case_id, ids, {self.kind},
                                                label))
        if self.proxy.rowCount():
            self.table.selectRow(min(row, self.proxy.rowCount() - 1))
        self.statusBar().showMessage(f"{label} — Ctrl+Z to undo", 6000)

    @Slot(int, str, dict, dict, int)
    def _on_editor_changes_ready(self, item_id: int, kind: str, before: dict[str, Any],
                                 after: dict[str, Any], version: int) -> None:
        if self.case_id is None:
            return
        from casefile.ui.conflict_dialog import USE_MINE, ConflictDialog

        names = ", ".join(sorted(after))
        command = EditItemCommand(self.runner, self.case_id, item_id, kind, before, after,
                                  expected_version=version, label=f"Edit {names}",
                                  handles_conflicts=True)
        self.undo_stack.push(command)
        # Someone else saved the item meanwhile: show both values; only an explicit "Use mine"
        # saves over theirs (one undoable step), anything else keeps theirs.
        while command.conflict is not None and \
                ConflictDialog.ask(command.conflict, self) == USE_MINE:
            command = command.over(command.conflict)
            self.undo_stack.push(command)
        if command.failed:
            self._load_editor(item_id)  # conflict or refusal: show what is stored
        else:
            self.editor.mark_saved(item_id, command.version, after)

    @Slot(int, str)
    def _on_status_change_requested(self, question_id: int, status: str) -> None:
        if self.case_id is None:
            return
        self.followups_view.change_status(question_id, status)  # dated by self.clock()

    # -- evidence -------------------------------------------------------------------------------

    @Slot(int)
    def _on_unlink_requested(self, link_id: int) -> None:
        item_id = self.evidence_panel.item_id
        if item_id is None or self.case_id is None:
            return
        self.undo_stack.push(UnlinkCommand(self.runner, self.case_id, link_id, item_id,
                                           self.kind, "Remove evidence link"))

    @Slot(int, str)
    def _on_relation_change_requested(self, link_id: int, relation: str) -> None:
        item_id = self.evidence_panel.item_id
        if item_id is None or self.case_id is None:
            return
        old = next((v.relation for v in
                    (self.evidence_panel.model.evidence_at(i)
                     for i in self.evidence_panel.link_indexes())
                    if v is not None and v.link_id == link_id), None)
        if old is None or old == relation:
            return
        self.undo_stack.push(RelationCommand(self.runner, self.case_id, link_id, item_id,
                                             self.kind, old, relation))

    def link_span(self, item_id: int, document_id: int, start: int, end: int,
                  relation: str = "supports") -> bool:
        """Link ``text[start:end]`` of a document to an item (undoable). True on success."""
        if self.case_id is None:
            return False
        info = self.runner.read(lambda s: views.item_fields(s, item_id))
        if document_id in self.viewers:
            quote = self.viewers[document_id].text[start:end]
        else:  # linked without its viewer open: the stored text has the same offsets
            try:
                quote = self.runner.read(
                    lambda s: views.document_view(s, document_id).text[start:end])
            except CasefileError:
                quote = ""
        command = LinkSpanCommand(self.runner, self.case_id, item_id, info.kind, document_id,
                                  start, end, relation,
                                  f"Link {quote_label(quote)} to {info.values['title']}")
        self.undo_stack.push(command)
        if not command.failed:
            self.statusBar().showMessage(
                f"Linked as {relation} evidence for {info.values['title']}", 5000)
        return not command.failed

    @Slot(int, int, int)
    def _on_link_requested(self, document_id: int, start: int, end: int) -> None:
        viewer = self.viewers.get(document_id)
        if viewer is None:
            return
        dialog = LinkDialog(viewer.text[start:end], self._choices(), self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.link_dialog = dialog

        def accepted() -> None:
            chosen = dialog.chosen_item()
            if chosen is not None:
                self.link_span(chosen.id, document_id, start, end, dialog.relation)

        dialog.accepted.connect(accepted)
        dialog.finished.connect(lambda _r: setattr(self, "link_dialog", None))
        dialog.open()

    @Slot(str, int, int, int)
    def _on_new_item_requested(self, kind: str, document_id: int, start: int, end: int) -> None:
        viewer = self.viewers.get(document_id)
        if viewer is None:
            return
        title = " ".join(viewer.text[start:end].split())
        if len(title) > 500:
            title = title[:499] + "…"
        relation = "context" if kind == "question" else "mentions"
        self.create_item(kind, title, span=(document_id, start, end), relation=relation)
        name = self.editor.widgets.get("title")
        if isinstance(name, QLineEdit):
            name.setFocus(Qt.FocusReason.OtherFocusReason)

    # -- documents ------------------------------------------------------------------------------

    def open_document(self, document_id: int, start: int | None = None,
                      end: int | None = None) -> DocumentViewer | None:
        """Open a document in a viewer tab (or bring its tab forward); with ``start``/``end``
        (Python str offsets) the passage is selected and scrolled into view."""
        viewer = self.viewers.get(document_id)
        if viewer is None:
            try:
                view = self.runner.read(lambda s: views.document_view(s, document_id))
            except CasefileError as exc:
                self._on_operation_failed(str(exc))
                return None
            viewer = DocumentViewer()
            viewer.set_document(view)
            viewer.link_requested.connect(self._on_link_requested)
            viewer.new_item_requested.connect(self._on_new_item_requested)
            self.viewers[document_id] = viewer
            install_pdf_pages(self, viewer, document_id)
            title = view.title if len(view.title) <= 32 else view.title[:31] + "…"
            n = self.tabs.addTab(viewer, title)
            self.tabs.setTabToolTip(n, view.title)
        self.tabs.setCurrentWidget(viewer)
        if start is not None and end is not None and 0 <= start < end:
            viewer.select_span(start, end)
        return viewer

    def close_document(self, document_id: int) -> None:
        """Close a document's viewer tab."""
        viewer = self.viewers.pop(document_id, None)
        if viewer is not None:
            self.tabs.removeTab(self.tabs.indexOf(viewer))
            viewer.deleteLater()

    @Slot(int)
    def _on_tab_close_requested(self, index: int) -> None:
        widget = self.tabs.widget(index)
        for doc_id, viewer in list(self.viewers.items()):
            if viewer is widget:
                self.close_document(doc_id)

    @Slot(int)
    def _on_tab_changed(self, index: int) -> None:
        widget = self.tabs.widget(index)
        if widget is self.followups_view:
            table = self.followups_view.table
            if table.currentIndex().isValid():
                self._on_followup_row_changed(table.currentIndex(), QModelIndex())
            else:
                self._show_evidence(None)
        elif widget is self.items_page:
            self._show_evidence(self.current_item_id())
        key = FOLLOWUPS_KEY if widget is self.followups_view else (
            self.kind if widget is self.items_page else None)
        if key is None:
            return
        for row in range(self.navigator.count()):
            if self.navigator.item(row).data(Qt.ItemDataRole.UserRole) == key:
                self.navigator.blockSignals(True)
                self.navigator.setCurrentRow(row)
                self.navigator.blockSignals(False)

    @Slot(int, int, int)
    def _on_passage_activated(self, document_id: int, start: int, end: int) -> None:
        if start >= 0 and end > start:
            self.open_document(document_id, start, end)
        else:
            self.open_document(document_id)

    # -- import and export ----------------------------------------------------------------------

    def prompt_import(self) -> Job | None:
        """File ▸ Import: choose files (QFileDialog) and import them in the background."""
        names, _filter = QFileDialog.getOpenFileNames(
            self, "Import documents", str(Path.home()),
            "Documents (*.txt *.md *.html *.htm *.pdf *.eml *.docx);;All files (*)")
        if not names:
            return None
        return self.import_files([Path(n) for n in names])

    def import_files(self, paths: Sequence[Path],
                     passwords: dict[Path, str] | None = None) -> Job | None:
        """Import files into the current case off the GUI thread, with a cancellable progress
        dialog.

        Several files go the folder import's way (:meth:`FolderImport.start`): each file its
        own transaction, the good ones stored, then a summary listing each failure's reason.
        A single file is one transaction: cancel, or a refused file, stores nothing; an
        encrypted PDF stops the job (nothing stored) and the window asks for its password
        (``passwords`` holds those given so far), then imports again; a wrong one is said so
        and asked again, until the reporter cancels."""
        if self.case_id is None:
            self._on_operation_failed("Create or open a case before importing documents.")
            return None
        case_id = self.case_id
        paths = list(paths)
        if len(paths) > 1:
            return self.folder_import.start(paths)
        passwords = dict(passwords or {})

        def work(session: Session, job: Job) -> list[documents.ImportResult]:
            results = []
            for n, path in enumerate(paths):
                job.check()
                if len(paths) > 1:
                    job.report(n, len(paths))
                try:
                    results.append(documents.import_file(session, case_id, path,
                                                         password=passwords.get(path)))
                except PdfPasswordError as exc:  # roll back, ask, import again
                    job.password_needed = (path, exc.wrong)  # type: ignore[attr-defined]
                    raise Cancelled() from exc
            return results

        def changed(results: list[documents.ImportResult]) -> CaseChange:
            return change(case_id, kinds={"document"},
                          created=[r.document_id for r in results if r.created]
                          + [c.document_id for r in results for c in r.children],
                          label="import")

        label = (f"Importing {paths[0].name}…" if len(paths) == 1
                 else f"Importing {len(paths)} files…")
        job = self.runner.start(work, label=label, change=changed, parent=self,
                                on_done=lambda job: self._on_import_done(job, paths, passwords))
        self.last_job = job
        return job

    def _on_import_done(self, job: Job, paths: Sequence[Path] = (),
                        passwords: dict[Path, str] | None = None) -> None:
        needed = getattr(job, "password_needed", None)
        if needed is not None and not job.cancelled:
            path, wrong = needed
            password = ask_pdf_password(self, path.name, wrong=wrong)
            if password is None:
                self.statusBar().showMessage(
                    f"Import cancelled: {path.name} needs its password; nothing was stored.", 8000)
                return
            self.import_files(paths, {**(passwords or {}), path: password})
            return
        if job.outcome == "succeeded" and passwords:
            for result in job.result or []:
                given = passwords.get(Path(result.path)) if result.path else None
                if given is not None:
                    self.pdf_passwords[result.sha256] = given
        if job.outcome == "cancelled":
            self.statusBar().showMessage("Import cancelled: nothing was stored.", 8000)
            return
        if job.outcome != "succeeded":
            return
        results: list[documents.ImportResult] = job.result or []
        new = [r for r in results if r.created]
        old = len(results) - len(new)
        parts = [f"Imported {len(new)} document{'s' if len(new) != 1 else ''}"]
        if old:
            parts.append(f"{old} already in the case")
        self.statusBar().showMessage("; ".join(parts) + ".", 8000)
        if results:
            self.open_document(results[0].document_id)
        if new and self.suggest_after_import and suggestions_available():
            self.start_suggestions([r.document_id for r in new])

    def start_suggestions(self, document_ids: list[int]) -> Job:
        """Run entity suggestions for these documents in the background (progress in the
        status bar; no dialog)."""
        from casefile.services.suggestions import suggest_for_document

        case_id = self.case_id

        def work(session: Session, job: Job) -> int:
            for n, doc_id in enumerate(document_ids):
                job.report(n, len(document_ids))
                suggest_for_document(session, doc_id)
            return len(document_ids)

        return self.runner.start(
            work, label="Finding names and dates…", progress=False,
            change=change(case_id, label="suggestions"), parent=self,
            on_done=lambda job: self.statusBar().showMessage(
                "Suggestions ready." if job.outcome == "succeeded" else
                "Suggestions stopped.", 5000))

    def prompt_export(self, include_confidential: bool = False) -> Job | None:
        """File ▸ Export brief: choose where (QFileDialog) and write the PDF in the background."""
        if self.case_id is None:
            return None
        suggested = Path.home() / f"{self.case_box.currentText() or 'brief'}.pdf"
        name, _filter = QFileDialog.getSaveFileName(
            self, "Export brief", str(suggested), "PDF files (*.pdf)")
        if not name:
            return None
        out = Path(name)
        if not out.suffix:
            out = out.with_suffix(".pdf")
        return self.export_brief(out, include_confidential=include_confidential)

    def export_brief(self, out: Path, *, include_confidential: bool = False) -> Job:
        """Write the case's PDF brief to ``out`` off the GUI thread (progress, cancellable)."""
        assert self.case_id is not None
        case_id = self.case_id

        def work(session: Session, job: Job) -> Path:
            tmp = out.with_name(f".{out.name}.casefile-part")
            try:
                brief.export_brief(session, case_id, tmp,
                                   include_confidential=include_confidential,
                                   progress=job.report)
                job.check()
                os.replace(tmp, out)
            except OSError as exc:
                raise CasefileError(f"cannot write {out}: {exc.strerror or exc}") from exc
            finally:
                tmp.unlink(missing_ok=True)
            return out

        def done(job: Job) -> None:
            if job.outcome == "succeeded":
                self.statusBar().showMessage(f"Brief written to {out}", 10000)
            elif job.outcome == "cancelled":
                self.statusBar().showMessage("Export cancelled.", 6000)

        job = self.runner.start(work, label=f"Writing {out.name}…", change=None, parent=self,
                                on_done=done)
        self.last_job = job
        return job

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if self.case_id is not None and _local_paths(event.mimeData().urls()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: Any) -> None:
        if self.case_id is not None and _local_paths(event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = _local_paths(event.mimeData().urls())
        if not paths:
            event.ignore()
            return
        event.acceptProposedAction()
        if any(p.is_dir() for p in paths):  # folders: one file per transaction, a summary
            self.folder_import.start(paths)
        else:
            self.import_files(paths)

    # -- refresh --------------------------------------------------------------------------------

    @Slot(object)
    def _on_case_changed(self, ch: CaseChange) -> None:
        """The one place views refresh after a change (DESIGN.md, "Architecture")."""
        if ch.cases:
            self._load_cases()
        if ch.case_id is None or ch.case_id != self.case_id:
            return
        self._refresh_counts()
        model = self.section_model
        if model is not None and (ch.touches(self.kind) or (ch.evidence and self.kind != "document")
                                  or (ch.structural and ch.evidence)):
            current = self.current_item_id()
            if ch.structural:
                model.reload()
                if current is not None and current not in ch.deleted:
                    self._reselect(current)
                elif self.proxy.rowCount() and not self.table.currentIndex().isValid():
                    self.table.selectRow(0)
            else:
                model.refresh_items(sorted(ch.updated) if ch.updated else [])
                if ch.evidence and not ch.updated:
                    model.reload()
                    if current is not None:
                        self._reselect(current)
        if ch.touches("question") or ch.structural:
            self.followups_model.reload()
        editor_id = self.editor.item_id
        if editor_id is not None:
            if editor_id in ch.deleted:
                self.editor.clear()
            elif editor_id in ch.updated and not self.editor.dirty:
                self._load_editor(editor_id)
            elif ch.structural or ch.updated - {editor_id}:
                self.editor.refresh_choices()  # an organization appeared, renamed or went
        shown = self.evidence_panel.item_id
        if shown is not None and (ch.evidence or shown in ch.updated or shown in ch.deleted
                                  or ch.structural):
            current = self.current_item_id()
            self._show_evidence(current if current is not None and
                                current not in ch.deleted else None)
        elif shown is None and self.current_item_id() is not None:
            self._show_evidence(self.current_item_id())
        for doc_id in list(self.viewers):
            if doc_id in ch.deleted:
                self.close_document(doc_id)
            elif ch.evidence or ch.structural or doc_id in ch.updated:
                try:
                    view = self.runner.read(partial(views.document_view, document_id=doc_id))
                except CasefileError:
                    self.close_document(doc_id)
                    continue
                self.viewers[doc_id].update_document(view)

    def _reselect(self, item_id: int) -> None:
        model = self.section_model
        if model is None:
            return
        row = model.row_of_id(item_id)
        if row < 0:
            return
        index = self.proxy.mapFromSource(model.index(row, 0))
        if index.isValid():
            self.table.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows)

    def _refresh_counts(self) -> None:
        if self.case_id is None:
            for row in range(self.navigator.count()):
                entry = self.navigator.item(row)
                key = entry.data(Qt.ItemDataRole.UserRole)
                entry.setText(SECTION_TITLES.get(key, "Follow-ups"))
            self.counts_label.setText("")
            self.due_label.setText("")
            return
        case_id = self.case_id
        today = self.clock()
        status = self.runner.read(lambda s: views.case_status(s, case_id, today=today))
        open_count = len(self.runner.read(lambda s: questions.followups(s, case_id,
                                                                        today=today)))
        for row in range(self.navigator.count()):
            entry = self.navigator.item(row)
            key = entry.data(Qt.ItemDataRole.UserRole)
            if key == FOLLOWUPS_KEY:
                entry.setText(f"Follow-ups ({open_count})")
            else:
                entry.setText(f"{SECTION_TITLES[key]} ({status.counts.get(key, 0)})")
        total = sum(status.counts.values())
        people, docs = status.counts["person"], status.counts["document"]
        self.counts_label.setText(
            f"{total} item{'s' if total != 1 else ''}: {people} "
            f"{'person' if people == 1 else 'people'}, {docs} document{'s' if docs != 1 else ''}")
        upcoming = status.due_this_week - status.overdue
        text = f"{upcoming} follow-up{'s' if upcoming != 1 else ''} due this week"
        if status.overdue:
            text = f"{status.overdue} overdue · " + text
        self.due_label.setText(text)

    def _load_followups(self) -> list[questions.FollowUp]:
        if self.case_id is None:
            return []
        return self.followups_view.load() if hasattr(self, "followups_view") else []

    # -- messages and jobs ----------------------------------------------------------------------

    @Slot(str)
    def _on_operation_failed(self, message: str) -> None:
        self.statusBar().showMessage(message, 10000)
        box = QMessageBox(QMessageBox.Icon.Warning, "Casefile", message,
                          QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.finished.connect(lambda _r, b=box: self._messages.remove(b)
                             if b in self._messages else None)
        self._messages.append(box)
        box.open()

    @Slot(object)
    def _on_job_started(self, job: Job) -> None:
        if job.dialog is None:
            self.job_bar.setVisible(True)
            self.job_bar.setToolTip(job.label)

    @Slot(object)
    def _on_job_finished(self, _job: Job) -> None:
        if not self.runner.busy:
            self.job_bar.setVisible(False)

    def _show_about(self) -> None:
        QMessageBox.about(self, "About Casefile",
                          "Casefile — an offline case-file organizer for reporters.")


def quote_label(text: str, limit: int = 40) -> str:
    """A passage as an undo label quotes it: quoted, on one line, at most ``limit`` characters
    ending in "…" when cut; "a passage" (unquoted) when there is no text to show."""
    short = " ".join(text.split())
    if not short:
        return "a passage"
    if len(short) > limit:
        short = short[:limit - 1].rstrip() + "…"
    return f"“{short}”"


def _local_paths(urls: Sequence[Any]) -> list[Path]:
    return [Path(u.toLocalFile()) for u in urls if u.isLocalFile() and u.toLocalFile()]
