"""The section table with its editor, and the actions on items: new, create from a selection,
delete, edit (autosaved), link a span as evidence, unlink, change a link's relation.

:class:`ItemsController` builds the Items page (filter box, table, editor) and runs every item
action through the window's :class:`~casefile.ui.operations.OperationRunner` as an undoable
command (:mod:`casefile.ui.undo`). It reads the window only through its public interface
(``case_id``, ``runner``, ``undo_stack``, ``notify``); what it shows changes through
:meth:`ItemsController.on_case_changed`, which the window calls from ``case_changed``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QObject, Qt, Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from casefile.errors import CasefileError
from casefile.quoting import quoted
from casefile.services import views
from casefile.services.views import ItemChoice
from casefile.ui.dialogs import LinkDialog
from casefile.ui.editor import ItemEditor
from casefile.ui.models import ID_ROLE, SECTION_TITLES, ItemTableModel, SectionProxyModel
from casefile.ui.operations import CaseChange
from casefile.ui.tables import set_up_row_table
from casefile.ui.undo import (
    CreateItemCommand,
    DeleteItemsCommand,
    EditItemCommand,
    LinkSpanCommand,
    RelationCommand,
    UnlinkCommand,
)
from casefile.ui.widgets import debounce_timer

if TYPE_CHECKING:
    from casefile.ui.shell import WindowShell

NEW_TITLES = {
    "person": "New person", "organization": "New organization", "place": "New place",
    "document": "New note", "event": "New event", "claim": "New claim", "question": "New question",
}


def quote_label(text: str, limit: int = 40) -> str:
    """A passage as an undo label quotes it: quoted, on one line, at most ``limit`` characters
    ending in "…" when cut; "a passage" (unquoted) when there is no text to show."""
    return quoted(text, limit) or "a passage"


def keep_title_readable(header: QHeaderView, column: int = 0) -> None:
    """Make the header's sections at least as wide as ``column``'s title (the stretched one):
    a narrow window then scrolls the table sideways instead of cutting that title."""
    model = header.model()
    if model is None or column >= header.count():
        return
    title = str(model.headerData(column, header.orientation()) or "")
    needed = header.fontMetrics().horizontalAdvance(title) + 24
    if header.minimumSectionSize() < needed:
        header.setMinimumSectionSize(needed)


#: The reading-state filter of the Documents section: (label, the Reading column's value).
READING_FILTERS = (("All documents", ""), ("Unread", "unread"), ("Read", "read"),
                   ("Relevant", "relevant"), ("Not relevant", "not relevant"))


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


class ItemsController(QObject):
    """The Items page of a window and the item actions.

    Widgets (public, the window shows ``page``): ``filter_edit``, ``table``, ``proxy``,
    ``editor``, ``new_item_button``, ``delete_item_button``, ``section_label``, ``splitter``.
    Actions (the window puts them in its Edit menu): ``new_item_action`` (Ctrl+N) and
    ``delete_action`` (Delete, while the table has the focus). ``document_text(document_id)``
    gives a document's text (offsets as stored) for quotes and titles.
    Signals: ``current_changed(item_id or None)`` when the table's current row changes;
    ``document_activated(document_id)`` when a document row is double-clicked;
    ``section_shown(kind)`` whenever a section is asked for (the window brings the page up).
    """

    current_changed = Signal(object)
    document_activated = Signal(int)
    section_shown = Signal(str)

    def __init__(self, window: WindowShell, document_text: Callable[[int], str]) -> None:
        super().__init__(window.qt_window())
        self.window = window
        self.document_text = document_text
        self.kind = "person"
        self.model: ItemTableModel | None = None
        self.link_dialog: LinkDialog | None = None
        self.sort_by_kind: dict[str, tuple[int, Qt.SortOrder]] = {}
        self._build_widgets()
        self._build_actions()

    # -- construction -------------------------------------------------------------------------

    def _build_widgets(self) -> None:
        self.filter_edit = QLineEdit()
        self.filter_edit.setObjectName("filter_edit")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_timer = debounce_timer(self, 120, self.apply_filter)
        self.filter_edit.textChanged.connect(lambda _t: self.filter_timer.start())
        self.state_box = QComboBox()  # the Documents section's reading states
        self.state_box.setObjectName("reading_state_box")
        self.state_box.setToolTip("Show the documents in one reading state")
        for label, value in READING_FILTERS:
            self.state_box.addItem(label, value)
        self.state_box.currentIndexChanged.connect(self.apply_state_filter)
        self.state_box.hide()
        self.new_item_button = QPushButton("New")
        self.delete_item_button = QPushButton("Delete")
        self.section_label = QLabel()
        self.section_label.setTextFormat(Qt.TextFormat.PlainText)
        self.proxy = SectionProxyModel(self)
        self.table = SectionTable()
        self.table.setObjectName("section_table")
        self.table.setModel(self.proxy)
        # once: the proxy (and so its selection model) stays; show_section swaps its source
        self.table.selectionModel().currentRowChanged.connect(self._on_current_row_changed)
        self.table.selectionModel().selectionChanged.connect(self.update_delete_enabled)
        self.table.selectionModel().modelChanged.connect(self.update_delete_enabled)
        set_up_row_table(self.table, QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.horizontalHeader().setHighlightSections(False)
        self.table.doubleClicked.connect(self._on_double_clicked)
        self.editor = ItemEditor(self.choices, runner=self.window.runner,
                                 undo_stack=self.window.undo_stack)
        self.editor.changes_ready.connect(self._on_editor_changes_ready)
        editor_scroll = QScrollArea()
        editor_scroll.setWidgetResizable(True)
        editor_scroll.setWidget(self.editor)
        editor_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.splitter: QSplitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setObjectName("items_splitter")
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(editor_scroll)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([340, 320])
        bar = QHBoxLayout()
        bar.addWidget(self.section_label)
        bar.addWidget(self.filter_edit, 1)
        bar.addWidget(self.state_box)
        bar.addWidget(self.new_item_button)
        bar.addWidget(self.delete_item_button)
        self.page: QWidget = QWidget()
        layout = QVBoxLayout(self.page)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(bar)
        layout.addWidget(self.splitter, 1)

    def _build_actions(self) -> None:
        window = self.window
        self.new_item_action = QAction("&New item", window.qt_window())
        self.new_item_action.setShortcut(QKeySequence("Ctrl+N"))
        self.new_item_action.triggered.connect(self.new_item)
        self.new_item_button.clicked.connect(self.new_item)
        self.delete_action = QAction("&Delete", window.qt_window())
        self.delete_action.setShortcut(QKeySequence(Qt.Key.Key_Delete))
        self.delete_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.delete_action.triggered.connect(self.delete_selected)
        self.table.addAction(self.delete_action)
        self.delete_item_button.clicked.connect(self.delete_selected)
        for signal in (self.proxy.modelReset, self.proxy.rowsRemoved, self.proxy.layoutChanged):
            signal.connect(self.update_delete_enabled)
        self.update_delete_enabled()

    # -- the case and its sections --------------------------------------------------------------

    def set_case(self, case_id: int | None) -> None:
        """The window opened ``case_id`` (None: none): enable the actions, show the section."""
        self.new_item_action.setEnabled(case_id is not None)
        self.new_item_button.setEnabled(case_id is not None)
        self.show_section(self.kind, force=True)

    def show_section(self, kind: str, *, force: bool = False) -> None:
        """Show one section (item kind) in the table; the previous section's sort is kept."""
        self.section_shown.emit(kind)
        if kind == self.kind and self.model is not None and not force:
            return
        self.editor.flush()
        header = self.table.horizontalHeader()
        if self.model is not None and header.sortIndicatorSection() >= 0:
            self.sort_by_kind[self.kind] = (header.sortIndicatorSection(),
                                            header.sortIndicatorOrder())
        self.kind = kind
        runner, case_id = self.window.runner, self.window.case_id
        model = ItemTableModel(
            kind,
            counter=lambda: runner.read(lambda s: views.count_items(s, case_id, kind))
            if case_id is not None else 0,
            loader=lambda offset, limit: runner.read(
                lambda s: views.item_rows(s, case_id, kind, offset=offset, limit=limit))
            if case_id is not None else [],
            refresher=lambda ids: runner.read(
                lambda s: views.item_rows_by_id(s, case_id, kind, list(ids)))
            if case_id is not None else [],
            parent=self,
        )
        sort = self.sort_by_kind.get(kind)
        if sort is not None:
            model.sort(*sort)
        model.reload()
        old = self.model
        self.proxy.setSourceModel(model)
        self.model = model
        if old is not None:
            old.deleteLater()
        header.blockSignals(True)
        header.setSortIndicator(sort[0] if sort else -1, sort[1] if sort else
                                Qt.SortOrder.AscendingOrder)
        header.blockSignals(False)
        for column, name in enumerate(model.headers):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            self.table.setColumnWidth(column, 80 if name == "Evidence" else 150)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        keep_title_readable(header)
        self.filter_edit.blockSignals(True)
        self.filter_edit.clear()
        self.filter_edit.blockSignals(False)
        self.proxy.set_filter_text("")
        self.state_box.setVisible(kind == "document")
        self.state_box.blockSignals(True)
        self.state_box.setCurrentIndex(0)
        self.state_box.blockSignals(False)
        self.proxy.set_column_value(None, None)
        title = SECTION_TITLES[kind]
        self.section_label.setText(title)
        self.filter_edit.setPlaceholderText(f"Filter {title.lower()}…  (Ctrl+F)")
        self.new_item_action.setText(f"&New {kind}")
        self.new_item_button.setText(f"New {kind}")
        self.editor.clear()
        self.current_changed.emit(None)
        if self.proxy.rowCount() > 0:
            self.table.selectRow(0)
        self.update_delete_enabled()

    def apply_state_filter(self, *_args: Any) -> None:
        """Documents: show only those in the reading state chosen in ``state_box``."""
        value = self.state_box.currentData()
        model = self.model
        if model is None or self.kind != "document":
            return
        column = model.headers.index("Reading")
        self.proxy.set_column_value(column if value else None, value or None)

    def update_delete_enabled(self, *_args: Any) -> None:
        """Delete (button and key) only with a row selected."""
        selection = self.table.selectionModel()
        enabled = selection is not None and selection.hasSelection()
        self.delete_item_button.setEnabled(enabled)
        self.delete_action.setEnabled(enabled)

    def apply_filter(self) -> None:
        """Filter the table by the filter box's words now (typing waits 120 ms)."""
        self.proxy.set_filter_text(self.filter_edit.text())

    def focus_filter(self) -> None:
        """Put the cursor in the filter box, its text selected."""
        self.filter_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.filter_edit.selectAll()

    def current_item_id(self) -> int | None:
        """The id of the current row of the table, or None."""
        index = self.table.currentIndex()
        if not index.isValid():
            return None
        value = index.siblingAtColumn(0).data(ID_ROLE)
        return int(value) if value is not None else None

    def selected_item_ids(self) -> list[int]:
        """Ids of the selected rows of the table (in view order)."""
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        return [int(self.proxy.index(r, 0).data(ID_ROLE)) for r in rows]

    def select_item(self, item_id: int, kind: str) -> bool:
        """Show ``kind``'s section with ``item_id`` selected and scrolled into view."""
        self.show_section(kind)
        model = self.model
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
            self.apply_filter()
            index = self.proxy.mapFromSource(model.index(row, 0))
        self.table.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows)
        self.table.scrollTo(index)
        return True

    def reselect(self, item_id: int) -> None:
        """Make ``item_id`` the current row again (after a reload), if it is shown."""
        model = self.model
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

    def choices(self, kinds: tuple[str, ...] | None = None) -> list[ItemChoice]:
        """The case's items as choices (for the editor's and link dialog's pickers)."""
        case_id = self.window.case_id
        if case_id is None:
            return []
        return self.window.runner.read(lambda s: views.item_choices(s, case_id, kinds))

    def load_editor(self, item_id: int) -> None:
        """Show the stored fields of ``item_id`` in the editor (cleared when it is gone)."""
        try:
            fields = self.window.runner.read(lambda s: views.item_fields(s, item_id))
        except CasefileError:
            self.editor.clear()
            return
        self.editor.load(fields)

    @Slot(QModelIndex, QModelIndex)
    def _on_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        item_id = self.current_item_id() if current.isValid() else None
        if item_id is None:
            self.editor.clear()
            self.current_changed.emit(None)
            return
        if item_id != self.editor.item_id:
            self.load_editor(item_id)
        self.current_changed.emit(item_id)

    @Slot(QModelIndex)
    def _on_double_clicked(self, _index: QModelIndex) -> None:
        item_id = self.current_item_id()
        if item_id is not None and self.kind == "document":
            self.document_activated.emit(item_id)

    # -- refresh --------------------------------------------------------------------------------

    def on_case_changed(self, ch: CaseChange) -> None:
        """Refresh the table and the editor from what an action changed in the open case."""
        model = self.model
        if model is not None and (ch.touches(self.kind) or (ch.evidence and self.kind != "document")
                                  or (ch.structural and ch.evidence)):
            current = self.current_item_id()
            if ch.structural:
                model.reload()
                if current is not None and current not in ch.deleted:
                    self.reselect(current)
                elif self.proxy.rowCount() and not self.table.currentIndex().isValid():
                    self.table.selectRow(0)
            else:
                model.refresh_items(sorted(ch.updated) if ch.updated else [])
                if ch.evidence and not ch.updated:
                    model.reload()
                    if current is not None:
                        self.reselect(current)
        editor_id = self.editor.item_id
        if editor_id is not None:
            if editor_id in ch.deleted:
                self.editor.clear()
            elif editor_id in ch.updated and not self.editor.dirty:
                self.load_editor(editor_id)
            elif ch.structural or ch.updated - {editor_id}:
                self.editor.refresh_choices()  # an organization appeared, renamed or went

    # -- item actions ---------------------------------------------------------------------------

    def new_item(self) -> int | None:
        """Ctrl+N: create an item in the current section, select it, focus its name."""
        case_id = self.window.case_id
        if case_id is None:
            return None
        kind = self.kind
        command = CreateItemCommand(self.window.runner, case_id, kind, NEW_TITLES[kind])
        self.window.undo_stack.push(command)
        if command.item_id is None or command.failed:
            return None
        self.select_item(command.item_id, kind)
        self.focus_title(select_all=True)
        return command.item_id

    def focus_title(self, *, select_all: bool = False) -> None:
        """Put the cursor in the editor's name field."""
        title = self.editor.widgets.get("title")
        if isinstance(title, QLineEdit):
            title.setFocus(Qt.FocusReason.ShortcutFocusReason if select_all
                           else Qt.FocusReason.OtherFocusReason)
            if select_all:
                title.selectAll()

    def create_item(self, kind: str, title: str, *, span: tuple[int, int, int] | None = None,
                    relation: str = "mentions", select: bool = True,
                    **fields: Any) -> int | None:
        """Create an item (undoable), optionally with ``span`` = (document id, start, end) as
        its first passage; returns the new id or None."""
        case_id = self.window.case_id
        if case_id is None:
            return None
        command = CreateItemCommand(self.window.runner, case_id, kind, title, fields, span=span,
                                    relation=relation)
        self.window.undo_stack.push(command)
        if command.failed or command.item_id is None:
            return None
        if select:
            self.select_item(command.item_id, kind)
        return command.item_id

    def create_from_span(self, kind: str, document_id: int, start: int, end: int) -> int | None:
        """A new item of ``kind`` named by ``text[start:end]`` of a document, that passage its
        first evidence ("context" for a question, else "mentions"); the name field focused."""
        title = " ".join(self.document_text(document_id)[start:end].split())
        if len(title) > 500:
            title = title[:499] + "…"
        relation = "context" if kind == "question" else "mentions"
        item_id = self.create_item(kind, title, span=(document_id, start, end),
                                   relation=relation)
        self.focus_title()
        return item_id

    def delete_selected(self) -> None:
        """Delete: remove the selected items of the table (undoable)."""
        ids = self.selected_item_ids()
        case_id = self.window.case_id
        if not ids or case_id is None:
            return
        self.editor.flush()
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        titles = [self.proxy.index(r, 0).data() for r in rows]
        label = f"Delete “{titles[0]}”" if len(ids) == 1 else f"Delete {len(ids)} items"
        self.window.undo_stack.push(DeleteItemsCommand(self.window.runner, case_id, ids,
                                                       {self.kind}, label))
        if self.proxy.rowCount():
            self.table.selectRow(min(rows[0], self.proxy.rowCount() - 1))
        self.window.notify(f"{label} — moved to the Trash (Ctrl+Z or File ▸ Trash… brings it "
                           "back)", 6000)

    @Slot(int, str, dict, dict, int)
    def _on_editor_changes_ready(self, item_id: int, kind: str, before: dict[str, Any],
                                 after: dict[str, Any], version: int) -> None:
        case_id = self.window.case_id
        if case_id is None:
            return
        from casefile.ui.conflict_dialog import USE_MINE, ConflictDialog

        names = ", ".join(sorted(after))
        command = EditItemCommand(self.window.runner, case_id, item_id, kind, before, after,
                                  expected_version=version, label=f"Edit {names}",
                                  handles_conflicts=True)
        self.window.undo_stack.push(command)
        # Someone else saved the item meanwhile: show both values; only an explicit "Use mine"
        # saves over theirs (one undoable step), anything else keeps theirs.
        while command.conflict is not None and \
                ConflictDialog.ask(command.conflict, self.window.qt_window()) == USE_MINE:
            command = command.over(command.conflict)
            self.window.undo_stack.push(command)
        if command.failed:
            self.load_editor(item_id)  # conflict or refusal: show what is stored
        else:
            self.editor.mark_saved(item_id, command.version, after)

    # -- evidence -------------------------------------------------------------------------------

    def unlink(self, link_id: int, item_id: int) -> None:
        """Remove an evidence link of ``item_id`` (undoable)."""
        case_id = self.window.case_id
        if case_id is None:
            return
        self.window.undo_stack.push(UnlinkCommand(self.window.runner, case_id, link_id, item_id,
                                                  self.kind, "Remove evidence link"))

    def change_relation(self, link_id: int, item_id: int, old: str, relation: str) -> None:
        """Change an evidence link's relation from ``old`` to ``relation`` (undoable)."""
        case_id = self.window.case_id
        if case_id is None or old == relation:
            return
        self.window.undo_stack.push(RelationCommand(self.window.runner, case_id, link_id,
                                                    item_id, self.kind, old, relation))

    def link_span(self, item_id: int, document_id: int, start: int, end: int,
                  relation: str = "supports") -> bool:
        """Link ``text[start:end]`` of a document to an item (undoable). True on success."""
        case_id = self.window.case_id
        if case_id is None:
            return False
        info = self.window.runner.read(lambda s: views.item_fields(s, item_id))
        try:
            quote = self.document_text(document_id)[start:end]
        except CasefileError:
            quote = ""
        command = LinkSpanCommand(self.window.runner, case_id, item_id, info.kind, document_id,
                                  start, end, relation,
                                  f"Link {quote_label(quote)} to {info.values['title']}")
        self.window.undo_stack.push(command)
        if not command.failed:
            self.window.notify(f"Linked as {relation} evidence for {info.values['title']}",
                               5000)
            self.window.show_evidence(item_id, raise_dock=True)  # the item just linked
        return not command.failed

    def prompt_link(self, document_id: int, start: int, end: int) -> LinkDialog:
        """Ask which item ``text[start:end]`` of a document is evidence for (a window-modal
        LinkDialog, kept in ``link_dialog`` while open), then link it."""
        dialog = LinkDialog(self.document_text(document_id)[start:end], self.choices(),
                            self.window.qt_window())
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.link_dialog = dialog

        def accepted() -> None:
            chosen = dialog.chosen_item()
            if chosen is not None:
                self.link_span(chosen.id, document_id, start, end, dialog.relation)

        dialog.accepted.connect(accepted)
        dialog.finished.connect(lambda _r: setattr(self, "link_dialog", None))
        dialog.open()
        return dialog
