"""Importing files from the window: File ▸ Import documents…, files dropped on the window, the
password loop of an encrypted PDF, and suggestions after an import.

:class:`ImportController` uses the window's public interface only (``case_id``, ``runner``,
``notify``, ``report_error``, ``open_document``, ``pdf_passwords``, ``folder_import``,
``suggestions``, ``ocr``, ``last_job``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QDialog, QFileDialog
from sqlalchemy.orm import Session

from casefile.ui.date_question import PublishedDateDialog
from casefile.ui.operations import Cancelled, CaseChange, Job, change
from casefile.ui.passwords import ask_pdf_password
from casefile.ui.recent_folder import dialog_folder, remember_folder

if TYPE_CHECKING:  # the ingesters and the import service load with the first import
    from casefile.services import documents
    from casefile.services.dating import DateGuess
    from casefile.ui.main_window import MainWindow

#: ``import_files``' default: ask for the published date of files that carry none.
ASK = object()

FILE_FILTER = ("Documents (*.txt *.md *.html *.htm *.pdf *.eml *.docx *.png *.jpg *.jpeg *.tif "
               "*.tiff *.mht *.mhtml *.warc *.warc.gz *.wacz);;All files (*)")


def local_paths(urls: Sequence[Any]) -> list[Path]:
    """The local files and folders among dropped URLs (QUrl), in order."""
    return [Path(u.toLocalFile()) for u in urls if u.isLocalFile() and u.toLocalFile()]


class ImportController(QObject):
    """The window's file import."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.last_job: Job | None = None
        self.date_dialog: PublishedDateDialog | None = None

    def prompt(self) -> Job | None:
        """File ▸ Import: choose files (QFileDialog) and import them in the background."""
        names, _filter = QFileDialog.getOpenFileNames(
            self.window, "Import documents", str(dialog_folder(self.window.settings)),
            FILE_FILTER)
        if not names:
            return None
        remember_folder(names[0], self.window.settings)
        return self.import_files([Path(n) for n in names])

    def accepts(self, urls: Sequence[Any]) -> bool:
        """Whether a drag carrying ``urls`` can be dropped: a case is open and some are local."""
        return self.window.case_id is not None and bool(local_paths(urls))

    def drop(self, urls: Sequence[Any]) -> Job | None:
        """Import dropped files (one transaction) or folders (one file per transaction, then
        a summary)."""
        paths = local_paths(urls)
        if not paths:
            return None
        return self.import_files(paths)

    def import_files(self, paths: Sequence[Path], passwords: dict[Path, str] | None = None,
                     published: DateGuess | None | object = ASK) -> Job | None:
        """Import files into the current case off the GUI thread, with a cancellable progress
        dialog.

        A file that carries no published date first gets the question "when was it published?"
        (:class:`PublishedDateDialog`, kept in ``date_dialog`` while open), prefilled with its
        modification date; a date in its metadata or near the top of its text is taken without
        asking. ``published`` is that answer once given (None: no date). Several files or a
        folder are checked first, off the GUI thread (:func:`files_without_date`: only new,
        importable files without a date of their own count), then get one question for all of
        them, or, with its box unticked, one question per file in turn; then they go the
        folder import's way (:meth:`FolderImport.start`, one service call with each file's
        answer): each file its own transaction, then a summary. A single file is one
        transaction: cancel, or a refused file, stores nothing; an encrypted PDF stops the
        job (nothing stored) and the window asks for its password (``passwords`` holds those
        given so far), then imports again; a wrong one is said so and asked again, until the
        reporter cancels."""
        from casefile.services.dating import DateGuess

        window = self.window
        if window.case_id is None:
            window.report_error("Create or open a case before importing documents.")
            return None
        paths = list(paths)
        if not paths:
            return None
        several = len(paths) > 1 or paths[0].is_dir()
        if published is ASK and several:
            return self._check_dates(paths)
        if published is ASK:
            own: DateGuess | None | str = None
            if paths[0].is_file():
                own = self._own_date(paths[0])
            if own is None and not self._already_there(paths):
                self._ask_date(paths, passwords)
                return None
            published = own if isinstance(own, DateGuess) else None  # UNREADABLE: no question
        assert published is None or isinstance(published, DateGuess)
        if several:
            return window.folder_import.start(
                paths, fallback_published=published.date if published is not None else None)
        return self._import_one(paths[0], dict(passwords or {}), published)

    def _own_date(self, path: Path) -> DateGuess | None | str:
        """The published date ``path`` carries, as :func:`casefile.services.dating.own_date`
        says: None when it carries none, its ``UNREADABLE`` when the file cannot be imported
        at all (the import then says why at once, without asking for a date first)."""
        from casefile.services.dating import own_date

        return own_date(path)

    def _already_there(self, paths: Sequence[Path]) -> bool:
        """True when every path is a file whose bytes the case already holds (no question).

        Asked on the GUI thread, so it stays short: files are read and hashed a few at a
        time and looked up with one query per few files (:func:`documents.known_bytes`), and
        the answer is False at the first file the case does not hold (a new import: usually
        the first one) or that is not a readable file (a folder)."""
        from casefile.services import documents

        case_id = self.window.case_id
        if case_id is None:
            return False
        step = 16
        for start in range(0, len(paths), step):
            try:
                digests = [documents.file_sha256(p) for p in paths[start:start + step]]
            except Exception:
                return False

            def known(session: Session, digests: list[str] = digests) -> bool:
                found = documents.known_bytes(session, case_id, digests).in_case
                return all(d in found for d in digests)

            if not self.window.runner.read(known):
                return False
        return True

    def _ask_date(self, paths: Sequence[Path], passwords: dict[Path, str] | None) -> None:
        """The question for one file (``paths`` holds it), then its import."""
        from casefile.services.dating import DateGuess

        def answered(answer: date | None, _for_all: bool) -> None:
            given = None if answer is None else DateGuess(
                answer, "given", f"Published date given at import: {answer.isoformat()}")
            self.import_files(paths, passwords, published=given)

        self._question([paths[0]], answered)

    def _question(self, undated: Sequence[Path],
                  answered: Callable[[date | None, bool], None], *,
                  position: tuple[int, int] | None = None) -> None:
        """Open the date question for ``undated`` (prefilled with the first one's
        :func:`~casefile.services.undated.suggested_date`: its modification date, or a web
        page's own date); ``answered(date or None for "No date", for_all)`` once OK or No date is
        pressed. Cancel says the import is cancelled."""
        from casefile.services.undated import suggested_date

        first = undated[0]
        # the file's modification date, or a web page's own date when its sources disagree
        day, source = suggested_date(first)
        if len(undated) > 1:
            source = (f"the modification date of {first.name}"
                      if source == "the file's modification date" else f"{source} of {first.name}")
        dialog = PublishedDateDialog([p.name for p in undated], day, source, self.window,
                                     position=position)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.date_dialog = dialog

        def finished(result: int) -> None:
            self.date_dialog = None
            self.window.activateWindow()  # the window's shortcuts work again at once
            if result == QDialog.DialogCode.Rejected:
                self.window.notify("Import cancelled: nothing was stored.", 6000)
                return
            answered(None if result == PublishedDateDialog.NO_DATE else dialog.published(),
                     dialog.for_all())

        dialog.finished.connect(finished)
        dialog.open()

    def _check_dates(self, paths: list[Path]) -> Job:
        """Find, off the GUI thread, the files of a several-file or folder import that need
        the date question (:func:`files_without_date`), then ask it (:meth:`_ask_dates`)."""
        window = self.window
        case_id = window.case_id
        assert case_id is not None

        def work(session: Session, job: Job) -> list[Path]:
            from casefile.services.undated import files_without_date

            undated = files_without_date(session, case_id, paths,
                                         cancelled=lambda: job.cancelled, progress=job.report)
            job.check()
            return undated

        def done(job: Job) -> None:
            if job.outcome == "cancelled":
                window.notify("Import cancelled: nothing was stored.", 6000)
            elif job.outcome == "succeeded":
                self._ask_dates(paths, job.result)

        job = window.runner.start(work, label="Checking the files for published dates…",
                                  change=None, parent=window, on_done=done)
        self.last_job = job
        return job

    def _ask_dates(self, paths: list[Path], undated: list[Path]) -> None:
        """One question for the ``undated`` files of ``paths``; with its box unticked, one
        per file in turn (Cancel on any of them cancels the whole import); then the import,
        one service call with each file's answer."""
        window = self.window
        if not undated:  # every file has its date, is already there or will be refused
            window.folder_import.start(paths)
            return
        answers: dict[Path, date | None] = {}

        def ask(at: int) -> None:
            if at == len(undated):
                window.folder_import.start(paths, published_by_file=answers)
                return

            def answered(answer: date | None, for_all: bool) -> None:
                if at == 0 and for_all:
                    answers.update(dict.fromkeys(undated, answer))
                    ask(len(undated))
                    return
                answers[undated[at]] = answer
                ask(at + 1)

            self._question(undated if at == 0 else [undated[at]], answered,
                           position=None if at == 0 else (at + 1, len(undated)))

        ask(0)

    def _import_one(self, path: Path, given: dict[Path, str],
                    published: DateGuess | None) -> Job:
        from casefile.errors import PdfPasswordError
        from casefile.services import documents

        window = self.window
        case_id = window.case_id
        assert case_id is not None
        on = published.date if published is not None else None
        notes = [published.note] if published is not None and published.note else []

        def work(session: Session, job: Job) -> list[documents.ImportResult]:
            job.check()
            try:
                return [documents.import_file(session, case_id, path, password=given.get(path),
                                              published=on, notes=notes)]
            except PdfPasswordError as exc:  # roll back, ask, import again
                job.password_needed = (path, exc.wrong)  # type: ignore[attr-defined]
                raise Cancelled() from exc

        def changed(results: list[documents.ImportResult]) -> CaseChange:
            return change(case_id, kinds={"document"},
                          created=[r.document_id for r in results if r.created]
                          + [c.document_id for r in results for c in r.children],
                          label="import")

        job = window.runner.start(work, label=f"Importing {path.name}…", change=changed,
                                  parent=window,
                                  on_done=lambda job: self._on_done(job, [path], given,
                                                                    published))
        self.last_job = job
        window.last_job = job
        return job

    def _on_done(self, job: Job, paths: Sequence[Path], passwords: dict[Path, str],
                 published: DateGuess | None = None) -> None:
        window = self.window
        needed = getattr(job, "password_needed", None)
        if needed is not None and not job.cancelled:
            path, wrong = needed
            password = ask_pdf_password(window, path.name, wrong=wrong)
            if password is None:
                window.notify(
                    f"Import cancelled: {path.name} needs its password; nothing was stored.", 8000)
                return
            self.import_files(paths, {**passwords, path: password}, published=published)
            return
        if job.outcome == "succeeded" and passwords:
            for result in job.result or []:
                given = passwords.get(Path(result.path)) if result.path else None
                if given is not None:
                    window.pdf_passwords[result.sha256] = given
        if job.outcome == "cancelled":
            window.notify("Import cancelled: nothing was stored.", 8000)
            return
        if job.outcome != "succeeded":
            return
        results: list[documents.ImportResult] = job.result or []
        new = [r for r in results if r.created]
        old = len(results) - len(new)
        parts = [f"Imported {len(new)} document{'s' if len(new) != 1 else ''}"]
        if old:
            parts.append(f"{old} already in the case")
        window.notify("; ".join(parts) + ".", 8000)
        if results:
            window.open_document(results[0].document_id)
        if window.case_id is not None:
            window.record_import(window.case_id, [r.document_id for r in new], [
                c.document_id for r in new for c in r.children if c.created])
        window.ocr.after_import([r.document_id for r in new]
                                + [c.document_id for r in new for c in r.children if c.created],
                                suggest=[r.document_id for r in new])
