"""The brief of a fixed case prints the same text as before it was read in batches (a pinned
pdftotext of the brief, with and without confidential material), and reads the whole case in a
fixed handful of SQL statements, however many items it holds."""

from __future__ import annotations

import difflib
import os
import re
import shutil
import subprocess
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import event

from casefile.ingest import ingest_bytes
from casefile.services import brief, cases, claims, decisions, documents, evidence, items, passages
from casefile.services.suggestions import suggest_for_document
from tests.conftest import ARTICLE

GOLDEN = Path(__file__).parent / "golden"
TODAY = date(2018, 3, 5)

SECOND = ("County officials said on Monday that the inspection report was late. "
          "\u201cWe have nothing to hide,\u201d said Dana Whitlock, the county spokesperson. "
          "The sheriff\u2019s office did not answer questions about the overtime invoice.\n\n"
          "Records show the invoice of $48,200 was approved by the Broward County Sheriff\u2019s "
          "Office on 2 March. A source close to Whitlock said the audit was never finished.")
SECRET = ("Notes of a call with an informant. The informant, Riley Quarrington, said the deputies "
          "were told to wait outside. Quarrington asked not to be named.")


def _add(s, doc: int, text: str, quote: str, item: int, relation: str = "supports",
         note: str | None = None) -> None:
    start = text.index(quote)
    p = passages.add_passage(s, doc, start, start + len(quote))
    evidence.link_evidence(s, item, passage_id=p.id, relation=relation, note=note)


def build_fixed_case(ws) -> int:
    """The Parkland article with its rules-mode suggestions accepted, a second article, a
    confidential note, and hand-made items and links of every kind the brief prints."""
    with ws.transaction() as s:
        cid = cases.create_case(s, "Fixed brief", "What did the deputies do, and who said so?").id
        raw = ARTICLE.read_bytes()
        art = documents.store_document(s, cid, raw, ingest_bytes(raw, ARTICLE.name),
                                       published="2018-02-23").document_id
    with ws.transaction() as s:
        suggest_for_document(s, art, mode="rules")
    with ws.transaction() as s:
        waiting = decisions.list_suggestions(s, cid)
        for kind, name in [("person", "Scott Israel"), ("person", "Scot Peterson"),
                           ("place", "Parkland")]:
            if waiting.find(kind, name) is not None:
                decisions.accept_suggestion(s, cid, kind, name)
        for kind in ("question", "event", "claim"):
            entries = waiting.by_kind.get(kind) or []
            if entries:
                decisions.accept_suggestion(s, cid, kind, entries[0].name,
                                            variant=entries[0].variant)
    with ws.transaction() as s:
        second = documents.store_document(
            s, cid, SECOND.encode(), ingest_bytes(SECOND.encode(), "county.txt"),
            published="2018-03-01", title="County says the report is late").document_id
        secret = documents.store_document(
            s, cid, SECRET.encode(), ingest_bytes(SECRET.encode(), "call.txt"),
            title="Call notes").document_id
        items.update_item(s, secret, confidential=True)
        county = items.create_item(s, cid, "organization", "Broward County Sheriff's Office",
                                   aliases=["BSO"], org_kind="law enforcement agency")
        dana = items.create_item(s, cid, "person", "Dana Whitlock", role="spokesperson",
                                 affiliation_id=county.id, notes="Answers by email only.")
        riley = items.create_item(s, cid, "person", "Riley Quarrington", role="informant",
                                  confidential=True)
        q = items.create_item(s, cid, "question", "Was the inspection report late?",
                              due="2018-03-02", ask_id=dana.id)
        ev = items.create_item(s, cid, "event", "Invoice approved", date="2018-03-02",
                               description="The sheriff's office approved the invoice.")
        c1 = claims.create_claim(s, cid, "The audit was never finished.",
                                 attributed_to_text="a source close to Whitlock", via_id=second)
        c2 = claims.create_claim(s, cid, "The deputies were told to wait outside.",
                                 attributed_to_id=riley.id)
        _add(s, second, SECOND, "\u201cWe have nothing to hide,\u201d said Dana Whitlock", dana.id,
             note="On the record.")
        _add(s, second, SECOND, "Dana Whitlock", dana.id, relation="mentions")
        _add(s, second, SECOND, "Whitlock", dana.id, relation="mentions")
        _add(s, second, SECOND, "County officials said on Monday that the inspection report "
             "was late.", q.id)
        _add(s, second, SECOND, "County officials said on Monday that the inspection report "
             "was late.", q.id)  # the same words twice: printed once
        _add(s, second, SECOND, "Records show the invoice of $48,200 was approved by the "
             "Broward County Sheriff\u2019s Office on 2 March.", ev.id)
        _add(s, second, SECOND, "A source close to Whitlock said the audit was never finished.",
             c1.id)
        _add(s, second, SECOND, "The sheriff\u2019s office did not answer questions", c1.id,
             relation="contradicts", note="Not a denial.")
        _add(s, secret, SECRET, "The informant, Riley Quarrington, said the deputies were told "
             "to wait outside.", c2.id)
        _add(s, secret, SECRET, "Quarrington asked not to be named.", riley.id)
        _add(s, art, ARTICLE.read_text(encoding="utf-8"), "Peterson", county.id,
             relation="context", note="Quarrington says Peterson knew.")
        evidence.link_evidence(s, county.id, document_id=second)  # a whole document
        items.update_item(s, c2.id, status="disputed", status_reason="Only one source, unnamed.")
    return cid


def _pages(pdf: Path) -> str:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext is not installed (apt-get install poppler-utils)")
    out = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True,
                         text=True, check=True).stdout
    return "\n\f\n".join(" ".join(page.split()) for page in out.split("\f") if page.strip()) + "\n"


@pytest.fixture(scope="module")
def fixed_briefs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    from casefile.store.workspace import open_workspace

    folder = tmp_path_factory.mktemp("fixed-brief")
    ws = open_workspace(folder / "ws")
    try:
        cid = build_fixed_case(ws)
        out: dict[str, str] = {}
        for name, include in (("fixed-brief", False), ("fixed-brief-confidential", True)):
            pdf = folder / f"{name}.pdf"
            with ws.transaction() as s:
                brief.export_brief(s, cid, pdf, include_confidential=include, today=TODAY)
            out[name] = _pages(pdf)
    finally:
        ws.close()
    return out


@pytest.mark.parametrize("name", ["fixed-brief", "fixed-brief-confidential"])
def test_the_brief_prints_the_pinned_text(fixed_briefs: dict[str, str], name: str) -> None:
    golden = GOLDEN / f"{name}.txt"
    if os.environ.get("CASEFILE_WRITE_GOLDEN"):
        golden.write_text(fixed_briefs[name], encoding="utf-8")
    expected = golden.read_text(encoding="utf-8")
    diff = "\n".join(difflib.unified_diff(
        expected.split("\n"), fixed_briefs[name].split("\n"), "pinned", "now", lineterm=""))
    assert fixed_briefs[name] == expected, diff


def test_the_pinned_brief_shows_what_the_case_holds(fixed_briefs: dict[str, str]) -> None:
    public, internal = fixed_briefs["fixed-brief"], fixed_briefs["fixed-brief-confidential"]
    assert "Dana Whitlock" in public and "Answers by email only." in public
    assert "Quarrington" not in public and "[withheld]" in public
    assert "Riley Quarrington" in internal and "Call notes" in internal
    assert public.count("County officials said on Monday that the inspection report was late") == 1
    assert re.search(r"mentioned (once|2 times) in \[\d\]", public)
    assert "Only one source, unnamed." in internal


def _case_of(ws, per_kind: int) -> int:
    """A case with three documents and ``per_kind`` items of each kind, each item with two
    quoted passages and one bare-name mention; claims attributed and via an outlet."""
    texts = [f"Report {k}. " + " ".join(
        f"Sentence {i} of report {k} names Officer Number{i} and the Harbor Agency."
        for i in range(3 * per_kind)) for k in range(3)]
    with ws.transaction() as s:
        cid = cases.create_case(s, f"Sized {per_kind}").id
        docs = [documents.store_document(s, cid, t.encode(), ingest_bytes(t.encode(), f"{k}.txt"),
                                         published=f"2020-01-0{k + 1}").document_id
                for k, t in enumerate(texts)]
        outlet = items.create_item(s, cid, "organization", "Harbor Agency", aliases=["HA"])
        for i in range(per_kind):
            made = [
                items.create_item(s, cid, "person", f"Officer Number{i}", role="officer",
                                  affiliation_id=outlet.id),
                items.create_item(s, cid, "organization", f"Agency {i}", parent_id=outlet.id),
                items.create_item(s, cid, "place", f"Place {i}"),
                items.create_item(s, cid, "question", f"Question {i}?", due="2020-02-01"),
                items.create_item(s, cid, "event", f"Event {i}", date="2020-01-15"),
                claims.create_claim(s, cid, f"Claim {i}.", attributed_to_id=outlet.id,
                                    via_id=outlet.id),
            ]
            for j, item in enumerate(made):
                for k in (0, 1):
                    text = texts[(i + j + k) % 3]
                    _add(s, docs[(i + j + k) % 3], text, f"Sentence {i} of report "
                         f"{(i + j + k) % 3} names", item.id,
                         relation="contradicts" if (j + k) % 5 == 4 else "supports")
                _add(s, docs[j % 3], texts[j % 3], f"Number{i} ", item.id, relation="mentions")
    return cid


def _statements_of_export(ws, case_id: int, tmp: Path) -> int:
    seen: list[str] = []

    def count(_conn, _cursor, statement, *_args) -> None:
        seen.append(statement)

    event.listen(ws.engine, "before_cursor_execute", count)
    try:
        with ws.transaction() as s:
            brief.export_brief(s, case_id, tmp / f"{case_id}.pdf", today=TODAY)
    finally:
        event.remove(ws.engine, "before_cursor_execute", count)
    return len(seen)


def test_the_brief_reads_a_case_in_a_fixed_handful_of_statements(sqlite_workspace,
                                                                  tmp_path: Path) -> None:
    small = _case_of(sqlite_workspace, 2)
    large = _case_of(sqlite_workspace, 8)
    n_small = _statements_of_export(sqlite_workspace, small, tmp_path)
    n_large = _statements_of_export(sqlite_workspace, large, tmp_path)
    assert n_large == n_small
    assert n_small <= 15
