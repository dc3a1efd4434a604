"""An undo or redo never writes over what another program saved since the action: with a second
writer on the same workspace (its own Workspace object, as a second process has), the undo of
a relation change, a claim's status override, a follow-up's status, a published date, a new
item and an accepted suggestion is refused with one sentence, and the other program's value
stays."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import pytest
from sqlalchemy import select

from casefile.errors import ConflictError
from casefile.ingest.types import Ingested
from casefile.services import (
    case_actions,
    claim_actions,
    claims,
    decisions,
    documents,
    evidence_actions,
    followup_actions,
    item_actions,
    published,
    questions,
)
from casefile.services.changes import Changes, Step, run_step
from casefile.store import Case, Document, EvidenceLink, Item, Mention, Person, Question
from casefile.store.workspace import Workspace, open_workspace

TEXT = "Ada Quill signed the permit on Monday. The harbour board said so."
NAME = (TEXT.index("Ada Quill"), TEXT.index("Ada Quill") + len("Ada Quill"))


@pytest.fixture()
def other(workspace: Workspace) -> Iterator[Workspace]:
    """Another program on the same workspace."""
    second = open_workspace(db_url=workspace.url)
    yield second
    second.close()


def _refused(workspace: Workspace, step: Step | None, what: str, done: str = "undone") -> None:
    assert step is not None
    with workspace.transaction() as s, pytest.raises(ConflictError) as refused:
        run_step(s, step)
    assert str(refused.value) == (f"{what} was changed since (by another program); nothing "
                                  f"was {done}")


def _step(workspace: Workspace, step: Step | None) -> Changes:
    assert step is not None
    with workspace.transaction() as s:
        return run_step(s, step)


def _doc(workspace: Workspace, case_id: int) -> int:
    with workspace.transaction() as s:
        return documents.store_document(
            s, case_id, TEXT.encode(), Ingested(text=TEXT, mime_type="text/plain"),
            filename="permit.txt", title="Permit memo").document_id


def _new(workspace: Workspace, case_id: int, kind: str, title: str) -> int:
    with workspace.transaction() as s:
        return int(item_actions.create(s, case_id, kind, title).value.item_id)


def test_relation_undo_and_redo_keep_a_later_relation(workspace, other, case_id) -> None:
    doc_id = _doc(workspace, case_id)
    pid = _new(workspace, case_id, "person", "Ada Quill")
    with workspace.transaction() as s:
        link = evidence_actions.link_span(s, pid, doc_id, *NAME).value.link_id
        done = evidence_actions.set_relation(s, link, "contradicts")
    with other.transaction() as s:
        evidence_actions.set_relation(s, link, "context")
    _refused(workspace, done.undo, "The evidence link of Ada Quill")

    def relation() -> str:
        with workspace.transaction(write=False) as s:
            return str(s.get(EvidenceLink, link).relation)

    assert relation() == "context"
    with workspace.transaction() as s:  # undone with nobody in between; then the redo checks
        done = evidence_actions.set_relation(s, link, "mentions")
    undone = _step(workspace, done.undo)
    assert relation() == "context"
    with other.transaction() as s:
        evidence_actions.set_relation(s, link, "supports")
    _refused(workspace, undone.undo, "The evidence link of Ada Quill", "redone")
    assert relation() == "supports"


def test_claim_override_undo_keeps_a_later_override(workspace, other, case_id) -> None:
    cid = _new(workspace, case_id, "claim", "The permit was signed on Monday")
    with workspace.transaction() as s:
        done = claim_actions.set_override(s, cid, "false", "the minutes say Tuesday")
    with other.transaction() as s:
        claim_actions.set_override(s, cid, "corroborated", "two records agree")
    _refused(workspace, done.undo, "The status of “The permit was signed on Monday”")
    with workspace.transaction(write=False) as s:
        now = claims.assess_claim(s, cid)
    assert (now.status, now.reason) == ("corroborated", "two records agree")


def test_followup_status_undo_keeps_a_later_status(workspace, other, case_id) -> None:
    day = date(2024, 5, 6)
    with workspace.transaction() as s:
        qid = questions.create_question(s, case_id, "Ask the board for the minutes", on=day).id
        done = followup_actions.set_status(s, qid, "waiting", on=day)
    with other.transaction() as s:
        followup_actions.answer(s, qid, "They sent them.", on=day)
    _refused(workspace, done.undo, "The follow-up “Ask the board for the minutes”")
    with workspace.transaction(write=False) as s:
        q = s.get(Question, qid)
        assert q is not None and (q.status, q.answer) == ("answered", "They sent them.")


def test_published_date_undo_keeps_a_later_date(workspace, other, case_id) -> None:
    doc_id = _doc(workspace, case_id)
    with workspace.transaction() as s:
        done = published.set_published(s, doc_id, "2024-05-06")
    with other.transaction() as s:
        published.set_published(s, doc_id, "2024-06-01")
    _refused(workspace, done.undo, "The published date of “Permit memo”")
    with workspace.transaction(write=False) as s:
        doc = s.get(Document, doc_id)
        assert doc is not None and doc.published == date(2024, 6, 1)
    with workspace.transaction() as s:  # nobody in between: undo, then the redo checks
        done = published.set_published(s, doc_id, "2024-07-01")
    undone = _step(workspace, done.undo)
    with other.transaction() as s:
        published.set_published(s, doc_id, "2024-08-01")
    _refused(workspace, undone.undo, "The published date of “Permit memo”", "redone")


def _notes(workspace: Workspace, item_id: int) -> str | None:
    with workspace.transaction(write=False) as s:
        item = s.get(Item, item_id)
        assert item is not None, "the item is gone"
        return item.notes


def test_new_item_undo_keeps_notes_another_program_saved(workspace, other, case_id) -> None:
    with workspace.transaction() as s:
        done = item_actions.create(s, case_id, "person", "Ada Quill")
    pid = done.value.item_id
    with other.transaction() as s:
        item_actions.edit(s, pid, {"notes": "Called her office: back on Friday."})
    _refused(workspace, done.undo, "Person “Ada Quill”")
    assert _notes(workspace, pid) == "Called her office: back on Friday."

    # this program's own edit, undone first as its undo stack does, is no obstacle
    with workspace.transaction() as s:
        done = item_actions.create(s, case_id, "person", "Ben Rook")
        edited = item_actions.edit(s, done.value.item_id, {"notes": "no answer"})
    _step(workspace, edited.undo)
    _step(workspace, done.undo)
    with workspace.transaction(write=False) as s:
        assert s.get(Item, done.value.item_id) is None


def test_accept_undo_keeps_what_another_program_saved_on_the_person(
        workspace, other, parkland) -> None:
    case_id, _doc = parkland
    with workspace.transaction() as s:
        done = decisions.accept(s, case_id, "person", "Scot Peterson")
    pid = done.value.item_id
    with other.transaction() as s:
        saved = item_actions.edit(s, pid, {"notes": "Resigned; lawyer returned my call."})
    _refused(workspace, done.undo, "Person “Scot Peterson”")
    with workspace.transaction(write=False) as s:
        person = s.get(Person, pid)
        assert person is not None and person.notes == "Resigned; lawyer returned my call."
        assert {m.status for m in s.scalars(select(Mention).where(
            Mention.id.in_(done.value.mention_ids)))} == {"confirmed"}
    # the other program takes its note back: the accept can be undone again
    _step(other, saved.undo)
    undone = _step(workspace, done.undo)
    assert pid in undone.deleted
    with workspace.transaction(write=False) as s:
        assert s.get(Item, pid) is None


def test_case_title_and_summary_undo_keep_a_later_change(workspace, other, case_id) -> None:
    with workspace.transaction() as s:
        renamed = case_actions.rename(s, case_id, "Harbour permits")
        summed = case_actions.edit_summary(s, case_id, "Who signed the permit?")
    with other.transaction() as s:
        case_actions.rename(s, case_id, "Harbour permits, 2024")
        case_actions.edit_summary(s, case_id, "Who signed, and when?")
    _refused(workspace, renamed.undo, "The title of case “Harbour permits, 2024”")
    _refused(workspace, summed.undo, "The summary of case “Harbour permits, 2024”")
    with workspace.transaction(write=False) as s:
        case = s.get(Case, case_id)
        assert case is not None
        assert (case.title, case.summary) == ("Harbour permits, 2024", "Who signed, and when?")
    with workspace.transaction() as s:  # nobody in between: undone; then the redo checks
        renamed = case_actions.rename(s, case_id, "Harbour permits, final")
    undone = _step(workspace, renamed.undo)
    with other.transaction() as s:
        case_actions.rename(s, case_id, "Permits")
    _refused(workspace, undone.undo, "The title of case “Permits”", "redone")


def test_accept_undo_names_what_changed_on_an_item_it_made_alongside(
        workspace, other, parkland) -> None:
    """Accepting the sheriff also made his agency; another program then links a passage to
    the agency: undoing the accept would take that evidence with it, so it is refused, and
    the sentence says which item, what of it, and that the accept made it."""
    case_id, doc_id = parkland
    with workspace.transaction() as s:
        done = decisions.accept(s, case_id, "person", "Scott Israel")
        person = s.get(Person, done.value.item_id)
        assert person is not None and person.affiliation is not None
        agency, agency_title = person.affiliation.id, person.affiliation.title
        text = s.get(Document, doc_id).text
    start = text.index("deputies")
    with other.transaction() as s:
        evidence_actions.link_span(s, agency, doc_id, start, start + len("deputies"))
    _refused(workspace, done.undo,
             f"The evidence of organization “{agency_title}”, which accept person “Scott "
             "Israel” made,")
    with workspace.transaction(write=False) as s:
        assert s.get(Item, agency) is not None and s.get(Item, done.value.item_id) is not None
