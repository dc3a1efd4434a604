"""A case as CSV files and an Excel workbook, and people back from a spreadsheet."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from openpyxl import load_workbook
from sqlalchemy import func, select

from casefile.errors import ValidationError
from casefile.services import items, sheets, table_import
from casefile.services.changes import run_step
from casefile.store.evidence import EvidenceLink
from casefile.store.items import Claim, Document, Event, Item, Organization, Person, Place, Question


def _count(s, model) -> int:
    return s.scalar(select(func.count()).select_from(model))


def test_workbook_has_a_sheet_per_section_with_every_row(workspace, demo, tmp_path: Path):
    out = tmp_path / "case.xlsx"
    with workspace.transaction() as s:
        sheets.export_xlsx(s, demo, out)
        expected = {
            "people": _count(s, Person), "organizations": _count(s, Organization),
            "places": _count(s, Place), "documents": _count(s, Document),
            "events": _count(s, Event), "follow-ups": _count(s, Question),
            "claims": _count(s, Claim), "evidence links": _count(s, EvidenceLink),
        }
        names = {p.title for p in s.scalars(select(Person))}
    book = load_workbook(out)
    assert book.sheetnames == list(sheets.SECTIONS)
    for name, rows in expected.items():
        sheet = book[name]
        assert sheet.max_row - 1 == rows, name
        assert sheet.freeze_panes == "A2"
        assert sheet.cell(1, 1).font.bold
    assert rows > 0 and expected["people"] > 0
    assert {row[1] for row in book["people"].iter_rows(min_row=2, values_only=True)} == names


def _person(s, case_id: int, title: str, **fields) -> int:
    return items.create_item(s, case_id, "person", title, **fields).id


def test_formula_names_stay_text_and_accents_survive(workspace, case_id, tmp_path: Path):
    with workspace.transaction() as s:
        _person(s, case_id, '=HYPERLINK("http://evil.example","click")', role="+1 attack")
        _person(s, case_id, "Łucja Wróbel", role="rzeczniczka, Łódź")
        _person(s, case_id, "山田 東京", role="記者")
        sheets.export_xlsx(s, case_id, tmp_path / "case.xlsx")
        sheets.export_csv(s, case_id, tmp_path / "csv")

    sheet = load_workbook(tmp_path / "case.xlsx")["people"]
    cells = {sheet.cell(r, 2).value: sheet.cell(r, 2) for r in range(2, sheet.max_row + 1)}
    formula = cells['=HYPERLINK("http://evil.example","click")']
    assert formula.data_type == "s" and formula.quotePrefix  # text, not a formula
    assert sheet.cell(formula.row, 4).data_type == "s"
    assert "Łucja Wróbel" in cells and "山田 東京" in cells

    raw = (tmp_path / "csv" / "people.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # the BOM Excel needs to read UTF-8
    rows = list(csv.reader(raw.decode("utf-8-sig").splitlines()))
    by_name = {r[1]: r for r in rows[1:]}
    assert "'=HYPERLINK(\"http://evil.example\",\"click\")" in by_name
    assert by_name["Łucja Wróbel"][3] == "rzeczniczka, Łódź"
    assert by_name["山田 東京"][3] == "記者"
    # Reading our own CSV back gives the name as it was.
    back = table_import.read_table(tmp_path / "csv" / "people.csv")
    assert '=HYPERLINK("http://evil.example","click")' in [r[1] for r in back.rows]


def test_confidential_rows_are_withheld_unless_asked(workspace, case_id, tmp_path: Path):
    with workspace.transaction() as s:
        secret = _person(s, case_id, "Hidden Informant", confidential=True,
                         contact="tip@example.org")
        _person(s, case_id, "Open Official")
        items.create_item(s, case_id, "question", "Ask Hidden Informant about the memo",
                          ask_id=secret)
        default = sheets.case_tables(s, case_id)
        everything = sheets.case_tables(s, case_id, include_confidential=True)
    people = {t.name: t for t in default}["people"]
    assert [r[1] for r in people.rows] == ["Open Official"]
    follow = {t.name: t for t in default}["follow-ups"].rows[0]
    assert follow[1] == "Ask [withheld] about the memo" and follow[5] == "[withheld]"
    flat = repr([t.rows for t in default])
    assert "Informant" not in flat and "tip@example.org" not in flat
    assert "Hidden Informant" in repr([t.rows for t in everything])


def test_people_import_maps_columns_merges_and_undoes(workspace, case_id, tmp_path: Path):
    with workspace.transaction() as s:
        known = _person(s, case_id, "Ruth Okonkwo", aliases=["Okonkwo"])
    path = tmp_path / "people.csv"
    path.write_text("Full name;Job title;Employer;AKA\n"
                    "Łucja Wróbel;Spokesperson;Urząd Miasta Łódź;Wróbel\n"
                    "okonkwo;Sheriff;;R. Okonkwo\n"
                    ";nobody;;\n", encoding="utf-8")
    sheet = table_import.read_table(path)
    mapping = table_import.guess_mapping(sheet.columns, "person")
    assert mapping == {"title": "Full name", "aliases": "AKA", "role": "Job title",
                       "affiliation": "Employer"}
    records = table_import.map_rows(sheet, "person", mapping)
    assert len(records) == 2  # the row without a name is skipped
    with workspace.transaction() as s:
        done = table_import.import_records(s, case_id, "person", records)
    assert len(done.value.created) == 2 and done.value.merged == [known]  # person + new org
    assert done.value.summary() == ("1 added (and 1 organization for their affiliation), "
                                    "1 merged into existing items")
    with workspace.transaction() as s:
        ruth = items.get_item(s, known)
        assert ruth.role == "Sheriff" and ruth.aliases == ["Okonkwo", "R. Okonkwo"]
        lucja = s.scalars(select(Person).where(Person.title == "Łucja Wróbel")).one()
        assert lucja.affiliation.title == "Urząd Miasta Łódź"
        undone = run_step(s, done.undo)
    with workspace.transaction() as s:
        assert _count(s, Item) == 1
        ruth = items.get_item(s, known)
        assert ruth.role is None and ruth.aliases == ["Okonkwo"]
        run_step(s, undone.undo)  # redo
    with workspace.transaction() as s:
        assert _count(s, Person) == 2 and _count(s, Organization) == 1


def test_mapping_without_a_name_column_is_refused(tmp_path: Path):
    path = tmp_path / "t.csv"
    path.write_text("Job title\nSheriff\n", encoding="utf-8")
    sheet = table_import.read_table(path)
    with pytest.raises(ValidationError, match="name"):
        table_import.map_rows(sheet, "person", table_import.guess_mapping(sheet.columns,
                                                                          "person"))
    shifted = tmp_path / "shifted.csv"
    shifted.write_text("Name,Role\nAnn Lee,Mayor\nBo Chan,Clerk,City Hall\n", encoding="utf-8")
    with pytest.raises(ValidationError, match="row 3 has 3 fields but the header has 2"):
        table_import.read_table(shifted)
    bad = tmp_path / "broken.xlsx"
    bad.write_bytes(b"PK\x03\x04 not really a workbook")
    with pytest.raises(ValidationError, match="not a readable .xlsx"):
        table_import.read_table(bad)


def test_public_tables_name_a_confidential_person_only_as_a_source(workspace, case_id):
    with workspace.transaction() as s:
        secret = _person(s, case_id, "Hidden Informant", confidential=True,
                         contact="+1 555 010 2030", role="night clerk")
        items.create_item(s, case_id, "question", "Ask Hidden Informant about the memo",
                          ask_id=secret, notes="private reporter's note")
        public = {t.name: t for t in sheets.case_tables(s, case_id, profile="public")}
    assert [r[1] for r in public["people"].rows] == ["Source A"]
    assert public["people"].rows[0][3] is None and public["people"].rows[0][5] is None
    follow = public["follow-ups"].rows[0]
    assert follow[1] == "Ask Source A about the memo" and follow[5] == "Source A"
    assert follow[-1] is None  # no notes in a public export
    assert "Informant" not in repr(public) and "555" not in repr(public)


def test_a_cell_left_unsubstituted_is_refused_with_its_place(workspace, case_id, tmp_path,
                                                             monkeypatch):
    from casefile.export.pdf_check import ProtectedStringFoundError
    from casefile.services.disclosure import Disclosure

    with workspace.transaction() as s:
        _person(s, case_id, "Hidden Informant", confidential=True)
        items.create_item(s, case_id, "question", "Call Hidden Informant back")
    real = Disclosure.substitute
    # the follow-up text slips through unsubstituted; every other field is still replaced
    monkeypatch.setattr(Disclosure, "substitute", lambda self, text, quoted=False: (
        text if text and text.startswith("Call") else real(self, text, quoted=quoted)))
    out = tmp_path / "leak.xlsx"
    with workspace.transaction() as s, pytest.raises(ProtectedStringFoundError) as caught:
        sheets.export_xlsx(s, case_id, out, profile="public")
    assert caught.value.found == "Hidden Informant"
    assert "follow-ups section, row 2, column 'question'" in caught.value.place
    assert not out.exists()
