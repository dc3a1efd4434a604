"""The two ways in: a path on disk (:func:`ingest_file`) or bytes in memory (:func:`ingest_bytes`).

The reader for each type is chosen by :func:`casefile.ingest.detect.detect_type` from the
content. Anything a library raises on bad input comes out as IngestError with one sentence.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path

from casefile.errors import IngestError
from casefile.filenames import name_note, printable_name
from casefile.ingest import detect
from casefile.ingest.budget import refuse_special, special_kind
from casefile.ingest.text import ingest_markdown, ingest_plain
from casefile.ingest.types import Ingested

DEFAULT_MAX_BYTES = 200 * 1024**2

Reader = Callable[[bytes, str, "str | None"], Ingested]


def _reader(mime: str) -> Reader | None:
    # The readers of HTML, PDF, Word and email (trafilatura, pypdfium2, python-docx) load when
    # a file of their type is first read, not when the window starts.
    if mime == detect.PLAIN:
        return lambda data, name, _pw: ingest_plain(data, name)
    if mime == detect.MARKDOWN:
        return lambda data, name, _pw: ingest_markdown(data, name)
    if mime == detect.HTML:
        from casefile.ingest.html import ingest_html

        return lambda data, name, _pw: ingest_html(data, name)
    if mime == detect.PDF:
        from casefile.ingest.pdf import ingest_pdf

        return ingest_pdf
    if mime == detect.DOCX:
        from casefile.ingest.docx import ingest_docx

        return lambda data, name, _pw: ingest_docx(data, name)
    if mime == detect.EMAIL:
        from casefile.ingest.mail import ingest_email

        return lambda data, name, _pw: ingest_email(data, name, _read_child)
    if mime == detect.MBOX:
        from casefile.ingest.mail import ingest_mbox

        return lambda data, name, _pw: ingest_mbox(data, name, _read_child)
    if mime in (detect.MHTML, detect.WARC, detect.WACZ):
        from casefile.ingest import webarchive

        read = {detect.MHTML: webarchive.ingest_mhtml, detect.WARC: webarchive.ingest_warc,
                detect.WACZ: webarchive.ingest_wacz}[mime]
        return lambda data, name, _pw: read(data, name)
    if mime in _IMAGES:
        from casefile.ingest.images import ingest_image

        return lambda data, name, _pw: ingest_image(data, name, mime)
    return None


#: Image types imported (their text comes from OCR): ``casefile.ingest.images.IMAGE_TYPES``.
_IMAGES = ("image/png", "image/jpeg", "image/tiff")


def _read_child(data: bytes, filename: str) -> Ingested:
    """Attachments and mailbox messages go through the same door as files."""
    return ingest_bytes(data, filename)


# An encrypted Word/Excel file is an OLE container with this stream (MS-OFFCRYPTO 2.3.4).
_OFFICE_ENCRYPTION = "EncryptionInfo".encode("utf-16-le")


def _refusal(mime: str, filename: str, data: bytes) -> str:
    if mime.startswith("image/"):
        return (f"{filename} is an image ({mime}); images are read as PNG, JPEG or TIFF "
                "files only")
    if mime == detect.OLE and _OFFICE_ENCRYPTION in data:
        return f"{filename} is password-protected; remove the password in Word and import again"
    if mime == detect.OLE:
        return f"{filename} is an old Office file (.doc, .xls or .msg); save it as .docx or PDF"
    if mime == detect.ZIP:
        return f"{filename} is a ZIP archive; unpack it and import the files inside"
    if mime == detect.BINARY:
        return f"{filename} is not text (binary content)"
    return f"{filename} is of a type that cannot be imported ({mime})"


def ingest_bytes(data: bytes, filename: str, *, password: str | None = None) -> Ingested:
    """Read one file's bytes into text and metadata.

    ``filename`` is the name shown in messages and kept on the result (only the type of
    equally textual content, .md vs .txt, depends on it); a name that is not UTF-8 is made
    printable (:func:`casefile.filenames.printable_name`) and a note gives its bytes.
    ``password`` opens an encrypted PDF.
    Returns an :class:`Ingested` whose ``mime_type`` is the detected type.

    Raises IngestError (one sentence naming the file) for empty, binary, unsupported, damaged or
    encrypted content; never another exception for bad input.
    """
    note = name_note(filename)
    filename = printable_name(filename)
    if not data:
        raise IngestError(f"{filename} is empty")
    mime = detect.detect_type(data, filename)
    reader = _reader(mime)
    if reader is None:
        raise IngestError(_refusal(mime, filename, data))
    try:
        result = reader(data, filename, password)
    except IngestError:
        raise
    except (RecursionError, MemoryError):
        raise IngestError(f"{filename} is too complex or too large to read") from None
    except Exception as exc:  # a library choking on bad input must not leak a traceback
        raise IngestError(f"{filename} is damaged and cannot be read") from exc
    result.filename = filename
    if note is not None:
        result.notes.append(note)
    named = _NAMED_AS.get(Path(filename).suffix.lower())
    if named is not None and _LABELS.get(named) != _LABELS.get(mime, mime):
        result.notes.append(f"The file is named {Path(filename).suffix.lower()} but holds "
                            f"{_LABELS.get(mime, mime)}; it was read as such.")
    return result


#: What a file name's extension claims it holds, for the note on a mislabelled file.
_NAMED_AS = {
    ".pdf": detect.PDF, ".docx": detect.DOCX, ".html": detect.HTML, ".htm": detect.HTML,
    ".eml": detect.EMAIL, ".mbox": detect.MBOX, ".txt": detect.PLAIN, ".md": detect.PLAIN,
    ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".tif": "image/tiff",
    ".tiff": "image/tiff", ".mht": detect.MHTML, ".mhtml": detect.MHTML,
    ".warc": detect.WARC, ".wacz": detect.WACZ,
}
_LABELS = {
    detect.PDF: "a PDF", detect.DOCX: "a Word document", detect.HTML: "a web page",
    detect.EMAIL: "an e-mail", detect.MBOX: "a mailbox", detect.PLAIN: "plain text",
    detect.MARKDOWN: "plain text", "image/png": "a PNG image", "image/jpeg": "a JPEG image",
    "image/tiff": "a TIFF image", detect.MHTML: "a saved web page (MHTML)",
    detect.WARC: "a web archive (WARC)", detect.WACZ: "a web archive (WACZ)",
}


def _size(n: int) -> str:
    if n >= 1024**3:
        return f"{n / 1024**3:.1f} GB"
    if n >= 1024**2:
        return f"{n / 1024**2:.1f} MB"
    if n >= 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n} bytes"


def read_file(path: Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """Read a file's bytes, refusing what cannot be imported.

    The path is looked at with ``os.stat`` first: a named pipe, a device or a socket is refused
    without being opened (reading a pipe would wait forever for a writer). Raises IngestError
    when the path is missing, a folder, such a special file, unreadable, larger than
    ``max_bytes`` (the message gives the size and the limit) or empty. Names in messages are
    printable (:func:`casefile.filenames.printable_name`).
    """
    path = Path(path)
    shown, name = printable_name(str(path)), printable_name(path.name)
    try:
        try:
            found = refuse_special(path)
        except FileNotFoundError:
            raise IngestError(f"{shown} does not exist") from None
        if stat.S_ISDIR(found.st_mode):
            raise IngestError(f"{shown} is a folder, not a file")
        if found.st_size > max_bytes:
            raise IngestError(
                f"{name} is {_size(found.st_size)}, over the {_size(max_bytes)} limit for imports"
            )
        # O_NONBLOCK: should a pipe take the file's place after the check, opening it does not
        # wait for a writer, and the check below refuses it
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
        fd = os.open(path, flags)
        with open(fd, "rb") as handle:
            opened = os.fstat(fd)
            kind = special_kind(opened.st_mode)
            if kind is not None:
                raise IngestError(f"{name} was not imported: it is {kind}, not a file")
            # asked for its size (+1 to see it grow): a read of max_bytes + 1 allocates that
            # much first, which cost more than the read of a small file
            data = handle.read(min(opened.st_size, max_bytes) + 1)
            if len(data) > opened.st_size:  # it grew: read on, up to the limit
                data += handle.read(max_bytes + 1 - len(data))
    except IngestError:
        raise
    except PermissionError:
        raise IngestError(f"{shown} cannot be read (permission denied)") from None
    except OSError as exc:
        reason = exc.strerror or errno.errorcode.get(exc.errno or 0, "error")
        raise IngestError(f"{shown} cannot be read ({reason})") from None
    if len(data) > max_bytes:  # grew while we looked at it
        raise IngestError(f"{name} is over the {_size(max_bytes)} limit for imports")
    if not data:
        raise IngestError(f"{name} is empty")
    return data


def ingest_file(
    path: Path, *, password: str | None = None, max_bytes: int = DEFAULT_MAX_BYTES
) -> tuple[bytes, Ingested]:
    """Read the file at ``path``: return (original bytes, what they yield).

    The bytes are returned unchanged so the caller can store them with their SHA-256. Raises
    IngestError for a missing path, a folder, an unreadable file, a file over ``max_bytes``
    (default 200 MB), an empty file, and everything :func:`ingest_bytes` refuses.
    """
    path = Path(path)
    data = read_file(path, max_bytes=max_bytes)
    return data, ingest_bytes(data, path.name, password=password)
