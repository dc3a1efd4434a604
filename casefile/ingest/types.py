"""The result of reading one file: text and metadata, before anything is stored."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Ingested:
    """What a file yields.

    text: the document's plain text (Python str; passages index into it by str offsets).
    title/author/outlet/url: metadata found in the file, or None.
    published: ISO 8601 date (``YYYY-MM-DD``) found in the file, or None.
    captured: for a saved web page (MHTML, WARC, WACZ), when it was captured: ISO 8601 UTC
        (``YYYY-MM-DDTHH:MM:SSZ``), else None; the capture's URL and hash are in
        ``extra["capture"]`` (:func:`casefile.ingest.webarchive.capture_record`).
    mime_type: the type detected from the content (not the file name).
    kind: Document kind guess: "article", "report", "email", "note", ...
    page_starts: for paged formats, the str offset where each page starts in ``text``
        (page n, 1-based, spans ``page_starts[n-1]`` up to the next start); None if not paged.
    notes: human-readable remarks to keep on the document (e.g. the encoding assumed).
    attachments: child documents (e.g. an email's attached PDF), each an Ingested.
    extra: any other metadata (email headers...), JSON-serialisable.
    original: for attachments only, the attachment's own original bytes (the importer stores
        them as the child document's blob, hashed with SHA-256).
    """

    text: str
    mime_type: str
    title: str | None = None
    author: str | None = None
    outlet: str | None = None
    url: str | None = None
    published: str | None = None
    captured: str | None = None
    kind: str = "article"
    page_starts: list[int] | None = None
    notes: list[str] = field(default_factory=list)
    attachments: list[Ingested] = field(default_factory=list)
    extra: dict[str, object] = field(default_factory=dict)
    filename: str | None = None
    original: bytes | None = None
