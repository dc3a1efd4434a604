"""Import many files and folders into a case: one file per transaction, bad files reported.

Used by ``casefile import PATH...`` and by the window's import (with its progress dialog), so it
knows nothing about Qt: progress goes to a plain callback and cancelling is a plain callable.

A folder is walked recursively in a stable order (names compared case-insensitively, a folder's
files before its subfolders); hidden files and folders (names starting with ``.``, or with the
Windows hidden attribute) and Office lock files (``~$report.docx``) are skipped. Symbolic links
to folders are not followed (no loops). The walk is :mod:`casefile.services.walking`'s
(:func:`iter_import_files`, re-exported here).

A file that fails, or a crash half-way, never undoes or half-stores another file, and never
leaves half a document: files are taken in groups (at most :data:`GROUP_FILES` and
:data:`GROUP_BYTES`; the first groups hold 1, 2, 4... new files, so the first documents are
there at once), each group is checked for duplicates once, read (slow formats in worker
processes, see :class:`casefile.ingest.pool.ReaderPool`; while a group is stored, the workers
already read the next group's slow files) and stored in one transaction, and a
file is reported (``on_file``) only once that transaction is committed. A group in which a
file cannot be stored is stored again one file per transaction, so that file alone fails. A
crash loses at most the group not yet reported, whole.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Literal

from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from casefile.errors import CasefileError
from casefile.filenames import printable_name
from casefile.ingest.files import read_file
from casefile.ingest.pool import ReaderPool, take_early_pool
from casefile.ingest.types import Ingested
from casefile.services.cases import check_case
from casefile.services.changes import Step
from casefile.services.dating import guess_published, new_note
from casefile.services.documents import (
    ImportResult,
    NewFile,
    known_bytes,
    sha256_hex,
    store_document,
    store_documents,
)
from casefile.services.items import parse_date
from casefile.services.walking import iter_import_files
from casefile.store.conflicts import retry_on_conflict
from casefile.store.workspace import bulk_writes

Status = Literal["imported", "already there", "failed"]
#: ``(done, total, path)``: ``done`` files of ``total`` are finished; ``path`` is the file about
#: to be imported, or None once all are done (or the batch was cancelled).
ProgressCallback = Callable[[int, int, "Path | None"], None]
TransactionFactory = Callable[[], AbstractContextManager[Session]]

#: A group of files checked, read and stored together holds at most this many files (each
#: group is a commit, and each commit of the search index writes a new FTS5 segment)...
GROUP_FILES = 256
#: ... and at most this many bytes (a group of big PDFs is short).
GROUP_BYTES = 32 * 1024**2


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
            return {"path": printable_name(str(self.path)), "status": "failed",
                    "error": self.error}
        entry = self.result.as_json()
        entry["path"] = printable_name(str(self.path))
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
    published_by_file: Mapping[Path, date | None] | None = None,
    workers: int | None = None,
    notes: Sequence[str] = (),
    cancel_current: bool = False,
    parsed: Mapping[Path, tuple[str, Ingested]] | None = None,
) -> BatchResult:
    """Import every file of ``paths`` (files and folders, see :func:`iter_import_files`).

    ``transaction`` opens one committed transaction (e.g. ``Workspace.transaction``); a failed
    file stores nothing and never undoes the others (see the module docstring for how files
    are grouped). ``published`` (ISO date) and ``password`` (for encrypted PDFs) apply to
    every file. ``progress`` is called with ``(done, total, path)`` before each file is read
    and ``(total_done, total, None)`` at the end; ``cancelled`` is checked before each file
    (returning True stops the batch: the files already read are stored, the others are not
    touched); ``on_file`` gets each :class:`FileOutcome`, in order, once its transaction is
    committed. ``workers`` is the number of processes reading slow formats (None: one fewer
    than the cores, taking those :func:`casefile.services.walking.start_readers` started early
    when there are; 0: none, everything read in this process).

    With ``guess_dates`` and no ``published``, each new document gets the date
    :func:`casefile.services.dating.guess_published` finds (the file's metadata, a publication
    date near the top of its text, else the file's modification date), and a note on the
    document says which (``"Published date taken from the text: 2018-02-23"``).
    ``fallback_published`` (the window's answer to "when was it published?") replaces the
    modification date for a file that carries no date of its own. ``published_by_file``
    gives such a file its own answer instead, by its path as :func:`iter_import_files` yields
    it (a date, or None: no published date at all); it wins over ``fallback_published``.
    ``notes`` go onto every new document's import notes. With ``cancel_current``, a cancel
    seen before the current group commits rolls that group back too (the files of it are
    left untouched, like those after it): an import of one file then stores nothing.
    ``parsed`` holds files read already (by path: their bytes' SHA-256 and what they yield,
    e.g. by :func:`casefile.services.undated.files_without_date`), taken instead of parsing
    them again when the bytes are the same.

    Each file is read and hashed first, and checked once for bytes already in the case (in
    the transaction that stores it): those are ``already there`` without being parsed. A file
    that cannot be imported (IngestError or any other error while reading it) becomes a
    ``failed`` outcome with its reason.

    Raises NotFoundError for an unknown case and ValidationError for a bad ``published`` date,
    before any file is touched. Otherwise raises only when the database itself fails (sqlalchemy
    DBAPIError: damaged, disk full, connection lost; a lost write race is retried first), since
    every further file would fail the same way; the files committed before stay.
    """
    with transaction() as session:
        check_case(session, case_id)
    published_date = parse_date(published, "published")
    files = list(iter_import_files(paths))
    batch = BatchResult(total=len(files))
    options = _Options(case_id, published_date, password, guess_dates, fallback_published,
                       dict(published_by_file or {}), list(notes), dict(parsed or {}))
    abandon = cancelled if cancel_current else None
    # many transactions in a row: the WAL is checkpointed seldom (ARCHITECTURE.md, "Writers
    # take turns")
    with take_early_pool(workers) as readers, bulk_writes():
        readers.expect([f.name for f in files])
        at = 0
        limit = 1  # new files per group grow 1, 2, 4... so the first documents come at once
        group: list[_File] = []  # files read and not stored yet, in order
        ahead: list[_File] = []  # the files after ``at`` whose bytes were read early, in order
        while (at < len(files) or group) and not batch.cancelled:
            size = sum(len(f.data) for f in group)
            while at < len(files) and len(group) < GROUP_FILES and size < GROUP_BYTES:
                if cancelled is not None and cancelled():
                    batch.cancelled = True
                    break
                if progress is not None:
                    progress(at, len(files), files[at])
                group.append(ahead.pop(0) if ahead else _read(files[at]))
                size += len(group[-1].data)
                at += 1
            if readers.started and not batch.cancelled:
                ahead = _read_ahead(files, at, ahead, options, readers)
            # once cancelled, the files already read are stored (as the current file was)
            most_new = len(group) if batch.cancelled else limit
            outcomes, group = _import_group(transaction, options, group, readers, most_new,
                                            abandon)
            if abandon is not None and abandon():
                batch.cancelled = True
                group = []
            limit = min(limit * 2, GROUP_FILES)
            for outcome in outcomes:
                batch.outcomes.append(outcome)
                if on_file is not None:
                    on_file(outcome)
    if progress is not None:
        progress(len(batch.outcomes), len(files), None)
    return batch


def _read_ahead(files: list[Path], at: int, ahead: list[_File], options: _Options,
                readers: ReaderPool) -> list[_File]:
    """The bytes of the next group's files (``files[at:]``, up to a group's size), read now and
    handed to the reader workers (:meth:`ReaderPool.read_ahead`), so that they parse them while
    this process stores the current group. Until its turn such a file counts as not read: the
    progress callback and the cancel check come when the group takes it, and a cancelled
    batch leaves it alone. Returns ``ahead`` with the files read added."""
    size = sum(len(f.data) for f in ahead)
    at += len(ahead)
    while at < len(files) and len(ahead) < GROUP_FILES and size < GROUP_BYTES:
        ahead.append(_read(files[at]))
        size += len(ahead[-1].data)
        at += 1
    readers.read_ahead([(f.data, f.path.name, options.password) for f in ahead
                        if f.error is None
                        and options.ready.get(f.path, ("", None))[0] != f.sha256])
    return ahead


@dataclass
class _Options:
    case_id: int
    published: date | None
    password: str | None
    guess_dates: bool
    fallback: date | None
    by_file: dict[Path, date | None] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: files parsed already (by the date check), by path: (sha256, what they yield)
    ready: dict[Path, tuple[str, Ingested]] = field(default_factory=dict)


@dataclass
class _File:
    """A file of a group: its bytes and hash once read, or why it cannot be imported."""

    path: Path
    data: bytes = b""
    sha256: str = ""
    error: str | None = None
    #: once parsed: what it yields and the published date to store, or the refusal
    parsed: tuple[Ingested, date | None] | str | None = None


def _read(path: Path) -> _File:
    if path.is_dir():  # only a folder that could not be listed gets here
        return _File(path, error=f"the folder {printable_name(str(path))} cannot be read")
    try:
        data = read_file(path)
    except CasefileError as exc:
        return _File(path, error=str(exc))
    except Exception as exc:  # an odd OS error must not stop the other files
        return _File(path, error=f"{printable_name(path.name)} could not be imported "
                                 f"({type(exc).__name__}: {printable_name(str(exc))})")
    return _File(path, data, sha256_hex(data))


def _parse(options: _Options, files: list[_File], readers: ReaderPool) -> None:
    """Parse the files not parsed yet (outside any write: the group's transaction has only
    read so far) and guess their dates."""
    todo = [f for f in files if f.parsed is None]
    if not todo:
        return
    ready = options.ready
    unread = [f for f in todo if ready.get(f.path, ("", None))[0] != f.sha256]
    fresh = {id(f) for f in unread}
    read = iter(readers.read([(f.data, f.path.name, options.password) for f in unread]))
    got = [next(read) if id(f) in fresh else ready.pop(f.path)[1] for f in todo]
    for f, ingested in zip(todo, got, strict=True):
        if isinstance(ingested, str):
            f.parsed = ingested
            continue
        ingested.notes.extend(options.notes)
        dated = options.published
        if dated is None and options.guess_dates:
            dated = _guess(f.path, ingested, options.fallback, options.by_file)
        f.parsed = (ingested, dated)


class _Abandoned(Exception):
    """Raised inside a group's transaction to roll it back (cancelled before its commit)."""


def _import_group(transaction: TransactionFactory, options: _Options, group: list[_File],
                  readers: ReaderPool, most_new: int,
                  abandon: Callable[[], bool] | None = None,
                  ) -> tuple[list[FileOutcome], list[_File]]:
    """Check a group, then parse and store it in the same transaction up to its
    ``most_new``-th new file: the outcomes of the files taken, in order, and the files left
    for the next group (checked again there). When ``abandon()`` is true before the commit,
    nothing of the group is stored and no outcome is given."""

    def attempt() -> tuple[int, list[ImportResult | str]]:
        with transaction() as session:
            known = known_bytes(session, options.case_id,
                                [f.sha256 for f in group if f.error is None])
            taken, new_hashes = len(group), set()
            for i, f in enumerate(group):
                if f.error is None and f.sha256 not in known.in_case:
                    new_hashes.add(f.sha256)
                    if len(new_hashes) > most_new:
                        taken = i
                        break
            readable = [f for f in group[:taken] if f.error is None]
            _parse(options, [f for f in readable if f.sha256 not in known.in_case], readers)
            new = [f for f in readable if isinstance(f.parsed, tuple)
                   and f.sha256 not in known.in_case]
            stored = iter(store_documents(session, options.case_id, [
                NewFile(f.data, f.parsed[0], printable_name(f.path.name), f.parsed[1], f.sha256)
                for f in new if isinstance(f.parsed, tuple)], known=known))
            answers: list[ImportResult | str] = []
            for f in readable:
                if f.sha256 in known.in_case:
                    found = known.in_case[f.sha256]
                    answers.append(ImportResult(found.document_id, found.title, f.sha256,
                                                False, list(found.notes)))
                elif isinstance(f.parsed, str):
                    answers.append(f.parsed)
                else:
                    answers.append(next(stored))
            if abandon is not None and abandon():
                raise _Abandoned()
            return taken, answers

    taken = len(group)
    try:
        if any(f.error is None for f in group):
            taken, answers = retry_on_conflict(attempt)
        else:
            answers = []
    except _Abandoned:
        return [], []
    except DBAPIError:
        raise
    except Exception:  # a file that cannot be stored: store them one by one to find it
        taken = len(group)
        answers = [_store_alone(transaction, options, f) for f in group if f.error is None]
    outcomes: list[FileOutcome] = []
    found = iter(answers)
    for f in group[:taken]:
        if f.error is not None:
            outcomes.append(FileOutcome(f.path, "failed", error=f.error))
            continue
        answer = next(found)
        if isinstance(answer, str):
            outcomes.append(FileOutcome(f.path, "failed", error=answer))
        else:
            answer.path = str(f.path)
            outcomes.append(FileOutcome(f.path, "imported" if answer.created else
                                        "already there", answer))
    return outcomes, group[taken:]


def _store_alone(transaction: TransactionFactory, options: _Options,
                 f: _File) -> ImportResult | str:
    """One file in its own transaction (the way every file went before groups)."""
    if isinstance(f.parsed, str):
        return f.parsed
    try:
        if f.parsed is None:  # already in the case when checked, or never reached
            def check() -> ImportResult | None:
                with transaction() as session:
                    return known_bytes(session, options.case_id, [f.sha256]).in_case.get(
                        f.sha256)
            found = check()
            if found is not None:
                return found
            _parse(options, [f], ReaderPool(0))
            if isinstance(f.parsed, str) or f.parsed is None:
                return f.parsed or f"{printable_name(f.path.name)} could not be imported"
        ingested, dated = f.parsed

        def store() -> ImportResult:
            with transaction() as session:
                return store_document(session, options.case_id, f.data, ingested,
                                      published=dated, filename=printable_name(f.path.name))

        return retry_on_conflict(store)
    except CasefileError as exc:
        return str(exc)
    except DBAPIError:
        raise
    except Exception as exc:  # a bug in a reader must not stop the other files
        return (f"{printable_name(f.path.name)} could not be imported "
                f"({type(exc).__name__}: {printable_name(str(exc))})")


def _guess(path: Path, ingested: Ingested, fallback: date | None = None,
           by_file: Mapping[Path, date | None] | None = None) -> date | None:
    """The guessed published date of a new file; its note goes onto the document's notes.
    For a file that carries none, its answer in ``by_file`` (a date, or None: no date), else
    ``fallback`` (a date the user gave for files without one), wins over the file's
    modification date."""
    try:
        in_metadata = parse_date(ingested.published)
    except CasefileError:  # a reader's odd metadata date: look elsewhere
        in_metadata = None
    guess = guess_published(path, ingested.text, in_metadata)
    if guess.source == "file" and by_file and path in by_file:
        given = by_file[path]
        ingested.notes.append(
            f"Published date given at import (the file carries none): {given.isoformat()}"
            if given is not None else "No published date (none given at import)")
        return given
    if guess.source == "file" and fallback is not None:
        ingested.notes.append(f"Published date given at import (the file carries none): "
                              f"{fallback.isoformat()}")
        return fallback
    note = new_note(guess, ingested.notes)
    if note:
        ingested.notes.append(note)
    return guess.date


def undo_import_step(document_ids: Sequence[int], label: str) -> Step:
    """The undo of an import that stored ``document_ids``: one service call that deletes them
    with their passages and what was suggested from them (``item.delete``,
    :func:`casefile.services.item_actions.delete`; its own undo brings them back under the
    same ids, so a redo of the import is a restore). ``label`` names the import ("import 3
    documents")."""
    return Step("item.delete", {"item_ids": [int(i) for i in document_ids], "as_undo_of": label},
                label=f"Undo {label}")
