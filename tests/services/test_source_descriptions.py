"""Descriptions go with the name: under the editor, legal and public profiles, what identifies a
confidential person (the clause around the name, a role before it, an organization after it, a
possessive, their job named in their own quote, the words after a pronoun, a phone number in the
notes, the reporter's own identifying phrases) is in none of the files an export writes, and the
self-check refuses an export where one is left.

The 30 cases are invented here, from combinations of made-up first names, surnames,
organizations and jobs; each describes its source one way (:data:`VARIANTS`)."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from casefile.export.pdf_check import ProtectedStringFoundError, normalize, pdf_places
from casefile.ingest import ingest_bytes
from casefile.services import (
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

TODAY = date(2026, 11, 1)
PROFILES = ("editor", "legal", "public")
FIRST = ("Rosalind", "Teodor", "Marisol", "Quentin", "Ilse", "Bartholomew")
SURNAMES = ("Achterberg", "Vasquelle", "Oyelaran", "Brennecke", "Castellvi", "Thornquist")
PLACES = ("Harbor", "Millbrook", "Eastvale", "Corrigan", "Wexford Bay")
BODIES = ("Commission", "Port Authority", "Water Board", "Transit District", "Housing Trust",
          "Parks Office")
JOBS = (("procurement", "clerk"), ("dispatch", "supervisor"), ("records", "officer"),
        ("payroll", "analyst"), ("permits", "coordinator"), ("fleet", "manager"))
THINGS = ("dredging contract", "paving contract", "pump station bid", "bus lease",
          "demolition permit", "audit report")
VARIANTS = ("appositive", "relative clause", "possessive", "role before", "affiliation after",
            "pronoun chain", "own job in a quote", "phone in notes")


@dataclass
class Planted:
    """One invented case: its text and the strings that identify its source."""

    number: int
    variant: str
    first: str
    surname: str
    org: str
    role: str
    head: str
    thing: str
    phone: str
    phrase: str
    with_fields: bool
    sentence: str
    text: str
    strings: list[str] = field(default_factory=list)
    other: str = ""

    @property
    def name(self) -> str:
        return f"{self.first} {self.surname}"


def _plant(n: int) -> Planted:
    """Case ``n``: names, organization and job chosen by combination, one way of describing
    the source; every second round sets the person's role and affiliation fields, the others
    leave them empty (what identifies the source is then only in the text)."""
    first, surname = FIRST[n % 6], SURNAMES[(n * 5 + n // 6) % 6]
    org = f"{PLACES[n % 5]} {BODIES[(n + n // 5) % 6]}"
    area, head = JOBS[(n * 7 + 3) % 6]
    role, thing = f"{area} {head}", THINGS[(n + 2) % 6]
    variant = VARIANTS[n % len(VARIANTS)]
    with_fields = (n // len(VARIANTS)) % 2 == 1 or variant in (
        "possessive", "own job in a quote", "phone in notes")
    phone = f"(555) 01{n:02d}-{4000 + n * 37}"
    phrase = f"the {head} who kept the {thing} file"
    full = f"{first} {surname}"
    mayor = f"Mayor Lin Okafor-{n}"
    lines = {
        "appositive": f"{full}, a {role} at the {org}, said the {thing} was signed before the "
                      "vote.",
        "relative clause": f"{full}, who signed the {thing} for the {org}, said it was signed "
                           "before the vote.",
        "possessive": f"The {head}'s memo on the {thing} reached the council. {full} said the "
                      "memo was accurate.",
        "role before": f"{role.title()} {full} said the {thing} was signed before the vote.",
        "affiliation after": f"{full} of the {org} said the {thing} was signed before the vote.",
        "pronoun chain": f"{full}, the {role} at the {org}, met reporters twice. She said the "
                         f"{thing} was signed before the vote. She has been the {role} there "
                         "since 2019.",
        "own job in a quote": f"\u201cAs the {role} I saw every page of the {thing},\u201d "
                              f"{surname} said.",
        "phone in notes": f"{full} said the {thing} was signed before the vote.",
    }
    sentence = lines[variant]
    text = (f"Questions over the {thing}\n\n{mayor} defended the vote on Tuesday. {sentence} "
            f"Reporters later spoke to {phrase}, who confirmed the dates.\n")
    strings = [full, surname, phrase]
    strings += {
        "appositive": [role, org],
        "relative clause": [f"signed the {thing} for the {org}", org],
        "possessive": [f"{head}'s memo", role],
        "role before": [role],
        "affiliation after": [org],
        "pronoun chain": [role, org],
        "own job in a quote": [role],
        "phone in notes": [phone],
    }[variant]
    if with_fields:
        strings += [role, org, phone]
    return Planted(n, variant, first, surname, org, role, head, thing, phone, phrase,
                   with_fields, sentence, text, list(dict.fromkeys(strings)), mayor)


CASES = [_plant(n) for n in range(30)]


def _make_case(s, p: Planted) -> dict[str, int]:
    case_id = cases.create_case(s, f"Contract vote {p.number}").id
    raw = p.text.encode("utf-8")
    doc_id = documents.store_document(s, case_id, raw, ingest_bytes(raw, f"story{p.number}.txt"),
                                      published="2026-10-02").document_id
    fields: dict[str, Any] = {"confidential": True}
    if p.with_fields:
        org = items.create_item(s, case_id, "organization", p.org, org_kind="government body")
        fields.update(role=p.role, affiliation_id=org.id, contact=f"tel. {p.phone}",
                      notes=f"Reached at {p.phone}; prefers evenings.")
    if p.variant == "phone in notes":
        fields["notes"] = f"Reached at {p.phone}; prefers evenings."
    if "identifying_phrases" in items.FIELDS["person"]:
        fields["identifying_phrases"] = [p.phrase]
    source = items.create_item(s, case_id, "person", p.name, **fields)
    mayor = items.create_item(s, case_id, "person", p.other.removeprefix("Mayor "), role="Mayor")
    said = passages.add_passage_by_quote(s, doc_id, p.sentence)
    evidence.link_evidence(s, source.id, passage_id=said.id, relation="supports")
    named = passages.add_passage_by_quote(s, doc_id, p.surname)
    evidence.link_evidence(s, source.id, passage_id=named.id, relation="mentions")
    claim = items.create_item(s, case_id, "claim", p.sentence[:120], statement=p.sentence,
                              attributed_to_id=source.id)
    evidence.link_evidence(s, claim.id, passage_id=said.id, relation="supports")
    items.create_item(s, case_id, "question", f"Ask {p.name} for the {p.thing} memo",
                      ask_id=source.id, due="2026-11-20",
                      notes=f"Call {p.phone} after six; {p.name} is the {p.role}.")
    items.create_item(s, case_id, "question", f"Ask {p.other} about the vote",
                      ask_id=mayor.id, due="2026-11-21")
    return {"case": case_id, "source": source.id, "doc": doc_id}


@pytest.fixture(scope="module")
def planted(tmp_path_factory) -> Iterator[tuple[Any, list[dict[str, int]]]]:
    from casefile.store.workspace import open_workspace

    ws = open_workspace(tmp_path_factory.mktemp("descriptions") / "ws")
    with ws.transaction() as s:
        ids = [_make_case(s, p) for p in CASES]
    yield ws, ids
    ws.close()


def _ftm_installed() -> bool:
    return ftm_export.followthemoney_installed()


def export_all(ws, case_id: int, profile: str, out: Path) -> dict[str, list[tuple[str, str]]]:
    """Write every export of the case under ``profile`` into ``out``; the texts read back from
    the written files, by format (a refused export: its message, under "refused")."""
    out.mkdir(parents=True, exist_ok=True)
    texts: dict[str, list[tuple[str, str]]] = {}
    jobs = {
        "pdf": lambda s: brief.export_brief(s, case_id, out / "brief.pdf", profile=profile,
                                            today=TODAY),
        "csv": lambda s: sheets.export_csv(s, case_id, out / "csv", profile=profile),
        "xlsx": lambda s: sheets.export_xlsx(s, case_id, out / "case.xlsx", profile=profile),
        "ics": lambda s: calendar.export_followups_ics(s, case_id, out / "f.ics",
                                                       profile=profile),
    }
    if _ftm_installed():
        jobs["ftm"] = lambda s: ftm_export.export_ftm(s, case_id, out / "case.ftm.json",
                                                      profile=profile)
    for fmt, job in jobs.items():
        try:
            with ws.transaction() as s:
                job(s)
        except ProtectedStringFoundError as exc:
            texts.setdefault("refused", []).append((fmt, str(exc)))
            continue
        texts[fmt] = list(read_back(fmt, out))
    return texts


def read_back(fmt: str, out: Path) -> Iterator[tuple[str, str]]:
    """What a reader of the written file sees, as (place, text) pairs."""
    if fmt == "pdf":
        yield from pdf_places(out / "brief.pdf")
    elif fmt == "csv":
        for path in sorted((out / "csv").glob("*.csv")):
            with path.open(encoding="utf-8-sig", newline="") as fh:
                for row in csv.reader(fh):
                    yield path.name, " | ".join(row)
    elif fmt == "xlsx":
        from openpyxl import load_workbook

        book = load_workbook(out / "case.xlsx", read_only=True)
        for sheet in book.worksheets:
            for row in sheet.iter_rows(values_only=True):
                yield sheet.title, " | ".join(str(v) for v in row if v is not None)
        book.close()
    elif fmt == "ics":
        from casefile.export.ics import ics_places

        yield from ics_places((out / "f.ics").read_bytes())
    elif fmt == "ftm":
        yield "ftm", (out / "case.ftm.json").read_text("utf-8")


def survivors(p: Planted, places: list[tuple[str, str]]) -> list[str]:
    """The planted strings of ``p`` found (whole words, any case) in ``places``."""
    import re

    text = normalize(" \n ".join(t for _place, t in places))
    return [s for s in p.strings if re.search(rf"(?<!\w){re.escape(normalize(s))}(?!\w)", text)]


def measure(ws, ids, root: Path) -> dict[tuple[str, str], int]:
    """(profile, format) -> planted strings that survive, over the 30 cases."""
    counts: dict[tuple[str, str], int] = {}
    for p, case in zip(CASES, ids, strict=True):
        for profile in PROFILES:
            texts = export_all(ws, case["case"], profile, root / f"{p.number}-{profile}")
            for fmt, places in texts.items():
                if fmt != "refused":
                    counts[profile, fmt] = counts.get((profile, fmt), 0) + len(
                        survivors(p, places))
                else:
                    counts[profile, "refused"] = counts.get((profile, "refused"), 0) + len(
                        places)
    return counts


def test_the_fixture_plants_every_way_of_describing_a_source():
    assert len(CASES) == 30
    assert {p.variant for p in CASES} == set(VARIANTS)
    assert {p.with_fields for p in CASES if p.variant == "appositive"} == {True, False}
    assert len({p.name for p in CASES}) == 30  # 30 different sources
    for p in CASES:
        written = " ".join((p.text, p.name, p.phone, p.role, p.org)).casefold()  # text or fields
        assert all(s.casefold() in written for s in p.strings), p


@pytest.mark.parametrize("profile", PROFILES)
def test_no_planted_description_survives_in_any_export(planted, tmp_path, profile):
    ws, ids = planted
    left: dict[str, list[str]] = {}
    formats: set[str] = set()
    for p, case in zip(CASES, ids, strict=True):
        texts = export_all(ws, case["case"], profile, tmp_path / str(p.number))
        assert "refused" not in texts, texts.get("refused")
        formats |= set(texts)
        for fmt, places in texts.items():
            found = survivors(p, places)
            if found:
                left[f"case {p.number} ({p.variant}) {fmt}"] = found
            # the export still says what the case is about: the mayor and the vote are there
            joined = normalize(" ".join(t for _pl, t in places))
            assert "okafor" in joined, (p.number, fmt)
        if profile != "editor":
            pdf = normalize(" ".join(t for _pl, t in texts["pdf"]))
            assert "source a" in pdf and normalize(p.thing) in pdf, p.number
    assert formats >= {"pdf", "csv", "xlsx", "ics"}
    assert not left, left


def test_the_sentence_keeps_its_news_without_the_description(planted):
    ws, ids = planted
    by_variant = {p.variant: (p, c) for p, c in zip(CASES, ids, strict=True)}
    p, c = by_variant["appositive"]
    with ws.transaction() as s:
        tables = {t.name: t for t in sheets.case_tables(s, c["case"], profile="public")}
    claims = tables["claims"]
    statement = claims.rows[0][claims.columns.index("statement")]
    assert statement == f"Source A said the {p.thing} was signed before the vote."
    p, c = by_variant["relative clause"]
    with ws.transaction() as s:
        tables = {t.name: t for t in sheets.case_tables(s, c["case"], profile="editor")}
    claims = tables["claims"]
    statement = claims.rows[0][claims.columns.index("statement")]
    assert statement == "[withheld] said it was signed before the vote."


def _unstripped_appositive(planted, monkeypatch, fmt: str):
    """The planted case whose source has an appositive and every field filled, with the
    description remover switched off (skipped for FtM without followthemoney); returns (the
    planted source, its case id, the workspace)."""
    if fmt == "ftm" and not _ftm_installed():
        pytest.skip("followthemoney is not installed")
    from casefile.services import disclosure

    ws, ids = planted
    index = next(n for n, p in enumerate(CASES) if p.variant == "appositive" and p.with_fields)
    monkeypatch.setattr(disclosure, "strip_descriptions", lambda text, *a, **kw: text)
    return CASES[index], ids[index]["case"], ws


@pytest.mark.parametrize("fmt", ["pdf", "csv", "xlsx", "ics", "ftm"])
def test_without_the_description_remover_the_self_check_refuses(planted, tmp_path,
                                                                monkeypatch, fmt):
    p, case_id, ws = _unstripped_appositive(planted, monkeypatch, fmt)
    texts = export_all(ws, case_id, "legal", tmp_path)
    refused = dict(texts.get("refused", []))
    assert fmt in refused, texts.keys()
    assert "export refused" in refused[fmt]
    # it names what it found: one of the source's descriptions
    assert any(repr(s) in refused[fmt] for s in (p.role, p.org, p.phone, p.phrase)), \
        refused[fmt]


# -- the real sample: the Parkland article, the school resource deputy marked confidential ----

#: What identifies the deputy in the sample article besides his name: the role the
#: suggestions give him, the descriptions the article attaches to his name, and the role
#: written before it.
PARKLAND_DESCRIPTIONS = ("school resource officer", "resource officer",
                         "armed police officer assigned to Stoneman Douglas",
                         "Sheriff's Deputy", "Deputy [Source A]", "Deputy Source A",
                         "this deputy")


@pytest.fixture(scope="module")
def parkland_source(tmp_path_factory):
    """The sample article imported as the CLI does (batch import, suggestions, every
    suggestion accepted), the deputy's person item marked confidential; (workspace, case id,
    the names that identify him)."""
    from casefile.services import decisions, item_actions
    from casefile.store.workspace import open_workspace
    from tests.services.conftest import import_with_suggestions

    ws = open_workspace(tmp_path_factory.mktemp("parkland") / "ws")
    with ws.transaction() as s:
        case_id = cases.create_case(s, "Parkland").id
    import_with_suggestions(ws, case_id)
    with ws.transaction() as s:
        waiting = decisions.list_suggestions(s, case_id)
        pending = [(e.kind, e.name, e.variant) for es in waiting.by_kind.values() for e in es]
    for kind, name, variant in pending:
        with ws.transaction() as s:
            still = decisions.list_suggestions(s, case_id).find(kind, name)
            if still is not None:
                decisions.accept(s, case_id, kind, name, variant=variant)
    with ws.transaction() as s:
        deputy = items.find_item(s, case_id, "Scot Peterson", "person")
        item_actions.edit(s, deputy.id, {"confidential": True})
        role = deputy.role
    assert role, "the suggestions gave the deputy a role"
    yield ws, case_id, ("Scot Peterson", "Peterson", role, *PARKLAND_DESCRIPTIONS)
    ws.close()


@pytest.mark.parametrize("profile", PROFILES)
def test_the_parkland_deputy_is_not_identifiable_in_any_export(parkland_source, tmp_path,
                                                               profile):
    ws, case_id, identifying = parkland_source
    texts = export_all(ws, case_id, profile, tmp_path)
    assert "refused" not in texts, texts.get("refused")
    assert set(texts) >= {"pdf", "csv", "xlsx", "ics"}
    import re

    for fmt, places in texts.items():
        text = normalize(" ".join(t for _pl, t in places))
        left = [s for s in identifying
                if re.search(rf"(?<!\w){re.escape(normalize(s))}(?!\w)", text)]
        assert not left, (fmt, left)
        if fmt != "ics":  # the story is still there: the sheriff is named
            assert "scott israel" in text, fmt
    pdf = normalize(" ".join(t for _pl, t in texts["pdf"]))
    if profile != "editor":
        assert "source a" in pdf


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "ftm"])
def test_the_written_file_itself_is_read_back_and_deleted_when_a_description_is_in_it(
        planted, tmp_path, monkeypatch, fmt):
    """With both the description remover and the check of the values before writing turned
    off, the re-read of the written file refuses the export and deletes what was written."""
    p, case_id, ws = _unstripped_appositive(planted, monkeypatch, fmt)
    monkeypatch.setattr(sheets, "_check", lambda *a, **kw: None)
    monkeypatch.setattr(ftm_export, "_check_protected", lambda *a, **kw: None)
    texts = export_all(ws, case_id, "legal", tmp_path)
    refused = dict(texts.get("refused", []))
    assert fmt in refused, texts.keys()
    message = refused[fmt]
    assert "the file was deleted" in message
    assert any(repr(s) in message for s in (p.role, p.org, p.phone, p.phrase)), message
    place = {"csv": ".csv, row ", "xlsx": "sheet ", "ftm": "line "}[fmt]
    assert place in message, message
    leftovers = {"csv": list((tmp_path / "csv").glob("*.csv")),
                 "xlsx": list(tmp_path.glob("*.xlsx")),
                 "ftm": list(tmp_path.glob("*.json"))}[fmt]
    assert leftovers == []
