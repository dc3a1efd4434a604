"""The watch list in the window: a name watched from Case ▸ Watch list…, a file imported that
writes it another way ("Last, First"); the window says "1 new document mentions names on your
watch list", the hits table shows the name, the words found, the document and the passage, and
activating the row opens the document with those words selected. Watching is undone and
redone from the window's undo stack."""

from __future__ import annotations

from casefile.services import cases, watch_list


def test_an_import_mentioning_a_watched_name_is_announced_and_opens_the_passage(
        make_window, ui_workspace, qtbot, tmp_path):
    with ui_workspace.transaction() as s:
        case_id = cases.create_case(s, "Harbor").id
    window = make_window(case_id)
    controller = window.watch_list
    window.watch_list.action.trigger()  # Case ▸ Watch list… (Ctrl+Shift+W)
    dialog = controller.dialog
    assert dialog is not None and dialog.isVisible()
    assert controller.add_names(["Ansel Brightwater"], kind="person")
    assert dialog.names.rowCount() == 1 and dialog.names.item(0, 0).text() == "Ansel Brightwater"
    assert dialog.banner.isVisible() and dialog.banner.text().startswith(
        "Added “Ansel Brightwater” to the watch list")  # said where the reporter looks
    window.undo_stack.undo()
    assert dialog.names.rowCount() == 0
    window.undo_stack.redo()
    assert dialog.names.rowCount() == 1
    dialog.close()

    path = tmp_path / "memo.txt"
    path.write_text("Harbor memo, 4 March 2021.\n\nThe permit was signed by Brightwater, "
                    "Ansel on the quay.\nNothing else.\n", encoding="utf-8")
    job = window.imports.import_files([path], published=None)
    qtbot.waitUntil(lambda: job.done, timeout=30000)
    qtbot.waitUntil(lambda: dialog.isVisible(), timeout=5000)
    said = "1 new document mentions names on your watch list"
    assert window.statusBar().currentMessage() == said
    assert dialog.banner.isVisible() and dialog.banner.text().startswith(said)
    assert dialog.hits.rowCount() == 1
    assert [dialog.hits.item(0, c).text() for c in range(4)] == [
        "Ansel Brightwater", "Brightwater, Ansel", "Harbor memo, 4 March 2021.",
        "The permit was signed by Brightwater, Ansel on the quay."]
    with ui_workspace.transaction(write=False) as s:
        (hit,) = watch_list.case_hits(s, case_id)
    dialog.hits.activated.emit(dialog.hits.model().index(0, 3))
    viewer = window.tabs.currentWidget()
    assert getattr(viewer, "document_id", None) == hit.document_id
    assert viewer.text_view.textCursor().selectedText() == "Brightwater, Ansel"
    assert not dialog.isVisible()  # the list steps aside, not left in front of the passage
    assert window.statusBar().currentMessage() == (
        "Case ▸ Watch list… (Ctrl+Shift+W) shows the other hits again")


def test_a_binary_file_or_a_pointless_name_is_said_in_one_line(make_window, ui_workspace,
                                                                tmp_path):
    import os

    with ui_workspace.transaction() as s:
        case_id = cases.create_case(s, "Harbor").id
    window = make_window(case_id)
    junk = tmp_path / "bin.csv"
    junk.write_bytes(os.urandom(3000) + b"\0")
    controller = window.watch_list
    controller.action.trigger()
    assert controller.load_file(junk) is False  # Load from file… with that file chosen
    said = window.statusBar().currentMessage()
    assert said.startswith("bin.csv is not a CSV/XLSX/FtM file: "), said
    assert any(box.text() == said for box in window.messages)
    assert controller.dialog.names.rowCount() == 0
    # a name that could never be meant is refused the same way
    assert controller.add_names(["X"], kind="person") is False
    assert "a name needs a word of two or more letters" in window.statusBar().currentMessage()
    assert controller.dialog.names.rowCount() == 0
    with ui_workspace.transaction(write=False) as s:
        assert watch_list.list_names(s, case_id) == []
