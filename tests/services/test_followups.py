"""Follow-ups: status history with dates, answering with a passage or document, and
the views a reporter works from: overdue, due this week, waiting on others, answered."""

from __future__ import annotations

from datetime import date

import pytest

from casefile.errors import ValidationError
from casefile.ingest.types import Ingested
from casefile.services import cases, documents, items, passages, questions, views

MONDAY = date(2024, 2, 26)


def _doc(s, case_id: int, text: str, title: str) -> int:
    ingested = Ingested(text=text, title=title, kind="note", mime_type="text/plain")
    return documents.store_document(s, case_id, text.encode(), ingested, title=title).document_id


def _followups(workspace, case_id: int) -> dict[str, int]:
    with workspace.transaction() as s:
        office = items.create_item(s, case_id, "organization", "Port Authority press office")
        ids = {
            "late": questions.create_question(s, case_id, "Audit report", kind="expected record",
                                              due="2024-02-20", ask_id=office.id).id,
            "friday": questions.create_question(s, case_id, "Board minutes",
                                                kind="records request", due="2024-03-01").id,
            "next month": questions.create_question(s, case_id, "Lease file",
                                                    kind="records request", due="2024-03-30").id,
            "waiting": questions.create_question(s, case_id, "Mayor's reply",
                                                 kind="right of reply", due="2024-02-28",
                                                 status="waiting").id,
            "undated": questions.create_question(s, case_id, "Who signed the lease?").id,
        }
    return ids


def test_views_on_a_set_clock(workspace, case_id) -> None:
    ids = _followups(workspace, case_id)
    with workspace.transaction() as s:
        questions.set_status(s, ids["friday"], "answered", answer="Posted online.",
                             answered_on="2024-02-25")
        overdue = questions.overdue(s, case_id, today=MONDAY)
        week = questions.due_this_week(s, case_id, today=MONDAY)
        waiting = questions.waiting_on_others(s, case_id, today=MONDAY)
        answered = questions.answered(s, case_id, today=MONDAY)
        count = questions.overdue_count(s, case_id, today=MONDAY)
        status = views.case_status(s, case_id, today=MONDAY)
    assert [f.text for f in overdue] == ["Audit report"]
    assert overdue[0].days_left == -6 and overdue[0].ask == "Port Authority press office"
    assert [f.text for f in week] == ["Mayor's reply"]  # the answered one is no longer due
    assert [f.text for f in waiting] == ["Mayor's reply"]
    assert [(f.text, f.answer, f.answered_on) for f in answered] == [
        ("Board minutes", "Posted online.", "2024-02-25")]
    assert count == 1 == status.overdue


def test_due_this_week_then_overdue_as_the_clock_moves(workspace, case_id) -> None:
    ids = _followups(workspace, case_id)
    with workspace.transaction() as s:
        on_monday = [f.id for f in questions.due_this_week(s, case_id, today=MONDAY)]
        a_week_on = questions.overdue(s, case_id, today=date(2024, 3, 4))
        tuesday_view = questions.followup_view(s, case_id, "week", today=date(2024, 2, 27))
    assert ids["friday"] in on_monday and ids["next month"] not in on_monday
    assert {f.id for f in a_week_on} == {ids["late"], ids["friday"], ids["waiting"]}
    assert ids["friday"] in [f.id for f in tuesday_view]


def test_every_status_change_is_kept_with_its_date(workspace, case_id) -> None:
    with workspace.transaction() as s:
        q = questions.create_question(s, case_id, "Ask the mayor", kind="right of reply",
                                      on="2024-02-20")
        questions.set_status(s, q.id, "waiting", on="2024-02-21", note="emailed her office")
        questions.set_status(s, q.id, "answered", answer="She declined.",
                             answered_on="2024-02-27")
        questions.set_status(s, q.id, "open", on="2024-02-28", note="new facts; ask again")
        qid = q.id
    with workspace.transaction() as s:
        # a change made through the generic editor path is recorded too
        items.update_item(s, qid, status="dropped")
        history = questions.status_history(s, qid)
    assert [(h.previous, h.status, h.on, h.note) for h in history[:4]] == [
        (None, "open", "2024-02-20", None),
        ("open", "waiting", "2024-02-21", "emailed her office"),
        ("waiting", "answered", "2024-02-27", None),
        ("answered", "open", "2024-02-28", "new facts; ask again"),
    ]
    assert (history[4].previous, history[4].status) == ("open", "dropped")
    assert history[4].on == date.today().isoformat()


def test_setting_the_same_status_records_nothing(workspace, case_id) -> None:
    with workspace.transaction() as s:
        q = questions.create_question(s, case_id, "Ask the mayor", on="2024-02-20")
        questions.set_status(s, q.id, "open", on="2024-02-22", note="unused")
        questions.set_status(s, q.id, "waiting")
        history = questions.status_history(s, q.id)
    assert [(h.status, h.note) for h in history] == [("open", None), ("waiting", None)]
    assert history[1].on == date.today().isoformat()  # the unused stamp did not leak


def test_answer_with_a_passage_records_text_date_and_link(workspace, case_id) -> None:
    with workspace.transaction() as s:
        q = questions.create_question(s, case_id, "Audit report", kind="expected record",
                                      due="2024-03-01", status="waiting")
        doc = _doc(s, case_id, "The audit, released Monday, found $2m in unbilled leases.",
                   "Audit released")
        p = passages.add_passage_by_quote(s, doc, "found $2m in unbilled leases")
        questions.answer_question(s, q.id, "Released: $2m unbilled.", passage_id=p.id,
                                  on="2024-03-04")
        listed = questions.answered(s, case_id, today=date(2024, 3, 5))
        qid, pid = q.id, p.id
    [f] = listed
    assert (f.id, f.status, f.answer, f.answered_on) == (qid, "answered",
                                                         "Released: $2m unbilled.", "2024-03-04")
    assert f.answered_by is not None
    assert (f.answered_by.passage_id, f.answered_by.document_title, f.answered_by.quote) == (
        pid, "Audit released", "found $2m in unbilled leases")
    assert f.status_since == "2024-03-04"
    assert f.as_json()["answered_by"] == {
        "document_id": doc, "document_title": "Audit released", "passage_id": pid,
        "quote": "found $2m in unbilled leases"}


def test_answer_with_a_whole_document(workspace, case_id) -> None:
    with workspace.transaction() as s:
        q = questions.create_question(s, case_id, "Board minutes", kind="records request")
        doc = _doc(s, case_id, "Minutes of the board, 12 March.", "Board minutes")
        questions.answer_question(s, q.id, "Received.", document_id=doc, on="2024-03-13")
        [f] = questions.answered(s, case_id)
    assert f.answered_by is not None and f.answered_by.passage_id is None
    assert f.answered_by.document_id == doc


def test_answer_must_come_from_the_same_case(workspace, case_id) -> None:
    with workspace.transaction() as s:
        other = cases.create_case(s, "Another story").id
        doc = _doc(s, other, "Unrelated text of another story.", "Elsewhere")
        p = passages.add_passage_by_quote(s, doc, "Unrelated text")
        q = questions.create_question(s, case_id, "Audit report").id
        pid = p.id
    with pytest.raises(ValidationError, match="another case"), workspace.transaction() as s:
        questions.answer_question(s, q, "x", passage_id=pid)
    with pytest.raises(ValidationError, match="another case"), workspace.transaction() as s:
        questions.answer_question(s, q, "x", document_id=doc)
    with pytest.raises(ValidationError, match="write the answer"), workspace.transaction() as s:
        questions.answer_question(s, q, "  ")
    with workspace.transaction() as s:
        assert questions.followups(s, case_id)[0].status == "open"


def test_unknown_status_and_view_are_refused(workspace, case_id) -> None:
    with workspace.transaction() as s:
        q = questions.create_question(s, case_id, "x").id
    with pytest.raises(ValidationError, match="status must be one of"), \
            workspace.transaction() as s:
        questions.set_status(s, q, "pending")
    with pytest.raises(ValidationError, match="view must be one of"), \
            workspace.transaction() as s:
        questions.followup_view(s, case_id, "someday")
    with pytest.raises(ValidationError, match="status must be one of"), \
            workspace.transaction() as s:
        questions.followups(s, case_id, statuses=["pending"])


def test_deleting_a_question_deletes_its_history(workspace, case_id) -> None:
    from sqlalchemy import func, select

    from casefile.store import QuestionStatusChange

    with workspace.transaction() as s:
        q = questions.create_question(s, case_id, "x")
        questions.set_status(s, q.id, "waiting")
        items.delete_item(s, q.id)
    with workspace.transaction() as s:
        assert s.scalar(select(func.count()).select_from(QuestionStatusChange)) == 0


def test_each_question_gets_its_own_lasting_uid(workspace, case_id) -> None:
    with workspace.transaction() as s:
        a = questions.create_question(s, case_id, "a")
        b = questions.create_question(s, case_id, "b")
        uids = (a.uid, b.uid)
        questions.set_status(s, a.id, "waiting")
        items.update_item(s, a.id, due="2024-05-01", title="a, reworded")
    with workspace.transaction() as s:
        assert [f.uid for f in questions.followups(s, case_id)] == list(uids)
    assert len(set(uids)) == 2 and all(len(u) == 36 for u in uids)


@pytest.mark.parametrize("today", [date(2024, 2, 19), MONDAY, date(2024, 3, 1),
                                   date(2024, 4, 2)])
def test_view_counts_from_one_load_match_each_view(workspace, case_id, today) -> None:
    """The Follow-ups page's counts (one load) are the sizes of the views themselves."""
    ids = _followups(workspace, case_id)
    with workspace.transaction() as s:
        questions.set_status(s, ids["friday"], "answered", answer="Posted online.",
                             answered_on="2024-02-25")
        questions.set_status(s, ids["next month"], "dropped")
        questions.create_question(s, case_id, "Court docket", due="2024-03-02",
                                  status="waiting")
        counts = questions.followup_view_counts(s, case_id, questions.FOLLOWUP_VIEWS,
                                                today=today)
        sizes = {view: len(questions.followup_view(s, case_id, view, today=today))
                 for view in questions.FOLLOWUP_VIEWS}
        with pytest.raises(ValidationError):
            questions.followup_view_counts(s, case_id, ["someday"], today=today)
    assert counts == sizes
    assert sizes["all"] == 6 and sizes["answered"] == 1 and sizes["waiting"] == 2
