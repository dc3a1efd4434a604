"""The window as a shell: the operation runner's per-call failure handling, and the
controllers reached through the window's public interface."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QDialog

from casefile.errors import ValidationError
from casefile.services import cases
from tests.ui.helpers import make_case


def _refuse(_session):
    raise ValidationError("a case needs a title")


def test_on_failed_gets_the_message_and_no_box_opens(make_window, ui_workspace, qtbot):
    window = make_window(make_case(ui_workspace))
    said: list[str] = []
    with qtbot.assertNotEmitted(window.runner.operation_failed):
        out = window.runner.run(_refuse, change=None, on_failed=said.append)
    assert not out.ok and said == ["a case needs a title"]
    assert not window.messages


def test_the_error_box_is_parented_to_the_widget_that_started_the_call(make_window,
                                                                      ui_workspace, qtbot):
    window = make_window(make_case(ui_workspace))
    dialog = QDialog(window)
    dialog.show()
    with qtbot.waitSignal(window.runner.operation_failed):
        window.runner.apply(lambda s: cases.create_case(s, ""), parent=dialog)
    assert [box.parent() for box in window.messages] == [dialog]
    assert window.messages[0].text() == "a case needs a title"
    assert window.runner.failure_parent is None  # only while the failure is announced
    window.runner.run(_refuse, change=None)  # no parent: the window's own box
    assert window.messages[1].parent() is window


def test_a_background_job_failure_goes_to_its_callback(make_window, ui_workspace, qtbot):
    window = make_window(make_case(ui_workspace))
    said: list[str] = []
    with qtbot.waitSignal(window.runner.job_finished, timeout=5000) as finished:
        window.runner.start(lambda s, job: _refuse(s), label="refused", change=None,
                            progress=False, on_failed=said.append)
    assert finished.args[0].outcome == "failed" and said == ["a case needs a title"]
    assert not window.messages


# -- New case, the brief's "open it" offer, suggestions after an import ------------------------


def test_new_case_asks_for_a_title_and_a_summary(make_window, ui_workspace, qtbot,
                                                 monkeypatch):
    from casefile.store import Case
    from casefile.ui.dialogs import NewCaseDialog
    from tests.ui.new_case import answer_new_case

    window = make_window()
    dialog = NewCaseDialog(window)
    qtbot.addWidget(dialog)
    assert not dialog.ok_button.isEnabled()  # no title yet
    qtbot.keyClicks(dialog.title_edit, "   ")
    assert not dialog.ok_button.isEnabled()  # blanks are no title
    dialog.title_edit.clear()
    qtbot.keyClicks(dialog.title_edit, "Harbor contracts")
    assert dialog.ok_button.isEnabled()
    qtbot.keyClicks(dialog.summary_edit, "Who won the dredging contracts, and why.")
    assert dialog.summary() == "Who won the dredging contracts, and why."

    shown = answer_new_case(monkeypatch, "Harbor contracts",
                            "Who won the dredging contracts, and why.")
    window.new_case_action.trigger()
    assert len(shown) == 1 and window.picker.case_box.currentText() == "Harbor contracts"
    with ui_workspace.transaction() as s:
        assert s.get(Case, window.case_id).summary == "Who won the dredging contracts, and why."


def test_a_cancelled_or_blank_new_case_creates_nothing(make_window, ui_workspace, monkeypatch):
    from tests.ui.new_case import answer_new_case

    window = make_window()
    shown = answer_new_case(monkeypatch, "  ", "a summary without a title")
    window.new_case_action.trigger()
    assert len(shown) == 1 and window.case_id is None and window.picker.case_box.count() == 0


def test_after_the_brief_is_written_it_offers_to_open_it_or_its_folder(
        make_window, ui_workspace, qtbot, monkeypatch, tmp_path):
    from PySide6.QtGui import QDesktopServices

    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    window = make_window(make_case(ui_workspace, "Harbor contracts"))
    out = tmp_path / "out" / "brief.pdf"
    out.parent.mkdir()
    with qtbot.waitSignal(window.runner.job_finished, timeout=60000):
        window.exports.export_brief(out)
    box = window.exports.written_box
    assert box is not None and box.isVisible() and not box.isModal()
    assert str(out) in box.text()
    assert {b.text().replace("&", "") for b in box.buttons()} == {"Open brief", "Show folder",
                                                                   "Close"}
    box.open_button.click()
    assert [u.toLocalFile() for u in opened] == [str(out)]
    assert window.exports.written_box is None  # closed
    window.exports.offer_to_open(out).folder_button.click()
    assert [u.toLocalFile() for u in opened][1] == str(out.parent)
    window.exports.offer_to_open(out).close_button.click()
    assert len(opened) == 2


def test_after_an_import_with_suggestions_the_suggestions_dock_comes_forward(
        make_window, ui_workspace, qtbot, monkeypatch, tmp_path):
    import casefile.services.suggestions as suggestions
    from casefile.ui.docks import in_front

    original = suggestions.suggest_for_document
    monkeypatch.setattr(suggestions, "suggest_for_document",
                        lambda session, document_id, mode="auto", **_kw:
                        original(session, document_id, mode="rules"))
    window = make_window(make_case(ui_workspace), suggest_after_import=True)
    dock = window.docks["suggestions_dock"]
    assert not in_front(dock)
    path = tmp_path / "story.txt"
    path.write_text("Mayor Nadia Ferreira of Port Alden met Tomas Reyes of the Harbor "
                    "Authority on 3 March 2024.", encoding="utf-8")
    jobs = []
    window.runner.job_started.connect(jobs.append)
    window.imports.import_files([path], published=None)
    qtbot.waitUntil(lambda: len(jobs) == 2 and jobs[1].done, timeout=60000)
    waiting = window.suggestions_panel.listing.total
    assert waiting > 0
    assert in_front(dock)
    assert dock.windowTitle() == f"Suggestions ({waiting})"
    assert window.statusBar().currentMessage().startswith(f"{waiting} suggestion")


def test_the_brief_is_offered_under_a_file_name_every_system_accepts(make_window, ui_workspace,
                                                                      monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    with ui_workspace.transaction() as s:
        cid = cases.create_case(s, "Parkland: deputies / report?").id
    window = make_window(cid)
    offered = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda _w, _t, name, _f: (offered.append(name), ("", ""))[1])
    window.export_action.trigger()
    assert Path(offered[0]).name == "Parkland- deputies - report-.pdf"
