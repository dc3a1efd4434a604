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
into…, X reject; double-click or Return opens the document at the mention.
"""

from __future__ import annotations

import gc
import html
import logging
import re
import threading
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

from PySide6.QtCore import (
    QAbstractItemModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QStringListModel,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import (
    QAction,
    QBrush,
    QFont,
    QFontMetrics,
    QKeySequence,
    QPalette,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QScrollArea,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeView,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)
from sqlalchemy.orm import Session

from casefile.services import decisions, rejections, views
from casefile.services.changes import Changes, Step
from casefile.services.decisions import Decision, SuggestionEntry, SuggestionList
from casefile.services.rejections import RejectedName
from casefile.services.suggestions import last_suggestion_model, unread_language_notes
from casefile.services.views import ItemChoice
from casefile.ui.docks import DOCK_MIN_WIDTH, add_tabbed_dock
from casefile.ui.operations import CaseChange, OperationRunner, Outcome
from casefile.ui.undo import ActionCommand

if TYPE_CHECKING:
    from casefile.ui.main_window import MainWindow

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
_GROUP = 0  # internalId of group rows; suggestion rows carry their group's row + 1
#: Suggestion rows a group shows at first and adds each time its last row comes into view
#: (a case with thousands of suggestions fills the tree in a few milliseconds).
FETCH_ROWS = 32

_Index = QModelIndex | QPersistentModelIndex


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
        entry = index.data(ENTRY_ROLE)
        if not isinstance(entry, SuggestionEntry) or entry.kind != "claim" or (
                index.column() != 0):
            return
        model = index.model()
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


class SuggestionsModel(QAbstractItemModel):
    """A two-level tree: one group row per kind ("People (3)"), under it one row per suggested
    name with the columns of :data:`COLUMNS`. Group rows are not selectable.

    A group's rows are handed to the view lazily: :data:`FETCH_ROWS` at first, more through
    ``fetchMore`` (or :meth:`reveal` for a row to select). The model's own lookups
    (:meth:`entry`, :meth:`index_of`, :meth:`entry_indexes`, counts) cover every row."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._groups: list[tuple[str, list[SuggestionEntry]]] = []
        self._decided: dict[tuple[str, str, str], str] = {}
        self._fetched: list[int] = []  # rows of each group handed to the view
        self._inserting = False  # rows handed over or reset now (no nested fetch meanwhile)
        # the rows of the lists shown before, freed a chunk per event-loop turn: dropping
        # thousands of entries at once takes the GUI thread ~80 ms per 12,000
        self._trash: list[SuggestionEntry] = []
        self._sweeper = QTimer(self)
        self._sweeper.setInterval(0)
        self._sweeper.timeout.connect(self._sweep)

    def set_listing(self, listing: SuggestionList | None) -> None:
        """Show ``listing`` (None: nothing); every row undecided."""
        for _kind, entries in self._groups:
            self._trash.extend(entries)
        if self._trash:
            self._sweeper.start()
        self._inserting = True  # the view's reset handlers fetch after the reset, not in it
        try:
            self.beginResetModel()
            self._groups = list(listing.by_kind.items()) if listing is not None else []
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

    def canFetchMore(self, parent: _Index) -> bool:
        # the view asks again from its rowsInserted handlers: the next scroll fetches then
        if self._inserting or not parent.isValid() or parent.internalId() != _GROUP or (
                parent.column() != 0):
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
                self.beginInsertRows(self.createIndex(g, 0, _GROUP), have, rows - 1)
                self._fetched[g] = rows
                self.endInsertRows()
            finally:
                self._inserting = False

    def is_fetched(self, index: _Index) -> bool:
        """True when the view has the row of ``index`` (see :meth:`reveal`)."""
        if not index.isValid() or index.internalId() == _GROUP:
            return index.isValid()
        g = int(index.internalId()) - 1
        return 0 <= g < len(self._fetched) and index.row() < self._fetched[g]

    def reveal(self, index: QModelIndex) -> QModelIndex:
        """Hand the view the rows up to ``index`` (a suggestion row) so it can be selected and
        scrolled to; returns the index (column 0)."""
        if not index.isValid() or index.internalId() == _GROUP:
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
        for key in keys:
            index = self.index_of(key)
            if how is None:
                self._decided.pop(key, None)
            elif index.isValid():  # only rows of this listing (waiting() counts on it)
                self._decided[key] = how
            if index.isValid() and self.is_fetched(index):
                self.dataChanged.emit(index, index.siblingAtColumn(len(COLUMNS) - 1))
                group = self.parent(index)
                self.dataChanged.emit(group, group)

    def keys_with_mentions(self, mention_ids: Sequence[int]) -> list[tuple[str, str, str]]:
        """Keys of the rows holding any of these mentions."""
        wanted = set(mention_ids)
        return [e.key for _k, entries in self._groups for e in entries
                if wanted.intersection(e.mention_ids)]

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
        if not index.isValid() or index.internalId() == _GROUP:
            return None
        group = int(index.internalId()) - 1
        if not 0 <= group < len(self._groups):
            return None
        entries = self._groups[group][1]
        return entries[index.row()] if 0 <= index.row() < len(entries) else None

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

    def entry_indexes(self) -> list[QModelIndex]:
        """Column-0 indexes of every suggestion row, in display order."""
        return [self.createIndex(r, 0, g + 1) for g, (_k, entries) in enumerate(self._groups)
                for r in range(len(entries))]

    def group_index(self, kind: str) -> QModelIndex:
        """The group row of ``kind`` (invalid if that kind has no suggestions)."""
        for g, (k, _entries) in enumerate(self._groups):
            if k == kind:
                return self.createIndex(g, 0, _GROUP)
        return QModelIndex()

    # -- QAbstractItemModel -------------------------------------------------------------------

    def index(self, row: int, column: int, parent: _Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if column < 0 or column >= len(COLUMNS) or row < 0:
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, _GROUP) if row < len(self._groups) else (
                QModelIndex())
        if parent.internalId() != _GROUP or parent.column() != 0:
            return QModelIndex()
        g = parent.row()
        if g >= len(self._groups) or row >= self._fetched[g]:
            return QModelIndex()
        return self.createIndex(row, column, g + 1)

    @overload
    def parent(self) -> QObject | None: ...
    @overload
    def parent(self, index: _Index, /) -> QModelIndex: ...

    def parent(self, index: _Index | None = None) -> QObject | QModelIndex | None:
        """``parent()`` is QObject's (the owner); ``parent(index)`` the row's parent index."""
        if index is None:
            return super().parent()
        if not index.isValid() or index.internalId() == _GROUP:
            return QModelIndex()
        return self.createIndex(int(index.internalId()) - 1, 0, _GROUP)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        if not parent.isValid():
            return len(self._groups)
        if parent.internalId() == _GROUP and parent.column() == 0 and (
                parent.row() < len(self._groups)):
            return self._fetched[parent.row()]
        return 0

    def hasChildren(self, parent: _Index = QModelIndex()) -> bool:  # noqa: B008
        if not parent.isValid():
            return bool(self._groups)
        return parent.internalId() == _GROUP and parent.column() == 0 and (
            parent.row() < len(self._groups)) and bool(self._groups[parent.row()][1])

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return len(COLUMNS)

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        if index.internalId() == _GROUP:
            return Qt.ItemFlag.ItemIsEnabled
        entry = self.entry(index)
        if entry is not None and entry.key in self._decided:
            return Qt.ItemFlag.ItemIsEnabled  # shown, but not selectable for a decision
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if (orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole
                and 0 <= section < len(COLUMNS)):
            return COLUMNS[section]
        if (orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole
                and section == MENTIONS_COLUMN):
            return "Mentions"
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if index.internalId() == _GROUP:
            if index.row() >= len(self._groups):
                return None
            kind, entries = self._groups[index.row()]
            if role == Qt.ItemDataRole.DisplayRole and index.column() == 0:
                return f"{KIND_TITLES.get(kind, kind)} ({self.waiting(kind)})"
            if role == Qt.ItemDataRole.FontRole and index.column() == 0:
                font = QFont()
                font.setBold(True)
                return font
            if role == KIND_ROLE:
                return kind
            return None
        entry = self.entry(index)
        if entry is None:
            return None
        if role == ENTRY_ROLE:
            return entry
        if role == KIND_ROLE:
            return entry.kind
        how = self._decided.get(entry.key)
        if role == Qt.ItemDataRole.ForegroundRole and how is not None:
            return QBrush(QPalette().color(QPalette.ColorGroup.Disabled,
                                           QPalette.ColorRole.Text))
        if role == Qt.ItemDataRole.DisplayRole:
            column = index.column()
            if column == 0:
                return entry_label(entry)
            if column == DETAILS_COLUMN:
                return DECIDED_MARKS.get(how, how) if how else entry_details(entry)
            if column == MENTIONS_COLUMN:
                return str(entry.mentions)
            if column == CONTEXT_COLUMN:
                return entry.snippet
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            if how is not None:
                return f"{DECIDED_MARKS.get(how, how)} (Undo takes the decision back)"
            if index.column() == DETAILS_COLUMN and entry_details(entry):
                return entry_details(entry)
            where = f"{entry.mentions} mention{'s' if entry.mentions != 1 else ''}"
            if entry.documents > 1:
                where += f" in {entry.documents} documents"
            else:
                where += f" in “{entry.document_title}”"
            details = entry_details(entry)
            return f"{details}\n\n{entry.snippet}\n\n{where}" if details else \
                f"{entry.snippet}\n\n{where}"
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() == MENTIONS_COLUMN:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


@dataclass(frozen=True)
class PanelContents:
    """What the panel shows for a case, read ahead (e.g. on a job's worker thread right after
    its last commit, :meth:`SuggestionsPanel.prepare`): the pending suggestions, how the
    latest run found them ("spacy", "rules" or None) and its model. ``stamp`` is the panel's
    count of its own decisions when the read began: contents read before a later decision
    are not used."""

    case_id: int
    listing: SuggestionList
    mode: str | None
    suggested_by: str | None
    stamp: int
    unread: tuple[str, ...] = ()  # documents left unread for their language (their notes)


_PAUSES = threading.Lock()
_paused = 0  # collector_paused blocks running now
_was_on = True  # whether the collector ran before the first of them


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a big read builds its objects (a case's
    suggestions: several objects per mention). A full collection holds the interpreter lock,
    so the GUI thread waits for it, and while a read grows the heap the collector runs full
    passes over it again and again (seconds for 50,000 mentions). Nested and concurrent uses
    resume it when the last one ends (if it was on before the first)."""
    global _paused, _was_on
    with _PAUSES:
        if _paused == 0:
            _was_on = gc.isenabled()
            gc.disable()
        _paused += 1
    try:
        yield
    finally:
        with _PAUSES:
            _paused -= 1
            if _paused == 0 and _was_on:
                gc.enable()


def read_contents(session: Session, case_id: int
                  ) -> tuple[SuggestionList, str | None, str | None, tuple[str, ...]]:
    """The case's pending suggestions (``decisions.list_suggestions``), the latest run's mode
    and model, and the notes of documents left unread for their language: what the panel
    shows. Plain reads, no Qt: callable from any thread."""
    return (decisions.list_suggestions(session, case_id),
            decisions.last_suggestion_mode(session, case_id),
            last_suggestion_model(session, case_id),
            tuple(unread_language_notes(session, case_id)))


class RenameDialog(QDialog):
    """Accept a suggestion under another name: a line edit prefilled with the suggested name.
    OK is enabled while the name is not empty; :meth:`name` is the stripped text."""

    def __init__(self, entry: SuggestionEntry, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Accept as…")
        self.name_edit = QLineEdit(entry.name if entry.kind in ("person", "organization", "place")
                                   else _short(entry.name, decisions.TITLE_LIMIT))
        self.name_edit.selectAll()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        intro = QLabel(f"Accept the suggested {KIND_SINGULAR.get(entry.kind, entry.kind)} "
                       f"“{_short(entry.name, 80)}” under this name:")
        intro.setTextFormat(Qt.TextFormat.PlainText)
        intro.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.name_edit)
        layout.addWidget(self.buttons)
        self.name_edit.textChanged.connect(self._on_text_changed)
        self._on_text_changed(self.name_edit.text())
        self.resize(420, self.sizeHint().height())

    def name(self) -> str:
        """The name typed, stripped."""
        return self.name_edit.text().strip()

    @Slot(str)
    def _on_text_changed(self, text: str) -> None:
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(bool(text.strip()))


class MergeDialog(QDialog):
    """Choose the existing item a suggestion is merged into: a completer over the titles and
    aliases of the case's items of the suggestion's kind. OK is enabled while the text names
    exactly one of them; :meth:`chosen_item` is it."""

    def __init__(self, entry: SuggestionEntry, choices: Sequence[ItemChoice],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Merge into…")
        self._choices = list(choices)
        words: list[str] = []
        for c in self._choices:
            for written in (c.title, *c.aliases):
                if written not in words:
                    words.append(written)
        self.item_edit = QLineEdit()
        kind = KIND_SINGULAR.get(entry.kind, entry.kind)
        self.item_edit.setPlaceholderText(f"Type the name of a {kind} of this case")
        self.completer = QCompleter(QStringListModel(words, self), self)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.item_edit.setCompleter(self.completer)
        self.problem = QLabel()
        self.problem.setTextFormat(Qt.TextFormat.PlainText)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        intro = QLabel(f"Merge the suggested {kind} “{_short(entry.name, 80)}” into an "
                       f"existing {kind}; its mentions become evidence for it"
                       + (" and the name one of its aliases." if entry.kind in
                          ("person", "organization", "place") else "."))
        intro.setTextFormat(Qt.TextFormat.PlainText)
        intro.setWordWrap(True)
        form = QFormLayout()
        form.addRow("Merge into:", self.item_edit)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.item_edit.textChanged.connect(self._on_text_changed)
        self._on_text_changed("")
        if not self._choices:
            self.problem.setText(f"This case has no {kind} yet: use Accept instead.")
        self.resize(460, self.sizeHint().height())

    def chosen_item(self) -> ItemChoice | None:
        """The item whose title or alias is the text (ignoring case), if exactly one."""
        key = decisions.name_key(self.item_edit.text())
        if not key:
            return None
        hits = [c for c in self._choices
                if key in {decisions.name_key(f) for f in (c.title, *c.aliases)}]
        return hits[0] if len(hits) == 1 else None

    @Slot(str)
    def _on_text_changed(self, text: str) -> None:
        ok = self.chosen_item() is not None
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok)
        if text.strip() and not ok:
            self.problem.setText("No single item of this kind has that name.")
        elif self._choices:
            self.problem.setText("")


class RejectedNamesDialog(QDialog):
    """"Rejected names…": the names rejected in any case of the workspace (kind, name, cases,
    mentions, when), and "Suggest again" for the selected one. The list is read through
    ``panel``'s runner and read again after each restore (and after undo / redo while open);
    ``tree`` holds one row per name (its RejectedName under ``Qt.UserRole``)."""

    def __init__(self, panel: SuggestionsPanel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.panel = panel
        self.setWindowTitle("Rejected names")
        self.rows: list[RejectedName] = []
        intro = QLabel("These names are not suggested in any case of this workspace. "
                       "“Suggest again” puts their mentions back in the Suggestions panel "
                       "of their cases (Undo takes it back).")
        intro.setTextFormat(Qt.TextFormat.PlainText)
        intro.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setObjectName("rejected_names_tree")
        self.tree.setHeaderLabels(["Kind", "Name", "Cases", "#", "Rejected"])
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.empty = QLabel("No names are rejected.")
        self.empty.setTextFormat(Qt.TextFormat.PlainText)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.restore_button = self.buttons.addButton(
            "&Suggest again", QDialogButtonBox.ButtonRole.ActionRole)
        self.restore_button.setObjectName("suggest_again_button")
        self.restore_button.clicked.connect(self.restore_selected)
        self.buttons.rejected.connect(self.reject)
        self.tree.itemSelectionChanged.connect(self._update_button)
        self.tree.itemDoubleClicked.connect(lambda *_args: self.restore_selected())
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.empty)
        layout.addWidget(self.buttons)
        panel.runner.case_changed.connect(self._on_case_changed)
        self.reload()
        self.resize(560, 320)

    def reload(self) -> None:
        """Read the rejected names again (the selection stays on the same name if it is
        still there, else the first row)."""
        old = self.selected()
        self.rows = self.panel.runner.read(rejections.rejected_suggestions)
        self.tree.clear()
        self._items: list[QTreeWidgetItem] = []
        for r in self.rows:
            row = QTreeWidgetItem([KIND_SINGULAR.get(r.kind, r.kind), r.name,
                                   ", ".join(r.cases), str(r.mentions),
                                   (r.when or "")[:10]])
            row.setData(0, Qt.ItemDataRole.UserRole, r)
            row.setToolTip(1, f"{r.name}\n{r.mentions} mention{'s' if r.mentions != 1 else ''}"
                              f" in {r.documents} document{'s' if r.documents != 1 else ''}")
            row.setToolTip(2, ", ".join(r.cases))
            self.tree.addTopLevelItem(row)
            self._items.append(row)
        for column in (0, 3, 4):
            self.tree.resizeColumnToContents(column)
        target = next((n for n, r in enumerate(self.rows) if old is not None
                       and (r.kind, r.name) == (old.kind, old.name)), 0)
        if self.rows:
            self.tree.setCurrentItem(self._items[target])
        self.tree.setVisible(bool(self.rows))
        self.empty.setVisible(not self.rows)
        self._update_button()

    def selected(self) -> RejectedName | None:
        """The selected rejected name, or None."""
        row = self.tree.currentItem()
        if row is None or not row.isSelected():
            return None
        value = row.data(0, Qt.ItemDataRole.UserRole)
        return value if isinstance(value, RejectedName) else None

    def select(self, kind: str, name: str) -> bool:
        """Select the row of this rejected name; True if it is listed."""
        for n, r in enumerate(self.rows):
            if (r.kind, r.name) == (kind, name):
                self.tree.setCurrentItem(self._items[n])
                return True
        return False

    def restore_selected(self) -> bool:
        """Suggest the selected name again (through the panel: undoable); True if done."""
        chosen = self.selected()
        if chosen is None:
            return False
        done = self.panel.restore_rejected(chosen.kind, chosen.name)
        self.reload()
        return done

    def _update_button(self) -> None:
        self.restore_button.setEnabled(self.selected() is not None)

    @Slot(object)
    def _on_case_changed(self, ch: CaseChange) -> None:
        if ch.suggestions and self.isVisible():
            self.reload()


class DecisionCommand(ActionCommand):
    """One decision on the window's undo stack: an :class:`~casefile.ui.undo.ActionCommand`
    whose action already ran (the panel ran it to mark its rows in place, so the first
    ``redo`` runs nothing); undo and redo run the services' Steps like every other command,
    through :meth:`SuggestionsPanel.run_decision_step` so the rows are marked in place. A
    step that fails (e.g. the suggestion was decided again meanwhile) makes the command
    obsolete."""

    def __init__(self, panel: SuggestionsPanel, done: Changes,
                 keys: Sequence[tuple[str, str, str]], how: str) -> None:
        super().__init__(panel.runner, done.case_id or 0,
                         done.label[:1].upper() + done.label[1:] if done.label else "Decision")
        self.panel = panel
        self.keys = list(keys)
        self.how = how
        self._done = done

    def _first(self) -> Outcome[Changes]:
        return Outcome(True, self._done)

    def _run_step(self, step: Step, *, undoing: bool) -> Outcome[Changes]:
        return self.panel.run_decision_step(step, self.keys, None if undoing else self.how)


class SuggestionsPanel(QWidget):
    """Pending suggestions of the open case, and buttons to decide them.

    ``runner`` is the window's OperationRunner: decisions run through it (``apply``) and the
    panel reloads on its ``case_changed`` when suggestions changed elsewhere (an import, a
    suggestion run). ``undo_stack`` (optional): each decision is pushed on it as a
    :class:`DecisionCommand`. Signals: ``mention_activated(document_id, start, end)`` (Python
    str offsets) to open a document at a suggestion's first mention; ``decided(message)`` with
    the decision's message (the Changes' one sentence naming everything made; undo and redo
    send theirs too) for the status bar; ``count_changed(waiting)``.
    """

    mention_activated = Signal(int, int, int)
    decided = Signal(str)
    count_changed = Signal(int)
    suggest_again_requested = Signal()

    def __init__(self, runner: OperationRunner, parent: QWidget | None = None,
                 undo_stack: QUndoStack | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.undo_stack = undo_stack
        self._applying = False  # True while our own decision's case_changed goes out
        self._stamp = 0  # own decisions shown in place so far (see PanelContents)
        self._offered: PanelContents | None = None  # read ahead by a job, for the next reload
        self.case_id: int | None = None
        self.listing: SuggestionList | None = None
        self.mode: str | None = None
        self.suggested_by: str | None = None  # the model of the latest run ("rules only")
        self.unread: tuple[str, ...] = ()  # language notes of documents with no suggestions
        self.dialog: QDialog | None = None

        self.model = SuggestionsModel(self)
        self.status_label = QLabel()
        self.status_label.setObjectName("suggestions_status")
        self.status_label.setTextFormat(Qt.TextFormat.PlainText)
        self.status_label.setWordWrap(True)
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
        self.tree.viewport().installEventFilter(self)
        self.tree.setIndentation(12)
        self.tree.setColumnHidden(CONTEXT_COLUMN, True)
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tree.doubleClicked.connect(self._on_double_clicked)
        # more rows are fetched after the view's own handling (never inside its layout)
        self._fetch_timer = QTimer(self)
        self._fetch_timer.setSingleShot(True)
        self._fetch_timer.setInterval(0)
        self._fetch_timer.timeout.connect(self._fetch_visible)
        self.tree.verticalScrollBar().valueChanged.connect(self._fetch_timer.start)
        self.tree.expanded.connect(self._fetch_timer.start)
        self.tree.selectionModel().currentChanged.connect(self._on_current_changed)
        self.context_label = QLabel()
        self.context_label.setObjectName("suggestion_context")
        self.context_label.setTextFormat(Qt.TextFormat.RichText)
        self.context_label.setWordWrap(True)
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
        stamp = self._stamp
        try:
            with collector_paused(), self.runner.workspace.transaction(write=False) as session:
                listing, mode, model, unread = read_contents(session, case_id)
        except Exception:  # the job's own work is done: the reload reads for itself
            log.warning("reading the suggestions ahead failed:\n%s", traceback.format_exc())
            return None
        contents = PanelContents(case_id, listing, mode, model, stamp, unread)
        self._offered = contents  # one assignment: atomic for the GUI thread reading it
        return contents

    def reload(self) -> None:
        """Read the case's pending suggestions again (or take those a job read ahead, see
        :meth:`prepare`), keeping the selection where it was (the same suggestion, else the
        row that took its place)."""
        old = self.current_entry()
        old_pos = self._position(self.tree.currentIndex())
        case_id = self.case_id
        offered, self._offered = self._offered, None
        if case_id is None:
            self.listing, self.mode, self.suggested_by, self.unread = None, None, None, ()
        elif offered is not None and offered.case_id == case_id and (
                offered.stamp == self._stamp):
            self.listing, self.mode, self.suggested_by, self.unread = (
                offered.listing, offered.mode, offered.suggested_by, offered.unread)
        else:
            self.listing, self.mode, self.suggested_by, self.unread = self.runner.read(
                lambda s: read_contents(s, case_id))
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
        """Hand the view more rows of each expanded group whose last row is in sight (the
        tree fetches only below its very last row by itself)."""
        viewport = self.tree.viewport().rect()
        for _ in range(100):  # a tall panel may want a few chunks; never loop forever
            wanted = [ix for ix in self.model.last_fetched()
                      if (rect := self.tree.visualRect(ix)).isValid()
                      and rect.top() <= viewport.bottom() + rect.height()]
            if not wanted:
                return
            for ix in wanted:
                self.model.fetchMore(self.model.parent(ix))

    def _position(self, index: QModelIndex) -> tuple[str, int] | None:
        entry = self.model.entry(index)
        return (entry.kind, index.row()) if entry is not None else None

    def _at_position(self, pos: tuple[str, int] | None) -> QModelIndex:
        """After a decision: the row now at the decided one's place, else the next one."""
        if pos is None:  # nothing was selected: no need to walk every row
            return QModelIndex()
        rows = self.model.entry_indexes()
        if not rows:
            return QModelIndex()
        kind, row = pos
        order = list(KIND_TITLES)
        rank = order.index(kind) if kind in order else len(order)
        for index in rows:
            entry = self.model.entry(index)
            assert entry is not None
            r = order.index(entry.kind) if entry.kind in order else len(order)
            if (r, index.row()) >= (rank, row):
                return index
        return rows[-1]

    def _show_status(self) -> None:
        if self.case_id is None:
            text = "Open a case to see suggestions."
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
        keys = self.model.keys_with_mentions(decision.mention_ids)
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


def install_suggestions_panel(window: MainWindow) -> SuggestionsPanel:
    """Add the Suggestions panel to the main window: a dock tabbed with the Evidence dock
    (title "Suggestions (N)"), a View menu entry to show it, double-click opening the document
    at the mention, decisions reported in the status bar. Call before the window restores its
    saved layout; call :meth:`SuggestionsPanel.set_case` when the case changes."""
    panel = SuggestionsPanel(window.runner, window, undo_stack=window.undo_stack)
    dock = add_tabbed_dock(window, "Suggestions", "suggestions_dock", panel)
    toggle = dock.toggleViewAction()
    toggle.setText("&Suggestions")
    toggle.setShortcut(QKeySequence("Ctrl+Shift+S"))
    for action in window.menuBar().actions():
        menu = action.menu()
        if isinstance(menu, QMenu) and action.text().replace("&", "") == "View":
            menu.addAction(toggle)
            break
    window.addAction(toggle)
    panel.count_changed.connect(
        lambda n: dock.setWindowTitle(f"Suggestions ({n})" if n else "Suggestions"))
    panel.mention_activated.connect(
        lambda doc_id, start, end: window.open_document(doc_id, start, end))
    panel.decided.connect(lambda message: window.statusBar().showMessage(message, 6000))
    window.suggestions.install_tab_menu()
    panel.suggest_again_requested.connect(lambda: window.suggestions.suggest_again())
    return panel
