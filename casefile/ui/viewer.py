"""The document viewer: a document's text, read-only, with its passages highlighted.

Passages are painted as ExtraSelections coloured by relation (supports green, contradicts red,
mentions blue, context amber). Selecting text and right-clicking offers "Link as evidence to…"
and "New person / organization / place / question from selection"; the viewer only *asks* for
these (signals carrying Python str offsets), the window runs them as service calls.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, Signal, Slot
from PySide6.QtGui import QAction, QTextCharFormat, QTextCursor, QTextOption
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMenu,
    QPlainTextEdit,
    QSplitter,
    QTextEdit,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from casefile.services.views import DocumentView, PassageMark
from casefile.ui.models import RELATION_PRECEDENCE, relation_colour
from casefile.ui.offsets import OffsetMap

NEW_FROM_SELECTION = (
    ("person", "New person from selection"),
    ("organization", "New organization from selection"),
    ("place", "New place from selection"),
    ("question", "New question from selection"),
)


def primary_relation(mark: PassageMark) -> str | None:
    """The relation that colours a passage (see RELATION_PRECEDENCE), None when unlinked."""
    relations = {link.relation for link in mark.links}
    for relation in RELATION_PRECEDENCE:
        if relation in relations:
            return relation
    return None


class DocumentViewer(QWidget):
    """Shows one document. Signals (all offsets are Python str offsets into the text):

    * ``link_requested(document_id, start, end)`` – "Link as evidence to…" on a selection;
    * ``new_item_requested(kind, document_id, start, end)`` – "New <kind> from selection".
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

        self.header = QLabel()
        self.header.setTextFormat(Qt.TextFormat.PlainText)
        self.header.setWordWrap(True)
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

        top = QHBoxLayout()
        top.addWidget(self.header, 1)
        top.addWidget(self.legend, 0, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(top)
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
        facts = ", ".join(p for p in (view.outlet, view.published) if p)
        self.header.setText(view.title + (f" — {facts}" if facts else ""))
        self.text_view.setPlainText(view.text)
        self.set_passages(view.passages)

    def update_document(self, view: DocumentView) -> None:
        """Refresh passages (and text, if it changed) keeping the scroll position and selection."""
        if view.text != self._text:
            bar = self.text_view.verticalScrollBar().value()
            self.set_document(view)
            self.text_view.verticalScrollBar().setValue(bar)
            return
        facts = ", ".join(p for p in (view.outlet, view.published) if p)
        self.header.setText(view.title + (f" — {facts}" if facts else ""))
        self.set_passages(view.passages)

    def set_passages(self, marks: tuple[PassageMark, ...]) -> None:
        """Highlight these passages, coloured by relation (unlinked ones underlined only)."""
        self._marks = marks
        selections = []
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
        what the reader sees, so tests use it to check the conversion)."""
        out = []
        for sel in self.text_view.extraSelections():
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
        """Select ``text[start:end]`` (Python str offsets) and scroll it into view."""
        cursor = QTextCursor(self.text_view.document())
        cursor.setPosition(self._map.to_qt(start))
        cursor.setPosition(self._map.to_qt(end), QTextCursor.MoveMode.KeepAnchor)
        self.text_view.setTextCursor(cursor)
        self.text_view.centerCursor()
        self.text_view.setFocus(Qt.FocusReason.OtherFocusReason)

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

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
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
