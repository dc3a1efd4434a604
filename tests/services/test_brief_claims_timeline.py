"""The brief's claims and timeline: each claim with the status its evidence gives,
its attribution chain and an override's reason; approximate dates printed as approximate."""

from __future__ import annotations

from pathlib import Path

from casefile.ingest.types import Ingested
from casefile.services import brief, claims, documents, evidence, items, passages
from tests.conftest import ARTICLE
from tests.e2e.cli_helpers import pdf_text, squash

STATEMENT = "Three other deputies were at the school and did not enter"
CNN_QUOTE = ("three other Broward County Sheriff\u2019s deputies were also outside the school "
             "and had not entered, Coral Springs sources tell CNN")
REASON = "BSO's own timeline puts four deputies outside; the spokesman's denial is wrong"


def _build(workspace, case_id) -> dict[str, int]:
    with workspace.transaction() as s:
        doc = documents.import_file(s, case_id, ARTICLE, published="2018-02-23").document_id
        cnn = items.create_item(s, case_id, "organization", "CNN", org_kind="news outlet").id
        claim = claims.create_claim(s, case_id, STATEMENT,
                                    attributed_to_text="Coral Springs sources", via_id=cnn).id
        p = passages.add_passage_by_quote(s, doc, CNN_QUOTE)
        evidence.link_evidence(s, claim, passage_id=p.id)
        text = "A sheriff's spokesman said only one deputy was at the school."
        denial = documents.store_document(
            s, case_id, text.encode(),
            Ingested(text=text, mime_type="text/plain", title="BSO statement",
                     outlet="Broward Sheriff's Office"), published="2018-02-24").document_id
        q = passages.add_passage_by_quote(s, denial, "only one deputy was at the school")
        evidence.link_evidence(s, claim, passage_id=q.id, relation="contradicts")
        sheriff = items.create_item(s, case_id, "person", "Scott Israel", role="Sheriff").id
        named = claims.create_claim(s, case_id, "Deputies did what they were trained to do",
                                    attributed_to_id=sheriff).id
        items.create_item(s, case_id, "event", "Deputies first told of gunfire",
                          date="2018-02-14", precision="approximate")
        items.create_item(s, case_id, "event", "Complaints about the shooter", date="2016-09-01",
                          end="2017-11-30", precision="month")
        items.create_item(s, case_id, "event", "Shooting", date="2018-02-14", precision="day")
    return {"claim": claim, "named": named}


def test_brief_data_has_status_chain_and_evidence(workspace, case_id) -> None:
    ids = _build(workspace, case_id)
    with workspace.transaction() as s:
        data = brief.build_brief_data(s, case_id)
    by_statement = {c.statement: c for c in data.claims}
    disputed = by_statement[STATEMENT]
    assert (disputed.status, disputed.attributed_to, disputed.via, disputed.status_reason) == (
        "disputed", "Coral Springs sources (unnamed sources)", "CNN", None)
    assert disputed.evidence == ("1 supporting passage from 1 independent origin; "
                                 "1 contradicting passage")
    assert [q.relation for q in disputed.quotes] == ["supports", "contradicts"]
    named = by_statement["Deputies did what they were trained to do"]
    assert (named.status, named.attributed_to, named.evidence) == (
        "unverified", "Scott Israel", "no supporting passage")
    assert ids["claim"] != ids["named"]


def test_printed_brief_shows_override_reason_chain_and_approximate_dates(
    workspace, case_id, tmp_path: Path
) -> None:
    ids = _build(workspace, case_id)
    with workspace.transaction() as s:
        claims.override_status(s, ids["claim"], "corroborated", REASON)
    out = tmp_path / "brief.pdf"
    with workspace.transaction() as s:
        brief.export_brief(s, case_id, out)
    text = squash(pdf_text(out))
    assert f"CORROBORATED {STATEMENT}" in text
    assert ("Attributed to: Coral Springs sources (unnamed sources) \u00b7 via: CNN" in text)
    assert (f"Status set by the reporter: {REASON} (the evidence alone: disputed)"
            in text.replace("\u2019", "'"))
    assert "Evidence: 1 supporting passage from 1 independent origin; 1 contradicting" in text
    assert "UNVERIFIED Deputies did what they were trained to do" in text
    assert "Attributed to: Scott Israel" in text
    timeline = text[text.find("Timeline"):]
    assert "~ 2018-02-14 Deputies first told of gunfire" in timeline
    assert "2018-02-14 Shooting" in timeline
    assert "2016-09 – 2017-11 Complaints about the shooter" in timeline
