"""Plain text and Markdown: encodings, newlines, titles, refusals."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from ingest_helpers import SAMPLES as SAMPLE

from casefile.errors import IngestError
from casefile.ingest import ingest_bytes, ingest_file

ARTICLE = SAMPLE / "parkland-coral-springs-article.txt"


def test_sample_article_reads_as_utf8_text_with_curly_quotes_intact() -> None:
    data, doc = ingest_file(ARTICLE)
    assert data == ARTICLE.read_bytes()
    assert doc.mime_type == "text/plain"
    assert doc.notes == []
    assert "Broward County Sheriff\u2019s deputies" in doc.text
    assert "Scot Peterson" in doc.text
    # first line is a long paragraph, so the title falls back to the file stem
    assert doc.title == "parkland-coral-springs-article"
    assert "\r" not in doc.text


def test_latin1_text_keeps_accents_and_says_which_encoding(tmp_path: Path) -> None:
    path = tmp_path / "note.txt"
    path.write_bytes("Le café de Montréal\nÇa a commencé à 9 h, a dit l'élève.\n".encode("latin-1"))
    _, doc = ingest_file(path)
    assert doc.text == "Le café de Montréal\nÇa a commencé à 9 h, a dit l'élève.\n"
    assert doc.notes == ["Not valid UTF-8; decoded as Latin-1 (ISO-8859-1)"]
    assert doc.title == "Le café de Montréal"


def test_windows_1252_curly_quotes_decode_right() -> None:
    doc = ingest_bytes("He said \u201cno comment\u201d \u2014 twice.".encode("cp1252"), "q.txt")
    assert doc.text == "He said \u201cno comment\u201d \u2014 twice."
    assert doc.notes == ["Not valid UTF-8; decoded as Windows-1252 (Western European)"]


def test_central_european_text_is_not_read_as_western() -> None:
    doc = ingest_bytes("Łódź: Wałęsa powiedział, że śledztwo trwa.".encode("cp1250"), "pl.txt")
    assert "Wałęsa powiedział" in doc.text
    assert "Windows-1250" in doc.notes[0]


def test_utf8_bom_is_dropped_and_newlines_normalised() -> None:
    doc = ingest_bytes(b"\xef\xbb\xbfFirst line\r\nsecond\rthird\n", "bom.txt")
    assert doc.text == "First line\nsecond\nthird\n"
    assert doc.notes == []
    assert doc.title == "First line"


def test_utf16_with_bom_is_text() -> None:
    doc = ingest_bytes("Notes from the call\nMayor: no".encode("utf-16"), "u16.txt")
    assert doc.text == "Notes from the call\nMayor: no"


def test_long_first_line_gives_stem_title() -> None:
    doc = ingest_bytes(("word " * 60).encode(), "interview-notes.txt")
    assert doc.title == "interview-notes"


def test_random_bytes_named_txt_are_refused_as_binary() -> None:
    rng = random.Random(7)
    data = bytes(rng.getrandbits(8) for _ in range(4096))
    with pytest.raises(IngestError, match=r"^data\.txt is not text \(binary content\)$"):
        ingest_bytes(data, "data.txt")


@pytest.mark.parametrize("content", [b"", b"   \n\t\r\n  "])
def test_empty_or_blank_text_is_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "empty.txt"
    path.write_bytes(content)
    with pytest.raises(IngestError, match=r"^empty\.txt (is empty|has no text)"):
        ingest_file(path)


def test_markdown_keeps_text_as_written_and_takes_first_h1_as_title() -> None:
    source = "Intro line\n\n# Sheriff's timeline\n\nSome **bold** claim.\n\n# Second\n"
    doc = ingest_bytes(source.encode(), "timeline.md")
    assert doc.mime_type == "text/markdown"
    assert doc.title == "Sheriff's timeline"
    assert doc.text == source


def test_markdown_setext_heading_and_front_matter_titles() -> None:
    assert ingest_bytes(b"Budget memo\n===========\n\nText.\n", "m.md").title == "Budget memo"
    front = b"---\ntitle: \"Records request log\"\n---\n# Other\n"
    assert ingest_bytes(front, "m.md").title == "Records request log"


def test_markdown_without_heading_uses_first_line() -> None:
    assert ingest_bytes(b"Call notes, Feb 23\n\nNo answer.\n", "n.md").title == "Call notes, Feb 23"


def test_a_data_files_bracket_is_no_title_the_file_name_is() -> None:
    data = b'{\n  "agency": "Harbor board",\n  "permits": [12, 14]\n}\n'
    assert ingest_bytes(data, "permits-2024.json").title == "permits-2024"
    assert ingest_bytes(b"---\nMinutes of the board\n", "minutes.txt").title == "minutes"
    assert ingest_bytes(b"Minutes of the board\n\nThey met.\n", "m.txt").title == (
        "Minutes of the board")
