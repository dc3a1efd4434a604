"""The item editor's layout: the Affiliation combo grows with the form and follows new
organizations; a long event title wraps instead of widening the form (tester's report)."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QLineEdit, QScrollArea

from casefile.services import items
from tests.ui.helpers import make_case, window_editing

SHERIFF = "Broward County Sheriff's Office"
SCHOOL = "Marjory Stoneman Douglas High School"


def test_affiliation_combo_expands_and_refreshes_its_choices(make_window, ui_workspace, qtbot):
    cid = make_case(ui_workspace)
    with ui_workspace.transaction() as s:
        org = items.create_item(s, cid, "organization", SHERIFF).id
        pid = items.create_item(s, cid, "person", "Scott Israel", role="Sheriff",
                                affiliation_id=org).id
    window = window_editing(make_window, cid, pid, "person")
    box = window.items.editor.widgets["affiliation_id"]
    role = window.items.editor.widgets["role"]
    assert isinstance(box, QComboBox) and isinstance(role, QLineEdit)
    assert box.currentText() == SHERIFF
    # as wide as the other fields, wide enough for the name
    assert box.width() >= role.width() - 2
    assert box.width() >= box.fontMetrics().horizontalAdvance(SHERIFF) + 20
    # an organization created elsewhere shows up without reselecting the person
    assert window.items.create_item("organization", SCHOOL, select=False) is not None
    assert box.findText(SCHOOL) > 0
    assert box.currentText() == SHERIFF and not window.items.editor.dirty


def test_long_event_title_wraps_without_a_horizontal_scrollbar(make_window, ui_workspace,
                                                               qtbot):
    cid = make_case(ui_workspace)
    title = ("Deputies gather outside building twelve while the shooting continues and the "
             "county's radio system fails, according to the commission's report released "
             "months later, which also says the school resource officer stayed outside")
    with ui_workspace.transaction() as s:
        eid = items.create_item(s, cid, "event", title, date="2018-02-14").id
    window = window_editing(make_window, cid, eid, "event", size=(1280, 800))
    scroll = window.items.editor.parentWidget().parentWidget()
    assert isinstance(scroll, QScrollArea)
    assert window.items.editor.minimumSizeHint().width() < 600
    assert not scroll.horizontalScrollBar().isVisible()
    assert window.items.editor.heading.width() <= scroll.viewport().width()
    assert title in window.items.editor.heading.text()


def test_undo_label_quotes_a_long_passage_elided_never_empty(make_window, ui_workspace, qtbot):
    from casefile.ui.items import quote_label
    from tests.ui.helpers import add_text_document

    cid = make_case(ui_workspace)
    sentence = ("The list of failures of leadership and training under Broward County Sheriff "
                "Scott Israel continues to grow.")
    doc = add_text_document(ui_workspace, cid, sentence)
    with ui_workspace.transaction() as s:
        pid = items.create_item(s, cid, "person", "Aaron Feis").id
    window = make_window(cid)
    assert not window.documents.viewers  # linked without the document open
    assert window.items.link_span(pid, doc, 0, len(sentence))
    text = window.undo_stack.undoText()
    assert text.startswith("Link “The list of failures") and text.endswith("” to Aaron Feis")
    quoted = text[len("Link “"):text.index("”")]
    assert 30 <= len(quoted) <= 40 and quoted.endswith("…")
    assert quote_label("   ") == "a passage"
    assert quote_label("Feis") == "“Feis”"


def test_delete_is_enabled_only_with_a_selection(make_window, ui_workspace, qtbot):
    empty_case = make_case(ui_workspace, "Empty")
    window = make_window(empty_case)
    assert not window.items.delete_item_button.isEnabled()
    assert not window.items.delete_action.isEnabled()
    with ui_workspace.transaction() as s:
        pid = items.create_item(s, empty_case, "person", "Scot Peterson").id
    window.open_case(empty_case)
    assert window.select_item(pid, "person")
    assert window.items.delete_item_button.isEnabled()
    window.items.table.clearSelection()
    assert not window.items.delete_item_button.isEnabled()
    window.items.table.selectRow(0)
    window.items.delete_selected()
    qtbot.waitUntil(lambda: window.items.proxy.rowCount() == 0)
    assert not window.items.delete_item_button.isEnabled()


def test_a_name_with_a_very_long_word_stays_inside_the_pane(make_window, ui_workspace, qtbot):
    cid = make_case(ui_workspace)
    title = "María Núñez " + "Verylongsurname" * 8 + " " + "x" * 400
    with ui_workspace.transaction() as s:
        pid = items.create_item(s, cid, "person", title).id
    window = window_editing(make_window, cid, pid, "person", size=(1024, 640))
    heading = window.items.editor.heading
    scroll = window.items.editor.parentWidget().parentWidget()
    # the long word breaks inside the pane: no line of the heading is wider than it
    assert heading.minimumSizeHint().width() <= scroll.viewport().width()
    assert heading.text().startswith("Person · María Núñez Verylongsurname")
    assert heading.text().endswith("…") and heading.toolTip() == title
    assert not scroll.horizontalScrollBar().isVisible()


def test_a_confidential_persons_identifying_phrases_are_edited_one_a_line(
        make_window, ui_workspace, qtbot):
    from PySide6.QtWidgets import QCheckBox, QPlainTextEdit

    cid = make_case(ui_workspace)
    with ui_workspace.transaction() as s:
        pid = items.create_item(s, cid, "person", "Odile Ferrant", role="Night clerk").id
    window = window_editing(make_window, cid, pid, "person")
    editor = window.items.editor
    phrases, check = editor.widgets["identifying_phrases"], editor.widgets["confidential"]
    assert isinstance(phrases, QPlainTextEdit) and isinstance(check, QCheckBox)
    assert not editor.form.isRowVisible(phrases)  # only a confidential person has them
    check.setChecked(True)
    assert editor.form.isRowVisible(phrases)
    phrases.setPlainText("the clerk who signed the contract\n\n  the woman at desk four  ")
    editor.flush()
    qtbot.waitUntil(lambda: not editor.dirty and _stored(ui_workspace, pid)[0], timeout=5000)
    assert _stored(ui_workspace, pid) == (True, ["the clerk who signed the contract",
                                                 "the woman at desk four"])


def _stored(ws, pid: int) -> tuple[bool, list[str]]:
    with ws.transaction(write=False) as s:
        person = items.get_item(s, pid)
        return person.confidential, list(person.identifying_phrases or [])
