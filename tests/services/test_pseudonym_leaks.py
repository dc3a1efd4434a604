"""What travels with a pseudonym (legal and public profiles): a confidential police chief quoted
in a published article must not be identifiable as "Source A" from the words around the name,
the offsets of a mention, the graph figure, an entity id shared with an internal export, or
their role and affiliation under public; and every export file is owner-only.

The case is invented: a confidential "Chief Dana Whitlow" of "Harbor Police Department"."""

from __future__ import annotations

import json
import os
import stat
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from casefile.export.pdf_check import normalize, pdf_places
from casefile.ingest import ingest_bytes
from casefile.services import (
    archive,
    brief,
    calendar,
    cases,
    documents,
    evidence,
    ftm_export,
    items,
    passages,
    sheets,
)
from casefile.services.disclosure import case_disclosure

TODAY = date(2026, 11, 1)
ARTICLE = (
    "Harbor council reviews camera outage\n\n"
    "Two days after the shooting, an internal email from Harbor Police Chief Dana Whitlow "
    "reached the council. Whitlow wrote that the cameras had been off for a week before the "
    "night in question. The Harbor Police Department declined to comment on the email.\n"
)
QUOTE = "Whitlow wrote that the cameras had been off for a week before the night in question."


@pytest.fixture
def harbor(sqlite_workspace) -> tuple[Any, dict[str, int]]:
    ws = sqlite_workspace
    raw = ARTICLE.encode("utf-8")
    with ws.transaction() as s:
        case_id = cases.create_case(s, "Harbor camera outage").id
        doc_id = documents.store_document(s, case_id, raw, ingest_bytes(raw, "article.txt"),
                                          published="2026-10-02").document_id
        org = items.create_item(s, case_id, "organization", "Harbor Police Department",
                                org_kind="law enforcement agency")
        chief = items.create_item(s, case_id, "person", "Dana Whitlow", role="Police Chief",
                                  affiliation_id=org.id, confidential=True,
                                  contact="dana.whitlow@harbor.example")
        clerk = items.create_item(s, case_id, "person", "Ruben Ostrander", role="Clerk")
        q = items.create_item(s, case_id, "question", "Who received the email?",
                              ask_id=chief.id, due="2026-11-20")
        name = passages.add_passage_by_quote(s, doc_id, "Dana Whitlow")
        said = passages.add_passage_by_quote(s, doc_id, QUOTE)
        agency = passages.add_passage_by_quote(s, doc_id, "Harbor Police Department")
        evidence.link_evidence(s, chief.id, passage_id=name.id, relation="mentions")
        evidence.link_evidence(s, chief.id, passage_id=said.id, relation="supports")
        evidence.link_evidence(s, org.id, passage_id=agency.id, relation="mentions")
        evidence.link_evidence(s, clerk.id, document_id=doc_id, relation="context")
        ids = {"case": case_id, "doc": doc_id, "org": org.id, "chief": chief.id,
               "question": q.id, "name_start": name.start, "name_end": name.end}
    return ws, ids


def _data(ws, ids, profile: str):
    with ws.transaction() as s:
        return brief.build_brief_data(s, ids["case"], profile=profile, today=TODAY)


def _source(data):
    return next(p for p in data.people if p.name == "Source A")


@pytest.mark.parametrize("profile", ["legal", "public"])
def test_brief_prints_the_sources_quote_but_no_words_around_a_mention(harbor, profile):
    ws, ids = harbor
    data = _data(ws, ids, profile)
    source = _source(data)
    assert [q.text for q in source.quotes] == [QUOTE.replace("Whitlow", "[Source A]", 1)]
    assert source.mentioned == []  # the bare-name mention, with its sentence, is left out
    assert source.withheld == 1  # and the brief says one was left out, not "no evidence"
    contexts = [m.context or "" for e in data.organizations for m in e.mentioned]
    assert contexts and not any("Source A" in c or "Police Chief" in c for c in contexts)
    assert all(m.count for e in data.organizations for m in e.mentioned)  # still counted


def test_neither_public_nor_legal_brief_shows_role_or_affiliation(harbor):
    ws, ids = harbor
    legal, public = _source(_data(ws, ids, "legal")), _source(_data(ws, ids, "public"))
    assert (legal.role, legal.affiliation) == (None, None)
    assert (public.role, public.affiliation) == (None, None)
    internal = next(p for p in _data(ws, ids, "internal").people if p.name == "Dana Whitlow")
    assert (internal.role, internal.affiliation) == ("Police Chief", "Harbor Police Department")


@pytest.mark.parametrize("profile", ["legal", "public"])
def test_graph_figure_drops_the_source(harbor, profile):
    ws, ids = harbor
    figure = _data(ws, ids, profile).graph
    assert figure is not None
    assert "Source A" not in {n.label for n in figure.nodes}
    assert not {ids["chief"]} & {x for e in figure.edges for x in e[:2]}
    assert "Harbor Police Department" in {n.label for n in figure.nodes}


def test_public_brief_pdf_holds_neither_role_nor_the_sentence_around_the_name(
        harbor, tmp_path: Path):
    ws, ids = harbor
    out = tmp_path / "public.pdf"
    with ws.transaction() as s:
        brief.export_brief(s, ids["case"], out, profile="public", today=TODAY)
    text = normalize(" ".join(t for _place, t in pdf_places(out)))
    assert "source a" in text and "the cameras had been off" in text
    assert "police chief" not in text and "internal email" not in text
    assert "whitlow" not in text
    assert "1 mention left out of this export" in text  # not "no evidence linked yet"


@pytest.mark.parametrize("profile", ["legal", "public"])
def test_substitution_takes_the_role_with_the_name_and_the_check_refuses_it(harbor, profile):
    ws, ids = harbor
    with ws.transaction() as s:
        shown = case_disclosure(s, ids["case"], profile)
    said = "an email from Harbor Police Chief Dana Whitlow reached"
    assert shown.quote(said) == "an email from [Source A] reached"
    assert shown.quote("the chief said so") == "[withheld] said so"
    assert "Police Chief [Source A]" in shown.protected
    assert "Harbor Police Chief" in shown.protected  # found in the document, withheld too


@pytest.mark.parametrize("profile", ["legal", "public"])
def test_evidence_links_sheet_has_no_offsets_or_mention_rows_of_the_source(harbor, profile):
    ws, ids = harbor
    with ws.transaction() as s:
        tables = {t.name: t for t in sheets.case_tables(s, ids["case"], profile=profile)}
    links = tables["evidence links"]
    col = {c: n for n, c in enumerate(links.columns)}
    rows = [r for r in links.rows if r[col["item"]] == "Source A"]
    assert [r[col["relation"]] for r in rows] == ["supports"]
    assert rows[0][col["start"]] is None and rows[0][col["end"]] is None
    assert rows[0][col["document"]] == "Harbor council reviews camera outage"
    spans = {(r[col["start"]], r[col["end"]]) for r in links.rows}
    assert (ids["name_start"], ids["name_end"]) not in spans
    people = tables["people"]
    pcol = {c: n for n, c in enumerate(people.columns)}
    row = next(r for r in people.rows if r[pcol["name"]] == "Source A")
    assert (row[pcol["role"]], row[pcol["affiliation"]]) == (None, None)


def _ftm(ws, ids, profile: str | None, out: Path, **kw) -> list[dict[str, Any]]:
    with ws.transaction() as s:
        ftm_export.export_ftm(s, ids["case"], out, profile=profile, **kw)
    return [json.loads(line) for line in out.read_text("utf-8").splitlines()]


def test_ftm_ids_of_a_pseudonymous_export_match_nothing_in_the_internal_one(
        harbor, tmp_path: Path):
    ws, ids = harbor
    internal = _ftm(ws, ids, None, tmp_path / "internal.json", include_confidential=True)
    legal = _ftm(ws, ids, "legal", tmp_path / "legal.json")
    again = _ftm(ws, ids, "legal", tmp_path / "legal-again.json")
    public = _ftm(ws, ids, "public", tmp_path / "public.json")

    def source_id(entities: list[dict[str, Any]]) -> str:
        return next(e["id"] for e in entities if e["properties"].get("name") == ["Source A"])

    assert {e["id"] for e in legal} == {e["id"] for e in again}  # stable per profile
    assert source_id(legal) == source_id(again) != source_id(public)
    internal_ids = {e["id"] for e in internal}
    assert not internal_ids & {e["id"] for e in legal}
    assert not internal_ids & {e["id"] for e in public}
    # the follow-up that asks the source points to the pseudonym, under a new id
    note = next(e for e in legal if e["schema"] == "Note")
    assert note["properties"]["entity"] == [source_id(legal)]


def test_ftm_leaves_out_the_sources_mentions_and_public_bodytext(harbor, tmp_path: Path):
    ws, ids = harbor
    for profile in ("legal", "public"):
        entities = _ftm(ws, ids, profile, tmp_path / f"{profile}.json")
        person = next(e["id"] for e in entities if e["properties"].get("name") == ["Source A"])
        roles = [e["properties"]["role"] for e in entities
                 if e["schema"] == "Documentation" and person in e["properties"]["entity"]]
        assert roles == [["supports"]], profile
        body = [e["properties"].get("bodyText") for e in entities if e["schema"] == "PlainText"]
        if profile == "public":
            assert body == [None]
            assert "Police Chief" not in (tmp_path / "public.json").read_text("utf-8")
        else:
            assert body[0] and "an internal email from [Source A] reached" in body[0][0]
            assert "Police Chief" not in (tmp_path / "legal.json").read_text("utf-8")


def test_every_export_file_is_owner_only(harbor, tmp_path: Path):
    ws, ids = harbor
    old = os.umask(0o022)
    try:
        with ws.transaction() as s:
            items.update_item(s, ids["chief"], confidential=False)
        with ws.transaction() as s:
            case = ids["case"]
            written = [
                sheets.export_xlsx(s, case, tmp_path / "case.xlsx", profile="public"),
                *sheets.export_csv(s, case, tmp_path / "csv", profile="public"),
                ftm_export.export_ftm(s, case, tmp_path / "case.ftm.json").path,
                archive.export_archive(s, case, tmp_path / "case.casefile"),
            ]
            brief.export_brief(s, case, tmp_path / "brief.pdf", today=TODAY)
            calendar.export_followups_ics(s, case, tmp_path / "followups.ics")
        written += [tmp_path / "brief.pdf", tmp_path / "followups.ics"]
    finally:
        os.umask(old)
    assert len(written) == 13
    for path in written:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name
    assert not [p for p in tmp_path.rglob(".*") if p.is_file()]  # no temporary file left
