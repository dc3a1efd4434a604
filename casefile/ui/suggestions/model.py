"""The Suggestions panel's tree model (:class:`SuggestionsModel`: a group row per kind, a row per
suggested name, handed to the view a chunk at a time), its columns and how a row reads
(:func:`entry_label`, :func:`entry_details`, claims as "SPEAKER: sentence").
"""


from __future__ import annotations

import logging
import re
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any, overload

from PySide6.QtCore import (
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Slot,
)
from PySide6.QtGui import (
    QBrush,
    QFont,
    QFontMetrics,
    QPalette,
)
from PySide6.QtWidgets import (
    QStyledItemDelegate,
    QStyleOptionViewItem,
)

from casefile.services.decisions import SuggestionEntry, SuggestionList, read_again_later
from casefile.ui.models import GROUP_ID, GroupedModel

if TYPE_CHECKING:
    pass


log = logging.getLogger(__name__)

KIND_TITLES = {
    "person": "People", "organization": "Organizations", "place": "Places",
    "event": "Events", "question": "Follow-ups", "claim": "Claims",
}
KIND_SINGULAR = {
    "person": "person", "organization": "organization", "place": "place",
    "event": "event", "question": "follow-up", "claim": "claim",
}
KIND_PLURAL = {
    "person": "people", "organization": "organizations", "place": "places",
    "event": "events", "question": "follow-ups", "claim": "claims",
}
#: How a decided row is marked in the Details column.
DECIDED_MARKS = {"accept": "✓ accepted", "merge": "✓ merged", "reject": "✗ rejected"}
COLUMNS = ("Suggestion", "#", "Details", "Context")
MENTIONS_COLUMN = 1
DETAILS_COLUMN = 2
#: The Details column's share of the list's width, and its least width (pixels): it widens
#: with the dock and keeps room for a role or "said by …" in a narrow one (a 1024-pixel screen).
DETAILS_SHARE = 0.28
DETAILS_MIN_WIDTH = 90
#: Lines of text the preview under the list has room for (more scroll inside it): a fixed
#: height, so the rows never move under the pointer when another row's preview is longer.
PREVIEW_LINES = 6
CONTEXT_COLUMN = 3
#: The row's SuggestionEntry (None for a kind's group row).
ENTRY_ROLE = Qt.ItemDataRole.UserRole + 1
#: The kind of a row (group rows and suggestion rows).
KIND_ROLE = Qt.ItemDataRole.UserRole + 2
#: Suggestion rows a group shows at first and adds each time its last row comes into view
#: (a case with thousands of suggestions fills the tree in a few milliseconds).
FETCH_ROWS = 32

_Index = QModelIndex | QPersistentModelIndex
_ENABLED = Qt.ItemFlag.ItemIsEnabled
# a suggestion row has no rows under it: said in its flags, the view's layout of the list does
# not ask each row whether it has children
_SELECTABLE = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | (
    Qt.ItemFlag.ItemNeverHasChildren)
_DECIDED = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemNeverHasChildren
_NO_FLAGS = Qt.ItemFlag.NoItemFlags
# the roles as plain ints, read once: an enum member looked up on its class runs Python code,
# and the view asks a cell for its roles, flags and parent many times each time it paints it
_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_FONT = int(Qt.ItemDataRole.FontRole)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_ALIGNMENT = int(Qt.ItemDataRole.TextAlignmentRole)
_ENTRY = int(ENTRY_ROLE)
_KIND = int(KIND_ROLE)
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
#: The roles a suggestion row answers (:meth:`SuggestionsModel.data`); None for the others.
_ROW_ROLES = frozenset({_ENTRY, _KIND, _FOREGROUND, _DISPLAY, _TOOLTIP, _ALIGNMENT})
#: Those a delegate asks of every cell it paints (QStyledItemDelegate's initStyleOption),
#: kept per cell once worked out (:meth:`SuggestionsModel.multiData`).
_PAINT_ROLES = (_FONT, _ALIGNMENT, _FOREGROUND, int(Qt.ItemDataRole.CheckStateRole),
                int(Qt.ItemDataRole.DecorationRole), _DISPLAY,
                int(Qt.ItemDataRole.BackgroundRole))
_NOTHING: dict[int, Any] = {}
_COLUMN_COUNT = len(COLUMNS)


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


#: Openers that say nothing about what happened ("Just this afternoon we are learning that",
#: "Likewise,", "When"): dropped from the start of an event's cue.
_OPENERS = re.compile(
    r"^(?:(?:just |earlier |late )?(?:this|that|last) (?:morning|afternoon|evening|night|week)"
    r"[^,.]*?\b(?:that|,)\s+"
    r"|(?:likewise|meanwhile|however|also|then|and|but|so|as|when),?\s+)",
    re.IGNORECASE)


def event_cue(sentence: str, words: int = 7) -> str:
    """A few words saying what an event suggestion is about: its sentence without a leading
    opener, cut to ``words`` words ("…" when cut)."""
    text = " ".join(sentence.split())
    for _ in range(3):
        shorter = _OPENERS.sub("", text, count=1)
        if shorter == text or not shorter:
            break
        text = shorter
    parts = text.split(" ")
    cue = " ".join(parts[:words]).rstrip(",;:")
    cue = cue[:1].upper() + cue[1:]
    return cue + ("…" if len(parts) > words else "")


def entry_label(entry: SuggestionEntry) -> str:
    """The Suggestion column: the name; for an event "DATE — short cue" (the sentence is below
    the list and in the tooltip); for a claim "SPEAKER: sentence" ("no one named: …"), the
    speaker first so that it reads whole where the sentence is cut."""
    if entry.kind == "event":
        when = str(entry.detail.get("date") or "no date")
        return f"{when} — {event_cue(entry.name)}"
    if entry.kind == "claim":
        return f"{claim_speaker(entry)}: {_short(entry.name, 90)}"
    return _short(entry.name, 90)


def claim_speaker(entry: SuggestionEntry) -> str:
    """Who said a claim, as its row starts: the speaker's name ("no one named")."""
    return " ".join(str(entry.detail.get("attributed_to") or "").split()) or "no one named"


def fit_claim_label(speaker: str, sentence: str, metrics: QFontMetrics, width: int) -> str:
    """A claim row's text in ``width`` pixels: "SPEAKER: sentence", the sentence cut ("…") so
    the speaker reads whole; only a speaker wider than the row itself is cut."""
    head = f"{speaker}: "
    room = width - metrics.horizontalAdvance(head)
    if room < metrics.horizontalAdvance("…" * 3):
        return metrics.elidedText(speaker, Qt.TextElideMode.ElideRight, width)
    body = metrics.elidedText(" ".join(sentence.split()), Qt.TextElideMode.ElideRight, room)
    return head + body


class ClaimRowDelegate(QStyledItemDelegate):
    """Draws a claim row's first column as "SPEAKER: sentence" with only the sentence cut to
    the column's width, a decided row with its mark first ("✓", "✗")."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: _Index) -> None:
        super().initStyleOption(option, index)
        if index.column() != 0:
            return
        model = index.model()
        if isinstance(model, SuggestionsModel):  # the kind of the row's group: no data() call
            entry = model.claim(index)
        else:
            entry = index.data(ENTRY_ROLE)
            if not isinstance(entry, SuggestionEntry) or entry.kind != "claim":
                entry = None
        if entry is None:
            return
        how = model.decided(entry.key) if isinstance(model, SuggestionsModel) else None
        mark = DECIDED_MARKS[how].split()[0] + " " if how in DECIDED_MARKS else ""
        metrics = QFontMetrics(option.font)
        # the text's room: the row less the style's margins either side
        width = option.rect.width() - 2 * (metrics.horizontalAdvance(" ") + 3) \
            - metrics.horizontalAdvance(mark)
        option.text = mark + fit_claim_label(claim_speaker(entry), entry.name, metrics, width)


def entry_details(entry: SuggestionEntry) -> str:
    """The Details column: role and affiliation of a person, kind of an organization, date and
    precision of an event, kind and due date of a follow-up."""
    d = entry.detail
    if entry.kind == "person":
        return " · ".join(x for x in (entry.role, entry.affiliation) if x)
    if entry.kind == "organization":
        return str(d.get("org_kind") or "")
    if entry.kind == "event":  # the date leads the name; only a rough precision is said here
        precision = d.get("precision")
        return f"({precision})" if precision and precision != "day" else ""
    if entry.kind == "question":
        due = d.get("due")
        return f"{entry.question_kind}, due {due}" if due else entry.question_kind
    if entry.kind == "claim":
        return claim_attribution(entry)
    return ""


def claim_attribution(entry: SuggestionEntry) -> str:
    """Who said a claim and via whom: "said by Mike Goodrum · via CNN" ("said by no one
    named" when the extractor found no speaker)."""
    said = entry.detail.get("attributed_to")
    via = entry.detail.get("via")
    parts = [f"said by {said}" if said else "said by no one named"]
    if via:
        parts.append(f"via {via}")
    return " · ".join(parts)


class SuggestionsModel(GroupedModel):
    """A two-level tree: one group row per kind ("People (3)"), under it one row per suggested
    name with the columns of :data:`COLUMNS`. Group rows are not selectable.

    A group's rows are handed to the view lazily: :data:`FETCH_ROWS` at first, more through
    ``fetchMore`` (or :meth:`reveal` for a row to select). The model's own lookups
    (:meth:`entry`, :meth:`index_of`, :meth:`entry_indexes`, counts) cover every row."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._groups: list[tuple[str, list[SuggestionEntry]]] = []
        self._group_indexes: list[QModelIndex] = []  # each group row's index (column 0)
        self._cells: dict[tuple[int, int, int], dict[int, Any]] = {}  # see multiData
        self._decided: dict[tuple[str, str, str], str] = {}
        self._fetched: list[int] = []  # rows of each group handed to the view
        self._inserting = False  # rows handed over or reset now (no nested fetch meanwhile)
        self._held = False  # the view fetches nothing by itself (hold_fetches)
        # the rows of the lists shown before, freed a chunk per event-loop turn: dropping
        # thousands of entries at once takes the GUI thread ~80 ms per 12,000
        self._trash: list[SuggestionEntry] = []
        self._sweeper = QTimer(self)
        self._sweeper.setInterval(0)
        self._sweeper.timeout.connect(self._sweep)

    def set_listing(self, listing: SuggestionList | None) -> None:
        """Show ``listing`` (None: nothing); every row undecided."""
        if not self._groups and (listing is None or not listing.by_kind):
            return  # nothing shown, nothing to show: the view is not reset (and laid out)
        for _kind, entries in self._groups:
            self._trash.extend(entries)
        if self._trash:
            self._sweeper.start()
        self._inserting = True  # the view's reset handlers fetch after the reset, not in it
        try:
            self.beginResetModel()
            self._groups = list(listing.by_kind.items()) if listing is not None else []
            self._group_indexes = [self.createIndex(g, 0, GROUP_ID)
                                   for g in range(len(self._groups))]
            self._cells = {}
            self._decided = {}
            self._fetched = [min(len(entries), FETCH_ROWS) for _k, entries in self._groups]
            self.endResetModel()
        finally:
            self._inserting = False

    @Slot()
    def _sweep(self) -> None:
        del self._trash[-1000:]
        if not self._trash:
            self._sweeper.stop()

    def hold_fetches(self, held: bool) -> None:
        """While held, the view fetches no rows by itself (``canFetchMore`` is False); the
        panel holds them while it fills a new list, so the view's first layout lays out the
        :data:`FETCH_ROWS` rows each group starts with, not a chunk more of every group (the
        rows in sight are fetched after it, as on a scroll). :meth:`reveal` still fetches."""
        self._held = held

    def canFetchMore(self, parent: _Index) -> bool:
        # the view asks again from its rowsInserted handlers: the next scroll fetches then
        if self._inserting or self._held or not parent.isValid() or (
                parent.internalId() != GROUP_ID or parent.column() != 0):
            return False
        g = parent.row()
        return 0 <= g < len(self._groups) and self._fetched[g] < len(self._groups[g][1])

    def fetchMore(self, parent: _Index) -> None:
        if self.canFetchMore(parent):
            g = parent.row()
            self._fetch(g, self._fetched[g] + FETCH_ROWS)

    def _fetch(self, g: int, rows: int) -> None:
        """Hand the view the first ``rows`` rows of group ``g`` (at least)."""
        have, total = self._fetched[g], len(self._groups[g][1])
        rows = min(max(rows, have), total)
        if rows > have and not self._inserting:
            self._inserting = True
            try:
                self.beginInsertRows(self.createIndex(g, 0, GROUP_ID), have, rows - 1)
                self._fetched[g] = rows
                self.endInsertRows()
            finally:
                self._inserting = False

    def is_fetched(self, index: _Index) -> bool:
        """True when the view has the row of ``index`` (see :meth:`reveal`)."""
        if not index.isValid() or index.internalId() == GROUP_ID:
            return index.isValid()
        g = int(index.internalId()) - 1
        return 0 <= g < len(self._fetched) and index.row() < self._fetched[g]

    def reveal(self, index: QModelIndex) -> QModelIndex:
        """Hand the view the rows up to ``index`` (a suggestion row) so it can be selected and
        scrolled to; returns the index (column 0)."""
        if not index.isValid() or index.internalId() == GROUP_ID:
            return index
        g = int(index.internalId()) - 1
        if 0 <= g < len(self._groups):
            self._fetch(g, index.row() + 1)
        return self.createIndex(index.row(), 0, g + 1)

    def last_fetched(self) -> list[QModelIndex]:
        """The last row handed to the view of each group that has more to fetch."""
        return [self.createIndex(self._fetched[g] - 1, 0, g + 1)
                for g, (_k, entries) in enumerate(self._groups)
                if 0 < self._fetched[g] < len(entries)]

    def decided(self, key: tuple[str, str, str]) -> str | None:
        """How the row with this key was decided ("accept", "merge", "reject"), or None."""
        return self._decided.get(key)

    def set_decided(self, keys: Sequence[tuple[str, str, str]], how: str | None) -> None:
        """Mark rows decided (``how``: "accept", "merge", "reject") or, with None, undecided
        again. Rows stay where they are; only their look and flags change."""
        self._cells = {}  # the rows' look, and their groups' counts
        for key in keys:
            index = self.index_of(key)
            if how is None:
                if self._decided.pop(key, None) is not None:
                    entry = self.entry(index)
                    if entry is not None:  # pending again: its details are read again
                        read_again_later(entry)
            elif index.isValid():  # only rows of this listing (waiting() counts on it)
                self._decided[key] = how
            if index.isValid() and self.is_fetched(index):
                self.dataChanged.emit(index, index.siblingAtColumn(len(COLUMNS) - 1))
                group = self.parent(index)
                self.dataChanged.emit(group, group)

    def listed_keys(self, keys: Collection[tuple[str, str, str]]
                    ) -> list[tuple[str, str, str]]:
        """Those of ``keys`` that are rows of this list, in its order."""
        wanted = set(keys)
        return [e.key for _k, entries in self._groups for e in entries if e.key in wanted]

    def waiting(self, kind: str | None = None) -> int:
        """Number of undecided rows (of one kind)."""
        # decided keys are rows of this listing (set_listing forgets the others)
        rows = sum(len(entries) for k, entries in self._groups if kind in (None, k))
        return rows - sum(1 for key in self._decided if kind in (None, key[0]))

    def waiting_counts(self) -> dict[str, int]:
        """Undecided rows per kind (kinds with none left out)."""
        counts = {k: self.waiting(k) for k, _entries in self._groups}
        return {k: n for k, n in counts.items() if n}

    def entry(self, index: _Index) -> SuggestionEntry | None:
        """The suggestion of a row (None for a group row or an invalid index)."""
        if not index.isValid() or index.internalId() == GROUP_ID:
            return None
        group = int(index.internalId()) - 1
        if not 0 <= group < len(self._groups):
            return None
        entries = self._groups[group][1]
        return entries[index.row()] if 0 <= index.row() < len(entries) else None

    def claim(self, index: _Index) -> SuggestionEntry | None:
        """The claim of a claim row (None for any other row)."""
        g = index.internalId() - 1
        if not 0 <= g < len(self._groups) or self._groups[g][0] != "claim":
            return None
        return self.entry(index)

    def index_of(self, key: tuple[str, str, str]) -> QModelIndex:
        """The index (column 0) of the suggestion with this ``(kind, name, variant)`` key (the
        view may not have its row yet: :meth:`reveal` it before selecting it)."""
        kind, name = key[0], key[1]
        for g, (k, entries) in enumerate(self._groups):
            if k == kind:
                for r, e in enumerate(entries):
                    if e.name == name and e.key == key:
                        return self.createIndex(r, 0, g + 1)
        return QModelIndex()

    def first_entry_index(self) -> QModelIndex:
        """Column-0 index of the first suggestion row (invalid when there is none)."""
        g = next((g for g, (_k, entries) in enumerate(self._groups) if entries), None)
        return self.createIndex(0, 0, g + 1) if g is not None else QModelIndex()

    def first_at(self, rank_of: Callable[[str], int], rank: int, row: int) -> QModelIndex:
        """The first suggestion row (column 0, display order) at or after row ``row`` of a
        kind ranked ``rank`` (``rank_of(kind)``); else the last row; invalid when there is
        none. Walks the groups, not every row."""
        last = QModelIndex()
        for g, (kind, entries) in enumerate(self._groups):
            if not entries:
                continue
            r = rank_of(kind)
            if r == rank and row < len(entries):
                return self.createIndex(row, 0, g + 1)
            if r > rank:
                return self.createIndex(0, 0, g + 1)
            last = self.createIndex(len(entries) - 1, 0, g + 1)
        return last

    def entry_indexes(self) -> list[QModelIndex]:
        """Column-0 indexes of every suggestion row, in display order."""
        return [self.createIndex(r, 0, g + 1) for g, (_k, entries) in enumerate(self._groups)
                for r in range(len(entries))]

    def group_index(self, kind: str) -> QModelIndex:
        """The group row of ``kind`` (invalid if that kind has no suggestions)."""
        for g, (k, _entries) in enumerate(self._groups):
            if k == kind:
                return self.createIndex(g, 0, GROUP_ID)
        return QModelIndex()

    # -- QAbstractItemModel -------------------------------------------------------------------
    # The view calls these from C++ for every row it lays out and every cell it paints (a
    # paint of the list asks a few hundred parents, flags and indexes): each reads what it
    # needs of the index in as few calls into Qt as it can (an invalid index has row -1 and
    # internalId 0).

    def index(self, row: int, column: int, parent: _Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        g = parent.row()
        if g < 0:  # the root: a group row
            if 0 <= row < len(self._groups) and 0 <= column < _COLUMN_COUNT:
                return self.createIndex(row, column, GROUP_ID)
            return QModelIndex()
        if (row < 0 or not 0 <= column < _COLUMN_COUNT or g >= len(self._fetched)
                or row >= self._fetched[g] or parent.internalId() != GROUP_ID
                or parent.column() != 0):
            return QModelIndex()
        return self.createIndex(row, column, g + 1)

    @overload
    def parent(self) -> QObject | None: ...
    @overload
    def parent(self, index: _Index, /) -> QModelIndex: ...

    def parent(self, index: _Index | None = None) -> QObject | QModelIndex | None:
        """``parent()`` is QObject's (the owner); ``parent(index)`` the row's group row."""
        if index is None:
            return super().parent()
        at = index.internalId() - 1  # a group row and an invalid index: GROUP_ID
        if 0 <= at < len(self._group_indexes):
            return self._group_indexes[at]
        return QModelIndex()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        g = parent.row()
        if g < 0:
            return len(self._groups)
        if g < len(self._fetched) and parent.internalId() == GROUP_ID and parent.column() == 0:
            return self._fetched[g]
        return 0

    def hasChildren(self, parent: _Index = QModelIndex()) -> bool:  # noqa: B008
        g = parent.row()
        if g < 0:
            return bool(self._groups)
        return g < len(self._groups) and bool(self._groups[g][1]) and (
            parent.internalId() == GROUP_ID) and parent.column() == 0

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return _COLUMN_COUNT

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if index.internalId() == GROUP_ID:  # a group row, or an invalid index
            return _ENABLED if index.isValid() else _NO_FLAGS
        if not self._decided:  # the view asks for every cell it paints: no lookup then
            return _SELECTABLE
        entry = self.entry(index)
        if entry is not None and entry.key in self._decided:
            return _DECIDED  # shown, but not selectable for a decision
        return _SELECTABLE

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if (orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole
                and 0 <= section < len(COLUMNS)):
            return COLUMNS[section]
        if (orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole
                and section == MENTIONS_COLUMN):
            return "Mentions"
        return None

    def multiData(self, index: _Index, roleDataSpan: Any) -> None:  # noqa: N803 (Qt's name)
        """Every role a delegate asks of a cell at once (Qt's delegates ask seven per cell
        they paint): one call from Qt into Python per cell instead of one per role. What a
        cell shows for the roles a delegate paints with is worked out once and kept (until
        the list or a decision changes it: :meth:`_cell`); others are asked of
        :meth:`data`. Every role is answered, an empty one cleared: a delegate hands the
        same span for every cell, still holding the last cell's values."""
        key = (index.internalId(), index.row(), index.column())
        values = self._cells.get(key)
        if values is None:
            values = self._cell(index, key)
        for i in range(len(roleDataSpan)):
            wanted = roleDataSpan[i]
            role = wanted.role()
            value = values[role] if role in values else self.data(index, role)
            if value is None:
                wanted.clearData()
            else:
                wanted.setData(value)

    def _cell(self, index: _Index, key: tuple[int, int, int]) -> dict[int, Any]:
        """What the cell ``index`` holds for the roles of :data:`_PAINT_ROLES`, kept under
        ``key`` (not for an invalid index, or a row no longer listed)."""
        if not index.isValid():
            return _NOTHING
        if key[0] == GROUP_ID:
            values = {role: self.data(index, role) for role in _PAINT_ROLES}
        else:
            entry = self.entry(index)
            if entry is None:
                return _NOTHING
            values = {role: self._row_data(entry, key[2], role) for role in _PAINT_ROLES}
        self._cells[key] = values
        return values

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        i = index.internalId()
        if i == GROUP_ID:
            g = index.row()
            if not 0 <= g < len(self._groups):  # an invalid index too (row -1)
                return None
            kind = self._groups[g][0]
            if role == _DISPLAY and index.column() == 0:
                return f"{KIND_TITLES.get(kind, kind)} ({self.waiting(kind)})"
            if role == _FONT and index.column() == 0:
                font = QFont()
                font.setBold(True)
                return font
            if role == _KIND:
                return kind
            return None
        if role not in _ROW_ROLES:  # the view asks a cell for a dozen roles as it paints it
            return None
        entry = self.entry(index)
        if entry is None:
            return None
        return self._row_data(entry, index.column(), role)

    def _row_data(self, entry: SuggestionEntry, column: int, role: int) -> Any:
        """What a suggestion row's cell in ``column`` holds for ``role`` (one of
        :data:`_ROW_ROLES`)."""
        if role == _ENTRY:
            return entry
        if role == _KIND:
            return entry.kind
        how = self._decided.get(entry.key) if self._decided else None
        if role == _FOREGROUND and how is not None:
            return QBrush(QPalette().color(QPalette.ColorGroup.Disabled,
                                           QPalette.ColorRole.Text))
        if role == _DISPLAY:
            if column == 0:
                return entry_label(entry)
            if column == DETAILS_COLUMN:
                return DECIDED_MARKS.get(how, how) if how else entry_details(entry)
            if column == MENTIONS_COLUMN:
                return str(entry.mentions)
            if column == CONTEXT_COLUMN:
                return entry.snippet
            return None
        if role == _TOOLTIP:
            if how is not None:
                return f"{DECIDED_MARKS.get(how, how)} (Undo takes the decision back)"
            if column == DETAILS_COLUMN and entry_details(entry):
                return entry_details(entry)
            where = f"{entry.mentions} mention{'s' if entry.mentions != 1 else ''}"
            if entry.documents > 1:
                where += f" in {entry.documents} documents"
            else:
                where += f" in “{entry.document_title}”"
            details = entry_details(entry)
            return f"{details}\n\n{entry.snippet}\n\n{where}" if details else \
                f"{entry.snippet}\n\n{where}"
        if role == _ALIGNMENT and column == MENTIONS_COLUMN:
            return _RIGHT
        return None


