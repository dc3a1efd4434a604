"""Helpers shared by the GUI tests: building small cases through the services."""

from __future__ import annotations

from pathlib import Path

from casefile.ingest import ingest_bytes
from casefile.services import cases, documents


def make_case(ws, title: str = "Parkland") -> int:
    """Create a case; returns its id."""
    with ws.transaction() as s:
        return cases.create_case(s, title).id


def add_text_document(ws, case_id: int, text: str, name: str = "note.txt", *,
                      outlet: str | None = None, **kw) -> int:
    """Store ``text`` as a document of the case (as an import would); returns its id."""
    raw = text.encode("utf-8")
    ingested = ingest_bytes(raw, name)
    ingested.outlet = outlet
    with ws.transaction() as s:
        return documents.store_document(s, case_id, raw, ingested, **kw).document_id


def drop_files(window, *paths: Path) -> None:
    """Drop ``paths`` (files or folders) on the window, as from a file manager."""
    from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
    from PySide6.QtGui import QDropEvent

    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    event = QDropEvent(QPointF(300, 300), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    window.dropEvent(event)


def window_editing(make_window, case_id: int, item_id: int, kind: str,
                   size: tuple[int, int] | None = None):
    """A window on the case (resized to ``size`` px if given) with the item selected in the
    editor, laid out; the window."""
    from PySide6.QtWidgets import QApplication

    window = make_window(case_id)
    if size is not None:
        window.resize(*size)
    assert window.select_item(item_id, kind)
    QApplication.processEvents()
    return window


def answer_date_questions(monkeypatch) -> None:
    """Answer each import's "when was it published?" question at once with the date it
    offers (for tests about something else than dates)."""
    from casefile.ui.date_question import PublishedDateDialog

    monkeypatch.setattr(PublishedDateDialog, "open", lambda self: self.accept())


def import_story(window, qtbot, monkeypatch, path, story: str, timeout: int = 60000):
    """Write ``story`` to ``path`` and import it as File ▸ Import does (its date question
    answered), with suggestions after; returns the suggestion job, finished."""
    answer_date_questions(monkeypatch)
    path.write_text(story, encoding="utf-8")
    jobs: list = []
    window.runner.job_started.connect(jobs.append)
    window.imports.import_files([path])
    qtbot.waitUntil(lambda: len(jobs) == 2 and jobs[1].done, timeout=timeout)
    return jobs[1]


def import_through_window(window, qtbot, monkeypatch, path):
    """Import ``path`` with File ▸ Import documents… (the file dialog answered with it, the
    date question with the date offered); returns the import job, finished."""
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(path)], ""))
    answer_date_questions(monkeypatch)
    window.import_action.trigger()
    job = window.last_job
    qtbot.waitUntil(lambda: job.done, timeout=30000)
    return job


def set_followup_status(window, row: int, was: str, status: str) -> None:
    """Change the status of the Follow-ups table's ``row`` in place, as a reporter does: its
    status cell's combo box opened (it must show ``was``), ``status`` chosen, the edit closed."""
    from PySide6.QtWidgets import QComboBox

    table = window.followups_view.table
    index = window.followups_model.index(row, 4)
    table.setCurrentIndex(index)
    table.edit(index)
    editor = table.viewport().findChild(QComboBox)
    assert editor is not None and editor.currentText() == was
    editor.setCurrentText(status)
    table.commitData(editor)
    table.closeEditor(editor, table.itemDelegateForColumn(4).EndEditHint.NoHint)
