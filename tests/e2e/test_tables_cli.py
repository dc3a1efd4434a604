"""`casefile export csv|xlsx` and `casefile import-table`, run as a user runs them."""

from __future__ import annotations

from pathlib import Path

from openpyxl import load_workbook

from tests.e2e.cli_helpers import casefile


def test_export_and_import_tables_from_the_command_line(tmp_path: Path):
    ws = tmp_path / "ws"
    assert casefile(ws, "case", "new", "Spreadsheets").code == 0
    table = tmp_path / "people.csv"
    table.write_text("Name,Position,E-mail\n"
                     "Łucja Wróbel,rzeczniczka (Łódź),lucja@example.org\n"
                     "=1+2,prankster,\n"
                     "東京 太郎,記者,\n", encoding="utf-8-sig")
    dry = casefile(ws, "import-table", str(table), "--case", "Spreadsheets", "--dry-run")
    assert dry.code == 0, dry.err
    assert "title <- 'Name'" in dry.out and "role <- 'Position'" in dry.out
    assert "3 records; nothing stored" in dry.out
    done = casefile(ws, "import-table", str(table), "--case", "Spreadsheets")
    assert done.code == 0, done.err
    assert "3 added" in done.out

    book = tmp_path / "case.xlsx"
    run = casefile(ws, "export", "xlsx", "--case", "Spreadsheets", "-o", str(book))
    assert run.code == 0, run.err
    people = load_workbook(book)["people"]
    assert sorted(people.cell(r, 2).value for r in range(2, people.max_row + 1)) == \
        sorted(["Łucja Wróbel", "=1+2", "東京 太郎"])
    assert all(people.cell(r, 2).data_type == "s" for r in range(2, people.max_row + 1))

    out = tmp_path / "csv"
    run = casefile(ws, "export", "csv", "--case", "Spreadsheets", "-o", str(out))
    assert run.code == 0, run.err
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["people.csv", "organizations.csv", "places.csv", "documents.csv", "events.csv",
         "follow-ups.csv", "claims.csv", "evidence-links.csv"])
    text = (out / "people.csv").read_text(encoding="utf-8-sig")
    assert "'=1+2" in text and "Łucja Wróbel" in text and "東京 太郎" in text

    wrong = casefile(ws, "export", "xlsx", "--case", "Spreadsheets", "-o", str(tmp_path / "x.csv"))
    assert wrong.code == 1 and wrong.err.count("\n") == 1 and ".xlsx" in wrong.err
