"""The brief as printed from a case: exact text, embedded font, long passages, confidentiality."""

from __future__ import annotations

import shutil
import subprocess
from datetime import date
from pathlib import Path

import pytest

from casefile.ingest.types import Ingested
from casefile.services import brief, documents, evidence, items, passages
from tests.e2e.cli_helpers import pdf_text, squash

ODD = 'He wrote "<REDACTED>" & left'


def _case(workspace, case_id, long_len: int = 20_000) -> dict[str, int]:
    body = ("The fund lost 3% as the S&P 500 fell. " + ODD + ". "
            + ("Long testimony " * (long_len // 15 + 1))[:long_len] + " End.")
    with workspace.transaction() as s:
        doc = documents.store_document(
            s, case_id, body.encode(), Ingested(text=body, mime_type="text/plain",
                                                title="Testimony <draft> & notes"),
            filename="t.txt", published="2024-01-05",
        )
        person = items.create_item(s, case_id, "person", "Łódź Wałęsa", role="Treasurer")
        source = items.create_item(s, case_id, "person", "Ines Varga", role="Whistle-blower",
                                   confidential=True, aliases=["the insider"])
        for quote in ("S&P 500", ODD):
            p = passages.add_passage_by_quote(s, doc.document_id, quote)
            evidence.link_evidence(s, person.id, passage_id=p.id)
        start = body.index("Long testimony")
        p = passages.add_passage(s, doc.document_id, start, start + long_len)
        evidence.link_evidence(s, person.id, passage_id=p.id, relation="context")
        q = passages.add_passage_by_quote(s, doc.document_id, "The fund lost 3%")
        evidence.link_evidence(s, source.id, passage_id=q.id)
        items.create_item(s, case_id, "question", "Ask Ines Varga about the insider memo",
                          question_kind="call back", due="2024-01-10")
        return {"person": person.id, "source": source.id}


def test_text_comes_out_exactly_as_typed_with_embedded_font(
    workspace, case_id, tmp_path: Path
) -> None:
    _case(workspace, case_id)
    out = tmp_path / "b.pdf"
    with workspace.transaction() as s:
        brief.export_brief(s, case_id, out, today=date(2024, 1, 20))
    text = squash(pdf_text(out))
    for expected in ("Łódź Wałęsa", ODD, "S&P 500", "Testimony <draft> & notes"):
        assert expected in text, expected
    assert text.count("Long testimony") >= 1300  # the whole 20,000-character passage
    if shutil.which("qpdf"):
        subprocess.run(["qpdf", "--check", str(out)], check=True, capture_output=True)
    if shutil.which("pdffonts"):
        fonts = subprocess.run(["pdffonts", str(out)], capture_output=True, text=True,
                               check=True).stdout.splitlines()[2:]
        assert fonts and all(" yes " in line and "DejaVu" in line for line in fonts), fonts


@pytest.mark.parametrize("include", [False, True])
def test_confidential_person_and_their_name_in_other_text(
    workspace, case_id, tmp_path: Path, include: bool
) -> None:
    _case(workspace, case_id, long_len=100)
    with workspace.transaction() as s:
        data = brief.build_brief_data(s, case_id, include_confidential=include)
    printed = repr(data)
    assert ("Varga" in printed) is include
    assert ("the insider" in printed) is include
    assert "Łódź Wałęsa" in printed
    assert any("[withheld]" in q.text for q in data.questions) is not include


def test_bare_name_mentions_and_repeats_are_not_printed_as_quotes(workspace, case_id) -> None:
    body = "CNN reported it. CNN said so. The CNN report said deputies waited outside."
    with workspace.transaction() as s:
        doc = documents.store_document(
            s, case_id, body.encode(), Ingested(text=body, mime_type="text/plain"),
            filename="m.txt",
        ).document_id
        org = items.create_item(s, case_id, "organization", "CNN")
        for n in (1, 2, 3):
            p = passages.add_passage_by_quote(s, doc, "CNN", occurrence=n)
            evidence.link_evidence(s, org.id, passage_id=p.id, relation="mentions")
        for _ in range(2):
            p = passages.add_passage_by_quote(s, doc, "deputies waited outside")
            evidence.link_evidence(s, org.id, passage_id=p.id, relation="supports")
        data = brief.build_brief_data(s, case_id)
    assert [q.text for q in data.organizations[0].quotes] == ["deputies waited outside"]


def test_the_graph_figure_keeps_its_positions_for_the_graph_tab_and_the_next_brief(
    workspace, case_id
) -> None:
    """A case whose graph was never drawn is laid out by its first brief, once: the Graph tab
    then opens with those positions, and the next brief draws the same figure."""
    from casefile.services import graph

    _case(workspace, case_id, long_len=100)
    with workspace.transaction() as s:
        assert graph.saved_layout(s, case_id).positions == {}
        first = brief.build_brief_data(s, case_id, today=date(2024, 1, 20)).graph
    assert first is not None and first.nodes
    with workspace.transaction() as s:
        kept = graph.saved_layout(s, case_id).positions
        tab_graph, tab_positions, _pinned = graph.graph_with_layout(s, case_id)
        second = brief.build_brief_data(s, case_id, today=date(2024, 1, 20)).graph
    assert {n.id for n in tab_graph.nodes} == set(kept)
    assert tab_positions == kept
    assert second is not None
    assert [(n.id, n.x, n.y) for n in second.nodes] == [(n.id, n.x, n.y) for n in first.nodes]
    assert all(kept[n.id] == (n.x, n.y) for n in first.nodes)
