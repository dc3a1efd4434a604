"""`casefile claims`: the sample claim's status, chain and override as a user sees them."""

from __future__ import annotations

import json
from pathlib import Path

from casefile.services import cases, claims, evidence, items, passages
from casefile.store.workspace import open_workspace
from tests.conftest import ARTICLE
from tests.e2e.cli_helpers import casefile

CASE = "Parkland claims"
STATEMENT = "Three other deputies were at the school and did not enter"
CNN_QUOTE = ("three other Broward County Sheriff\u2019s deputies were also outside the school "
             "and had not entered, Coral Springs sources tell CNN")


def test_claims_lists_status_chain_and_override(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    assert casefile(ws, "case", "new", CASE).code == 0
    run = casefile(ws, "import", str(ARTICLE), "--case", CASE, "--no-suggest", "--json")
    doc = json.loads(run.out)["files"][0]["document_id"]
    w = open_workspace(ws)
    try:
        with w.transaction() as s:
            case_id = cases.find_case(s, CASE).id
            cnn = items.create_item(s, case_id, "organization", "CNN").id
            claim = claims.create_claim(s, case_id, STATEMENT,
                                        attributed_to_text="Coral Springs sources", via_id=cnn)
            p = passages.add_passage_by_quote(s, doc, CNN_QUOTE)
            evidence.link_evidence(s, claim.id, passage_id=p.id)
            claim_id = claim.id
    finally:
        w.close()

    listed = json.loads(casefile(ws, "claims", "--case", CASE, "--json").out)
    assert [(c["statement"], c["status"], c["computed"], c["overridden"], c["attributed_to"],
             c["attributed_kind"], c["via"], c["supporting"]) for c in listed] == [
        (STATEMENT, "single-source", "single-source", False, "Coral Springs sources",
         "unnamed", "CNN", 1)]
    assert listed[0]["origins"][0]["label"] == "CNN"
    text = casefile(ws, "claims", "--case", CASE).out
    assert f"SINGLE-SOURCE  \u201c{STATEMENT}\u201d \u2190 Coral Springs sources \u2190 via CNN" \
        in text
    assert "all supporting passages come from one origin (CNN)" in text

    w = open_workspace(ws)
    try:
        with w.transaction() as s:
            claims.override_status(s, claim_id, "false", "CNN retracted the report on 2018-03-09")
    finally:
        w.close()
    [row] = json.loads(casefile(ws, "claims", "--case", CASE, "--json").out)
    assert (row["status"], row["computed"], row["reason"]) == (
        "false", "single-source", "CNN retracted the report on 2018-03-09")
    assert "set by hand: CNN retracted the report on 2018-03-09 (the evidence alone: " \
        "single-source)" in casefile(ws, "claims", "--case", CASE).out
    bad = casefile(ws, "claims", "--case", "No such case")
    assert bad.code == 1 and "Traceback" not in bad.err
