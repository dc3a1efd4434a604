"""The evidence panel (docked on the right) and the follow-ups view."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QModelIndex, QPoint, Qt, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QTableView,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from casefile.services.evidence import EvidenceView
from casefile.store.evidence import EVIDENCE_RELATIONS
from casefile.store.items import QUESTION_STATUSES
from casefile.ui.dialogs import ComboDelegate
from casefile.ui.models import RELATION_COLUMN, STATUS_COLUMN, EvidenceModel, FollowupsModel


class EvidencePanel(QWidget):
    """The selected item's evidence, grouped by document.

    Signals: ``passage_activated(document_id, start, end)`` on double-click (start and end are
    Python str offsets, -1 for a whole-document link); ``unlink_requested(link_id)``;
    ``relation_change_requested(link_id, relation)`` (from the relation column or the menu).
    """

    passage_activated = Signal(int, int, int)
    unlink_requested = Signal(int)
    relation_change_requested = Signal(int, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.item_id: int | None = None
        self.model = EvidenceModel(self)
        self.model.relation_change_requested.connect(self.relation_change_requested)
        self.title = QLabel("No item selected")
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.hint = QLabel(
            "Select text in a document and choose “Link as evidence to…” to add evidence.")
        self.hint.setWordWrap(True)
        self.hint.setEnabled(False)
        self.tree = QTreeView()
        self.tree.setModel(self.model)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.SelectedClicked
                                  | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.tree.setItemDelegateForColumn(RELATION_COLUMN,
                                           ComboDelegate(EVIDENCE_RELATIONS, self.tree))
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._on_context_menu_requested)
        self.tree.doubleClicked.connect(self._on_double_clicked)
        self.tree.setWordWrap(False)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in (1, 2, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.open_button = QPushButton("Open in document")
        self.remove_button = QPushButton("Remove link")
        self.open_button.clicked.connect(self._on_open_clicked)
        self.remove_button.clicked.connect(self._on_remove_clicked)
        self.tree.selectionModel().currentChanged.connect(self._on_current_changed)
        buttons = QHBoxLayout()
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.title)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.hint)
        layout.addLayout(buttons)
        self._on_current_changed(QModelIndex(), QModelIndex())

    def show_evidence(self, item_id: int | None, title: str, views: Sequence[EvidenceView]) -> None:
        """Show an item's evidence (None: nothing selected)."""
        self.item_id = item_id
        self.model.set_evidence(views)
        self.tree.expandAll()
        for row in range(self.model.rowCount()):
            self.tree.setFirstColumnSpanned(row, QModelIndex(), True)
        if item_id is None:
            self.title.setText("No item selected")
        else:
            n = self.model.link_count()
            self.title.setText(f"Evidence for {title}: {n} link{'s' if n != 1 else ''}")
        self.hint.setVisible(item_id is not None and not views)
        self._on_current_changed(self.tree.currentIndex(), QModelIndex())

    def link_indexes(self) -> list[QModelIndex]:
        """Indexes (column 0) of every link row, in display order."""
        out = []
        for g in range(self.model.rowCount()):
            parent = self.model.index(g, 0)
            out.extend(self.model.index(r, 0, parent) for r in range(self.model.rowCount(parent)))
        return out

    def activate(self, index: QModelIndex) -> None:
        """Open the passage at ``index`` (what a double-click does)."""
        view = self.model.evidence_at(index)
        if view is not None:
            start = view.start if view.start is not None else -1
            end = view.end if view.end is not None else -1
            self.passage_activated.emit(view.document_id, start, end)
        elif index.isValid():
            doc_id = self.model.data(index.siblingAtColumn(0), Qt.ItemDataRole.UserRole + 1)
            self.passage_activated.emit(int(doc_id), -1, -1)

    @Slot(QModelIndex)
    def _on_double_clicked(self, index: QModelIndex) -> None:
        if index.column() == RELATION_COLUMN and self.model.evidence_at(index) is not None:
            return  # the relation editor opens instead
        self.activate(index)

    @Slot(QModelIndex, QModelIndex)
    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.open_button.setEnabled(current.isValid())
        self.remove_button.setEnabled(self.model.evidence_at(current) is not None)

    @Slot()
    def _on_open_clicked(self) -> None:
        self.activate(self.tree.currentIndex())

    @Slot()
    def _on_remove_clicked(self) -> None:
        view = self.model.evidence_at(self.tree.currentIndex())
        if view is not None:
            self.unlink_requested.emit(view.link_id)

    @Slot(QPoint)
    def _on_context_menu_requested(self, pos: QPoint) -> None:
        index = self.tree.indexAt(pos)
        menu = self.context_menu(index)
        if menu.actions():
            menu.exec(self.tree.viewport().mapToGlobal(pos))
        menu.deleteLater()

    def context_menu(self, index: QModelIndex) -> QMenu:
        """The menu for the row at ``index``: open, relation choices, remove."""
        menu = QMenu(self)
        if not index.isValid():
            return menu
        menu.addAction("Open in document", lambda: self.activate(index))
        view = self.model.evidence_at(index)
        if view is not None:
            relations = menu.addMenu("Relation")
            for relation in EVIDENCE_RELATIONS:
                action = QAction(relation, relations)
                action.setCheckable(True)
                action.setChecked(relation == view.relation)
                action.triggered.connect(
                    lambda _c=False, r=relation, v=view: self.relation_change_requested.emit(
                        v.link_id, r) if r != v.relation else None)
                relations.addAction(action)
            menu.addSeparator()
            menu.addAction("Remove link", lambda v=view: self.unlink_requested.emit(v.link_id))
        return menu


class FollowupsView(QWidget):
    """Open questions and follow-ups by due date; overdue ones in a warning colour. The Status
    column is a combo box (click a selected cell, or F2). ``item_activated(question_id)`` on
    double-click of another column."""

    item_activated = Signal(int)

    def __init__(self, model: FollowupsModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.heading = QLabel("Follow-ups: overdue and soonest first")
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.show_closed = QCheckBox("Show answered and dropped")
        self.table = QTableView()
        self.table.setModel(model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.SelectedClicked
                                   | QAbstractItemView.EditTrigger.DoubleClicked
                                   | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.table.setItemDelegateForColumn(STATUS_COLUMN,
                                            ComboDelegate(QUESTION_STATUSES, self.table))
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        for column, width in ((0, 100), (1, 130), (3, 130), (4, 100), (5, 160)):
            self.table.setColumnWidth(column, width)
        self.table.doubleClicked.connect(self._on_double_clicked)
        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(self.show_closed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)

    @Slot(QModelIndex)
    def _on_double_clicked(self, index: QModelIndex) -> None:
        if index.isValid() and index.column() != STATUS_COLUMN:
            self.item_activated.emit(int(self.model.row_at(index.row()).id))
