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
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractListModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRectF,
    QSize,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QAction,
    QKeyEvent,
    QKeySequence,
    QPainter,
    QPalette,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QButtonGroup,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QMenu,
    QRadioButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from casefile.errors import CasefileError
from casefile.services.search import SearchResult, SearchResults, search_workspace
from casefile.ui.docks import add_tabbed_dock
from casefile.ui.models import SECTION_TITLES
from casefile.ui.operations import CaseChange
from casefile.ui.viewer import QUERY_HELP

if TYPE_CHECKING:
    from casefile.ui.main_window import MainWindow

#: The SearchResult of a row.
HIT_ROLE = Qt.ItemDataRole.UserRole + 1
#: Hits listed at most (the count line says when there were more).
RESULT_LIMIT = 100
#: Snippet characters shown around the first highlighted word (the service gives ~240).
SNIPPET_SHOWN = 170
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


def hit_html(hit: SearchResult, *, show_case: bool, muted: str) -> str:
    """How a hit is drawn: its title in bold; its kind (and case) in the ``muted`` colour;
    a part of its snippet with the matched words in bold."""
    kind = KIND_LABELS.get(hit.kind, hit.kind)
    meta = kind + (f" · {hit.case_title}" if show_case and hit.case_title else "")
    text, spans = short_snippet(hit)
    title = hit.title if len(hit.title) <= 120 else hit.title[:119] + "…"
    parts = [f"<b>{html.escape(title)}</b>&nbsp;&nbsp;"
             f"<span style='color:{muted}'>{html.escape(meta)}</span>"]
    if text:
        parts.append(f"<div style='margin-top:2px'>{snippet_html(text, spans)}</div>")
    return "".join(parts)


class SearchResultsModel(QAbstractListModel):
    """The hits of the last search, one row each (DisplayRole: title and kind; ToolTipRole: the
    snippet; HIT_ROLE: the :class:`~casefile.services.search.SearchResult`)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.hits: list[SearchResult] = []
        self.show_case = False

    def set_hits(self, hits: list[SearchResult] | tuple[SearchResult, ...],
                 show_case: bool) -> None:
        """Replace the rows."""
        self.beginResetModel()
        self.hits = list(hits)
        self.show_case = show_case
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.hits)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.hits):
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


def _muted(palette: QPalette, selected: bool) -> str:
    """A colour for secondary text: the text colour 60 % of the way to the background."""
    fg = palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
    bg = palette.color(QPalette.ColorRole.Highlight if selected else QPalette.ColorRole.Base)
    share = 0.35 if selected else 0.6
    mixed = [round(a + (b - a) * share) for a, b in
             ((fg.red(), bg.red()), (fg.green(), bg.green()), (fg.blue(), bg.blue()))]
    return "#{:02x}{:02x}{:02x}".format(*mixed)


class HitDelegate(QStyledItemDelegate):
    """Draws a hit as rich text (:func:`hit_html`), wrapped to the list's width."""

    MARGIN = 6

    def _document(self, option: QStyleOptionViewItem, index: _Index, width: int,
                  selected: bool = False) -> QTextDocument:
        hit = index.data(HIT_ROLE)
        model = index.model()
        show_case = isinstance(model, SearchResultsModel) and model.show_case
        muted = _muted(option.palette, selected)
        doc = QTextDocument()
        doc.setDefaultFont(option.font)
        doc.setDocumentMargin(0)
        doc.setHtml(hit_html(hit, show_case=show_case, muted=muted))
        doc.setTextWidth(max(60, width - 2 * self.MARGIN))
        return doc

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        rect = opt.rect
        doc = self._document(opt, index, rect.width(), selected)
        context = QAbstractTextDocumentLayout.PaintContext()
        role = (QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        context.palette.setColor(QPalette.ColorRole.Text,
                                 opt.palette.color(role))
        painter.save()
        if not selected:  # a hairline between hits
            painter.setPen(opt.palette.color(QPalette.ColorRole.Midlight))
            painter.drawLine(rect.left() + self.MARGIN, rect.bottom(),
                             rect.right() - self.MARGIN, rect.bottom())
        painter.translate(rect.left() + self.MARGIN, rect.top() + self.MARGIN)
        painter.setClipRect(QRectF(0, 0, rect.width() - self.MARGIN, rect.height()))
        doc.documentLayout().draw(painter, context)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:
        widget = option.widget
        width = widget.viewport().width() if isinstance(widget, QListView) else 300
        doc = self._document(option, index, width)
        return QSize(width, int(doc.size().height()) + 2 * self.MARGIN + 1)


class SearchPanel(QWidget):
    """The panel (see the module docstring). Signals: ``hit_activated(SearchResult)`` when the
    reporter opens a hit; ``searched(SearchResults)`` after each search (tests wait on it)."""

    hit_activated = Signal(object)
    searched = Signal(object)

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window_ = window
        self.setObjectName("search_panel")
        self.case_id: int | None = None
        self.results: SearchResults | None = None
        self.dock: QDockWidget | None = None  # set by install_search_panel
        self.action: QAction | None = None  # Edit ▸ Search… (Ctrl+Shift+F)
        self.edit = QLineEdit()
        self.edit.setObjectName("search_edit")
        self.edit.setPlaceholderText("Search items and documents")
        self.edit.setClearButtonEnabled(True)
        self.edit.setToolTip(QUERY_HELP)
        self.edit.installEventFilter(self)
        self.this_case = QRadioButton("This case")
        self.this_case.setObjectName("search_this_case")
        self.all_cases = QRadioButton("All cases")
        self.all_cases.setObjectName("search_all_cases")
        self.this_case.setChecked(True)
        self.scope = QButtonGroup(self)
        self.scope.addButton(self.this_case)
        self.scope.addButton(self.all_cases)
        self.scope.buttonToggled.connect(self._on_scope_toggled)
        self.count_label = QLabel()
        self.count_label.setObjectName("search_count")
        self.count_label.setTextFormat(Qt.TextFormat.PlainText)
        self.count_label.setWordWrap(True)
        self.model = SearchResultsModel(self)
        self.list = QListView()
        self.list.setObjectName("search_results")
        self.list.setModel(self.model)
        self.list.setItemDelegate(HitDelegate(self.list))
        self.list.setUniformItemSizes(False)
        self.list.setWordWrap(True)
        self.list.setResizeMode(QListView.ResizeMode.Adjust)
        self.list.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.activated.connect(self._on_activated)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(250)
        self.timer.timeout.connect(self.run_search)
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
                rows = self.model.rowCount()
                if rows:
                    row = max(0, min(self.list.currentIndex().row() + steps[Qt.Key(key)],
                                     rows - 1))
                    self.list.setCurrentIndex(self.model.index(row, 0))
                return True
        return super().eventFilter(watched, event)


def open_hit(window: MainWindow, hit: SearchResult, query: str = "") -> bool:
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


def install_search_panel(window: MainWindow) -> SearchPanel:
    """Add the Search panel: a dock tabbed with the Evidence dock, Edit ▸ Search… (Ctrl+Shift+F)
    showing it with the cursor in its box, a View menu entry, and hits opening in the window.
    Call before the window restores its saved layout; call :meth:`SearchPanel.set_case` when
    the case changes."""
    panel = SearchPanel(window)
    dock = add_tabbed_dock(window, "Search", "search_dock", panel)
    dock.hide()  # until asked for: Ctrl+Shift+F, Edit ▸ Search…, View ▸ Search panel
    panel.dock = dock

    def show_search() -> None:
        dock.show()
        dock.raise_()
        panel.focus_query()

    action = QAction("&Search…", window)
    action.setShortcut(QKeySequence("Ctrl+Shift+F"))
    action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    action.setStatusTip("Search the items and documents of this case or of all cases")
    action.triggered.connect(show_search)
    window.addAction(action)
    panel.action = action
    toggle = dock.toggleViewAction()
    toggle.setText("Search &panel")
    for entry in window.menuBar().actions():
        menu = entry.menu()
        if not isinstance(menu, QMenu):
            continue
        name = entry.text().replace("&", "")
        if name == "Edit":
            actions = menu.actions()
            anchor = next((a for a in actions if a.shortcut() == QKeySequence("Ctrl+K")),
                          window.find_action)
            after = actions.index(anchor) + 1 if anchor in actions else len(actions)
            if after < len(actions):
                menu.insertAction(actions[after], action)
            else:
                menu.addAction(action)
        elif name == "View":
            menu.addAction(toggle)
    panel.hit_activated.connect(lambda hit: open_hit(window, hit, panel.edit.text()))
    return panel
