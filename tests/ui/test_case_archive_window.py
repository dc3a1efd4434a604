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
    nav = window.picker.navigator
    people = [nav.item(i).text() for i in range(nav.count())]
    assert any(t.startswith("People (") and not t.endswith("(0)") for t in people)


def _press(text: str):
    """A QMessageBox.exec that presses the button whose text starts with ``text``."""
    def exec_(box: QMessageBox) -> int:
        (button,) = [b for b in box.buttons() if b.text().replace("&", "").startswith(text)]
        pressed.append(box.text())
        button.click()
        return 0
    pressed: list[str] = []
    return exec_, pressed


def test_a_case_with_a_confidential_source_goes_out_only_sealed_and_with_it(
        make_window, ui_workspace, qtbot, tmp_path: Path, monkeypatch):
    from casefile.services import cases, items

    with ui_workspace.transaction() as s:
        case_id = int(cases.create_case(s, "Pier inquiry").id)
        items.create_item(s, case_id, "person", "Dock whistleblower", confidential=True)
    window = make_window(case_id)
    out = tmp_path / "pier.casefile"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    monkeypatch.setattr(window.archives, "ask_passphrase",
                        lambda label, *, confirm: "a passphrase for the test")

    declined, seen = _press("Cancel")
    monkeypatch.setattr(QMessageBox, "exec", declined)
    assert window.archives.prompt_export() is None
    assert "Dock whistleblower" in seen[0] and not out.exists()  # named, nothing written

    accepted, _ = _press("Seal and include")
    monkeypatch.setattr(QMessageBox, "exec", accepted)
    job = window.archives.prompt_export()
    qtbot.waitUntil(lambda: job.done, timeout=15000)
    assert job.outcome == "succeeded", job.error
    assert out.read_bytes()[:8] == b"CASEFILE"
    from casefile.export.archive_file import is_sealed

    assert is_sealed(out)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(out), ""))
    window.import_archive_action.trigger()
    qtbot.waitUntil(lambda: window.archives.last_import is not None, timeout=15000)
    with ui_workspace.transaction() as s:
        person = items.find_item(s, window.archives.last_import.case_id, "Dock whistleblower",
                                 "person")
        assert person.confidential


def test_a_wrong_passphrase_asks_again_and_the_right_one_imports(
        make_window, ui_workspace, qtbot, tmp_path: Path, monkeypatch):
    from casefile.services import archive, cases, items

    with ui_workspace.transaction() as s:
        case_id = int(cases.create_case(s, "Pier inquiry").id)
        items.create_item(s, case_id, "person", "Harbor pilot")
        out = archive.export_archive(s, case_id, tmp_path / "pier.casefile",
                                     passphrase="the right one")
    window = make_window(case_id)
    answers = iter(["a wrong one", "the right one"])
    asked: list[str] = []

    def ask(label: str, *, confirm: bool) -> str:
        asked.append(label)
        return next(answers)

    monkeypatch.setattr(window.archives, "ask_passphrase", ask)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(out), ""))
    window.import_archive_action.trigger()
    qtbot.waitUntil(lambda: window.archives.last_import is not None, timeout=20000)
    assert len(asked) == 2 and "does not open pier.casefile" in asked[1]
    assert window.case_title() == "Pier inquiry (imported)"
