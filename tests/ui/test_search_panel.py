"""The Search panel (Ctrl+Shift+F): hits as you type, this case or all cases, a hit opens the
document with the matched words selected."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from casefile.services import documents, items
from casefile.ui.search_panel import SearchPanel, hit_html, short_snippet
from casefile.ui.viewer import DocumentViewer
from tests.ui.conftest import SAMPLES
from tests.ui.helpers import add_text_document, make_case

ARTICLE = SAMPLES / "parkland-coral-springs-article.txt"
MEMO = ("Dispatch log 👮🚓 Friday\n\n🚨 The logs show the Harbor\nPolice waited by the stairwell "
        "while Deputy O’Brien called Łódź.")


@pytest.fixture
def cases(ui_workspace):
    ws = ui_workspace
    parkland = make_case(ws, "Parkland")
    harbor = make_case(ws, "Harbor audit")
    with ws.transaction() as s:
        article = documents.import_file(s, parkland, ARTICLE).document_id
        peterson = items.create_item(s, parkland, "person", "Scot Peterson",
                                     role="school resource officer").id
    memo = add_text_document(ws, harbor, MEMO, "dispatch.txt")
    return {"parkland": parkland, "harbor": harbor, "article": article, "peterson": peterson,
            "memo": memo}


def _open_panel(window, qtbot) -> SearchPanel:
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    qtbot.keySequence(window, QKeySequence("Ctrl+Shift+F"))
    panel = window.search_panel
    assert panel.dock is not None
    qtbot.waitUntil(lambda: panel.dock.isVisible() and panel.edit.hasFocus(), timeout=3000)
    return panel


def _type(panel: SearchPanel, qtbot, text: str) -> None:
    panel.edit.clear()
    with qtbot.waitSignal(panel.searched, timeout=3000):
        qtbot.keyClicks(panel.edit, text)


def _searched(make_window, case_id: int, qtbot, text: str):
    """A window on the case with ``text`` typed in its Search panel; (window, panel)."""
    window = make_window(case_id)
    panel = _open_panel(window, qtbot)
    _type(panel, qtbot, text)
    return window, panel


def test_typing_lists_hits_with_the_matched_word_in_bold(make_window, cases, qtbot,
                                                         qtmodeltester):
    window = make_window(cases["parkland"])
    panel = _open_panel(window, qtbot)
    assert panel.count_label.text().startswith('Words, "exact phrase"')  # the syntax, at first
    _type(panel, qtbot, "resentment")
    (hit,) = panel.hits()
    assert (hit.item_id, hit.kind, hit.title) == (cases["article"], "document",
                                                 "parkland-coral-springs-article")
    assert panel.count_label.text() == "1 result"
    assert [hit.snippet[a:b] for a, b in hit.highlights] == ["resentment"]
    shown = hit_html(hit, show_case=False, muted="#777777")
    assert "<b>resentment</b>" in shown and "Document" in shown
    assert panel.list.currentIndex().row() == 0
    qtmodeltester.check(panel.model)

    _type(panel, qtbot, "zeppelin")
    assert panel.hits() == []
    assert panel.count_label.text() == "No results for “zeppelin” in this case"


def test_enter_opens_the_document_with_the_matched_words_selected(make_window, cases, qtbot):
    window, panel = _searched(make_window, cases["parkland"], qtbot, '"coral springs police"')
    (hit,) = panel.hits()
    qtbot.keyClick(panel.edit, Qt.Key.Key_Return)
    viewer = window.tabs.currentWidget()
    assert isinstance(viewer, DocumentViewer) and viewer.document_id == cases["article"]
    text = ARTICLE.read_text(encoding="utf-8")
    first = text.index("Coral Springs police")
    assert viewer.selected_span() == (first, first + len("Coral Springs police"))
    assert viewer.text_view.textCursor().selectedText() == "Coral Springs police"
    # the find bar shows every match of the query, the opened one current
    count = len(re.findall(r"Coral Springs police", text, re.IGNORECASE))
    assert viewer.find_bar.isVisible() and viewer.find_bar.edit.text() == '"coral springs police"'
    assert viewer.find_bar.count.text() == f"1 of {count}"
    assert hit.match == (first, first + len("Coral Springs police"))


def test_all_cases_finds_a_document_in_another_case_and_opens_it_there(
        make_window, cases, qtbot):
    window, panel = _searched(make_window, cases["parkland"], qtbot, '"harbor police"')
    assert panel.hits() == []
    assert panel.count_label.text() == 'No results for "harbor police" in this case'
    with qtbot.waitSignal(panel.searched, timeout=3000):
        panel.all_cases.click()
    (hit,) = panel.hits()
    assert (hit.item_id, hit.case_title) == (cases["memo"], "Harbor audit")
    assert panel.count_label.text() == "1 result in 1 case"
    assert "Harbor audit" in hit_html(hit, show_case=True, muted="#777777")

    index = panel.model.index(0, 0)
    rect = panel.list.visualRect(index)
    # a real double-click is press, release, double-click event, release
    qtbot.mouseClick(panel.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.case_id == cases["parkland"]  # a click only selects
    qtbot.mouseDClick(panel.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.case_id == cases["harbor"]
    assert window.picker.case_box.currentText() == "Harbor audit"
    viewer = window.tabs.currentWidget()
    assert isinstance(viewer, DocumentViewer) and viewer.document_id == cases["memo"]
    # the words are selected exactly, though three emoji (two UTF-16 units each) come first
    assert viewer.selected_text() == "Harbor\nPolice"
    assert viewer.text_view.textCursor().selectedText() == "Harbor\u2029Police"
    assert panel.all_cases.isChecked() and [h.item_id for h in panel.hits()] == [cases["memo"]]


def test_folded_query_opens_at_the_accented_word(make_window, cases, qtbot):
    window = make_window(cases["harbor"])
    panel = _open_panel(window, qtbot)
    for query, words in (("lodz", "Łódź"), ("o'brien", "O’Brien"), ("stair*", "stairwell")):
        _type(panel, qtbot, query)
        assert [h.item_id for h in panel.hits()] == [cases["memo"]], query
        assert panel.open_current()
        viewer = window.documents.viewers[cases["memo"]]
        assert viewer.selected_text() == words
        assert viewer.text_view.textCursor().selectedText() == words


def test_an_item_hit_selects_it_in_its_section(make_window, cases, qtbot):
    window = make_window(cases["parkland"])
    window.items.show_section("document")
    panel = _open_panel(window, qtbot)
    _type(panel, qtbot, "peterson -cnn")
    hits = panel.hits()
    assert [h.item_id for h in hits] == [cases["peterson"]]
    qtbot.keyClick(panel.edit, Qt.Key.Key_Return)
    assert window.items.kind == "person" and window.items.current_item_id() == cases["peterson"]
    assert window.items.editor.item_id == cases["peterson"]


def test_arrows_move_through_the_hits_and_new_items_are_found(make_window, cases, qtbot):
    window, panel = _searched(make_window, cases["parkland"], qtbot, "peterson")
    assert {h.item_id for h in panel.hits()} == {cases["peterson"], cases["article"]}
    qtbot.keyClick(panel.edit, Qt.Key.Key_Down)
    assert panel.list.currentIndex().row() == 1 and panel.edit.hasFocus()
    qtbot.keyClick(panel.edit, Qt.Key.Key_Up)
    assert panel.list.currentIndex().row() == 0
    # an item created through the window shows up: the panel searches again on case_changed
    with qtbot.waitSignal(panel.searched, timeout=3000):
        new_id = window.items.create_item("person", "Amy Peterson", select=False)
    assert new_id in {h.item_id for h in panel.hits()}
    assert panel.count_label.text() == "3 results"


def test_short_snippet_keeps_the_highlights_on_the_words(make_window, cases, qtbot):
    window, panel = _searched(make_window, cases["parkland"], qtbot, "dereliction")
    (hit,) = panel.hits()
    assert len(hit.snippet) > 170
    text, spans = short_snippet(hit, 80)
    assert len(text) <= 82 and [text[a:b] for a, b in spans] == ["dereliction"]
