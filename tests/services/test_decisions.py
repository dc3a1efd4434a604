"""The reporter's decisions on suggestions: list, accept, accept as, merge, reject.

Stories are invented; each test stores documents, runs the suggestion step as an import would
(rules mode unless said otherwise, so no language model is needed), then decides through the
services and checks what the reporter would see: items, their evidence, what stays pending.
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from casefile.errors import NotFoundError, ValidationError
from casefile.extract import model_available
from casefile.ingest import ingest_bytes
from casefile.services import cases, decisions, documents, evidence, items
from casefile.services.suggestions import pending_suggestions, suggest_for_document
from casefile.store import ChangeLog, Document, Event, Mention, Person, Question

STORY = (
    "Harbor Police Chief Nadia Ferreira said Tuesday that the department's review of the crash "
    "is expected to be released within a week. Ferreira declined to say whether Officer Tom "
    "Becker had been disciplined. Becker, 41, did not respond to a request for comment. "
    "It is unclear whether the city will pay for the repairs. Sen. Maria Ortiz, D-Ore., called "
    "for an inquiry."
)
PUBLISHED = "2024-03-08"


def add_document(ws, case_id: int, text: str, name: str = "story.txt",
                 published: str | None = PUBLISHED) -> int:
    """Store ``text`` as a document of the case (step one of an import); returns its id."""
    raw = text.encode("utf-8")
    with ws.transaction() as s:
        return documents.store_document(s, case_id, raw, ingest_bytes(raw, name),
                                        published=published).document_id


def import_text(ws, case_id: int, text: str, name: str = "story.txt", mode: str = "rules",
                published: str | None = PUBLISHED) -> int:
    """Both steps of an import: the document, then its suggestions; returns the document id."""
    doc_id = add_document(ws, case_id, text, name, published)
    with ws.transaction() as s:
        suggest_for_document(s, doc_id, mode=mode)  # type: ignore[arg-type]
    return doc_id


def listing(ws, case_id: int) -> decisions.SuggestionList:
    with ws.transaction() as s:
        return decisions.list_suggestions(s, case_id)


def names(listed: decisions.SuggestionList, kind: str) -> list[str]:
    return [e.name for e in listed.by_kind.get(kind, [])]


def last_actions(ws, n: int) -> list[str]:
    with ws.transaction() as s:
        rows = list(s.scalars(select(ChangeLog.action).order_by(ChangeLog.id.desc()).limit(n)))
    return rows[::-1]


def test_suggestions_are_listed_once_per_name_by_kind_with_counts_and_a_snippet(
        workspace, case_id) -> None:
    doc_id = import_text(workspace, case_id, STORY)
    listed = listing(workspace, case_id)

    assert list(listed.by_kind)[:2] == ["person", "organization"]
    assert names(listed, "person") == ["Nadia Ferreira", "Tom Becker", "Maria Ortiz"]
    assert listed.counts["person"] == 3
    assert listed.total == sum(listed.counts.values())
    ferreira = listed.find("person", "Nadia Ferreira")
    assert ferreira is not None
    assert (ferreira.mentions, ferreira.documents, ferreira.document_id) == (2, 1, doc_id)
    assert (ferreira.role, ferreira.affiliation) == ("Police Chief", "Harbor Police Department")
    # the snippet is the sentence, with the mention marked inside it
    assert ferreira.snippet.startswith("Harbor Police Chief Nadia Ferreira said Tuesday")
    assert ferreira.snippet.endswith("released within a week.")
    h0, h1 = ferreira.highlight
    assert ferreira.snippet[h0:h1] == "Nadia Ferreira"
    with workspace.transaction() as s:
        # one entry for two stored mentions
        assert len([m for m in pending_suggestions(s, case_id, "person")
                    if m.name == "Nadia Ferreira"]) == 2
    followups = listed.by_kind["question"]
    assert {(e.question_kind, e.detail.get("due")) for e in followups} >= {
        ("expected record", "2024-03-15"), ("question", None)}


def test_accept_person_makes_the_person_with_role_affiliation_and_mention_evidence(
        workspace, case_id) -> None:
    doc_id = import_text(workspace, case_id, STORY)
    with workspace.transaction() as s:
        before = s.scalar(select(ChangeLog.id).order_by(ChangeLog.id.desc()).limit(1))
        got = decisions.accept_suggestion(s, case_id, "person", "Nadia Ferreira")
        person_id = got.item_id
    assert got.created and got.mentions == 2
    assert got.links == 3  # her two mentions, and the organization's own mention
    assert person_id is not None
    with workspace.transaction() as s:
        person = s.get(Person, person_id)
        assert person is not None
        assert (person.name, person.role) == ("Nadia Ferreira", "Police Chief")
        assert person.affiliation is not None
        assert person.affiliation.name == "Harbor Police Department"
        assert person.affiliation.org_kind == "law enforcement agency"
        assert got.created_ids == [person.affiliation.id, person_id]
        rows = evidence.evidence_for(s, person_id)
        assert [(r.relation, r.quote, r.document_id) for r in rows] == [
            ("mentions", "Nadia Ferreira", doc_id), ("mentions", "Ferreira", doc_id)]
        mentions = list(s.scalars(select(Mention).where(Mention.name == "Nadia Ferreira")))
        assert {(m.status, m.item_id) for m in mentions} == {("confirmed", person_id)}
        actions = list(s.scalars(select(ChangeLog.action).where(ChangeLog.id > before)))
        assert actions[-1] == "suggestion.accept"
    listed = listing(workspace, case_id)
    assert "Nadia Ferreira" not in names(listed, "person")
    # the organization suggestion was taken over by the affiliation, not left to be made twice
    assert "Harbor Police Department" not in names(listed, "organization")


def test_affiliation_is_found_by_alias_instead_of_made_again(workspace, case_id) -> None:
    import_text(workspace, case_id, STORY)
    with workspace.transaction() as s:
        org = items.create_item(s, case_id, "organization", "Harbor City Police",
                                aliases=["Harbor Police Department"])
        org_id = org.id
        got = decisions.accept_suggestion(s, case_id, "person", "Nadia Ferreira")
        person = s.get(Person, got.item_id)
        assert person is not None and person.affiliation_id == org_id
        assert [o.title for o in items.list_items(s, case_id, "organization")] == [
            "Harbor City Police"]


def test_accept_event_and_followups_with_dates_and_their_sentences(workspace, case_id) -> None:
    text = ("The council voted on Feb. 12 to close the pier. The audit is expected to be "
            "released within a week. It is unclear whether the mayor knew.")
    doc_id = import_text(workspace, case_id, text)
    listed = listing(workspace, case_id)
    event = listed.by_kind["event"][0]
    assert (event.detail["date"], event.detail["precision"]) == ("2024-02-12", "day")
    record = next(e for e in listed.by_kind["question"] if e.question_kind == "expected record")
    unclear = next(e for e in listed.by_kind["question"] if e.question_kind == "question")
    assert unclear.detail.get("kind") == "open question"  # the extractor's word, mapped
    with workspace.transaction() as s:
        ev = decisions.accept_suggestion(s, case_id, "event", event.name, variant=event.variant)
        rq = decisions.accept_suggestion(s, case_id, "question", record.name,
                                         variant=record.variant)
        oq = decisions.accept_suggestion(s, case_id, "question", unclear.name,
                                         variant=unclear.variant)
    with workspace.transaction() as s:
        e = s.get(Event, ev.item_id)
        assert e is not None
        assert (e.title, e.date.isoformat() if e.date else None, e.precision) == (
            "The council voted on Feb. 12 to close the pier.", "2024-02-12", "day")
        assert [(r.relation, r.quote) for r in evidence.evidence_for(s, e.id)] == [
            ("supports", "The council voted on Feb. 12 to close the pier.")]
        q = s.get(Question, rq.item_id)
        assert q is not None
        assert (q.question_kind, q.due.isoformat() if q.due else None, q.status) == (
            "expected record", "2024-03-15", "open")
        assert [(r.relation, r.document_id) for r in evidence.evidence_for(s, q.id)] == [
            ("context", doc_id)]
        o = s.get(Question, oq.item_id)
        assert o is not None and o.question_kind == "question"
        assert o.title == "It is unclear whether the mayor knew."
    assert "event" not in listing(workspace, case_id).by_kind


def test_accept_as_another_name(workspace, case_id) -> None:
    import_text(workspace, case_id, STORY)
    with workspace.transaction() as s:
        got = decisions.accept_suggestion(s, case_id, "person", "Tom Becker",
                                          title="Thomas Becker")
        person = s.get(Person, got.item_id)
        assert person is not None
        # the suggested name is kept as an alias: the next document's "Tom Becker" is his
        assert (person.name, person.role, person.aliases) == ("Thomas Becker", "Officer",
                                                              ["Tom Becker"])
        assert [r.quote for r in evidence.evidence_for(s, person.id)] == ["Tom Becker", "Becker"]
    assert "Tom Becker" not in names(listing(workspace, case_id), "person")
    with pytest.raises(ValidationError, match="empty"), workspace.transaction() as s:
        decisions.accept_suggestion(s, case_id, "person", "Maria Ortiz", title="  ")


def test_merge_into_an_existing_item_adds_the_alias_and_links_the_mentions(
        workspace, case_id) -> None:
    import_text(workspace, case_id, STORY)
    with workspace.transaction() as s:  # the reporter made him by hand after the import
        target_id = items.create_item(s, case_id, "person", "Thomas J. Becker").id
        place_id = items.create_item(s, case_id, "place", "Harbor City").id
    with pytest.raises(ValidationError, match="only be merged into a person"), \
            workspace.transaction() as s:
        decisions.merge_suggestion(s, case_id, "person", "Tom Becker", place_id)
    with workspace.transaction() as s:
        got = decisions.merge_suggestion(s, case_id, "person", "Tom Becker", target_id)
    assert (got.item_id, got.created, got.mentions) == (target_id, False, 2)
    with workspace.transaction() as s:
        person = s.get(Person, target_id)
        assert person is not None
        assert (person.aliases, person.role) == (["Tom Becker"], "Officer")
        assert [r.quote for r in evidence.evidence_for(s, target_id)] == ["Tom Becker", "Becker"]
        assert len(items.list_items(s, case_id, "person")) == 1
    assert last_actions(workspace, 1) == ["suggestion.merge"]
    assert "Tom Becker" not in names(listing(workspace, case_id), "person")


def test_a_rejected_name_is_not_suggested_again_in_that_case_or_another(workspace, case_id) -> None:
    import_text(workspace, case_id, STORY)
    with workspace.transaction() as s:
        decisions.reject_suggestion(s, case_id, "person", "Maria Ortiz")
        decisions.reject_suggestion(s, case_id, "organization", "Harbor Police Department")
        statuses = set(s.scalars(select(Mention.status).where(Mention.name == "Maria Ortiz")))
    assert statuses == {"rejected"}
    assert last_actions(workspace, 1) == ["suggestion.reject"]
    listed = listing(workspace, case_id)
    assert "Maria Ortiz" not in names(listed, "person")
    with pytest.raises(NotFoundError, match="no pending person suggestion"), \
            workspace.transaction() as s:
        decisions.reject_suggestion(s, case_id, "person", "Maria Ortiz")

    import_text(workspace, case_id,
                "Sen. Maria Ortiz, D-Ore., met Harbor Police Chief Dana Whitlock on Friday.",
                name="second.txt")
    listed = listing(workspace, case_id)
    assert "Maria Ortiz" not in names(listed, "person")
    assert "Harbor Police Department" not in names(listed, "organization")
    assert "Dana Whitlock" in names(listed, "person")
    with workspace.transaction() as s:
        other_case = cases.create_case(s, "Another story").id
    # nor in another case of the workspace (tests/services/test_learning.py for more)
    import_text(workspace, other_case, "Sen. Maria Ortiz, D-Ore., spoke.", name="third.txt")
    assert "Maria Ortiz" not in names(listing(workspace, other_case), "person")


@pytest.mark.parametrize("mode", [
    "rules",
    pytest.param("auto", marks=pytest.mark.skipif(not model_available(),
                                                  reason="no spaCy model installed")),
])
@pytest.mark.parametrize("how", ["accepted", "alias"])
def test_second_import_naming_peterson_links_to_the_known_person(
        workspace, case_id, mode, how) -> None:
    if how == "accepted":
        import_text(workspace, case_id,
                    "Deputy Scot Peterson stood outside the building for four minutes.",
                    name="first.txt", mode=mode)
        with workspace.transaction() as s:
            person_id = decisions.accept_suggestion(s, case_id, "person", "Scot Peterson").item_id
        assert person_id is not None
    else:
        with workspace.transaction() as s:
            person_id = items.create_item(s, case_id, "person", "Scot Peterson",
                                          aliases=["Peterson"]).id
    second = import_text(workspace, case_id,
                         "Peterson resigned on Thursday, the sheriff said.", name="second.txt",
                         mode=mode)
    listed = listing(workspace, case_id)
    assert names(listed, "person") == []  # no new suggestion
    with workspace.transaction() as s:
        tied = list(s.scalars(select(Mention).where(Mention.document_id == second,
                                                    Mention.kind == "person")))
        assert [(m.text, m.status, m.item_id) for m in tied] == [
            ("Peterson", "confirmed", person_id)]
        rows = evidence.evidence_for(s, person_id)
        assert ("mentions", "Peterson", second) in [(r.relation, r.quote, r.document_id)
                                                    for r in rows]
        assert [p.title for p in items.list_items(s, case_id, "person")] == ["Scot Peterson"]


def test_running_suggestions_again_suggests_nothing_twice(workspace, case_id) -> None:
    doc_id = import_text(workspace, case_id, STORY)
    first = listing(workspace, case_id)
    event_or_question = first.by_kind["question"][0]
    with workspace.transaction() as s:
        decisions.accept_suggestion(s, case_id, "person", "Tom Becker")
        decisions.accept_suggestion(s, case_id, "question", event_or_question.name,
                                    variant=event_or_question.variant)
        decisions.reject_suggestion(s, case_id, "person", "Maria Ortiz")
        suggest_for_document(s, doc_id, mode="rules")
    again = listing(workspace, case_id)
    assert names(again, "person") == ["Nadia Ferreira"]
    assert len(again.by_kind["question"]) == len(first.by_kind["question"]) - 1
    with workspace.transaction() as s:
        becker = items.find_item(s, case_id, "Tom Becker", "person")
        assert len(evidence.evidence_for(s, becker.id)) == 2  # no duplicate links


def test_rules_only_mode_works_and_says_so(workspace, case_id, monkeypatch) -> None:
    """A machine without the language model: suggestions come from the rules, and the mode is
    reported by the service (the CLI prints it; the window shows it in the panel)."""
    import casefile.extract.pipeline as pipeline

    monkeypatch.setattr(pipeline, "load_pipeline", lambda model=None: None)  # no model installed
    doc_id = add_document(workspace, case_id, STORY)
    with workspace.transaction() as s:
        result = suggest_for_document(s, doc_id)  # "auto" falls back to rules
        assert result.mode == "rules"
        assert decisions.last_suggestion_mode(s, case_id) == "rules"
    assert "Nadia Ferreira" in names(listing(workspace, case_id), "person")


def test_deciding_twice_or_an_unknown_suggestion_is_a_clear_error(workspace, case_id) -> None:
    import_text(workspace, case_id, STORY)
    with workspace.transaction() as s:
        decisions.accept_suggestion(s, case_id, "person", "Tom Becker")
    with pytest.raises(NotFoundError, match="decided already"), workspace.transaction() as s:
        decisions.accept_suggestion(s, case_id, "person", "Tom Becker")
    with pytest.raises(ValidationError, match="unknown suggestion kind"), \
            workspace.transaction() as s:
        decisions.reject_suggestion(s, case_id, "robot", "R2")
    with pytest.raises(NotFoundError), workspace.transaction() as s:
        decisions.merge_suggestion(s, case_id, "person", "Maria Ortiz", 999999)


@pytest.mark.parametrize("text,span,expected", [
    ("First one. Then Lt. Ray Moss said no. Last.", "Ray Moss", "Then Lt. Ray Moss said no."),
    ("A\n\nHeadline about Dana Whitlock\n\nBody text.", "Dana Whitlock",
     "Headline about Dana Whitlock"),
])
def test_snippet_is_the_sentence(text, span, expected) -> None:
    start = text.index(span)
    snippet, (h0, h1) = decisions.context_snippet(text, start, start + len(span))
    assert snippet == expected
    assert snippet[h0:h1] == span


def test_snippet_of_a_long_sentence_is_cut_around_the_mention() -> None:
    text = ("word " * 80) + "Dana  Whitlock " + ("more " * 80) + "."
    start = text.index("Dana")
    snippet, (h0, h1) = decisions.context_snippet(text, start, start + len("Dana  Whitlock"))
    assert snippet.startswith("…") and snippet.endswith("…")
    assert snippet[h0:h1] == "Dana Whitlock"
    assert len(snippet) <= 2 * decisions.SNIPPET_WIDTH + len("Dana Whitlock") + 2


def test_the_listing_read_as_plain_rows_matches_the_mentions_stored(workspace, case_id) -> None:
    """list_suggestions reads plain rows; every suggested mention of two real
    articles is in exactly one entry, grouped by kind and name, first mention first."""
    from tests.conftest import ARTICLE, SAMPLES

    import_text(workspace, case_id, ARTICLE.read_text(encoding="utf-8"), "parkland.txt")
    other = sorted((SAMPLES / "articles").glob("*.txt"))[0]
    import_text(workspace, case_id, other.read_text(encoding="utf-8"), "other.txt")
    listed = listing(workspace, case_id)
    with workspace.transaction() as s:
        stored = list(s.scalars(select(Mention).where(
            Mention.case_id == case_id, Mention.status == "suggested",
            Mention.kind.in_(decisions.SUGGESTION_KINDS))
            .order_by(Mention.document_id, Mention.start, Mention.id)))
        docs = {m.document_id: s.get(Document, m.document_id) for m in stored}
        titles = {i: (d.title, d.text) for i, d in docs.items()}
    entries = [e for kind in listed.by_kind.values() for e in kind]
    assert sorted(i for e in entries for i in e.mention_ids) == sorted(m.id for m in stored)
    by_id = {m.id: m for m in stored}
    for e in entries:
        ms = [by_id[i] for i in e.mention_ids]
        assert {(m.kind, m.name) for m in ms} == {(e.kind, e.name)}
        first = ms[0]
        assert (e.document_id, e.start, e.end) == (first.document_id, first.start, first.end)
        title, text = titles[first.document_id]
        assert e.document_title == title
        assert e.documents == len({m.document_id for m in ms}) and e.mentions == len(ms)
        assert decisions.context_snippet(text, first.start, first.end) == (e.snippet,
                                                                            e.highlight)
    assert len({m.document_id for m in stored}) == 2 and len(entries) > 20
