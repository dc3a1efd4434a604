"""Import a file into a case: original bytes, text, metadata and search index in one transaction.

This is step one of DESIGN.md's two-step import; entity suggestions are a separate job
(``casefile.services.suggestions``) so a document is safe and findable before they run.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from casefile.ingest import ingest_file
from casefile.ingest.types import Ingested
from casefile.services.audit import log_change
from casefile.services.cases import get_case
from casefile.services.items import parse_date
from casefile.store import Blob, Document, Item, search, utcnow
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


_BLOBS = Blob.metadata.tables["blobs"]
_ITEMS = Item.metadata.tables["items"]
_DOCUMENTS = Document.metadata.tables["documents"]


def _by_hash(session: Session, sha256: str) -> tuple[bool, list[tuple[int, int]]]:
    """Whether a blob with this hash is stored, and the ``(document id, case id)`` of the
    documents made from it, in id order: one query (blobs primary key, ``ix_documents_sha256``).

    Asked by hash, not by case: SQLite's planner, given the case too, walks every item of the
    case (EXPLAIN QUERY PLAN), which made each import cost O(documents in the case)."""
    blobs, docs, items = _BLOBS, _DOCUMENTS, _ITEMS
    rows = session.connection().execute(
        select(docs.c.id, items.c.case_id)
        .select_from(blobs.outerjoin(docs, docs.c.sha256 == blobs.c.sha256)
                     .outerjoin(items, items.c.id == docs.c.id))
        .where(blobs.c.sha256 == sha256).order_by(docs.c.id)
    ).all()
    return bool(rows), [(r[0], r[1]) for r in rows if r[0] is not None]


def existing_document(session: Session, case_id: int, sha256: str) -> Document | None:
    """The document of this case whose original bytes have this hash, if any."""
    _stored, docs = _by_hash(session, sha256)
    ids = [doc_id for doc_id, doc_case in docs if doc_case == case_id]
    return session.get(Document, ids[0]) if ids else None


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

    Written with Core inserts (blob, item, document, search rows, change log: five statements
    and one lookup per new document, no ORM flush); the Document is not put in the session,
    load it with ``session.get(Document, result.document_id)``. Pending ORM changes of the
    session are flushed first. Raises ValidationError for a bad ``published`` date.
    """
    digest = sha256_hex(data)
    if session.new or session.dirty or session.deleted:
        session.flush()
    blob_stored, same_bytes = _by_hash(session, digest)
    in_case = [doc_id for doc_id, doc_case in same_bytes if doc_case == case_id]
    if in_case:
        found = session.get(Document, in_case[0])
        assert found is not None
        return ImportResult(found.id, found.title, digest, False, list(found.import_notes or []))
    published_date = parse_date(published, "published") or parse_date(ingested.published)
    conn = session.connection()
    if not blob_stored:
        conn.execute(insert(_BLOBS), {"sha256": digest, "size": len(data), "data": data})
    kind = ingested.kind if ingested.kind in DOCUMENT_KINDS else "other"
    name = filename or ingested.filename
    doc_title = (title or ingested.title or (Path(name).stem if name else "Untitled")).strip()[:500]
    now = utcnow()
    new_key = conn.execute(
        insert(_ITEMS),
        {"case_id": case_id, "kind": "document", "title": doc_title, "notes": None,
         "confidential": False, "created": now, "updated": now, "version": 1},
    ).inserted_primary_key
    assert new_key is not None
    doc_id = int(new_key[0])
    conn.execute(insert(_DOCUMENTS), {
        "id": doc_id, "doc_kind": kind, "author": ingested.author, "outlet": ingested.outlet,
        "url": ingested.url, "published": published_date, "retrieved": date.today(),
        "status": "obtained", "sha256": digest, "mime_type": ingested.mime_type,
        "filename": name, "text": ingested.text, "page_starts": ingested.page_starts,
        "import_notes": list(ingested.notes), "meta": dict(ingested.extra),
        "parent_id": parent_id,
    })
    # what services.items.search_parts gives for this document: notes (none), author, outlet
    body = "\n".join(p for p in (ingested.author, ingested.outlet) if p)
    search.index_item(session, doc_id, case_id, doc_title, body, text=ingested.text, new=True)
    log_change(session, "document.import", case_id=case_id, item_id=doc_id,
               summary=doc_title, data={"sha256": digest, "filename": name})
    result = ImportResult(doc_id, doc_title, digest, True, list(ingested.notes), path=name)
    for child in ingested.attachments:
        raw = child.original if child.original is not None else child.text.encode("utf-8")
        result.children.append(
            store_document(session, case_id, raw, child, parent_id=doc_id,
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
    notes: Sequence[str] = (),
) -> ImportResult:
    """Read ``path`` and store it as a Document of the case (one transaction: the caller's).
    ``notes`` are added to the document's import notes (e.g. where its published date came
    from).

    Raises IngestError with one sentence for a file that cannot be imported (missing, empty,
    binary, damaged, encrypted, too big...) and NotFoundError for an unknown case; in both cases
    nothing is stored.
    """
    get_case(session, case_id)
    published_date = parse_date(published, "published")
    data, ingested = ingest_file(Path(path), password=password)
    ingested.notes.extend(n for n in notes if n)
    result = store_document(
        session, case_id, data, ingested, published=published_date, title=title,
        filename=Path(path).name,
    )
    result.path = str(path)
    return result
