"""The undo commands as the window pushes them: the first redo is one service action, every
undo and redo after it the Step the previous run returned; each run announces the Changes the
service returned, and rows come back under the same ids."""

from __future__ import annotations

from datetime import date

import pytest
from PySide6.QtGui import QUndoStack

from casefile.services import items, questions
from casefile.services.relationships import list_relationships
from casefile.store import EvidenceLink, Item, Passage, Person, Question
from casefile.ui.followups_view import AnswerCommand, AnswerSpan
from casefile.ui.operations import OperationRunner
from casefile.ui.relationships import RelationshipsPanel
from casefile.ui.undo import CreateItemCommand, EditItemCommand, LinkSpanCommand
from tests.ui.helpers import add_text_document, make_case

TEXT = "Deputy Scot Peterson stayed outside."
NAME = (TEXT.index("Scot Peterson"), TEXT.index("Scot Peterson") + len("Scot Peterson"))


@pytest.fixture
def runner(ui_workspace, qtbot):
    r = OperationRunner(ui_workspace)
    r.announced = []  # type: ignore[attr-defined]
    r.refusals = []  # type: ignore[attr-defined]
    r.case_changed.connect(r.announced.append)  # type: ignore[attr-defined]
    r.operation_failed.connect(r.refusals.append)  # type: ignore[attr-defined]
    return r


def test_create_from_a_selection_undo_redo_keep_the_ids(ui_workspace, runner) -> None:
    cid = make_case(ui_workspace)
    doc = add_text_document(ui_workspace, cid, TEXT)
    stack = QUndoStack()
    command = CreateItemCommand(runner, cid, "person", "Scot Peterson", {"role": "Deputy"},
                                span=(doc, *NAME))
    stack.push(command)
    assert not command.failed and command.item_id is not None and command.linked is not None
    pid, link = command.item_id, command.linked
    (done,) = runner.announced
    assert done.created == {pid} and done.documents == {doc} and done.evidence
    assert "Scot Peterson" in done.message

    stack.undo()
    with ui_workspace.transaction() as s:
        assert s.get(Item, pid) is None and s.get(Passage, link.passage_id) is None
    assert runner.announced[-1].deleted == {pid}
    stack.redo()
    with ui_workspace.transaction() as s:
        assert s.get(Person, pid).role == "Deputy"
        assert s.get(EvidenceLink, link.link_id).passage_id == link.passage_id
    stack.undo()
    stack.redo()
    assert command.item_id == pid and len(runner.announced) == 5 and runner.refusals == []


def test_consecutive_edits_merge_into_one_step_that_undoes_to_the_first_value(
        ui_workspace, runner) -> None:
    cid = make_case(ui_workspace)
    with ui_workspace.transaction() as s:
        pid = items.create_item(s, cid, "person", "Scot Peterson", role="Deputy").id
    stack = QUndoStack()
    first = EditItemCommand(runner, cid, pid, "person", {"role": "Deputy"}, {"role": "Cap"},
                            expected_version=1, label="Edit role")
    stack.push(first)
    second = EditItemCommand(runner, cid, pid, "person", {"role": "Cap"},
                             {"role": "Captain"}, expected_version=2, label="Edit role")
    stack.push(second)
    assert stack.count() == 1 and first.version == 3 and second.version == 3

    def stored() -> tuple[str, int]:
        with ui_workspace.transaction() as s:
            person = s.get(Person, pid)
            return person.role, person.version

    stack.undo()
    assert stored() == ("Deputy", 4)
    stack.redo()
    assert stored() == ("Captain", 5)
    with ui_workspace.transaction() as s:  # another writer saves: the undo is refused
        items.update_item(s, pid, role="Sergeant")
    stack.undo()
    assert stored() == ("Sergeant", 6) and stack.count() == 0
    assert len(runner.refusals) == 1 and "Scot Peterson" in runner.refusals[0]


def test_a_conflict_on_the_first_save_is_left_to_the_caller(ui_workspace, runner) -> None:
    cid = make_case(ui_workspace)
    with ui_workspace.transaction() as s:
        pid = items.create_item(s, cid, "person", "Scot Peterson", role="Deputy").id
        items.update_item(s, pid, role="Sergeant")  # someone saved: version 2
    stack = QUndoStack()
    command = EditItemCommand(runner, cid, pid, "person", {"role": "Deputy"},
                              {"role": "Captain"}, expected_version=1, label="Edit role",
                              handles_conflicts=True)
    stack.push(command)
    assert command.failed and command.conflict is not None
    assert command.conflict.theirs["role"] == "Sergeant" and runner.refusals == []
    mine = command.over(command.conflict)
    stack.push(mine)
    assert not mine.failed and mine.version == 3
    stack.undo()
    with ui_workspace.transaction() as s:
        assert s.get(Person, pid).role == "Sergeant"  # theirs back, not "Deputy"


def test_a_refused_link_leaves_the_stack_with_one_message(ui_workspace, runner) -> None:
    cid = make_case(ui_workspace)
    doc = add_text_document(ui_workspace, cid, TEXT)
    with ui_workspace.transaction() as s:
        pid = items.create_item(s, cid, "person", "Scot Peterson").id
    stack = QUndoStack()
    command = LinkSpanCommand(runner, cid, pid, "person", doc, 7, 500, "supports", "Link")
    stack.push(command)
    assert command.failed and stack.count() == 0 and command.linked is None
    assert len(runner.refusals) == 1 and runner.announced == []


def test_answer_from_a_selection_undo_and_redo_name_the_same_passage(
        ui_workspace, runner) -> None:
    cid = make_case(ui_workspace)
    doc = add_text_document(ui_workspace, cid, TEXT)
    with ui_workspace.transaction() as s:
        qid = questions.create_question(s, cid, "Who stayed outside?").id
    stack = QUndoStack()
    command = AnswerCommand(runner, cid, qid, "The deputy.", date(2018, 3, 2),
                            span=AnswerSpan(doc, *NAME))
    stack.push(command)
    assert not command.failed and command.passage_id is not None
    passage_id = command.passage_id

    def answer() -> tuple[str, int | None]:
        with ui_workspace.transaction() as s:
            q = s.get(Question, qid)
            return q.status, q.answered_by_passage_id

    assert answer() == ("answered", passage_id)
    stack.undo()
    assert answer() == ("open", None)
    stack.redo()
    assert answer() == ("answered", passage_id)


def test_relationships_panel_with_an_undo_stack_makes_add_and_remove_undoable(
        ui_workspace, runner, qtbot) -> None:
    cid = make_case(ui_workspace)
    with ui_workspace.transaction() as s:
        org = items.create_item(s, cid, "organization", "Harlan County Board").id
        pid = items.create_item(s, cid, "person", "Dale Ruck").id
    stack = QUndoStack()
    panel = RelationshipsPanel(runner, lambda kinds: [], undo_stack=stack)
    qtbot.addWidget(panel)
    panel.load(pid, cid, "Dale Ruck")
    assert panel.add("reports to", org)
    assert panel.labels() == ["reports to → Harlan County Board"]
    with ui_workspace.transaction() as s:
        (rel,) = list_relationships(s, pid)
    stack.undo()
    assert panel.labels() == []
    stack.redo()
    assert panel.labels() == ["reports to → Harlan County Board"]
    panel.list.setCurrentRow(0)
    panel.remove_selected()
    assert panel.labels() == [] and stack.count() == 2
    stack.undo()
    with ui_workspace.transaction() as s:
        assert [r.id for r in list_relationships(s, pid)] == [rel.id]
    assert panel.labels() == ["reports to → Harlan County Board"]
