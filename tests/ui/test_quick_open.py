"""Quick open (Ctrl+K): find an item by a partial name, a document by a word of its text."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from casefile.services import items
from casefile.ui.quick_open import QuickOpenDialog
from tests.ui.helpers import add_text_document, make_case

MEMO = ("Radio memo\n\nThe logs show the deputies waited by the stairwell for four minutes "
        "while the shooting went on.")


def _case(ws):
    cid = make_case(ws)
    with ws.transaction() as s:
        ids = {
            "peterson": items.create_item(s, cid, "person", "Scot Peterson").id,
            "israel": items.create_item(s, cid, "person", "Scott Israel").id,
            "bso": items.create_item(s, cid, "organization", "Broward Sheriff's Office").id,
        }
    ids["memo"] = add_text_document(ws, cid, MEMO, "radio-memo.txt")
    ids["other"] = add_text_document(ws, cid, "Board minutes\n\nThe board met on Tuesday.",
                                     "minutes.txt")
    return cid, ids


def _popup(window, qtbot) -> QuickOpenDialog:
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    qtbot.keySequence(window, QKeySequence("Ctrl+K"))
    dialog = window.quick_open.dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.isVisible, timeout=3000)
    qtbot.waitUntil(lambda: dialog.edit.hasFocus(), timeout=3000)
    return dialog


def test_ctrl_k_finds_an_item_by_a_partial_name_and_enter_selects_it(
        make_window, ui_workspace, qtbot):
    cid, ids = _case(ui_workspace)
    window = make_window(cid)
    assert window.quick_open.action.shortcut() == QKeySequence("Ctrl+K")
    dialog = _popup(window, qtbot)
    qtbot.keyClicks(dialog.edit, "eters")
    qtbot.waitUntil(lambda: [h.item_id for h in dialog.hits()] == [ids["peterson"]],
                    timeout=3000)
    assert dialog.list.item(0).text().startswith("Scot Peterson")
    qtbot.keyClick(dialog.edit, Qt.Key.Key_Return)
    assert not dialog.isVisible()
    assert window.items.kind == "person" and window.items.current_item_id() == ids["peterson"]
    assert window.tabs.currentWidget() is window.items.page
    assert window.items.editor.item_id == ids["peterson"]

    # again, another kind: arrows move in the list without leaving the line edit
    dialog = _popup(window, qtbot)
    assert dialog.edit.selectedText() == "eters"  # the last query, ready to be replaced
    qtbot.keyClicks(dialog.edit, "sco")
    qtbot.waitUntil(lambda: len(dialog.hits()) == 2, timeout=3000)
    assert {h.item_id for h in dialog.hits()} == {ids["peterson"], ids["israel"]}
    qtbot.keyClick(dialog.edit, Qt.Key.Key_Down)
    assert dialog.list.currentRow() == 1 and dialog.edit.hasFocus()
    second = dialog.hits()[1]
    qtbot.keyClick(dialog.edit, Qt.Key.Key_Return)
    assert window.items.current_item_id() == second.item_id


def test_quick_open_finds_a_document_by_a_word_of_its_text(make_window, ui_workspace, qtbot):
    cid, ids = _case(ui_workspace)
    window = make_window(cid)
    dialog = _popup(window, qtbot)
    qtbot.keyClicks(dialog.edit, "stairwell")
    qtbot.waitUntil(lambda: bool(dialog.hits()), timeout=3000)
    (hit,) = dialog.hits()
    assert (hit.item_id, hit.source) == (ids["memo"], "text")
    assert "stairwell" in dialog.list.item(0).text()  # the snippet is shown
    qtbot.keyClick(dialog.edit, Qt.Key.Key_Return)
    viewer = window.documents.viewers[ids["memo"]]
    assert window.tabs.currentWidget() is viewer
    assert viewer.selected_text() == "stairwell"


def test_escape_closes_and_ctrl_f_still_focuses_the_filter(make_window, ui_workspace, qtbot):
    cid, _ids = _case(ui_workspace)
    window = make_window(cid)
    dialog = _popup(window, qtbot)
    qtbot.keyClicks(dialog.edit, "zzzz")
    qtbot.waitUntil(lambda: dialog.status.text() == "Nothing found.", timeout=3000)
    qtbot.keyClick(dialog.edit, Qt.Key.Key_Return)  # nothing to open: nothing happens
    qtbot.keyClick(dialog.edit, Qt.Key.Key_Escape)
    assert not dialog.isVisible()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    qtbot.keySequence(window, QKeySequence("Ctrl+F"))
    assert window.items.filter_edit.hasFocus()
    edit_menu = window.menuBar().actions()[1].menu()
    labels = [a.text() for a in edit_menu.actions()]
    assert labels.index("&Quick open…") == labels.index("&Find / filter") + 1
