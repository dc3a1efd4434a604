"""Import a file into a case: original bytes, text, metadata and search index in one transaction.

This is step one of the two-step import (ARCHITECTURE.md, "Import: the document first,
suggestions after"); entity suggestions are a separate job
(``casefile.services.suggestions``) so a document is safe and findable before they run.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from casefile.filenames import printable_name
from casefile.ingest import ingest_file
from casefile.ingest.types import Ingested
from casefile.services.audit import log_changes
from casefile.services.cases import get_case
from casefile.services.items import parse_date
from casefile.services.watch_list import check_documents
from casefile.store import Blob, Document, Item, search, utcnow
from casefile.store.items import DOCUMENT_KINDS, SUGGESTIONS_WAITING
from casefile.store.teams import insert_blobs


@dataclass
class ImportResult:
    """What one import did: the document, whether it is new, its hash and any notes.

    ``created`` is False when the same bytes were already in the case (the existing document is
    returned and nothing is stored). ``children`` are attachments imported as child documents.
    ``needs_ocr`` is True when the import marked pages of this new document for OCR
    (``meta["needs_ocr"]``, see :mod:`casefile.services.ocr`): a caller runs OCR only then.
    """

    document_id: int
    title: str
    sha256: str
    created: bool
    notes: list[str] = field(default_factory=list)
    children: list[ImportResult] = field(default_factory=list)
    path: str | None = None
    needs_ocr: bool = False
    #: names of the watch list the document mentions: ``(name, the words as written)``
    watch: list[tuple[str, str]] = field(default_factory=list)

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
            "watch": [{"name": n, "variant": v} for n, v in self.watch],
        }


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def one_line(title: str) -> str:
    """``title`` on one line: line breaks, tabs and other control characters (a file name
    may hold them) as spaces, runs of white space as one, no space at either end."""
    return " ".join(_CONTROL.sub(" ", title).split())


def sha256_hex(data: bytes) -> str:
    """SHA-256 of ``data`` as 64 lower-case hex digits (FIPS 180-4)."""
    return hashlib.sha256(data).hexdigest()


def file_sha256(path: Path) -> str:
    """SHA-256 (:func:`sha256_hex`) of the file at ``path``, read as an import reads it. Raises
    IngestError for what cannot be imported (missing, a folder, empty, too big...)."""
    from casefile.ingest.files import read_file

    return sha256_hex(read_file(path))


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


@dataclass
class KnownBytes:
    """What the workspace already holds of some hashes (:func:`known_bytes`): ``blobs``, the
    hashes whose original bytes are stored (by any case); ``in_case``, for a hash the case
    already has a document of, that document as an ImportResult with ``created=False``
    (title and import notes as stored)."""

    blobs: set[str] = field(default_factory=set)
    in_case: dict[str, ImportResult] = field(default_factory=dict)


def known_bytes(session: Session, case_id: int, digests: Iterable[str]) -> KnownBytes:
    """The duplicate check of many files at once: one query (blobs primary key,
    ``ix_documents_sha256``), asked by hash like :func:`existing_document`. A hash with
    several documents in the case answers with the first (lowest id)."""
    wanted = sorted(set(digests))
    known = KnownBytes()
    if not wanted:
        return known
    blobs, docs, items = _BLOBS, _DOCUMENTS, _ITEMS
    rows = session.connection().execute(
        select(blobs.c.sha256, docs.c.id, items.c.case_id, items.c.title, docs.c.import_notes)
        .select_from(blobs.outerjoin(docs, docs.c.sha256 == blobs.c.sha256)
                     .outerjoin(items, items.c.id == docs.c.id))
        .where(blobs.c.sha256.in_(wanted)).order_by(docs.c.id)
    ).all()
    for digest, doc_id, doc_case, title, notes in rows:
        known.blobs.add(digest)
        if doc_id is not None and doc_case == case_id and digest not in known.in_case:
            known.in_case[digest] = ImportResult(int(doc_id), title, digest, False,
                                                 list(notes or []))
    return known


@dataclass
class NewFile:
    """One file for :func:`store_documents`: its original bytes (``sha256`` their hash), what
    they yield, the name it had and the published date to store (None: the file's own)."""

    data: bytes
    ingested: Ingested
    filename: str | None = None
    published: date | None = None
    sha256: str = ""

    def __post_init__(self) -> None:
        if not self.sha256:
            self.sha256 = sha256_hex(self.data)


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
    suggestions_follow: bool = True,
) -> ImportResult:
    """Store already-read file contents as a Document of the case (with its attachments).

    ``published`` (ISO date) overrides a date found in the file; ``title`` overrides the title.
    ``suggestions_follow=False``: no suggestion run is meant to read it (the sample case), so
    it is not marked as waiting for one (``store.items.SUGGESTIONS_WAITING``).
    Returns the existing document with ``created=False`` if these bytes are already in the case.

    Written with Core inserts (blob, item, document, search rows, change log: five statements
    and one lookup per new document, no ORM flush); the Document is not put in the session,
    load it with ``session.get(Document, result.document_id)``. Pending ORM changes of the
    session are flushed first. Raises ValidationError for a bad ``published`` date.
    """
    digest = sha256_hex(data)
    if session.new or session.dirty or session.deleted:
        session.flush()
    known = known_bytes(session, case_id, [digest])
    if digest in known.in_case:
        return known.in_case[digest]
    published_date = parse_date(published, "published")
    result = _insert(session, case_id, [NewFile(data, ingested, filename, published_date,
                                                digest)], known.blobs, title=title,
                     parent_id=parent_id, suggestions_follow=suggestions_follow)[0]
    return result


def store_documents(session: Session, case_id: int, files: Sequence[NewFile], *,
                    known: KnownBytes | None = None) -> list[ImportResult]:
    """Store several files as Documents of the case in the caller's transaction, as
    :func:`store_document` on each in turn would (same rows, same ids in the same order), in
    a handful of statements for all of them instead of six per file.

    ``known`` is :func:`known_bytes` of these files' hashes asked in this transaction (the
    duplicate check, done once per file; asked here when None). A file whose bytes the case
    holds, or that repeats an earlier file of ``files``, gives that document with
    ``created=False``. Returns one ImportResult per file, in order. All or nothing: raises
    ValidationError for a bad date in a file's metadata, and what the database raises, with
    nothing of any file written (the caller rolls back).
    """
    if session.new or session.dirty or session.deleted:
        session.flush()
    if known is None:
        known = known_bytes(session, case_id, [f.sha256 for f in files])
    blobs = set(known.blobs)
    results: list[ImportResult | None] = [None] * len(files)
    first: dict[str, int] = {}  # hash -> index of the file that stores it
    pending: list[int] = []

    def flush() -> None:
        if pending:
            stored = _insert(session, case_id, [files[i] for i in pending], blobs)
            for i, result in zip(pending, stored, strict=True):
                results[i] = result
            pending.clear()

    for i, f in enumerate(files):
        if f.sha256 in known.in_case:
            results[i] = known.in_case[f.sha256]
        elif f.sha256 in first:
            continue  # answered below, once the first copy is stored
        else:
            first[f.sha256] = i
            pending.append(i)
            if f.ingested.attachments:  # children need their parent's id: store in order
                flush()
    flush()
    out: list[ImportResult] = []
    for i, f in enumerate(files):
        result = results[i]
        if result is None:  # a repeat within ``files``: the first copy's document
            stored = results[first[f.sha256]]
            assert stored is not None
            result = ImportResult(stored.document_id, stored.title, f.sha256, False,
                                  list(stored.notes))
        out.append(result)
    return out


def _retrieved(ing: Ingested, today: date) -> date:
    """When the source was retrieved: the capture's day (UTC) for a saved web page, else
    ``today`` (the import)."""
    if ing.captured:
        try:
            return date.fromisoformat(ing.captured[:10])
        except ValueError:
            pass
    return today


def _meta(ing: Ingested, parent_id: int | None, suggestions_follow: bool) -> dict[str, Any]:
    """A new document's ``meta``: what the reader found, and for a document of its own (not
    an attachment) with text or pages for OCR, the mark that suggestions have yet to read it
    (``store.items.SUGGESTIONS_WAITING``)."""
    meta = dict(ing.extra)
    if suggestions_follow and parent_id is None and (ing.text.strip() or meta.get("needs_ocr")):
        meta[SUGGESTIONS_WAITING] = True
    return meta


def _insert(session: Session, case_id: int, files: Sequence[NewFile], blobs: set[str], *,
            title: str | None = None, parent_id: int | None = None,
            suggestions_follow: bool = True) -> list[ImportResult]:
    """Insert new documents (not yet in the case, distinct hashes): one statement per table
    for all of them, then each one's attachments (:func:`store_document`). ``blobs`` holds
    the hashes already stored; the new ones are added to it."""
    conn = session.connection()
    now = utcnow()
    today = date.today()
    rows = []
    for f in files:
        ing = f.ingested
        name = f.filename or ing.filename
        doc_title = one_line(title or ing.title or (Path(name).stem if name else "Untitled")
                             )[:500]
        published_date = f.published or parse_date(ing.published)
        rows.append((f, ing, name, doc_title, published_date))
    new_blobs = [f for f, *_ in rows if f.sha256 not in blobs]
    if new_blobs:
        insert_blobs(conn, _BLOBS, [{"sha256": f.sha256, "size": len(f.data),
                                     "data": f.data} for f in new_blobs])
        blobs.update(f.sha256 for f in new_blobs)
    item_rows = [{"case_id": case_id, "kind": "document", "title": doc_title, "notes": None,
                  "confidential": False, "created": now, "updated": now, "version": 1}
                 for _f, _ing, _name, doc_title, _p in rows]
    if len(item_rows) == 1:
        key = conn.execute(insert(_ITEMS), item_rows[0]).inserted_primary_key
        assert key is not None
        ids = [int(key[0])]
    else:
        ids = [int(r[0]) for r in conn.execute(
            insert(_ITEMS).returning(_ITEMS.c.id, sort_by_parameter_order=True), item_rows)]
    conn.execute(insert(_DOCUMENTS), [{
        "id": doc_id, "doc_kind": ing.kind if ing.kind in DOCUMENT_KINDS else "other",
        "author": ing.author, "outlet": ing.outlet, "url": ing.url,
        "published": published_date, "retrieved": _retrieved(ing, today), "status": "obtained",
        "sha256": f.sha256, "mime_type": ing.mime_type, "filename": name, "text": ing.text,
        "page_starts": ing.page_starts, "import_notes": list(ing.notes),
        "meta": _meta(ing, parent_id, suggestions_follow), "parent_id": parent_id,
    } for doc_id, (f, ing, name, _t, published_date) in zip(ids, rows, strict=True)])
    # what services.items.search_parts gives for a document: notes (none), author, outlet
    vocabularies = search.index_rows(session, [
        search.IndexRow(doc_id, case_id, doc_title,
                        "\n".join(p for p in (ing.author, ing.outlet) if p), ing.text)
        for doc_id, (_f, ing, _n, doc_title, _p) in zip(ids, rows, strict=True)], new=True)
    # the watch list is checked as part of the import (ARCHITECTURE.md, "The watch list")
    watched = check_documents(session, case_id, [
        (doc_id, ing.text) for doc_id, (_f, ing, _n, _t, _p) in zip(ids, rows, strict=True)],
        vocabularies)
    log_changes(session, "document.import", [
        {"case_id": case_id, "item_id": doc_id, "summary": doc_title,
         "data": {"sha256": f.sha256, "filename": name}}
        for doc_id, (f, _ing, name, doc_title, _p) in zip(ids, rows, strict=True)])
    results = []
    for doc_id, (f, ing, name, doc_title, _p) in zip(ids, rows, strict=True):
        result = ImportResult(doc_id, doc_title, f.sha256, True, list(ing.notes), path=name,
                              needs_ocr=bool(ing.extra.get("needs_ocr")),
                              watch=watched.get(doc_id, []))
        for child in ing.attachments:
            raw = child.original if child.original is not None else child.text.encode("utf-8")
            result.children.append(
                store_document(session, case_id, raw, child, parent_id=doc_id,
                               # a date given for the file dates only the children without
                               # one of their own (a mailbox's messages keep their Date)
                               published=None if child.published else f.published,
                               filename=child.filename))
        results.append(result)
    return results


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
        filename=printable_name(Path(path).name),
    )
    result.path = str(path)
    return result
