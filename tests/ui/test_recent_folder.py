"""File dialogs open where the reporter last chose a file: after a brief is saved in the
story's folder, the import and spreadsheet dialogs open there (they all opened in the home
folder before)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QDialog, QFileDialog

from tests.ui.helpers import make_case


def test_the_folder_of_the_last_save_is_where_the_next_dialogs_open(
        make_window, ui_workspace, qtbot, tmp_path: Path, monkeypatch):
    window = make_window(make_case(ui_workspace))
    story = tmp_path / "story"
    story.mkdir()
    opened: list[str] = []

    def save(_parent, _title, suggested, *_a, **_k):
        opened.append(str(Path(suggested).parent))
        return str(story / "brief.pdf"), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save)
    window.export_action.trigger()
    job = window.last_job
    qtbot.waitUntil(lambda: job.done, timeout=30000)
    assert job.outcome == "succeeded" and (story / "brief.pdf").exists()
    assert opened[0] == str(Path.home())  # the first dialog: the home folder

    def pick(_parent, _title, folder, *_a, **_k):
        opened.append(folder)
        return [], ""

    monkeypatch.setattr(QFileDialog, "getOpenFileNames", pick)
    window.import_action.trigger()
    seen: list[str] = []

    def accept(dialog: QFileDialog) -> int:
        seen.append(dialog.directory().absolutePath())
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(QFileDialog, "exec", accept)
    window.export_xlsx_action.trigger()
    assert opened[1] == str(story) and seen == [str(story)]
