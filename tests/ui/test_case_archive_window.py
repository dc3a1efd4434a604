"""File ▸ Export case archive… and Import case archive… in the window: a sealed case written,
then read back as a new case that opens, with its items listed."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox

from casefile.services.demo import build_demo


def test_sealed_case_archive_out_and_back_in(make_window, ui_workspace, qtbot, tmp_path: Path,
                                             monkeypatch):
    with ui_workspace.transaction() as s:
        case_id, _ = build_demo(s)
    window = make_window(case_id)
    out = tmp_path / "moved.casefile"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(out), ""))
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.Yes)
    asked: list[bool] = []

    def ask(label: str, *, confirm: bool) -> str:
        asked.append(confirm)
        return "a passphrase for the test"

    monkeypatch.setattr(window.archives, "ask_passphrase", ask)
    window.export_archive_action.trigger()
    qtbot.waitUntil(lambda: window.last_job is not None and window.last_job.done, timeout=15000)
    assert window.last_job.outcome == "succeeded" and out.read_bytes()[:8] == b"CASEFILE"

    window.import_archive_action.trigger()
    qtbot.waitUntil(lambda: window.archives.last_import is not None, timeout=15000)
    imported = window.archives.last_import
    assert asked == [True, False]
    assert window.case_id == imported.case_id != case_id
    assert window.case_title().endswith("(imported)")
    people = [window.navigator.item(i).text() for i in range(window.navigator.count())]
    assert any(t.startswith("People (") and not t.endswith("(0)") for t in people)
