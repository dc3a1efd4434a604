"""Which files of an import carry no published date of their own.

Before importing several files or a folder, the window asks "when was it published?" for the
files that need the answer. :func:`files_without_date` says which: the files the import would
store as new documents (not already in the case, not a copy of an earlier file of the same
import, not refused as empty, binary, damaged or encrypted) whose metadata and text give no
date (:func:`casefile.services.dating.guess_published` would fall back on the file's
modification date), or whose own sources disagree on it (a web page whose metadata and address
give different days). It only reads: the answers then go to
:func:`casefile.services.batch.import_paths` (``published_by_file``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date
from pathlib import Path

from sqlalchemy.orm import Session

from casefile.errors import CasefileError
from casefile.ingest.files import read_file
from casefile.ingest.pool import ReaderPool
from casefile.ingest.types import Ingested
from casefile.services.batch import iter_import_files
from casefile.services.cases import get_case
from casefile.services.dating import guess_published
from casefile.services.documents import known_bytes, sha256_hex
from casefile.services.items import parse_date

#: Files read, looked up and parsed together.
CHUNK_FILES = 64
#: File name endings read as web pages by :func:`suggested_date`.
_PAGE_SUFFIXES = (".html", ".htm", ".xhtml", ".shtml")


def suggested_date(path: Path) -> tuple[date, str]:
    """The date the date question is prefilled with for ``path``, and where it came from: for
    a web page that states its own date (its metadata, structured data or address; see
    :func:`casefile.ingest.html.page_dates`), the first of those, e.g. ``(2024-03-08, "the
    page's metadata (article:published_time)")``; else the file's modification date
    (:func:`casefile.services.dating.guess_published`). Never raises for a bad file."""
    if path.suffix.lower() in _PAGE_SUFFIXES:
        from casefile.ingest.html import decode_html, page_dates

        try:
            markup, _notes = decode_html(path.read_bytes(), path.name)
            found = page_dates(markup)
        except (OSError, ValueError, LookupError):
            found = []
        if found:
            return date.fromisoformat(found[0][0]), found[0][1]
    guess = guess_published(path, "")
    return guess.date, "the file's modification date"


def files_without_date(session: Session, case_id: int, paths: Iterable[Path | str], *,
                       cancelled: Callable[[], bool] | None = None,
                       progress: Callable[[int, int], None] | None = None,
                       workers: int | None = 0, password: str | None = None,
                       keep: dict[Path, tuple[str, Ingested]] | None = None,
                       keep_bytes: int = 32 * 1024**2) -> list[Path]:
    """The files of an import of ``paths`` (files and folders, walked as
    :func:`casefile.services.batch.iter_import_files` walks them, in the same order and as the
    same Path values) that it would store as new documents and that carry no published date.

    Left out: files whose bytes the case already holds (by SHA-256), copies of an earlier
    file of the same import, files the import refuses (empty, too big, binary, damaged,
    encrypted PDFs: no password is given in a batch) and files with a date in their metadata
    or near the top of their text. ``progress(done, total)`` is called after each chunk of
    files; ``cancelled`` is checked before each chunk (True: the files checked so far are
    returned). ``workers`` as :class:`casefile.ingest.pool.ReaderPool` (0: read here);
    ``password`` opens encrypted PDFs (without it they are left out). ``keep`` receives the
    files parsed here, by path (their bytes' SHA-256 and what they yield), up to
    ``keep_bytes`` of files, for the import to take instead of parsing them again.

    Raises NotFoundError for an unknown case. Never raises for a bad file.
    """
    get_case(session, case_id)
    files = list(iter_import_files(paths))
    undated: list[Path] = []
    seen: set[str] = set()
    kept = 0
    with ReaderPool(workers) as readers:
        for start in range(0, len(files), CHUNK_FILES):
            if cancelled is not None and cancelled():
                break
            chunk: list[tuple[Path, bytes, str]] = []
            for path in files[start:start + CHUNK_FILES]:
                try:
                    data = read_file(path)
                except (CasefileError, OSError):  # the import says why
                    continue
                digest = sha256_hex(data)
                if digest not in seen:
                    seen.add(digest)
                    chunk.append((path, data, digest))
            known = known_bytes(session, case_id, [d for _p, _b, d in chunk]).in_case
            new = [(p, b, d) for p, b, d in chunk if d not in known]
            read = readers.read([(b, p.name, password) for p, b, _d in new])
            for (path, data, digest), ingested in zip(new, read, strict=True):
                if isinstance(ingested, str):  # refused: the import's summary says why
                    continue
                if keep is not None and kept + len(data) <= keep_bytes:
                    kept += len(data)
                    keep[path] = (digest, ingested)
                try:
                    in_metadata = parse_date(ingested.published)
                except CasefileError:
                    in_metadata = None
                if (guess_published(path, ingested.text, in_metadata).source == "file"
                        or ingested.extra.get("published_disputed")):
                    undated.append(path)
            if progress is not None:
                progress(min(start + CHUNK_FILES, len(files)), len(files))
    return undated
