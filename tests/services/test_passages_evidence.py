"""Passages by offsets and by quote, and evidence links between passages and items."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from casefile.errors import ValidationError
from casefile.ingest.types import Ingested
from casefile.services import documents, evidence, items, passages
from casefile.services.decisions import accept_suggestion
from casefile.services.suggestions import suggest_for_document
from casefile.store import EvidenceLink, Passage

TEXT = (
    "The mayor said: \u201cWe didn\u2019t know.\u201d Later, the council\u2019s clerk said "
    "the mayor knew. \U0001F46E Officer Dee Park confirmed it."
)


def _doc(workspace, case_id, text: str = TEXT, **kw) -> int:
    with workspace.transaction() as s:
        return documents.store_document(
            s, case_id, text.encode(), Ingested(text=text, mime_type="text/plain", **kw),
            filename="note.txt",
        ).document_id


def test_passage_by_straight_quote_finds_curly_text_and_keeps_it(workspace, case_id) -> None:
    doc_id = _doc(workspace, case_id)
    with workspace.transaction() as s:
        p = passages.add_passage_by_quote(s, doc_id, "\"We didn't know.\"")
        assert p.quote == "\u201cWe didn\u2019t know.\u201d"
        assert TEXT[p.start:p.end] == p.quote


def test_passage_offsets_are_python_str_indices_after_emoji(workspace, case_id) -> None:
    doc_id = _doc(workspace, case_id)
    start = TEXT.index("Dee Park")
    with workspace.transaction() as s:
        p = passages.add_passage(s, doc_id, start, start + len("Dee Park"))
        assert p.quote == "Dee Park"


@pytest.mark.parametrize("quote", ["", "the governor", "We did know"])
def test_quote_not_in_document_is_refused(workspace, case_id, quote) -> None:
    doc_id = _doc(workspace, case_id)
    with pytest.raises(ValidationError), workspace.transaction() as s:
        passages.add_passage_by_quote(s, doc_id, quote)
    with workspace.transaction() as s:
        assert s.scalars(select(Passage)).all() == []


def test_out_of_range_span_is_refused(workspace, case_id) -> None:
    doc_id = _doc(workspace, case_id)
    for start, end in [(-1, 3), (5, 5), (10, len(TEXT) + 1)]:
        with pytest.raises(ValidationError), workspace.transaction() as s:
            passages.add_passage(s, doc_id, start, end)


def test_second_occurrence_and_page_of_paged_document(workspace, case_id) -> None:
    text = "page one: the mayor\npage two: the mayor\npage three: the mayor"
    doc_id = _doc(workspace, case_id, text, page_starts=[0, 20, 40])
    with workspace.transaction() as s:
        pages = [passages.add_passage_by_quote(s, doc_id, "the mayor", occurrence=n).page
                 for n in (1, 2, 3)]
    assert pages == [1, 2, 3]


def test_link_evidence_shows_in_the_evidence_view_with_source_details(workspace, case_id) -> None:
    doc_id = _doc(workspace, case_id, outlet="Harbor Gazette", published="2024-05-02")
    with workspace.transaction() as s:
        person = items.create_item(s, case_id, "person", "Dee Park", role="Officer")
        p = passages.add_passage_by_quote(s, doc_id, "Officer Dee Park confirmed it.")
        evidence.link_evidence(s, person.id, passage_id=p.id, relation="supports")
        evidence.link_evidence(s, person.id, document_id=doc_id, relation="mentions")
        pid = person.id
    with workspace.transaction() as s:
        views = evidence.evidence_for(s, pid)
    assert [(v.relation, v.quote) for v in views] == [
        ("mentions", None), ("supports", "Officer Dee Park confirmed it."),
    ]
    assert {v.outlet for v in views} == {"Harbor Gazette"}
    assert {v.published for v in views} == {"2024-05-02"}


@pytest.mark.parametrize("relation", ["supports", "contradicts", "mentions", "context"])
def test_each_relation_can_be_linked_and_unlinked(workspace, case_id, relation) -> None:
    doc_id = _doc(workspace, case_id)
    with workspace.transaction() as s:
        claim = items.create_item(s, case_id, "claim", "The mayor knew",
                                  statement="The mayor knew")
        p = passages.add_passage_by_quote(s, doc_id, "the mayor knew")
        link = evidence.link_evidence(s, claim.id, passage_id=p.id, relation=relation)
        link_id, claim_id = link.id, claim.id
    with workspace.transaction() as s:
        assert [v.relation for v in evidence.evidence_for(s, claim_id)] == [relation]
        evidence.unlink_evidence(s, link_id)
    with workspace.transaction() as s:
        assert evidence.evidence_for(s, claim_id) == []
        assert s.scalars(select(EvidenceLink)).all() == []
        assert len(s.scalars(select(Passage)).all()) == 1


def test_unknown_relation_is_refused(workspace, case_id) -> None:
    doc_id = _doc(workspace, case_id)
    with pytest.raises(ValidationError, match="relation"), workspace.transaction() as s:
        person = items.create_item(s, case_id, "person", "Dee Park")
        evidence.link_evidence(s, person.id, document_id=doc_id, relation="proves")


def test_deleting_a_document_removes_its_passages_and_links(workspace, case_id) -> None:
    doc_id = _doc(workspace, case_id)
    with workspace.transaction() as s:
        person = items.create_item(s, case_id, "person", "Dee Park")
        p = passages.add_passage_by_quote(s, doc_id, "Dee Park")
        evidence.link_evidence(s, person.id, passage_id=p.id)
        pid = person.id
    with workspace.transaction() as s:
        items.delete_item(s, doc_id)
    with workspace.transaction() as s:
        assert evidence.evidence_for(s, pid) == []
        assert s.scalars(select(Passage)).all() == []


NAMED = ("Officer Dee Park spoke first. Later, Park said \u201cwe waited\u201d. Nobody else did. "
         "officer d. park signed the log; DEE PARK left at noon.")


def test_evidence_groups_fold_the_bare_name_and_keep_quotes_first(workspace, case_id) -> None:
    doc_id = _doc(workspace, case_id, NAMED, outlet="Harbor Gazette", published="2024-05-02")
    other = _doc(workspace, case_id, "A second memo. Dee Park agreed.", published="2024-05-01")
    with workspace.transaction() as s:
        person = items.create_item(s, case_id, "person", "Dee Park", aliases=["D. Park"])
        pid = person.id

        def link(doc: int, quote: str, relation: str, occurrence: int = 1) -> int:
            p = passages.add_passage_by_quote(s, doc, quote, occurrence=occurrence)
            return evidence.link_evidence(s, pid, passage_id=p.id, relation=relation).id

        # the name, an alias in another case and spelling, and the title in capitals
        names = [link(doc_id, "Dee Park", "mentions"), link(doc_id, "d. park", "mentions"),
                 link(doc_id, "DEE PARK", "mentions"), link(other, "Dee Park", "mentions")]
        said = link(doc_id, "Later, Park said \u201cwe waited\u201d.", "supports")
        surname = link(doc_id, "Park", "mentions", occurrence=2)  # a reporter's own pick
        sentence = link(doc_id, "Nobody else did.", "mentions")  # a longer passage
        whole = evidence.link_evidence(s, pid, document_id=other, relation="context").id
    with workspace.transaction() as s:
        groups = evidence.evidence_groups(s, pid)
    # quotes in evidence_for order (document date, then position): the earlier memo first
    assert [v.link_id for v in groups.quotes] == [whole, said, surname, sentence]
    assert all(not v.mention and v.context is None for v in groups.quotes)
    assert [(f.document_id, [m.link_id for m in f.mentions]) for f in groups.folds] == [
        (other, [names[3]]), (doc_id, names[:3])]
    assert [v.link_id for v in groups.links] == [
        whole, said, surname, sentence, names[3], *names[:3]]
    for fold in groups.folds:
        for m in fold.mentions:
            assert m.mention and m.context is not None and m.context_span is not None
            a, b = m.context_span
            assert m.context[a:b] == m.quote
    first = groups.folds[1].mentions[0]
    assert first.context == "Officer Dee Park spoke first."  # the sentence around it
    assert groups.mention_count == 4
    assert groups.summary() == (
        "3 quotes, 1 whole document, mentioned 4 times in 2 documents")


def test_a_mention_tied_to_the_item_is_the_bare_name_even_by_surname(workspace, case_id) -> None:
    text = ("Officer Tom Becker had been disciplined, the chief said. Becker, 41, did not "
            "respond to a request for comment.")
    doc_id = _doc(workspace, case_id, text)
    with workspace.transaction() as s:
        suggest_for_document(s, doc_id, mode="rules")
    with workspace.transaction() as s:
        pid = accept_suggestion(s, case_id, "person", "Tom Becker").item_id
        assert pid is not None
    with workspace.transaction() as s:
        groups = evidence.evidence_groups(s, pid)
    assert groups.quotes == ()
    (fold,) = groups.folds
    assert [m.quote for m in fold.mentions] == ["Tom Becker", "Becker"]
    assert fold.mentions[1].context == "Becker, 41, did not respond to a request for comment."
    assert groups.summary() == "mentioned 2 times in 1 document"


def test_an_organization_or_place_alias_is_the_bare_name_too(workspace, case_id) -> None:
    text = "The Port Authority met on Monday. The PA said little. The Point flooded again."
    doc_id = _doc(workspace, case_id, text)
    with workspace.transaction() as s:
        org = items.create_item(s, case_id, "organization", "Port Authority", aliases=["PA"]).id
        place = items.create_item(s, case_id, "place", "Harbor Point", aliases=["the Point"]).id
        claim = items.create_item(s, case_id, "claim", "The authority was silent").id
        for item, quote in ((org, "PA"), (place, "The Point"), (claim, "The PA said little.")):
            p = passages.add_passage_by_quote(s, doc_id, quote)
            evidence.link_evidence(s, item, passage_id=p.id, relation="mentions")
    with workspace.transaction() as s:
        views = evidence.evidence_for_items(s, [org, place, claim])
    assert [(v.quote, v.mention, v.context) for v in views[org]] == [
        ("PA", True, "The PA said little.")]
    assert [(v.quote, v.mention, v.context) for v in views[place]] == [
        ("The Point", True, "The Point flooded again.")]
    # a longer passage is a quote, whatever the relation
    assert [(v.mention, v.context) for v in views[claim]] == [(False, None)]


def test_an_item_without_evidence_says_so(workspace, case_id) -> None:
    with workspace.transaction() as s:
        pid = items.create_item(s, case_id, "person", "Nobody Yet").id
        groups = evidence.evidence_groups(s, pid)
    assert (groups.quotes, groups.folds, groups.summary()) == ((), (), "no evidence yet")
