"""The document viewer's offsets (emoji), highlights, and importing off the GUI thread."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QTimer
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QPushButton

from casefile.services import items
from casefile.store import Blob, Document, EvidenceLink, Item, Passage
from casefile.store.workspace import open_workspace
from casefile.ui.date_question import PublishedDateDialog
from casefile.ui.evidence_model import relation_colour
from casefile.ui.offsets import OffsetMap
from tests.ui.helpers import add_text_document, drop_files, make_case

EMOJI_TEXT = "Body-cam log.\n👮 Deputy 👮 Scot Peterson stayed outside 🚓 for four minutes."


def test_offset_map_round_trips_around_astral_characters():
    text = "a👮b😀😀c\nd"
    m = OffsetMap(text)
    utf16 = text.encode("utf-16-le")
    for i in range(len(text) + 1):
        q = m.to_qt(i)
        assert len(utf16[: 2 * q].decode("utf-16-le")) == i
        assert m.to_python(q) == i
    assert m.to_python(2) == 1 and m.to_python(2, round_up=True) == 2  # inside 👮
    assert m.qt_length == len(utf16) // 2


def test_emoji_before_the_selection_stores_the_right_span(make_window, ui_workspace):
    cid = make_case(ui_workspace)
    doc = add_text_document(ui_workspace, cid, EMOJI_TEXT)
    window = make_window(cid)
    viewer = window.open_document(doc)
    cursor = viewer.text_view.document().find("Scot Peterson")  # Qt (UTF-16) positions
    assert cursor.selectionStart() != EMOJI_TEXT.index("Scot Peterson")  # they do differ
    viewer.text_view.setTextCursor(cursor)
    viewer.new_actions["person"].trigger()
    person = window.items.current_item_id()
    with ui_workspace.transaction() as s:
        (passage,) = s.query(Passage).all()
        assert EMOJI_TEXT[passage.start:passage.end] == "Scot Peterson" == passage.quote
        assert s.get(Item, person).title == "Scot Peterson"
    # link a second span after more emoji, through the dialog
    cursor = viewer.text_view.document().find("four minutes")
    viewer.text_view.setTextCursor(cursor)
    viewer.link_action.trigger()
    window.items.link_dialog.item_edit.setText("Scot Peterson (person)")
    window.items.link_dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    with ui_workspace.transaction() as s:
        quotes = sorted(p.quote for p in s.query(Passage))
        spans = sorted((p.start, p.end) for p in s.query(Passage))
    assert quotes == ["Scot Peterson", "four minutes"]
    assert [EMOJI_TEXT[a:b] for a, b in spans] == ["Scot Peterson", "four minutes"]
    window.close()

    # reopen: the highlights land on the same words
    ui_workspace.close()
    again = open_workspace(ui_workspace.folder)
    try:
        window = make_window(cid, workspace=again)
        viewer = window.open_document(doc)
        selections = viewer.text_view.extraSelections()
        assert sorted(sel.cursor.selectedText() for sel in selections) == [
            "Scot Peterson", "four minutes"]
        assert sorted(viewer.highlighted_spans()) == spans
        colours = {sel.format.background().color().rgba() for sel in selections}
        assert colours == {relation_colour("mentions").rgba(), relation_colour("supports").rgba()}
        # double-click in the evidence panel selects exactly the passage
        window.select_item(person, "person")
        panel = window.evidence.panel
        (index,) = [i for i in panel.link_indexes()
                    if (v := panel.model.evidence_at(i)) and v.quote == "four minutes"]
        window.evidence.panel.activate(index)
        assert viewer.text_view.textCursor().selectedText() == "four minutes"
    finally:
        window.close()
        again.close()


def test_viewer_context_menu_needs_a_selection(make_window, ui_workspace):
    cid = make_case(ui_workspace)
    doc = add_text_document(ui_workspace, cid, "Deputy Scot Peterson stayed outside.")
    window = make_window(cid)
    viewer = window.open_document(doc)
    menu = viewer.context_menu(QPoint(5, 5))
    labels = [a.text() for a in menu.actions() if a.text()]
    assert labels[:5] == ["Link as evidence to…", "New person from selection",
                          "New organization from selection", "New place from selection",
                          "New question from selection"]
    assert not viewer.link_action.isEnabled()
    viewer.select_span(7, 20)
    viewer.context_menu(QPoint(5, 5))
    assert viewer.link_action.isEnabled() and viewer.selected_text() == "Scot Peterson"


def _big_text_file(folder: Path, megabytes: float = 5.0) -> Path:
    line = ("Deputies waited outside the building while the county reviewed the radio "
            "records and the school district released a timeline. ")
    count = int(megabytes * 1_000_000 / len(line)) + 1
    path = folder / "big-transcript.txt"
    path.write_text("\n".join(line for _ in range(count)), encoding="utf-8")
    assert path.stat().st_size >= megabytes * 1_000_000
    return path


def _run_counting_ticks(qtbot, start_job, on_tick=None):
    """Start a job (``start_job()`` returns it) with a 10 ms timer running, wait for it to end;
    returns (job, ticks while it ran). A tick counts when the event loop ran it after the job
    started and before its result arrived: the timer cannot fire while the GUI thread is busy,
    so an import that blocked the window would leave none. ``on_tick(job)`` runs on each of
    those ticks."""
    started: list = []
    ticks: list[int] = []

    def tick() -> None:
        if started and not started[0].done:
            ticks.append(len(ticks))
            if on_tick is not None:
                on_tick(started[0])

    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(tick)
    timer.start()
    try:
        started.append(start_job())
        qtbot.waitUntil(lambda: started[0].done, timeout=60000)
    finally:
        timer.stop()
    return started[0], ticks


def _import_big_file(make_window, ui_workspace, qtbot, tmp_path, monkeypatch, on_tick=None):
    cid = make_case(ui_workspace)
    with ui_workspace.transaction() as s:
        items.create_item(s, cid, "person", "Scot Peterson")
    big = _big_text_file(tmp_path)
    window = make_window(cid)
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(big)], ""))
    # the transcript carries no published date: the question is answered at once
    monkeypatch.setattr(PublishedDateDialog, "open", lambda self: self.accept())
    job, ticks = _run_counting_ticks(
        qtbot, lambda: (window.import_action.trigger(), window.last_job)[1],
        None if on_tick is None else lambda job: on_tick(window, job))
    assert job.outcome == "succeeded"
    print(f"import of 5 MB: {len(ticks)} timer ticks while it ran")
    return window, job, ticks


def test_5mb_import_keeps_the_event_loop_running(make_window, ui_workspace, qtbot, tmp_path,
                                                 monkeypatch):
    window, _job, ticks = _import_big_file(make_window, ui_workspace, qtbot, tmp_path,
                                           monkeypatch)
    # while the worker ran, the timer kept firing (a 5 MB import takes far longer than 5 ticks)
    assert len(ticks) >= 5, ticks
    with ui_workspace.transaction() as s:
        (doc,) = s.query(Document).all()
        assert len(doc.text) >= 5_000_000
    assert window.picker.navigator.item(3).text() == "Documents (1)"


def test_the_window_answers_a_click_while_a_5mb_import_runs(make_window, ui_workspace, qtbot,
                                                            tmp_path, monkeypatch):
    """The reporter changes section while the import runs: the People table shows its row on a
    later turn of the event loop, before the import has finished."""
    seen: dict[str, object] = {}

    def on_tick(window, job) -> None:
        if "asked" not in seen:
            window.picker.navigator.setCurrentRow(3)  # Documents
            window.picker.navigator.setCurrentRow(0)  # then People, as a click would
            seen["asked"] = len(seen)
        elif "shown" not in seen:
            seen["shown"] = [window.items.proxy.index(r, 0).data()
                             for r in range(window.items.proxy.rowCount())]

    window, job, _ticks = _import_big_file(make_window, ui_workspace, qtbot, tmp_path,
                                           monkeypatch, on_tick)
    assert seen.get("shown") == ["Scot Peterson"], seen
    assert window.picker.navigator.currentRow() == 0


def test_cancelled_import_stores_nothing(make_window, ui_workspace, qtbot, tmp_path):
    cid = make_case(ui_workspace)
    big = _big_text_file(tmp_path)
    window = make_window(cid)
    job = window.imports.import_files([big], published=None)
    assert job.dialog is not None
    job.dialog.findChild(QPushButton).click()  # the dialog's Cancel button
    qtbot.waitUntil(lambda: job.done, timeout=60000)
    assert job.outcome == "cancelled"
    with ui_workspace.transaction() as s:
        assert s.query(Document).count() == 0 and s.query(Blob).count() == 0
    assert "nothing was stored" in window.statusBar().currentMessage()
    assert window.picker.navigator.item(3).text() == "Documents (0)"
    assert window.documents.viewers == {}


REAL = Path("/work/shared/samples/real")


def test_several_files_with_a_bad_one_import_the_good_ones_with_a_summary(
        make_window, ui_workspace, qtbot, tmp_path, monkeypatch):
    """File ▸ Import documents with several files: each file its own transaction, the good
    ones stored, the refused one listed with its reason in the summary."""
    eml, docx = REAL / "006.eml", REAL / "blk-paras-and-tables.docx"
    if not (eml.exists() and docx.exists()):
        pytest.skip("real samples not available")
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    cid = make_case(ui_workspace)
    window = make_window(cid)
    monkeypatch.setattr(QFileDialog, "getOpenFileNames",
                        lambda *a, **k: ([str(eml), str(docx), str(empty)], ""))
    window.import_action.trigger()
    # one question for the two files that can be imported (not the empty one)
    qtbot.waitUntil(lambda: window.imports.date_dialog is not None, timeout=20000)
    dialog = window.imports.date_dialog
    assert dialog.all_box.isVisible() and dialog.for_all()
    assert dialog.all_box.text() == "Use this date for all 2 files without one"
    dialog.set_published(date(2020, 1, 2))
    dialog.accept()
    job = window.last_job
    assert job is not None
    qtbot.waitUntil(lambda: job.done and window.folder_import.summary is not None,
                    timeout=30000)
    summary = window.folder_import.summary
    assert "2 imported, 0 already there, 1 failed" in summary.counts_label.text()
    ((name, reason),) = summary.failure_rows()
    assert name == "empty.txt" and "empty" in reason.lower()
    with ui_workspace.transaction() as s:
        names = sorted(d.filename for d in s.query(Document).all() if d.parent_id is None)
    assert names == ["006.eml", "blk-paras-and-tables.docx"]
    assert not window.messages  # no error box: the summary says it
    with ui_workspace.transaction() as s:
        dated = {d.filename: d.published for d in s.query(Document).all()}
    # neither file carries a date of its own: both take the one answer
    assert dated["blk-paras-and-tables.docx"] == dated["006.eml"] == date(2020, 1, 2)
    qtbot.waitUntil(lambda: window.picker.navigator.item(3).text() != "Documents (0)")


def test_a_single_refused_file_is_reported_and_nothing_stored(make_window, ui_workspace, qtbot,
                                                             tmp_path):
    cid = make_case(ui_workspace)
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    window = make_window(cid)
    # as the reporter does it: the file cannot be read, so no date is asked for first
    with qtbot.waitSignal(window.runner.operation_failed, timeout=20000) as failed:
        job = window.imports.import_files([empty])
    assert window.imports.date_dialog is None and job is not None
    qtbot.waitUntil(lambda: job.done)
    assert "empty" in failed.args[0].lower()
    with ui_workspace.transaction() as s:
        assert s.query(Document).count() == 0


def test_drop_files_on_the_window_imports_them(make_window, ui_workspace, qtbot, tmp_path):
    cid = make_case(ui_workspace)
    note = tmp_path / "dropped-note.txt"
    note.write_text("Sheriff Scott Israel spoke to reporters.", encoding="utf-8")
    window = make_window(cid)
    drop_files(window, note)
    # the note carries no published date: asked, once the job has read it off the GUI thread
    qtbot.waitUntil(lambda: window.imports.date_dialog is not None, timeout=20000)
    dialog = window.imports.date_dialog
    dialog.set_published(date(2018, 2, 23))
    with qtbot.waitSignal(window.runner.job_finished, timeout=20000):
        dialog.accept()
    with ui_workspace.transaction() as s:
        (doc,) = s.query(Document).all()
        assert doc.filename == "dropped-note.txt"
        assert doc.published == date(2018, 2, 23)
        assert "Published date given at import: 2018-02-23" in doc.import_notes
    assert window.documents.viewers[doc.id].text.startswith("Sheriff Scott Israel")


def test_deleting_a_document_closes_its_viewer_and_undo_restores_passages(
        make_window, ui_workspace, qtbot):
    from casefile.services import editing

    cid = make_case(ui_workspace)
    doc = add_text_document(ui_workspace, cid, "Deputy Scot Peterson stayed outside.")
    with ui_workspace.transaction() as s:
        pid = items.create_item(s, cid, "person", "Scot Peterson").id
        editing.link_span(s, pid, doc, 7, 20)
    window = make_window(cid)
    window.open_document(doc)
    window.select_item(doc, "document")
    window.items.delete_selected()
    assert doc not in window.documents.viewers
    with ui_workspace.transaction() as s:
        assert s.query(EvidenceLink).count() == 0
    window.undo()
    with ui_workspace.transaction() as s:
        assert s.query(EvidenceLink).count() == 1
    viewer = window.open_document(doc)
    assert viewer.highlighted_spans() == [(7, 20)]
