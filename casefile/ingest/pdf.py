"""PDF: text per page with pypdfium2 (PDFium keeps word spacing), page offsets, damage notes.

Each page's text is settled by :mod:`casefile.ingest.pdf_text`: pages set in columns are stored
column by column, running headers and footers after the body, words hyphenated at a line end
joined; a page whose PDFium text looks misread is read again with pdfminer.six, and the better
reading is kept (noted), or the page is marked as needing OCR (:func:`pages_needing_ocr`).
``Ingested.extra["pdf_char_runs"]`` ties every stored character to PDFium's character on the
page, so the page view boxes a passage on the right words whatever was moved or joined.

pypdfium2 is not thread-safe: every use of it, here and in the window's page view, holds
:data:`PDFIUM_LOCK` (an import runs on a worker thread while the window renders pages).
"""

from __future__ import annotations

import contextlib
import io
import re
import threading
import zlib
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from casefile.errors import IngestError, PdfPasswordError
from casefile.ingest import budget
from casefile.ingest.detect import PDF
from casefile.ingest.pdf_text import (
    Doubts,
    Line,
    char_runs,
    column_order,
    credible,
    doubts,
    has_side_by_side_runs,
    join_hyphenated,
    move_running_lines,
    page_text,
    pdfium_lines,
    place_lines,
    same_reading,
    vocabulary,
)
from casefile.ingest.text import first_line_title
from casefile.ingest.types import Ingested

if TYPE_CHECKING:  # pypdfium2 loads when a PDF is first read (start-up time of the window)
    import pypdfium2 as pdfium

PAGE_SEPARATOR = "\n\n"
# Values PDF producers write when they know nothing (reportlab writes "anonymous"/"unspecified").
_PLACEHOLDERS = {"", "anonymous", "unknown", "unspecified", "untitled", "none", "(anonymous)"}
_STREAM_CHECK_MAX_BYTES = 50 * 1024**2  # beyond this, skip the (pure Python) stream check
#: Held around every call into PDFium (it is not thread-safe); re-entrant.
PDFIUM_LOCK = threading.RLock()


def _page_ranges(numbers: list[int]) -> str:
    """[1, 2, 3, 5] -> "pages 1–3, 5"; [4] -> "page 4"."""
    spans: list[list[int]] = []
    for n in numbers:
        if spans and spans[-1][1] == n - 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    text = ", ".join(f"{a}" if a == b else f"{a}\u2013{b}" for a, b in spans)
    return f"{'page' if len(numbers) == 1 else 'pages'} {text}"


def _pdf_date(value: str) -> str | None:
    """PDF date string (``D:YYYYMMDDHHmmSS...``, ISO 32000-1 7.9.4) -> ISO 8601 date."""
    found = re.match(r"(?:D:)?(\d{4})(\d{2})?(\d{2})?", value.strip())
    if not found:
        return None
    year, month, day = found.group(1), found.group(2) or "01", found.group(3) or "01"
    try:
        return datetime(int(year), int(month), int(day)).date().isoformat()
    except ValueError:
        return None


def _open(data: bytes, filename: str, password: str | None) -> pdfium.PdfDocument:
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    try:
        return pdfium.PdfDocument(data, password=password)
    except pdfium.PdfiumError as exc:
        code = exc.err_code
        if code == pdfium_c.FPDF_ERR_PASSWORD:
            if password is None:
                raise PdfPasswordError(
                    f"{filename} is encrypted: give --password", wrong=False
                ) from None
            raise PdfPasswordError(
                f"The password given for {filename} is wrong", wrong=True
            ) from None
        if code == pdfium_c.FPDF_ERR_SECURITY:
            raise IngestError(f"{filename} uses an encryption that cannot be opened") from None
        raise IngestError(f"{filename} is damaged and cannot be read") from None


# A stream's dictionary closes right before its "stream" keyword (ISO 32000-1 7.3.8.1).
_STREAM_START = re.compile(rb">>\s*stream(?:\r\n|\n|\r)")
_CHUNK = 64 * 1024


def check_password(data: bytes, filename: str, password: str | None) -> None:
    """Open the PDF ``data`` (without reading its pages) to see whether ``password`` opens
    it: raises PdfPasswordError when a password is needed (``wrong`` False) or the one given
    is wrong (True), IngestError when it cannot be opened at all."""
    _open(data, filename, password).close()


def _inflated_size(data: bytes, start: int, limit: int) -> int:
    """How many bytes the zlib stream at ``data[start:]`` inflates to, counted in pieces of
    at most 1 MB and never kept; counting stops once past ``limit``, or at the first zlib
    error (damaged or encrypted data: what was inflated so far)."""
    inflater = zlib.decompressobj()
    total = 0
    position = start
    try:
        while position < len(data) and not inflater.eof:
            piece = data[position:position + _CHUNK]
            position += _CHUNK
            while piece and not inflater.eof:
                total += len(inflater.decompress(piece, 1024**2))
                if total > limit:
                    return total
                piece = inflater.unconsumed_tail
    except zlib.error:
        pass
    return total


def check_inflation(data: bytes, filename: str) -> None:
    """Refuse a PDF whose Flate streams inflate beyond the memory budget (a decompression
    bomb: a small file that PDFium would inflate to gigabytes when reading its pages).

    Every stream whose dictionary names FlateDecode is inflated in pieces and counted, never
    kept (memory stays at a few MB): one stream over
    :data:`casefile.ingest.budget.MAX_INFLATED_STREAM` or all of them over
    :data:`~casefile.ingest.budget.MAX_INFLATED_TOTAL` raises IngestError ("bomb.pdf was not
    imported: a compressed stream in it inflates to more than 256 MB (a decompression
    bomb)"). Streams of an encrypted file do not inflate before deciphering and are not
    counted."""
    total = 0
    for found in _STREAM_START.finditer(data):
        head = data[max(0, found.start() - 4096):found.start()]
        head = head[head.rfind(b"obj") + 1:]
        if b"Flate" not in head:
            continue
        left = min(budget.MAX_INFLATED_STREAM, budget.MAX_INFLATED_TOTAL - total)
        size = _inflated_size(data, found.end(), left)
        if size > budget.MAX_INFLATED_STREAM:
            raise IngestError(
                f"{filename} was not imported: a compressed stream in it inflates to more "
                f"than {budget.MAX_INFLATED_STREAM // 1024**2} MB (a decompression bomb)")
        total += size
        if total > budget.MAX_INFLATED_TOTAL:
            raise IngestError(
                f"{filename} was not imported: its compressed streams inflate to more than "
                f"{budget.MAX_INFLATED_TOTAL // 1024**3} GB in all (a decompression bomb)")


def _inflates(raw: bytes) -> bool:
    try:
        zlib.decompress(raw)
    except zlib.error:
        return False
    return True


def _damaged_streams(data: bytes, password: str | None) -> int:
    """How many Flate-compressed streams fail their zlib check (bad data or checksum).

    PDFium silently reads what it can of such streams, so the text may be incomplete; this asks
    pdfminer.six for the objects and zlib for a strict decompression. Returns 0 when the check
    cannot be made (pdfminer cannot parse the file): PDFium's reading is what counts.
    """
    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfparser import PDFParser
    from pdfminer.pdftypes import LITERALS_FLATE_DECODE, PDFStream

    try:
        document = PDFDocument(PDFParser(io.BytesIO(data)), password=password or "")
        damaged = 0
        seen: set[int] = set()
        for xref in document.xrefs:
            for objid in xref.get_objids():
                if objid in seen:
                    continue
                seen.add(objid)
                try:
                    obj = document.getobj(objid)
                except Exception:
                    continue
                if not isinstance(obj, PDFStream):
                    continue
                filters = obj.get_filters()
                if not filters or filters[0][0] not in LITERALS_FLATE_DECODE:
                    continue
                raw = obj.rawdata
                if raw is None:
                    continue
                # Encrypted files leave some streams in clear (XRef streams, metadata): a
                # stream is damaged only if neither its deciphered nor its raw bytes inflate.
                candidates = [raw]
                if obj.decipher and obj.objid is not None and obj.genno is not None:
                    candidates.insert(0, obj.decipher(obj.objid, obj.genno, raw, obj.attrs))
                if not any(_inflates(candidate) for candidate in candidates):
                    damaged += 1
        return damaged
    except Exception:
        return 0


def _title(meta: dict[str, str], text: str, filename: str) -> str:
    title = (meta.get("Title") or "").strip()
    if title and not re.match(r"(?i)^(untitled|microsoft word - )", title):
        return title
    return first_line_title(text, filename)


def _second_look(document: pdfium.PdfDocument, number: int, state: _Page,
                 boxes: _Boxes | None) -> None:
    """Settle a page pdfminer.six was asked about (columns, or doubtful text), in place."""
    page = document[number]
    textpage = page.get_textpage()
    try:
        _settle(state, textpage, boxes)
        _place(state.lines, textpage, page)
    finally:
        textpage.close()
        page.close()


def _settle(state: _Page, textpage: pdfium.PdfTextPage, boxes: _Boxes | None) -> None:
    """Choose the engine of a doubtful page and the order of a page in columns."""
    if state.doubted is not None:
        pdfium_text = page_text(state.lines)[0]
        other = _pdfminer_lines(boxes, textpage) if boxes else []
        other_text = page_text(other)[0]
        other_doubts = doubts(other_text) if other_text.strip() else None
        if same_reading(pdfium_text, other_text) and state.doubted.hard == 0:
            pass  # two engines read the same rare characters: they are on the page
        elif other_doubts is not None and other_doubts.ratio < state.doubted.ratio:
            state.lines, state.engine, state.columns = other, "pdfminer.six", False
            state.needs_ocr = not credible(other_doubts)
        else:
            state.needs_ocr = True
        if state.engine != "PDFium":
            return
    if state.columns and boxes:
        bounds = []
        for box in boxes:
            placed = [b for _t, b in box if b is not None]
            if placed:
                bounds.append((min(b[0] for b in placed), min(b[1] for b in placed),
                               max(b[2] for b in placed), max(b[3] for b in placed)))
        char_box = {i: tuple(textpage.get_charbox(i)) for i in range(textpage.count_chars())}
        reordered = column_order(state.lines, bounds, char_box)
        if reordered is not None:
            state.lines = reordered
            state.reordered = True


def pages_needing_ocr(document: Ingested) -> list[int]:
    """The 1-based pages of an ingested PDF that need OCR: no text layer, or a text neither
    PDFium nor pdfminer.six reads credibly (``extra["needs_ocr"]``; [] for other documents)."""
    pages = document.extra.get("needs_ocr")
    return [int(n) for n in pages] if isinstance(pages, list) else []


def ingest_pdf(data: bytes, filename: str, password: str | None = None) -> Ingested:
    """Read a PDF: the text of each page, in order, pages separated by a blank line.

    ``page_starts[n-1]`` is the str offset where page n's text starts. Notes flag pages without
    a text layer ("no text layer (scanned): pages 1–2"; their text is empty, the pages are still
    in the original for viewing), a repaired cross-reference table and damaged compressed
    streams. An encrypted PDF opens with an empty user password silently, or with ``password``.
    ``extra`` holds ``pdf_char_runs`` (per page, runs ``[start, pdfium_index, length]``: page
    text offsets -> PDFium character indexes), ``needs_ocr`` (1-based pages) and
    ``hyphens_joined`` (a count, when any).

    Raises PdfPasswordError (an IngestError) when a password is needed or is wrong, IngestError
    for a decompression bomb (:func:`check_inflation`, checked first), a truncated file (no
    ``%%EOF`` in its last 1024 bytes, ISO 32000-1 7.5.5), a file PDFium cannot repair, one
    without pages or one with more than :data:`casefile.ingest.budget.MAX_PDF_PAGES` pages
    (its count named).
    """
    check_inflation(data, filename)
    if b"%%EOF" not in data[-1024:]:
        raise IngestError(f"{filename} is truncated (the file ends too early) and cannot be read")
    with PDFIUM_LOCK:
        return _ingest_pdf(data, filename, password)


@dataclass
class _Page:
    """One page while it is read: its lines, and why pdfminer.six is asked about it."""

    lines: list[Line]
    columns: bool = False
    doubted: Doubts | None = None
    engine: str = "PDFium"
    needs_ocr: bool = False
    reordered: bool = False


#: pdfminer.six's text boxes of a page, each a list of characters (text, bbox or None).
_Boxes = list[list[tuple[str, tuple[float, ...] | None]]]


def _pdfminer_pages(data: bytes, password: str | None, numbers: set[int]) -> dict[int, _Boxes]:
    """pdfminer.six's layout (``LAParams`` defaults) of the 0-based pages ``numbers``: per page,
    its text boxes in reading order, each a list of characters ``(text, bbox or None)`` with
    "\n" ending each line. Pages pdfminer cannot read are left out."""
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LAParams, LTAnno, LTChar, LTTextBox, LTTextLine

    found: dict[int, _Boxes] = {}
    try:
        pages = extract_pages(io.BytesIO(data), password=password or "",
                              page_numbers=sorted(numbers), laparams=LAParams())
        for number, layout in zip(sorted(numbers), pages, strict=False):
            boxes = []
            for box in layout:
                if not isinstance(box, LTTextBox):
                    continue
                chars: list[tuple[str, tuple[float, ...] | None]] = []
                for line in box:
                    if not isinstance(line, LTTextLine):
                        continue
                    for item in line:
                        if isinstance(item, LTChar):
                            chars.append((item.get_text(), tuple(item.bbox)))
                        elif isinstance(item, LTAnno):
                            chars.append((item.get_text(), None))
                    if not chars or chars[-1][0] != "\n":
                        chars.append(("\n", None))
                boxes.append(chars)
            found[number] = boxes
    except Exception:  # pdfminer cannot parse what PDFium could: PDFium's reading stands
        return found
    return found


def _pdfminer_lines(boxes: _Boxes, textpage: pdfium.PdfTextPage) -> list[Line]:
    """pdfminer.six's text of a page as lines, each character tied to the PDFium character
    at its place on the page (``-1`` where PDFium has none)."""
    lines: list[Line] = []
    for box in boxes:
        line = Line()
        for text, bbox in box:
            if text == "\n":
                lines.append(line)
                line = Line()
                continue
            index = -1
            if bbox is not None:
                x, y = (bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2
                tolerance = max(1.0, (bbox[3] - bbox[1]) / 4)
                index = textpage.get_index(x, y, tolerance, tolerance)
                index = index if isinstance(index, int) and index >= 0 else -1
            for char in text:
                line.add(char, index)
        if line.chars:
            lines.append(line)
    return lines


def _place(lines: list[Line], textpage: pdfium.PdfTextPage, page: pdfium.PdfPage) -> None:
    """Set each line's depth on the page (for running headers and footers)."""
    left, bottom, right, top = page.get_bbox()

    def top_of(index: int) -> float | None:
        box = textpage.get_charbox(index)
        return float(box[3]) - float(bottom) if box[2] > box[0] else None

    place_lines(lines, top_of, float(top) - float(bottom))


def _rects(textpage: pdfium.PdfTextPage) -> list[tuple[float, float, float, float]]:
    return [tuple(textpage.get_rect(n)) for n in range(textpage.count_rects())]


def _ingest_pdf(data: bytes, filename: str, password: str | None) -> Ingested:
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    document = _open(data, filename, password)
    try:
        if len(document) == 0:
            raise IngestError(f"{filename} has no pages")
        if len(document) > budget.MAX_PDF_PAGES:
            raise IngestError(
                f"{filename} was not imported: it has {budget.count(len(document))} pages; "
                f"Casefile reads at most {budget.count(budget.MAX_PDF_PAGES)} (split it into "
                "parts and import those)")
        pages: list[_Page] = []
        scanned: list[int] = []
        blank: list[int] = []
        for index in range(len(document)):
            page = document[index]
            try:
                textpage = page.get_textpage()
                try:
                    lines = pdfium_lines(textpage.get_text_range())
                    state = _Page(lines)
                    text = page_text(lines)[0]
                    if text.strip():
                        found = doubts(text)
                        state.doubted = None if credible(found) else found
                        state.columns = has_side_by_side_runs(_rects(textpage))
                        if not state.columns and state.doubted is None:
                            _place(state.lines, textpage, page)
                finally:
                    textpage.close()
                if not text.strip():
                    state.lines = []
                    has_objects = next(iter(page.get_objects(max_depth=1)), None) is not None
                    (scanned if has_objects else blank).append(index + 1)
            finally:
                page.close()
            pages.append(state)
        asked = {n for n, p in enumerate(pages) if p.columns or p.doubted is not None}
        layouts = _pdfminer_pages(data, password, asked) if asked else {}
        for number in sorted(asked):
            _second_look(document, number, pages[number], layouts.get(number))
        meta = {
            key: value.strip()
            for key, value in document.get_metadata_dict().items()
            if value and value.strip().lower() not in _PLACEHOLDERS
        }
        xref_ok = bool(pdfium_c.FPDF_DocumentHasValidCrossReferenceTable(document.raw))
    except pdfium.PdfiumError:
        raise IngestError(f"{filename} is damaged and cannot be read") from None
    finally:
        with contextlib.suppress(Exception):
            document.close()

    running = move_running_lines([p.lines for p in pages])
    words, hyphenated = vocabulary("\n".join(line.text for line in p.lines) for p in pages)
    parts: list[str] = []
    starts: list[int] = []
    runs: list[list[list[int]]] = []
    joined = 0
    offset = 0
    for number, state in enumerate(pages):
        joined += join_hyphenated(state.lines, words, hyphenated)
        text, indexes = page_text(state.lines)
        if number:
            parts.append(PAGE_SEPARATOR)
            offset += len(PAGE_SEPARATOR)
        starts.append(offset)
        parts.append(text)
        runs.append(char_runs(indexes))
        offset += len(text)
    text = "".join(parts)
    notes: list[str] = []
    by_engine = [n + 1 for n, p in enumerate(pages) if p.engine != "PDFium"]
    if by_engine:
        notes.append(f"Text of {_page_ranges(by_engine)} read with pdfminer.six: PDFium's "
                     "reading had characters that are likely wrong")
    ocr = [n + 1 for n, p in enumerate(pages) if p.needs_ocr]
    if ocr:
        notes.append(f"Text likely wrong on {_page_ranges(ocr)} (neither PDFium nor "
                     "pdfminer.six reads it credibly): needs OCR")
    columns = [n + 1 for n, p in enumerate(pages) if p.reordered]
    if columns:
        notes.append(f"Text in columns, stored column by column: {_page_ranges(columns)}")
    if running:
        notes.append(f"Running headers or footers moved after the page's text: "
                     f"{_page_ranges(running)}")
    if scanned:
        notes.append(f"no text layer (scanned): {_page_ranges(scanned)}")
    if blank:
        notes.append(f"blank: {_page_ranges(blank)}")
    if not xref_ok:
        notes.append("Damaged file: its cross-reference table was rebuilt; text may be incomplete")
    if len(data) <= _STREAM_CHECK_MAX_BYTES:
        damaged = _damaged_streams(data, password)
        if damaged:
            notes.append(
                f"Damaged file: {damaged} compressed "
                f"{'stream was' if damaged == 1 else 'streams were'} corrupt and read as far "
                "as possible; text may be incomplete"
            )
    result = Ingested(
        text=text,
        mime_type=PDF,
        title=_title(meta, text, filename),
        author=(meta.get("Author") or "").strip() or None,
        kind="report",
        page_starts=starts,
        notes=notes,
        filename=filename,
    )
    result.extra["pages"] = len(starts)
    result.extra["pdf_char_runs"] = runs
    result.extra["needs_ocr"] = sorted(set(scanned) | set(ocr))
    if joined:
        result.extra["hyphens_joined"] = joined
    for key, name in (("CreationDate", "created"), ("ModDate", "modified")):
        if key in meta and (iso := _pdf_date(meta[key])):
            result.extra[name] = iso
    for key, name in (("Subject", "subject"), ("Producer", "producer"), ("Creator", "creator")):
        if meta.get(key, "").strip():
            result.extra[name] = meta[key].strip()
    if password is not None:
        result.notes.append("Encrypted: opened with the password given")
    return result
