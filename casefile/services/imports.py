"""The one way an import starts: files, a folder, a drop in the window, ``casefile import``.

Step one of ARCHITECTURE.md's "Import: the document first, suggestions after": every import
goes through :func:`import_documents`, which commits one group of files per transaction
(:func:`casefile.services.batch.import_paths`, with its retry of a lost write race) and asks
what it needs to know through a typed :class:`casefile.services.prompts.Ask`: the password of
an encrypted PDF imported on its own, and the published date of new files that carry none
(one question for the whole import, :mod:`casefile.services.undated`; with its box unticked,
one per file in turn). Every file is read and parsed here, on the caller's thread (the
window's worker thread), never where the questions are answered; a file parsed for the date
question is not parsed again to be stored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import date
from pathlib import Path

from casefile.errors import CasefileError, PdfPasswordError
from casefile.ingest.types import Ingested
from casefile.services.batch import (
    BatchResult,
    FileOutcome,
    ProgressCallback,
    TransactionFactory,
    import_paths,
    iter_import_files,
)
from casefile.services.prompts import Ask, DateQuestion, PasswordQuestion


def import_documents(
    transaction: TransactionFactory,
    case_id: int,
    paths: Iterable[Path | str],
    *,
    published: date | str | None = None,
    password: str | None = None,
    guess_dates: bool = True,
    ask: Ask | None = None,
    ask_dates: bool = True,
    reading: TransactionFactory | None = None,
    progress: ProgressCallback | None = None,
    checking: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    on_file: Callable[[FileOutcome], None] | None = None,
    cancel_current: bool = False,
    workers: int | None = None,
) -> BatchResult:
    """Import ``paths`` (files and folders, walked as :func:`iter_import_files` walks them)
    into the case: a :class:`BatchResult` of what committed, what failed and why, and whether
    it was cancelled (the files committed before a cancel stay).

    ``published``, ``password``, ``guess_dates``, ``progress``, ``cancelled``, ``on_file``,
    ``cancel_current`` and ``workers`` are :func:`casefile.services.batch.import_paths`'s.
    With ``ask``:

    - an import of one encrypted PDF asks ``PasswordQuestion(path, wrong)`` until the
      password opens it (None: cancelled, nothing stored; in a batch such a file fails with
      its reason instead);
    - with ``ask_dates`` and ``guess_dates`` and no ``published``, the new importable files
      that carry no date (:func:`casefile.services.undated.files_without_date`, read in
      ``reading()`` transactions, with ``checking(done, total)`` as they are read) get one
      ``DateQuestion`` for all, or one each when its answer is not ``for_all``; a None
      answer cancels the import before anything is stored. For an import of one file the
      note says "Published date given at import: DATE" and "No date" stores none.

    Raises what :func:`import_paths` raises (NotFoundError for an unknown case, ValidationError
    for a bad ``published``, the database's own errors).
    """
    paths = list(paths)
    files = list(iter_import_files(paths))
    alone = len(files) == 1 and not Path(paths[0]).is_dir() if len(paths) == 1 else False
    if ask is not None and alone:
        asked = _password(files[0], password, ask)
        if asked is None:
            return BatchResult(total=1, cancelled=True)
        password = asked or password
    if ask is None or not ask_dates or not guess_dates or published is not None:
        return import_paths(transaction, case_id, paths, published=published, password=password,
                            progress=progress, cancelled=cancelled, on_file=on_file,
                            guess_dates=guess_dates, cancel_current=cancel_current,
                            workers=workers)
    ready: dict[Path, tuple[str, Ingested]] = {}  # parsed by the date check: not parsed again
    undated = _undated(reading or transaction, case_id, paths, password, checking, cancelled,
                       ready)
    if undated is None:
        return BatchResult(total=len(files), cancelled=True)
    answers = _ask_dates(undated, ask)
    if answers is None:
        return BatchResult(total=len(files), cancelled=True)
    if alone and undated:  # one file: its answer is the import's date, said so plainly
        given = answers[undated[0]]
        return import_paths(
            transaction, case_id, paths, published=given, password=password,
            progress=progress, cancelled=cancelled, on_file=on_file, guess_dates=False,
            notes=[f"Published date given at import: {given.isoformat()}"] if given else [],
            cancel_current=cancel_current, workers=workers, parsed=ready)
    return import_paths(transaction, case_id, paths, password=password, progress=progress,
                        cancelled=cancelled, on_file=on_file, guess_dates=True,
                        published_by_file=answers, cancel_current=cancel_current,
                        workers=workers, parsed=ready)


def _password(path: Path, given: str | None, ask: Ask) -> str | None:
    """The password that opens ``path`` when it is an encrypted PDF (asked until right): ""
    when it needs none (or cannot be read: the import says why), None when the reporter
    declined."""
    from casefile.ingest.detect import detect_type
    from casefile.ingest.files import read_file
    from casefile.ingest.pdf import check_password

    try:
        data = read_file(path)
        if detect_type(data, path.name) != "application/pdf":
            return ""
    except CasefileError:
        return ""
    password = given
    while True:
        try:
            check_password(data, path.name, password)
            return password or ""
        except PdfPasswordError as exc:
            password = ask(PasswordQuestion(path, wrong=exc.wrong))
            if password is None:
                return None
        except Exception:  # damaged: the import says why
            return ""


def _undated(reading: TransactionFactory, case_id: int, paths: Sequence[Path | str],
             password: str | None, checking: Callable[[int, int], None] | None,
             cancelled: Callable[[], bool] | None,
             ready: dict[Path, tuple[str, Ingested]]) -> list[Path] | None:
    """The files of the import that need the date question (the files parsed for it go in
    ``ready``); None when cancelled meanwhile."""
    from casefile.services.undated import files_without_date

    with reading() as session:
        undated = files_without_date(session, case_id, paths, cancelled=cancelled,
                                     progress=checking, password=password, keep=ready)
    if cancelled is not None and cancelled():
        return None
    return undated


def _ask_dates(undated: list[Path], ask: Ask) -> dict[Path, date | None] | None:
    """One question for ``undated`` (prefilled from the first file); with its box unticked,
    one per file in turn. The answers by file, or None when one was declined."""
    from casefile.services.undated import suggested_date

    answers: dict[Path, date | None] = {}
    for at, path in enumerate(undated):
        day, source = suggested_date(path)
        if at == 0 and len(undated) > 1:
            source = (f"the modification date of {path.name}"
                      if source == "the file's modification date" else f"{source} of {path.name}")
        answer = ask(DateQuestion(tuple(undated) if at == 0 else (path,), day, source,
                                  None if at == 0 else (at + 1, len(undated))))
        if answer is None:
            return None
        if at == 0 and answer.for_all:
            return dict.fromkeys(undated, answer.published)
        answers[path] = answer.published
    return answers
