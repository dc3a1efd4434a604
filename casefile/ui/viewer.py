"""The document viewer: a document's text, read-only, with its passages highlighted.

Passages are painted as ExtraSelections coloured by relation (supports green, contradicts red,
mentions blue, context amber). Selecting text and right-clicking offers "Link as evidence to…"
and "New person / organization / place / question from selection"; the viewer only *asks* for
these (signals carrying Python str offsets), the window runs them as service calls.

The find bar (Ctrl+F in the window while a document tab is current, :meth:`DocumentViewer.
open_find_bar`) finds the words of its query as the search index does
(:mod:`casefile.store.textfind`: accents and case folded, ``"phrase"``, ``prefix*``): every
match is highlighted, the current one selected; Enter / F3 go to the next, Shift+Enter /
Shift+F3 to the previous (both wrap around), Escape closes the bar.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer, Signal, Slot
from PySide6.QtGui import (
    QAction,
    QColor,
    QKeyEvent,
    QKeySequence,
    QTextCharFormat,
    QTextCursor,
    QTextOption,
)
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QSplitter,
    QTextEdit,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from casefile.services.views import DocumentView, PassageMark
from casefile.store.textfind import FoldedText
from casefile.ui.evidence_model import RELATION_PRECEDENCE, relation_colour
from casefile.ui.offsets import OffsetMap
from casefile.ui.widgets import debounce_timer, flat_button, wrapped_label

#: The query syntax, shown as the find box's and the Search panel's tooltip.
QUERY_HELP = (
    "Words are found whole, accents and case ignored (Lodz finds Łódź).\n"
    '"exact phrase"  consecutive words, whatever spaces or punctuation lie between\n'
    "polic*  words starting with polic (police, policeman)\n"
    "-word  leave out items containing it (Search panel)\n"
    "one OR other  either word"
)


def query_edit(name: str, placeholder: str, keys_to: QObject) -> QLineEdit:
    """The box a query is typed in (the find bar's, the Search panel's): object name
    ``name``, ``placeholder`` shown while empty, a clear button, :data:`QUERY_HELP` as its
    tooltip, and its keys seen first by ``keys_to`` (its event filter: Esc, Enter, arrows)."""
    edit = QLineEdit()
    edit.setObjectName(name)
    edit.setPlaceholderText(placeholder)
    edit.setClearButtonEnabled(True)
    edit.setToolTip(QUERY_HELP)
    edit.installEventFilter(keys_to)
    return edit


#: At most this many matches are painted (all are counted; Next walks through all of them).
MAX_PAINTED_MATCHES = 5000
#: Texts up to this many characters are searched at each keystroke; longer ones after a pause.
FIND_AT_ONCE_CHARS = 200_000
FIND_MATCH_COLOUR = QColor(255, 221, 87, 150)
FIND_CURRENT_COLOUR = QColor(255, 150, 50, 200)

NEW_FROM_SELECTION = (
    ("person", "New person from selection"),
    ("organization", "New organization from selection"),
    ("place", "New place from selection"),
    ("question", "New question from selection"),
)


def _header_text(view: DocumentView) -> str:
    """The document's title, outlet and published date; for a saved web page a second line
    with its URL, capture time and hash."""
    facts = ", ".join(p for p in (view.outlet, view.published) if p)
    text = view.title + (f" — {facts}" if facts else "")
    return text + (f"\n{view.capture}" if view.capture else "")


def primary_relation(mark: PassageMark) -> str | None:
    """The relation that colours a passage (see RELATION_PRECEDENCE), None when unlinked."""
    relations = {link.relation for link in mark.links}
    for relation in RELATION_PRECEDENCE:
        if relation in relations:
            return relation
    return None


#: Keys the window binds to its own actions, which the viewer's find keys must leave alone (a
#: key bound to two actions is ambiguous and does nothing): Ctrl+Shift+G opens the Graph tab,
#: and is also Linux's standard "find previous".
WINDOW_KEYS = ("Ctrl+Shift+G",)


def _with_standard(key: str, standard: QKeySequence.StandardKey) -> list[QKeySequence]:
    """``key`` and the platform's keys for ``standard`` (F3 / Ctrl+G ...), each once (a key
    bound twice to one action is reported as an ambiguous shortcut and does nothing), without
    :data:`WINDOW_KEYS`."""
    out = [QKeySequence(key)]
    taken = [QKeySequence(k) for k in WINDOW_KEYS]
    for seq in QKeySequence.keyBindings(standard):
        if seq not in out and seq not in taken:
            out.append(seq)
    return out


class FindBar(QWidget):
    """The viewer's find bar: a query box, the count ("3 of 12"), Previous / Next and a close
    button. The viewer does the finding; Enter / Shift+Enter in the box and Escape are
    reported through ``next_requested`` / ``previous_requested`` / ``close_requested``."""

    next_requested = Signal()
    previous_requested = Signal()
    close_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("find_bar")
        self.edit = query_edit("find_edit", "Find in this document", self)
        self.count = QLabel()
        self.count.setObjectName("find_count")
        self.count.setTextFormat(Qt.TextFormat.PlainText)
        self.count.setMinimumWidth(self.count.fontMetrics().horizontalAdvance("No matches")
                                   + 8)
        self.previous_button = flat_button(
            "Previous", "Previous match (Shift+Enter, Shift+F3)", self.previous_requested)
        self.next_button = flat_button("Next", "Next match (Enter, F3)", self.next_requested)
        self.close_button = flat_button("✕", "Close the find bar (Esc)", self.close_requested)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 2)
        layout.setSpacing(4)
        layout.addWidget(self.edit, 1)
        layout.addWidget(self.count)
        layout.addWidget(self.previous_button)
        layout.addWidget(self.next_button)
        layout.addWidget(self.close_button)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.edit and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                    self.previous_requested.emit()
                else:
                    self.next_requested.emit()
                return True
            if event.key() == Qt.Key.Key_Escape:
                self.close_requested.emit()
                return True
        return super().eventFilter(watched, event)


class DocumentViewer(QWidget):
    """Shows one document. Signals (all offsets are Python str offsets into the text):

    * ``link_requested(document_id, start, end)`` – "Link as evidence to…" on a selection;
    * ``new_item_requested(kind, document_id, start, end)`` – "New <kind> from selection".

    ``find_bar`` is hidden until :meth:`open_find_bar` or :meth:`find_text`; :meth:`find_matches`
    and :meth:`current_match` say what it found.
    """

    link_requested = Signal(int, int, int)
    new_item_requested = Signal(str, int, int, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document_id: int | None = None
        self.case_id: int | None = None
        self._text = ""
        self._map = OffsetMap("")
        self._marks: tuple[PassageMark, ...] = ()
        self._passage_selections: list[QTextEdit.ExtraSelection] = []
        self._folded: FoldedText | None = None
        self._matches: list[tuple[int, int]] = []
        self._match_index = -1
        self._find_anchor = 0
        self._found_query: str | None = None

        self.header = wrapped_label()
        self.legend = QLabel()
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.text_view = QPlainTextEdit()
        self.text_view.setReadOnly(True)
        self.text_view.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.text_view.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.text_view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.text_view.customContextMenuRequested.connect(self._on_context_menu_requested)
        self.text_view.viewport().installEventFilter(self)
        self.text_view.viewport().setMouseTracking(True)
        font = self.text_view.font()
        font.setPointSizeF(font.pointSizeF() * 1.1)
        self.text_view.setFont(font)

        self.link_action = QAction("Link as evidence to…", self)
        self.link_action.setShortcut("Ctrl+L")
        self.link_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.link_action.triggered.connect(self._on_link_triggered)
        self.addAction(self.link_action)
        self.new_actions: dict[str, QAction] = {}
        for kind, label in NEW_FROM_SELECTION:
            action = QAction(label, self)
            action.triggered.connect(lambda _checked=False, k=kind: self._request_new(k))
            self.new_actions[kind] = action
        # Called with each freshly built context menu (other views add their actions there).
        self.menu_extensions: list[Callable[[QMenu], None]] = []

        self.find_bar = FindBar()
        self.find_bar.setVisible(False)
        self.find_bar.next_requested.connect(self.find_next)
        self.find_bar.previous_requested.connect(self.find_previous)
        self.find_bar.close_requested.connect(self.close_find_bar)
        self.find_timer = debounce_timer(self, 200, self._refresh_find)
        self.find_bar.edit.textChanged.connect(self._on_find_text_changed)
        self.find_next_action = QAction("Find next", self)
        self.find_next_action.setShortcuts(_with_standard("F3", QKeySequence.StandardKey.FindNext))
        self.find_previous_action = QAction("Find previous", self)
        self.find_previous_action.setShortcuts(
            _with_standard("Shift+F3", QKeySequence.StandardKey.FindPrevious))
        self.close_find_action = QAction("Close the find bar", self)
        self.close_find_action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        self.close_find_action.setEnabled(False)
        for action, slot in ((self.find_next_action, self.find_next),
                             (self.find_previous_action, self.find_previous),
                             (self.close_find_action, self.close_find_bar)):
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            action.triggered.connect(slot)
            self.addAction(action)

        top = QHBoxLayout()
        top.addWidget(self.header, 1)
        top.addWidget(self.legend, 0, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(top)
        layout.addWidget(self.find_bar)
        self.body = QSplitter(Qt.Orientation.Horizontal)  # the text, and a PDF's pages beside it
        self.body.setObjectName("viewer_body")
        self.body.setChildrenCollapsible(False)
        self.body.addWidget(self.text_view)
        layout.addWidget(self.body, 1)
        self.side_pane: QWidget | None = None
        self.legend.setText("&nbsp;&nbsp;".join(
            f'<span style="color:{relation_colour(r, opaque=True).name()}">&#9632;</span>'
            f"&nbsp;{r}"
            for r in ("supports", "contradicts", "mentions", "context")
        ))

    # -- content ----------------------------------------------------------------------------

    def set_document(self, view: DocumentView) -> None:
        """Show a document (text and passages); the scroll position resets to the top."""
        self.document_id, self.case_id = view.id, view.case_id
        self._text = view.text
        self._map = OffsetMap(view.text)
        self.header.setText(_header_text(view))
        self.text_view.setPlainText(view.text)
        self._folded = None
        self._matches, self._match_index, self._found_query = [], -1, None
        self.set_passages(view.passages)
        if self.find_bar.isVisible():
            self._refresh_find()

    def update_document(self, view: DocumentView) -> None:
        """Refresh passages (and text, if it changed) keeping the scroll position and selection."""
        if view.text != self._text:
            bar = self.text_view.verticalScrollBar().value()
            self.set_document(view)
            self.text_view.verticalScrollBar().setValue(bar)
            return
        self.header.setText(_header_text(view))
        self.set_passages(view.passages)

    def set_passages(self, marks: tuple[PassageMark, ...]) -> None:
        """Highlight these passages, coloured by relation (unlinked ones underlined only)."""
        self._marks = marks
        selections: list[QTextEdit.ExtraSelection] = []
        for mark in marks:
            sel = QTextEdit.ExtraSelection()
            cursor = QTextCursor(self.text_view.document())
            cursor.setPosition(self._map.to_qt(mark.start))
            cursor.setPosition(self._map.to_qt(mark.end), QTextCursor.MoveMode.KeepAnchor)
            sel.cursor = cursor
            fmt = QTextCharFormat()
            relation = primary_relation(mark)
            if relation is None:
                fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DotLine)
            else:
                fmt.setBackground(relation_colour(relation))
            sel.format = fmt
            selections.append(sel)
        self._passage_selections = selections
        self._paint()

    def _paint(self) -> None:
        """Set the text's extra selections: the passages, then the find bar's matches (at most
        MAX_PAINTED_MATCHES, around the current one), the current match last."""
        selections = list(self._passage_selections)
        if self.find_bar.isVisible() and self._matches:
            doc = self.text_view.document()
            lo = max(0, self._match_index - MAX_PAINTED_MATCHES // 2)
            shown = self._matches[lo:lo + MAX_PAINTED_MATCHES]
            for n, (a, b) in enumerate(shown, start=lo):
                sel = QTextEdit.ExtraSelection()
                cursor = QTextCursor(doc)
                cursor.setPosition(self._map.to_qt(a))
                cursor.setPosition(self._map.to_qt(b), QTextCursor.MoveMode.KeepAnchor)
                sel.cursor = cursor
                fmt = QTextCharFormat()
                fmt.setBackground(FIND_CURRENT_COLOUR if n == self._match_index
                                  else FIND_MATCH_COLOUR)
                sel.format = fmt
                selections.append(sel)
        self.text_view.setExtraSelections(selections)

    @property
    def text(self) -> str:
        """The document's text (Python str)."""
        return self._text

    @property
    def passages(self) -> tuple[PassageMark, ...]:
        """The passages currently highlighted."""
        return self._marks

    def highlighted_spans(self) -> list[tuple[int, int]]:
        """The highlighted spans as Python str offsets, read back from the Qt cursors (this is
        what the reader sees, so tests use it to check the conversion). The find bar's match
        highlights come after them and are left out."""
        out = []
        for sel in self.text_view.extraSelections()[:len(self._passage_selections)]:
            c = sel.cursor
            out.append((self._map.to_python(c.selectionStart()),
                        self._map.to_python(c.selectionEnd(), round_up=True)))
        return out

    # -- selection --------------------------------------------------------------------------

    def selected_span(self) -> tuple[int, int] | None:
        """The selection as Python str offsets, surrounding whitespace left out; None if the
        selection is empty or blank."""
        cursor = self.text_view.textCursor()
        if not cursor.hasSelection():
            return None
        start = self._map.to_python(cursor.selectionStart())
        end = self._map.to_python(cursor.selectionEnd(), round_up=True)
        while start < end and self._text[start].isspace():
            start += 1
        while end > start and self._text[end - 1].isspace():
            end -= 1
        return (start, end) if end > start else None

    def selected_text(self) -> str:
        """The selected text (Python str), trimmed; empty without a selection."""
        span = self.selected_span()
        return self._text[span[0]:span[1]] if span else ""

    def select_span(self, start: int, end: int) -> None:
        """Select ``text[start:end]`` (Python str offsets), scroll it into view and give the
        text the focus."""
        self._select_quietly(start, end)
        self.text_view.setFocus(Qt.FocusReason.OtherFocusReason)

    def _select_quietly(self, start: int, end: int) -> None:
        """Select ``text[start:end]`` and scroll it into view, leaving the focus where it is."""
        cursor = QTextCursor(self.text_view.document())
        cursor.setPosition(self._map.to_qt(start))
        cursor.setPosition(self._map.to_qt(end), QTextCursor.MoveMode.KeepAnchor)
        self.text_view.setTextCursor(cursor)
        self.text_view.centerCursor()

    # -- find bar ---------------------------------------------------------------------------

    def open_find_bar(self) -> None:
        """Ctrl+F: show the find bar with the cursor in its box (text selected, so typing
        replaces it). A short one-line selection in the text becomes the query (several words
        in quotes, as a phrase); the search starts from the selection (or the cursor)."""
        picked = self.selected_text()
        if picked and "\n" not in picked and len(picked) <= 100:
            if len(picked.split()) > 1 and '"' not in picked:
                picked = f'"{picked}"'  # the selected words together, not each anywhere
            self.find_bar.edit.blockSignals(True)
            self.find_bar.edit.setText(picked)
            self.find_bar.edit.blockSignals(False)
        cursor = self.text_view.textCursor()
        self._find_anchor = self._map.to_python(cursor.selectionStart())
        self._found_query = None
        self._show_find_bar()
        self.find_bar.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.find_bar.edit.selectAll()
        self._refresh_find()

    def find_text(self, query: str, current: tuple[int, int] | None = None) -> int:
        """Show the find bar with ``query`` and its matches highlighted; the current match is
        the one at ``current`` (str offsets; else the first at or after its start, else the
        first) and is selected. The focus stays where it is. Returns the number of matches."""
        self.find_timer.stop()
        self.find_bar.edit.blockSignals(True)
        self.find_bar.edit.setText(query)
        self.find_bar.edit.blockSignals(False)
        self._find_anchor = current[0] if current else 0
        self._found_query = None
        self._show_find_bar()
        self._refresh_find()
        return len(self._matches)

    def _show_find_bar(self) -> None:
        self.find_bar.setVisible(True)
        self.close_find_action.setEnabled(True)

    @Slot()
    def close_find_bar(self) -> None:
        """Escape: hide the find bar and its highlights; the current match stays selected and
        the focus goes back to the text."""
        self.find_timer.stop()
        self.find_bar.setVisible(False)
        self.close_find_action.setEnabled(False)
        self._paint()
        self.text_view.setFocus(Qt.FocusReason.OtherFocusReason)

    def find_matches(self) -> list[tuple[int, int]]:
        """The find bar's matches as sorted ``(start, end)`` Python str offsets (see
        :func:`casefile.store.textfind.find_spans`); empty when the bar is closed."""
        return list(self._matches) if self.find_bar.isVisible() else []

    def current_match(self) -> int:
        """The index of the current match in :meth:`find_matches`, -1 when there is none."""
        return self._match_index if self.find_bar.isVisible() and self._matches else -1

    @Slot(str)
    def _on_find_text_changed(self, _text: str) -> None:
        if len(self._text) <= FIND_AT_ONCE_CHARS:
            self._refresh_find()
        else:  # folding and searching a long text costs: wait for a pause in the typing
            self.find_timer.start()

    @Slot()
    def _refresh_find(self) -> None:
        """Find the box's query now: highlight every match, select the first at or after the
        anchor (wrapping to the first), update the count."""
        self.find_timer.stop()
        query = self.find_bar.edit.text()
        self._found_query = query
        if self._folded is None or self._folded.text is not self._text:
            self._folded = FoldedText(self._text)
        self._matches = self._folded.spans(query) if query.strip() else []
        self._match_index = -1
        if self._matches:
            self._match_index = next((n for n, (a, _b) in enumerate(self._matches)
                                      if a >= self._find_anchor), 0)
        self._show_current()

    def _show_current(self, wrapped: str = "") -> None:
        matches, n = self._matches, self._match_index
        has = bool(matches)
        self.find_bar.next_button.setEnabled(has)
        self.find_bar.previous_button.setEnabled(has)
        self.find_next_action.setEnabled(True)
        query = self.find_bar.edit.text()
        if not query.strip():
            self.find_bar.count.setText("")
        elif not has:
            self.find_bar.count.setText("No matches")
        else:
            self.find_bar.count.setText(f"{n + 1} of {len(matches)}" + wrapped)
        sheet = "QLineEdit { background: #fde2e2; color: #000; }" if query.strip() and not has \
            else ""
        if self.find_bar.edit.styleSheet() != sheet:  # "no matches": a pink box
            self.find_bar.edit.setStyleSheet(sheet)
        if has:
            a, b = matches[n]
            self._select_quietly(a, b)
        self._paint()

    @Slot()
    def find_next(self) -> None:
        """Enter / F3: select the next match (after the last, the first)."""
        self._step(1)

    @Slot()
    def find_previous(self) -> None:
        """Shift+Enter / Shift+F3: select the previous match (before the first, the last)."""
        self._step(-1)

    def _step(self, delta: int) -> None:
        if not self.find_bar.isVisible():
            if not self.find_bar.edit.text().strip():
                self.open_find_bar()
                return
            self._show_find_bar()  # F3 after Escape: on from the selection, with the last query
            cursor = self.text_view.textCursor()
            self._find_anchor = self._map.to_python(
                cursor.selectionEnd() if delta > 0 else cursor.selectionStart())
            self._refresh_find()
            if delta < 0 and self._matches:
                self._step(-1)
            return
        if self._found_query != self.find_bar.edit.text():  # typed faster than the timer
            self._refresh_find()
            return
        if not self._matches:
            return
        total = len(self._matches)
        n = self._match_index + delta
        wrapped = ""
        if n >= total:
            n, wrapped = 0, " · from the top"
        elif n < 0:
            n, wrapped = total - 1, " · from the end"
        self._match_index = n
        self._find_anchor = self._matches[n][0]
        self._show_current(wrapped)

    def add_side_pane(self, pane: QWidget) -> None:
        """Show ``pane`` (e.g. a PDF's pages) to the right of the text, sharing the width."""
        self.side_pane = pane
        self.body.addWidget(pane)
        self.body.setStretchFactor(0, 1)
        self.body.setStretchFactor(1, 1)
        half = max(200, self.body.width() // 2)
        self.body.setSizes([half, half])  # equal shares, whatever the panes' size hints

    def cursor_offset(self) -> int:
        """The text cursor's position as a Python str offset."""
        return self._map.to_python(self.text_view.textCursor().position())

    def show_offset(self, offset: int) -> None:
        """Move the cursor to Python str offset ``offset`` and scroll it to the top."""
        cursor = QTextCursor(self.text_view.document())
        cursor.setPosition(self._map.to_qt(offset))
        self.text_view.setTextCursor(cursor)
        bar = self.text_view.verticalScrollBar()
        bar.setValue(bar.maximum())  # then back, so the line lands at the top
        self.text_view.ensureCursorVisible()

    def passage_at(self, offset: int) -> PassageMark | None:
        """The (shortest) passage covering Python str offset ``offset``."""
        found = [m for m in self._marks if m.start <= offset < m.end]
        return min(found, key=lambda m: m.end - m.start) if found else None

    # -- menu and requests ------------------------------------------------------------------

    def context_menu(self, pos: QPoint | None = None) -> QMenu:
        """The menu shown on right-click (built fresh, so tests can inspect it)."""
        menu = self.text_view.createStandardContextMenu(pos) if pos is not None else QMenu(self)
        has_selection = self.selected_span() is not None
        first = menu.actions()[0] if menu.actions() else None
        ours = [self.link_action, *self.new_actions.values()]
        for action in ours:
            action.setEnabled(has_selection)
        if first is None:
            menu.addActions(ours)
        else:  # ahead of the standard Copy / Select All, then a separator
            menu.insertActions(first, ours)
            menu.insertSeparator(first)
        for extend in self.menu_extensions:
            extend(menu)
        return menu

    @Slot(QPoint)
    def _on_context_menu_requested(self, pos: QPoint) -> None:
        menu = self.context_menu(pos)
        menu.exec(self.text_view.viewport().mapToGlobal(pos))
        menu.deleteLater()

    @Slot()
    def _on_link_triggered(self) -> None:
        span = self.selected_span()
        if span is not None and self.document_id is not None:
            self.link_requested.emit(self.document_id, span[0], span[1])

    def _request_new(self, kind: str) -> None:
        span = self.selected_span()
        if span is not None and self.document_id is not None:
            self.new_item_requested.emit(kind, self.document_id, span[0], span[1])

    def _in_word(self, i: int) -> bool:
        """Whether ``text[i]`` is part of a word: a letter or digit, or an apostrophe or
        hyphen between two of them ("don't", "co-owner")."""
        t = self._text
        if not 0 <= i < len(t):
            return False
        if t[i].isalnum():
            return True
        return (t[i] in "'’-" and 0 < i < len(t) - 1 and t[i - 1].isalnum()
                and t[i + 1].isalnum())

    def snap_selection_to_words(self) -> None:
        """Widen a mouse selection that starts or ends inside a word to the whole word, as a
        word processor does: a quote dragged roughly becomes whole words. The direction of
        the selection is kept."""
        cursor = self.text_view.textCursor()
        if not cursor.hasSelection():
            return
        anchor, position = cursor.anchor(), cursor.position()
        start = self._map.to_python(min(anchor, position))
        end = self._map.to_python(max(anchor, position), round_up=True)
        new_start, new_end = start, end
        if self._in_word(start) and self._in_word(start - 1):
            while self._in_word(new_start - 1):
                new_start -= 1
        if self._in_word(end - 1) and self._in_word(end):
            while self._in_word(new_end):
                new_end += 1
        if (new_start, new_end) == (start, end):
            return
        a, b = self._map.to_qt(new_start), self._map.to_qt(new_end)
        if anchor > position:
            a, b = b, a
        cursor.setPosition(a)
        cursor.setPosition(b, QTextCursor.MoveMode.KeepAnchor)
        self.text_view.setTextCursor(cursor)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (watched is self.text_view.viewport()
                and event.type() == QEvent.Type.MouseButtonRelease
                and event.button() == Qt.MouseButton.LeftButton):  # type: ignore[attr-defined]
            # after the view has taken the release (a double click selects a word itself)
            QTimer.singleShot(0, self, self.snap_selection_to_words)
        if watched is self.text_view.viewport() and event.type() == QEvent.Type.ToolTip:
            pos = event.pos()  # type: ignore[attr-defined]
            cursor = self.text_view.cursorForPosition(pos)
            mark = self.passage_at(self._map.to_python(cursor.position()))
            if mark is not None and mark.links:
                lines = [f"{link.relation}: {link.item_title}" for link in mark.links]
                QToolTip.showText(event.globalPos(), "\n".join(lines),  # type: ignore[attr-defined]
                                  self.text_view)
            else:
                QToolTip.hideText()
            return True
        return super().eventFilter(watched, event)
