"""The Evidence panel's item model and the colours of evidence relations.

* :class:`EvidenceModel` – an item's evidence: quotes grouped by document, then the bare-name
  mentions folded per document (a two-level tree).
* :func:`relation_colour` and :data:`RELATION_PRECEDENCE` – one colour per relation, shared by
  the panel, the document viewer's highlights and the claims view.

Like the other models (:mod:`casefile.ui.models`) it never writes: a relation changed in the
panel becomes a ``*_requested`` signal the window runs as a service call.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QFont

from casefile.quoting import quoted
from casefile.services.evidence import EvidenceGroups, EvidenceView, group_evidence
from casefile.store.evidence import EVIDENCE_RELATIONS
from casefile.ui.models import DISPLAY, ID_ROLE, GroupedModel, Index, is_dark_palette

EVIDENCE_HEADERS = ("Evidence", "Relation", "Date", "Outlet")
RELATION_COLUMN = 1
SPAN_ROLE = Qt.ItemDataRole.UserRole + 5
"""Role answering, on a mention row, ``(start, end)`` of the name inside its context snippet
(the row's display text); None elsewhere."""


_NO_FLAGS = Qt.ItemFlag.NoItemFlags
_GROUP_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_LINK_FLAGS = _GROUP_FLAGS | Qt.ItemFlag.ItemNeverHasChildren
_RELATION_FLAGS = _LINK_FLAGS | Qt.ItemFlag.ItemIsEditable
_COLUMNS = len(EVIDENCE_HEADERS)


@dataclass
class _Group:
    document_id: int
    title: str
    outlet: str | None
    published: str | None
    links: list[EvidenceView]
    fold: bool = False  # the document's bare-name mentions, folded into one row


class EvidenceModel(GroupedModel):
    """An item's evidence as a tree: first one top row per document with quoted passages
    (title, date, outlet; one child per quote), then one folded top row per document that
    mentions the item by name ("Mentioned 5 times"; one child per mention, showing the words
    around it, with ``SPAN_ROLE`` giving the name's place in them).

    ``ID_ROLE`` answers the link id on children and the document id on top rows. Editing a
    child's Relation emits ``relation_change_requested(link_id, relation)``.

    The top rows come a batch at a time (:meth:`fetch_more_rows`, which the evidence panel
    calls as its tree scrolls to the end): about ``FETCH_ROWS`` rows of the tree each, a
    document's quotes counted as open and its mentions as folded, so that the tree lays out
    what it shows rather than every passage. :meth:`fetch_all` brings the rest at once. (Not
    Qt's ``canFetchMore``/``fetchMore``: a QTreeView fetches a batch on each of its layouts.)"""

    relation_change_requested = Signal(int, str)
    FETCH_ROWS = 80
    """About how many rows of the tree (top rows and open quotes) a batch of top rows brings."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._groups: list[_Group] = []
        self._shown = 0  # the top rows fetched so far
        self.evidence = EvidenceGroups((), ())

    def set_evidence(self, views: Sequence[EvidenceView] | EvidenceGroups) -> None:
        """Show these evidence rows (as returned by ``evidence_for`` or ``evidence_groups``):
        quoted passages grouped by document, then the mentions folded per document."""
        evidence = views if isinstance(views, EvidenceGroups) else group_evidence(views)
        self.beginResetModel()
        self.evidence = evidence
        groups: dict[int, _Group] = {}
        for v in evidence.quotes:
            group = groups.get(v.document_id)
            if group is None:
                group = groups[v.document_id] = _Group(
                    v.document_id, v.document_title, v.outlet, v.published, [])
            group.links.append(v)
        self._groups = [*groups.values(), *(
            _Group(f.document_id, f.document_title, f.outlet, f.published, list(f.mentions),
                   fold=True)
            for f in evidence.folds)]
        self._shown = self._batch_end(0)
        self.endResetModel()

    def _batch_end(self, first: int) -> int:
        """Where the batch of top rows starting at ``first`` ends (exclusive)."""
        rows, end = 0, first
        while end < len(self._groups) and rows < self.FETCH_ROWS:
            group = self._groups[end]
            rows += 1 if group.fold else 1 + len(group.links)
            end += 1
        return end

    def has_more_rows(self) -> bool:
        """True while some top rows are still to fetch."""
        return self._shown < len(self._groups)

    def fetch_more_rows(self) -> None:
        """Bring the next batch of top rows (about ``FETCH_ROWS`` rows of the tree)."""
        self._fetch_to(self._batch_end(self._shown))

    def fetch_all(self) -> None:
        """Bring every remaining top row now."""
        self._fetch_to(len(self._groups))

    def _fetch_to(self, end: int) -> None:
        if end > self._shown:
            self.beginInsertRows(QModelIndex(), self._shown, end - 1)
            self._shown = end
            self.endInsertRows()

    def link_count(self) -> int:
        """Number of evidence links of the item (quotes and mentions), fetched or not."""
        return sum(len(g.links) for g in self._groups)

    def is_fold(self, index: Index) -> bool:
        """True for the folded row of a document's mentions."""
        return (index.isValid() and index.internalId() == 0
                and self._groups[index.row()].fold)

    def is_mention(self, index: Index) -> bool:
        """True for a mention row (a child of a folded row)."""
        return (index.isValid() and index.internalId() != 0
                and self._groups[index.internalId() - 1].fold)

    def evidence_at(self, index: Index) -> EvidenceView | None:
        """The link shown at ``index`` (None for a document or folded row)."""
        if not index.isValid() or index.internalId() == 0:
            return None
        return self._groups[index.internalId() - 1].links[index.row()]

    def document_index(self, document_id: int) -> QModelIndex:
        """The top row of a document's quotes (else of its mentions), fetched if need be, or an
        invalid index."""
        for n, g in enumerate(self._groups):
            if g.document_id == document_id:
                self._fetch_to(n + 1)
                return self.index(n, 0)
        return QModelIndex()

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        # asked for every row on each layout of the tree: as few calls as can be
        if 0 <= column < _COLUMNS and row >= 0:
            if not parent.isValid():
                if row < self._shown:
                    return self.createIndex(row, column, 0)
            elif parent.internalId() == 0 and parent.column() == 0:
                group = parent.row()
                if row < len(self._groups[group].links):
                    return self.createIndex(row, column, group + 1)
        return QModelIndex()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if not parent.isValid():
            return self._shown
        if parent.internalId() == 0 and parent.column() == 0:
            return len(self._groups[parent.row()].links)
        return 0

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return len(EVIDENCE_HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if (orientation == Qt.Orientation.Horizontal and role == DISPLAY
                and 0 <= section < len(EVIDENCE_HEADERS)):
            return EVIDENCE_HEADERS[section]
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        # asked for every row on each layout of the tree: constants, and links are leaves
        if not index.isValid():
            return _NO_FLAGS
        if index.internalId() == 0:
            return _GROUP_FLAGS
        return _RELATION_FLAGS if index.column() == RELATION_COLUMN else _LINK_FLAGS

    def _top_data(self, group: _Group, column: int, role: int) -> Any:
        if role == DISPLAY:
            n = len(group.links)
            facts = " · ".join(p for p in (group.outlet, group.published) if p)
            if group.fold:
                times = "once" if n == 1 else f"{n} times"
                label = f"Mentioned {times} in {group.title}" + (f"\n{facts}" if facts else "")
            else:
                count = f"{n} passage{'s' if n != 1 else ''}"
                label = f"{group.title}\n{facts + ' · ' if facts else ''}{count}"
            return (label, "", group.published or "", group.outlet or "")[column]
        if role == ID_ROLE:
            return group.document_id
        if role == Qt.ItemDataRole.FontRole and column == 0:
            font = QFont()
            font.setBold(not group.fold)
            font.setItalic(group.fold)
            return font
        if role == Qt.ItemDataRole.ToolTipRole:
            if group.fold:
                return (f"{group.title}: the name alone, {len(group.links)}×"
                        " — expand to read each with the words around it")
            return group.title
        return None

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid():
            return None
        column = index.column()
        if index.internalId() == 0:
            return self._top_data(self._groups[index.row()], column, role)
        view = self._groups[index.internalId() - 1].links[index.row()]
        if role in (DISPLAY, Qt.ItemDataRole.EditRole):
            if role == DISPLAY and column == 0 and view.mention and view.context is not None:
                return view.context
            quote = view.quote if view.quote is not None else "(the whole document)"
            if role == DISPLAY and column == 0 and view.quote:
                quote = quoted(quote, 400)
            return (quote, view.relation, view.published or "", view.outlet or "")[column]
        if role == SPAN_ROLE:
            return view.context_span if view.mention and column == 0 else None
        if role == ID_ROLE:
            return view.link_id
        if role == Qt.ItemDataRole.ToolTipRole:
            where = f", page {view.page}" if view.page else ""
            facts = ", ".join(p for p in (view.outlet, view.published) if p)
            return (f"{view.context or view.quote or view.document_title}\n— "
                    f"{view.document_title}{where}" + (f" ({facts})" if facts else ""))
        if role == Qt.ItemDataRole.DecorationRole and column == RELATION_COLUMN:
            return relation_colour(view.relation, opaque=True)
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        view = self.evidence_at(index)
        if (view is None or index.column() != RELATION_COLUMN
                or role != Qt.ItemDataRole.EditRole or value not in EVIDENCE_RELATIONS):
            return False
        if value != view.relation:
            self.relation_change_requested.emit(view.link_id, str(value))
        return True


_RELATION_RGB = {
    "supports": (46, 160, 67),
    "contradicts": (218, 54, 51),
    "mentions": (56, 132, 244),
    "context": (210, 153, 34),
}
RELATION_PRECEDENCE = ("contradicts", "supports", "mentions", "context")
"""When a passage has several links, the first relation in this order gives its colour."""


def relation_colour(relation: str, *, opaque: bool = False) -> QColor:
    """The colour of a relation; translucent (for highlighting text over any palette) unless
    ``opaque``."""
    r, g, b = _RELATION_RGB.get(relation, (128, 128, 128))
    return QColor(r, g, b) if opaque else QColor(r, g, b, 90 if is_dark_palette() else 70)
