"""An import in the window is one undo step: Ctrl+Z takes the documents it stored out again
(with the email's attachment), Ctrl+Shift+Z brings them back under the same ids."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from casefile.store import Document
from casefile.ui.date_question import PublishedDateDialog
from tests.ui.helpers import make_case


def _documents(ws) -> list[tuple[int, str]]:
    with ws.transaction() as s:
        return sorted((d.id, d.title) for d in s.query(Document).all())


def test_an_import_is_undone_and_redone_as_one_step(make_window, ui_workspace, qtbot,
                                                    tmp_path: Path, monkeypatch):
    cid = make_case(ui_workspace)
    window = make_window(cid)
    note = tmp_path / "harbor-note.txt"
    note.write_text("The harbor master closed the north pier on Monday.\n", encoding="utf-8")
    mail = EmailMessage()
    mail["Subject"], mail["From"], mail["To"] = "Pier memo", "a@example.org", "b@example.org"
    mail["Date"] = "Mon, 2 Mar 2026 09:00:00 +0000"
    mail.set_content("The memo is attached.")
    mail.add_attachment(b"Inspection notes: the pier is unsafe.\n", maintype="text",
                        subtype="plain", filename="inspection.txt")
    message = tmp_path / "memo.eml"
    message.write_bytes(mail.as_bytes())
    monkeypatch.setattr(QFileDialog, "getOpenFileNames",
                        lambda *a, **k: ([str(note), str(message)], ""))
    monkeypatch.setattr(PublishedDateDialog, "open", lambda self: self.accept())
    window.import_action.trigger()
    qtbot.waitUntil(lambda: window.last_job is not None and window.last_job.done, timeout=30000)
    qtbot.waitUntil(lambda: window.undo_stack.count() == 1, timeout=5000)
    imported = _documents(ui_workspace)
    assert len(imported) == 3  # the note, the email and its attachment
    assert window.undo_stack.undoText() == "Import 2 documents"

    window.undo_stack.undo()
    assert _documents(ui_workspace) == []
    assert window.statusBar().currentMessage() == (
        "Undid import 2 documents: 3 documents taken out.")
    qtbot.waitUntil(lambda: window.picker.navigator.item(3).text() == "Documents (0)", timeout=5000)
    window.undo_stack.redo()
    assert _documents(ui_workspace) == imported  # the same ids, titles and all
    assert window.statusBar().currentMessage() == "Redid import 2 documents: 3 documents back."
    assert window.undo_stack.undoText() == "Import 2 documents"
    qtbot.waitUntil(lambda: window.picker.navigator.item(3).text() == "Documents (3)", timeout=5000)


def test_a_folder_import_is_undone_as_one_step(make_window, ui_workspace, qtbot,
                                               tmp_path: Path, monkeypatch):
    cid = make_case(ui_workspace)
    window = make_window(cid)
    folder = tmp_path / "inbox"
    folder.mkdir()
    for i in range(4):
        (folder / f"note-{i}.txt").write_text(f"Harbor note {i}: the pier.\n", encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))
    monkeypatch.setattr(PublishedDateDialog, "open", lambda self: self.accept())
    job = window.folder_import.prompt()
    qtbot.waitUntil(lambda: job.done, timeout=30000)
    qtbot.waitUntil(lambda: window.undo_stack.count() == 1, timeout=5000)
    assert window.undo_stack.undoText() == "Import 4 documents"
    window.undo_stack.undo()
    assert _documents(ui_workspace) == []
