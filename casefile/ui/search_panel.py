"""The Search panel (Edit ▸ Search…, Ctrl+Shift+F): full-text search over the items
and documents of this case or of all cases, as the reporter types.

A dock tabbed with Evidence and Suggestions: a query box (syntax in its tooltip and on the line
under it while it is empty), the scope ("This case" / "All cases"), a count line and the hits,
best first, each with its title, kind (and case, for all cases) and a snippet with the matched
words in bold. The query runs through :func:`casefile.services.search.search_workspace` (read
only, on the GUI thread: a search takes milliseconds) 250 ms after the last keystroke, and again
after ``case_changed``.

Enter (in the box: on the selected hit, else the first) or a double-click opens a hit: a
document opens in the viewer with the first match selected and the viewer's find bar showing
every match; another item is selected in its section. A hit of another case opens that case
first. Up / Down in the box move through the hits.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractListModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPointF,
    QRectF,
    QSize,
    Qt,
    Signal,
    Slot,
)
from PySide6.QtGui import (
    QAction,
    QColor,
    QFont,
    QKeyEvent,
    QKeySequence,
    QPainter,
    QPalette,
    QTextCharFormat,
    QTextLayout,
    QTextOption,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QButtonGroup,
    QDockWidget,
    QHBoxLayout,
    QListView,
    QRadioButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from casefile.errors import CasefileError
from casefile.services.search import SearchResult, SearchResults, search_workspace
from casefile.ui.actions import insert_after, menu_named
from casefile.ui.docks import add_tabbed_dock
from casefile.ui.models import SECTION_TITLES
from casefile.ui.operations import CaseChange
from casefile.ui.viewer import query_edit
from casefile.ui.widgets import debounce_timer, wrapped_label

if TYPE_CHECKING:
    from typing import Protocol

    from PySide6.QtGui import QAction

    from casefile.ui.shell import WindowShell

    class SearchWindow(WindowShell, Protocol):
        """The window as the Search panel and Quick open see it: the shell and its Find
        action."""

        find_action: QAction

#: The SearchResult of a row.
HIT_ROLE = Qt.ItemDataRole.UserRole + 1
#: Hits listed at most (the count line says when there were more).
RESULT_LIMIT = 100
#: Snippet characters shown around the first highlighted word (the service gives ~240).
SNIPPET_SHOWN = 170
#: Hits handed to the list at first, and each time it scrolls to its last one.
FETCH_ROWS = 20
KIND_LABELS = {
    "person": "Person", "organization": "Organization", "place": "Place",
    "document": "Document", "event": "Event", "claim": "Claim", "question": "Question",
}
_Index = QModelIndex | QPersistentModelIndex


def short_snippet(hit: SearchResult,
                  width: int = SNIPPET_SHOWN) -> tuple[str, list[tuple[int, int]]]:
    """A part of the hit's snippet of about ``width`` characters around its first highlighted
    word, "…" where cut, and the highlight spans moved to it (str offsets)."""
    text, spans = hit.snippet, list(hit.highlights)
    if len(text) <= width:
        return text, spans
    first = spans[0][0] if spans else 0
    start = max(0, min(first - width // 4, len(text) - width))
    if start:
        space = text.find(" ", start, first if spans else start + 20)
        start = space + 1 if space >= 0 else start
    end = min(len(text), start + width)
    if end < len(text):
        space = text.rfind(" ", max(start + 1, spans[0][1] if spans else start), end)
        end = space if space > 0 else end
    lead = "" if start == 0 or text[start - 1:start] == "…" else "…"
    tail = "" if end >= len(text) else "…"
    kept = [(a - start + len(lead), b - start + len(lead)) for a, b in spans
            if a >= start and b <= end]
    return lead + text[start:end] + tail, kept


def snippet_html(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` escaped for rich text, each span in bold."""
    out: list[str] = []
    cursor = 0
    for a, b in spans:
        out += [html.escape(text[cursor:a]), "<b>", html.escape(text[a:b]), "</b>"]
        cursor = b
    out.append(html.escape(text[cursor:]))
    return "".join(out)


@dataclass(frozen=True)
class HitText:
    """How a hit reads, as plain text runs (what :class:`HitDelegate` lays out and paints): the
    ``header`` (title, two no-break spaces, kind and case) with the title bold
    (``header[:title_end]``) and the kind muted (from ``meta_start``); the ``snippet`` (a part
    of the hit's, :func:`short_snippet`) with ``bold`` spans on the matched words (str offsets;
    empty snippet: none shown)."""

    header: str
    title_end: int
    meta_start: int
    snippet: str
    bold: tuple[tuple[int, int], ...]


def hit_text(hit: SearchResult, *, show_case: bool) -> HitText:
    """The runs a hit is drawn from (see :class:`HitText`); the title cut at 120 characters."""
    kind = KIND_LABELS.get(hit.kind, hit.kind)
    meta = kind + (f" · {hit.case_title}" if show_case and hit.case_title else "")
    text, spans = short_snippet(hit)
    title = hit.title if len(hit.title) <= 120 else hit.title[:119] + "…"
    return HitText(f"{title}\u00a0\u00a0{meta}", len(title), len(title) + 2, text,
                   tuple(spans))


def hit_html(hit: SearchResult, *, show_case: bool, muted: str) -> str:
    """The same runs as rich text (:func:`hit_text`), for a tooltip or a reader of the code:
    the title in bold, the kind in the ``muted`` colour, the matched words in bold."""
    runs = hit_text(hit, show_case=show_case)
    parts = [f"<b>{html.escape(runs.header[:runs.title_end])}</b>&nbsp;&nbsp;"
             f"<span style='color:{muted}'>{html.escape(runs.header[runs.meta_start:])}</span>"]
    if runs.snippet:
        parts.append(f"<div style='margin-top:2px'>"
                     f"{snippet_html(runs.snippet, list(runs.bold))}</div>")
    return "".join(parts)


class SearchResultsModel(QAbstractListModel):
    """The hits of the last search, one row each (DisplayRole: title and kind; ToolTipRole: the
    snippet; HIT_ROLE: the :class:`~casefile.services.search.SearchResult`).

    Every hit is held (:attr:`hits`), but the view is handed :data:`FETCH_ROWS` at first and
    more as it scrolls (``canFetchMore`` / ``fetchMore``, or :meth:`fetch_to`): laying out a
    row costs, and only the first few are in sight."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.hits: list[SearchResult] = []
        self.show_case = False
        self.fetched = 0

    def set_hits(self, hits: list[SearchResult] | tuple[SearchResult, ...],
                 show_case: bool) -> None:
        """Replace the rows."""
        self.beginResetModel()
        self.hits = list(hits)
        self.show_case = show_case
        self.fetched = min(len(self.hits), FETCH_ROWS)
        self.endResetModel()

    def canFetchMore(self, parent: _Index) -> bool:
        return not parent.isValid() and self.fetched < len(self.hits)

    def fetchMore(self, parent: _Index) -> None:
        if self.canFetchMore(parent):
            self.fetch_to(self.fetched + FETCH_ROWS)

    def fetch_to(self, rows: int) -> None:
        """Hand the view the first ``rows`` rows (at least; at most every hit)."""
        rows = min(len(self.hits), rows)
        if rows > self.fetched:
            self.beginInsertRows(QModelIndex(), self.fetched, rows - 1)
            self.fetched = rows
            self.endInsertRows()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self.fetched

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < self.fetched:
            return None
        hit = self.hits[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            kind = KIND_LABELS.get(hit.kind, hit.kind)
            case = f", {hit.case_title}" if self.show_case and hit.case_title else ""
            return f"{hit.title} ({kind}{case})"
        if role == Qt.ItemDataRole.ToolTipRole:
            return hit.snippet or hit.title
        if role == HIT_ROLE:
            return hit
        return None


def _muted(palette: QPalette, selected: bool) -> QColor:
    """A colour for secondary text: the text colour 60 % of the way to the background."""
    fg = palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
    bg = palette.color(QPalette.ColorRole.Highlight if selected else QPalette.ColorRole.Base)
    share = 0.35 if selected else 0.6
    mixed = [round(a + (b - a) * share) for a, b in
             ((fg.red(), bg.red()), (fg.green(), bg.green()), (fg.blue(), bg.blue()))]
    return QColor(*mixed)


def _bold_ranges(spans: tuple[tuple[int, int], ...] | list[tuple[int, int]]
                 ) -> list[QTextLayout.FormatRange]:
    bold = QTextCharFormat()
    bold.setFontWeight(QFont.Weight.Bold)
    out = []
    for a, b in spans:
        r = QTextLayout.FormatRange()
        r.start, r.length, r.format = a, b - a, bold
        out.append(r)
    return out


def _laid_out(text: str, spans: tuple[tuple[int, int], ...] | list[tuple[int, int]],
              font: QFont, width: float) -> tuple[QTextLayout, float]:
    """``text`` with ``spans`` bold (str offsets, converted to Qt's UTF-16 ones), wrapped at
    ``width`` pixels; the layout and its height."""
    if not text.isascii():  # Qt counts UTF-16 code units
        units = [0]
        for ch in text:
            units.append(units[-1] + (2 if ord(ch) > 0xFFFF else 1))
        spans = [(units[a], units[b]) for a, b in spans]
    layout = QTextLayout(text, font)
    layout.setFormats(_bold_ranges(spans))
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    layout.setTextOption(option)
    layout.setCacheEnabled(True)
    layout.beginLayout()
    y = 0.0
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        line.setPosition(QPointF(0, y))
        y += line.height()
    layout.endLayout()
    return layout, y


@dataclass
class HitLayout:
    """A hit laid out at one width: its header and snippet (None when empty) as text layouts,
    the snippet's top, the whole height (pixels), and the header's muted part as a range in
    Qt's UTF-16 positions."""

    header: QTextLayout
    snippet: QTextLayout | None
    snippet_top: float
    height: float
    meta: tuple[int, int]


class HitDelegate(QStyledItemDelegate):
    """Draws a hit from plain text runs (:func:`hit_text`): its header and snippet laid out once
    per width with ``QTextLayout`` and kept (:attr:`layouts`, cleared when the hits change), so
    measuring and painting a row parse no rich text."""

    MARGIN = 6
    #: Pixels between the header and the snippet.
    GAP = 2

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.layouts: dict[tuple[int, int], HitLayout] = {}  # (id of the hit, width)
        self.built = 0  # layouts made so far (tests look)

    def forget(self) -> None:
        """Drop the kept layouts (the hits changed)."""
        self.layouts.clear()

    def layout_for(self, option: QStyleOptionViewItem, index: _Index, width: int) -> HitLayout:
        """The hit of ``index`` laid out ``width`` pixels wide (inside the margins)."""
        hit = index.data(HIT_ROLE)
        key = (id(hit), width)
        found = self.layouts.get(key)
        if found is not None:
            return found
        model = index.model()
        show_case = isinstance(model, SearchResultsModel) and model.show_case
        runs = hit_text(hit, show_case=show_case)
        inner = max(60, width - 2 * self.MARGIN)
        header, top = _laid_out(runs.header, [(0, runs.title_end)], option.font, inner)
        snippet, height = None, top
        if runs.snippet:
            snippet, below = _laid_out(runs.snippet, runs.bold, option.font, inner)
            top += self.GAP
            height = top + below
        meta_start = len(runs.header[:runs.meta_start].encode("utf-16-le")) // 2
        meta_len = len(runs.header.encode("utf-16-le")) // 2 - meta_start
        made = HitLayout(header, snippet, top, height, (meta_start, meta_len))
        if len(self.layouts) > 4 * FETCH_ROWS * 8:
            self.layouts.clear()
        self.layouts[key] = made
        self.built += 1
        return made

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        rect = opt.rect
        laid = self.layout_for(option, index, self._width(option, rect.width()))
        painter.save()
        if not selected:  # a hairline between hits
            painter.setPen(opt.palette.color(QPalette.ColorRole.Midlight))
            painter.drawLine(rect.left() + self.MARGIN, rect.bottom(),
                             rect.right() - self.MARGIN, rect.bottom())
        painter.setClipRect(QRectF(rect.left(), rect.top(), rect.width() - self.MARGIN,
                                   rect.height()))
        painter.setPen(opt.palette.color(
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text))
        muted = QTextLayout.FormatRange()
        muted.start, muted.length = laid.meta
        muted.format = QTextCharFormat()
        muted.format.setForeground(_muted(opt.palette, selected))
        origin = QPointF(rect.left() + self.MARGIN, rect.top() + self.MARGIN)
        laid.header.draw(painter, origin, [muted])
        if laid.snippet is not None:
            laid.snippet.draw(painter, origin + QPointF(0, laid.snippet_top))
        painter.restore()

    def _width(self, option: QStyleOptionViewItem, fallback: int) -> int:
        widget = option.widget
        return widget.viewport().width() if isinstance(widget, QListView) else fallback

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:
        width = self._width(option, 300)
        laid = self.layout_for(option, index, width)
        return QSize(width, int(laid.height + 0.999) + 2 * self.MARGIN + 1)


class SearchPanel(QWidget):
    """The panel (see the module docstring). Signals: ``hit_activated(SearchResult)`` when the
    reporter opens a hit; ``searched(SearchResults)`` after each search (tests wait on it)."""

    hit_activated = Signal(object)
    searched = Signal(object)

    def __init__(self, window: SearchWindow) -> None:
        super().__init__(window.qt_window())
        self.window_ = window
        self.setObjectName("search_panel")
        self.case_id: int | None = None
        self.results: SearchResults | None = None
        self.dock: QDockWidget | None = None  # set by install_search_panel
        self.action: QAction | None = None  # Edit ▸ Search… (Ctrl+Shift+F)
        self.edit = query_edit("search_edit", "Search items and documents", self)
        self.this_case = QRadioButton("This case")
        self.this_case.setObjectName("search_this_case")
        self.all_cases = QRadioButton("All cases")
        self.all_cases.setObjectName("search_all_cases")
        self.this_case.setChecked(True)
        self.scope = QButtonGroup(self)
        self.scope.addButton(self.this_case)
        self.scope.addButton(self.all_cases)
        self.scope.buttonToggled.connect(self._on_scope_toggled)
        self.count_label = wrapped_label(name="search_count")
        self.model = SearchResultsModel(self)
        self.list = QListView()
        self.list.setObjectName("search_results")
        self.list.setModel(self.model)
        self.delegate = HitDelegate(self.list)
        self.list.setItemDelegate(self.delegate)
        self.model.modelAboutToBeReset.connect(self.delegate.forget)
        self.list.setUniformItemSizes(False)
        self.list.setWordWrap(True)
        self.list.setResizeMode(QListView.ResizeMode.Adjust)
        self.list.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.activated.connect(self._on_activated)
        self.timer = debounce_timer(self, 250, self.run_search)
        self.edit.textChanged.connect(lambda _t: self.timer.start())
        scope_row = QHBoxLayout()
        scope_row.setContentsMargins(0, 0, 0, 0)
        scope_row.addWidget(self.this_case)
        scope_row.addWidget(self.all_cases)
        scope_row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(4)
        layout.addWidget(self.edit)
        layout.addLayout(scope_row)
        layout.addWidget(self.count_label)
        layout.addWidget(self.list, 1)
        self.setMinimumWidth(260)
        window.runner.case_changed.connect(self._on_case_changed)
        self._show_count()

    # -- state ------------------------------------------------------------------------------

    def set_case(self, case_id: int | None) -> None:
        """The window's current case changed: search it again when the scope is this case."""
        changed = case_id != self.case_id
        self.case_id = case_id
        if changed and self.this_case.isChecked() and self.edit.text().strip():
            self.run_search()

    def set_all_cases(self, on: bool) -> None:
        """Choose the scope: all cases (True) or this case; searches again."""
        (self.all_cases if on else self.this_case).setChecked(True)

    def hits(self) -> list[SearchResult]:
        """The listed hits, in order."""
        return list(self.model.hits)

    def focus_query(self) -> None:
        """Put the cursor in the query box, its text selected."""
        self.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.edit.selectAll()

    # -- searching --------------------------------------------------------------------------

    @Slot()
    def run_search(self) -> SearchResults | None:
        """Search now with the box's query and scope; list the hits (the first selected)."""
        self.timer.stop()
        query = self.edit.text()
        everywhere = self.all_cases.isChecked()
        case_id = None if everywhere else self.case_id
        results: SearchResults | None = None
        error = ""
        if query.strip() and (everywhere or case_id is not None):
            try:
                results = self.window_.runner.read_plain(
                    lambda r: search_workspace(r, query, case_id, RESULT_LIMIT))
            except CasefileError as exc:
                error = str(exc)
        self.results = results
        self.model.set_hits(results.hits if results else (), everywhere)
        if self.model.rowCount():
            self.list.setCurrentIndex(self.model.index(0, 0))
        self._show_count(error)
        if results is not None:
            self.searched.emit(results)
        return results

    def _show_count(self, error: str = "") -> None:
        query = self.edit.text().strip()
        results = self.results
        if error:
            text = error
        elif not query:
            text = 'Words, "exact phrase", prefix*, -exclude, OR.  Enter opens a hit.'
        elif results is None:
            text = "Open a case, or search all cases."
        elif not results.terms:
            text = "Type words to search for (only -exclusions so far)."
        elif not results.hits:
            shown = query if '"' in query else f"“{query}”"
            text = f"No results for {shown}" + (
                "" if self.all_cases.isChecked() else " in this case")
        else:
            n = len(results.hits)
            text = f"{n} result{'s' if n != 1 else ''}"
            if results.more:
                text = f"More than {n} results — the best {n} shown"
            if self.all_cases.isChecked():
                cases = len({h.case_id for h in results.hits})
                text += f" in {cases} case{'s' if cases != 1 else ''}"
        self.count_label.setText(text)

    @Slot()
    def _on_scope_toggled(self, *_args: Any) -> None:
        if self.edit.text().strip():
            self.run_search()
        else:
            self._show_count()

    @Slot(object)
    def _on_case_changed(self, ch: CaseChange) -> None:
        if not self.edit.text().strip() or self.results is None:
            return
        if self.all_cases.isChecked() or ch.case_id is None or ch.case_id == self.case_id:
            self.timer.start()  # items appeared, changed or went: search again after a pause

    # -- opening ----------------------------------------------------------------------------

    @Slot(QModelIndex)
    def _on_activated(self, index: QModelIndex) -> None:
        hit = index.data(HIT_ROLE)
        if isinstance(hit, SearchResult):
            self.hit_activated.emit(hit)

    def open_current(self) -> bool:
        """Open the selected hit (the first when none is selected); True when there was one."""
        if self.timer.isActive():
            self.run_search()  # Enter typed before the results caught up
        index = self.list.currentIndex()
        if not index.isValid():
            index = self.model.index(0, 0)
        if not index.isValid():
            return False
        self.list.setCurrentIndex(index)
        self._on_activated(index)
        return True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.edit and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            key = event.key()
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.open_current()
                return True
            steps = {Qt.Key.Key_Down: 1, Qt.Key.Key_Up: -1, Qt.Key.Key_PageDown: 5,
                     Qt.Key.Key_PageUp: -5}
            if key in steps:
                if self.timer.isActive():
                    self.run_search()
                rows = len(self.model.hits)
                if rows:
                    row = max(0, min(self.list.currentIndex().row() + steps[Qt.Key(key)],
                                     rows - 1))
                    self.model.fetch_to(row + 1)
                    self.list.setCurrentIndex(self.model.index(row, 0))
                return True
        return super().eventFilter(watched, event)


def open_hit(window: SearchWindow, hit: SearchResult, query: str = "") -> bool:
    """Open a hit in the window: switch to its case if needed; a document opens in the viewer
    with its first match (``hit.match``, str offsets) selected and the find bar showing
    ``query``'s matches; another item is selected in its section. True when it opened."""
    if hit.case_id != window.case_id:
        window.open_case(hit.case_id)
        if window.case_id != hit.case_id:
            return False
    if hit.kind == "document":
        if hit.match is None:
            return window.open_document(hit.item_id) is not None
        viewer = window.open_document(hit.item_id, *hit.match)
        if viewer is None:
            return False
        if query.strip():
            viewer.find_text(query, current=hit.match)
        return True
    if hit.kind in SECTION_TITLES:
        return window.select_item(hit.item_id, hit.kind)
    return False


def install_search_panel(window: SearchWindow) -> SearchPanel:
    """Add the Search panel: a dock tabbed with the Evidence dock, Edit ▸ Search… (Ctrl+Shift+F)
    showing it with the cursor in its box, a View menu entry, and hits opening in the window.
    Call before the window restores its saved layout; call :meth:`SearchPanel.set_case` when
    the case changes."""
    panel = SearchPanel(window)
    dock = add_tabbed_dock(window.qt_window(), "Search", "search_dock", panel)
    dock.hide()  # until asked for: Ctrl+Shift+F, Edit ▸ Search…, View ▸ Search panel
    panel.dock = dock

    def show_search() -> None:
        dock.show()
        dock.raise_()
        panel.focus_query()

    action = QAction("&Search…", window.qt_window())
    action.setShortcut(QKeySequence("Ctrl+Shift+F"))
    action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    action.setStatusTip("Search the items and documents of this case or of all cases")
    action.triggered.connect(show_search)
    window.addAction(action)
    panel.action = action
    toggle = dock.toggleViewAction()
    toggle.setText("Search &panel")
    edit_menu = menu_named(window.menuBar(), "Edit")
    if edit_menu is not None:  # after Quick open (Ctrl+K), else after Find
        anchor = next((a for a in edit_menu.actions() if a.shortcut() == QKeySequence("Ctrl+K")),
                      window.find_action)
        insert_after(edit_menu, anchor, action)
    view_menu = menu_named(window.menuBar(), "View")
    if view_menu is not None:
        view_menu.addAction(toggle)
    panel.hit_activated.connect(lambda hit: open_hit(window, hit, panel.edit.text()))
    return panel
