"""Two writers on one item, seen from the window: a second reporter (another connection to the
same workspace) saves the item the window has open; the window's save is refused and a dialog
shows both values; "Keep theirs" shows what is stored, "Use mine" saves over it as one undoable
step. Nothing is overwritten without that choice."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QLineEdit, QPlainTextEdit

from casefile.services import items
from casefile.store import Person
from casefile.store.workspace import open_workspace
from casefile.ui.conflict_dialog import ConflictDialog
from tests.ui.helpers import make_case


@pytest.fixture
def other_writer(ui_workspace):
    """A second reporter: another connection pool on the same workspace file."""
    ws = open_workspace(ui_workspace.folder)
    yield ws
    ws.close()


@pytest.fixture
def dialogs(monkeypatch):
    """Stands in for the reporter at the dialog: each ``exec()`` records what the dialog shows
    (``seen``: title, column titles, rows of cell texts, row heights) and presses the button
    named by the next entry of ``presses`` ("theirs", "mine" or "escape"); ``before_press``
    callbacks run first (e.g. the other writer saves again meanwhile)."""
    state: dict = {"presses": [], "seen": [], "before_press": []}

    def exec_(dialog: ConflictDialog) -> int:
        dialog.show()
        table = dialog.table
        state["seen"].append({
            "title": dialog.windowTitle(),
            "columns": [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())],
            "rows": [[table.item(r, c).text() for c in range(table.columnCount())]
                     for r in range(table.rowCount())],
            "row_heights": [table.rowHeight(r) for r in range(table.rowCount())],
            "line_height": table.fontMetrics().height(),
            "dialog": dialog,
        })
        if state["before_press"]:
            state["before_press"].pop(0)()
        press = state["presses"].pop(0)
        if press == "escape":
            QTest.keyClick(dialog, Qt.Key.Key_Escape)
        else:
            {"theirs": dialog.keep_theirs_button,
             "mine": dialog.use_mine_button}[press].click()
        return dialog.result()

    monkeypatch.setattr(ConflictDialog, "exec", exec_)
    return state


def _open_person(make_window, ui_workspace, **fields):
    cid = make_case(ui_workspace)
    with ui_workspace.transaction() as s:
        pid = items.create_item(s, cid, "person", "Scot Peterson", **fields).id
    window = make_window(cid)
    assert window.select_item(pid, "person")
    return window, pid


def _type(qtbot, window, field: str, text: str) -> None:
    """The reporter replaces a line field's text and pauses (the autosave fires)."""
    edit = window.items.editor.widgets[field]
    assert isinstance(edit, QLineEdit)
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClicks(edit, text)
    qtbot.waitUntil(lambda: not window.items.editor.dirty, timeout=5000)


def _stored_role(ws, pid: int) -> tuple[str | None, int]:
    with ws.transaction() as s:
        person = s.get(Person, pid)
        return person.role, person.version


def test_keep_theirs_shows_both_values_then_the_stored_one(
        make_window, ui_workspace, other_writer, dialogs, qtbot) -> None:
    window, pid = _open_person(make_window, ui_workspace, role="Deputy")
    with other_writer.transaction() as s:
        items.update_item(s, pid, expected_version=1, role="Sergeant")
    dialogs["presses"].append("theirs")
    with qtbot.assertNotEmitted(window.runner.operation_failed):
        _type(qtbot, window, "role", "School resource officer")
    [seen] = dialogs["seen"]
    assert seen["title"] == "Someone else changed “Scot Peterson”"
    assert seen["columns"] == ["Field", "When you opened it", "Yours",
                               "Saved by the other writer"]
    assert seen["rows"] == [["Role / title", "Deputy", "School resource officer", "Sergeant"]]
    assert _stored_role(ui_workspace, pid) == ("Sergeant", 2)
    assert window.items.editor.widgets["role"].text() == "Sergeant"
    assert window.undo_stack.count() == 0
    # the editor now holds the stored version: the next edit saves without a conflict
    _type(qtbot, window, "role", "Captain")
    assert len(dialogs["seen"]) == 1
    assert _stored_role(ui_workspace, pid) == ("Captain", 3)


def test_escape_keeps_theirs(make_window, ui_workspace, other_writer, dialogs, qtbot) -> None:
    window, pid = _open_person(make_window, ui_workspace, role="Deputy")
    with other_writer.transaction() as s:
        items.update_item(s, pid, role="Sergeant")
    dialogs["presses"].append("escape")
    _type(qtbot, window, "role", "Captain")
    assert len(dialogs["seen"]) == 1
    assert _stored_role(ui_workspace, pid) == ("Sergeant", 2)
    assert window.items.editor.widgets["role"].text() == "Sergeant"


def test_use_mine_saves_over_theirs_and_ctrl_z_brings_theirs_back(
        make_window, ui_workspace, other_writer, dialogs, qtbot) -> None:
    window, pid = _open_person(make_window, ui_workspace, role="Deputy")
    with other_writer.transaction() as s:
        items.update_item(s, pid, role="Sergeant")
    dialogs["presses"].append("mine")
    with qtbot.assertNotEmitted(window.runner.operation_failed):
        _type(qtbot, window, "role", "School resource officer")
    assert len(dialogs["seen"]) == 1
    assert _stored_role(ui_workspace, pid) == ("School resource officer", 3)
    assert window.items.editor.widgets["role"].text() == "School resource officer"
    assert window.undo_stack.count() == 1
    assert "mine over theirs" in window.undo_action.text()
    window.activateWindow()  # back from the dialog
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    window.items.table.setFocus()
    qtbot.keyClick(window.items.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert _stored_role(ui_workspace, pid)[0] == "Sergeant"
    assert window.items.editor.widgets["role"].text() == "Sergeant"
    with other_writer.transaction() as s:  # the other reporter sees the undo too
        assert s.get(Person, pid).role == "Sergeant"


def test_other_writer_saves_again_while_the_dialog_is_open(
        make_window, ui_workspace, other_writer, dialogs, qtbot) -> None:
    window, pid = _open_person(make_window, ui_workspace, role="Deputy")
    with other_writer.transaction() as s:
        items.update_item(s, pid, role="Sergeant")

    def again() -> None:
        with other_writer.transaction() as s:
            items.update_item(s, pid, role="Lieutenant")

    dialogs["before_press"].append(again)
    dialogs["presses"] += ["mine", "mine"]
    _type(qtbot, window, "role", "Captain")
    first, second = dialogs["seen"]
    assert first["rows"][0][2:] == ["Captain", "Sergeant"]
    assert second["rows"][0][2:] == ["Captain", "Lieutenant"]  # asked again, newest values
    assert _stored_role(ui_workspace, pid) == ("Captain", 4)
    window.undo()
    assert _stored_role(ui_workspace, pid)[0] == "Lieutenant"


def test_affiliation_shows_organization_names_and_long_notes_wrap(
        make_window, ui_workspace, other_writer, dialogs, qtbot) -> None:
    cid = make_case(ui_workspace)
    with ui_workspace.transaction() as s:
        bso = items.create_item(s, cid, "organization", "Broward County Sheriff's Office").id
        cspd = items.create_item(s, cid, "organization", "Coral Springs Police Department").id
        schools = items.create_item(s, cid, "organization", "Broward County Public Schools").id
        pid = items.create_item(s, cid, "person", "Scot Peterson", affiliation_id=bso).id
    window = make_window(cid)
    assert window.select_item(pid, "person")
    long_note = ("Resigned after the video showed him outside building 12 for more than four "
                 "minutes while shots were fired; his lawyer says he thought the shots came "
                 "from outside. Ask the union for the personnel file and the timeline of radio "
                 "calls before the story runs.")
    with other_writer.transaction() as s:
        items.update_item(s, pid, affiliation_id=cspd, notes="Union rep: call back Monday.")
    dialogs["presses"].append("theirs")
    affiliation = window.items.editor.widgets["affiliation_id"]
    notes = window.items.editor.widgets["notes"]
    assert isinstance(affiliation, QComboBox) and isinstance(notes, QPlainTextEdit)
    affiliation.setCurrentIndex(affiliation.findData(schools))
    notes.setPlainText(long_note)
    window.items.editor.flush()
    [seen] = dialogs["seen"]
    assert seen["rows"] == [
        ["Affiliation", "Broward County Sheriff's Office", "Broward County Public Schools",
         "Coral Springs Police Department"],
        ["Notes", "(empty)", long_note, "Union rep: call back Monday."],
    ]
    heights = seen["row_heights"]
    assert heights[1] >= 3 * seen["line_height"]  # the long note wraps, not cut off
    dialog = seen["dialog"]
    yours = dialog.table.visualItemRect(dialog.table.item(1, 2))
    assert yours.right() <= dialog.table.viewport().width()  # no column runs off the table
    with ui_workspace.transaction() as s:
        stored = s.get(Person, pid)
        assert (stored.affiliation_id, stored.notes) == (cspd, "Union rep: call back Monday.")
    assert affiliation.currentData() == cspd


def test_copy_mine_puts_your_values_on_the_clipboard(
        make_window, ui_workspace, other_writer, dialogs, qtbot) -> None:
    window, pid = _open_person(make_window, ui_workspace, role="Deputy")
    with other_writer.transaction() as s:
        items.update_item(s, pid, role="Sergeant")
    dialogs["before_press"].append(lambda: dialogs["seen"][0]["dialog"].copy_button.click())
    dialogs["presses"].append("theirs")
    QGuiApplication.clipboard().setText("something else")
    _type(qtbot, window, "role", "School resource officer")
    assert QGuiApplication.clipboard().text() == "Role / title: School resource officer"
    assert _stored_role(ui_workspace, pid) == ("Sergeant", 2)


def test_use_mine_after_an_earlier_edit_is_its_own_undo_step(
        make_window, ui_workspace, other_writer, dialogs, qtbot) -> None:
    window, pid = _open_person(make_window, ui_workspace, role="Deputy")
    _type(qtbot, window, "role", "Captain")  # saved: version 2
    with other_writer.transaction() as s:
        items.update_item(s, pid, role="Sergeant")  # version 3
    dialogs["presses"].append("mine")
    _type(qtbot, window, "role", "Major")
    assert _stored_role(ui_workspace, pid) == ("Major", 4)
    assert window.undo_stack.count() == 2  # not merged into the edit before the conflict
    window.undo()
    assert _stored_role(ui_workspace, pid)[0] == "Sergeant"  # theirs, not "Deputy"
    with qtbot.waitSignal(window.runner.operation_failed):
        window.undo()  # "Captain" -> "Deputy" would now write over their "Sergeant": refused
    assert _stored_role(ui_workspace, pid)[0] == "Sergeant"


def test_undo_after_someone_else_saved_is_refused_and_keeps_theirs(
        make_window, ui_workspace, other_writer, dialogs, qtbot) -> None:
    window, pid = _open_person(make_window, ui_workspace, role="Deputy")
    _type(qtbot, window, "role", "Captain")
    assert _stored_role(ui_workspace, pid) == ("Captain", 2)
    with other_writer.transaction() as s:
        items.update_item(s, pid, expected_version=2, role="Sergeant")
    with qtbot.waitSignal(window.runner.operation_failed) as failed:
        window.undo()
    assert "Scot Peterson" in failed.args[0]
    assert _stored_role(ui_workspace, pid) == ("Sergeant", 3)  # their save stays
    assert window.undo_stack.count() == 0  # the refused step leaves the stack
    assert dialogs["seen"] == []


def test_undo_and_redo_of_my_own_saves_still_work(
        make_window, ui_workspace, dialogs, qtbot) -> None:
    window, pid = _open_person(make_window, ui_workspace, role="Deputy")
    _type(qtbot, window, "role", "Captain")
    window.undo()
    assert _stored_role(ui_workspace, pid) == ("Deputy", 3)
    window.redo()
    assert _stored_role(ui_workspace, pid) == ("Captain", 4)
    window.undo()
    assert _stored_role(ui_workspace, pid) == ("Deputy", 5)
    assert dialogs["seen"] == []
