"""OCR after an import: fill the text of scanned pages and image files.

The second step of an import (ARCHITECTURE.md, "Import: the document first, suggestions after").

A document needs OCR when its import marked pages as such (``meta["needs_ocr"]``: the pages
of a PDF without a text layer or without a credible one, every page of an image file). The
import commits first, so the document is safe at once; OCR is its own step, one document per
transaction:

1. :func:`read_source` reads what OCR needs (plain values, a short transaction);
2. the engine reads the page images (:func:`casefile.ingest.ocr.recognize_pages`), outside any
   transaction, with progress and cancel;
3. :func:`apply_ocr` stores the result in one transaction and returns :class:`Changes`.

:func:`ocr_document` does the three; :func:`casefile.services.waiting.pending_ocr` lists a
case's documents waiting.

What :func:`apply_ocr` changes: each OCR'd page's text is put in its place in
``Document.text`` (pages keep their separators), ``page_starts`` of later pages and the
offsets of passages and mentions after the page are shifted by the change in length, so they
still quote the same characters; the word boxes go to ``meta["ocr_words"]`` (per page number,
``[start, end, x0, y0, x1, y1]``: page-local str offsets and fractions of the page, top-left
origin) for the page pane; ``meta["ocr"]`` says which engine ran, on which pages, with what
mean confidence, and so does a note added to the document's import notes. A page that already
had some (doubtful) text is replaced only when no passage or mention lies on it; otherwise its
text is kept and the note says so. The search index is refreshed; the suggestions are the
caller's next step (the CLI and the window run them on the new text, as after an import).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from casefile.errors import ConflictError, NotFoundError
from casefile.services.audit import log_change
from casefile.services.changes import Changes, changes
from casefile.services.items import reindex
from casefile.services.originals import document_original
from casefile.services.waiting import waiting_pages
from casefile.services.watch_list import recheck_document
from casefile.store import Document, Mention, Passage
from casefile.store.conflicts import retry_on_conflict

if TYPE_CHECKING:
    from casefile.ingest.ocr import OcrEngine, OcrPage

TransactionFactory = Callable[[], AbstractContextManager[Session]]
PAGE_SEPARATOR = "\n\n"


@dataclass(frozen=True)
class OcrSource:
    """What OCR of one document reads: its original bytes, type, the pages to read and the
    text they go into (to check nothing changed meanwhile)."""

    document_id: int
    case_id: int
    title: str
    mime_type: str
    data: bytes
    pages: tuple[int, ...]
    text: str


def read_source(session: Session, document_id: int) -> OcrSource:
    """Read what OCR of a document needs. Raises NotFoundError for an unknown document."""
    original = document_original(session, document_id)  # NotFoundError for no document
    doc = session.get(Document, document_id)
    assert doc is not None
    return OcrSource(doc.id, doc.case_id, doc.title, original.mime_type or "", original.data,
                     tuple(waiting_pages(doc.meta)), doc.text or "")


@dataclass
class OcrResult:
    """What one OCR run stored: the pages filled, the pages kept as they were (they hold
    passages or mentions), the engine ("RapidOCR 1.4.4"), the mean confidence (0..1, None
    when nothing was read) and the number of words."""

    document_id: int
    engine: str
    pages: list[int] = field(default_factory=list)
    kept: list[int] = field(default_factory=list)
    empty: list[int] = field(default_factory=list)
    mean_confidence: float | None = None
    words: int = 0

    def as_json(self) -> dict[str, object]:
        """The ``ocr`` entry of ``import --json`` / ``ocr --json`` (README)."""
        return {"document_id": self.document_id, "engine": self.engine, "pages": self.pages,
                "kept": self.kept, "empty": self.empty, "words": self.words,
                "mean_confidence": (None if self.mean_confidence is None
                                    else round(self.mean_confidence, 4))}


def _page_bounds(text: str, starts: Sequence[int], page: int) -> tuple[int, int]:
    """``(start, end)`` of page ``page``'s own text (its separator excluded)."""
    start = starts[page - 1]
    if page < len(starts):
        end = starts[page]
        if text[max(start, end - len(PAGE_SEPARATOR)):end] == PAGE_SEPARATOR:
            end -= len(PAGE_SEPARATOR)
        return start, max(start, end)
    return start, len(text)


def _ranges(numbers: Sequence[int]) -> str:
    from casefile.ingest.pdf import _page_ranges

    return _page_ranges(sorted(numbers))


def apply_ocr(session: Session, source: OcrSource, found: dict[int, OcrPage],
              engine: str) -> Changes:
    """Store what OCR ``found`` (pages by 1-based number) in the document of ``source`` (one
    transaction: the caller's). See the module's notes for what changes. ``engine`` names it
    for the note. Returns Changes naming the document (``value``: an :class:`OcrResult`).

    Raises NotFoundError when the document is gone and ConflictError when its text changed
    since ``source`` was read (run OCR again)."""
    doc = session.get(Document, source.document_id)
    if doc is None:
        raise NotFoundError(f"no document with id {source.document_id} (it may have been "
                            "deleted)")
    if (doc.text or "") != source.text:
        raise ConflictError(f"“{doc.title}” changed while OCR ran; run OCR again")
    text = doc.text or ""
    starts = list(doc.page_starts or [0])
    meta = dict(doc.meta or {})
    passages = list(session.scalars(select(Passage).where(Passage.document_id == doc.id)))
    mentions = list(session.scalars(select(Mention).where(Mention.document_id == doc.id)))
    spans: list[Passage | Mention] = [*passages, *mentions]
    runs = meta.get("pdf_char_runs")
    runs = [list(r) for r in runs] if isinstance(runs, list) else None
    words_by_page = dict(meta.get("ocr_words") or {})
    result = OcrResult(doc.id, engine)
    turned: dict[int, int] = {}  # page -> degrees it was turned to be read upright
    weighted = 0.0
    letters = 0
    for page in sorted(found, reverse=True):  # from the end: earlier offsets stay valid
        if not 0 < page <= len(starts):
            continue
        ocr_text, boxes = found[page].text_and_boxes()
        start, end = _page_bounds(text, starts, page)
        if any(s.start < end and s.end > start for s in spans):  # on it, or across it
            result.kept.append(page)
            continue
        if not ocr_text:
            result.empty.append(page)
        text = text[:start] + ocr_text + text[end:]
        delta = len(ocr_text) - (end - start)
        for n in range(page, len(starts)):
            starts[n] += delta
        for span in spans:
            if span.start >= end:
                span.start += delta
                span.end += delta
        if runs is not None and page <= len(runs):
            runs[page - 1] = []  # no PDFium characters behind the OCR text
        words_by_page[str(page)] = boxes
        result.pages.append(page)
        if found[page].turned:
            turned[page] = found[page].turned
        for word in found[page].words:
            weighted += word.confidence * len(word.text)
            letters += len(word.text)
        result.words += len(boxes)
    result.pages.sort()
    result.kept.sort()
    result.empty.sort()
    result.mean_confidence = weighted / letters if letters else None
    previous: dict[str, Any] = meta["ocr"] if isinstance(meta.get("ocr"), dict) else {}
    meta["ocr"] = {
        "engine": engine,
        "pages": sorted(set(previous.get("pages", [])) | set(result.pages)),
        "kept": sorted(set(previous.get("kept", [])) | set(result.kept)),
        "mean_confidence": (None if result.mean_confidence is None
                            else round(result.mean_confidence, 4)),
    }
    meta["ocr_words"] = words_by_page
    if runs is not None:
        meta["pdf_char_runs"] = runs
    notes = list(doc.import_notes or [])
    if result.pages:
        confidence = ("no text found" if result.mean_confidence is None
                      else f"mean confidence {result.mean_confidence:.0%}")
        notes.append(f"Text of {_ranges(result.pages)} from OCR ({engine}), {confidence}")
    for page, degrees in sorted(turned.items()):
        notes.append(f"Page {page} was scanned on its side or upside down; OCR read it turned "
                     f"{degrees}° counterclockwise")
    if result.empty and result.empty != result.pages:
        notes.append(f"OCR found no text on {_ranges(result.empty)}")
    if result.kept:
        notes.append(f"OCR not applied to {_ranges(result.kept)}: passages or mentions lie on "
                     "its text, which is kept")
    doc.text = text
    doc.page_starts = starts
    doc.meta = meta
    doc.import_notes = notes
    session.flush()
    reindex(session, doc)
    watched = recheck_document(session, doc.id, text)  # the new words may name a watched one
    log_change(session, "document.ocr", case_id=doc.case_id, item_id=doc.id, summary=doc.title,
               data=result.as_json())
    shown = f"{len(result.pages)} page{'s' if len(result.pages) != 1 else ''}"
    return changes(doc.case_id, kinds={"document"}, updated=[doc.id], documents=[doc.id],
                   evidence=bool(passages), suggestions=bool(mentions), label="OCR",
                   watch=bool(watched),
                   message=f"OCR of “{doc.title}”: {shown} read ({engine}).", value=result)


class OcrCancelled(Exception):
    """OCR of a document was cancelled before anything was stored."""


def ocr_document(transaction: TransactionFactory, document_id: int, *,
                 engine: OcrEngine | str | None = None,
                 progress: Callable[[int, int], None] | None = None,
                 cancelled: Callable[[], bool] | None = None,
                 password: str | None = None) -> Changes:
    """OCR a document's waiting pages and store the text: read (one short transaction),
    recognise (no transaction; ``progress(done_pages, total_pages)``, ``cancelled()`` asked
    before each page), store (:func:`apply_ocr`, one transaction, retried on a write race).

    ``engine`` is an engine or its name (None: :func:`casefile.ingest.ocr.engine_name`).
    Returns the Changes of :func:`apply_ocr` (a document with nothing waiting gives empty
    Changes with ``value`` None). Raises OcrCancelled when cancelled (nothing stored),
    OcrError when the engine is missing or the original cannot be read, NotFoundError."""
    from casefile.ingest.ocr import get_engine, recognize_pages

    with transaction() as session:
        source = read_source(session, document_id)
    if not source.pages:
        return changes(source.case_id)
    chosen = engine if engine is not None and not isinstance(engine, str) else \
        get_engine(engine)
    found = recognize_pages(chosen, source.data, source.mime_type, source.pages,
                            password=password, progress=progress, cancelled=cancelled)
    if found is None:
        raise OcrCancelled()
    name = f"{chosen.name} {chosen.version}"

    def store() -> Changes:
        with transaction() as session:
            return apply_ocr(session, source, found, name)

    return retry_on_conflict(store)


@dataclass
class OcrBatch:
    """What :func:`ocr_documents` did: each document's OcrResult, in order; ``cancelled``
    when it stopped early (the document being read then was left as it was)."""

    results: list[OcrResult] = field(default_factory=list)
    cancelled: bool = False


def ocr_documents(transaction: TransactionFactory, document_ids: Sequence[int], *,
                  engine: OcrEngine | str | None = None,
                  progress: Callable[[int, int], None] | None = None,
                  cancelled: Callable[[], bool] | None = None) -> Changes:
    """OCR several documents, one transaction each (:func:`ocr_document`), in order.

    ``progress(done, total)`` counts in thousandths of documents (a document's pages move it
    along); ``cancelled()`` is asked before each page. Returns one Changes naming every
    document filled, ``value`` an :class:`OcrBatch` (``cancelled`` set when it stopped: the
    documents finished before stay)."""
    ids = [int(i) for i in document_ids]
    batch = OcrBatch()
    parts: list[Changes] = []
    for n, doc_id in enumerate(ids):
        if cancelled is not None and cancelled():
            batch.cancelled = True
            break

        def report(page: int, pages: int, n: int = n) -> None:
            if progress is not None:
                progress(n * 1000 + page * 1000 // max(pages, 1), len(ids) * 1000)

        try:
            ch = ocr_document(transaction, doc_id, engine=engine, progress=report,
                              cancelled=cancelled)
        except OcrCancelled:
            batch.cancelled = True
            break
        parts.append(ch)
        if ch.value is not None:
            batch.results.append(ch.value)
    docs = [d for ch in parts for d in ch.documents]
    case_id = next((ch.case_id for ch in parts if ch.case_id is not None), None)
    return changes(case_id, kinds={"document"} if docs else set(), updated=docs,
                   documents=docs, evidence=any(ch.evidence for ch in parts),
                   suggestions=any(ch.suggestions for ch in parts), label="OCR",
                   message=f"OCR read {len(docs)} document{'s' if len(docs) != 1 else ''}.",
                   value=batch)
