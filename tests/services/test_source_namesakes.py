"""What a security editor tried next: a shown person who shares the source's surname keeps
their own name (and the self-check lets it stand), while the bare surname is still withheld; the
surname inside a file name with underscores, the name without its accents or in capitals, an
e-mail address built from the name anywhere in the case, the last words of the source's role in
their own quote, and the lines of their signature block are all withheld. Invented people."""

from __future__ import annotations

import csv

import pytest

from casefile.export.pdf_check import find_in_places
from casefile.ingest import ingest_bytes
from casefile.services import cases, documents, items, sheets
from casefile.services.disclosure import disclosure_for
from casefile.store import Document, Person

MEMO = (
    "Council member Linda Ibarra said the authority owes the public an explanation.\n"
    "Ibarra, the analyst, said the scores were changed.\n"
    "Work email jibarra@lakeshorewater.example (do not use).\n"
    "Renee Faucher confirmed it. RENÉE FAUCHER signed the log.\n"
    "\u201cAs the only permits clerk at the port, I saw every permit,\u201d Faucher said.\n\n"
    "Best,\nJosé Ibarra\nSenior procurement analyst\nEnvironmental Permits Office\n"
    "608-555-0193\n\nThe vote is on Tuesday.\n"
)


def _items() -> list:
    return [
        Person(id=1, case_id=1, kind="person", title="José Ibarra", aliases=[],
               confidential=True, role="senior procurement analyst"),
        Person(id=2, case_id=1, kind="person", title="Renée Faucher", aliases=[],
               confidential=True, role="deputy permits clerk"),
        Person(id=3, case_id=1, kind="person", title="Linda Ibarra", aliases=[],
               confidential=False, role="council member"),
        Document(id=4, case_id=1, kind="document", title="memo", text=MEMO),
    ]


@pytest.mark.parametrize("profile", ["editor", "legal", "public"])
def test_every_form_is_withheld_and_the_namesake_keeps_her_name(profile: str) -> None:
    shown = disclosure_for(_items(), profile)
    out = shown.quote(MEMO) or ""
    assert "Linda Ibarra said the authority" in out
    for left in ("José", "Jose", "jibarra", "lakeshorewater", "Renee", "RENÉE", "FAUCHER",
                 "Faucher", "permits clerk", "Environmental Permits Office", "608-555-0193",
                 "Senior procurement analyst", "procurement analyst"):
        assert left not in out, (left, out)
    assert "Ibarra, the analyst" not in out and "The vote is on Tuesday." in out
    # the self-check reads the result as the export wrote it: nothing found, Linda included
    assert find_in_places([("memo", out)], shown.protected) is None
    # and finds the bare surname, and a file name holding it
    for written in ("Ibarra said so.", "interview_notes_Ibarra_2026-03-04.txt",
                    "Renee Faucher"):
        assert find_in_places([("x", written)], shown.protected) is not None, written
    assert "Ibarra" not in (shown.substitute("interview_notes_Ibarra_2026-03-04.txt") or "")


def test_a_csv_export_keeps_the_namesake_and_passes_its_self_check(tmp_path) -> None:
    from casefile.store.workspace import open_workspace

    ws = open_workspace(tmp_path / "ws")
    try:
        with ws.transaction() as s:
            case_id = cases.create_case(s, "Pump contract").id
            raw = MEMO.encode("utf-8")
            documents.store_document(s, case_id, raw, ingest_bytes(raw, "memo.txt"))
            items.create_item(s, case_id, "person", "José Ibarra", confidential=True,
                              role="senior procurement analyst")
            items.create_item(s, case_id, "person", "Linda Ibarra", role="council member")
        with ws.transaction() as s:
            sheets.export_csv(s, case_id, tmp_path / "csv", profile="public")
    finally:
        ws.close()
    with (tmp_path / "csv" / "people.csv").open(encoding="utf-8-sig") as fh:
        names = [row[1] for row in csv.reader(fh)][1:]
    assert "Linda Ibarra" in names and "Source A" in names
    assert not any("José" in n or n == "Ibarra" for n in names)


def test_an_organization_named_only_in_the_signature_block_goes_with_her() -> None:
    from casefile.store import Organization

    office = Organization(id=5, case_id=1, kind="organization",
                          title="Environmental Permits Office", aliases=[], confidential=False)
    board = Organization(id=6, case_id=1, kind="organization", title="Harbor Board",
                         aliases=[], confidential=False)
    start = MEMO.index("Environmental Permits Office")
    voted = MEMO.index("Work email")  # a line about no one: the board's evidence
    evidenced = {5: [(4, start, start + len("Environmental Permits Office"))],
                 6: [(4, voted, voted + 4)]}
    shown = disclosure_for([*_items(), office, board], "legal", evidenced=evidenced)
    assert not shown.shows(5) and shown.shows(6)
    out = shown.substitute("The Environmental Permits Office stamped it.") or ""
    assert "Environmental Permits Office" not in out
    assert find_in_places([("x", "Environmental Permits Office")], shown.protected)
