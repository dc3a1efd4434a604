"""The main window as a reporter uses it: cases, sections, the editor, undo, the status bar."""

from __future__ import annotations

from datetime import date, timedelta

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit

from casefile.services import editing, items, questions
from casefile.store import Item
from tests.ui.helpers import add_text_document, make_case, set_followup_status
from tests.ui.new_case import answer_new_case


def _person(ws, cid, name, **fields):
    with ws.transaction() as s:
        return items.create_item(s, cid, "person", name, **fields).id


def test_new_case_from_the_menu_and_last_case_reopened(make_window, ui_workspace,
                                                       monkeypatch):
    make_case(ui_workspace, "Older case")
    window = make_window()
    answer_new_case(monkeypatch, "Parkland", "How the police responded.")
    window.new_case_action.trigger()
    assert window.picker.case_box.currentText() == "Parkland"
    assert window.windowTitle().startswith("Parkland")
    assert window.picker.case_box.count() == 2
    parkland = window.case_id
    window.close()
    again = make_window()
    assert again.case_id == parkland  # the last case, remembered in (temp) QSettings


def test_ctrl_n_creates_in_current_section_with_live_counts_and_undo(make_window, ui_workspace,
                                                                     qtbot):
    cid = make_case(ui_workspace)
    window = make_window(cid)
    assert window.picker.navigator.item(0).text() == "People (0)"
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert window.picker.navigator.item(0).text() == "People (1)"
    assert window.items.proxy.rowCount() == 1
    name = window.items.editor.widgets["title"]
    assert isinstance(name, QLineEdit) and name.hasFocus() and name.selectedText() == "New person"
    window.items.show_section("place")
    window.items.new_item_action.trigger()
    assert window.picker.navigator.item(2).text() == "Places (1)"
    window.undo_action.trigger()
    assert window.picker.navigator.item(2).text() == "Places (0)"
    assert window.items.proxy.rowCount() == 0
    window.redo_action.trigger()
    assert window.items.proxy.rowCount() == 1
    counts = window.status_line.counts_label.text()
    assert "1 items" in counts or "2 items" in counts


def test_editor_autosaves_with_version_and_undo_restores(make_window, ui_workspace, qtbot):
    cid = make_case(ui_workspace)
    pid = _person(ui_workspace, cid, "Scot Peterson", role="Deputy")
    window = make_window(cid)
    assert window.select_item(pid, "person")
    role = window.items.editor.widgets["role"]
    assert role.text() == "Deputy"
    role.setFocus()
    role.selectAll()
    qtbot.keyClicks(role, "School resource officer")
    assert window.items.editor.dirty
    qtbot.waitUntil(lambda: not window.items.editor.dirty, timeout=3000)
    with ui_workspace.transaction() as s:
        stored = s.get(Item, pid)
        assert (stored.role, stored.version) == ("School resource officer", 2)
    # the table shows the new role without losing the selection
    assert window.items.current_item_id() == pid
    assert window.items.proxy.index(0, 1).data() == "School resource officer"
    window.undo()
    assert role.text() == "Deputy"
    with ui_workspace.transaction() as s:
        assert s.get(Item, pid).role == "Deputy"


def test_bad_date_is_marked_and_other_fields_still_save(make_window, ui_workspace, qtbot):
    cid = make_case(ui_workspace)
    with ui_workspace.transaction() as s:
        qid = questions.create_question(s, cid, "Did he go in?").id
    window = make_window(cid)
    window.select_item(qid, "question")
    due = window.items.editor.widgets["due"]
    due.setText("next week")
    due.textEdited.emit("next week")
    notes = window.items.editor.widgets["notes"]
    notes.setPlainText("Ask the BSO")
    window.items.editor.flush()
    assert window.items.editor.state.text().endswith(
        "Not saved: Due must be YYYY-MM-DD, e.g. 2018-02-23.")
    with ui_workspace.transaction() as s:
        q = s.get(Item, qid)
        assert (q.notes, q.due) == ("Ask the BSO", None)
    due.setText("2030-02-30")  # the right shape, but no such day
    due.textEdited.emit("2030-02-30")
    window.items.editor.flush()
    assert window.items.editor.state.text().endswith(
        "Not saved: Due 2030-02-30 is not a day of the calendar.")
    assert due.toolTip() == "Due 2030-02-30 is not a day of the calendar."
    due.setText("2030-01-02")
    due.textEdited.emit("2030-01-02")
    window.items.editor.flush()
    with ui_workspace.transaction() as s:
        assert s.get(Item, qid).due == date(2030, 1, 2)


def test_edit_conflict_is_reported_and_the_editor_reloads(make_window, ui_workspace, qtbot,
                                                         monkeypatch):
    from casefile.ui.conflict_dialog import KEEP_THEIRS, ConflictDialog

    cid = make_case(ui_workspace)
    pid = _person(ui_workspace, cid, "Scot Peterson", role="Deputy")
    window = make_window(cid)
    window.select_item(pid, "person")
    with ui_workspace.transaction() as s:  # someone else saves first
        items.update_item(s, pid, role="Sergeant")
    role = window.items.editor.widgets["role"]
    role.setText("Captain")
    role.textEdited.emit("Captain")
    asked = []  # the conflict dialog (tests/ui/test_conflict_dialog.py), answered "Keep theirs"
    monkeypatch.setattr(ConflictDialog, "ask", lambda conflict, parent: asked.append(conflict)
                        or KEEP_THEIRS)
    window.items.editor.flush()
    [conflict] = asked
    assert "changed by someone else" in str(conflict)
    assert role.text() == "Sergeant"
    assert window.undo_stack.count() == 0


def test_filter_as_you_type_with_ctrl_f_and_sorting(make_window, ui_workspace, qtbot):
    cid = make_case(ui_workspace)
    for name in ("Scot Peterson", "Scott Israel", "Brian Miller", "Jan Jordan"):
        _person(ui_workspace, cid, name)
    window = make_window(cid)
    window.items.splitter.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert window.items.filter_edit.hasFocus()
    qtbot.keyClicks(window.items.filter_edit, "scot")
    qtbot.waitUntil(lambda: window.items.proxy.rowCount() == 2, timeout=2000)
    window.items.filter_edit.clear()
    qtbot.waitUntil(lambda: window.items.proxy.rowCount() == 4, timeout=2000)
    window.items.table.sortByColumn(0, Qt.SortOrder.DescendingOrder)
    assert [window.items.proxy.index(r, 0).data() for r in range(4)] == [
        "Scott Israel", "Scot Peterson", "Jan Jordan", "Brian Miller"]


def test_delete_key_and_undo_bring_back_the_item_with_its_evidence(make_window, ui_workspace,
                                                                    qtbot):
    cid = make_case(ui_workspace)
    doc = add_text_document(ui_workspace, cid, "Deputy Scot Peterson stayed outside.")
    pid = _person(ui_workspace, cid, "Scot Peterson")
    with ui_workspace.transaction() as s:
        editing.link_span(s, pid, doc, 7, 20)
    window = make_window(cid)
    window.select_item(pid, "person")
    assert window.evidence.panel.model.link_count() == 1
    window.items.table.setFocus()
    qtbot.keyClick(window.items.table, Qt.Key.Key_Delete)
    assert window.items.proxy.rowCount() == 0
    assert window.evidence.panel.item_id is None
    with ui_workspace.transaction() as s:
        assert s.get(Item, pid) is None
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.items.proxy.rowCount() == 1
    window.select_item(pid, "person")
    assert window.evidence.panel.model.link_count() == 1
    qtbot.keyClick(window, Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert window.items.proxy.rowCount() == 0


def test_status_bar_shows_workspace_counts_and_followups_due(make_window, ui_workspace):
    cid = make_case(ui_workspace)
    with ui_workspace.transaction() as s:
        questions.create_question(s, cid, "Records", due=date.today() - timedelta(days=1))
        questions.create_question(s, cid, "Call", due=date.today() + timedelta(days=3))
        questions.create_question(s, cid, "Later", due=date.today() + timedelta(days=40))
    window = make_window(cid)
    assert window.status_line.workspace_label.text() == f"Workspace: {ui_workspace.folder.name}"
    assert str(ui_workspace.folder) in window.status_line.workspace_label.toolTip()  # whole path
    assert window.status_line.due_label.text() == "1 overdue · 1 follow-up due this week"
    assert window.status_line.counts_label.text().startswith("3 items")
    assert window.picker.navigator.item(7).text() == "Follow-ups (3)"


def test_followups_view_changes_status_in_place(make_window, ui_workspace, qtbot):
    cid = make_case(ui_workspace)
    with ui_workspace.transaction() as s:
        late = questions.create_question(s, cid, "Records", due=date.today() - timedelta(days=1))
        questions.create_question(s, cid, "Call", due=date.today() + timedelta(days=3))
    window = make_window(cid)
    window.picker.navigator.setCurrentRow(7)
    assert window.tabs.currentWidget() is window.followups_view
    set_followup_status(window, 0, "open", "answered")
    with ui_workspace.transaction() as s:
        assert s.get(Item, late.id).status == "answered"
    assert window.followups_model.rowCount() == 1  # answered ones leave the open list
    assert window.status_line.due_label.text() == "1 follow-up due this week"
    window.followups_view.show_closed.setChecked(True)
    assert window.followups_model.rowCount() == 2
    window.undo()
    with ui_workspace.transaction() as s:
        assert s.get(Item, late.id).status == "open"


def test_a_follow_up_change_leaves_the_evidence_panel_on_the_person_selected(
        make_window, ui_workspace, qtbot):
    """The Follow-ups table reloads behind the Items tab after any follow-up change; the
    Evidence panel must stay on the person the reporter is looking at (its Remove link acts on
    what it shows)."""
    from casefile.services import item_actions

    cid = make_case(ui_workspace)
    _person(ws := ui_workspace, cid, "Ana Ortiz")
    with ws.transaction() as s:
        questions.create_question(s, cid, "Call the chief", due=date.today())
    window = make_window(cid)
    window.followups_view.table.selectRow(0)  # a current row in the hidden table
    window.items.show_section("person")
    ana = window.items.current_item_id()
    assert ana is not None and window.evidence.panel.item_id == ana
    out = window.runner.apply(lambda s: item_actions.create(s, cid, "question", "Ask the clerk"))
    assert out.ok
    assert window.tabs.currentWidget() is window.items.page
    assert window.evidence.panel.item_id == ana


def test_changing_section_many_times_shows_a_selected_item_once(make_window,
                                                                 ui_workspace) -> None:
    # every change of section once added another listener to the row selection: after a
    # day of them, each click read the item and its evidence hundreds of times
    from tests.ui.helpers import make_case

    cid = make_case(ui_workspace)
    window = make_window(cid)
    ids = [window.items.create_item("person", name) for name in ("Ana Ortiz", "Ben Cole")]
    for _ in range(20):
        window.items.show_section("place")
        window.items.show_section("person")
    shown: list[object] = []
    window.items.current_changed.connect(shown.append)
    assert window.select_item(ids[1], "person")
    assert shown == [ids[1]]


def test_the_default_workspace_is_named_default_not_by_its_folder(monkeypatch,
                                                                  make_window, ui_workspace):
    from casefile.store import workspace as store_workspace

    monkeypatch.setattr(store_workspace, "default_workspace_dir", lambda: ui_workspace.folder)
    window = make_window(make_case(ui_workspace))
    assert window.status_line.workspace_label.text() == "Workspace: default"
    assert str(ui_workspace.folder) in window.status_line.workspace_label.toolTip()
