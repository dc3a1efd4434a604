"""What waits for a slow step of the import (ARCHITECTURE.md, "Import: the document first,
suggestions after"): scanned pages not yet read by OCR (``meta["needs_ocr"]``) and documents
no suggestion run has read (``store.items.SUGGESTIONS_WAITING``). Reads only, and light: the
window asks on opening a case, so nothing here loads OCR or the name finder."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Text, cast, or_, select
from sqlalchemy.orm import Session

from casefile.store import Document
from casefile.store.items import SUGGESTIONS_WAITING

#: The document types OCR reads.
OCR_TYPES = ("application/pdf", "image/png", "image/jpeg", "image/tiff")


def waiting_pages(meta: Any) -> list[int]:
    """The 1-based pages of a document (its ``meta``) still waiting for OCR."""
    if not isinstance(meta, dict):
        return []
    pages = meta.get("needs_ocr")
    if not isinstance(pages, list):
        return []
    done = meta.get("ocr") if isinstance(meta.get("ocr"), dict) else {}
    tried = {int(n) for n in (done or {}).get("pages", []) + (done or {}).get("kept", [])}
    return [int(n) for n in pages if int(n) not in tried]


@dataclass(frozen=True)
class PendingOcr:
    """A document waiting for OCR: its id, title and the 1-based pages to read."""

    document_id: int
    title: str
    pages: tuple[int, ...]


def pending_ocr(session: Session, case_id: int | None = None,
                document_ids: Sequence[int] | None = None) -> list[PendingOcr]:
    """The documents of a case (or the given ones) with pages waiting for OCR, in id order."""
    stmt = select(Document.id, Document.title, Document.meta).where(
        Document.mime_type.in_(OCR_TYPES)).order_by(Document.id)
    if case_id is not None:
        stmt = stmt.where(Document.case_id == case_id)
    if document_ids is not None:
        stmt = stmt.where(Document.id.in_([int(i) for i in document_ids]))
    found = []
    for doc_id, title, meta in session.execute(stmt):
        pages = waiting_pages(meta)
        if pages:
            found.append(PendingOcr(int(doc_id), str(title), tuple(pages)))
    return found


def _suggestions_waiting(meta: Any) -> bool:
    return isinstance(meta, dict) and bool(meta.get(SUGGESTIONS_WAITING)) and not waiting_pages(
        meta)


def waiting_for_suggestions(session: Session, case_id: int) -> list[int]:
    """The documents of the case imported but never read for suggestions (a run cancelled or
    ended with the window, an import with ``--no-suggest``), leaving out those whose scanned
    pages still wait for OCR (suggestions follow their OCR), in id order."""
    return waiting_in_case(session, case_id)[1]


def waiting_in_case(session: Session, case_id: int) -> tuple[list[int], list[int]]:
    """``(documents with pages waiting for OCR, documents waiting for suggestions)`` of the
    case, each in id order, in one read of the case's documents (only the rows that can wait
    are parsed: OCR's types, and those whose meta names the suggestions mark)."""
    ocr: list[int] = []
    suggest: list[int] = []
    stmt = select(Document.id, Document.mime_type, Document.meta).where(
        Document.case_id == case_id,
        or_(Document.mime_type.in_(OCR_TYPES),
            cast(Document.meta, Text).like(f"%{SUGGESTIONS_WAITING}%"))).order_by(Document.id)
    for doc_id, mime_type, meta in session.execute(stmt):
        if mime_type in OCR_TYPES and waiting_pages(meta):
            ocr.append(int(doc_id))
        elif _suggestions_waiting(meta):
            suggest.append(int(doc_id))
    return ocr, suggest
