"""Which kind of file is this? Decided from the bytes, not from the name.

The file name only breaks ties between formats the content cannot tell apart (a Markdown file
and a plain text file are both just text), and it never makes a PDF, a Word file or an email
out of bytes that are not one.
"""

from __future__ import annotations

import codecs
import io
import re
import unicodedata
import zipfile
import zlib

PDF = "application/pdf"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
HTML = "text/html"
PLAIN = "text/plain"
MARKDOWN = "text/markdown"
EMAIL = "message/rfc822"
MBOX = "application/mbox"
ZIP = "application/zip"
OLE = "application/x-ole-storage"  # legacy .doc/.xls/.msg
BINARY = "application/octet-stream"
MHTML = "multipart/related"  # a web page saved as one file (.mht, .mhtml)
WARC = "application/warc"  # a web archive (.warc, .warc.gz)
WACZ = "application/wacz"  # a zip of web archives with a page list (.wacz)

#: File name endings read as Markdown (when the bytes are text).
MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdown", ".mkd")

# Signatures of common binary formats, so that the refusal can name what the file is.
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
    (b"II*\x00", "image/tiff"),
    (b"MM\x00*", "image/tiff"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", OLE),
    (b"\x1f\x8b", "application/gzip"),
    (b"7z\xbc\xaf\x27\x1c", "application/x-7z-compressed"),
    (b"Rar!\x1a\x07", "application/vnd.rar"),
)

# WHATWG MIME Sniffing, section 7.1 ("identifying a resource with an unknown MIME type"): a
# resource is HTML when, after leading whitespace, it starts with one of these tags followed by
# a space or ">". XHTML files start with an XML declaration, so "<?xml" followed by "<html" counts.
_HTML_START = re.compile(
    rb"\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*"
    rb"<(?:!doctype\s+html|html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p)"
    rb"[\s>]",
    re.IGNORECASE | re.DOTALL,
)
_STRICT_HTML_START = re.compile(
    rb"\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html)[\s>]",
    re.IGNORECASE | re.DOTALL,
)

# RFC 5322 header fields that start real messages (as saved by mail clients and servers).
_MAIL_HEADERS = {
    b"from", b"to", b"cc", b"subject", b"date", b"message-id", b"mime-version", b"received",
    b"return-path", b"delivered-to", b"reply-to", b"sender", b"content-type", b"x-mailer",
    b"dkim-signature", b"authentication-results", b"in-reply-to", b"references", b"user-agent",
    b"arc-seal", b"x-original-to", b"thread-topic", b"thread-index", b"x-received", b"bcc",
}
_HEADER_LINE = re.compile(rb"^([!-9;-~]+):")  # field name: printable ASCII except ":" (RFC 5322)
_MBOX_FROM = re.compile(rb"^From \S+")


def _looks_like_email(head: bytes) -> bool:
    """True when the data opens with a block of RFC 5322 header lines naming known fields."""
    lines = head.lstrip(b"\r\n").splitlines()
    known = 0
    seen = 0
    for line in lines[:200]:
        if not line.strip():
            break
        if line[:1] in (b" ", b"\t"):  # folded continuation of the previous field
            if seen == 0:
                return False
            continue
        match = _HEADER_LINE.match(line)
        if match is None:
            return False
        seen += 1
        if match.group(1).lower() in _MAIL_HEADERS:
            known += 1
    return known >= 2


def _zip_type(data: bytes) -> str:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        # A damaged archive still names its members in its local headers: a Word file that
        # lost its end is still a (damaged) Word file, refused as such by the Word reader.
        return DOCX if b"word/document.xml" in data else BINARY
    if "word/document.xml" in names:
        return DOCX
    if "datapackage.json" in names and any(n.startswith("archive/") for n in names):
        return WACZ
    return ZIP


#: Every byte that :func:`looks_binary` does not count as a control character.
_NOT_CONTROL = bytes(b for b in range(256)
                     if not ((b < 0x20 and b not in (9, 10, 12, 13, 27)) or b == 0x7F))


#: UTF-32 byte-order marks (checked before UTF-16's: ``FF FE 00 00`` starts with ``FF FE``).
UTF32_BOMS = ((b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be"))


def _plausible_text(text: str) -> bool:
    """True when decoded text has (almost) no characters that never occur in text: C0/C1
    controls other than tab, newline, carriage return and form feed, unassigned code points,
    private-use characters, surrogates."""
    if not text:
        return False
    bad = sum(1 for char in text
              if char not in "\t\n\r\f" and unicodedata.category(char) in ("Cc", "Cn", "Co",
                                                                           "Cs"))
    return bad <= len(text) // 100


_NOT_ASCII_TEXT = bytes(b for b in range(256) if not (0x20 <= b < 0x7F or b in (9, 10, 13)))


def unicode_without_bom(data: bytes) -> str | None:
    """The codec of UTF-16 or UTF-32 text that has no byte-order mark (``"utf-16-le"``,
    ``"utf-16-be"``, ``"utf-32-le"``, ``"utf-32-be"``), else None.

    Judged on the first 64 KB by the pattern of its zero bytes: text in these encodings has
    them in fixed places of each code unit (the high bytes of Latin letters, digits and
    spaces; in UTF-32 the top byte of every character), hardly elsewhere; CJK text in UTF-16
    has them in both places, but then few of its bytes are ASCII. A candidate must then
    decode strictly and read as text (:func:`_plausible_text`).
    """
    sample = data[:65536]
    if b"\x00" not in sample:
        return None
    candidates: list[str] = []
    words = sample[: len(sample) // 4 * 4]
    if len(words) >= 4:
        lanes = [words[k::4] for k in range(4)]
        if not lanes[3].strip(b"\x00") and lanes[2].count(0) >= 0.9 * len(lanes[2]):
            candidates.append("utf-32-le")
        if not lanes[0].strip(b"\x00") and lanes[1].count(0) >= 0.9 * len(lanes[1]):
            candidates.append("utf-32-be")
    pairs = sample[: len(sample) // 2 * 2]
    even, odd = pairs[0::2].count(0), pairs[1::2].count(0)
    if odd > 4 * even:  # Latin, Greek, Cyrillic...: zero high bytes in one lane
        candidates.append("utf-16-le")
    elif even > 4 * odd:
        candidates.append("utf-16-be")
    else:
        # CJK text has zero bytes in both lanes (U+4E00 is 00 4E) and few ASCII bytes; bytes
        # that are mostly ASCII with zeros here and there are text padded with NUL, or binary
        ascii_bytes = len(pairs.translate(None, _NOT_ASCII_TEXT))
        if ascii_bytes < 0.8 * (len(pairs) - even - odd):
            candidates += ["utf-16-le", "utf-16-be"] if odd >= even else ["utf-16-be",
                                                                          "utf-16-le"]
    best: tuple[float, str] | None = None
    for codec in candidates:
        try:
            text = codecs.getincrementaldecoder(codec)("strict").decode(sample, final=False)
        except UnicodeDecodeError:
            continue
        if _plausible_text(text):
            # both byte orders may decode: the right one reads as letters, digits, spaces
            # and punctuation; the other as symbols and rare characters
            readable = sum(1 for char in text if unicodedata.category(char)[0] in "LNPZ"
                           or char in "\n\r\t")
            score = readable / len(text)
            if best is None or score > best[0]:
                best = (score, codec)
    return best[1] if best is not None else None


def looks_binary(data: bytes) -> bool:
    """True when the bytes are not text in any encoding: NUL bytes, or many control characters.

    Text files never contain NUL (UTF-16 and UTF-32 files, which do, are recognised by their BOM
    or :func:`unicode_without_bom` before this is asked); more than 5% of C0 control
    characters other than tab, newline, carriage return, form feed and escape also means
    binary data.
    """
    sample = data[:65536]
    if not sample:
        return False
    if b"\x00" in sample:
        return True
    # what is left once every byte but the counted controls is deleted (C speed, not a loop)
    controls = len(sample.translate(None, _NOT_CONTROL))
    return controls / len(sample) > 0.05


def detect_type(data: bytes, filename: str) -> str:
    """Return the MIME type of ``data`` judged by its content.

    Recognised: ``application/pdf``, the .docx type, ``message/rfc822`` (one email),
    ``application/mbox``, ``multipart/related`` (a web page saved as MHTML),
    ``application/warc`` (a WARC web archive, plain or gzipped), ``application/wacz``,
    ``text/html``, ``text/markdown``, ``text/plain``, a few binary formats
    named for the error message (images, ``application/zip``, ``application/x-ole-storage`` for
    old .doc files, archives) and otherwise ``application/octet-stream``.

    ``filename`` only decides between text types the bytes cannot tell apart: ``text/markdown``
    for a text file named .md/.markdown, and a Markdown file is only HTML if it opens with
    ``<!doctype html>`` or ``<html>``. Rules: PDF signature anywhere in the first 1024 bytes
    (as PDF readers accept it, ISO 32000-1 annex H), WHATWG MIME Sniffing for HTML.
    """
    head = data[:4096]
    if b"%PDF-" in data[:1024]:
        return PDF
    if head.startswith(b"PK\x03\x04"):
        return _zip_type(data)
    if _is_warc(data):
        return WARC
    for magic, mime in _MAGIC:
        if head.startswith(magic):
            return mime
    if head.startswith((b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")):
        return _text_type(filename)  # UTF-16 or UTF-32 with a BOM: text; sniff no further
    if unicode_without_bom(data) is not None:
        return _text_type(filename)
    if looks_binary(data):
        return BINARY
    body = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
    is_markdown = filename.lower().endswith(MARKDOWN_SUFFIXES)
    html_rule = _STRICT_HTML_START if is_markdown else _HTML_START
    if html_rule.match(body):
        return HTML
    if _MBOX_FROM.match(body) and _looks_like_email(body.split(b"\n", 1)[-1]):
        return MBOX
    if _looks_like_email(body):
        return MHTML if _is_mhtml(body, filename) else EMAIL
    return _text_type(filename)


def _is_warc(data: bytes) -> bool:
    """A WARC file, plain or gzipped: its first bytes (decompressed, no more) are "WARC/1."."""
    head = data[:16]
    if head.startswith(b"\x1f\x8b"):
        try:
            head = zlib.decompressobj(wbits=31).decompress(data[:4096], 16)
        except zlib.error:
            return False
    return head.startswith((b"WARC/1.", b"WARC/0."))


def _is_mhtml(head: bytes, filename: str) -> bool:
    """A message that is a saved web page, not an e-mail: multipart/related written by a
    browser (``Snapshot-Content-Location``, ``From: <Saved by ...>``), or named .mht/.mhtml,
    or without an e-mail's To, Cc and Message-ID."""
    from email.parser import BytesHeaderParser

    headers = BytesHeaderParser().parsebytes(head.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0])
    if headers.get_content_type() != "multipart/related":
        return False
    if headers.get("Snapshot-Content-Location") or "saved by" in str(
            headers.get("From", "")).lower():
        return True
    if filename.lower().endswith((".mht", ".mhtml")):
        return True
    return not any(headers.get(name) for name in ("To", "Cc", "Message-ID"))


def _text_type(filename: str) -> str:
    if filename.lower().endswith(MARKDOWN_SUFFIXES):
        return MARKDOWN
    return PLAIN
