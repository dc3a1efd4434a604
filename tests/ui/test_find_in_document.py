"""The document viewer's find bar: Ctrl+F on a document tab, "3 of 12", Next / Previous that
wrap around, every match highlighted, the current one selected, Escape closes."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from casefile.services import documents
from casefile.store.textfind import find_spans
from casefile.ui.viewer import DocumentViewer
from tests.ui.conftest import SAMPLES
from tests.ui.helpers import add_text_document, make_case

ARTICLE = SAMPLES / "parkland-coral-springs-article.txt"
TEXT = ARTICLE.read_text(encoding="utf-8")
#: "deputies" as a whole word, any case, by a rule written independently of textfind
DEPUTIES = [m.span() for m in re.finditer(r"\bdeputies\b", TEXT, re.IGNORECASE)]


@pytest.fixture
def article_window(make_window, ui_workspace):
    cid = make_case(ui_workspace)
    with ui_workspace.transaction() as s:
        doc = documents.import_file(s, cid, ARTICLE).document_id
    window = make_window(cid)
    viewer = window.open_document(doc)
    assert isinstance(viewer, DocumentViewer)
    return window, viewer


def _ctrl_f(window, viewer, qtbot) -> None:
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    qtbot.keySequence(window, QKeySequence("Ctrl+F"))
    qtbot.waitUntil(lambda: viewer.find_bar.isVisible() and viewer.find_bar.edit.hasFocus(),
                    timeout=3000)


def test_ctrl_f_counts_matches_and_next_moves_the_selection_with_wraparound(
        article_window, qtbot):
    window, viewer = article_window
    assert not viewer.find_bar.isVisible()
    _ctrl_f(window, viewer, qtbot)
    bar = viewer.find_bar
    qtbot.keyClicks(bar.edit, "deputies")
    total = len(DEPUTIES)
    assert total == 8
    assert bar.count.text() == f"1 of {total}"
    assert viewer.find_matches() == DEPUTIES
    assert viewer.selected_span() == DEPUTIES[0]
    assert viewer.text_view.textCursor().selectedText() == "deputies"
    # every match is painted after the passages (none here), the current one too
    painted = viewer.text_view.extraSelections()
    assert [(viewer._map.to_python(s.cursor.selectionStart()),
             viewer._map.to_python(s.cursor.selectionEnd())) for s in painted] == DEPUTIES

    qtbot.keyClick(bar.edit, Qt.Key.Key_Return)  # next
    assert bar.count.text() == f"2 of {total}" and viewer.selected_span() == DEPUTIES[1]
    assert bar.edit.hasFocus()  # typing goes on in the box
    qtbot.keyClick(bar.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)  # previous
    assert viewer.selected_span() == DEPUTIES[0]
    qtbot.keyClick(bar.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)  # wraps
    assert viewer.selected_span() == DEPUTIES[-1]
    assert bar.count.text() == f"{total} of {total} · from the end"
    qtbot.keyClick(bar.edit, Qt.Key.Key_F3)  # F3: next, wraps to the first
    assert viewer.selected_span() == DEPUTIES[0]
    assert bar.count.text() == f"1 of {total} · from the top"
    bar.next_button.click()
    assert viewer.current_match() == 1 and viewer.selected_span() == DEPUTIES[1]
    # the current match is scrolled into view
    assert viewer.text_view.viewport().rect().intersects(viewer.text_view.cursorRect())

    # Escape closes the bar and its highlights; the match stays selected
    qtbot.keyClick(bar.edit, Qt.Key.Key_Escape)
    assert not bar.isVisible() and viewer.text_view.extraSelections() == []
    assert viewer.selected_span() == DEPUTIES[1]
    assert viewer.find_matches() == []


def test_a_query_with_no_match_says_so(article_window, qtbot):
    window, viewer = article_window
    _ctrl_f(window, viewer, qtbot)
    bar = viewer.find_bar
    qtbot.keyClicks(bar.edit, "zeppelin")
    assert bar.count.text() == "No matches"
    assert not bar.next_button.isEnabled() and not bar.previous_button.isEnabled()
    assert viewer.find_matches() == [] and viewer.current_match() == -1
    qtbot.keyClick(bar.edit, Qt.Key.Key_Return)  # nothing to go to; no error
    assert bar.count.text() == "No matches" and viewer.selected_span() is None
    bar.edit.clear()
    assert bar.count.text() == ""


def test_phrases_fold_like_the_search_index(article_window, qtbot):
    window, viewer = article_window
    _ctrl_f(window, viewer, qtbot)
    bar = viewer.find_bar
    qtbot.keyClicks(bar.edit, "sheriff's")  # the article writes Sheriff’s (curly apostrophe)
    expected = [m.span() for m in re.finditer(r"sheriff’s", TEXT, re.IGNORECASE)]
    assert len(expected) > 3 and viewer.find_matches() == expected
    assert viewer.selected_text() == TEXT[expected[0][0]:expected[0][1]]
    bar.edit.clear()
    qtbot.keyClicks(bar.edit, '"coral springs police"')
    assert viewer.find_matches() == [m.span() for m in
                                      re.finditer("Coral Springs police", TEXT, re.IGNORECASE)]


def test_ctrl_f_on_the_items_tab_still_filters_the_section(article_window, qtbot):
    window, viewer = article_window
    window.tabs.setCurrentWidget(window.items.page)
    qtbot.keySequence(window, QKeySequence("Ctrl+F"))
    assert window.items.filter_edit.hasFocus() and not viewer.find_bar.isVisible()
    # back on the document, a short selection becomes the query
    window.tabs.setCurrentWidget(viewer)
    start = TEXT.index("Coral Springs")
    viewer.select_span(start, start + len("Coral Springs"))
    _ctrl_f(window, viewer, qtbot)
    assert viewer.find_bar.edit.text() == '"Coral Springs"'  # a phrase, not two words
    assert viewer.find_bar.count.text() == f"1 of {TEXT.count('Coral Springs')}"
    assert viewer.selected_span() == (start, start + len("Coral Springs"))


def test_offsets_after_emoji_and_accents(make_window, ui_workspace, qtbot):
    text = "Log 👮🚓 Friday.\n🚨 Call Łódź about the harbor police; Lodz said 😀 LODZ again."
    cid = make_case(ui_workspace)
    doc = add_text_document(ui_workspace, cid, text, "log.txt")
    window = make_window(cid)
    viewer = window.open_document(doc)
    _ctrl_f(window, viewer, qtbot)
    qtbot.keyClicks(viewer.find_bar.edit, "lodz")
    assert viewer.find_bar.count.text() == "1 of 3"
    words = []
    for _ in range(3):
        words.append(viewer.text_view.textCursor().selectedText())
        assert viewer.selected_text() == words[-1]
        viewer.find_next()
    assert words == ["Łódź", "Lodz", "LODZ"]
    assert viewer.find_matches() == find_spans(text, "lodz")


def test_passage_highlights_stay_with_the_find_highlights(make_window, ui_workspace, qtbot):
    text = "Deputy Scot Peterson stayed outside. Peterson did not go in."
    cid = make_case(ui_workspace)
    doc = add_text_document(ui_workspace, cid, text, "note.txt")
    window = make_window(cid)
    person = window.items.create_item("person", "Scot Peterson")
    assert person is not None
    assert window.items.link_span(person, doc, 7, 20)
    viewer = window.open_document(doc)
    assert viewer.highlighted_spans() == [(7, 20)]
    viewer.find_text("peterson")
    assert viewer.find_bar.count.text() == "1 of 2"
    assert viewer.highlighted_spans() == [(7, 20)]  # passages only
    assert len(viewer.text_view.extraSelections()) == 3  # the passage and both matches
    viewer.close_find_bar()
    assert len(viewer.text_view.extraSelections()) == 1


def test_a_mouse_drag_that_cuts_words_selects_them_whole(article_window, qtbot):
    """Dragging from the middle of a word to the middle of another selects both whole
    (the direction kept)."""
    from PySide6.QtCore import QEvent, QPointF
    from PySide6.QtGui import QMouseEvent, QTextCursor
    from PySide6.QtWidgets import QApplication

    _window, viewer = article_window
    view = viewer.text_view
    words = re.search(r"deputies \w+ (\w{5,}) ", TEXT)  # "deputies were ..." and a long word
    assert words is not None
    start, end = words.start(), words.start(1) + 2  # cut inside the long word
    viewer.show()
    qtbot.waitExposed(viewer)
    viewer.select_span(start, end)  # scrolled into view; the drag below replaces it
    view.moveCursor(QTextCursor.MoveOperation.Left)  # no selection before the drag

    def send(kind: QEvent.Type, offset: int, buttons: Qt.MouseButton) -> None:
        cursor = view.textCursor()
        cursor.setPosition(viewer._map.to_qt(offset))
        rect = view.cursorRect(cursor)
        at = QPointF(rect.left() + 1, rect.center().y())
        button = Qt.MouseButton.NoButton if kind == QEvent.Type.MouseMove else (
            Qt.MouseButton.LeftButton)
        QApplication.sendEvent(view.viewport(), QMouseEvent(
            kind, at, view.viewport().mapToGlobal(at), button, buttons,
            Qt.KeyboardModifier.NoModifier))

    held = Qt.MouseButton.LeftButton
    send(QEvent.Type.MouseButtonPress, end, held)  # from right to left
    send(QEvent.Type.MouseMove, start + 3, held)
    send(QEvent.Type.MouseButtonRelease, start + 3, Qt.MouseButton.NoButton)
    whole = (start, words.end(1))
    qtbot.waitUntil(lambda: viewer.selected_span() == whole, timeout=2000)
    assert viewer.selected_text().startswith("deputies ")
    cursor = view.textCursor()
    assert cursor.anchor() > cursor.position()  # still dragged leftwards
