"""Learning from the reporter: a name rejected in one case is not suggested again
anywhere in the workspace until the reject is undone; aliases the reporter gave (by editing an
item, by "Accept as…", by merging a suggestion) link the next documents' mentions to the item.

Each test imports documents as the window does (store, then suggestions in rules mode, so no
language model is needed), decides through the user actions, and checks what the Suggestions
panel would list and where the new mentions went.
"""

from __future__ import annotations

from sqlalchemy import select

from casefile.ingest import ingest_bytes
from casefile.services import cases, decisions, documents, evidence, item_actions, items
from casefile.services.changes import run_step
from casefile.services.suggestions import suggest_for_document
from casefile.store import Mention, Organization, Person
from tests.conftest import ARTICLE


def import_raw(ws, case_id: int, raw: bytes, name: str, published: str = "2018-02-23") -> int:
    """Both steps of an import (the document, then its suggestions); the document id."""
    with ws.transaction() as s:
        doc_id = documents.store_document(s, case_id, raw, ingest_bytes(raw, name),
                                          published=published).document_id
    with ws.transaction() as s:
        suggest_for_document(s, doc_id, mode="rules")
    return doc_id


def import_text(ws, case_id: int, text: str, name: str) -> int:
    return import_raw(ws, case_id, text.encode("utf-8"), name)


def pending(ws, case_id: int, kind: str) -> list[str]:
    """The names the Suggestions panel lists for ``kind``."""
    with ws.transaction() as s:
        return [e.name for e in decisions.list_suggestions(s, case_id, kind).by_kind.get(kind, [])]


def mentions_of(ws, doc_id: int, kind: str) -> list[tuple[str, str, int | None]]:
    """``(text, status, item id)`` of the document's mentions of ``kind``, in text order."""
    with ws.transaction() as s:
        return [(m.text, m.status, m.item_id) for m in s.scalars(
            select(Mention).where(Mention.document_id == doc_id, Mention.kind == kind)
            .order_by(Mention.start))]


def new_case(ws, title: str) -> int:
    with ws.transaction() as s:
        return cases.create_case(s, title).id


def test_a_name_rejected_in_one_case_is_not_suggested_in_another_until_undone(
        workspace, parkland) -> None:
    case_a, _doc = parkland
    with workspace.transaction() as s:
        rejected_place = decisions.reject(s, case_a, "place", "Sunrise")
        decisions.reject(s, case_a, "person", "Patterico")
    assert rejected_place.message.endswith("it will not be suggested again in this or any "
                                           "other case.")
    # the same article imported into another case of the workspace
    case_b = new_case(workspace, "Second story")
    doc_b = import_raw(workspace, case_b, ARTICLE.read_bytes(), ARTICLE.name)
    people_b, places_b = pending(workspace, case_b, "person"), pending(workspace, case_b, "place")
    assert "Patterico" not in people_b and "Sunrise" not in places_b
    assert "Aaron Feis" in people_b and "Parkland" in places_b  # the others are suggested
    assert mentions_of(workspace, doc_b, "place").count(("Sunrise", "suggested", None)) == 0

    # the reporter undoes the reject of the place: the next suggestion run offers it again
    with workspace.transaction() as s:
        undone = run_step(s, rejected_place.undo)
        suggest_for_document(s, doc_b, mode="rules")
    assert "Sunrise" in pending(workspace, case_b, "place")
    assert "Sunrise" in pending(workspace, case_a, "place")  # back in its own case too
    assert "Patterico" not in pending(workspace, case_b, "person")  # still rejected
    # redoing the reject takes it away again at the next run
    with workspace.transaction() as s:
        assert undone.undo is not None
        run_step(s, undone.undo)
        suggest_for_document(s, doc_b, mode="rules")
    assert "Sunrise" not in pending(workspace, case_b, "place")


def test_a_case_still_finds_its_own_item_whose_name_another_case_rejected(
        workspace, parkland) -> None:
    case_a, _doc = parkland
    with workspace.transaction() as s:
        decisions.reject(s, case_a, "organization", "FBI")
    case_b = new_case(workspace, "Second story")
    with workspace.transaction() as s:
        fbi = items.create_item(s, case_b, "organization", "FBI").id
    doc_b = import_text(workspace, case_b, "The FBI said on Monday that the tip had been "
                        "logged but never passed on to the field office.", "memo.txt")
    assert mentions_of(workspace, doc_b, "organization") == [("FBI", "confirmed", fbi)]
    with workspace.transaction() as s:
        assert [r.quote for r in evidence.evidence_for(s, fbi)] == ["FBI"]


STORY = ("Harbor Police Chief Nadia Ferreira said Tuesday that the department's review of the "
         "crash is expected to be released within a week. Ferreira declined to say whether "
         "Officer Tom Becker had been disciplined. Becker, 41, did not respond to a request for "
         "comment.")
FOLLOW_UP = ("Officer Tom Becker was seen near the pier on Monday. HPD said in a statement "
             "that Dee Ferreira would speak on Friday.")


def test_aliases_the_reporter_gave_link_the_next_documents_mentions(workspace, case_id) -> None:
    import_text(workspace, case_id, STORY, "first.txt")
    with workspace.transaction() as s:
        becker = decisions.accept_as(s, case_id, "person", "Tom Becker", "Thomas Becker")
        ferreira = decisions.accept(s, case_id, "person", "Nadia Ferreira").value.item_id
        # her affiliation's organization was made with her; the reporter adds its acronym and
        # her nickname by editing the items
        police = decisions.find_named_item(s, case_id, "organization",
                                           "Harbor Police Department")
        assert isinstance(police, Organization)
        item_actions.edit(s, police.id, {"aliases": ["HPD"]})
        item_actions.edit(s, ferreira, {"aliases": ["Dee Ferreira"]})
        police_id = police.id
    assert "“Tom Becker” kept as an alias" in becker.message
    becker_id = becker.value.item_id
    second = import_text(workspace, case_id, FOLLOW_UP, "second.txt")
    assert pending(workspace, case_id, "person") == []
    assert pending(workspace, case_id, "organization") == []
    assert mentions_of(workspace, second, "person") == [
        ("Tom Becker", "confirmed", becker_id), ("Dee Ferreira", "confirmed", ferreira)]
    assert mentions_of(workspace, second, "organization") == [("HPD", "confirmed", police_id)]
    with workspace.transaction() as s:
        quotes = [(r.quote, r.document_id) for r in evidence.evidence_for(s, becker_id)]
    assert ("Tom Becker", second) in quotes


def test_accept_as_an_existing_item_teaches_the_alias_and_its_undo_forgets_it(
        workspace, case_id) -> None:
    import_text(workspace, case_id, STORY, "first.txt")
    with workspace.transaction() as s:
        target = items.create_item(s, case_id, "person", "Thomas J. Becker").id
        done = decisions.accept_as(s, case_id, "person", "Tom Becker", "Thomas J. Becker")
        person = s.get(Person, target)
        assert person is not None and person.aliases == ["Tom Becker"]
    assert done.value.item_id == target and not done.created
    with workspace.transaction() as s:
        run_step(s, done.undo)
        person = s.get(Person, target)
        assert person is not None and person.aliases == []
    assert "Tom Becker" in pending(workspace, case_id, "person")


def test_a_merge_teaches_the_alias_and_its_undo_forgets_it(workspace, parkland) -> None:
    case_id, _doc = parkland
    with workspace.transaction() as s:  # the reporter's own item, under its acronym
        target = items.create_item(s, case_id, "organization", "BSO",
                                   org_kind="law enforcement agency").id
        merged = decisions.merge(s, case_id, "organization", "Broward County Sheriff's Office",
                                 target)
        org = s.get(Organization, target)
        assert org is not None and org.aliases == ["Broward County Sheriff's Office"]
    assert "added as an alias" in merged.message
    assert "Broward County Sheriff's Office" not in pending(workspace, case_id, "organization")

    # the next document's mention of that name goes to the reporter's item, not a suggestion
    text = ("The Broward County Sheriff's Office said on Friday that its review of the "
            "response would be finished in April.")
    second = import_text(workspace, case_id, text, "statement.txt")
    assert mentions_of(workspace, second, "organization") == [
        ("Broward County Sheriff's Office", "confirmed", target)]
    assert "Broward County Sheriff's Office" not in pending(workspace, case_id, "organization")

    # undoing the merge takes the alias back: the name is a suggestion again, and a later
    # document's mention of it is suggested instead of linked
    with workspace.transaction() as s:
        run_step(s, merged.undo)
        org = s.get(Organization, target)
        assert org is not None and org.aliases == []
    third = import_text(workspace, case_id, text.replace("Friday", "Monday"), "update.txt")
    assert mentions_of(workspace, third, "organization") == [
        ("Broward County Sheriff's Office", "suggested", None)]
    assert "Broward County Sheriff's Office" in pending(workspace, case_id, "organization")
