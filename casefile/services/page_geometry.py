"""Where a document's text sits on its pages, for the window's page pane. Read-only, Qt-free.

The page pane (``casefile/ui/pdf_pages.py``) renders pages with pypdfium2 and paints a passage's
boxes on them; what it needs from ingest comes through here (ARCHITECTURE.md, "Layers": the
window never imports ``casefile.ingest``):

- :data:`PDFIUM_LOCK`, held around every call into PDFium (it is not thread-safe, and an import
  may be reading a PDF on a worker thread while the pane renders);
- :func:`viewable_pdf`: the bytes the pane opens (an image becomes a one-page-per-frame PDF);
- :func:`span_boxes` (PDF pages, from PDFium's character boxes) and :func:`ocr_span_boxes`
  (pages read by OCR, from the stored word boxes).

A box is ``(x, y, width, height)`` as fractions of the page (0..1, top-left origin, the page's
rotation applied).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pypdfium2 as pdfium
from pypdfium2._helpers.bitmap import PdfPosConv

from casefile.errors import IngestError
from casefile.ingest.pdf import PDFIUM_LOCK
from casefile.ingest.pdf_text import pdfium_ranges

__all__ = ["PDFIUM_LOCK", "Box", "cleaned_with_indexes", "ocr_span_boxes", "span_boxes",
           "viewable_pdf"]

#: ``(x, y, width, height)``, fractions of the page, top-left origin.
Box = tuple[float, float, float, float]

_DROPPED_CONTROLS = re.compile(r"[\x00\x01\x03-\x08\x0b\x0e-\x1f]")


def viewable_pdf(data: bytes, *, is_image: bool) -> bytes:
    """The bytes the page pane opens with PDFium: ``data`` itself for a PDF; for an image, its
    frames as the pages of a PDF made in memory (empty bytes when Pillow cannot read it, which
    PDFium then reports as unreadable)."""
    if not is_image:
        return data
    from casefile.ingest.images import image_as_pdf  # Pillow: only for an image

    try:
        return image_as_pdf(data)
    except IngestError:
        return b""


def cleaned_with_indexes(raw: str) -> tuple[str, list[int]]:
    """``raw`` page text cleaned as ``casefile.ingest.pdf`` cleans it, with the PDFium char
    index of each kept character (so stored offsets map back to characters on the page)."""
    out: list[str] = []
    index: list[int] = []
    n = len(raw)
    i = 0
    while i < n:
        c = raw[i]
        if c == "\r":
            out.append("\n")
            index.append(i)
            i += 2 if i + 1 < n and raw[i + 1] == "\n" else 1
            continue
        if c in "\ufffe\x02":
            c = "-"
        elif _DROPPED_CONTROLS.match(c):
            i += 1
            continue
        out.append(c)
        index.append(i)
        i += 1
    return "".join(out), index


def span_boxes(document: pdfium.PdfDocument, index: int, page_text: str, start: int,
               end: int, runs: tuple[tuple[int, int, int], ...] | None = None) -> list[Box]:
    """Boxes covering ``page_text[start:end]`` (page-local str offsets) on page ``index``
    (0-based) of an open PDF. ``runs``, the page's stored character runs
    (``Original.char_runs``), place the characters; without them (documents imported before),
    the boxes are empty when PDFium's text of the page does not match the stored one. Hold
    :data:`PDFIUM_LOCK`; raises ``pdfium.PdfiumError`` for a page PDFium cannot read."""
    page = document[index]
    textpage = page.get_textpage()
    try:
        if runs is not None:
            ranges = pdfium_ranges(runs, start, end)
        else:
            cleaned, chars = cleaned_with_indexes(textpage.get_text_range())
            if cleaned != page_text or not (0 <= start < end <= len(chars)):
                return []
            ranges = [(chars[start], chars[end - 1] - chars[start] + 1)]
        width, height = page.get_size()
        size_x, size_y = max(1, round(width * 10)), max(1, round(height * 10))
        conv = PdfPosConv(page, (0, 0, size_x, size_y, 0))
        boxes: list[Box] = []
        for first, count in ranges:
            for n in range(textpage.count_rects(first, count)):
                left, bottom, right, top = textpage.get_rect(n)
                x0, y0 = conv.to_bitmap(left, top)
                x1, y1 = conv.to_bitmap(right, bottom)
                box = (min(x0, x1) / size_x, min(y0, y1) / size_y,
                       abs(x1 - x0) / size_x, abs(y1 - y0) / size_y)
                if box[2] > 0 and box[3] > 0:
                    boxes.append(box)
        return boxes
    finally:
        textpage.close()
        page.close()


def ocr_span_boxes(words: Sequence[Sequence[float]], start: int, end: int) -> list[Box]:
    """Boxes covering the page-local str offsets ``start <= i < end`` of a page read by OCR,
    whose words are ``[start, end, x0, y0, x1, y1]`` (``Original.ocr_words``, fractions of the
    page): a word partly in the span is cut by character positions, neighbouring words of one
    line merge into one box."""
    from casefile.ingest.ocr import span_boxes as word_boxes  # the OCR module: when needed

    return [(x0, y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in word_boxes(words, start, end)]
