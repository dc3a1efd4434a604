"""Edit ▸ Preferences… and the suggestion model: the reporter chooses an installed
spaCy pipeline (a package name or a folder), the window's next suggestion runs use it and the
Suggestions dock says which model made the suggestions; a model that cannot load is said in a
message box, never silently replaced by the rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

from casefile.extract import model_available
from casefile.services.suggestions import pending_suggestions
from casefile.ui.operations import Job
from casefile.ui.preferences import MODEL_SETTING, PreferencesDialog, suggestion_model
from tests.model_dir import MODEL_DIR
from tests.ui import helpers
from tests.ui.helpers import make_case

STORY = ("Harbor Police Chief Nadia Ferreira said Tuesday that Officer Tom Becker had been "
         "placed on leave. The Harbor Authority did not respond to questions.")
MISSING = "no_such_spacy_model"
needs_model = pytest.mark.skipif(not model_available() or MODEL_DIR is None,
                                 reason="no spaCy English model installed")


def answer_preferences(monkeypatch, qtbot, typed: str, shown: list[PreferencesDialog]) -> None:
    """Make the next Preferences dialogs type ``typed`` (ASCII) into the model field and press
    OK when it is enabled, as a reporter could (else Cancel)."""

    def exec_(dialog: PreferencesDialog) -> int:
        shown.append(dialog)
        dialog.show()
        dialog.model_edit.selectAll()
        qtbot.keyClick(dialog.model_edit, Qt.Key.Key_Delete)
        qtbot.keyClicks(dialog.model_edit, typed)
        if dialog.ok_button.isEnabled():
            dialog.ok_button.click()
        else:
            dialog.reject()
        return dialog.result()

    monkeypatch.setattr(PreferencesDialog, "exec", exec_)


def import_story(window, qtbot, monkeypatch, tmp_path: Path) -> Job:
    """Import :data:`STORY` as File ▸ Import does; returns the suggestion job, finished."""
    return helpers.import_story(window, qtbot, monkeypatch, tmp_path / "story.txt", STORY)


def test_preferences_refuse_a_model_that_is_not_installed_and_store_a_real_one(
        make_window, ui_workspace, qtbot, monkeypatch, tmp_path: Path) -> None:
    window = make_window(make_case(ui_workspace))
    shown: list[PreferencesDialog] = []
    answer_preferences(monkeypatch, qtbot, MISSING, shown)
    window.preferences.action.trigger()
    assert shown[-1].result() == QDialog.DialogCode.Rejected  # OK stayed disabled
    assert f"spaCy model '{MISSING}' is not installed" in shown[-1].problem.text()
    assert suggestion_model(window.settings) is None  # still the default
    folder = tmp_path / "pipeline"
    folder.mkdir()
    (folder / "config.cfg").write_text("[nlp]\nlang = \"en\"\n", encoding="utf-8")
    answer_preferences(monkeypatch, qtbot, str(folder), shown)
    window.preferences.action.trigger()
    assert shown[-1].result() == QDialog.DialogCode.Accepted
    assert suggestion_model(window.settings) == str(folder)
    assert window.settings.value(MODEL_SETTING) == str(folder)  # kept for the next session
    assert str(folder) in window.statusBar().currentMessage()
    answer_preferences(monkeypatch, qtbot, "", shown)  # a blank field: back to the default
    window.preferences.action.trigger()
    assert suggestion_model(window.settings) is None


def test_preferences_refuse_an_installed_package_that_is_no_spacy_pipeline(
        make_window, ui_workspace, qtbot, monkeypatch) -> None:
    """``spacy`` itself imports, but it is not a pipeline: refused at once, not at run time."""
    window = make_window(make_case(ui_workspace))
    shown: list[PreferencesDialog] = []
    answer_preferences(monkeypatch, qtbot, "spacy", shown)
    window.preferences.action.trigger()
    assert shown[-1].result() == QDialog.DialogCode.Rejected  # OK stayed disabled
    assert "'spacy'" in shown[-1].problem.text()
    assert "not a spaCy pipeline" in shown[-1].problem.text()
    assert suggestion_model(window.settings) is None


def test_a_chosen_model_that_cannot_load_is_said_not_replaced_by_rules(
        make_window, ui_workspace, qtbot, monkeypatch, tmp_path: Path) -> None:
    cid = make_case(ui_workspace)
    window = make_window(cid, suggest_after_import=True)
    window.settings.setValue(MODEL_SETTING, MISSING)  # e.g. uninstalled since it was chosen
    job = import_story(window, qtbot, monkeypatch, tmp_path)
    assert job.outcome == "failed"
    [box] = window.messages
    assert f"spaCy model '{MISSING}' is not installed or cannot be loaded" in box.text()
    assert "Preferences" in box.text()  # where to change it
    with ui_workspace.transaction() as s:
        assert pending_suggestions(s, cid) == []
    assert len(window.documents.viewers) == 1  # the document itself was imported


@needs_model
@pytest.mark.nlp
def test_the_dock_says_which_model_made_the_suggestions(
        make_window, ui_workspace, qtbot, monkeypatch, tmp_path: Path) -> None:
    from casefile.extract.model import model_in_use

    window = make_window(make_case(ui_workspace), suggest_after_import=True)
    shown: list[PreferencesDialog] = []
    answer_preferences(monkeypatch, qtbot, str(MODEL_DIR), shown)
    window.preferences.action.trigger()
    assert suggestion_model(window.settings) == str(MODEL_DIR)
    job = import_story(window, qtbot, monkeypatch, tmp_path)
    assert job.outcome == "succeeded"
    panel = window.suggestions_panel
    assert ("person", "Nadia Ferreira") in [(e.kind, e.name) for e in panel.waiting_entries()]
    described = model_in_use(str(MODEL_DIR))
    assert described.startswith("en_core_web_sm")
    assert f"Suggested by {described} and rules." in panel.status_label.text().splitlines()
