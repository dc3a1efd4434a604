"""The Follow-ups view with the clock set: the named views, the overdue count on opening a
case, status changes dated by the window's today, answering with a passage (from the dialog
and from a document's selection), whom to ask, and the calendar export."""

from __future__ import annotations

from datetime import date

import icalendar
import pytest
from PySide6.QtWidgets import QFileDialog

from casefile.services import questions
from casefile.store import Item, Question
from tests.ui.dated_window import coral_springs_case, open_window
from tests.ui.helpers import set_followup_status

REPORT_QUESTION = "Coral Springs police report on the deputies' response"


def _texts(window) -> list[str]:
    model = window.followups_model
    return [model.row_at(r).text for r in range(model.rowCount())]


def test_report_is_due_this_week_on_feb_26_and_overdue_on_mar_5(qtbot, ui_workspace):
    ids = coral_springs_case(ui_workspace)
    window = open_window(qtbot, ui_workspace, ids["case"], date(2018, 2, 26))
    page = window.followups_view
    page.set_view("week")
    assert _texts(window) == [REPORT_QUESTION]
    assert page.view_buttons["week"].text() == "Due this week (1)"
    page.set_view("overdue")
    assert _texts(window) == []
    assert window.case_views.overdue_count == 0
    assert not window.case_views.notice.isVisibleTo(window)

    later = open_window(qtbot, ui_workspace, ids["case"], date(2018, 3, 5))
    with ui_workspace.transaction() as s:
        expected = questions.overdue_count(s, ids["case"], today=date(2018, 3, 5))
    assert expected == 1
    assert later.case_views.overdue_count == expected
    assert later.statusBar().currentMessage().startswith("1 follow-up is overdue")
    assert later.case_views.notice.isVisibleTo(later)
    assert "1 follow-up is overdue" in later.case_views.notice.label.text()
    later.case_views.notice.show_button.click()  # the notice leads to the overdue list
    assert later.tabs.currentWidget() is later.followups_view
    assert later.followups_view.view == "overdue"
    assert _texts(later) == [REPORT_QUESTION]
    assert later.followups_model.index(0, 1).data() == "3 days overdue"
    later.followups_view.set_view("week")
    assert _texts(later) == []
    assert later.status_line.due_label.text().startswith("1 overdue · ")


def test_status_change_in_place_is_dated_by_the_window_clock(qtbot, ui_workspace):
    ids = coral_springs_case(ui_workspace)
    window = open_window(qtbot, ui_workspace, ids["case"], date(2018, 2, 27))
    window.show_followups()
    set_followup_status(window, 0, "open", "waiting")
    with ui_workspace.transaction() as s:
        history = questions.status_history(s, ids["question"])
    assert [(h.previous, h.status, h.on) for h in history] == [
        (None, "open", "2018-02-23"), ("open", "waiting", "2018-02-27")]
    page = window.followups_view
    page.set_view("waiting")
    assert _texts(window) == [REPORT_QUESTION]
    assert page.view_buttons["waiting"].text() == "Waiting on others (1)"
    assert "waiting since 2018-02-27" in page.detail_facts.text()
    assert "open (2018-02-23)" in page.detail_history.text()
    assert "waiting (2018-02-27)" in page.detail_history.text()
    window.undo()
    with ui_workspace.transaction() as s:
        assert s.get(Question, ids["question"]).status == "open"


def test_details_show_whom_to_ask_with_contact_details(qtbot, ui_workspace):
    ids = coral_springs_case(ui_workspace)
    window = open_window(qtbot, ui_workspace, ids["case"], date(2018, 2, 26))
    window.show_followups()
    window.followups_view.table.selectRow(0)
    text = window.followups_view.detail_ask.text()
    assert "Ask: Tony Pustizzi (Police chief, Coral Springs Police Department)" in text
    assert "954-555-0100" in text and "tpustizzi@example.org" in text
    # the evidence panel follows the selected follow-up
    assert window.evidence.panel.item_id == ids["question"]


def test_answer_with_a_passage_of_a_later_document(qtbot, ui_workspace):
    ids = coral_springs_case(ui_workspace)
    window = open_window(qtbot, ui_workspace, ids["case"], date(2018, 3, 5))
    page = window.followups_view
    window.show_followups()
    page.table.selectRow(0)
    assert page.selected_followup().id == ids["question"]
    dialog = page.prompt_answer()
    assert dialog is not None
    ok = dialog.buttons.button(dialog.buttons.StandardButton.Ok)
    assert not ok.isEnabled()  # no answer written yet
    dialog.answer_edit.setPlainText("Report released: three deputies stayed outside.")
    assert ok.isEnabled()
    box = dialog.document_box
    box.setCurrentIndex(box.findData(ids["report"]))
    quotes = [dialog.passage_list.item(r).text() for r in range(dialog.passage_list.count())]
    assert quotes[0] == "The whole document"
    assert any("three Broward deputies" in q for q in quotes)
    dialog.passage_list.setCurrentRow(next(
        r for r, q in enumerate(quotes) if "three Broward deputies" in q))
    assert dialog.answered_on() == date(2018, 3, 5)
    dialog.accept()
    with ui_workspace.transaction() as s:
        q = s.get(Question, ids["question"])
        assert (q.status, q.answered_at) == ("answered", date(2018, 3, 5))
        assert q.answer == "Report released: three deputies stayed outside."
        assert q.answered_by_passage_id == ids["answer_passage"]
        assert q.answered_by_document_id == ids["report"]
        history = questions.status_history(s, q.id)
    assert (history[-1].status, history[-1].on) == ("answered", "2018-03-05")
    assert REPORT_QUESTION not in _texts(window)  # left the open list
    page.set_view("answered")
    assert _texts(window) == [REPORT_QUESTION]
    page.table.selectRow(0)
    assert "Answer (2018-03-05): Report released" in page.detail_answer.text()
    assert "three Broward deputies outside the building" in page.detail_answer.text()
    assert page.source_button.isVisibleTo(page)
    page.source_button.click()  # opens the report at the answering passage
    viewer = window.documents.viewers[ids["report"]]
    assert viewer.selected_text() == "found three Broward deputies outside the building"
    window.undo()
    with ui_workspace.transaction() as s:
        q = s.get(Question, ids["question"])
        assert (q.status, q.answer, q.answered_by_passage_id) == ("open", None, None)


def test_answers_followup_from_a_document_selection(qtbot, ui_workspace):
    ids = coral_springs_case(ui_workspace)
    window = open_window(qtbot, ui_workspace, ids["case"], date(2018, 3, 6))
    viewer = window.open_document(ids["report"])
    assert viewer is not None
    text = viewer.text
    start = text.index("The report was released")
    end = start + len("The report was released on March 5")
    viewer.select_span(start, end)
    menu = viewer.context_menu()
    action = next(a for a in menu.actions() if a.text() == "Answers follow-up\u2026")
    assert action.isEnabled()
    action.trigger()
    dialog = window.followups_view.last_dialog
    assert dialog is not None and dialog.followup_box is not None
    box = dialog.followup_box
    assert not dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()
    box.setCurrentIndex(box.findData(ids["question"]))
    dialog.answer_edit.setPlainText("Released on March 5.")
    dialog.accept()
    with ui_workspace.transaction() as s:
        q = s.get(Question, ids["question"])
        assert q.status == "answered" and q.answered_at == date(2018, 3, 6)
        passage = q.answered_by_passage_id
        from casefile.store import Passage
        p = s.get(Passage, passage)
        assert (p.document_id, p.start, p.end) == (ids["report"], start, end)


def test_calendar_export_from_the_file_menu(qtbot, ui_workspace, tmp_path, monkeypatch):
    ids = coral_springs_case(ui_workspace)
    window = open_window(qtbot, ui_workspace, ids["case"], date(2018, 2, 26))
    file_menu = next(a.menu() for a in window.menuBar().actions()
                     if a.text().replace("&", "") == "File")
    labels = [a.text().replace("&", "") for a in file_menu.actions()]
    assert "Export follow-ups to calendar\u2026" in labels
    out = tmp_path / "followups"  # the extension is added
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(out), "Calendar files (*.ics)"))
    window.case_views.calendar_action.trigger()
    written = tmp_path / "followups.ics"
    cal = icalendar.Calendar.from_ical(written.read_bytes())
    events = {str(e["UID"]): e for e in cal.walk("VEVENT")}
    with ui_workspace.transaction() as s:
        uids = {f"{q.uid}@casefile": q for q in s.query(Question).all()}
        dues = {uid: q.due for uid, q in uids.items()}
    assert set(events) == set(uids)
    assert {uid: e.decoded("DTSTART") for uid, e in events.items()} == dues
    assert "2 follow-ups written to" in window.statusBar().currentMessage()
    window.case_views.calendar_action.trigger()  # again: the same UIDs
    again = icalendar.Calendar.from_ical(written.read_bytes())
    assert {str(e["UID"]) for e in again.walk("VEVENT")} == set(uids)
    with ui_workspace.transaction() as s:
        assert s.get(Item, ids["question"]) is not None


@pytest.mark.parametrize(("profile", "shown"), [("public", "Source A"), ("editor", None)])
def test_calendar_export_under_the_profile_chosen_in_the_save_dialog(
        qtbot, ui_workspace, tmp_path, monkeypatch, profile, shown):
    from casefile.export.profiles import PROFILES
    from casefile.services import cases, items

    with ui_workspace.transaction() as s:
        case_id = cases.create_case(s, "Calendar profiles").id
        witness = items.create_item(s, case_id, "person", "Quiet Witness", confidential=True)
        items.create_item(s, case_id, "question", "Call Quiet Witness about the report",
                          due="2018-03-02", ask_id=witness.id)
    window = open_window(qtbot, ui_workspace, case_id, date(2018, 2, 26))
    out = tmp_path / "cal.ics"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (
        str(out), f"{PROFILES[profile].label} (*.ics)"))
    window.case_views.calendar_action.trigger()
    text = out.read_text(encoding="utf-8")
    assert "Quiet Witness" not in text and "Witness" not in text
    events = list(icalendar.Calendar.from_ical(out.read_bytes()).walk("VEVENT"))
    if shown is None:  # editor: a follow-up naming a withheld person keeps [withheld]
        assert all("Source A" not in str(e.get("SUMMARY")) for e in events)
    else:
        assert any(shown in str(e.get("SUMMARY")) for e in events)
