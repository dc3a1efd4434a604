"""PDF: text per page with pypdfium2 (PDFium keeps word spacing), page offsets, damage notes.

pypdfium2 is not thread-safe: every use of it, here and in the window's page view, holds
:data:`PDFIUM_LOCK` (an import runs on a worker thread while the window renders pages).
"""

from __future__ import annotations

import contextlib
import io
import re
import threading
import zlib
from datetime import datetime
from pathlib import PurePath
from typing import TYPE_CHECKING

from casefile.errors import IngestError
from casefile.ingest.detect import PDF
from casefile.ingest.types import Ingested

if TYPE_CHECKING:  # pypdfium2 loads when a PDF is first read (start-up time of the window)
    import pypdfium2 as pdfium

PAGE_SEPARATOR = "\n\n"
_TITLE_MAX = 120
# Values PDF producers write when they know nothing (reportlab writes "anonymous"/"unspecified").
_PLACEHOLDERS = {"", "anonymous", "unknown", "unspecified", "untitled", "none", "(anonymous)"}
_STREAM_CHECK_MAX_BYTES = 50 * 1024**2  # beyond this, skip the (pure Python) stream check
#: Held around every call into PDFium (it is not thread-safe); re-entrant.
PDFIUM_LOCK = threading.RLock()


class PdfPasswordError(IngestError):
    """The PDF is encrypted and the password is missing (``wrong`` False) or wrong (True).

    The window catches this to ask for a password; the CLI prints it (it names ``--password``).
    """

    def __init__(self, message: str, *, wrong: bool) -> None:
        super().__init__(message)
        self.wrong = wrong


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


def _clean_page_text(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    # PDFium marks a hyphen that breaks a word at a line end as U+FFFE or U+0002; it is a real
    # hyphen on the page, so keep it as one. NULs and other control bytes are dropped.
    text = text.replace("\ufffe", "-").replace("\x02", "-")
    return re.sub(r"[\x00\x01\x03-\x08\x0b\x0e-\x1f]", "", text)


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
    for line in text.split("\n"):
        line = line.strip()
        if line:
            if len(line) <= _TITLE_MAX:
                return line
            break
    return PurePath(filename).stem or filename


def ingest_pdf(data: bytes, filename: str, password: str | None = None) -> Ingested:
    """Read a PDF: the text of each page, in order, pages separated by a blank line.

    ``page_starts[n-1]`` is the str offset where page n's text starts. Notes flag pages without
    a text layer ("no text layer (scanned): pages 1–2"; their text is empty, the pages are still
    in the original for viewing), a repaired cross-reference table and damaged compressed
    streams. An encrypted PDF opens with an empty user password silently, or with ``password``.

    Raises PdfPasswordError (an IngestError) when a password is needed or is wrong, IngestError
    for a truncated file (no ``%%EOF`` in its last 1024 bytes, ISO 32000-1 7.5.5), a file PDFium
    cannot repair, or one without pages.
    """
    if b"%%EOF" not in data[-1024:]:
        raise IngestError(f"{filename} is truncated (the file ends too early) and cannot be read")
    with PDFIUM_LOCK:
        return _ingest_pdf(data, filename, password)


def _ingest_pdf(data: bytes, filename: str, password: str | None) -> Ingested:
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    document = _open(data, filename, password)
    try:
        if len(document) == 0:
            raise IngestError(f"{filename} has no pages")
        parts: list[str] = []
        starts: list[int] = []
        scanned: list[int] = []
        blank: list[int] = []
        offset = 0
        for index in range(len(document)):
            page = document[index]
            try:
                textpage = page.get_textpage()
                try:
                    page_text = _clean_page_text(textpage.get_text_range())
                finally:
                    textpage.close()
                if not page_text.strip():
                    page_text = ""
                    has_objects = next(iter(page.get_objects(max_depth=1)), None) is not None
                    (scanned if has_objects else blank).append(index + 1)
            finally:
                page.close()
            if index:
                parts.append(PAGE_SEPARATOR)
                offset += len(PAGE_SEPARATOR)
            starts.append(offset)
            parts.append(page_text)
            offset += len(page_text)
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

    text = "".join(parts)
    notes: list[str] = []
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
    for key, name in (("CreationDate", "created"), ("ModDate", "modified")):
        if key in meta and (iso := _pdf_date(meta[key])):
            result.extra[name] = iso
    for key, name in (("Subject", "subject"), ("Producer", "producer"), ("Creator", "creator")):
        if meta.get(key, "").strip():
            result.extra[name] = meta[key].strip()
    if password is not None:
        result.notes.append("Encrypted: opened with the password given")
    return result
