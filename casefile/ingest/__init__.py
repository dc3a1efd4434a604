"""File bytes -> text + metadata, for every format Casefile imports. Pure: no database, no Qt.

Public API::

    ingest_file(path, *, password=None, max_bytes=200 MiB) -> (bytes, Ingested)
    ingest_bytes(data, filename, *, password=None) -> Ingested
    detect_type(data, filename) -> str   # MIME type judged by content
    pages_needing_ocr(ingested) -> list[int]   # a PDF's 1-based pages without credible text

Bad input raises :class:`casefile.errors.IngestError` with one sentence for the reporter; an
encrypted PDF without (or with a wrong) password raises its subclass :class:`PdfPasswordError`.
"""

from casefile.ingest.detect import detect_type
from casefile.ingest.files import DEFAULT_MAX_BYTES, ingest_bytes, ingest_file
from casefile.ingest.pdf import PdfPasswordError, pages_needing_ocr
from casefile.ingest.types import Ingested

__all__ = [
    "DEFAULT_MAX_BYTES", "Ingested", "PdfPasswordError", "detect_type", "ingest_bytes",
    "ingest_file", "pages_needing_ocr",
]
