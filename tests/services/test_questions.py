"""Follow-ups: due within N days (overdue included), ordering, status changes."""

from __future__ import annotations

from datetime import date

import pytest

from casefile.errors import ValidationError
from casefile.services import items, questions


def test_due_within_includes_overdue_and_excludes_later_and_closed(workspace, case_id) -> None:
    with workspace.transaction() as s:
        who = items.create_item(s, case_id, "organization", "Port Authority")
        questions.create_question(s, case_id, "Audit report", kind="expected record",
                                  due="2024-03-02", ask_id=who.id)
        questions.create_question(s, case_id, "Call the auditor back", kind="call back",
                                  due="2024-02-20")
        questions.create_question(s, case_id, "Board minutes", kind="records request",
                                  due="2024-04-30")
        done = questions.create_question(s, case_id, "Ask the mayor", kind="right of reply",
                                         due="2024-02-28")
        questions.create_question(s, case_id, "Who signed the lease?")
        questions.set_status(s, done.id, "answered", answer="She declined.",
                             answered_on="2024-02-27")
    with workspace.transaction() as s:
        soon = questions.followups(s, case_id, due_within=7, today=date(2024, 2, 26))
        everything = questions.followups(s, case_id, today=date(2024, 2, 26))
    assert [(f.text, f.overdue, f.days_left) for f in soon] == [
        ("Call the auditor back", True, -6), ("Audit report", False, 5),
    ]
    assert soon[1].ask == "Port Authority"
    assert [f.text for f in everything] == [
        "Call the auditor back", "Audit report", "Board minutes", "Who signed the lease?",
    ]


def test_status_change_records_when_and_the_answer(workspace, case_id) -> None:
    with workspace.transaction() as s:
        q = questions.create_question(s, case_id, "Ask the mayor", kind="right of reply")
        assert q.status == "open" and q.status_changed is None
        q = questions.set_status(s, q.id, "answered", answer="No comment.",
                                 answered_on="2024-02-27")
        assert (q.status, q.answer, q.answered_at) == ("answered", "No comment.",
                                                       date(2024, 2, 27))
        assert q.status_changed is not None


def test_bad_kind_and_negative_window_are_refused(workspace, case_id) -> None:
    with pytest.raises(ValidationError), workspace.transaction() as s:
        questions.create_question(s, case_id, "x", kind="hunch")
    with pytest.raises(ValidationError), workspace.transaction() as s:
        questions.followups(s, case_id, due_within=-1)
