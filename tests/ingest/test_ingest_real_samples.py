"""Each file in ../shared/samples/real gives the result its SOURCES.md describes."""

from __future__ import annotations

import pytest
from ingest_helpers import REAL

from casefile.errors import IngestError
from casefile.ingest import PdfPasswordError, ingest_file


def test_zen_of_python_corrupted_pdf_text_recovered_with_warning() -> None:
    _, doc = ingest_file(REAL / "zen_of_python_corrupted.pdf")
    assert doc.mime_type == "application/pdf"
    assert "Beautiful is better than ugly." in doc.text
    assert "Namespaces are one honking great idea" in doc.text
    assert doc.page_starts == [0]
    assert any(note.startswith("Damaged file:") for note in doc.notes)


def test_aes_256_pdf_needs_its_password() -> None:
    with pytest.raises(PdfPasswordError, match=r"aes-256-r6\.pdf is encrypted: give --password"):
        ingest_file(REAL / "aes-256-r6.pdf")
    with pytest.raises(IngestError, match=r"password given for aes-256-r6\.pdf is wrong"):
        ingest_file(REAL / "aes-256-r6.pdf", password="nope")
    data, doc = ingest_file(REAL / "aes-256-r6.pdf", password="usersecret")
    assert data == (REAL / "aes-256-r6.pdf").read_bytes()
    assert doc.text.strip() == "Hello World"
    assert not any(note.startswith("Damaged") for note in doc.notes)


def test_jbig2_scan_imports_flagged_without_text_layer() -> None:
    _, doc = ingest_file(REAL / "pdf-with-jbig2.pdf")
    assert doc.mime_type == "application/pdf"
    assert doc.text == ""
    assert doc.page_starts == [0]
    assert doc.notes == ["no text layer (scanned): page 1"]


def test_017_eml_folded_boundary_headers_kept_and_attachment_recovered() -> None:
    _, doc = ingest_file(REAL / "017.eml")
    assert doc.mime_type == "message/rfc822"
    assert doc.title == "Hello world"
    assert doc.extra["from"] == ["Test User <test@example.org>"]
    assert doc.extra["to"] == ["Another User <test2@example.org>"]
    assert "The message's multipart header was malformed and was repaired" in doc.notes
    # the attachment is declared image/png but holds the text "hello world": read by content
    assert [(a.filename, a.text.strip()) for a in doc.attachments] == [
        ("image001.png", "hello world")
    ]


def test_006_eml_text_inside_signed_part_is_imported() -> None:
    _, doc = ingest_file(REAL / "006.eml")
    assert doc.title == "Hide and seek"
    assert "Search me, and Find me here" in doc.text
    assert "Don't find me here" not in doc.text  # the HTML alternative is not used
    assert "Signed by undersigned" not in doc.text  # the signature part is not body text


def test_blk_paras_and_tables_docx_in_reading_order() -> None:
    _, doc = ingest_file(REAL / "blk-paras-and-tables.docx")
    body_end = doc.extra["body_end"]
    assert isinstance(body_end, int)
    body = doc.text[:body_end]
    assert body == (
        "Lorem ipsum dolor sit amet, consectetur adipiscing elit.\n"
        "Text before Table Between Text after\n"  # a table nested in a table cell
        "Donec semper facilisis metus finibus malesuada."
    )
    assert doc.extra["headers"] == ["Left-side | Right-side"]
    assert doc.extra["footers"] == ["Copyright | Page-number"]
    assert doc.author == "Steve Canny"
