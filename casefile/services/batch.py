"""Import many files and folders into a case: one file per transaction, bad files reported.

Used by ``casefile import PATH...`` and by the window's import (with its progress dialog), so it
knows nothing about Qt: progress goes to a plain callback and cancelling is a plain callable.

A folder is walked recursively in a stable order (names compared case-insensitively, a folder's
files before its subfolders); hidden files and folders (names starting with ``.``, or with the
Windows hidden attribute) and Office lock files (``~$report.docx``) are skipped. Symbolic links
to folders are not followed (no loops). Each file is imported in its own transaction, so a file
that fails, or a crash half-way, never undoes or half-stores another file.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Literal

from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from casefile.errors import CasefileError
from casefile.ingest import ingest_bytes
from casefile.ingest.files import read_file
from casefile.ingest.types import Ingested
from casefile.services.cases import get_case
from casefile.services.dating import guess_published
from casefile.services.documents import (
    ImportResult,
    existing_document,
    sha256_hex,
    store_document,
)
from casefile.services.items import parse_date
from casefile.store.conflicts import retry_on_conflict

Status = Literal["imported", "already there", "failed"]
#: ``(done, total, path)``: ``done`` files of ``total`` are finished; ``path`` is the file about
#: to be imported, or None once all are done (or the batch was cancelled).
ProgressCallback = Callable[[int, int, "Path | None"], None]
TransactionFactory = Callable[[], AbstractContextManager[Session]]


@dataclass
class FileOutcome:
    """What happened to one file: ``status`` and either the ImportResult or the reason."""

    path: Path
    status: Status
    result: ImportResult | None = None
    error: str | None = None

    def as_json(self) -> dict[str, object]:
        """The file's entry of ``import --json`` (README): the ImportResult shape, or
        ``{"path", "status": "failed", "error"}``."""
        if self.result is None:
            return {"path": str(self.path), "status": "failed", "error": self.error}
        entry = self.result.as_json()
        entry["path"] = str(self.path)
        return entry


@dataclass
class BatchResult:
    """All files' outcomes in import order; ``cancelled`` when the cancel check stopped it.

    ``total`` is the number of files found; when cancelled, ``len(outcomes) < total`` and the
    files after the last outcome were not touched.
    """

    outcomes: list[FileOutcome] = field(default_factory=list)
    total: int = 0
    cancelled: bool = False

    def count(self, status: Status) -> int:
        """How many files ended with ``status``."""
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def any_stored(self) -> bool:
        """True when at least one file is now in the case (imported or already there)."""
        return any(o.status != "failed" for o in self.outcomes)

    def summary(self) -> str:
        """``"N imported, N already there, N failed"`` (plus how many were left when cancelled)."""
        line = (f"{self.count('imported')} imported, {self.count('already there')} already "
                f"there, {self.count('failed')} failed")
        if self.cancelled:
            line += f"; cancelled, {self.total - len(self.outcomes)} not imported"
        return line


def _sort_key(name: str) -> tuple[str, str]:
    return (name.casefold(), name)


def is_hidden(path: Path) -> bool:
    """True for dot files, Office lock files (``~$...``) and files with Windows' hidden flag."""
    name = path.name
    if name.startswith(".") or name.startswith("~$"):
        return True
    try:
        attributes = getattr(os.lstat(path), "st_file_attributes", 0)
    except OSError:
        return False
    return bool(attributes & getattr(stat, "FILE_ATTRIBUTE_HIDDEN", 0))


def iter_import_files(paths: Iterable[Path | str]) -> Iterator[Path]:
    """The files to import for ``paths``, in a stable order, each once.

    A file path is yielded as given (even a missing or hidden one: the import then says what is
    wrong with it). A folder is walked recursively, skipping hidden entries (see
    :func:`is_hidden`); a folder that cannot be listed is yielded itself, so the import reports
    it as failed instead of silently leaving it out. Duplicates (the same resolved path reached
    twice) are yielded once.
    """
    seen: set[Path] = set()

    def once(p: Path) -> bool:
        key = p.resolve() if p.exists() else p.absolute()
        if key in seen:
            return False
        seen.add(key)
        return True

    unreadable: list[Path] = []

    def note_unreadable(err: OSError) -> None:
        unreadable.append(Path(err.filename))

    for raw in paths:
        top = Path(raw)
        if not top.is_dir():
            if once(top):
                yield top
            continue
        for folder, dirnames, filenames in os.walk(top, onerror=note_unreadable):
            here = Path(folder)
            dirnames[:] = sorted((d for d in dirnames if not is_hidden(here / d)), key=_sort_key)
            for name in sorted(filenames, key=_sort_key):
                file = here / name
                if not is_hidden(file) and once(file):
                    yield file
            yield from (bad for bad in _drain(unreadable) if once(bad))
        yield from (bad for bad in _drain(unreadable) if once(bad))


def _drain(items: list[Path]) -> list[Path]:
    taken = list(items)
    items.clear()
    return taken


def import_paths(
    transaction: TransactionFactory,
    case_id: int,
    paths: Iterable[Path | str],
    *,
    published: date | str | None = None,
    password: str | None = None,
    progress: ProgressCallback | None = None,
    cancelled: Callable[[], bool] | None = None,
    on_file: Callable[[FileOutcome], None] | None = None,
    guess_dates: bool = False,
    fallback_published: date | None = None,
) -> BatchResult:
    """Import every file of ``paths`` (files and folders, see :func:`iter_import_files`).

    ``transaction`` opens one committed transaction (e.g. ``Workspace.transaction``); each file
    gets its own, so a failed file stores nothing and never undoes the others. ``published``
    (ISO date) and ``password`` (for encrypted PDFs) apply to every file. ``progress`` is called
    with ``(done, total, path)`` before each file and ``(total_done, total, None)`` at the end;
    ``cancelled`` is checked before each file (returning True stops the batch: files already
    imported stay); ``on_file`` gets each :class:`FileOutcome` right after its transaction ended.

    With ``guess_dates`` and no ``published``, each new document gets the date
    :func:`casefile.services.dating.guess_published` finds (the file's metadata, a publication
    date near the top of its text, else the file's modification date), and a note on the
    document says which (``"Published date taken from the text: 2018-02-23"``).
    ``fallback_published`` (the window's answer to "when was it published?") replaces the
    modification date for a file that carries no date of its own.

    Each file is read and hashed first: bytes already in the case are ``already there`` without
    being parsed again. A file that cannot be imported (IngestError or any other error while
    reading it) becomes a ``failed`` outcome with its reason.

    Raises NotFoundError for an unknown case and ValidationError for a bad ``published`` date,
    before any file is touched. Otherwise raises only when the database itself fails (sqlalchemy
    DBAPIError: damaged, disk full, connection lost; a lost write race is retried first), since
    every further file would fail the same way; the files committed before stay.
    """
    with transaction() as session:
        get_case(session, case_id)
    published_date = parse_date(published, "published")
    files = list(iter_import_files(paths))
    batch = BatchResult(total=len(files))
    for done, path in enumerate(files):
        if cancelled is not None and cancelled():
            batch.cancelled = True
            break
        if progress is not None:
            progress(done, len(files), path)
        outcome = _import_one(transaction, case_id, path, published_date, password, guess_dates,
                              fallback_published)
        batch.outcomes.append(outcome)
        if on_file is not None:
            on_file(outcome)
    if progress is not None:
        progress(len(batch.outcomes), len(files), None)
    return batch


def _store(
    transaction: TransactionFactory, case_id: int, data: bytes, ingested: Ingested,
    published: date | None, path: Path,
) -> ImportResult:
    with transaction() as session:
        result = store_document(session, case_id, data, ingested, published=published,
                                filename=path.name)
    result.path = str(path)
    return result


def _guess(path: Path, ingested: Ingested, fallback: date | None = None) -> date:
    """The guessed published date of a new file; its note goes onto the document's notes.
    ``fallback`` (a date the user gave for files without one) wins over the file's
    modification date."""
    try:
        in_metadata = parse_date(ingested.published)
    except CasefileError:  # a reader's odd metadata date: look elsewhere
        in_metadata = None
    guess = guess_published(path, ingested.text, in_metadata)
    if guess.source == "file" and fallback is not None:
        ingested.notes.append(f"Published date given at import (the file carries none): "
                              f"{fallback.isoformat()}")
        return fallback
    ingested.notes.append(guess.note)
    return guess.date


def _import_one(
    transaction: TransactionFactory, case_id: int, path: Path,
    published: date | None, password: str | None, guess_dates: bool = False,
    fallback: date | None = None,
) -> FileOutcome:
    if path.is_dir():  # only a folder that could not be listed gets here
        return FileOutcome(path, "failed", error=f"the folder {path} cannot be read")
    try:
        data = read_file(path)
        digest = sha256_hex(data)
        # Same bytes already in the case: answer before parsing (fast re-runs after a crash).
        with transaction() as session:
            found = existing_document(session, case_id, digest)
            if found is not None:
                result = ImportResult(found.id, found.title, digest, False,
                                      list(found.import_notes or []), path=str(path))
        if found is None:
            # Parse outside any transaction: a slow file never holds the workspace's write lock.
            ingested = ingest_bytes(data, path.name, password=password)
            dated = published
            if dated is None and guess_dates:
                dated = _guess(path, ingested, fallback)
            result = retry_on_conflict(lambda: _store(transaction, case_id, data, ingested,
                                                      dated, path))
    except CasefileError as exc:
        return FileOutcome(path, "failed", error=str(exc))
    except DBAPIError:
        raise
    except Exception as exc:  # a bug in a reader must not stop the other files
        return FileOutcome(
            path, "failed",
            error=f"{path.name} could not be imported ({type(exc).__name__}: {exc})",
        )
    return FileOutcome(path, "imported" if result.created else "already there", result)
