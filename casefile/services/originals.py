"""A document's original file: the bytes kept in the ``blobs`` table, with what a viewer needs.

The document viewer shows a PDF's pages beside its extracted text; it reads the original bytes
here (plain values, no ORM object escapes the session) and renders them itself.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from casefile.services import lookup
from casefile.store import Blob, Document

PDF_MIME = "application/pdf"
#: Image types shown in the page pane (wrapped as a PDF: ``casefile.ingest.images``).
IMAGE_MIMES = ("image/png", "image/jpeg", "image/tiff")
OcrWords = tuple[tuple[float, ...], ...]


@dataclass(frozen=True)
class Original:
    """A document's original bytes and the facts needed to show them.

    ``data`` is empty when the document has no stored original (a note typed in the window);
    ``page_starts`` are the str offsets where each page's text starts (empty when unpaged);
    ``notes`` are the import notes (e.g. "no text layer (scanned): pages 1–2");
    ``char_runs`` are, per page of a PDF, the runs tying the page's stored characters to
    PDFium's characters (``casefile.ingest.pdf_text.char_runs``; empty for a PDF imported
    before Casefile kept them);
    ``ocr_words`` are, for each page whose text came from OCR (1-based page number), its
    words as ``(start, end, x0, y0, x1, y1)``: page-local str offsets and a box in fractions
    of the page, top-left origin (``casefile.services.ocr``).
    """

    document_id: int
    title: str
    filename: str | None
    mime_type: str | None
    sha256: str | None
    data: bytes
    page_starts: tuple[int, ...]
    notes: tuple[str, ...]
    char_runs: tuple[tuple[tuple[int, int, int], ...], ...] = ()
    ocr_words: dict[int, OcrWords] = field(default_factory=dict)

    @property
    def is_pdf(self) -> bool:
        """True when the original is a PDF with bytes to render."""
        return self.mime_type == PDF_MIME and bool(self.data)

    @property
    def is_image(self) -> bool:
        """True when the original is an image file (PNG, JPEG, TIFF) with bytes to show."""
        return self.mime_type in IMAGE_MIMES and bool(self.data)

    @property
    def has_pages(self) -> bool:
        """True when the page pane can show the original: a PDF or an image."""
        return self.is_pdf or self.is_image

    @property
    def page_count(self) -> int:
        """Pages known from the import (0 for unpaged documents)."""
        return len(self.page_starts)

    def page_at(self, offset: int) -> int | None:
        """The 1-based page holding str offset ``offset`` (None when unpaged); the same rule
        as ``Document.page_at``, so it agrees with the page stored on passages."""
        if not self.page_starts:
            return None
        return max(1, bisect_right(self.page_starts, offset))

    def page_span(self, page: int, text_length: int) -> tuple[int, int]:
        """The str offsets ``(start, end)`` of page ``page``'s text (1-based), separator
        excluded only as far as the next page's start."""
        start = self.page_starts[page - 1]
        end = self.page_starts[page] if page < len(self.page_starts) else text_length
        return start, end


def document_original(session: Session, document_id: int) -> Original:
    """The original bytes of a document and its page offsets. Raises NotFoundError."""
    doc = lookup.row(session, Document, document_id,
                     f"no document with id {document_id} (it may have been deleted)")
    data = b""
    if doc.sha256:
        data = session.scalar(select(Blob.data).where(Blob.sha256 == doc.sha256)) or b""
    return Original(
        document_id=doc.id, title=doc.title, filename=doc.filename, mime_type=doc.mime_type,
        sha256=doc.sha256, data=bytes(data), page_starts=tuple(doc.page_starts or ()),
        notes=tuple(doc.import_notes or ()), char_runs=_char_runs(doc.meta),
        ocr_words=_ocr_words(doc.meta),
    )


def _ocr_words(meta: object) -> dict[int, OcrWords]:
    pages = meta.get("ocr_words") if isinstance(meta, dict) else None
    if not isinstance(pages, dict):
        return {}
    try:
        return {int(page): tuple(tuple(float(v) for v in word) for word in words)
                for page, words in pages.items()}
    except (TypeError, ValueError):
        return {}


def _char_runs(meta: object) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    runs = meta.get("pdf_char_runs") if isinstance(meta, dict) else None
    if not isinstance(runs, list):
        return ()
    try:
        return tuple(tuple((int(a), int(b), int(c)) for a, b, c in page) for page in runs)
    except (TypeError, ValueError):
        return ()
