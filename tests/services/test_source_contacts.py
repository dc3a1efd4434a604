"""Contact details and initials go with the name: a confidential source's e-mail address
(also spelled out "name dot surname at host dot org"), a phone number in the sentence that names
them or in the pronoun sentence after it, and their initials signing a mail ("-- RA", "R.A.")
are in none of the files an export writes under the editor, legal and public profiles; someone
else's address on the next header line is kept. The case is invented here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from casefile.export.pdf_check import normalize
from casefile.ingest import ingest_bytes
from casefile.services import cases, documents, items
from casefile.services.descriptions import contacts_in
from tests.services.test_source_descriptions import export_all

NOTES = (
    "Interview notes\n\n"
    "Odalys Brennecke, who keeps the permits ledger, said the permit was backdated. "
    "Her email is odalys dot brennecke at millbrookwater dot org and her phone is "
    "555 0163 9921.\n"
    "Mayor Lin Okafor denied it. Reach O.B. through the union.\n"
)
MAIL = (
    "From: Odalys Brennecke <o.brennecke@millbrookwater.org>\n"
    "To: desk@newsroom.example\n"
    "Subject: the permit\n\n"
    "The permit was backdated by a week.\n-- OB\n"
)
IDENTIFYING = ("Odalys", "Brennecke", "millbrookwater", "0163", "9921", "O.B.", "OB")


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    from casefile.store.workspace import open_workspace

    ws = open_workspace(tmp_path_factory.mktemp("contacts") / "ws")
    with ws.transaction() as s:
        case_id = cases.create_case(s, "Backdated permit").id
        for name, text in (("notes.txt", NOTES), ("mail.eml", MAIL)):
            raw = text.encode("utf-8")
            documents.store_document(s, case_id, raw, ingest_bytes(raw, name),
                                     published="2026-10-02")
        items.create_item(s, case_id, "person", "Odalys Brennecke", confidential=True)
        items.create_item(s, case_id, "person", "Lin Okafor", role="Mayor")
    yield ws, case_id
    ws.close()


def test_contacts_are_found_as_written_and_spelled_out() -> None:
    found = contacts_in("Write to a.b@host.org or a dot b at host dot org, (555) 010-4471, "
                        "@handle_x; not 2026-10-02 nor 1,250,000.")
    assert found == ["a.b@host.org", "a dot b at host dot org", "(555) 010-4471", "@handle_x"]


def test_contacts_are_found_beside_a_word_of_a_million_letters() -> None:
    # a document without a space (a pasted blob, a hostile file): read once, not once per
    # letter (the export of a case holding one never finished)
    blob = "A" * 1_000_000
    found = contacts_in(f"{blob} Write to a.b@host.org or {'x.' * 300_000}y (555) 010-4471 {blob}")
    assert found == ["a.b@host.org", "(555) 010-4471"]


def test_contacts_are_found_where_the_full_pattern_finds_them() -> None:
    import random

    from casefile.services.descriptions import CONTACT_IN_TEXT

    pieces = ["a", "b", "x1", ".", "@", " ", " at ", " dot ", "(at)", "[dot]", "+", "-", "1",
              "555", "(", ")", "com", "org", "http://", "www.", "\n", "é", "_", "-x", "+1"]
    rnd = random.Random(7)
    edges = ["@handle+john@example.com", "a@b.co.uk.x@y.org", "@abc-def@x.com", "x.y.z@a.io"]
    for n in range(5000):
        text = edges[n] if n < len(edges) else "".join(
            rnd.choice(pieces) for _ in range(rnd.randint(1, 30)))
        whole = [m.group().strip().rstrip(".,;:)") for m in CONTACT_IN_TEXT.finditer(text)]
        kept = [" ".join(p.split()) for p in whole if not (p[:1].isdigit() or p[:1] in "+(")
                or (7 <= sum(c.isdigit() for c in p) <= 15
                    and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", p))]
        assert contacts_in(text) == kept, text


@pytest.mark.parametrize("profile", ["editor", "legal", "public"])
def test_no_contact_detail_or_initials_of_the_source_survive(case, tmp_path: Path,
                                                             profile: str) -> None:
    ws, case_id = case
    texts = export_all(ws, case_id, profile, tmp_path)
    assert "refused" not in texts, texts.get("refused")
    assert {"pdf", "csv", "xlsx"} <= set(texts)
    for fmt, places in texts.items():
        raw = " \n ".join(t for _place, t in places)
        folded = normalize(raw)
        # whole words: an FtM entity id (a hash of the case's creation time) may hold "0163"
        left = [s for s in IDENTIFYING if s.isupper() and re.search(rf"(?<![\w.]){s}(?!\w)", raw)
                or not s.isupper()
                and re.search(rf"(?<!\w){re.escape(normalize(s))}(?!\w)", folded)]
        assert not left, (fmt, left)
        if fmt != "ics":  # no follow-ups here: the calendar has no entries
            assert "okafor" in folded, fmt  # the rest of the case is still there


def test_the_next_header_line_and_the_word_on_stay(case) -> None:
    ws, case_id = case
    from casefile.services.disclosure import case_disclosure

    with ws.transaction() as s:
        shown = case_disclosure(s, case_id, "legal")
    out = shown.quote(MAIL) or ""
    assert "desk@newsroom.example" in out  # another person's address is not the source's
    assert "<[withheld]>" in out and out.rstrip().endswith("-- [Source A]")
    plain = shown.substitute("The OB ward is on 4th Street; ON and OK stay.") or ""
    assert "Source A ward" in plain and "ON and OK stay" in plain
