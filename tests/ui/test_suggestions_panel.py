"""The Suggestions panel as a reporter uses it: see what was found, accept, accept under another
name, merge into an existing item, reject; by mouse and by keyboard; suggestions after a GUI
import run in the background; the window opens without importing spaCy."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QDialogButtonBox, QDockWidget

from casefile.services import evidence, items
from casefile.services.suggestions import suggest_for_document
from casefile.store import Mention, Person
from casefile.ui.operations import Job
from casefile.ui.suggestions import MergeDialog, RenameDialog, SuggestionsPanel
from tests.ui.helpers import add_text_document, make_case

STORY = (
    "Harbor Police Chief Nadia Ferreira said Tuesday that the department's review of the crash "
    "is expected to be released within a week. Ferreira declined to say whether Officer Tom "
    "Becker had been disciplined. Becker, 41, did not respond to a request for comment. "
    "It is unclear whether the city will pay for the repairs. Sen. Maria Ortiz, D-Ore., called "
    "for an inquiry in Harbor."
)


def suggested_case(ws, text: str = STORY, name: str = "story.txt", title: str = "Harbor crash",
                   published: str = "2024-03-08") -> tuple[int, int]:
    """A case with one document whose suggestions are stored (rules mode); (case, document)."""
    cid = make_case(ws, title)
    doc_id = add_text_document(ws, cid, text, name, published=published)
    with ws.transaction() as s:
        suggest_for_document(s, doc_id, mode="rules")
    return cid, doc_id


def suggested_parkland(ws, article: Path) -> tuple[int, int]:
    """:func:`suggested_case` of the Parkland sample ``article`` (published 2018-02-23)."""
    return suggested_case(ws, article.read_text(encoding="utf-8"), article.name, "Parkland",
                          "2018-02-23")


def panel_on_suggested_case(make_window, ws) -> tuple[int, int, Any, SuggestionsPanel]:
    """A window on a new :func:`suggested_case`, its Suggestions panel in front; (case,
    document, window, panel)."""
    cid, doc_id = suggested_case(ws)
    window = make_window(cid)
    return cid, doc_id, window, open_panel(window)


def open_panel(window) -> SuggestionsPanel:
    """Bring the Suggestions dock to the front and return its panel."""
    dock = window.findChild(QDockWidget, "suggestions_dock")
    assert isinstance(dock, QDockWidget)
    dock.show()
    dock.raise_()
    panel = window.suggestions_panel
    assert isinstance(panel, SuggestionsPanel)
    return panel


def rows(panel: SuggestionsPanel) -> list[tuple[str, str]]:
    """(kind, name) of every row still waiting for a decision, in order."""
    return [(e.kind, e.name) for e in panel.waiting_entries()]


def all_rows(panel: SuggestionsPanel) -> list[tuple[str, str, str]]:
    """(kind, name, details column) of every row shown, decided ones included, in order."""
    out = []
    for index in panel.model.entry_indexes():
        entry = panel.model.entry(index)
        assert entry is not None
        out.append((entry.kind, entry.name, index.siblingAtColumn(2).data()))
    return out


def group_texts(panel: SuggestionsPanel) -> list[str]:
    return [panel.model.index(r, 0, QModelIndex()).data()
            for r in range(panel.model.rowCount())]


def click_row(qtbot, panel: SuggestionsPanel, kind: str, name: str) -> None:
    """Click the row of a suggestion as a user would."""
    for index in panel.model.entry_indexes():
        entry = panel.model.entry(index)
        if entry is not None and (entry.kind, entry.name) == (kind, name):
            panel.tree.scrollTo(index)
            rect = panel.tree.visualRect(index)
            qtbot.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton,
                             pos=rect.center())
            assert panel.current_entry() == entry
            return
    raise AssertionError(f"no row {kind} {name!r}")


def accept_row(qtbot, window, panel: SuggestionsPanel, kind: str, name: str) -> None:
    """Click the row of a suggestion, then Accept, and wait for the change to land."""
    click_row(qtbot, panel, kind, name)
    with qtbot.waitSignal(window.runner.case_changed):
        qtbot.mouseClick(panel.accept_button, Qt.MouseButton.LeftButton)


def test_panel_lists_suggestions_by_kind_with_counts_and_context(
        make_window, ui_workspace, qtmodeltester):
    cid, _doc, window, panel = panel_on_suggested_case(make_window, ui_workspace)
    qtmodeltester.check(panel.model)
    assert group_texts(panel) == ["People (3)", "Organizations (1)", "Places (1)", "Events (1)",
                                  "Follow-ups (3)", "Claims (1)"]
    assert [n for k, n in rows(panel) if k == "person"] == [
        "Nadia Ferreira", "Tom Becker", "Maria Ortiz"]
    dock = window.findChild(QDockWidget, "suggestions_dock")
    assert dock.windowTitle() == "Suggestions (10)"
    assert panel.status_label.text().startswith("10 suggestions waiting: 3 people, ")
    assert "rules only" in panel.status_label.text()  # the mode is said
    first = panel.model.entry_indexes()[0]
    assert first.siblingAtColumn(1).data() == "2"  # mentions
    assert first.siblingAtColumn(2).data() == "Police Chief · Harbor Police Department"
    assert first.siblingAtColumn(3).data().startswith("Harbor Police Chief Nadia Ferreira said")
    current = panel.current_entry()
    assert current is not None and current.name == "Nadia Ferreira"
    assert "<b>Nadia Ferreira</b>" in panel.context_label.text()
    assert "2 mentions" in panel.context_label.text()


def test_accept_through_the_panel_makes_the_person_with_evidence(
        make_window, ui_workspace, qtbot):
    cid, doc_id, window, panel = panel_on_suggested_case(make_window, ui_workspace)
    accept_row(qtbot, window, panel, "person", "Tom Becker")
    assert ("person", "Tom Becker") not in rows(panel)
    current = panel.current_entry()
    assert current is not None
    assert current.name == "Maria Ortiz"  # the next one, ready for a decision
    assert window.picker.navigator.item(0).text() == "People (1)"  # the window refreshed too
    # the status line names everything the accept made: the person and his organization
    assert window.statusBar().currentMessage() == (
        "Added person “Tom Becker” and organization “Harbor Police Department” "
        "(3 mentions as evidence).")
    with ui_workspace.transaction() as s:
        person = items.find_item(s, cid, "Tom Becker", "person")
        assert isinstance(person, Person) and person.role == "Officer"
        assert [(r.relation, r.quote, r.document_id) for r in evidence.evidence_for(s, person.id)
                ] == [("mentions", "Tom Becker", doc_id), ("mentions", "Becker", doc_id)]

    # keyboard: A accepts the selected suggestion
    panel.tree.setFocus()
    click_row(qtbot, panel, "person", "Nadia Ferreira")
    with qtbot.waitSignal(window.runner.case_changed):
        qtbot.keyClick(panel.tree, Qt.Key.Key_A)
    assert ("person", "Nadia Ferreira") not in rows(panel)
    # her affiliation's organization suggestion was taken over by the new organization
    assert [k for k, _n in rows(panel)].count("organization") == 0
    window.items.show_section("organization")
    assert window.items.proxy.rowCount() == 1


def test_accept_as_another_name_with_the_keyboard(make_window, ui_workspace, qtbot):
    cid, _doc, window, panel = panel_on_suggested_case(make_window, ui_workspace)
    click_row(qtbot, panel, "person", "Tom Becker")
    panel.tree.setFocus()
    qtbot.keyClick(panel.tree, Qt.Key.Key_R)
    dialog = panel.dialog
    assert isinstance(dialog, RenameDialog)
    assert dialog.name_edit.text() == "Tom Becker"
    dialog.name_edit.clear()
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert not ok.isEnabled()  # an empty name is not offered
    qtbot.keyClicks(dialog.name_edit, "Thomas Becker")
    with qtbot.waitSignal(window.runner.case_changed):
        qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    assert ("person", "Tom Becker") not in rows(panel)
    with ui_workspace.transaction() as s:
        person = items.find_item(s, cid, "Thomas Becker", "person")
        assert len(evidence.evidence_for(s, person.id)) == 2


def test_merge_into_an_existing_person_through_the_dialog(make_window, ui_workspace, qtbot):
    cid, doc_id = suggested_case(ui_workspace)
    with ui_workspace.transaction() as s:
        target_id = items.create_item(s, cid, "person", "Thomas J. Becker").id
        items.create_item(s, cid, "organization", "Thomas Becker Foundation")
    window = make_window(cid)
    panel = open_panel(window)
    click_row(qtbot, panel, "person", "Tom Becker")
    qtbot.mouseClick(panel.merge_button, Qt.MouseButton.LeftButton)
    dialog = panel.dialog
    assert isinstance(dialog, MergeDialog)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    # only people are offered
    offered = dialog.completer.model().stringList()  # type: ignore[attr-defined]
    assert offered == ["Thomas J. Becker"]
    qtbot.keyClicks(dialog.item_edit, "Thomas Becker Foundation")
    assert not ok.isEnabled()
    dialog.item_edit.clear()
    qtbot.keyClicks(dialog.item_edit, "thomas j. becker")
    popup = dialog.completer.popup()
    if popup is not None:
        popup.hide()
    assert ok.isEnabled()
    with qtbot.waitSignal(window.runner.case_changed):
        qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    assert ("person", "Tom Becker") not in rows(panel)
    with ui_workspace.transaction() as s:
        person = s.get(Person, target_id)
        assert person is not None and person.aliases == ["Tom Becker"]
        assert [(r.quote, r.document_id) for r in evidence.evidence_for(s, target_id)] == [
            ("Tom Becker", doc_id), ("Becker", doc_id)]
        assert len(items.list_items(s, cid, "person")) == 1
    assert window.statusBar().currentMessage().startswith(
        "Merged “Tom Becker” into person “Thomas J. Becker”, “Tom Becker” added as an alias")


def test_reject_and_the_name_stays_away_after_the_next_import(make_window, ui_workspace, qtbot):
    cid, _doc, window, panel = panel_on_suggested_case(make_window, ui_workspace)
    click_row(qtbot, panel, "person", "Maria Ortiz")
    with qtbot.waitSignal(window.runner.case_changed):
        qtbot.mouseClick(panel.reject_button, Qt.MouseButton.LeftButton)
    click_row(qtbot, panel, "place", "Harbor")
    panel.tree.setFocus()
    with qtbot.waitSignal(window.runner.case_changed):
        qtbot.keyClick(panel.tree, Qt.Key.Key_X)
    assert ("person", "Maria Ortiz") not in rows(panel)
    assert ("place", "Harbor") not in rows(panel)
    with ui_workspace.transaction() as s:
        assert set(s.scalars(Mention.__table__.select().with_only_columns(Mention.status)
                             .where(Mention.name == "Maria Ortiz"))) == {"rejected"}

    second = add_text_document(
        ui_workspace, cid, "Sen. Maria Ortiz, D-Ore., met Harbor Police Chief Dana Whitlock "
        "in Harbor on Friday.", "second.txt", published="2024-03-15")
    job = window.suggestions.start([second])
    qtbot.waitUntil(lambda: job.done, timeout=60000)
    assert job.outcome == "succeeded"
    shown = rows(panel)
    assert ("person", "Dana Whitlock") in shown  # the panel refreshed from case_changed
    assert ("person", "Maria Ortiz") not in shown
    assert ("place", "Harbor") not in shown


def test_suggestions_after_a_gui_import_run_in_the_background(
        make_window, ui_workspace, qtbot, tmp_path, monkeypatch):
    import casefile.services.suggestions as suggestions

    cid = make_case(ui_workspace)
    window = make_window(cid, suggest_after_import=True)
    panel = open_panel(window)
    assert rows(panel) == []
    threads: list[threading.Thread] = []
    original = suggestions.suggest_for_document

    def recording(session, document_id, mode="auto", **_kw):
        threads.append(threading.current_thread())
        return original(session, document_id, mode="rules")  # keep the test quick

    monkeypatch.setattr(suggestions, "suggest_for_document", recording)
    path = tmp_path / "story.txt"
    path.write_text(STORY, encoding="utf-8")
    jobs: list[Job] = []
    window.runner.job_started.connect(jobs.append)
    import_job = window.imports.import_files([path], published=None)
    assert import_job is not None
    qtbot.waitUntil(lambda: len(jobs) == 2 and jobs[1].done, timeout=60000)
    suggest_job = jobs[1]
    assert suggest_job.outcome == "succeeded"
    assert suggest_job.dialog is None  # no modal dialog: the reporter keeps working
    assert threads and all(t is not threading.main_thread() for t in threads)
    assert ("person", "Nadia Ferreira") in rows(panel)
    assert len(window.documents.viewers) == 1  # the imported document opened while suggestions ran
    assert window.tabs.count() == 6  # Items, Follow-ups, Timeline, Claims, Graph, the document


def test_window_opens_without_importing_spacy(ui_workspace, tmp_path):
    suggested_case(ui_workspace)  # pending suggestions to list at start
    script = textwrap.dedent("""
        import os, sys
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        from PySide6.QtWidgets import QApplication
        app = QApplication([])
        from casefile.store.workspace import open_workspace
        from casefile.ui.main_window import MainWindow
        ws = open_workspace(sys.argv[1])
        window = MainWindow(ws)
        window.show()
        app.processEvents()
        print(window.suggestions_panel.listing.total)
        print(sorted(m for m in sys.modules if m == "spacy" or m.startswith("spacy.")))
        window.close()
        ws.close()
    """)
    folder = Path(ui_workspace.url.removeprefix("sqlite:///")).parent
    run = subprocess.run([sys.executable, "-c", script, str(folder)], capture_output=True,
                         text=True, timeout=120, cwd=Path(__file__).resolve().parents[2])
    assert run.returncode == 0, run.stderr
    total, modules = run.stdout.split("\n")[:2]
    assert int(total) == 10
    assert modules == "[]"


def people_and_orgs(ws, cid: int) -> tuple[list[str], list[str]]:
    with ws.transaction() as s:
        return ([i.title for i in items.list_items(s, cid, "person")],
                [i.title for i in items.list_items(s, cid, "organization")])


def test_ctrl_z_takes_an_accept_back_whole_and_ctrl_shift_z_brings_it_back(
        make_window, ui_workspace, qtbot):
    cid, _doc, window, panel = panel_on_suggested_case(make_window, ui_workspace)
    accept_row(qtbot, window, panel, "person", "Tom Becker")
    assert people_and_orgs(ui_workspace, cid) == (["Tom Becker"], ["Harbor Police Department"])
    assert window.undo_action.isEnabled()
    assert window.undo_action.text() == "&Undo Accept person “Tom Becker”"

    with qtbot.waitSignal(window.runner.case_changed):
        qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert people_and_orgs(ui_workspace, cid) == ([], [])  # both gone
    assert ("person", "Tom Becker") in rows(panel)
    assert ("organization", "Harbor Police Department") in rows(panel)
    current = panel.current_entry()
    assert current is not None and current.name == "Tom Becker"  # back, ready to decide
    assert window.statusBar().currentMessage().startswith(
        "Undid accept person “Tom Becker”: removed person “Tom Becker” and organization "
        "“Harbor Police Department”")
    assert window.picker.navigator.item(0).text() == "People (0)"

    with qtbot.waitSignal(window.runner.case_changed):
        qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier
                       | Qt.KeyboardModifier.ShiftModifier)
    assert people_and_orgs(ui_workspace, cid) == (["Tom Becker"], ["Harbor Police Department"])
    assert ("person", "Tom Becker") not in rows(panel)
    assert window.statusBar().currentMessage().startswith("Added person “Tom Becker” and "
                                                          "organization")
    with ui_workspace.transaction() as s:
        person = items.find_item(s, cid, "Tom Becker", "person")
        assert len(evidence.evidence_for(s, person.id)) == 2

    # a reject is undone the same way
    click_row(qtbot, panel, "person", "Maria Ortiz")
    with qtbot.waitSignal(window.runner.case_changed):
        qtbot.keyClick(panel.tree, Qt.Key.Key_X)
    assert ("person", "Maria Ortiz") not in rows(panel)
    with qtbot.waitSignal(window.runner.case_changed):
        window.undo_action.trigger()
    assert ("person", "Maria Ortiz") in rows(panel)
    with ui_workspace.transaction() as s:
        assert set(s.scalars(Mention.__table__.select().with_only_columns(Mention.status)
                             .where(Mention.name == "Maria Ortiz"))) == {"suggested"}


def test_no_row_moves_under_the_pointer_after_a_decision(make_window, ui_workspace, qtbot):
    cid, _doc, window, panel = panel_on_suggested_case(make_window, ui_workspace)
    before = all_rows(panel)
    places = {key: panel.tree.visualRect(panel.model.index_of(key)).topLeft()
              for key in (e.key for e in panel.waiting_entries())}
    accept_row(qtbot, window, panel, "person", "Nadia Ferreira")
    after = all_rows(panel)
    # the same rows, in the same places: the decided ones are marked, not removed
    assert [(k, n) for k, n, _d in after] == [(k, n) for k, n, _d in before]
    assert {key: panel.tree.visualRect(panel.model.index_of(key)).topLeft()
            for key in places} == places
    marks = {(k, n): d for k, n, d in after}
    assert marks[("person", "Nadia Ferreira")] == "✓ accepted"
    assert marks[("organization", "Harbor Police Department")] == "✓ accepted"  # taken over
    decided = next(i for i in panel.model.entry_indexes()
                   if panel.model.entry(i).name == "Nadia Ferreira")
    assert not panel.model.flags(decided) & Qt.ItemFlag.ItemIsSelectable
    # the selection went to the next undecided row, and a click on a decided row decides nothing
    current = panel.current_entry()
    assert current is not None and current.name == "Tom Becker"
    rect = panel.tree.visualRect(decided)
    qtbot.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert panel.current_entry() is None and not panel.accept_button.isEnabled()
    assert panel.accept_current() is None
    assert group_texts(panel)[:2] == ["People (2)", "Organizations (0)"]
    dock = window.findChild(QDockWidget, "suggestions_dock")
    assert dock.windowTitle() == "Suggestions (8)"

    # a later suggestion run reads the list again: decided rows leave then
    second = add_text_document(ui_workspace, cid, "Harbor Police Chief Dana Whitlock spoke.",
                               "second.txt", published="2024-03-15")
    job = window.suggestions.start([second])
    qtbot.waitUntil(lambda: job.done, timeout=60000)
    assert ("person", "Nadia Ferreira") not in [(k, n) for k, n, _d in all_rows(panel)]
    assert ("person", "Dana Whitlock") in rows(panel)


def test_events_follow_ups_and_claims_show_their_dates_and_attribution(
        make_window, ui_workspace, qtbot):
    from tests.conftest import ARTICLE

    cid, doc_id = suggested_parkland(ui_workspace, ARTICLE)
    window = make_window(cid)
    panel = open_panel(window)
    shown = all_rows(panel)
    events = [(panel.model.entry(i), i) for i in panel.model.entry_indexes()
              if panel.model.entry(i).kind == "event"]
    assert {"2018-02-14", "2018-02-15"} <= {e.detail["date"] for e, _i in events}
    assert all(i.data().startswith(e.detail["date"] + " — ") for e, i in events)
    report = next(d for k, n, d in shown if k == "question" and "Coral Springs Police" in n)
    assert report == "expected record, due 2018-03-02"
    claims = [(n, d) for k, n, d in shown if k == "claim"]
    assert len(claims) == 7
    assert any(n.startswith("CNN describes the emotions") and d == "said by CNN · via CNN"
               for n, d in claims)
    assert any(d == "said by CNN · via CNN" for _n, d in claims)  # "According to CNN, …"
    assert "Claims (7)" in group_texts(panel)

    # accepting a claim stores it with its attribution and passage
    name = next(n for n, d in claims if n.startswith("Coral Springs City Manager Mike Goodrum"))
    assert dict(claims)[name] == "said by no one named"  # "reportedly confronted": not his
    name = next(n for n, d in claims if n.startswith("According to CNN"))
    accept_row(qtbot, window, panel, "claim", name)
    assert "attributed to “CNN” (no person or organization of that name" in (
        window.statusBar().currentMessage())
    with ui_workspace.transaction() as s:
        [claim] = items.list_items(s, cid, "claim")
        assert claim.statement == " ".join(name.split())
        assert claim.attributed_to_text == "CNN"
        assert [r.relation for r in evidence.evidence_for(s, claim.id)] == ["supports"]


def test_a_claims_speaker_reads_whole_at_the_start_of_its_row(make_window, ui_workspace,
                                                               qtbot):
    from PySide6.QtGui import QFontMetrics

    text = ("Senator Rosalind Okafor-Lund questioned the harbor warden for an hour on "
            "Tuesday about the night the pier collapsed. \"The warden should have been fired the "
            "week the pier went into the water and nobody has answered for it since,\" she said.")
    cid, _doc = suggested_case(ui_workspace, text)
    window = make_window(cid)
    window.resize(1366, 768)
    panel = open_panel(window)
    claims = [i for i in panel.model.entry_indexes() if panel.model.entry(i).kind == "claim"]
    quoted = [i for i in claims if panel.model.entry(i).name.startswith('"The warden')]
    assert len(quoted) == 1
    label = quoted[0].data()
    speaker = "Rosalind Okafor-Lund"
    assert label.startswith(f"{speaker}: \"The warden should")  # the pronoun resolved, name first
    # at 1366 px the row has room for a long name: only the sentence after it is cut (in the
    # Details column "said by …" was cut after six letters)
    panel.tree.scrollTo(quoted[0])
    room = panel.tree.visualRect(quoted[0]).width()
    assert QFontMetrics(panel.tree.font()).horizontalAdvance(f"{speaker}: ") < room
