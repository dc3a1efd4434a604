"""PDF text as a reporter reads it: hyphenated line ends joined, columns kept apart,
running headers out of the flow, doubtful text read by the better engine or marked for OCR;
and every stored character still boxed on the right place of its page."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import matplotlib
import pypdfium2 as pdfium
from ingest_helpers import REAL, make_pdf
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from casefile.ingest import Ingested, ingest_bytes, ingest_file
from casefile.ingest.pdf import pages_needing_ocr
from casefile.ingest.pdf_text import pdfium_ranges, should_join


def _pdf(pages: list[list[tuple[float, float, str]]]) -> bytes:
    """A PDF drawn with reportlab: per page, strings at (x, y) in points (Helvetica 12)."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    for page in pages:
        for x, y, text in page:
            pdf.drawString(x, y, text)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _page_text(doc: Ingested, page: int) -> str:
    assert doc.page_starts is not None
    start = doc.page_starts[page - 1]
    end = doc.page_starts[page] - 2 if page < len(doc.page_starts) else len(doc.text)
    return doc.text[start:end]


def _assert_runs_exact(data: bytes, doc: Ingested, password: str | None = None) -> None:
    """Every stored character tied to a PDFium character is that character on the page."""
    runs = doc.extra["pdf_char_runs"]
    assert isinstance(runs, list)
    document = pdfium.PdfDocument(data, password=password)
    for number, page_runs in enumerate(runs, 1):
        text = _page_text(doc, number)
        textpage = document[number - 1].get_textpage()
        for start, first, length in page_runs:
            on_page = textpage.get_text_range(first, length).replace("\ufffe", "-")
            assert text[start:start + length] == on_page


def _boxes(data: bytes, doc: Ingested, start: int, end: int) -> list[tuple[float, ...]]:
    """PDFium's rectangles (PDF points) of the stored text [start, end) on its page, the way
    the page view boxes a passage."""
    assert doc.page_starts is not None
    page = max(n for n, s in enumerate(doc.page_starts) if s <= start)
    local = start - doc.page_starts[page], end - doc.page_starts[page]
    textpage = pdfium.PdfDocument(data)[page].get_textpage()
    runs = doc.extra["pdf_char_runs"][page]  # type: ignore[index]
    rects = []
    for first, count in pdfium_ranges(runs, *local):
        rects += [textpage.get_rect(n) for n in range(textpage.count_rects(first, count))]
    return rects


def _covers(rects: list[tuple[float, ...]], x: float, y: float) -> bool:
    return any(left - 0.5 <= x <= right + 0.5 and bottom - 0.5 <= y <= top + 0.5
               for left, bottom, right, top in rects)


HYPHENATED = [(72, 700, "The agency refused the protec-"), (72, 684, "tion of the witness and its"),
              (72, 668, "well-"), (72, 652, "known lawyer said the misidentifi-"),
              (72, 636, "cation was - "), (72, 620, "Unfortunate, said Smith-"),
              (72, 604, "Jones.")]


def test_word_hyphenated_at_a_line_end_is_joined_and_boxed_on_both_lines(
        sqlite_workspace, tmp_path: Path) -> None:
    from casefile.services.cases import create_case
    from casefile.services.documents import import_file
    from casefile.services.passages import add_passage_by_quote
    from casefile.store.search import search

    data = _pdf([HYPHENATED])
    doc = ingest_bytes(data, "hyphens.pdf")
    assert "refused the protection of the witness" in doc.text
    assert "misidentification was" in doc.text
    assert "well-known lawyer" in doc.text  # a compound keeps its hyphen
    assert "Smith-Jones." in doc.text  # before a capital: the hyphen stays
    assert "was -" in doc.text
    _assert_runs_exact(data, doc)

    # the passage over the joined word boxes "protec" on line 1 and "tion" on line 2
    start = doc.text.index("the protection of")
    rects = _boxes(data, doc, start, start + len("the protection of"))
    width = pdfmetrics.stringWidth
    x_protec = 72 + width("The agency refused the pro", "Helvetica", 12)
    x_tion = 72 + width("ti", "Helvetica", 12)
    assert _covers(rects, x_protec, 704) and _covers(rects, x_tion, 688)
    assert not _covers(rects, 72 + width("tion of the wit", "Helvetica", 12), 688)

    path = tmp_path / "hyphens.pdf"
    path.write_bytes(data)
    with sqlite_workspace.transaction() as s:
        case = create_case(s, "Hyphens")
        s.flush()
        doc_id = import_file(s, case.id, path).document_id
        passage = add_passage_by_quote(s, doc_id, "refused the protection of the witness")
        assert passage.page == 1
    with sqlite_workspace.transaction() as s:
        assert [h.item_id for h in search(s, "protection", case.id)] == [doc_id]
        assert [h.item_id for h in search(s, "misidentification", case.id)] == [doc_id]


def test_hyphen_rule_follows_the_document_and_usual_compounds() -> None:
    assert should_join("protec", "tion", set(), set())
    assert not should_join("well", "known", set(), set())
    assert not should_join("long", "term", set(), set())
    assert not should_join("Smith", "Jones", set(), set())
    # the document spells it hyphenated elsewhere, and never joined
    assert not should_join("e", "mail", set(), {"e-mail"})
    # the document spells it joined elsewhere
    assert should_join("well", "being", {"wellbeing"}, set())


def _two_columns(pages: int) -> bytes:
    drawn = []
    for page in range(1, pages + 1):
        items = [(72, 810, "The Ledger - Sheriff's report"), (280, 20, f"Page {page} of {pages}")]
        for line in range(1, 8):
            items.append((72, 720 - 16 * line, f"LEFTCOL line {line} of page {page}"))
            items.append((320, 720 - 16 * line, f"RIGHTCOL line {line} of page {page}"))
        drawn.append(items)
    return _pdf(drawn)


def test_two_column_pages_are_stored_column_by_column_with_headers_after() -> None:
    data = _two_columns(3)
    doc = ingest_bytes(data, "columns.pdf")
    for page in (1, 2, 3):
        lines = _page_text(doc, page).split("\n")
        body = [f"LEFTCOL line {n} of page {page}" for n in range(1, 8)] + \
               [f"RIGHTCOL line {n} of page {page}" for n in range(1, 8)]
        assert lines == [*body, "", "The Ledger - Sheriff's report", f"Page {page} of 3"]
    assert "Text in columns, stored column by column: pages 1\u20133" in doc.notes
    assert any(n.startswith("Running headers or footers moved") for n in doc.notes)
    _assert_runs_exact(data, doc)
    # a passage over the bottom of the left column and the top of the right one
    start = doc.text.index("LEFTCOL line 7 of page 2")
    end = doc.text.index("RIGHTCOL line 1 of page 2") + len("RIGHTCOL line 1")
    rects = _boxes(data, doc, start, end)
    assert _covers(rects, 80, 720 - 16 * 7 + 4) and _covers(rects, 330, 720 - 16 + 4)
    assert not _covers(rects, 330, 720 - 16 * 2 + 4)  # not right column line 2


def _pdfium_text_before(data: bytes, password: str | None = None) -> str:
    """The text as it was stored before the reading above: PDFium's, CR LF as LF, pages
    apart."""
    document = pdfium.PdfDocument(data, password=password)
    pages = []
    for page in document:
        raw = page.get_textpage().get_text_range().replace("\r\n", "\n")
        raw = raw.replace("\ufffe", "-").replace("\x02", "-")
        pages.append(re.sub(r"[\x00\x01\x03-\x08\x0b\x0e-\x1f]", "", raw))
    return "\n\n".join(pages)


def test_single_column_pdfs_read_as_before() -> None:
    samples = [
        (make_pdf(["Incident report 18-0214\nDeputy arrived at 14:23.",
                   "Second page: witness statement\nThe witness saw three cars."]), None),
        ((REAL / "zen_of_python_corrupted.pdf").read_bytes(), None),
        ((REAL / "aes-256-r6.pdf").read_bytes(), "usersecret"),
    ]
    for data, password in samples:
        doc = ingest_bytes(data, "sample.pdf", password=password)
        assert doc.text == _pdfium_text_before(data, password)
        assert not any("column" in n or "Running" in n or "OCR" in n for n in doc.notes)
        _assert_runs_exact(data, doc, password)


def test_wrongly_mapped_chinese_is_read_with_pdfminer_and_noted() -> None:
    _, doc = ingest_file(REAL / "issue_566_test_1.pdf")
    assert "Buyer\uff1a\u9ece\u8363" in doc.text  # Buyer：黎荣
    assert "\u54fe" not in doc.text and "\u3993" not in doc.text  # PDFium's 哾㦓
    assert any("pdfminer.six" in note and "page 1" in note for note in doc.notes)
    assert pages_needing_ocr(doc) == []
    # pdfminer's 黎荣 is boxed where PDFium's 哾㦓 is: the same glyphs on the page
    start = doc.text.index("\u9ece\u8363")
    (run,) = [r for r in doc.extra["pdf_char_runs"][0] if r[0] <= start < r[0] + r[2]]
    textpage = pdfium.PdfDocument((REAL / "issue_566_test_1.pdf").read_bytes())[0].get_textpage()
    assert textpage.get_text_range(run[1] + start - run[0], 2) == "\u54fe\u3993"


def _broken_tounicode_pdf() -> bytes:
    """Page 1 in a TrueType font whose ToUnicode map sends every glyph to the private use
    area (as broken producers do); page 2 in Helvetica, readable."""
    font = os.path.join(matplotlib.get_data_path(), "fonts", "ttf", "DejaVuSans.ttf")
    pdfmetrics.registerFont(TTFont("CasefileTestDejaVu", font))
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pageCompression=0)
    pdf.setFont("CasefileTestDejaVu", 12)
    pdf.drawString(72, 700, "Bank balances on the accounts of the company")
    pdf.showPage()
    pdf.setFont("Helvetica", 12)
    pdf.drawString(72, 700, "The second page reads well.")
    pdf.showPage()
    pdf.save()
    data = buffer.getvalue()
    # same length, so the file's offsets stay right: <2A> <002A> -> <2A> <E02A>
    broken = re.sub(rb"(<[0-9A-F]{2}> <)00([2-7][0-9A-F]>)", rb"\1E0\2", data)
    assert broken != data
    return broken


def test_text_no_engine_reads_credibly_is_marked_for_ocr() -> None:
    doc = ingest_bytes(_broken_tounicode_pdf(), "broken-font.pdf")
    assert pages_needing_ocr(doc) == [1]
    assert any(note.endswith("needs OCR") and "page 1 " in note for note in doc.notes)
    assert "The second page reads well." in _page_text(doc, 2)


def test_doubts_catch_misread_text_not_bullets_or_plain_words() -> None:
    from casefile.ingest.pdf_text import credible, doubts

    assert not credible(doubts("3HQ\u010c\u00e5QtSURVW\u011cHGN\\QD~\u00feWHFK"))  # Czech, misread
    assert not credible(doubts("ISSUE Date\u02d62019-4-25 Buyer\u02d6\u54fe\u3993"))
    assert credible(doubts("Pen\u011b\u017en\u00ed prost\u0159edky na \u00fa\u010dtech"))
    assert credible(doubts("\uf0b7 Item one\n\uf0b7 Item two, from McDonald and iPhone"))
