"""The window's ways back: a name rejected before the undo history was cleared (by
opening another case) is suggested again from the Suggestions panel's "Rejected names…"
dialog, undoably; a document whose suggestion run failed gets its suggestions with "Suggest
again" (the document tab's context menu, or the panel's button)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QDockWidget

from casefile.services.suggestions import pending_suggestions
from casefile.ui.operations import Job
from casefile.ui.preferences import MODEL_SETTING, set_suggestion_model
from casefile.ui.suggestions import RejectedNamesDialog
from tests.ui.helpers import answer_date_questions, import_story, make_case
from tests.ui.test_suggestions_panel import STORY, open_panel, rows, suggested_case


def listed(dialog: RejectedNamesDialog) -> list[tuple[str, str, str]]:
    """(kind, name, cases) of every row of the dialog, as shown."""
    tree = dialog.tree
    return [(tree.topLevelItem(n).text(0), tree.topLevelItem(n).text(1),
             tree.topLevelItem(n).text(2)) for n in range(tree.topLevelItemCount())
            if not tree.isHidden()]


def test_a_reject_from_an_earlier_case_switch_is_suggested_again_and_undone(
        make_window, ui_workspace, qtbot) -> None:
    case_a, _doc = suggested_case(ui_workspace)
    case_b = make_case(ui_workspace, "Other story")
    window = make_window(case_a)
    panel = open_panel(window)
    assert panel.select("person", "Nadia Ferreira")
    panel.reject_button.click()
    assert ("person", "Nadia Ferreira") not in rows(panel)
    window.open_case(case_b)  # the undo history goes with the case switch
    window.open_case(case_a)
    assert not window.undo_stack.canUndo()
    assert ("person", "Nadia Ferreira") not in rows(panel)

    panel.rejected_button.click()
    dialog = panel.dialog
    assert isinstance(dialog, RejectedNamesDialog) and dialog.isVisible()
    assert listed(dialog) == [("person", "Nadia Ferreira", "Harbor crash")]
    assert dialog.restore_button.isEnabled()
    dialog.restore_button.click()
    assert ("person", "Nadia Ferreira") in rows(panel)  # waits again, ready to decide
    assert listed(dialog) == [] and dialog.empty.isVisible()
    assert not dialog.restore_button.isEnabled()
    assert "suggested again" in window.statusBar().currentMessage()
    dock = window.findChild(QDockWidget, "suggestions_dock")
    assert dock.windowTitle() == f"Suggestions ({len(rows(panel))})"

    # Ctrl+Z rejects it again, everywhere; Ctrl+Shift+Z brings it back
    assert window.undo_stack.canUndo()
    window.undo_stack.undo()
    assert ("person", "Nadia Ferreira") not in rows(panel)
    assert listed(dialog) == [("person", "Nadia Ferreira", "Harbor crash")]
    window.undo_stack.redo()
    assert ("person", "Nadia Ferreira") in rows(panel)
    with ui_workspace.transaction() as s:
        assert "Nadia Ferreira" in {m.name for m in pending_suggestions(s, case_a, "person")}


def test_the_rejected_names_dialog_says_when_nothing_is_rejected(
        make_window, ui_workspace) -> None:
    case_a, _doc = suggested_case(ui_workspace)
    panel = open_panel(make_window(case_a))
    dialog = panel.prompt_rejected()
    assert listed(dialog) == [] and dialog.empty.isVisible()
    assert not dialog.restore_button.isEnabled()
    assert dialog.restore_selected() is False


def wait_for_job(window, qtbot, start) -> Job:
    jobs: list[Job] = []
    window.runner.job_started.connect(jobs.append)
    start()
    qtbot.waitUntil(lambda: bool(jobs) and jobs[-1].done, timeout=90000)
    return jobs[-1]


def test_suggest_again_after_a_failed_run_finds_the_documents_names(
        make_window, ui_workspace, qtbot, monkeypatch, tmp_path: Path) -> None:
    cid = make_case(ui_workspace)
    window = make_window(cid, suggest_after_import=True)
    window.settings.setValue(MODEL_SETTING, "no_such_spacy_model")  # a bad model chosen
    job = import_story(window, qtbot, monkeypatch, tmp_path / "story.txt", STORY, 90000)
    assert job.outcome == "failed"
    for box in list(window.messages):
        box.done(0)
    [doc_id] = list(window.documents.viewers)
    panel = open_panel(window)
    assert rows(panel) == []

    set_suggestion_model(window.settings, None)  # the reporter fixes Preferences
    index = window.tabs.indexOf(window.documents.viewers[doc_id])
    assert window.suggestions.tab_menu_for(window.tabs.indexOf(window.items.page)) is None
    menu = window.suggestions.tab_menu_for(index)
    assert menu is not None
    [again] = [a for a in menu.actions() if a.text().replace("&", "") == "Suggest again"]
    job = wait_for_job(window, qtbot, again.trigger)
    assert job.outcome == "succeeded"
    found = rows(panel)
    assert ("person", "Nadia Ferreira") in found
    with ui_workspace.transaction() as s:
        assert {m.document_id for m in pending_suggestions(s, cid)} == {doc_id}

    # the panel's button runs it on the document shown; nothing is suggested twice
    window.tabs.setCurrentIndex(index)
    job = wait_for_job(window, qtbot, panel.suggest_again_button.click)
    assert job.outcome == "succeeded"
    assert sorted(rows(panel)) == sorted(found)

    # with no document shown there is nothing to run on: the status bar says so
    window.tabs.setCurrentWidget(window.items.page)
    assert window.suggestions.suggest_again() is None
    assert "open it in its tab" in window.statusBar().currentMessage()


def test_documents_a_suggestion_run_never_reached_are_named_and_read_from_the_case_menu(
        make_window, ui_workspace, qtbot, monkeypatch, tmp_path: Path) -> None:
    """A run cancelled, cut off by the window's end, or an import with suggestions off,
    leaves documents no run read: opening the case says how many, and Case ▸ Suggest for
    documents never read reads them; the sample case and attachments are never counted."""
    from casefile.services import demo

    cid = make_case(ui_workspace)
    window = make_window(cid)  # suggestions after import off: as if the run never came
    answer_date_questions(monkeypatch)
    paths = []
    for n in range(2):
        paths.append(tmp_path / f"story-{n}.txt")
        paths[-1].write_text(f"{STORY} Report {n}.", encoding="utf-8")
    job = wait_for_job(window, qtbot, lambda: window.imports.import_files(paths))
    assert job.outcome == "succeeded"
    assert len(window.suggestions.waiting_in_case(cid)) == 2
    window.open_case(cid)
    assert ("2 documents never read for suggestions: Case ▸ Suggest for documents never read"
            in window.statusBar().currentMessage())
    [action] = [a for a in window.case_menu.actions if "never &read" in a.text()]
    job = wait_for_job(window, qtbot, action.trigger)
    assert job.outcome == "succeeded"
    assert ("person", "Nadia Ferreira") in rows(open_panel(window))
    assert window.suggestions.waiting_in_case(cid) == []
    action.trigger()
    assert ("Every document of this case has been read for suggestions."
            in window.statusBar().currentMessage())
    window.open_case(cid)
    assert "never read for suggestions" not in window.statusBar().currentMessage()

    with ui_workspace.transaction() as s:
        sample, _created = demo.build_demo(s)
    assert window.suggestions.waiting_in_case(sample) == []
