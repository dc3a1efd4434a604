"""Changing a document's published date moves the dates suggested from its text: the Coral
Springs report follow-up due "in about a week" moves with it, a due date edited by hand stays,
and undo puts everything back."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select

from casefile.errors import NotFoundError, ValidationError
from casefile.ingest import ingest_bytes
from casefile.services import decisions, documents, items, published
from casefile.services.changes import run_step
from casefile.services.suggestions import suggest_for_document
from casefile.store import ChangeLog, Document, Event, Question
from tests.conftest import ARTICLE

REPORT = "a report by the Coral Springs Police Department"


def accept_report(ws, case_id: int) -> int:
    """Accept the report follow-up; returns the Question's id."""
    with ws.transaction() as s:
        entry = next(e for e in decisions.list_suggestions(s, case_id).by_kind["question"]
                     if REPORT in e.name)
        assert entry.detail["due"] == "2018-03-02"
        done = decisions.accept(s, case_id, "question", entry.name, variant=entry.variant)
        return int(done.value.item_id)


#: An invented report with a date relative to its publication and a written one.
HARBOR = ("The harbor board voted earlier today to close the north pier to all traffic. "
          "The pier had reopened on March 3, 2015 after a long repair.\n")


@pytest.fixture
def harbor(workspace, case_id) -> tuple[int, int]:
    """HARBOR stored with published 2018-02-23 and its suggestions (rules); (case, doc)."""
    raw = HARBOR.encode("utf-8")
    with workspace.transaction() as s:
        doc_id = documents.store_document(s, case_id, raw, ingest_bytes(raw, "harbor.txt"),
                                          published="2018-02-23").document_id
    with workspace.transaction() as s:
        suggest_for_document(s, doc_id, mode="rules")
    return case_id, doc_id


def due_of(ws, question_id: int) -> date | None:
    with ws.transaction() as s:
        q = s.get(Question, question_id)
        assert q is not None
        return q.due


def test_a_new_published_date_moves_the_accepted_due_date_and_undo_restores_it(
        workspace, parkland) -> None:
    case_id, doc_id = parkland
    question_id = accept_report(workspace, case_id)
    assert due_of(workspace, question_id) == date(2018, 3, 2)

    with workspace.transaction() as s:
        done = published.set_published(s, doc_id, date(2018, 2, 24))
    assert due_of(workspace, question_id) == date(2018, 3, 3)
    assert done.value["moved"] == [question_id]
    assert {doc_id, question_id} <= done.updated and "question" in done.kinds
    assert "1 follow-up now due 2018-03-03" in done.message
    with workspace.transaction() as s:
        doc = s.get(Document, doc_id)
        assert doc is not None and doc.published == date(2018, 2, 24)
        events = decisions.list_suggestions(s, case_id).by_kind["event"]
        assert "2018-02-14" in {e.detail["date"] for e in events}  # a written date stays
        assert s.scalar(select(ChangeLog.action).order_by(ChangeLog.id.desc()).limit(1)) == (
            "document.published")

    with workspace.transaction() as s:
        assert done.undo is not None
        undone = run_step(s, done.undo)
    assert due_of(workspace, question_id) == date(2018, 3, 2)
    with workspace.transaction() as s:
        doc = s.get(Document, doc_id)
        assert doc is not None and doc.published == date(2018, 2, 23)
    with workspace.transaction() as s:
        assert undone.undo is not None
        run_step(s, undone.undo)  # redo
    assert due_of(workspace, question_id) == date(2018, 3, 3)


def test_a_due_date_edited_by_hand_stays(workspace, parkland) -> None:
    case_id, doc_id = parkland
    question_id = accept_report(workspace, case_id)
    with workspace.transaction() as s:
        items.update_item(s, question_id, due="2018-03-09")
    with workspace.transaction() as s:
        done = published.set_published(s, doc_id, "2018-02-24")
    assert due_of(workspace, question_id) == date(2018, 3, 9)
    assert done.value == {"moved": [], "kept": [question_id], "suggestions": 0}
    assert "1 date edited by hand left as it was" in done.message
    with workspace.transaction() as s:
        assert done.undo is not None
        run_step(s, done.undo)
    assert due_of(workspace, question_id) == date(2018, 3, 9)


def test_a_waiting_event_moves_with_the_date_and_undo_moves_it_back(workspace, harbor) -> None:
    case_id, doc_id = harbor

    def event_dates() -> set[str]:
        with workspace.transaction() as s:
            return {e.detail["date"] for e in
                    decisions.list_suggestions(s, case_id).by_kind["event"]}

    assert event_dates() == {"2018-02-23", "2015-03-03"}
    with workspace.transaction() as s:
        done = published.set_published(s, doc_id, date(2018, 2, 24))
    assert done.value["suggestions"] == 1
    assert event_dates() == {"2018-02-24", "2015-03-03"}  # "earlier today" moved, March 3 not
    with workspace.transaction() as s:
        assert done.undo is not None
        run_step(s, done.undo)
    assert event_dates() == {"2018-02-23", "2015-03-03"}


def test_an_accepted_event_moves_when_its_date_is_relative(workspace, harbor) -> None:
    case_id, doc_id = harbor
    with workspace.transaction() as s:
        entry = next(e for e in decisions.list_suggestions(s, case_id).by_kind["event"]
                     if e.name.startswith("The harbor board voted earlier today"))
        event_id = decisions.accept(s, case_id, "event", entry.name,
                                    variant=entry.variant).value.item_id
        fixed = next(e for e in decisions.list_suggestions(s, case_id).by_kind["event"]
                     if e.detail["date"] == "2015-03-03")
        fixed_id = decisions.accept(s, case_id, "event", fixed.name,
                                    variant=fixed.variant).value.item_id
    with workspace.transaction() as s:
        published.set_published(s, doc_id, "2018-02-25")
        moved, kept = s.get(Event, event_id), s.get(Event, fixed_id)
        assert moved is not None and moved.date == date(2018, 2, 25)
        assert kept is not None and kept.date == date(2015, 3, 3)  # "March 3, 2015" is written


def test_a_document_imported_without_a_date_gets_its_due_date_and_events_later(
        workspace, case_id) -> None:
    raw = ARTICLE.read_bytes()
    with workspace.transaction() as s:
        doc_id = documents.store_document(s, case_id, raw, ingest_bytes(raw, ARTICLE.name),
                                          published=None).document_id
    with workspace.transaction() as s:
        doc = s.get(Document, doc_id)
        assert doc is not None
        doc.published = None  # as if no date was found anywhere
        suggest_for_document(s, doc_id, mode="rules")
        listed = decisions.list_suggestions(s, case_id)
        assert "event" not in listed.by_kind
    question_id = None
    with workspace.transaction() as s:
        entry = next(e for e in decisions.list_suggestions(s, case_id).by_kind["question"]
                     if REPORT in e.name)
        assert entry.detail["due"] is None
        question_id = decisions.accept(s, case_id, "question", entry.name,
                                       variant=entry.variant).value.item_id
    with workspace.transaction() as s:
        published.set_published(s, doc_id, "2018-02-23")
        events = decisions.list_suggestions(s, case_id).by_kind["event"]
        assert {"2018-02-14", "2018-02-15"} <= {e.detail["date"] for e in events}
    assert due_of(workspace, question_id) == date(2018, 3, 2)


def test_bad_input_is_one_clear_error(workspace, parkland) -> None:
    _case, doc_id = parkland
    with pytest.raises(ValidationError, match="published must be a date"), \
            workspace.transaction() as s:
        published.set_published(s, doc_id, "23/02/2018")
    with pytest.raises(NotFoundError), workspace.transaction() as s:
        published.set_published(s, 999999, "2018-02-23")
    with workspace.transaction() as s:
        same = published.set_published(s, doc_id, "2018-02-23")
    assert same.undo is None and "already 2018-02-23" in same.message


def test_editing_the_published_field_moves_the_due_date_and_its_undo_moves_it_back(
        workspace, parkland) -> None:
    """The window's editor saves the Published field through ``item_actions.edit``: the same
    re-derivation runs, and the edit's undo (the old date) moves the date back."""
    from casefile.services import item_actions

    case_id, doc_id = parkland
    question_id = accept_report(workspace, case_id)
    with workspace.transaction() as s:
        version = s.get(Document, doc_id).version
        done = item_actions.edit(s, doc_id, {"published": date(2018, 2, 24)},
                                 expected_version=version)
    assert due_of(workspace, question_id) == date(2018, 3, 3)
    assert question_id in done.updated and "question" in done.kinds
    assert "now due 2018-03-03" in done.message
    with workspace.transaction() as s:
        assert done.undo is not None
        undone = run_step(s, done.undo)
    assert due_of(workspace, question_id) == date(2018, 3, 2)
    with workspace.transaction() as s:
        assert undone.undo is not None
        run_step(s, undone.undo)
    assert due_of(workspace, question_id) == date(2018, 3, 3)
