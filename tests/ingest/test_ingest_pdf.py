"""PDF: pages and their offsets, scanned pages, passwords, damaged and truncated files."""

from __future__ import annotations

import io
import re

import pytest
from ingest_helpers import make_pdf
from PIL import Image
from reportlab.lib.pdfencrypt import StandardEncryption
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from casefile.errors import IngestError
from casefile.ingest import PdfPasswordError, ingest_bytes

PAGES = [
    "Incident report 18-0214\nDeputy arrived at 14:23.",
    "Second page: witness statement\nThe witness saw three cars.",
    "Third page: conclusions\nReview due March 2.",
]


def page_of(doc_starts: list[int], offset: int) -> int:
    """1-based page number holding the str offset (what a Passage records)."""
    return max(i for i, start in enumerate(doc_starts) if start <= offset) + 1


def test_three_page_pdf_text_and_pages() -> None:
    doc = ingest_bytes(make_pdf(PAGES, title="Incident report 18-0214"), "report.pdf")
    assert doc.mime_type == "application/pdf"
    assert doc.title == "Incident report 18-0214"
    assert doc.page_starts is not None and len(doc.page_starts) == 3
    assert doc.extra["pages"] == 3
    for number, marker in enumerate(["Deputy arrived", "three cars", "Review due March 2"], 1):
        offset = doc.text.index(marker)
        assert page_of(doc.page_starts, offset) == number
    # word spacing is kept and lines end in \n only
    assert "The witness saw three cars." in doc.text
    assert "\r" not in doc.text
    assert doc.notes == []
    assert doc.author is None  # reportlab's "anonymous" placeholder is not an author


def test_pdf_named_txt_imports_as_pdf() -> None:
    doc = ingest_bytes(make_pdf(PAGES), "notes.txt")
    assert doc.mime_type == "application/pdf"
    assert "witness statement" in doc.text


def _image_pdf(pages: int, text_page: int | None = None) -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer)
    picture = Image.new("L", (200, 100), color=200)
    for number in range(1, pages + 1):
        if number == text_page:
            pdf.drawString(72, 700, "Typed cover letter")
        else:
            pdf.drawImage(ImageReader(picture), 72, 500, width=400, height=200)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_scanned_pages_are_flagged_and_kept() -> None:
    doc = ingest_bytes(_image_pdf(3, text_page=3), "scan.pdf")
    assert doc.notes == ["no text layer (scanned): pages 1\u20132"]
    assert doc.page_starts is not None and len(doc.page_starts) == 3
    assert "Typed cover letter" in doc.text
    assert page_of(doc.page_starts, doc.text.index("Typed")) == 3


def test_pdf_with_empty_user_password_opens_silently() -> None:
    data = make_pdf(PAGES, encrypt=StandardEncryption("", ownerPassword="owner", strength=128))
    doc = ingest_bytes(data, "locked-for-editing.pdf")
    assert "witness statement" in doc.text
    assert doc.notes == []


def test_password_protected_pdf_asks_then_opens() -> None:
    data = make_pdf(PAGES, encrypt=StandardEncryption("s3cret", ownerPassword="o", strength=128))
    with pytest.raises(PdfPasswordError, match=r"^report\.pdf is encrypted: give --password$") as e:
        ingest_bytes(data, "report.pdf")
    assert e.value.wrong is False
    with pytest.raises(PdfPasswordError, match=r"password given for report\.pdf is wrong") as e:
        ingest_bytes(data, "report.pdf", password="guess")
    assert e.value.wrong is True
    doc = ingest_bytes(data, "report.pdf", password="s3cret")
    assert "Review due March 2." in doc.text


def test_truncated_pdf_is_refused_clearly() -> None:
    data = make_pdf(PAGES)
    with pytest.raises(IngestError, match=r"^cut\.pdf is truncated .* cannot be read$"):
        ingest_bytes(data[: len(data) // 2], "cut.pdf")


def test_broken_cross_reference_table_is_repaired_and_noted() -> None:
    data = make_pdf(PAGES)
    broken = re.sub(rb"startxref\s+\d+", b"startxref\n999999", data)
    doc = ingest_bytes(broken, "repaired.pdf")
    assert "witness statement" in doc.text
    assert any("cross-reference table was rebuilt" in note for note in doc.notes)


def test_garbage_after_pdf_header_is_damaged() -> None:
    data = b"%PDF-1.4\n" + b"this is not a pdf body at all\n" * 20 + b"%%EOF\n"
    with pytest.raises(IngestError, match=r"^junk\.pdf is damaged and cannot be read$"):
        ingest_bytes(data, "junk.pdf")
