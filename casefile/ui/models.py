"""Qt item models over the services' plain views.

* :class:`ItemTableModel` – one navigator section (people, documents...), fetched from the
  database a page at a time (``canFetchMore``/``fetchMore``), sorted in Python on request.
* :class:`SectionProxyModel` – filter-as-you-type over it; header clicks sort the source.
* :class:`FollowupsModel` – open questions by due date, overdue in a warning colour, status
  editable in place.

The Evidence panel's model and the relation colours are in :mod:`casefile.ui.evidence_model`.

Models never write: an edit made in a view is turned into a ``*_requested`` signal, which the
window runs as a service call; the model refreshes when ``case_changed`` comes back.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from contextlib import suppress
from datetime import date
from typing import Any, overload

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QFont, QGuiApplication, QPalette

from casefile.collector import paused as collector_paused
from casefile.services.questions import FollowUp
from casefile.services.views import SECTION_COLUMNS, ItemRow
from casefile.store.items import QUESTION_STATUSES

ID_ROLE = Qt.ItemDataRole.UserRole + 1
"""Role answering the item id (int) of a row; for evidence rows, the link id."""
KIND_ROLE = Qt.ItemDataRole.UserRole + 2
"""Role answering the item kind (str) of a row."""
FILTER_ROLE = Qt.ItemDataRole.UserRole + 3
"""Role answering the row's text, case-folded, that the filter matches."""
SORT_ROLE = Qt.ItemDataRole.UserRole + 4
"""Role answering a comparable sort key of a cell."""

Index = QModelIndex | QPersistentModelIndex
DISPLAY = Qt.ItemDataRole.DisplayRole
#: The internalId of a group row of a :class:`GroupedModel`.
GROUP_ID = 0


class GroupedModel(QAbstractItemModel):
    """Base of a two-level tree model: group rows at the top, whose internalId is
    ``GROUP_ID``, and under each the rows of its group, whose internalId is the group's row
    + 1, so every index names its parent. Subclasses give ``index`` (making their indexes so),
    ``rowCount``, ``columnCount`` and ``data``; this class gives ``parent``."""

    @overload
    def parent(self) -> QObject | None: ...
    @overload
    def parent(self, index: Index, /) -> QModelIndex: ...

    def parent(self, index: Index | None = None) -> QObject | QModelIndex | None:
        """``parent()`` is QObject's (the owner); ``parent(index)`` the row's parent index."""
        if index is None:
            return super().parent()
        if not index.isValid() or index.internalId() == GROUP_ID:
            return QModelIndex()
        return self.createIndex(int(index.internalId()) - 1, 0, GROUP_ID)


SECTION_TITLES = {
    "person": "People", "organization": "Organizations", "place": "Places",
    "document": "Documents", "event": "Events", "claim": "Claims", "question": "Questions",
}
"""Navigator names of the item kinds, in navigator order."""


def cell_text(value: Any) -> str:
    """How a cell value is shown: dates ISO 8601, None empty, the rest ``str()``."""
    if value is None:
        return ""
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


def sort_key(value: Any) -> tuple[int, Any]:
    """A key that orders a column's values: empty last, text case-insensitively."""
    if value is None or value == "":
        return (1, "")
    if isinstance(value, str):
        return (0, value.casefold())
    if isinstance(value, date):
        return (0, value.isoformat())
    return (0, value)


def is_dark_palette() -> bool:
    """True when the application's palette has a dark base (a dark desktop theme)."""
    app = QGuiApplication.instance()
    palette = QGuiApplication.palette() if app is not None else QPalette()
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


def warning_colour() -> QColor:
    """A red readable on the current palette (overdue follow-ups)."""
    return QColor("#ff7b72") if is_dark_palette() else QColor("#b42318")


class LazyTableModel(QAbstractTableModel):
    """A table whose rows come from ``count()`` and ``fetch(offset, limit)``, a page at a time.

    Subclasses set ``headers`` and implement :meth:`count`, :meth:`fetch` and :meth:`cell`.
    ``sort()`` loads the remaining pages first, then orders the rows in Python (stable).
    """

    PAGE = 500
    headers: tuple[str, ...] = ()

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[Any] = []
        self._total = 0
        self._sort_column = -1
        self._sort_order = Qt.SortOrder.AscendingOrder
        self._haystacks: dict[int, str] = {}

    # -- to implement ---------------------------------------------------------------------

    def count(self) -> int:
        """Total number of rows available."""
        raise NotImplementedError

    def fetch(self, offset: int, limit: int | None) -> list[Any]:
        """Rows ``offset`` .. ``offset + limit`` (None: all the rest) in the default order."""
        raise NotImplementedError

    def cell(self, row: Any, column: int) -> Any:
        """The plain value shown in ``column`` for ``row``."""
        raise NotImplementedError

    def row_id(self, row: Any) -> int:
        """The id identifying ``row`` (kept across reloads for selection); rows have ``.id``."""
        return int(row.id)

    # -- loading ----------------------------------------------------------------------------

    def reload(self) -> None:
        """Load again from the start, keeping as many rows loaded as before and the sort."""
        keep = max(len(self._rows), self.PAGE)
        self.beginResetModel()
        self._haystacks.clear()
        total = self.count()
        self._rows = self.fetch(0, keep) if total else []
        if len(self._rows) < keep:
            total = len(self._rows)  # that was everything
        if self._sort_column >= 0:
            if len(self._rows) < total:
                with collector_paused():
                    self._rows.extend(self.fetch(len(self._rows), None))
            total = len(self._rows)
            self._sort_rows()
        self._total = max(total, len(self._rows))
        self.endResetModel()

    def clear(self) -> None:
        """Show no rows (no case open)."""
        self.beginResetModel()
        self._rows, self._total = [], 0
        self._haystacks.clear()
        self.endResetModel()

    @property
    def total(self) -> int:
        """Number of rows available, loaded or not."""
        return self._total

    @property
    def loaded(self) -> int:
        """Number of rows loaded so far."""
        return len(self._rows)

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008
        if parent.isValid():
            return False
        return len(self._rows) < self._total

    def fetchMore(self, parent: Index = QModelIndex()) -> None:  # noqa: B008
        if parent.isValid() or len(self._rows) >= self._total:
            return
        self._append(self.fetch(len(self._rows), self.PAGE))

    def fetch_all(self) -> None:
        """Load every remaining page now (before sorting, filtering or jumping to the end)."""
        if len(self._rows) < self._total:
            with collector_paused():
                rest = self.fetch(len(self._rows), None)
            self._append(rest)

    def _append(self, batch: list[Any]) -> None:
        if not batch:
            self._total = len(self._rows)
            return
        first = len(self._rows)
        self.beginInsertRows(QModelIndex(), first, first + len(batch) - 1)
        self._rows.extend(batch)
        self.endInsertRows()

    # -- access -------------------------------------------------------------------------------

    def row_at(self, row: int) -> Any:
        """The plain row object at ``row``."""
        return self._rows[row]

    def row_of_id(self, item_id: int) -> int:
        """The row showing ``item_id`` among the loaded rows, or -1."""
        for n, row in enumerate(self._rows):
            if self.row_id(row) == item_id:
                return n
        return -1

    def haystacks(self) -> list[str]:
        """The filter text of every loaded row, in row order (made in one pass)."""
        cache = self._haystacks
        out = []
        with collector_paused():
            for obj in self._rows:
                text = cache.get(obj.id)
                if text is None:
                    text = cache[obj.id] = self.row_text(obj).casefold()
                out.append(text)
        return out

    def haystack(self, row: int) -> str:
        """The row's text, case-folded, for the filter."""
        obj = self._rows[row]
        key = obj.id
        text = self._haystacks.get(key)
        if text is None:
            text = self._haystacks[key] = self.row_text(obj).casefold()
        return text

    def row_text(self, row: Any) -> str:
        """All of a row's cells as one string (what the filter searches)."""
        return " ".join(cell_text(self.cell(row, c)) for c in range(len(self.headers)))

    # -- Qt model API ---------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.headers)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if (orientation == Qt.Orientation.Horizontal and role == DISPLAY
                and 0 <= section < len(self.headers)):
            return self.headers[section]
        return None

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self._rows)):
            return None
        if role == FILTER_ROLE:
            return self.haystack(index.row())
        row = self._rows[index.row()]
        column = index.column()
        if role in (DISPLAY, Qt.ItemDataRole.EditRole):
            return cell_text(self.cell(row, column))
        if role == ID_ROLE:
            return self.row_id(row)
        if role == SORT_ROLE:
            return str(sort_key(self.cell(row, column)))
        if role == Qt.ItemDataRole.TextAlignmentRole and isinstance(self.cell(row, column), int):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return self.extra_data(row, column, role)

    def extra_data(self, row: Any, column: int, role: int) -> Any:
        """Other roles (fonts, colours, tooltips) for subclasses; None by default."""
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not (0 <= column < len(self.headers)):
            return
        if self._sort_column < 0 and column == 0 and order == Qt.SortOrder.AscendingOrder:
            return  # the rows already come by title: no need to load every page
        self._sort_column, self._sort_order = column, order
        self.fetch_all()
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        ids = [self.row_id(self._rows[i.row()]) for i in old]
        self._sort_rows()
        if old:
            wanted = set(ids)
            position = {}
            for n, r in enumerate(self._rows):
                rid = self.row_id(r)
                if rid in wanted:
                    position[rid] = n
            self.changePersistentIndexList(
                old, [self.index(position[i], idx.column())
                      for i, idx in zip(ids, old, strict=True)])
        self.layoutChanged.emit()

    def _sort_rows(self) -> None:
        column = self._sort_column
        with collector_paused():
            self._rows.sort(key=lambda r: sort_key(self.cell(r, column)),
                            reverse=self._sort_order == Qt.SortOrder.DescendingOrder)


class ItemTableModel(LazyTableModel):
    """The rows of one section (item kind) of a case.

    ``loader(offset, limit)`` and ``counter()`` return :class:`ItemRow` lists and the total;
    ``refresher(ids)`` returns fresh rows for those ids (in-place updates after an edit).
    """

    def __init__(
        self, kind: str, *, counter: Callable[[], int],
        loader: Callable[[int, int | None], list[ItemRow]],
        refresher: Callable[[list[int]], list[ItemRow]] | None = None, parent: Any = None,
    ) -> None:
        super().__init__(parent)
        self.kind = kind
        self.headers = SECTION_COLUMNS[kind]
        self._counter, self._loader, self._refresher = counter, loader, refresher

    def count(self) -> int:
        return self._counter()

    def fetch(self, offset: int, limit: int | None) -> list[ItemRow]:
        return self._loader(offset, limit)

    def cell(self, row: ItemRow, column: int) -> Any:
        return row.cells[column]

    def row_text(self, row: ItemRow) -> str:
        return " ".join([str(c) for c in row.cells if c is not None])

    def _sort_rows(self) -> None:
        column = self._sort_column
        with collector_paused():
            self._rows.sort(key=lambda r: sort_key(r.cells[column]),
                            reverse=self._sort_order == Qt.SortOrder.DescendingOrder)

    def extra_data(self, row: ItemRow, column: int, role: int) -> Any:
        if role == KIND_ROLE:
            return row.kind
        if role == Qt.ItemDataRole.FontRole and row.confidential and column == 0:
            font = QFont()
            font.setItalic(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole and column == 0:
            return row.title + ("\n(confidential: left out of exports)" if row.confidential
                                else "")
        return None

    def refresh_items(self, ids: Sequence[int]) -> None:
        """Re-read these items' rows in place (after an edit); unknown ids are ignored."""
        if self._refresher is None:
            self.reload()
            return
        wanted = {i for i in ids if self.row_of_id(i) >= 0}
        if not wanted:
            return
        for fresh in self._refresher(sorted(wanted)):
            n = self.row_of_id(fresh.id)
            if n >= 0:
                self._rows[n] = fresh
                self._haystacks.pop(fresh.id, None)
                self.dataChanged.emit(self.index(n, 0), self.index(n, len(self.headers) - 1))


class SectionProxyModel(QSortFilterProxyModel):
    """Filter-as-you-type over an :class:`ItemTableModel` (every column, case-insensitive,
    every typed word must appear, in any order).

    Rows are judged on their cached text (``LazyTableModel.haystack``) and verdicts are cached
    per text, so re-filtering 100,000 rows costs one dictionary lookup each. Sorting is
    forwarded to the source model, which sorts its rows in Python: comparing through
    ``data()`` from C++ would be far too slow for a section of 100,000 items.
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._needle = ""
        self._words: list[str] = []
        self._verdicts: dict[str, bool] = {}  # row text -> shown, for the current filter
        self._accept_rows: list[bool] | None = None  # per source row, until the source changes
        self._column_value: tuple[int, str] | None = None  # (column, the value it must show)

    def setSourceModel(self, model: Any) -> None:
        old = self.sourceModel()
        if old is not None:
            for signal in (old.modelAboutToBeReset, old.rowsInserted, old.rowsRemoved,
                           old.layoutAboutToBeChanged, old.dataChanged):
                with suppress(RuntimeError, TypeError, RuntimeWarning):
                    signal.disconnect(self._forget_rows)
        if model is not None:
            # connected before the proxy's own handlers, so they never see stale verdicts
            for signal in (model.modelAboutToBeReset, model.rowsInserted, model.rowsRemoved,
                           model.layoutAboutToBeChanged, model.dataChanged):
                signal.connect(self._forget_rows)
        self._accept_rows = None
        super().setSourceModel(model)

    def _forget_rows(self, *_args: Any) -> None:
        self._accept_rows = None

    @property
    def filter_text(self) -> str:
        """The current filter (normalised: case-folded words)."""
        return self._needle

    def set_filter_text(self, text: str) -> None:
        """Show only rows containing every word of ``text`` (all rows for empty text)."""
        needle = " ".join(text.casefold().split())
        if needle == self._needle:
            return
        source = self.sourceModel()
        words = needle.split()
        verdicts: dict[str, bool] = {}
        accept: list[bool] | None = None
        if needle and isinstance(source, LazyTableModel):
            source.fetch_all()
            hays = source.haystacks()
            with collector_paused():
                if len(words) == 1:
                    word = words[0]
                    verdicts = {hay: word in hay for hay in hays}
                else:  # every word, any order: one regular expression search per row
                    search = re.compile(
                        "".join(f"(?=.*?{re.escape(w)})" for w in words), re.DOTALL).match
                    verdicts = {hay: search(hay) is not None for hay in hays}
                accept = [verdicts[hay] for hay in hays]
        if hasattr(self, "beginFilterChange"):  # Qt >= 6.9
            self.beginFilterChange()
            self._needle, self._words, self._verdicts = needle, words, verdicts
            self._accept_rows = accept
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:  # pragma: no cover - older Qt
            self._needle, self._words, self._verdicts = needle, words, verdicts
            self._accept_rows = accept
            self.invalidateRowsFilter()

    def set_column_value(self, column: int | None, value: str | None) -> None:
        """Show only rows whose ``column`` shows exactly ``value`` (None: no such condition),
        on top of the typed filter (the Documents section's reading state)."""
        wanted = (column, value) if column is not None and value is not None else None
        if wanted == self._column_value:
            return
        source = self.sourceModel()
        if wanted is not None and isinstance(source, LazyTableModel):
            source.fetch_all()
        if hasattr(self, "beginFilterChange"):  # Qt >= 6.9
            self.beginFilterChange()
            self._column_value = wanted
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:  # pragma: no cover - older Qt
            self._column_value = wanted
            self.invalidateRowsFilter()

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        if self._column_value is not None:
            column, value = self._column_value
            shown = self.sourceModel().index(source_row, column, source_parent).data()
            if shown != value:
                return False
        if not self._needle:
            return True
        accept = self._accept_rows
        if accept is not None and source_row < len(accept):
            return accept[source_row]
        source = self.sourceModel()
        if isinstance(source, LazyTableModel):
            hay = source.haystack(source_row)
        else:  # pragma: no cover - only LazyTableModel sources are used
            hay = str(source.index(source_row, 0, source_parent).data(FILTER_ROLE) or "")
        verdict = self._verdicts.get(hay)
        if verdict is None:
            verdict = self._verdicts[hay] = all(w in hay for w in self._words)
        return verdict

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        source = self.sourceModel()
        if source is not None:
            source.sort(column, order)

    def canFetchMore(self, parent: Index) -> bool:
        return not self._needle and self._column_value is None and super().canFetchMore(parent)


FOLLOWUP_HEADERS = ("Due", "When", "Question", "Kind", "Status", "Ask")
STATUS_COLUMN = 4


def due_phrase(days_left: int | None) -> str:
    """"3 days overdue", "today", "in 2 days"... for a follow-up's days left."""
    if days_left is None:
        return "no date"
    if days_left < 0:
        n = -days_left
        return f"{n} day{'s' if n != 1 else ''} overdue"
    if days_left == 0:
        return "today"
    if days_left == 1:
        return "tomorrow"
    return f"in {days_left} days"


class FollowupsModel(LazyTableModel):
    """Follow-ups (questions) of a case, overdue and soonest first; status editable in place.

    ``loader()`` returns the :class:`FollowUp` list. Editing the Status column emits
    ``status_change_requested(question_id, status)``; the model changes when the case does.
    """

    status_change_requested = Signal(int, str)
    headers = FOLLOWUP_HEADERS

    def __init__(self, loader: Callable[[], list[FollowUp]], parent: Any = None) -> None:
        super().__init__(parent)
        self._loader = loader
        self._all: list[FollowUp] = []

    def count(self) -> int:
        self._all = self._loader()
        return len(self._all)

    def fetch(self, offset: int, limit: int | None) -> list[FollowUp]:
        return self._all[offset:] if limit is None else self._all[offset:offset + limit]

    def cell(self, row: FollowUp, column: int) -> Any:
        return (row.due, due_phrase(row.days_left), row.text, row.kind, row.status,
                row.ask)[column]

    def extra_data(self, row: FollowUp, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.ForegroundRole and row.overdue:
            return warning_colour()
        if role == Qt.ItemDataRole.FontRole and row.overdue and column in (0, 1):
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole and column == 2:
            return row.text
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = super().flags(index)
        if index.isValid() and index.column() == STATUS_COLUMN:
            return base | Qt.ItemFlag.ItemIsEditable
        return base

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if (not index.isValid() or index.column() != STATUS_COLUMN
                or role != Qt.ItemDataRole.EditRole or value not in QUESTION_STATUSES):
            return False
        row = self._rows[index.row()]
        if value != row.status:
            self.status_change_requested.emit(row.id, str(value))
        return True
