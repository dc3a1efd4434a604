"""The Case menu and File ▸ Trash… in the window: a deleted case leaves the case list and comes
back from the Trash with the same rows; a deleted item survives a restart in the Trash and comes
back with its evidence; renaming a case and editing its summary are undoable."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from sqlalchemy import select

from casefile.services import cases
from casefile.services.demo import build_demo
from casefile.store import Document, EvidenceLink, Passage
from casefile.store.workspace import open_workspace
from tests.e2e.case_rows import case_rows


def _listed_cases(window) -> list[str]:
    return [window.picker.case_box.itemText(i) for i in range(window.picker.case_box.count())]


def _answer(monkeypatch, button: QMessageBox.StandardButton) -> list[str]:
    """Answer every QMessageBox.question with ``button``; returns the questions asked."""
    asked: list[str] = []

    def question(_parent, _title, text, *_args, **_kw):
        asked.append(text)
        return button

    monkeypatch.setattr(QMessageBox, "question", question)
    return asked


def test_delete_a_case_then_restore_it_from_the_trash(make_window, ui_workspace, qtbot,
                                                      monkeypatch):
    with ui_workspace.transaction() as s:
        case_id, _ = build_demo(s)
        title = cases.get_case(s, case_id).title
        cases.create_case(s, "Another story")
        before = case_rows(s, title)
    window = make_window(case_id)
    assert window.case_title() == title

    asked = _answer(monkeypatch, QMessageBox.StandardButton.Cancel)
    window.case_menu.delete_action.trigger()  # asked, and cancelled: nothing happens
    assert len(asked) == 1 and title in asked[0] and title in _listed_cases(window)

    asked = _answer(monkeypatch, QMessageBox.StandardButton.Yes)
    window.case_menu.delete_action.trigger()
    assert len(asked) == 1
    assert _listed_cases(window) == ["Another story"]
    assert window.case_title() == "Another story" and window.case_id != case_id
    assert "Trash" in window.statusBar().currentMessage()

    window.trash.action.trigger()
    dialog = window.trash.dialog
    assert dialog is not None and dialog.isVisible()
    assert [e.label for e in dialog.listed] == [f"case “{title}”"]
    assert dialog.table.item(0, 1).text() == f"case “{title}”"
    qtbot.mouseClick(dialog.restore_button, Qt.MouseButton.LeftButton)

    assert sorted(_listed_cases(window)) == sorted([title, "Another story"])
    assert window.case_title() == title  # the restored case is opened
    assert dialog.listed == [] and not dialog.restore_button.isEnabled()
    with ui_workspace.transaction() as s:
        assert case_rows(s, title) == before
    nav = window.picker.navigator
    counts = [nav.item(i).text() for i in range(nav.count())]
    assert any(t.startswith("Documents (") and not t.endswith("(0)") for t in counts)


def test_a_deleted_document_comes_back_with_its_evidence_after_a_restart(
        make_window, ui_workspace, qtbot):
    with ui_workspace.transaction() as s:
        case_id, _ = build_demo(s)
        title = cases.get_case(s, case_id).title
        link = s.scalars(select(EvidenceLink).where(EvidenceLink.passage_id.is_not(None))
                         .order_by(EvidenceLink.id)).first()
        doc_id = s.get(Passage, link.passage_id).document_id
        doc_title = s.get(Document, doc_id).title
        before = case_rows(s, title)
    window = make_window(case_id)
    assert window.select_item(doc_id, "document")
    window.items.delete_action.trigger()  # undoable, so not asked
    with ui_workspace.transaction() as s:
        assert s.get(Document, doc_id) is None
        assert case_rows(s, title) != before
    window.runner.shutdown()
    window.close()  # quit: the undo history goes with the window

    again = open_workspace(ui_workspace.folder)
    try:
        window = make_window(case_id, workspace=again)
        assert window.undo_stack.count() == 0
        window.trash.action.trigger()
        dialog = window.trash.dialog
        assert [e.label for e in dialog.listed] == [f"document “{doc_title}”"]
        assert "evidence link" in dialog.table.item(0, 3).text()
        qtbot.mouseClick(dialog.restore_button, Qt.MouseButton.LeftButton)
        with again.transaction() as s:
            assert case_rows(s, title) == before
        assert window.select_item(doc_id, "document")
        assert dialog.listed == []
        # the restore is an undo step of this window: Ctrl+Z puts it back in the Trash
        assert window.undo_stack.count() == 1
        window.undo()
        assert [e.item_ids for e in window.trash.listed()] == [(doc_id,)]
        window.runner.shutdown()
        window.close()
    finally:
        again.close()


def test_empty_trash_asks_first(make_window, ui_workspace, qtbot, monkeypatch):
    with ui_workspace.transaction() as s:
        keep = cases.create_case(s, "Kept").id
        cases.create_case(s, "Gone")
    window = make_window(keep)
    window.picker.case_box.setCurrentIndex(window.picker.case_box.findText("Gone"))
    window.picker.case_box.activated.emit(window.picker.case_box.currentIndex())
    assert window.case_title() == "Gone"
    _answer(monkeypatch, QMessageBox.StandardButton.Yes)
    window.case_menu.delete_action.trigger()
    window.trash.action.trigger()
    dialog = window.trash.dialog
    assert len(dialog.listed) == 1

    asked = _answer(monkeypatch, QMessageBox.StandardButton.Cancel)
    qtbot.mouseClick(dialog.empty_button, Qt.MouseButton.LeftButton)
    assert len(asked) == 1 and len(dialog.listed) == 1

    asked = _answer(monkeypatch, QMessageBox.StandardButton.Yes)
    qtbot.mouseClick(dialog.empty_button, Qt.MouseButton.LeftButton)
    assert len(asked) == 1 and dialog.listed == [] and not dialog.empty_button.isEnabled()
    assert window.trash.listed() == []


def test_rename_and_edit_the_summary_then_undo(make_window, ui_workspace, monkeypatch):
    from casefile.ui import case_menu

    with ui_workspace.transaction() as s:
        case_id = cases.create_case(s, "Harbor audit", "Old summary").id
        cases.create_case(s, "Taken title")
    window = make_window(case_id)
    monkeypatch.setattr(case_menu, "ask_title", lambda _parent, current: "Harbor dredging")
    monkeypatch.setattr(case_menu, "ask_summary", lambda *_a: "Who paid for the dredging.")
    window.case_menu.rename_action.trigger()
    window.case_menu.summary_action.trigger()
    assert window.case_title() == "Harbor dredging"
    assert window.windowTitle().startswith("Harbor dredging")
    assert "Harbor dredging" in _listed_cases(window)
    with ui_workspace.transaction() as s:
        assert cases.get_case(s, case_id).summary == "Who paid for the dredging."

    window.undo()
    window.undo()
    assert window.case_title() == "Harbor audit"
    with ui_workspace.transaction() as s:
        assert cases.get_case(s, case_id).summary == "Old summary"

    errors: list[str] = []
    monkeypatch.setattr(window, "report_error", lambda message, *_a: errors.append(message))
    assert not window.case_menu.rename("Taken title")
    assert errors and "already exists" in errors[0]
    assert window.case_title() == "Harbor audit"


def test_a_case_deleted_elsewhere_leaves_this_window_for_another_case(make_window,
                                                                      ui_workspace, qtbot):
    from casefile.services import trash

    with ui_workspace.transaction() as s:
        gone = cases.create_case(s, "Gone elsewhere").id
        cases.create_case(s, "Still here")
    window = make_window(gone)
    window.trash.action.trigger()  # open: it lists what others put in the Trash too
    other = open_workspace(db_url=ui_workspace.url)  # another process's connection
    try:
        with other.transaction() as s:
            trash.delete_case(s, gone)
    finally:
        other.close()
    qtbot.waitUntil(lambda: window.case_title() == "Still here", timeout=5000)
    assert _listed_cases(window) == ["Still here"]
    told = [box.text() for box in window.messages]
    assert told == ["The case “Gone elsewhere” was moved to the Trash by another window or "
                    "command (File ▸ Trash… brings it back); showing “Still here” instead."]
    qtbot.waitUntil(lambda: len(window.trash.dialog.listed) == 1, timeout=2000)
