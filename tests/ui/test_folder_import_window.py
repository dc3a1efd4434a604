"""File ▸ Import folder… and dropping a folder: per-file transactions, progress with the
current file, cancel between files, and the summary dialog."""

from __future__ import annotations

import threading
from datetime import date
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QPushButton

from casefile.services import batch as batch_service
from casefile.store import Document
from tests.e2e.make_files import html_page, pdf_bytes, png_bytes, truncated_pdf
from tests.ui.helpers import answer_date_questions, drop_files, make_case


def _mixed_folder(root: Path) -> Path:
    """7 visible files: 4 good (one in a subfolder), 1 copy of a good one, 2 bad; 1 hidden."""
    folder = root / "records"
    (folder / "emails").mkdir(parents=True)
    (folder / "a-note.txt").write_text("Deputy Scot Peterson stayed outside.", encoding="utf-8")
    (folder / "b-copy-of-note.txt").write_text("Deputy Scot Peterson stayed outside.",
                                               encoding="utf-8")
    (folder / "c-report.pdf").write_bytes(pdf_bytes(["Incident 18-0214", "Page two."]))
    (folder / "d-photo.png").write_bytes(png_bytes())
    (folder / "e-cut.pdf").write_bytes(truncated_pdf(["A report cut short."]))
    (folder / "emails" / "page.html").write_text(
        html_page("The school district released a timeline of the shooting today.",
                  title="Timeline"), encoding="utf-8")
    (folder / "emails" / "statement.txt").write_text("The sheriff's office declined comment.",
                                                     encoding="utf-8")
    (folder / ".hidden.txt").write_text("never imported", encoding="utf-8")
    return folder


def _documents(ws) -> list[str]:
    with ws.transaction() as s:
        return sorted(d.filename for d in s.query(Document).filter(Document.parent_id.is_(None)))


def test_import_folder_from_the_menu_shows_the_summary(
        make_window, ui_workspace, qtbot, tmp_path, monkeypatch):
    cid = make_case(ui_workspace)
    folder = _mixed_folder(tmp_path)
    window = make_window(cid)
    asked = []
    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        lambda *a, **k: asked.append(a) or str(folder))
    action = window.folder_import.action
    assert action.isEnabled() and action.text() == "Import &folder…"
    file_menu = window.menuBar().actions()[0].menu()
    assert action in file_menu.actions()
    action.trigger()
    # the same question as Import documents…, for the 4 new readable files (the copy, the
    # photo and the cut PDF are not counted)
    qtbot.waitUntil(lambda: window.imports.date_dialog is not None, timeout=20000)
    dialog = window.imports.date_dialog
    assert dialog.all_box.text() == "Use this date for all 4 files without one"
    dialog.set_published(date(2018, 2, 23))
    with qtbot.waitSignal(window.folder_import.finished, timeout=30000) as blocker:
        dialog.accept()
    result = blocker.args[0]
    assert len(asked) == 1
    summary = window.folder_import.summary
    assert summary is not None and summary.isVisible()
    n_imported, n_there, n_failed = (result.count(k) for k in
                                     ("imported", "already there", "failed"))
    assert n_imported + n_there + n_failed == 7 == result.total
    assert (n_imported, n_there, n_failed) == (4, 1, 2)
    text = summary.counts_label.text()
    assert "4 imported, 1 already there, 2 failed" in text
    rows = dict(summary.failure_rows())
    assert set(rows) == {"d-photo.png", "e-cut.pdf"}
    assert "truncated" in rows["e-cut.pdf"]
    assert rows["d-photo.png"]  # a reason is given for each failure
    assert _documents(ui_workspace) == ["a-note.txt", "c-report.pdf", "page.html",
                                        "statement.txt"]
    # the views refreshed: the navigator counts the new documents
    nav = window.picker.navigator
    labels = [nav.item(i).text() for i in range(nav.count())]
    assert "Documents (4)" in labels
    summary.buttons.button(summary.buttons.StandardButton.Ok).click()
    assert window.folder_import.summary is None

    # again: everything is already there, so nothing to ask
    with qtbot.waitSignal(window.folder_import.finished, timeout=30000) as blocker:
        action.trigger()
    assert window.imports.date_dialog is None
    again = blocker.args[0]
    assert (again.count("imported"), again.count("already there"), again.count("failed")) \
        == (0, 5, 2)


def test_dropping_a_folder_imports_it_with_a_summary(make_window, ui_workspace, qtbot, tmp_path):
    cid = make_case(ui_workspace)
    folder = _mixed_folder(tmp_path)
    window = make_window(cid)
    drop_files(window, folder)
    # the folder's 4 new readable files carry no date: one question for them
    qtbot.waitUntil(lambda: window.imports.date_dialog is not None, timeout=20000)
    dialog = window.imports.date_dialog
    assert dialog.all_box.isVisible() and dialog.for_all()
    assert "4 files carry no published date, starting with “a-note.txt”" in dialog.text.text()
    dialog.set_published(date(2018, 2, 23))
    with qtbot.waitSignal(window.folder_import.finished, timeout=30000):
        dialog.accept()
    summary = window.folder_import.summary
    assert "4 imported, 1 already there, 2 failed" in summary.counts_label.text()
    assert len(_documents(ui_workspace)) == 4


def test_cancelling_stops_between_files_and_keeps_the_files_done(
        make_window, ui_workspace, qtbot, tmp_path, monkeypatch):
    cid = make_case(ui_workspace)
    folder = tmp_path / "many"
    folder.mkdir()
    for n in range(6):
        (folder / f"note-{n}.txt").write_text(f"Note number {n} about the county.",
                                              encoding="utf-8")
    window = make_window(cid)
    reached, release = threading.Event(), threading.Event()
    real = batch_service.read_file

    def gated_read(path, *args, **kwargs):
        if path.name == "note-1.txt":  # hold the worker inside the second file
            reached.set()
            assert release.wait(20)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(batch_service, "read_file", gated_read)
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))
    answer_date_questions(monkeypatch)
    window.folder_import.prompt()
    qtbot.waitUntil(lambda: window.folder_import.last_job is not None, timeout=10000)
    job = window.folder_import.last_job
    dialog = job.dialog
    qtbot.waitUntil(reached.is_set, timeout=10000)
    # the progress dialog names the file being imported
    qtbot.waitUntil(lambda: "note-1.txt" in dialog.labelText(), timeout=5000)
    assert dialog.labelText() == "Importing note-1.txt\n(2 of 6)"
    assert dialog.maximum() == 6 and dialog.value() == 1
    try:  # the reporter presses Cancel while note-1 is being imported
        dialog.findChild(QPushButton).click()
        assert "files already imported stay" in dialog.labelText()
    finally:
        release.set()
    qtbot.waitUntil(lambda: job.done, timeout=30000)
    assert job.outcome == "cancelled"
    summary = window.folder_import.summary
    assert summary is not None and "cancelled" in summary.counts_label.text()
    assert "2 imported, 0 already there, 0 failed; 4 not imported" in \
        summary.counts_label.text()
    assert _documents(ui_workspace) == ["note-0.txt", "note-1.txt"]
    assert not window.messages  # no error box for a cancel
