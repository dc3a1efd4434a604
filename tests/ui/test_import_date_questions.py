"""The published-date question of an import of several files or a folder, as a reporter meets
it: one question for the files that need it (new, importable, no date of their own), one per
file in turn when "Use this date for all N files without one" is unticked, and File ▸ Import
folder… asking it too."""

from __future__ import annotations

import os
from datetime import date, datetime
from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from casefile.services import batch
from casefile.store import Document
from tests.e2e.make_files import write_encrypted_pdf
from tests.ui.helpers import make_case

BODY = "The county commission met to discuss the harbor audit.\n"


def _note(folder: Path, name: str, modified: date) -> Path:
    path = folder / name
    path.write_text(f"{name}: a note without a date. " + BODY, encoding="utf-8")
    stamp = datetime(modified.year, modified.month, modified.day, 12, 0).timestamp()
    os.utime(path, (stamp, stamp))
    return path


def _published(ws) -> dict[str, tuple[date | None, list[str]]]:
    with ws.transaction() as s:
        return {d.filename: (d.published, list(d.import_notes or []))
                for d in s.query(Document).filter(Document.parent_id.is_(None))}


def _import_documents(window, monkeypatch, paths: list[Path]) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileNames",
                        lambda *a, **k: ([str(p) for p in paths], ""))
    window.import_action.trigger()


def _next_question(qtbot, window, previous=None):
    def asked() -> bool:
        dialog = window.imports.date_dialog
        return dialog is not None and dialog is not previous and dialog.isVisible()

    qtbot.waitUntil(asked, timeout=20000)
    return window.imports.date_dialog


def test_unticked_box_asks_for_each_file_in_turn(make_window, ui_workspace, qtbot, tmp_path,
                                                  monkeypatch):
    cid = make_case(ui_workspace)
    days = [date(2017, 5, 1), date(2017, 6, 2), date(2017, 7, 3)]
    paths = [_note(tmp_path, f"note-{n}.txt", d) for n, d in enumerate(days)]
    window = make_window(cid)
    _import_documents(window, monkeypatch, paths)
    first = _next_question(qtbot, window)
    assert first.all_box.isVisible() and first.all_box.isChecked()
    assert first.date_edit.text() == "2017-05-01"  # the first file's modification date
    assert not first.each_hint.isVisible()
    first.all_box.setChecked(False)
    assert first.each_hint.isVisible()
    assert first.each_hint.text() == ("This date is for “note-0.txt”; the other 2 files are "
                                      "asked one by one next.")
    first.set_published(date(2018, 1, 10))
    first.accept()
    second = _next_question(qtbot, window, first)
    assert "File 2 of 3: “note-1.txt” carries no published date" in second.text.text()
    assert not second.all_box.isVisible()
    assert second.date_edit.text() == "2017-06-02"  # this file's own modification date
    second.accept()  # the suggestion taken as it is
    third = _next_question(qtbot, window, second)
    assert "File 3 of 3: “note-2.txt”" in third.text.text()
    assert third.date_edit.text() == "2017-07-03"
    with qtbot.waitSignal(window.folder_import.finished, timeout=30000):
        third.no_date_button.click()
    dated = _published(ui_workspace)
    assert dated["note-0.txt"][0] == date(2018, 1, 10)
    assert dated["note-1.txt"][0] == date(2017, 6, 2)
    assert ("Published date given at import (the file carries none): 2017-06-02"
            in dated["note-1.txt"][1])
    assert dated["note-2.txt"][0] is None


def test_cancel_on_a_later_question_imports_nothing(make_window, ui_workspace, qtbot, tmp_path,
                                                    monkeypatch):
    cid = make_case(ui_workspace)
    paths = [_note(tmp_path, f"note-{n}.txt", date(2017, 5, 1 + n)) for n in range(3)]
    window = make_window(cid)
    _import_documents(window, monkeypatch, paths)
    first = _next_question(qtbot, window)
    first.all_box.setChecked(False)
    first.accept()
    second = _next_question(qtbot, window, first)
    second.reject()
    qtbot.waitUntil(lambda: window.imports.date_dialog is None)
    qtbot.wait(200)
    assert window.imports.date_dialog is None  # no third question
    assert window.folder_import.last_job is None  # the import never started
    assert _published(ui_workspace) == {}


def test_import_folder_asks_the_date_question(make_window, ui_workspace, qtbot, tmp_path,
                                              monkeypatch):
    cid = make_case(ui_workspace)
    folder = tmp_path / "notes"
    folder.mkdir()
    for n in range(5):
        _note(folder, f"note-{n}.txt", date(2017, 5, 1))
    (folder / "dated.txt").write_text("Published February 23, 2018\n\n" + BODY,
                                      encoding="utf-8")
    window = make_window(cid)
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))
    window.folder_import.action.trigger()
    dialog = _next_question(qtbot, window)
    assert dialog.all_box.text() == "Use this date for all 5 files without one"
    dialog.set_published(date(2018, 3, 1))
    with qtbot.waitSignal(window.folder_import.finished, timeout=30000):
        dialog.accept()
    dated = _published(ui_workspace)
    assert {n: d for n, (d, _notes) in dated.items()} == {
        **{f"note-{n}.txt": date(2018, 3, 1) for n in range(5)}, "dated.txt": date(2018, 2, 23)}
    assert not any("modification date" in note for _d, notes in dated.values()
                   for note in notes)




def test_the_question_counts_only_files_the_import_will_store(make_window, ui_workspace, qtbot,
                                                              tmp_path, monkeypatch):
    """The reporter's 7 files: 3 new notes, an empty file, a binary .txt, an encrypted PDF and
    a file already in the case: the question is about the 3 notes."""
    cid = make_case(ui_workspace)
    old = _note(tmp_path, "old.txt", date(2017, 1, 1))
    batch.import_paths(ui_workspace.transaction, cid, [old])
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(bytes(range(256)) * 8)
    sealed = tmp_path / "sealed.pdf"
    write_encrypted_pdf(sealed)
    notes = [_note(tmp_path, f"note-{n}.txt", date(2017, 5, 1)) for n in range(3)]
    window = make_window(cid)
    _import_documents(window, monkeypatch, [empty, binary, sealed, old, *notes])
    dialog = _next_question(qtbot, window)
    assert dialog.all_box.text() == "Use this date for all 3 files without one"
    assert "3 files carry no published date, starting with “note-0.txt”" in dialog.text.text()
    dialog.set_published(date(2018, 3, 1))
    with qtbot.waitSignal(window.folder_import.finished, timeout=30000) as done:
        dialog.accept()
    result = done.args[0]
    assert (result.count("imported"), result.count("already there"),
            result.count("failed")) == (3, 1, 3)


def test_the_progress_box_never_covers_the_date_question(make_window, ui_workspace, qtbot,
                                                         tmp_path, monkeypatch):
    """One quick undated file: the question comes within the progress box's show delay; the
    box must not pop up over the question later (it would block its buttons), and a click
    on OK imports the file."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication, QProgressDialog

    cid = make_case(ui_workspace)
    path = _note(tmp_path, "memo.txt", date(2017, 5, 1))
    window = make_window(cid)
    _import_documents(window, monkeypatch, [path])
    question = _next_question(qtbot, window)
    qtbot.wait(800)  # past the progress box's show delay
    boxes = [w for w in QApplication.topLevelWidgets()
             if isinstance(w, QProgressDialog) and w.isVisible()]
    assert boxes == []
    assert QApplication.activeModalWidget() is question
    qtbot.mouseClick(question.ok_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "memo.txt" in _published(ui_workspace), timeout=20000)
    assert _published(ui_workspace)["memo.txt"][0] == date(2017, 5, 1)
