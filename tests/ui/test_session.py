"""The first acceptance test, written as a reporter's session in the window (offscreen)."""

from __future__ import annotations

import re

from pypdf import PdfReader
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog

from casefile.services import evidence, items
from casefile.store import EvidenceLink, Item, Passage, Person
from casefile.store.workspace import open_workspace
from casefile.ui.viewer import DocumentViewer
from tests.ui.conftest import SAMPLES
from tests.ui.new_case import answer_new_case

ARTICLE = SAMPLES / "parkland-coral-springs-article.txt"
QUOTE = "remained outside for over four minutes without acting"


def _flat(text: str) -> str:
    return " ".join(text.split())


def _select_in_viewer(viewer: DocumentViewer, needle: str) -> None:
    """Select text the way a reader does: by Qt positions found in the text widget."""
    cursor = viewer.text_view.document().find(needle)
    assert not cursor.isNull(), needle
    viewer.text_view.setTextCursor(cursor)


def test_reporters_session(make_window, ui_workspace, monkeypatch, qtbot, tmp_path):
    # a new case, from the menu
    window = make_window()
    answer_new_case(monkeypatch, "Parkland shooting", "How the police responded.")
    window.new_case_action.trigger()
    case_id = window.case_id
    assert case_id is not None

    # Scot Peterson, typed into a new person's name field
    window.show_section("person")
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(window.editor.widgets["title"], "Scot Peterson")
    qtbot.waitUntil(lambda: not window.editor.dirty, timeout=3000)
    assert window.proxy.index(0, 0).data() == "Scot Peterson"
    peterson = window.current_item_id()

    # import the article through the menu (file dialog patched)
    monkeypatch.setattr(QFileDialog, "getOpenFileNames",
                        lambda *a, **k: ([str(ARTICLE)], "Documents"))
    from tests.ui.helpers import answer_date_questions

    answer_date_questions(monkeypatch)
    with qtbot.waitSignal(window.runner.job_finished, timeout=20000):
        window.import_action.trigger()
    assert window.navigator.item(3).text() == "Documents (1)"
    viewer = window.tabs.currentWidget()
    assert isinstance(viewer, DocumentViewer)
    doc_id = viewer.document_id

    # select the quote, "Link as evidence to…", pick Scot Peterson, supports
    _select_in_viewer(viewer, QUOTE)
    menu = viewer.context_menu()
    assert viewer.link_action in menu.actions() and viewer.link_action.isEnabled()
    viewer.link_action.trigger()
    dialog = window.link_dialog
    assert dialog is not None and dialog.isVisible()
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert not ok.isEnabled()
    qtbot.keyClicks(dialog.item_edit, "Scot Peterson")
    assert dialog.completer.completionCount() == 1
    dialog.relation_box.setCurrentText("supports")
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    with ui_workspace.transaction() as s:
        (link,) = s.query(EvidenceLink).all()
        passage = s.get(Passage, link.passage_id)
        document_text = s.get(Item, doc_id).text
        assert (link.item_id, link.relation) == (peterson, "supports")
        assert document_text[passage.start:passage.end] == QUOTE == passage.quote
    # the passage is highlighted in the viewer, in the supports colour
    assert (passage.start, passage.end) in viewer.highlighted_spans()

    # the evidence panel shows it, with the document's outlet/date group
    window.select_item(peterson, "person")
    panel = window.evidence_panel
    (index,) = panel.link_indexes()
    assert index.data() == f"“{QUOTE}”"
    assert index.siblingAtColumn(1).data() == "supports"

    # double-click opens the viewer with exactly that text selected, scrolled into view
    window.tabs.setCurrentWidget(window.items_page)
    viewer.text_view.moveCursor(viewer.text_view.textCursor().MoveOperation.End)
    rect = panel.tree.visualRect(index)
    # a real double-click is press, release, double-click event, release
    qtbot.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.tabs.currentWidget() is viewer
    assert viewer.text_view.textCursor().selectedText() == QUOTE
    assert viewer.selected_span() == (passage.start, passage.end)
    shown = viewer.text_view.viewport().rect()
    assert shown.intersects(viewer.text_view.cursorRect())

    # undo the link: gone from the panel and the database; redo brings it back
    window.undo()
    assert panel.link_indexes() == []
    with ui_workspace.transaction() as s:
        assert s.query(EvidenceLink).count() == 0 and s.query(Passage).count() == 0
    assert viewer.highlighted_spans() == []
    window.redo()
    assert len(panel.link_indexes()) == 1
    assert (passage.start, passage.end) in viewer.highlighted_spans()

    # edit Peterson's role in the editor (autosaved)
    window.select_item(peterson, "person")
    role = window.editor.widgets["role"]
    qtbot.keyClicks(role, "School resource officer")
    qtbot.waitUntil(lambda: not window.editor.dirty, timeout=3000)
    window.close()

    # reopen the workspace: the role is there, the window reopens the case
    ui_workspace.close()
    again = open_workspace(ui_workspace.folder)
    try:
        window = make_window(workspace=again)
        assert window.case_id == case_id
        window.select_item(peterson, "person")
        assert window.editor.widgets["role"].text() == "School resource officer"
        with again.transaction() as s:
            assert s.get(Person, peterson).role == "School resource officer"
            assert [e.quote for e in evidence.evidence_for(s, peterson)] == [QUOTE]

        # export the brief from the menu (save dialog patched): the PDF holds the quote
        out = tmp_path / "brief.pdf"
        monkeypatch.setattr(QFileDialog, "getSaveFileName",
                            lambda *a, **k: (str(out), "PDF files (*.pdf)"))
        with qtbot.waitSignal(window.runner.job_finished, timeout=60000) as done:
            window.export_action.trigger()
        assert done.args[0].outcome == "succeeded"
        text = _flat(" ".join(page.extract_text() for page in PdfReader(out).pages))
        assert QUOTE in re.sub(r"[“”\"]", "", text)
        assert "School resource officer" in text
        assert not list(tmp_path.glob("*.casefile-part"))
    finally:
        window.runner.shutdown()
        window.close()
        again.close()


def test_new_person_from_selection_becomes_its_first_passage(make_window, ui_workspace):
    from tests.ui.helpers import add_text_document, make_case

    cid = make_case(ui_workspace)
    text = "The Broward Sheriff's Office said Deputy Scot Peterson stayed outside."
    doc = add_text_document(ui_workspace, cid, text)
    window = make_window(cid)
    viewer = window.open_document(doc)
    _select_in_viewer(viewer, " Broward Sheriff's Office ")
    viewer.new_actions["organization"].trigger()
    assert window.kind == "organization"
    assert window.proxy.index(0, 0).data() == "Broward Sheriff's Office"
    org_id = window.current_item_id()
    assert window.editor.widgets["title"].text() == "Broward Sheriff's Office"
    with ui_workspace.transaction() as s:
        (ev,) = evidence.evidence_for(s, org_id)
    assert (ev.quote, ev.relation) == ("Broward Sheriff's Office", "mentions")
    assert (ev.start, ev.end) == (4, 28)
    # one undo removes the new organization and its passage
    window.undo()
    with ui_workspace.transaction() as s:
        assert s.get(Item, org_id) is None and s.query(Passage).count() == 0
    assert viewer.highlighted_spans() == []
    window.redo()
    with ui_workspace.transaction() as s:
        assert [e.quote for e in evidence.evidence_for(s, org_id)] == [
            "Broward Sheriff's Office"]
    assert items  # the service module stays the only way data changed


def test_evidence_panel_edits_relation_and_removes_link(make_window, ui_workspace, qtbot):
    from casefile.services import editing
    from tests.ui.helpers import add_text_document, make_case

    cid = make_case(ui_workspace)
    doc = add_text_document(ui_workspace, cid, "Deputy Scot Peterson stayed outside.",
                            outlet="CNN", published="2018-02-23")
    with ui_workspace.transaction() as s:
        pid = items.create_item(s, cid, "person", "Scot Peterson").id
        span = editing.link_span(s, pid, doc, 7, 20, relation="supports")
    window = make_window(cid)
    window.select_item(pid, "person")
    panel = window.evidence_panel
    top = panel.model.index(0, 0)
    assert "CNN" in top.data() and "2018-02-23" in top.data()
    (index,) = panel.link_indexes()
    assert index.siblingAtColumn(2).data() == "2018-02-23"
    assert index.siblingAtColumn(3).data() == "CNN"
    menu = panel.context_menu(index)
    relation_menu = next(a.menu() for a in menu.actions() if a.text() == "Relation")
    next(a for a in relation_menu.actions() if a.text() == "contradicts").trigger()
    with ui_workspace.transaction() as s:
        assert s.get(EvidenceLink, span.link_id).relation == "contradicts"
    (index,) = panel.link_indexes()
    assert index.siblingAtColumn(1).data() == "contradicts"
    panel.tree.setCurrentIndex(index)
    qtbot.mouseClick(panel.remove_button, Qt.MouseButton.LeftButton)
    assert panel.link_indexes() == []
    with ui_workspace.transaction() as s:
        assert s.get(EvidenceLink, span.link_id) is None
        assert s.get(Passage, span.passage_id) is not None  # removing a link keeps the passage
    window.undo()
    assert [i.siblingAtColumn(1).data() for i in panel.link_indexes()] == ["contradicts"]
    window.undo()
    assert [i.siblingAtColumn(1).data() for i in panel.link_indexes()] == ["supports"]
