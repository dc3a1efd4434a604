"""The window's editing actions as services: each one does its change in the caller's
transaction and returns Changes whose undo Step, run with ``run_step``, reverses it; the undo's
own Changes carry the redo. Restores bring rows back under the same ids (later steps of an undo
stack name them), and an edit's undo never writes over another writer's later save."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import func, select

from casefile.errors import ConflictError, ValidationError
from casefile.ingest.types import Ingested
from casefile.services import (
    claim_actions,
    claims,
    documents,
    evidence,
    evidence_actions,
    followup_actions,
    item_actions,
    items,
    questions,
    relationship_actions,
    relationships,
)
from casefile.services.changes import Changes, Step, run_step
from casefile.store import ChangeLog, EvidenceLink, Item, Passage, Person, Question
from casefile.store.evidence import Relationship

TEXT = "Deputy Scot Peterson stayed outside. The Broward Sheriff's Office said so."
NAME = (TEXT.index("Scot Peterson"), TEXT.index("Scot Peterson") + len("Scot Peterson"))


def _doc(workspace, case_id: int) -> int:
    with workspace.transaction() as s:
        return documents.store_document(
            s, case_id, TEXT.encode(), Ingested(text=TEXT, mime_type="text/plain"),
            filename="a.txt").document_id


def _new(workspace, case_id: int, kind: str, title: str, **fields) -> int:
    with workspace.transaction() as s:
        return items.create_item(s, case_id, kind, title, **fields).id


def _step(workspace, step: Step | None) -> Changes:
    assert step is not None
    with workspace.transaction() as s:
        return run_step(s, step)


def _log(workspace) -> list[str]:
    with workspace.transaction() as s:
        return list(s.scalars(select(ChangeLog.action).order_by(ChangeLog.id)))


def _count(workspace, model) -> int:
    with workspace.transaction() as s:
        return int(s.scalar(select(func.count()).select_from(model)) or 0)


def test_create_from_a_selection_is_one_action_and_undo_redo_keep_the_ids(
        workspace, case_id) -> None:
    doc_id = _doc(workspace, case_id)
    with workspace.transaction() as s:
        done = item_actions.create(s, case_id, "person", "Scot Peterson", {"role": "Deputy"},
                                   span=(doc_id, *NAME), relation="mentions")
    new = done.value
    assert isinstance(new, item_actions.NewItem) and new.linked is not None
    assert new.linked.passage_created
    assert done.created == {new.item_id} and done.kinds == {"person"}
    assert done.documents == {doc_id} and done.evidence
    assert done.message == ("Added person “Scot Peterson” with the selected passage as "
                            "mentions evidence.")
    assert _log(workspace)[-3:] == ["person.create", "passage.create", "evidence.link"]
    with workspace.transaction() as s:
        (ev,) = evidence.evidence_for(s, new.item_id)
        assert (ev.quote, ev.relation) == ("Scot Peterson", "mentions")

    undone = _step(workspace, done.undo)
    assert undone.deleted == {new.item_id}
    with workspace.transaction() as s:
        assert s.get(Item, new.item_id) is None
        assert s.get(EvidenceLink, new.linked.link_id) is None
        assert s.get(Passage, new.linked.passage_id) is None  # made for it, gone with it

    redone = _step(workspace, undone.undo)
    assert redone.created == {new.item_id}
    with workspace.transaction() as s:
        person = s.get(Person, new.item_id)
        assert person is not None and person.role == "Deputy"
        (ev,) = evidence.evidence_for(s, new.item_id)
        assert (ev.link_id, ev.passage_id) == (new.linked.link_id, new.linked.passage_id)
    _step(workspace, redone.undo)  # and undone again from the redo's own step
    assert _count(workspace, Person) == 0


def test_create_over_an_existing_passage_leaves_it_on_undo(workspace, case_id) -> None:
    doc_id = _doc(workspace, case_id)
    other = _new(workspace, case_id, "question", "Did he go in?")
    with workspace.transaction() as s:
        first = evidence_actions.link_span(s, other, doc_id, *NAME, relation="context").value
        done = item_actions.create(s, case_id, "person", "Scot Peterson", span=(doc_id, *NAME))
    assert not done.value.linked.passage_created
    _step(workspace, done.undo)
    with workspace.transaction() as s:
        assert s.get(Passage, first.passage_id) is not None  # still the question's evidence
        assert [e.link_id for e in evidence.evidence_for(s, other)] == [first.link_id]


def test_a_bad_span_creates_nothing(workspace, case_id) -> None:
    doc_id = _doc(workspace, case_id)
    with pytest.raises(ValidationError), workspace.transaction() as s:
        item_actions.create(s, case_id, "person", "Nobody", span=(doc_id, 5, 500))
    assert _count(workspace, Person) == 0


def test_edit_undo_redo_expect_the_version_each_saved(workspace, case_id) -> None:
    pid = _new(workspace, case_id, "person", "Scot Peterson", role="Deputy",
               aliases=["Peterson"])
    with workspace.transaction() as s:
        done = item_actions.edit(s, pid, {"role": "Captain", "aliases": ["Scot"]},
                                 expected_version=1, loaded={"role": "Deputy"})
    assert done.value == 2 and done.updated == {pid} and done.kinds == {"person"}
    assert done.undo is not None and done.undo.params["expected_version"] == 2
    undone = _step(workspace, done.undo)
    with workspace.transaction() as s:
        person = s.get(Person, pid)
        assert (person.role, person.aliases, person.version) == ("Deputy", ["Peterson"], 3)
    assert undone.value == 3
    redone = _step(workspace, undone.undo)
    with workspace.transaction() as s:
        assert (s.get(Person, pid).role, s.get(Person, pid).version) == ("Captain", 4)
    assert _log(workspace)[-3:] == ["person.update"] * 3

    with workspace.transaction() as s:  # another writer saves after the redo
        items.update_item(s, pid, expected_version=4, role="Sergeant")
    with pytest.raises(ConflictError) as refused:
        _step(workspace, redone.undo)
    assert refused.value.theirs["role"] == "Sergeant"
    assert str(refused.value) == ("Person “Scot Peterson” was changed since (by another "
                                  "program); nothing was undone")
    with workspace.transaction() as s:
        assert s.get(Person, pid).role == "Sergeant"  # their save stays


def test_merged_edits_undo_to_the_first_value_expecting_the_last_version(
        workspace, case_id) -> None:
    pid = _new(workspace, case_id, "person", "Scot Peterson", role="Deputy")
    with workspace.transaction() as s:
        first = item_actions.edit(s, pid, {"role": "Cap"}, expected_version=1)
    with workspace.transaction() as s:
        second = item_actions.edit(s, pid, {"role": "Captain"}, expected_version=2)
    assert first.undo is not None and second.undo is not None
    merged = item_actions.merged_edit_undo(first.undo, second.undo)
    _step(workspace, merged)
    with workspace.transaction() as s:
        assert (s.get(Person, pid).role, s.get(Person, pid).version) == ("Deputy", 4)


def test_delete_and_restore_bring_items_links_and_references_back(workspace, case_id) -> None:
    doc_id = _doc(workspace, case_id)
    org = _new(workspace, case_id, "organization", "Broward Sheriff's Office")
    pid = _new(workspace, case_id, "person", "Scot Peterson", affiliation_id=org)
    with workspace.transaction() as s:
        link = evidence_actions.link_span(s, org, doc_id, TEXT.index("Broward"),
                                          len(TEXT) - len(" said so.")).value
        done = item_actions.delete(s, [org, pid])
    assert done.deleted == {org, pid} and done.kinds == {"organization", "person"}
    assert done.documents == {doc_id} and done.label == "delete 2 items"
    assert _count(workspace, Item) == 1  # the document
    undone = _step(workspace, done.undo)
    assert undone.created == {org, pid}
    assert _log(workspace)[-2:] == ["person.restore", "organization.restore"]
    with workspace.transaction() as s:
        assert s.get(Person, pid).affiliation_id == org
        assert [e.link_id for e in evidence.evidence_for(s, org)] == [link.link_id]
        assert [(r.kind, r.other_id) for r in relationships.list_relationships(s, pid)] == [
            ("employed by", org)]
    _step(workspace, undone.undo)  # redo: deleted again
    assert _count(workspace, Item) == 1


def test_delete_a_document_and_undo_brings_its_passages_back(workspace, case_id) -> None:
    doc_id = _doc(workspace, case_id)
    pid = _new(workspace, case_id, "person", "Scot Peterson")
    with workspace.transaction() as s:
        linked = evidence_actions.link_span(s, pid, doc_id, *NAME).value
        done = item_actions.delete(s, [doc_id])
    assert done.documents == {doc_id} and done.kinds == {"document"}
    _step(workspace, done.undo)
    with workspace.transaction() as s:
        (ev,) = evidence.evidence_for(s, pid)
        assert (ev.passage_id, ev.quote) == (linked.passage_id, "Scot Peterson")


def test_link_span_undo_then_redo_restores_the_same_link_and_passage(
        workspace, case_id) -> None:
    doc_id = _doc(workspace, case_id)
    pid = _new(workspace, case_id, "person", "Scot Peterson")
    with workspace.transaction() as s:
        done = evidence_actions.link_span(s, pid, doc_id, *NAME, relation="supports")
    linked = done.value
    assert done.documents == {doc_id} and done.updated == {pid} and done.evidence
    undone = _step(workspace, done.undo)
    assert (_count(workspace, EvidenceLink), _count(workspace, Passage)) == (0, 0)
    _step(workspace, undone.undo)
    with workspace.transaction() as s:
        (ev,) = evidence.evidence_for(s, pid)
        assert (ev.link_id, ev.passage_id, ev.relation) == (
            linked.link_id, linked.passage_id, "supports")


def test_unlink_keeps_the_passage_and_undo_restores_the_link(workspace, case_id) -> None:
    doc_id = _doc(workspace, case_id)
    pid = _new(workspace, case_id, "person", "Scot Peterson")
    with workspace.transaction() as s:
        linked = evidence_actions.link_span(s, pid, doc_id, *NAME).value
        done = evidence_actions.unlink(s, linked.link_id)
    assert done.documents == {doc_id} and done.updated == {pid}
    assert (_count(workspace, EvidenceLink), _count(workspace, Passage)) == (0, 1)
    undone = _step(workspace, done.undo)
    with workspace.transaction() as s:
        assert [e.link_id for e in evidence.evidence_for(s, pid)] == [linked.link_id]
    _step(workspace, undone.undo)
    assert (_count(workspace, EvidenceLink), _count(workspace, Passage)) == (0, 1)
    assert _log(workspace)[-3:] == ["evidence.unlink", "evidence.restore", "evidence.unlink"]


def test_relation_change_undo_and_redo(workspace, case_id) -> None:
    doc_id = _doc(workspace, case_id)
    pid = _new(workspace, case_id, "person", "Scot Peterson")
    with workspace.transaction() as s:
        linked = evidence_actions.link_span(s, pid, doc_id, *NAME).value
        done = evidence_actions.set_relation(s, linked.link_id, "contradicts")
    assert done.label == "relation supports → contradicts"

    def relation() -> str:
        with workspace.transaction() as s:
            return s.get(EvidenceLink, linked.link_id).relation

    assert relation() == "contradicts"
    undone = _step(workspace, done.undo)
    assert relation() == "supports"
    _step(workspace, undone.undo)
    assert relation() == "contradicts"


def test_followup_status_change_undo_and_redo_are_dated_in_the_history(
        workspace, case_id) -> None:
    day = date(2018, 2, 23)
    with workspace.transaction() as s:
        qid = questions.create_question(s, case_id, "Call the sheriff", on=day).id
        done = followup_actions.set_status(s, qid, "waiting", on=day)
    assert done.updated == {qid} and done.kinds == {"question"}
    undone = _step(workspace, done.undo)
    _step(workspace, undone.undo)
    with workspace.transaction() as s:
        assert s.get(Question, qid).status == "waiting"
        history = questions.status_history(s, qid)
    assert [(h.previous, h.status, h.on) for h in history] == [
        (None, "open", "2018-02-23"), ("open", "waiting", "2018-02-23"),
        ("waiting", "open", "2018-02-23"), ("open", "waiting", "2018-02-23")]


def test_marking_answered_then_undo_clears_the_answer_date(workspace, case_id) -> None:
    with workspace.transaction() as s:
        qid = questions.create_question(s, case_id, "Call the sheriff").id
        done = followup_actions.set_status(s, qid, "answered", on=date(2018, 3, 1))
    with workspace.transaction() as s:
        assert s.get(Question, qid).answered_at == date(2018, 3, 1)
    _step(workspace, done.undo)
    with workspace.transaction() as s:
        q = s.get(Question, qid)
        assert (q.status, q.answered_at) == ("open", None)


def test_answer_from_a_span_undo_and_redo_name_the_same_passage(workspace, case_id) -> None:
    doc_id = _doc(workspace, case_id)
    day = date(2018, 3, 2)
    with workspace.transaction() as s:
        qid = questions.create_question(s, case_id, "Who stayed outside?").id
        done = followup_actions.answer(s, qid, "The deputy.", on=day, span=(doc_id, *NAME))
    passage_id = done.value
    assert isinstance(passage_id, int) and done.documents == {doc_id}
    undone = _step(workspace, done.undo)
    with workspace.transaction() as s:
        q = s.get(Question, qid)
        assert (q.status, q.answer, q.answered_at, q.answered_by_passage_id) == (
            "open", None, None, None)
        assert s.get(Passage, passage_id) is not None
    _step(workspace, undone.undo)
    with workspace.transaction() as s:
        q = s.get(Question, qid)
        assert (q.status, q.answer, q.answered_at, q.answered_by_passage_id,
                q.answered_by_document_id) == ("answered", "The deputy.", day, passage_id,
                                               doc_id)


def test_claim_override_undo_clears_it_and_clearing_undo_brings_the_reason_back(
        workspace, case_id) -> None:
    cid = _new(workspace, case_id, "claim", "He stayed outside")
    with workspace.transaction() as s:
        done = claim_actions.set_override(s, cid, "false", "Video shows otherwise")
    assert done.updated == {cid} and done.kinds == {"claim"}

    def assessed() -> tuple[str, str | None]:
        with workspace.transaction() as s:
            a = claims.assess_claim(s, cid)
            return a.status, a.reason

    assert assessed() == ("false", "Video shows otherwise")
    undone = _step(workspace, done.undo)
    assert assessed() == ("unverified", None)
    _step(workspace, undone.undo)
    assert assessed() == ("false", "Video shows otherwise")
    with workspace.transaction() as s:
        cleared = claim_actions.set_override(s, cid, None)
    assert assessed() == ("unverified", None)
    _step(workspace, cleared.undo)
    assert assessed() == ("false", "Video shows otherwise")


def test_relationship_add_and_remove_undo_and_redo_keep_the_id(workspace, case_id) -> None:
    org = _new(workspace, case_id, "organization", "Broward Sheriff's Office")
    pid = _new(workspace, case_id, "person", "Scot Peterson")
    with workspace.transaction() as s:
        added = relationship_actions.add(s, pid, org, "reports to")
    rel_id = added.value
    assert added.updated == {pid, org} and added.kinds == {"person", "organization"}
    undone = _step(workspace, added.undo)
    assert _count(workspace, Relationship) == 0
    _step(workspace, undone.undo)
    with workspace.transaction() as s:
        assert [(r.id, r.kind) for r in relationships.list_relationships(s, pid)] == [
            (rel_id, "reports to")]
        removed = relationship_actions.remove(s, rel_id)
    assert _count(workspace, Relationship) == 0
    back = _step(workspace, removed.undo)
    with workspace.transaction() as s:
        assert [r.id for r in relationships.list_relationships(s, pid)] == [rel_id]
    _step(workspace, back.undo)
    assert _count(workspace, Relationship) == 0
    assert "relationship.restore" in _log(workspace)
