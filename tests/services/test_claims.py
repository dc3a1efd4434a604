"""Claims: the status Casefile proposes from the evidence on the sample
article, independence of sources, overrides with reasons, and the attribution chain."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from casefile.errors import ValidationError
from casefile.ingest.types import Ingested
from casefile.services import claims, documents, evidence, items, passages
from tests.conftest import ARTICLE

STATEMENT = "Three other deputies were at the school and did not enter"
LEDE = ("three other Broward County Sheriff\u2019s deputies were at Marjory Stoneman Douglas "
        "High School during the February 14 shooting, but did not enter")
CNN_QUOTE = ("three other Broward County Sheriff\u2019s deputies were also outside the school "
             "and had not entered, Coral Springs sources tell CNN")
NOTES = (
    "Call with a Coral Springs police sergeant, 2018-02-24, 14:10.\n\n"
    "He says he saw three Broward deputies behind their cars with pistols drawn when he got "
    "there, and none of them went into the building while he was outside.\n"
)


def _support(s, claim_id: int, doc_id: int, quote: str, relation: str = "supports",
             note: str | None = None) -> int:
    p = passages.add_passage_by_quote(s, doc_id, quote)
    return evidence.link_evidence(s, claim_id, passage_id=p.id, relation=relation,
                                  note=note).id


def _note_doc(s, case_id: int, text: str, title: str, **meta: str) -> int:
    ingested = Ingested(text=text, title=title, kind="note", mime_type="text/plain", **meta)
    return documents.store_document(s, case_id, text.encode(), ingested).document_id


@pytest.fixture
def sample(workspace, case_id) -> dict[str, int]:
    """The sample article imported, CNN as an outlet, and the claim supported by two of the
    article's passages (the lede, and the paragraph citing CNN)."""
    with workspace.transaction() as s:
        doc = documents.import_file(s, case_id, ARTICLE, published="2018-02-23").document_id
        cnn = items.create_item(s, case_id, "organization", "CNN", org_kind="news outlet").id
        claim = claims.create_claim(s, case_id, STATEMENT,
                                    attributed_to_text="Coral Springs sources", via_id=cnn)
        _support(s, claim.id, doc, LEDE)
        _support(s, claim.id, doc, CNN_QUOTE)
        return {"doc": doc, "cnn": cnn, "claim": claim.id, "case": case_id}


def _status(workspace, claim_id: int) -> tuple[str, str]:
    with workspace.transaction() as s:
        assessment = claims.assess_claim(s, claim_id)
        stored = items.get_item(s, claim_id).status  # type: ignore[attr-defined]
    return assessment.status, stored


def test_passages_of_the_sample_article_only_are_single_source(workspace, sample) -> None:
    assert _status(workspace, sample["claim"]) == ("single-source", "single-source")
    with workspace.transaction() as s:
        a = claims.assess_claim(s, sample["claim"])
    assert a.supporting == 2 and len(a.origins) == 1
    assert a.origins[0].label == "CNN" and a.origins[0].document_ids == (sample["doc"],)
    assert "one origin (CNN)" in a.explanation


def test_unverified_without_supporting_passages(workspace, case_id) -> None:
    with workspace.transaction() as s:
        c = claims.create_claim(s, case_id, STATEMENT)
        doc = _note_doc(s, case_id, NOTES, "Interview notes")
        _support(s, c.id, doc, "three Broward deputies", relation="mentions")
        assert claims.assess_claim(s, c.id).status == "unverified"


def test_an_independent_document_corroborates(workspace, sample) -> None:
    with workspace.transaction() as s:
        notes = _note_doc(s, sample["case"], NOTES, "Interview notes, Coral Springs sergeant")
        _support(s, sample["claim"], notes, "three Broward deputies behind their cars")
    assert _status(workspace, sample["claim"]) == ("corroborated", "corroborated")
    with workspace.transaction() as s:
        a = claims.assess_claim(s, sample["claim"])
    assert sorted(o.label for o in a.origins) == ["CNN", "Interview notes, Coral Springs sergeant"]


def test_the_same_article_under_another_name_does_not_corroborate(
    workspace, sample, tmp_path: Path
) -> None:
    # the same bytes under another file name: the import finds the document it already has
    same = tmp_path / "deputies-outside-copy.txt"
    shutil.copyfile(ARTICLE, same)
    # one newline more: other bytes, so a second document, but the same text
    newline = tmp_path / "broward-deputies-stayed-outside.txt"
    newline.write_bytes(ARTICLE.read_bytes() + b"\n")
    with workspace.transaction() as s:
        again = documents.import_file(s, sample["case"], same, title="Deputies stayed outside")
        assert (again.created, again.document_id) == (False, sample["doc"])
        _support(s, sample["claim"], again.document_id, LEDE)
        copy = documents.import_file(s, sample["case"], newline,
                                     title="Broward deputies stayed outside (republished)")
        assert copy.created and copy.document_id != sample["doc"]
        _support(s, sample["claim"], copy.document_id, LEDE)
    assert _status(workspace, sample["claim"]) == ("single-source", "single-source")
    with workspace.transaction() as s:
        [origin] = claims.assess_claim(s, sample["claim"]).origins
    assert set(origin.document_ids) == {sample["doc"], copy.document_id}
    assert "same text" in origin.joined_by


def test_reworded_whitespace_and_curly_quotes_are_the_same_text(workspace, case_id) -> None:
    text = "The sheriff said \u201cnobody went in\u201d \u2014 twice.\n"
    with workspace.transaction() as s:
        c = claims.create_claim(s, case_id, "Nobody went in")
        a = _note_doc(s, case_id, text, "Wire copy")
        b = _note_doc(s, case_id, '  the SHERIFF said  "nobody went in" - twice.', "Reprint")
        _support(s, c.id, a, "nobody went in")
        _support(s, c.id, b, "nobody went in")
        assert claims.assess_claim(s, c.id).status == "single-source"


def test_same_outlet_or_relaying_the_via_outlet_is_not_independent(workspace, sample) -> None:
    with workspace.transaction() as s:
        cnn_story = _note_doc(s, sample["case"], "Deputies stayed outside, officers say.",
                              "CNN follow-up", outlet="CNN")
        _support(s, sample["claim"], cnn_story, "Deputies stayed outside")
        assert claims.assess_claim(s, sample["claim"]).status == "single-source"
        relay = _note_doc(s, sample["case"],
                          "Three deputies never went in, sources told CNN on Thursday.",
                          "Sun-Sentinel roundup", outlet="Sun-Sentinel")
        _support(s, sample["claim"], relay, "Three deputies never went in, sources told CNN")
        assert claims.assess_claim(s, sample["claim"]).status == "single-source"
        marked = _note_doc(s, sample["case"], "Three deputies did not enter the school.",
                           "Radio bulletin", outlet="WLRN")
        _support(s, sample["claim"], marked, "Three deputies did not enter", note="via CNN")
        assert claims.assess_claim(s, sample["claim"]).status == "single-source"
        own = _note_doc(s, sample["case"], "Three deputies did not enter, two officers said.",
                        "Herald", outlet="Miami Herald")
        _support(s, sample["claim"], own, "Three deputies did not enter")
        assert claims.assess_claim(s, sample["claim"]).status == "corroborated"


def test_a_contradicting_passage_disputes_and_an_override_keeps_its_reason(
    workspace, sample
) -> None:
    with workspace.transaction() as s:
        notes = _note_doc(s, sample["case"], NOTES, "Interview notes")
        _support(s, sample["claim"], notes, "three Broward deputies behind their cars")
        denial = _note_doc(s, sample["case"],
                           "A sheriff's spokesman said only one deputy was at the school.",
                           "BSO statement", outlet="Broward Sheriff's Office")
        link = _support(s, sample["claim"], denial, "only one deputy was at the school",
                        relation="contradicts")
    assert _status(workspace, sample["claim"]) == ("disputed", "disputed")

    reason = "BSO's own timeline (2018-03-01) puts four deputies outside; the denial is wrong"
    with workspace.transaction() as s:
        claims.override_status(s, sample["claim"], "corroborated", reason)
    with workspace.transaction() as s:
        a = claims.assess_claim(s, sample["claim"])
        # evidence changes leave an override alone
        evidence.unlink_evidence(s, link)
        assert claims.assess_claim(s, sample["claim"]).computed == "corroborated"
    assert (a.status, a.computed, a.overridden, a.reason) == (
        "corroborated", "disputed", True, reason)
    assert _status(workspace, sample["claim"]) == ("corroborated", "corroborated")

    with workspace.transaction() as s:
        claims.override_status(s, sample["claim"], "false", "retracted by CNN")
        assert claims.assess_claim(s, sample["claim"]).status == "false"
        after = claims.clear_override(s, sample["claim"])
    assert (after.status, after.overridden, after.reason) == ("corroborated", False, None)


def test_override_needs_a_reason_and_a_known_status(workspace, sample) -> None:
    with pytest.raises(ValidationError, match="say why"), workspace.transaction() as s:
        claims.override_status(s, sample["claim"], "false", "  ")
    with pytest.raises(ValidationError, match="status must be one of"), \
            workspace.transaction() as s:
        claims.override_status(s, sample["claim"], "probably", "hunch")
    assert _status(workspace, sample["claim"]) == ("single-source", "single-source")


def test_deleting_the_only_supporting_passage_makes_it_unverified(workspace, case_id) -> None:
    with workspace.transaction() as s:
        c = claims.create_claim(s, case_id, "Nobody went in")
        doc = _note_doc(s, case_id, "Nobody went in, he said.", "Notes")
        p = passages.add_passage_by_quote(s, doc, "Nobody went in")
        evidence.link_evidence(s, c.id, passage_id=p.id)
        assert items.get_item(s, c.id).status == "single-source"  # type: ignore[attr-defined]
        passages.delete_passage(s, p.id)
        assert items.get_item(s, c.id).status == "unverified"  # type: ignore[attr-defined]


def test_attribution_chain(workspace, sample) -> None:
    with workspace.transaction() as s:
        chain = claims.attribution_chain(s, sample["claim"])
        sheriff = items.create_item(s, sample["case"], "person", "Scott Israel",
                                    role="Sheriff").id
        named = claims.create_claim(s, sample["case"], "Deputies did everything right",
                                    attributed_to_id=sheriff)
        named_chain = claims.attribution_chain(s, named.id)
    assert (chain.statement, chain.attributed_to, chain.attributed_kind, chain.via,
            chain.via_kind) == (STATEMENT, "Coral Springs sources", "unnamed", "CNN",
                                "organization")
    assert [p.quote for p in chain.passages] == [LEDE, CNN_QUOTE]
    assert chain.as_text() == (f"\u201c{STATEMENT}\u201d \u2190 Coral Springs sources "
                               "\u2190 via CNN \u2190 2 passages")
    assert (named_chain.attributed_to, named_chain.attributed_kind, named_chain.via) == (
        "Scott Israel", "person", None)


def test_a_speaker_written_as_a_name_is_not_called_unnamed_sources(workspace, case_id) -> None:
    """A speaker the case has no item for is still a named speaker: the chain says "named"
    and the brief prints the name as written; only a description is "unnamed sources"."""
    from casefile.services.brief import build_brief_data

    with workspace.transaction() as s:
        by_name = claims.create_claim(s, case_id, "The doors were locked",
                                      attributed_to_text="Dana Whitfield")
        by_group = claims.create_claim(s, case_id, "The audit was late",
                                       attributed_to_text="county officials")
        chains = [claims.attribution_chain(s, c.id) for c in (by_name, by_group)]
        entries = {e.statement: e.attributed_to for e in build_brief_data(s, case_id).claims}
    assert [(c.attributed_to, c.attributed_kind) for c in chains] == [
        ("Dana Whitfield", "named"), ("county officials", "unnamed")]
    assert entries == {"The doors were locked": "Dana Whitfield",
                       "The audit was late": "county officials (unnamed sources)"}


def test_claims_overview_lists_disputed_first(workspace, sample) -> None:
    with workspace.transaction() as s:
        other = claims.create_claim(s, sample["case"], "The shooter had left")
        doc = _note_doc(s, sample["case"], "He had not left.", "Notes")
        _support(s, other.id, doc, "He had not left", relation="contradicts")
        rows = claims.claims_overview(s, sample["case"])
    assert [(r.statement, r.assessment.status) for r in rows] == [
        ("The shooter had left", "disputed"), (STATEMENT, "single-source")]


def test_claim_needs_a_statement_and_same_case_references(workspace, case_id) -> None:
    with pytest.raises(ValidationError), workspace.transaction() as s:
        claims.create_claim(s, case_id, "   ")
    with pytest.raises(ValidationError), workspace.transaction() as s:
        place = items.create_item(s, case_id, "place", "Parkland").id
        claims.create_claim(s, case_id, "x", via_id=place)
