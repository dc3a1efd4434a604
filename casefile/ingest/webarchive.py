"""Saved web pages: MHTML (a browser's "save as single file"), WARC and WACZ web archives.

The page's HTML goes through :func:`casefile.ingest.html.ingest_html`, so its text, title,
author and published date are exactly what importing the same page as an .html file gives.
What the archive adds is kept as evidence of where and when the page was captured, in
``Ingested.extra["capture"]`` (see :func:`capture_record`): the page's URL, the capture time
(ISO 8601, UTC) and the SHA-256 of the page's HTML bytes as captured; ``Ingested.url`` is the
captured URL and ``Ingested.captured`` the capture time.

Limits (ARCHITECTURE.md, "A budget for every file"): the decompressed bytes of a WARC (its
gzip members and the WARC files inside a WACZ) are counted against the shared expansion
budget as they come out, never trusting declared lengths; a WARC may hold at most
:data:`MAX_RECORDS` records; a page over :data:`MAX_PAGE_BYTES` is not read; at most
:data:`MAX_PAGES` pages of one archive become documents (the first one the document itself,
the others its attachments), the rest named in a note. Every refusal is one IngestError
sentence naming the file and the reason. Pure: no database, no Qt.
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import hashlib
import io
import json
import zipfile
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import Message
from typing import Any

from casefile.errors import IngestError
from casefile.ingest.detect import MHTML, WACZ, WARC
from casefile.ingest.limits import Budget, MiB, check_zip, shared_budget, size_text
from casefile.ingest.types import Ingested

#: Most records read from one WARC (a crawl of one page and its images has a few hundred).
MAX_RECORDS = 50_000
#: Largest page (its HTML bytes, once decoded) read from an archive.
MAX_PAGE_BYTES = 32 * MiB
#: Most pages of one archive imported as documents; the rest are listed in a note.
MAX_PAGES = 50
#: Most MIME parts looked at in one MHTML file.
MAX_MHTML_PARTS = 10_000

_CHUNK = 1 * MiB


@dataclass
class _Page:
    html: bytes
    url: str | None
    captured: str | None  # ISO 8601 UTC, "2026-12-02T10:00:00Z"
    digest: str | None = None  # the archive's own digest of the payload, as it wrote it
    raw: bytes | None = None  # the page as captured, when ``html`` is it transcoded


def capture_record(url: str | None, captured: str | None, html: bytes, fmt: str,
                   digest: str | None = None) -> dict[str, Any]:
    """What is kept of a capture: ``{"url", "captured", "sha256", "format"}`` (+ ``"digest"``,
    the archive's own payload digest such as ``"sha1:..."``, when it wrote one). ``sha256`` is
    the hex SHA-256 of ``html``, the page's bytes as captured."""
    record: dict[str, Any] = {"url": url, "captured": captured,
                              "sha256": hashlib.sha256(html).hexdigest(), "format": fmt}
    if digest:
        record["digest"] = digest
    return record


def _page_document(page: _Page, filename: str, fmt: str) -> Ingested:
    from casefile.ingest.html import ingest_html

    result = ingest_html(page.html, filename)
    result.mime_type = {"MHTML": MHTML, "WARC": WARC, "WACZ": WACZ}[fmt]
    if page.url:
        result.url = page.url
    result.captured = page.captured
    result.extra["capture"] = capture_record(
        page.url, page.captured, page.raw if page.raw is not None else page.html, fmt,
        page.digest)
    return result


def _iso_utc(value: datetime) -> str:
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


# -- MHTML --------------------------------------------------------------------------------------

def _part_html(part: Message) -> bytes:
    """The part's HTML as bytes an .html import would read: its declared charset, when the
    markup declares none itself, is made explicit by transcoding to UTF-8 with a BOM."""
    from casefile.ingest.html import declared_charset

    raw = part.get_payload(decode=True)
    if not isinstance(raw, bytes):
        return b""
    charset = part.get_content_charset()
    if charset and declared_charset(raw) is None and charset.lower() not in ("utf-8", "utf8"):
        try:
            return b"\xef\xbb\xbf" + raw.decode(charset).encode("utf-8")
        except (LookupError, UnicodeDecodeError):
            return raw
    return raw


def ingest_mhtml(data: bytes, filename: str) -> Ingested:
    """Read a page saved as one MHTML file (RFC 2557): the HTML part the archive names in
    ``Snapshot-Content-Location`` (else the first text/html part), read as an .html file;
    URL from that header or the part's Content-Location; capture time from the ``Date``
    header. Raises IngestError when there is no HTML part, too many parts, or no text."""
    message = email.message_from_bytes(data, policy=email.policy.compat32)
    location = (message.get("Snapshot-Content-Location") or "").strip() or None
    html_parts: list[Message] = []
    for count, part in enumerate(message.walk(), start=1):
        if count > MAX_MHTML_PARTS:
            raise IngestError(f"{filename} was not imported: it holds more than "
                              f"{MAX_MHTML_PARTS:,} parts")
        if part.get_content_type() == "text/html":
            html_parts.append(part)
    if not html_parts:
        raise IngestError(f"{filename} was not imported: the saved page holds no HTML part")
    main = next((p for p in html_parts
                 if location and (p.get("Content-Location") or "").strip() == location),
                html_parts[0])
    url = location or (main.get("Content-Location") or "").strip() or None
    captured = None
    date_header = message.get("Date")
    if date_header:
        try:
            captured = _iso_utc(email.utils.parsedate_to_datetime(str(date_header)))
        except (TypeError, ValueError, IndexError):
            captured = None
    raw = main.get_payload(decode=True)
    raw = raw if isinstance(raw, bytes) else b""
    if len(raw) > MAX_PAGE_BYTES:
        raise IngestError(f"{filename} was not imported: its page is {size_text(len(raw))}, "
                          f"over the {size_text(MAX_PAGE_BYTES)} allowed for one page")
    result = _page_document(_Page(_part_html(main), url, captured, raw=raw), filename, "MHTML")
    if captured is None:
        result.notes.append("The saved page does not say when it was captured (no Date header)")
    return result


# -- WARC and WACZ ------------------------------------------------------------------------------

class _Gunzip(io.RawIOBase):
    """The decompressed bytes of a (multi-member) gzip file, or the bytes themselves when it
    is not gzipped, with every byte that comes out charged to ``budget``."""

    def __init__(self, data: bytes, filename: str, budget: Budget) -> None:
        self._data = data
        self._at = 0
        self._gzip = data[:2] == b"\x1f\x8b"
        self._inflate = zlib.decompressobj(wbits=31) if self._gzip else None
        self._pending = b""
        self._filename = filename
        self._budget = budget

    def readable(self) -> bool:
        return True

    def _more(self) -> bytes:
        if not self._gzip:
            chunk = self._data[self._at:self._at + _CHUNK]
            self._at += len(chunk)
            return chunk
        while True:
            assert self._inflate is not None
            if self._inflate.eof:  # next member
                rest = self._inflate.unused_data
                self._at -= len(rest)
                if self._at >= len(self._data) or not self._data[self._at:].strip(b"\x00"):
                    return b""
                self._inflate = zlib.decompressobj(wbits=31)
            if self._inflate.unconsumed_tail:
                out = self._inflate.decompress(self._inflate.unconsumed_tail, _CHUNK)
            else:
                chunk = self._data[self._at:self._at + 64 * 1024]
                if not chunk:  # the data ends inside a gzip member: cut short
                    raise IngestError(f"{self._filename} is damaged: it ends in the middle of "
                                      "a record (a download or copy cut short?)")
                self._at += len(chunk)
                out = self._inflate.decompress(chunk, _CHUNK)
            if out:
                return out

    def readinto(self, buffer: Any) -> int:
        if not self._pending:
            try:
                self._pending = self._more()
            except zlib.error as exc:
                raise IngestError(f"{self._filename} is damaged and cannot be read") from exc
            self._budget.charge(len(self._pending), self._filename)
        n = min(len(buffer), len(self._pending))
        buffer[:n] = self._pending[:n]
        self._pending = self._pending[n:]
        return n


def _pages_of_warc(data: bytes, filename: str, budget: Budget,
                   records: list[int]) -> list[_Page]:
    """Every HTML page (an HTTP 200 response or a resource record of type text/html) of one
    WARC file, in order. ``records`` holds one counter shared by the WARCs of a WACZ."""
    from warcio.archiveiterator import ArchiveIterator
    from warcio.exceptions import ArchiveLoadFailed

    pages: list[_Page] = []
    stream = io.BufferedReader(_Gunzip(data, filename, budget), buffer_size=_CHUNK)
    try:
        for record in ArchiveIterator(stream, no_record_parse=False, arc2warc=True):
            records[0] += 1
            if records[0] > MAX_RECORDS:
                raise IngestError(f"{filename} was not imported: it holds more than "
                                  f"{MAX_RECORDS:,} records")
            kind = record.rec_type
            if kind == "response":
                http = record.http_headers
                if http is None or http.get_statuscode() != "200":
                    continue
                content_type = http.get_header("Content-Type") or ""
            elif kind == "resource":
                content_type = record.rec_headers.get_header("Content-Type") or ""
            else:
                continue
            if content_type.split(";")[0].strip().lower() not in ("text/html",
                                                                   "application/xhtml+xml"):
                continue
            html = record.content_stream().read(MAX_PAGE_BYTES + 1)
            url = record.rec_headers.get_header("WARC-Target-URI")
            if len(html) > MAX_PAGE_BYTES:
                raise IngestError(f"{filename} was not imported: its page {url or ''} is over "
                                  f"the {size_text(MAX_PAGE_BYTES)} allowed for one page")
            date = record.rec_headers.get_header("WARC-Date")
            captured = None
            if date:
                try:
                    captured = _iso_utc(datetime.fromisoformat(date.replace("Z", "+00:00")))
                except ValueError:
                    captured = date
            charset = _charset(content_type)
            pages.append(_Page(_decoded_html(html, charset) if charset else html, url,
                               captured, record.rec_headers.get_header("WARC-Payload-Digest"),
                               raw=html))
    except IngestError:
        raise
    except (ArchiveLoadFailed, ValueError, EOFError, OSError, zlib.error) as exc:
        raise IngestError(f"{filename} is damaged and cannot be read (not a WARC web "
                          "archive, or a broken one)") from exc
    return pages


def _charset(content_type: str) -> str | None:
    for piece in content_type.split(";")[1:]:
        key, _, value = piece.partition("=")
        if key.strip().lower() == "charset" and value.strip():
            return value.strip().strip("\"'")
    return None


def _decoded_html(html: bytes, charset: str) -> bytes:
    """The HTTP header's charset made explicit, as for an MHTML part (:func:`_part_html`)."""
    from casefile.ingest.html import declared_charset

    if declared_charset(html) is not None or charset.lower() in ("utf-8", "utf8"):
        return html
    try:
        return b"\xef\xbb\xbf" + html.decode(charset).encode("utf-8")
    except (LookupError, UnicodeDecodeError):
        return html


def _archive_document(pages: list[_Page], filename: str, fmt: str,
                      first_url: str | None = None) -> Ingested:
    """The first page (or the one at ``first_url``) as the document, the other pages (at most
    :data:`MAX_PAGES` in all) as its attachments; pages without text are noted, not fatal
    unless none has any."""
    if not pages:
        raise IngestError(f"{filename} was not imported: the web archive holds no HTML page "
                          "(only other kinds of records)")
    if first_url:
        pages.sort(key=lambda p: p.url != first_url)  # stable: the named page first
    kept, left = pages[:MAX_PAGES], pages[MAX_PAGES:]
    documents: list[Ingested] = []
    notes: list[str] = []
    for number, page in enumerate(kept, start=1):
        name = filename if number == 1 else f"{filename} (page {number}: {page.url or '?'})"
        try:
            doc = _page_document(page, name, fmt)
        except IngestError as exc:
            notes.append(f"A page of the archive was not imported: {exc}")
            continue
        doc.filename = name
        doc.original = page.raw if page.raw is not None else page.html
        documents.append(doc)
    if not documents:
        raise IngestError(f"{filename} was not imported: no page in the web archive has "
                          "readable text")
    main, others = documents[0], documents[1:]
    main.original = None
    main.attachments.extend(others)
    main.notes.extend(notes)
    if others:
        main.notes.append(f"The archive holds {len(pages)} pages; the first is this document, "
                          f"{len(others)} more are attached to it")
    if left:
        shown = ", ".join(p.url or "?" for p in left[:20])
        more = f" and {len(left) - 20} more" if len(left) > 20 else ""
        main.notes.append(f"{len(left)} more pages of the archive were not imported (at most "
                          f"{MAX_PAGES} are): {shown}{more}")
    if main.captured is None:
        main.notes.append("The archive does not say when the page was captured (no WARC-Date)")
    return main


def ingest_warc(data: bytes, filename: str) -> Ingested:
    """Read a WARC web archive (plain or gzipped, ISO 28500): its first HTML page is the
    document, read as an .html file, with the record's WARC-Target-URI, WARC-Date and
    WARC-Payload-Digest; more pages are attached (:func:`_archive_document`). Raises
    IngestError (module docstring)."""
    with shared_budget() as budget:
        pages = _pages_of_warc(data, filename, budget, [0])
    return _archive_document(pages, filename, "WARC")


def ingest_wacz(data: bytes, filename: str) -> Ingested:
    """Read a WACZ file (a zip of WARCs with a page list, the Webrecorder format): the zip is
    checked like any container (:func:`casefile.ingest.limits.check_zip`), then its
    ``archive/`` WARCs are read; the first page of ``pages/pages.jsonl`` is the document.
    Raises IngestError (module docstring)."""
    with shared_budget() as budget:
        check_zip(data, filename)
        return _read_wacz(data, filename, budget)


def _read_wacz(data: bytes, filename: str, budget: Budget) -> Ingested:
    pages: list[_Page] = []
    first_url = None
    records = [0]
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = archive.namelist()
            if "pages/pages.jsonl" in names:
                with archive.open("pages/pages.jsonl") as listing:
                    for line in listing.read(MAX_PAGE_BYTES).splitlines()[1:]:
                        try:
                            entry = json.loads(line)
                        except ValueError:
                            continue
                        if isinstance(entry, dict) and isinstance(entry.get("url"), str):
                            first_url = entry["url"]
                            break
            warcs = [n for n in names if n.startswith("archive/")
                     and n.lower().endswith((".warc", ".warc.gz"))]
            if not warcs:
                raise IngestError(f"{filename} was not imported: the WACZ file holds no WARC "
                                  "archive (archive/*.warc.gz)")
            for name in warcs:
                member = archive.read(name)  # its size was checked by check_zip
                pages.extend(_pages_of_warc(member, filename, budget, records))
    except IngestError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError) as exc:
        raise IngestError(f"{filename} is damaged and cannot be read") from exc
    return _archive_document(pages, filename, "WACZ", first_url)


__all__ = ["MHTML", "WACZ", "WARC", "capture_record",
           "ingest_mhtml", "ingest_wacz", "ingest_warc"]
