"""Names on the watch list as a reporter types or loads them (ARCHITECTURE.md, "The watch
list"): a family name alone never matches, not when a given name is also a word of a title
("Grace") nor after a sentence ending in a title's word ("the inspector. Tillbrook"); a
family name after a title goes to the watched person the text names in full, else to each
watched person of that family name; "Last, First" typed is understood as First Last; names
without a word of two letters are refused, and one name written with or without accents is
one name; a file that is no CSV, XLSX or FtM file is refused in one line, nothing changed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from casefile.errors import ValidationError
from casefile.extract.watch_names import Matcher, Name
from casefile.ingest import ingest_bytes
from casefile.services import cases, documents, items, watch_list
from tests.e2e.cli_helpers import casefile


@pytest.fixture()
def ws(tmp_path: Path):
    from casefile.store.workspace import open_workspace

    ws = open_workspace(tmp_path / "ws")
    yield ws
    ws.close()


def _watch(ws, *names: str, kind: str = "person") -> int:
    with ws.transaction() as s:
        case_id = cases.create_case(s, "Harbor").id
        watch_list.add_names(s, [watch_list.WatchEntry(n, (), kind) for n in names], case_id)
    return case_id


def _hits(ws, case_id: int, text: str, name: str = "note.txt") -> list[tuple[str, str]]:
    raw = ("Port note\n\nMay 2, 2026\n\n" + text + "\n").encode()
    with ws.transaction() as s:
        return sorted(documents.store_document(s, case_id, raw, ingest_bytes(raw, name)).watch)


def test_a_family_name_alone_never_matches_even_after_a_given_name_that_is_a_title(ws):
    case_id = _watch(ws, "Grace Tillbrook")
    assert _hits(ws, case_id, "Tillbrook said the audit was unfair.") == []
    assert _hits(ws, case_id, "Anna Tillbrook, a teacher, spoke. Tillbrook said the audit was "
                              "unfair.", "b.txt") == []
    assert _hits(ws, case_id, "Grace Tillbrook said the audit was unfair.", "c.txt") == [
        ("Grace Tillbrook", "Grace Tillbrook")]


def test_a_titled_family_name_goes_to_the_person_the_text_names(ws):
    case_id = _watch(ws, "Elena Tillbrook", "Grace Tillbrook")
    # a sentence ending in a title's word is no title: only the person named
    assert _hits(ws, case_id, "The audit names Elena Tillbrook as the inspector. Tillbrook had "
                              "left the agency.") == [("Elena Tillbrook", "Elena Tillbrook")]
    assert _hits(ws, case_id, "Elena Tillbrook signed. Later Dr. Tillbrook left the agency.",
                 "b.txt") == [("Elena Tillbrook", "Elena Tillbrook")]
    far = ("Elena Tillbrook signed the audit.\n\n" + "The harbor board met on Monday and the "
           "ferry timetable was discussed at length.\n" * 12 + "\nDr. Tillbrook left the "
           "agency in May.")
    assert _hits(ws, case_id, far, "d.txt") == [("Elena Tillbrook", "Elena Tillbrook")]
    with ws.transaction(write=False) as s:
        hits = watch_list.case_hits(s, case_id)
        newest = max(h.document_id for h in hits)
        far_hits = [(h.name, h.variant, h.count) for h in hits if h.document_id == newest]
    assert far_hits == [("Elena Tillbrook", "Elena Tillbrook", 2)]
    # named nowhere in full: each watched Tillbrook, for the reporter to tell apart
    assert _hits(ws, case_id, "Dr. Tillbrook left the agency.", "c.txt") == [
        ("Elena Tillbrook", "Dr. Tillbrook"), ("Grace Tillbrook", "Dr. Tillbrook")]


def test_a_given_name_that_is_a_word_of_a_title_is_no_title(ws):
    case_id = _watch(ws, "Elena Tillbrook")
    assert _hits(ws, case_id, "Grace Tillbrook said the audit was unfair.") == []


def test_last_comma_first_typed_is_first_last(ws):
    case_id = _watch(ws, "Tillbrook, Grace")
    assert _hits(ws, case_id, "Grace Tillbrook said the audit was unfair.") == [
        ("Tillbrook, Grace", "Grace Tillbrook")]
    assert _hits(ws, case_id, "Signed: Tillbrook, Grace.", "b.txt") == [
        ("Tillbrook, Grace", "Tillbrook, Grace")]
    m = Matcher([Name(1, ("Tillbrook, Grace, Jr.",), "person")])
    assert [h.variant for h in m.find("Grace Tillbrook Jr. and G. Tillbrook spoke")] == [
        "Grace Tillbrook Jr", "G. Tillbrook"]


def test_names_without_a_word_of_two_letters_are_refused(ws):
    case_id = _watch(ws, "Ansel Brightwater")
    for junk in (["!!!"], ["."], ["X"], ["Ilse Marrow", "X"]):
        with ws.transaction() as s, pytest.raises(ValidationError, match="two or more letters"):
            watch_list.add_names(s, [watch_list.WatchEntry(n) for n in junk], case_id)
    with ws.transaction(write=False) as s:
        assert [n.name for n in watch_list.list_names(s, case_id)] == ["Ansel Brightwater"]
    assert _hits(ws, case_id, "A firm known only as X paid. Malcolm X was quoted.") == []


def test_a_name_with_or_without_accents_is_one_name(ws):
    case_id = _watch(ws, "Jos\u00e9 \u00c1lvarez N\u00fa\u00f1ez")
    with ws.transaction() as s:
        items.create_item(s, case_id, "person", "Jose Alvarez Nunez")
        entries = watch_list.names_from_case(s, case_id)
        ch = watch_list.add_names(s, entries, case_id, source="case")
        again = watch_list.add_names(s, [watch_list.WatchEntry("JOSE  alvarez-nunez")], case_id)
    assert ch.value["added"] == [] and again.value["added"] == []
    with ws.transaction(write=False) as s:
        assert [n.name for n in watch_list.list_names(s, case_id)] == [
            "Jos\u00e9 \u00c1lvarez N\u00fa\u00f1ez"]


def test_a_binary_file_is_refused_in_one_line_and_nothing_changes(tmp_path: Path):
    home = tmp_path / "ws"
    junk = tmp_path / "bin.csv"
    junk.write_bytes(os.urandom(3000) + b"\0")
    assert casefile(home, "case", "new", "W").code == 0
    run = casefile(home, "watch", "load", "--case", "W", str(junk))
    assert run.code == 1
    assert run.err.startswith("casefile: bin.csv is not a CSV/XLSX/FtM file: ")
    assert run.err.count("\n") == 1 and "internal error" not in run.err
    assert casefile(home, "watch", "list", "--case", "W", "--json").out.strip() == "[]"
    typed = casefile(home, "watch", "add", "--case", "W", "X", "--kind", "person")
    assert typed.code == 1 and "two or more letters" in typed.err
