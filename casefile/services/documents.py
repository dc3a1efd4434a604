"""Import a file into a case: original bytes, text, metadata and search index in one transaction.

This is step one of DESIGN.md's two-step import; entity suggestions are a separate job
(``casefile.services.suggestions``) so a document is safe and findable before they run.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from casefile.ingest import ingest_file
from casefile.ingest.types import Ingested
from casefile.services.audit import log_change
from casefile.services.cases import get_case
from casefile.services.items import parse_date, reindex
from casefile.store import Blob, Document
from casefile.store.items import DOCUMENT_KINDS


@dataclass
class ImportResult:
    """What one import did: the document, whether it is new, its hash and any notes.

    ``created`` is False when the same bytes were already in the case (the existing document is
    returned and nothing is stored). ``children`` are attachments imported as child documents.
    """

    document_id: int
    title: str
    sha256: str
    created: bool
    notes: list[str] = field(default_factory=list)
    children: list[ImportResult] = field(default_factory=list)
    path: str | None = None

    def as_json(self) -> dict[str, object]:
        """The stable ``import --json`` shape of one file (see README)."""
        return {
            "path": self.path,
            "document_id": self.document_id,
            "title": self.title,
            "sha256": self.sha256,
            "status": "imported" if self.created else "already there",
            "notes": self.notes,
            "attachments": [c.as_json() for c in self.children],
        }


def sha256_hex(data: bytes) -> str:
    """SHA-256 of ``data`` as 64 lower-case hex digits (FIPS 180-4)."""
    return hashlib.sha256(data).hexdigest()


def existing_document(session: Session, case_id: int, sha256: str) -> Document | None:
    """The document of this case whose original bytes have this hash, if any.

    Looked up by hash first (``ix_documents_sha256``), then by case: asked as one joined query,
    SQLite's planner walks every item of the case instead (EXPLAIN QUERY PLAN), which made each
    import cost O(documents in the case) — 7 ms at 1,000 documents, far more at 100,000.
    """
    ids = list(session.scalars(
        select(Document.__table__.c.id).where(Document.__table__.c.sha256 == sha256)
    ))
    if not ids:
        return None
    return session.scalar(
        select(Document).where(Document.id.in_(ids), Document.case_id == case_id)
        .order_by(Document.id).limit(1)
    )


def store_document(
    session: Session,
    case_id: int,
    data: bytes,
    ingested: Ingested,
    *,
    published: date | str | None = None,
    title: str | None = None,
    parent_id: int | None = None,
    filename: str | None = None,
) -> ImportResult:
    """Store already-read file contents as a Document of the case (with its attachments).

    ``published`` (ISO date) overrides a date found in the file; ``title`` overrides the title.
    Returns the existing document with ``created=False`` if these bytes are already in the case.
    """
    digest = sha256_hex(data)
    found = existing_document(session, case_id, digest)
    if found is not None:
        return ImportResult(found.id, found.title, digest, False, list(found.import_notes or []))
    if session.get(Blob, digest) is None:
        session.add(Blob(sha256=digest, size=len(data), data=data))
    kind = ingested.kind if ingested.kind in DOCUMENT_KINDS else "other"
    name = filename or ingested.filename
    doc = Document(
        case_id=case_id,
        title=(title or ingested.title or (Path(name).stem if name else "Untitled")).strip()[:500],
        doc_kind=kind,
        author=ingested.author,
        outlet=ingested.outlet,
        url=ingested.url,
        published=parse_date(published, "published") or parse_date(ingested.published),
        retrieved=date.today(),
        status="obtained",
        sha256=digest,
        mime_type=ingested.mime_type,
        filename=name,
        text=ingested.text,
        page_starts=ingested.page_starts,
        import_notes=list(ingested.notes),
        meta=dict(ingested.extra),
        parent_id=parent_id,
    )
    session.add(doc)
    session.flush()
    reindex(session, doc)
    log_change(session, "document.import", case_id=case_id, item_id=doc.id,
               summary=doc.title, data={"sha256": digest, "filename": name})
    result = ImportResult(doc.id, doc.title, digest, True, list(ingested.notes), path=name)
    for child in ingested.attachments:
        raw = child.original if child.original is not None else child.text.encode("utf-8")
        result.children.append(
            store_document(session, case_id, raw, child, parent_id=doc.id,
                           published=published, filename=child.filename)
        )
    return result


def import_file(
    session: Session,
    case_id: int,
    path: Path | str,
    *,
    published: date | str | None = None,
    title: str | None = None,
    password: str | None = None,
) -> ImportResult:
    """Read ``path`` and store it as a Document of the case (one transaction: the caller's).

    Raises IngestError with one sentence for a file that cannot be imported (missing, empty,
    binary, damaged, encrypted, too big...) and NotFoundError for an unknown case; in both cases
    nothing is stored.
    """
    get_case(session, case_id)
    published_date = parse_date(published, "published")
    data, ingested = ingest_file(Path(path), password=password)
    result = store_document(
        session, case_id, data, ingested, published=published_date, title=title,
        filename=Path(path).name,
    )
    result.path = str(path)
    return result
