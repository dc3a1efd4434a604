"""Suggestion decisions as undoable user actions, on the real Parkland article: what the status
line says, what undo takes away (every item the accept made, its passages and links) and what
redo brings back (the same rows, under the same ids); claims suggested and accepted with their
attribution."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from casefile.errors import ConflictError
from casefile.services import decisions, evidence, items
from casefile.services.changes import run_step
from casefile.store import (
    ChangeLog,
    Claim,
    EvidenceLink,
    Item,
    Mention,
    Organization,
    Passage,
    Person,
    Relationship,
)

SHERIFFS_OFFICE = "Broward County Sheriff's Office"


def counts(ws) -> dict[str, int]:
    """Rows a decision makes or changes, counted in the whole workspace."""
    with ws.transaction() as s:
        return {
            "items": s.scalar(select(func.count(Item.id))) or 0,
            "passages": s.scalar(select(func.count(Passage.id))) or 0,
            "links": s.scalar(select(func.count(EvidenceLink.id))) or 0,
            "relationships": s.scalar(select(func.count(Relationship.id))) or 0,
            "pending": s.scalar(select(func.count(Mention.id))
                                .where(Mention.status == "suggested")) or 0,
        }


def test_accept_names_everything_it_made_and_undo_redo_take_it_away_and_back(
        workspace, parkland) -> None:
    case_id, doc_id = parkland
    before = counts(workspace)
    with workspace.transaction() as s:
        done = decisions.accept(s, case_id, "person", "Scott Israel")
    decision = done.value
    assert isinstance(decision, decisions.Decision)
    org_mentions = len(decision.mention_ids) - decision.mentions
    assert org_mentions > 0  # the Sheriff's Office suggestion was taken over
    assert done.message == (
        f"Added person “Scott Israel” and organization “{SHERIFFS_OFFICE}” "
        f"({len(decision.mention_ids)} mentions as evidence).")
    assert done.created == frozenset(decision.created_ids) and len(done.created) == 2
    assert {"person", "organization"} <= done.kinds and done.suggestions and done.evidence
    after = counts(workspace)
    assert after["items"] == before["items"] + 2
    assert after["pending"] == before["pending"] - len(decision.mention_ids)
    with workspace.transaction() as s:
        israel = s.get(Person, decision.item_id)
        assert israel is not None and israel.affiliation is not None
        org_id = israel.affiliation.id
        assert israel.affiliation.title == SHERIFFS_OFFICE
        quotes = [r.quote for r in evidence.evidence_for(s, israel.id)]

    with workspace.transaction() as s:
        undone = run_step(s, done.undo)
    assert undone.message.startswith(
        f"Undid accept person “Scott Israel”: removed person “Scott Israel” and organization "
        f"“{SHERIFFS_OFFICE}”")
    assert undone.deleted == done.created
    assert counts(workspace) == before  # no item, passage, link or relationship left behind
    with workspace.transaction() as s:
        listed = decisions.list_suggestions(s, case_id)
        assert listed.find("person", "Scott Israel") is not None
        assert listed.find("organization", SHERIFFS_OFFICE) is not None
        assert s.get(Item, org_id) is None
        actions = list(s.scalars(select(ChangeLog.action).order_by(ChangeLog.id.desc())
                                 .limit(1)))
        assert actions == ["suggestion.undo"]

    assert undone.undo is not None
    with workspace.transaction() as s:
        redone = run_step(s, undone.undo)
    assert redone.message == done.message
    assert counts(workspace) == after
    with workspace.transaction() as s:
        israel = s.get(Person, decision.item_id)  # the same ids again
        assert israel is not None and israel.affiliation_id == org_id
        assert isinstance(s.get(Organization, org_id), Organization)
        assert [r.quote for r in evidence.evidence_for(s, israel.id)] == quotes
        assert {m.status for m in s.scalars(select(Mention).where(
            Mention.id.in_(decision.mention_ids)))} == {"confirmed"}
        assert decisions.list_suggestions(s, case_id).find("person", "Scott Israel") is None
    # and undo again works from the redo's Changes
    with workspace.transaction() as s:
        assert redone.undo is not None
        run_step(s, redone.undo)
    assert counts(workspace) == before


def test_undo_of_a_merge_takes_back_the_alias_role_and_links(workspace, parkland) -> None:
    case_id, _doc = parkland
    with workspace.transaction() as s:
        target_id = items.create_item(s, case_id, "person", "Deputy Scot Peterson").id
    before = counts(workspace)
    with workspace.transaction() as s:
        done = decisions.merge(s, case_id, "person", "Scot Peterson", target_id)
        person = s.get(Person, target_id)
        assert person is not None and person.aliases == ["Scot Peterson"]
        assert person.role  # the suggested role filled the empty one
    assert done.message.startswith("Merged “Scot Peterson” into person “Deputy Scot Peterson”, "
                                   "“Scot Peterson” added as an alias, role ")
    assert done.updated == frozenset({target_id}) and not done.created
    with workspace.transaction() as s:
        undone = run_step(s, done.undo)
        person = s.get(Person, target_id)
        assert person is not None and (person.aliases, person.role) == ([], None)
        assert evidence.evidence_for(s, target_id) == []
    assert counts(workspace) == before
    assert undone.undo is not None
    with workspace.transaction() as s:
        run_step(s, undone.undo)
        person = s.get(Person, target_id)
        assert person is not None and person.aliases == ["Scot Peterson"]
        assert len(evidence.evidence_for(s, target_id)) == len(done.value.mention_ids)


def test_undo_of_a_reject_makes_the_name_a_suggestion_again(workspace, parkland) -> None:
    case_id, _doc = parkland
    with workspace.transaction() as s:
        done = decisions.reject(s, case_id, "place", "Sunrise")
    assert done.message == ("Rejected place “Sunrise”; it will not be suggested again in this "
                            "or any other case.")
    with workspace.transaction() as s:
        assert decisions.list_suggestions(s, case_id).find("place", "Sunrise") is None
        undone = run_step(s, done.undo)
        assert decisions.list_suggestions(s, case_id).find("place", "Sunrise") is not None
    assert "1 mention is waiting again" in undone.message
    with workspace.transaction() as s:
        assert undone.undo is not None
        run_step(s, undone.undo)
        assert set(s.scalars(select(Mention.status).where(Mention.name == "Sunrise"))) == {
            "rejected"}


def test_redo_refuses_when_the_suggestion_was_decided_again_meanwhile(
        workspace, parkland) -> None:
    case_id, _doc = parkland
    with workspace.transaction() as s:
        done = decisions.accept(s, case_id, "place", "Parkland")
    with workspace.transaction() as s:
        undone = run_step(s, done.undo)
    with workspace.transaction() as s:
        decisions.reject(s, case_id, "place", "Parkland")
    with pytest.raises(ConflictError, match="decided again"), workspace.transaction() as s:
        assert undone.undo is not None
        run_step(s, undone.undo)


def test_claims_are_suggested_with_who_said_it_and_via_whom(workspace, parkland) -> None:
    case_id, _doc = parkland
    with workspace.transaction() as s:
        claims = decisions.list_suggestions(s, case_id).by_kind["claim"]
    assert len(claims) == 7  # "As Patterico wrote earlier today:" only introduces a quote
    goodrum = next(c for c in claims if c.name.startswith("Coral Springs City Manager Mike"))
    assert goodrum.detail["attributed_to"] is None  # he "reportedly confronted": not his words
    cnn = next(c for c in claims if c.name.startswith("According to CNN"))
    assert (cnn.detail["attributed_to"], cnn.detail["via"]) == ("CNN", "CNN")
    described = next(c for c in claims if c.name.startswith("CNN describes the emotions"))
    assert (described.detail["attributed_to"], described.detail["via"]) == ("CNN", "CNN")


def test_accepting_a_claim_stores_statement_attribution_via_and_its_passage(
        workspace, parkland) -> None:
    case_id, doc_id = parkland
    with workspace.transaction() as s:
        listed = decisions.list_suggestions(s, case_id).by_kind["claim"]
        according = next(c for c in listed if c.name.startswith("According to CNN"))
        alone = decisions.accept(s, case_id, "claim", according.name)  # CNN not in the case
        decisions.accept(s, case_id, "organization", "CNN")
        listed = decisions.list_suggestions(s, case_id).by_kind["claim"]
        cnn = next(c for c in listed if c.name.startswith("CNN describes the emotions"))
        done = decisions.accept(s, case_id, "claim", cnn.name)
    assert done.message.startswith("Added claim “CNN describes the emotions of the Coral")
    assert ("attributed to organization “CNN”, via organization “CNN” (1 mention as "
            "evidence).") in done.message
    assert ("attributed to “CNN” (no person or organization of that name in this case)"
            in alone.message)
    with workspace.transaction() as s:
        claim = s.get(Claim, done.value.item_id)
        assert claim is not None
        assert claim.statement == " ".join(cnn.name.split())
        assert claim.attributed_to_id == items.find_item(s, case_id, "CNN", "organization").id
        assert claim.via_id == items.find_item(s, case_id, "CNN", "organization").id
        assert claim.status == "single-source"  # one supporting passage
        rows = evidence.evidence_for(s, claim.id)
        assert [(r.relation, r.document_id, r.quote) for r in rows] == [
            ("supports", doc_id, cnn.name)]
        other = s.get(Claim, alone.value.item_id)
        assert other is not None
        assert (other.attributed_to_id, other.attributed_to_text) == (None, "CNN")
    with workspace.transaction() as s:
        run_step(s, done.undo)
        assert s.get(Claim, done.value.item_id) is None
        assert decisions.list_suggestions(s, case_id).find("claim", cnn.name) is not None


def test_a_claim_sources_tell_cnn_is_kept_as_unnamed_sources_via_cnn(workspace, parkland) -> None:
    case_id, _doc = parkland
    with workspace.transaction() as s:
        decisions.accept(s, case_id, "organization", "CNN")
        decisions.accept(s, case_id, "organization", "Broward County Sheriff's Office")
        told = next(c for c in decisions.list_suggestions(s, case_id).by_kind["claim"]
                    if c.name.rstrip().endswith("Coral Springs sources tell CNN."))
        assert told.detail["attributed_to"] == "unnamed Coral Springs sources"
        done = decisions.accept(s, case_id, "claim", told.name)
        claim = s.get(Claim, done.value.item_id)
        assert claim is not None
        # not the Sheriff's Office the sentence names: the unnamed sources, via CNN
        assert (claim.attributed_to_id, claim.attributed_to_text) == (
            None, "unnamed Coral Springs sources")
        assert claim.via_id == items.find_item(s, case_id, "CNN", "organization").id
    assert ("attributed to unnamed Coral Springs sources, via organization “CNN”"
            in done.message)


def test_a_suggestion_is_found_by_the_id_of_any_of_its_mentions(workspace, parkland) -> None:
    case_id, _doc = parkland
    with workspace.transaction() as s:
        entry = decisions.list_suggestions(s, case_id).find("person", "Scot Peterson")
        assert entry is not None and len(entry.mention_ids) > 1
        assert decisions.find_suggestion(s, entry.mention_ids[0], case_id).key == entry.key
        assert decisions.find_suggestion(s, entry.mention_ids[-1]).key == entry.key
        decisions.reject(s, case_id, "person", "Scot Peterson")
        with pytest.raises(decisions.NotFoundError, match="no waiting suggestion with id"):
            decisions.find_suggestion(s, entry.mention_ids[0])
