"""The watch list (ARCHITECTURE.md, "The watch list"): names watched in a case or the whole
workspace are found in every imported document, written other ways too; adding names checks
the documents already there; removing takes the hits away and undo puts both back; names load
from CSV, XLSX and FollowTheMoney files; the CLI adds, loads, lists and shows hits, and its
import says which names each new document mentions; case archives carry the list."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from casefile.errors import ValidationError
from casefile.extract.watch_names import Matcher, Name
from casefile.ingest import ingest_bytes
from casefile.services import archive, cases, documents, watch_files, watch_list
from casefile.services.changes import run_step
from tests.e2e.cli_helpers import casefile

NOTE = ("Harbor records name Sen. Brightwater as the buyer.\n"
        "Veld, Tamsin signed for the Merrow Shipping Co. on March 3.\n"
        "Nobody else was there.\n")


@pytest.fixture()
def ws(tmp_path: Path):
    from casefile.store.workspace import open_workspace

    ws = open_workspace(tmp_path / "ws")
    yield ws
    ws.close()


def _store(ws, case_id: int, text: str, name: str = "note.txt") -> documents.ImportResult:
    raw = text.encode()
    with ws.transaction() as s:
        return documents.store_document(s, case_id, raw, ingest_bytes(raw, name))


def test_variants_are_found_and_lookalikes_are_not():
    m = Matcher([Name(1, ("Ansel Brightwater",), "person"),
                 Name(2, ("Tamsin Q. Veld",), "person"),
                 Name(3, ("Merrow Shipping Company",), "organization"),
                 Name(4, ("Zoë Åberg",), "person"),
                 Name(5, ("Ilse Marrow",), "person")])

    def found(text: str) -> list[tuple[int, str]]:
        return [(h.ref, h.variant) for h in m.find(text)]

    assert found("Sen. Brightwater's office said") == [(1, "Sen. Brightwater")]
    assert found("A. Brightwater and Ansel J. Brightwater") == [
        (1, "A. Brightwater"), (1, "Ansel J. Brightwater")]
    assert found("signed: Veld, Tamsin Q.") == [(2, "Veld, Tamsin Q")]
    assert found("T. Q. Veld and Tamsin Veld") == [(2, "T. Q. Veld"), (2, "Tamsin Veld")]
    assert found("Zoe Aberg met Merrow Shipping Company") == [
        (4, "Zoe Aberg"), (3, "Merrow Shipping Company")]
    assert found("Илсе Марроw spoke") == [(5, "Илсе Марроw")]
    # not a name: lower case words, a family name alone, initials alone, a title before
    # someone else's first name, the reversed order without a comma
    assert found("the merrow shipping company") == []
    assert found("Brightwater said. A.B. agreed. Veld Tamsin left.") == []
    assert found("Attorney Brightwater Jones spoke; president,” Brightwater said") == []


def test_import_finds_the_names_and_undo_of_a_removal_puts_them_back(ws):
    with ws.transaction() as s:
        case_id = cases.create_case(s, "Harbor").id
        other = cases.create_case(s, "Elsewhere").id
        added = watch_list.add_names(s, [
            watch_list.WatchEntry("Ansel Brightwater", (), "person"),
            {"name": "Merrow Shipping Company", "kind": "organization"}], case_id)
        everywhere = watch_list.add_names(s, [{"name": "Tamsin Veld", "kind": "person"}])
    assert added.value == {"added": [1, 2], "hits": 0} and added.watch
    doc = _store(ws, case_id, NOTE)
    assert sorted(doc.watch) == [("Ansel Brightwater", "Sen. Brightwater"),
                                 ("Merrow Shipping Company", "Merrow Shipping Co"),
                                 ("Tamsin Veld", "Veld, Tamsin")]
    assert _store(ws, other, NOTE.replace("Harbor", "Port"), "b.txt").watch == [
        ("Tamsin Veld", "Veld, Tamsin")]  # the other case watches only the workspace's name
    with ws.transaction(write=False) as s:
        hits = watch_list.case_hits(s, case_id)
        listed = watch_list.list_names(s, case_id)
    assert [(h.name, h.passage) for h in hits][0] == (
        "Ansel Brightwater", "Harbor records name Sen. Brightwater as the buyer.")
    assert [(n.name, n.case_id, n.documents) for n in listed] == [
        ("Ansel Brightwater", case_id, 1), ("Merrow Shipping Company", case_id, 1),
        ("Tamsin Veld", None, 1)]
    with ws.transaction() as s:
        removed = watch_list.remove_names(s, everywhere.value["added"])
    with ws.transaction(write=False) as s:
        assert len(watch_list.case_hits(s, case_id)) == 2
        assert len(watch_list.case_hits(s, other)) == 0
    with ws.transaction() as s:
        back = run_step(s, removed.undo)
    with ws.transaction(write=False) as s:
        assert [h.name for h in watch_list.case_hits(s, other)] == ["Tamsin Veld"]
        assert len(watch_list.case_hits(s, case_id)) == 3
    with ws.transaction() as s:
        run_step(s, back.undo)  # redo the removal
    with ws.transaction() as s:
        assert len(watch_list.case_hits(s, case_id)) == 2
        undo_add = run_step(s, added.undo)
    assert undo_add.watch
    with ws.transaction(write=False) as s:
        assert watch_list.case_hits(s, case_id) == []


def test_adding_names_checks_the_documents_already_there(ws):
    with ws.transaction() as s:
        case_id = cases.create_case(s, "Harbor").id
    _store(ws, case_id, NOTE)
    with ws.transaction() as s:
        ch = watch_list.add_names(s, [{"name": "Ansel Brightwater", "kind": "person"},
                                      {"name": "ansel brightwater"}], case_id)
        again = watch_list.add_names(s, [{"name": "Ansel  Brightwater"}], case_id)
    assert ch.value["hits"] == 1 and len(ch.value["added"]) == 1
    assert ch.message == "Added “Ansel Brightwater” to the watch list; 1 document mentions it."
    assert again.value["added"] == [] and again.undo is None
    with pytest.raises(ValidationError), ws.transaction() as s:
        watch_list.add_names(s, [{"name": "  "}], case_id)


def test_names_load_from_csv_xlsx_and_followthemoney(tmp_path: Path):
    sheet = tmp_path / "names.csv"
    sheet.write_text("Full name,Aliases,Type\nAnsel Brightwater,A. B. Water; Ansel B.,person\n"
                     "Merrow Shipping Company,,Company\n", encoding="utf-8")
    assert watch_files.read_names_file(sheet) == [
        watch_list.WatchEntry("Ansel Brightwater", ("A. B. Water", "Ansel B."), "person"),
        watch_list.WatchEntry("Merrow Shipping Company", (), "organization")]
    bare = tmp_path / "bare.csv"
    bare.write_text("Ansel Brightwater\nTamsin Veld\n", encoding="utf-8")
    assert [e.name for e in watch_files.read_names_file(bare)] == ["Ansel Brightwater",
                                                                   "Tamsin Veld"]
    from openpyxl import Workbook

    book = Workbook()
    book.active.append(["name", "kind"])
    book.active.append(["Tamsin Veld", "person"])
    book.save(tmp_path / "names.xlsx")
    assert watch_files.read_names_file(tmp_path / "names.xlsx") == [
        watch_list.WatchEntry("Tamsin Veld", (), "person")]
    ftm = tmp_path / "targets.ftm.json"
    ftm.write_text("\n".join(json.dumps(e) for e in [
        {"id": "p1", "schema": "Person", "properties": {
            "name": ["Ansel Brightwater"], "alias": ["Анзел Брайтуотер"],
            "weakAlias": ["The Captain"]}},
        {"id": "c1", "schema": "Company", "properties": {"name": ["Merrow Shipping Co"]}},
        {"id": "a1", "schema": "Address", "properties": {"full": ["1 Quay Street"]}}]),
        encoding="utf-8")
    assert watch_files.read_names_file(ftm) == [
        watch_list.WatchEntry("Ansel Brightwater", ("Анзел Брайтуотер", "The Captain"),
                              "person"),
        watch_list.WatchEntry("Merrow Shipping Co", (), "organization")]
    empty = tmp_path / "empty.json"
    empty.write_text('{"schema": "Address", "properties": {}}\n', encoding="utf-8")
    with pytest.raises(ValidationError, match="no name"):
        watch_files.read_names_file(empty)


def test_case_archives_carry_the_case_list_and_its_hits(ws, tmp_path: Path):
    from casefile.store.workspace import open_workspace

    with ws.transaction() as s:
        case_id = cases.create_case(s, "Harbor").id
        watch_list.add_names(s, [{"name": "Ansel Brightwater", "kind": "person"}], case_id)
        watch_list.add_names(s, [{"name": "Tamsin Veld", "kind": "person"}])
    _store(ws, case_id, NOTE)
    with ws.transaction() as s:
        archive.export_archive(s, case_id, tmp_path / "a.casefile")
    fresh = open_workspace(tmp_path / "other")
    try:
        with fresh.transaction() as s:
            done = archive.import_archive(s, tmp_path / "a.casefile")
        with fresh.transaction(write=False) as s:
            assert [(h.name, h.variant) for h in watch_list.case_hits(s, done.case_id)] == [
                ("Ansel Brightwater", "Sen. Brightwater")]
            assert [n.name for n in watch_list.list_names(s, done.case_id)] == [
                "Ansel Brightwater"]
    finally:
        fresh.close()


def test_the_command_line_adds_loads_lists_and_shows_hits(tmp_path: Path):
    home = tmp_path / "ws"
    note = tmp_path / "note.txt"
    note.write_text(NOTE, encoding="utf-8")
    names = tmp_path / "names.csv"
    names.write_text("name,kind\nMerrow Shipping Company,organization\n", encoding="utf-8")
    assert casefile(home, "case", "new", "Harbor").code == 0
    run = casefile(home, "watch", "add", "Ansel Brightwater", "--kind", "person",
                   "--case", "Harbor")
    assert run.code == 0 and "Added “Ansel Brightwater”" in run.out
    assert casefile(home, "watch", "load", str(names)).code == 0
    run = casefile(home, "import", str(note), "--case", "Harbor", "--no-suggest", "--no-ocr")
    assert run.code == 0, run.err
    assert "  watch list: Ansel Brightwater (as “Sen. Brightwater”)" in run.out
    assert "  watch list: Merrow Shipping Company (as “Merrow Shipping Co”)" in run.out
    listed = json.loads(casefile(home, "watch", "list", "--case", "Harbor", "--json").out)
    assert [(n["name"], n["scope"], n["source"], n["documents"]) for n in listed] == [
        ("Ansel Brightwater", "case", "typed", 1),
        ("Merrow Shipping Company", "workspace", "names.csv", 1)]
    hits = json.loads(casefile(home, "watch", "hits", "--case", "Harbor", "--json").out)
    assert {h["name"]: h["variant"] for h in hits} == {
        "Ansel Brightwater": "Sen. Brightwater", "Merrow Shipping Company": "Merrow Shipping Co"}
    assert set(hits[0]) == {"name", "variant", "document_id", "document", "start", "end",
                            "count", "passage", "found"}
    text = casefile(home, "watch", "hits", "--case", "Harbor").out
    assert "Sen. Brightwater" in text and "Harbor records name" in text
    run = casefile(home, "watch", "remove", str(listed[0]["id"]), "--json")
    assert run.code == 0 and json.loads(run.out)["removed"] == 1
    bad = casefile(home, "watch", "remove", "999")
    assert bad.code == 1 and bad.err.startswith("casefile: no watched name with id 999")
    bad = casefile(home, "watch", "hits", "--case", "Nowhere")
    assert bad.code == 1 and bad.err.count("\n") == 1


def test_a_0012_workspace_upgrades_with_an_empty_list_and_its_documents_are_checked(
        tmp_path: Path):
    from sqlalchemy import text

    from casefile.store import workspace as wsmod
    from tests.store.old_rows import old_document, upgrade_to

    url = wsmod.sqlite_url(tmp_path / "ws")
    engine = wsmod.make_engine(url)
    try:
        upgrade_to(engine, "0012")
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO cases (id, title, created, updated) "
                              "VALUES (1, 'Harbor', '2021-03-04', '2021-03-04')"))
            conn.execute(text("INSERT INTO blobs (sha256, size, data) VALUES (:h, 4, :d)"),
                         {"h": "0" * 64, "d": b"note"})
        from sqlalchemy.orm import Session

        with Session(engine) as s, s.begin():
            doc = old_document(s, 1, "Old note", NOTE)
    finally:
        engine.dispose()
    ws = wsmod.open_workspace(db_url=url)
    try:
        assert wsmod.current_revision(ws.engine) == wsmod.head_revision()
        with ws.transaction() as s:
            assert watch_list.list_names(s, 1) == []
            added = watch_list.add_names(s, [{"name": "Ansel Brightwater", "kind": "person"}], 1)
        assert added.value["hits"] == 1
        with ws.transaction(write=False) as s:
            assert [h.document_id for h in watch_list.case_hits(s, 1)] == [doc]
    finally:
        ws.close()
