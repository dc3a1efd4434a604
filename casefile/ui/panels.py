"""The evidence panel, docked on the right (the follow-ups view is in followups_view.py)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from html import escape

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QRect,
    QSize,
    Qt,
    Signal,
    Slot,
)
from PySide6.QtGui import (
    QAction,
    QColor,
    QFont,
    QFontMetrics,
    QPainter,
    QPalette,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from casefile.services.evidence import EvidenceGroups, EvidenceView
from casefile.store.evidence import EVIDENCE_RELATIONS
from casefile.ui.dialogs import ComboDelegate
from casefile.ui.evidence_model import RELATION_COLUMN, SPAN_ROLE, EvidenceModel
from casefile.ui.widgets import debounce_timer, row_at_left, wrapped_label


class _WrappingDelegate(QStyledItemDelegate):
    """Column 0 of the evidence tree: quotes and document titles wrap to the column's width
    (QTreeView does not size wrapped rows by itself); a mention's context is drawn with the name
    in bold (``SPAN_ROLE``)."""

    def __init__(self, tree: QTreeView) -> None:
        super().__init__(tree)
        self.tree = tree

    def _width(self, index: QModelIndex | QPersistentModelIndex) -> int:
        depth = 0 if not index.parent().isValid() else 1
        # document rows span every column
        width = self.tree.viewport().width() if depth == 0 else self.tree.columnWidth(0)
        return max(width - self.tree.indentation() * (depth + 1) - 12, 60)

    @staticmethod
    def _document(text: str, span: tuple[int, int], font: QFont, width: int,
                  colour: QColor | None = None) -> QTextDocument:
        a, b = span
        style = f' style="color:{colour.name()}"' if colour is not None else ""
        doc = QTextDocument()
        doc.setDefaultFont(font)
        doc.setDocumentMargin(0)
        doc.setHtml(f"<span{style}>{escape(text[:a])}<b>{escape(text[a:b])}</b>"
                    f"{escape(text[b:])}</span>")
        doc.setTextWidth(width)
        return doc

    def sizeHint(self, option: QStyleOptionViewItem,
                 index: QModelIndex | QPersistentModelIndex) -> QSize:
        base = super().sizeHint(option, index)
        text = str(index.data() or "")
        width = self._width(index)
        span = index.data(SPAN_ROLE)
        if span:
            doc = self._document(text, span, option.font, width)
            return QSize(base.width(), max(base.height(), int(doc.size().height()) + 8))
        font = index.data(Qt.ItemDataRole.FontRole)
        metrics = QFontMetrics(font if isinstance(font, QFont) else option.font)
        rect = metrics.boundingRect(QRect(0, 0, width, 100_000),
                                    int(Qt.TextFlag.TextWordWrap), text)
        return QSize(base.width(), max(base.height(), rect.height() + 8))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        span = index.data(SPAN_ROLE)
        if not span:
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        text = opt.text
        opt.text = ""
        style = opt.widget.style() if opt.widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        area = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, opt.widget)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        colour = opt.palette.color(QPalette.ColorRole.HighlightedText if selected
                                   else QPalette.ColorRole.Text)
        doc = self._document(text, span, opt.font, max(area.width() - 4, 20), colour)
        painter.save()
        painter.translate(area.left() + 2, area.top() + 4)
        painter.setClipRect(QRect(0, -4, area.width(), area.height()))
        doc.drawContents(painter)
        painter.restore()


class _RelationDelegate(ComboDelegate):
    """The Relation column: a combo box to edit it; every cell the same one-line size, so that
    sizing a row never asks the model for its relation (the column has a fixed width)."""

    def __init__(self, tree: QTreeView) -> None:
        super().__init__(EVIDENCE_RELATIONS, tree)
        self.tree = tree
        self._size: tuple[str, QSize] | None = None  # (font key, size)

    def cell_size(self) -> QSize:
        """The size of the widest relation with its colour swatch, in the tree's font."""
        key = self.tree.font().key()
        if self._size is None or self._size[0] != key:
            style = self.tree.style()
            opt = QStyleOptionViewItem()
            opt.initFrom(self.tree)
            opt.font = self.tree.font()
            opt.fontMetrics = self.tree.fontMetrics()
            opt.features = (QStyleOptionViewItem.ViewItemFeature.HasDisplay
                            | QStyleOptionViewItem.ViewItemFeature.HasDecoration)
            icon = self.tree.iconSize()
            opt.decorationSize = icon if icon.isValid() else QSize(
                *(style.pixelMetric(QStyle.PixelMetric.PM_SmallIconSize, None, self.tree),) * 2)
            sizes = []
            for relation in EVIDENCE_RELATIONS:
                opt.text = relation
                sizes.append(style.sizeFromContents(QStyle.ContentsType.CT_ItemViewItem, opt,
                                                    QSize(), self.tree))
            self._size = (key, QSize(max(z.width() for z in sizes),
                                     max(z.height() for z in sizes)))
        return self._size[1]

    def sizeHint(self, option: QStyleOptionViewItem,
                 index: QModelIndex | QPersistentModelIndex) -> QSize:
        return self.cell_size()


class EvidencePanel(QWidget):
    """The selected item's evidence: a header naming the item and its counts, the quoted
    passages grouped by document, then one folded row per document of its bare-name mentions.

    Signals: ``passage_activated(document_id, start, end)`` on double-click (start and end are
    Python str offsets, -1 for a whole-document link); ``unlink_requested(link_id)``;
    ``relation_change_requested(link_id, relation)`` (from the relation column or the menu).
    """

    passage_activated = Signal(int, int, int)
    OPEN_LONE_FOLD = 12
    """A fold of at most this many mentions opens by itself when it is all there is."""
    unlink_requested = Signal(int)
    relation_change_requested = Signal(int, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.item_id: int | None = None
        self.model = EvidenceModel(self)
        self.model.relation_change_requested.connect(self.relation_change_requested)
        self._open_lone_fold = False
        self.title = wrapped_label("No item selected")
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.hint = QLabel(
            "Select text in a document and choose “Link as evidence to…” to add evidence.")
        self.hint.setWordWrap(True)
        self.hint.setEnabled(False)
        self.tree = QTreeView()
        # before the tree's own slot: rows fetched as the tree scrolls are spanned and opened
        # before it lays them out (once)
        self.model.rowsInserted.connect(self._on_rows_inserted)
        self.tree.setModel(self.model)
        # more top rows when the tree reaches its end: after the scroll or layout that got
        # there (once, however many signals), not inside it
        self._fetch_timer = debounce_timer(self, 0, self._fetch_if_at_end)
        bar = self.tree.verticalScrollBar()
        bar.valueChanged.connect(lambda *_: self._fetch_timer.start())
        bar.rangeChanged.connect(lambda *_: self._fetch_timer.start())
        self.tree.setUniformRowHeights(False)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.SelectedClicked
                                  | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.relation_delegate = _RelationDelegate(self.tree)
        self.tree.setItemDelegateForColumn(RELATION_COLUMN, self.relation_delegate)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._on_context_menu_requested)
        self.tree.doubleClicked.connect(self._on_double_clicked)
        # quotes wrap; the document's date and outlet head each group (and every tooltip), so
        # the Date and Outlet columns of the model are not shown in this narrow panel
        self.tree.setWordWrap(True)
        # The Relation column has a fixed width (the widest relation): sizing it to its
        # contents asked every row for its size on each fill. Quotes wrap to the width of the
        # first column, so a new width lays the rows out again (once, before the next paint).
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)
        self._fit_relation_column()
        self.tree.setColumnHidden(2, True)
        self.tree.setColumnHidden(3, True)
        self.tree.setItemDelegateForColumn(0, _WrappingDelegate(self.tree))
        header.sectionResized.connect(self._on_section_resized)
        # short labels (the whole words in the tooltips): both fit a 240-pixel dock
        self.open_button = QPushButton("Open")
        self.open_button.setToolTip("Open the document at this passage (double-click)")
        self.remove_button = QPushButton("Remove link")
        self.remove_button.setToolTip("Remove this evidence link (the passage stays); Ctrl+Z "
                                      "undoes it")
        self.open_button.clicked.connect(self._on_open_clicked)
        self.remove_button.clicked.connect(self._on_remove_clicked)
        self.tree.selectionModel().currentChanged.connect(self._on_current_changed)
        buttons = row_at_left(self.open_button, self.remove_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.title)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.hint)
        layout.addLayout(buttons)
        self._on_current_changed(QModelIndex(), QModelIndex())

    def show_evidence(self, item_id: int | None, title: str,
                      views: Sequence[EvidenceView] | EvidenceGroups, *,
                      heading: str | None = None) -> None:
        """Show an item's evidence (None: nothing selected): ``evidence_groups``' value, or the
        rows of ``evidence_for``. Quoted passages come first, open; each document's bare-name
        mentions are one folded row, closed until the reporter opens it (unless nothing is
        quoted and one document holds at most ``OPEN_LONE_FOLD`` mentions). ``heading``, with
        no item, names what the rows are the evidence of (e.g. an edge of the graph)."""
        self.item_id = item_id
        self.model.set_evidence(views)
        evidence = self.model.evidence
        # nothing quoted and one short fold: open it, else the panel reads as empty
        self._open_lone_fold = (not evidence.quotes and len(evidence.folds) == 1
                                and evidence.mention_count <= self.OPEN_LONE_FOLD)
        self._prepare_top_rows(0, self.model.rowCount() - 1, reset=True)
        if item_id is None and heading:
            self.title.setText(f"{heading} — {evidence.summary()}")
        elif item_id is None:
            self.title.setText("No item selected")
        else:
            self.title.setText(f"{title} — {evidence.summary()}")
        self.hint.setVisible(item_id is not None and not evidence.links)
        self._on_current_changed(self.tree.currentIndex(), QModelIndex())

    @Slot(QModelIndex, int, int)
    def _on_rows_inserted(self, parent: QModelIndex, first: int, last: int) -> None:
        if not parent.isValid():  # a batch of top rows, fetched as the tree scrolls down
            self._prepare_top_rows(first, last, reset=False)

    @Slot()
    def _fetch_if_at_end(self) -> None:
        """The tree shows its last row (scrolled to the end, or every row fits): the next
        batch of top rows, if any."""
        if not self.model.has_more_rows():
            return
        self.tree.executeDelayedItemsLayout()  # the layout due before the paint: the real end
        bar = self.tree.verticalScrollBar()
        if bar.value() >= bar.maximum():
            self.model.fetch_more_rows()

    def _prepare_top_rows(self, first: int, last: int, *, reset: bool) -> None:
        """Top rows ``first..last`` span the columns; the quotes' groups open."""
        rows = range(first, last + 1)
        if not rows:
            return
        self._fetch_timer.start()  # more, if these do not fill the tree
        if reset:
            # After a reset, spanning a row lays the tree out and repaints the row, which
            # places it: with rows of their own heights Qt would size every row above it. So
            # the rows are spanned with uniform heights for the while (no row sized) and before
            # their groups open (a layout of the first top rows alone); then the groups open
            # while a new layout is pending (Qt only notes them), and that one layout, before
            # the paint, sizes only the rows that show.
            self.tree.setUniformRowHeights(True)
        # Rows just fetched are not laid out yet: the tree only notes their spans and groups,
        # and lays them out once.
        for row in rows:
            self.tree.setFirstColumnSpanned(row, QModelIndex(), True)
        if reset:
            self.tree.setUniformRowHeights(False)
            self.tree.scheduleDelayedItemsLayout()
        for row in rows:
            index = self.model.index(row, 0)
            if self._open_lone_fold or not self.model.is_fold(index):
                self.tree.expand(index)

    def _fit_relation_column(self) -> None:
        width = max(self.relation_delegate.cell_size().width(),
                    self.tree.header().sectionSizeHint(RELATION_COLUMN))
        self.tree.header().resizeSection(RELATION_COLUMN, width + 4)

    def changeEvent(self, event: QEvent) -> None:
        """A new font or style: the Relation column fits the widest relation again."""
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fit_relation_column()

    @Slot(int, int, int)
    def _on_section_resized(self, section: int, old: int, new: int) -> None:
        if section == 0 and old != new:
            self.tree.scheduleDelayedItemsLayout()  # the wrapped rows' heights change

    def link_indexes(self) -> list[QModelIndex]:
        """Indexes (column 0) of every link row, in display order: the quotes, then the
        mentions inside each folded row (whether it is open or not). Fetches every top row."""
        self.model.fetch_all()
        out: list[QModelIndex] = []
        for g in range(self.model.rowCount()):
            parent = self.model.index(g, 0)
            out.extend(self.model.index(r, 0, parent) for r in range(self.model.rowCount(parent)))
        return out

    def fold_indexes(self) -> list[QModelIndex]:
        """Indexes (column 0) of the folded rows, one per document that mentions the item.
        Fetches every top row."""
        self.model.fetch_all()
        return [i for i in (self.model.index(r, 0) for r in range(self.model.rowCount()))
                if self.model.is_fold(i)]

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
        if self.model.is_fold(index):
            return  # the tree opens or closes the fold
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
                action.triggered.connect(partial(self._choose_relation, view, relation))
                relations.addAction(action)
            menu.addSeparator()
            menu.addAction("Remove link", partial(self._remove_link, view))
        return menu

    def _choose_relation(self, view: EvidenceView, relation: str, _checked: bool = False) -> None:
        """A relation picked from the menu: ask for the change unless it is the current one."""
        if relation != view.relation:
            self.relation_change_requested.emit(view.link_id, relation)

    def _remove_link(self, view: EvidenceView, _checked: bool = False) -> None:
        self.unlink_requested.emit(view.link_id)
