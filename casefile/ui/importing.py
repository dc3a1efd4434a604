"""Importing files from the window: File ▸ Import documents…, File ▸ Import folder…, files
and folders dropped on the window, and what follows an import (the summary, OCR, suggestions).

Every import is one job (:meth:`ImportController.start`) running the one import service,
:func:`casefile.services.imports.import_documents`, through the runner's mode for jobs that
commit in pieces (:meth:`casefile.ui.operations.OperationRunner.start_pieces`). The service
reads and parses every file on the job's worker thread and asks what it needs (a PDF's
password, the published date of files that carry none) as typed questions, which
:meth:`ImportController.answer` shows on the GUI thread (ARCHITECTURE.md, "Import: the
document first, suggestions after").

:class:`ImportController` uses the window's public interface only (``case_id``, ``runner``,
``notify``, ``report_error``, ``open_document``, ``pdf_passwords``, ``folder_import``,
``suggestions``, ``ocr``, ``last_job``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QDialog, QFileDialog

from casefile.services.prompts import DateAnswer, DateQuestion, PasswordQuestion
from casefile.ui.date_question import PublishedDateDialog
from casefile.ui.operations import CaseChange, Job, Transactions, change
from casefile.ui.passwords import ask_pdf_password
from casefile.ui.recent_folder import dialog_folder, remember_folder

if TYPE_CHECKING:  # the ingesters and the import service load with the first import
    from typing import Protocol

    from casefile.services.batch import BatchResult
    from casefile.services.dating import DateGuess
    from casefile.ui.document_tabs import DocumentTabs
    from casefile.ui.folder_import import FolderImport
    from casefile.ui.ocr_runner import OcrController
    from casefile.ui.shell import WindowShell
    from casefile.ui.suggesting import SuggestionsController
    from casefile.ui.suggestions import SuggestionsPanel

    class ImportWindow(WindowShell, Protocol):
        """The window as its imports see it: the shell, the document tabs, the folder import,
        OCR and suggestions that follow, the PDF passwords of the session and the undo step of
        an import."""

        documents: DocumentTabs
        folder_import: FolderImport
        ocr: OcrController
        suggestions: SuggestionsController
        suggestions_panel: SuggestionsPanel
        pdf_passwords: dict[str, str]

        def record_import(self, case_id: int, document_ids: list[int],
                          attachments: Sequence[int] = ()) -> None: ...

#: ``import_files``' default: ask for the published date of files that carry none.
ASK = object()

FILE_FILTER = ("Documents (*.txt *.md *.html *.htm *.pdf *.eml *.docx *.png *.jpg *.jpeg *.tif "
               "*.tiff *.mht *.mhtml *.warc *.warc.gz *.wacz);;All files (*)")


def local_paths(urls: Sequence[Any]) -> list[Path]:
    """The local files and folders among dropped URLs (QUrl), in order."""
    return [Path(u.toLocalFile()) for u in urls if u.isLocalFile() and u.toLocalFile()]


class ImportController(QObject):
    """The window's file import: every import of the window starts in :meth:`start`."""

    def __init__(self, window: ImportWindow) -> None:
        super().__init__(window.qt_window())
        self.window = window
        self.last_job: Job | None = None
        self.date_dialog: PublishedDateDialog | None = None

    def prompt(self) -> Job | None:
        """File ▸ Import: choose files (QFileDialog) and import them in the background."""
        names, _filter = QFileDialog.getOpenFileNames(
            self.window.qt_window(), "Import documents", str(dialog_folder(self.window.settings)),
            FILE_FILTER)
        if not names:
            return None
        remember_folder(names[0], self.window.settings)
        return self.import_files([Path(n) for n in names])

    def accepts(self, urls: Sequence[Any]) -> bool:
        """Whether a drag carrying ``urls`` can be dropped: a case is open and some are local."""
        return self.window.case_id is not None and bool(local_paths(urls))

    def drop(self, urls: Sequence[Any]) -> Job | None:
        """Import dropped files and folders, as :meth:`import_files`."""
        paths = local_paths(urls)
        if not paths:
            return None
        return self.import_files(paths)

    def import_files(self, paths: Sequence[Path],
                     published: DateGuess | date | None | object = ASK) -> Job | None:
        """Import files and folders into the current case in one background job
        (:meth:`start`), asking the published date of the new files that carry none
        (``published`` ASK). ``published`` None asks nothing: one file keeps the date its
        metadata gives (else none), several files get their guessed dates; a date is every
        file's date."""
        from casefile.services.dating import DateGuess

        paths = list(paths)
        if not paths:
            return None
        several = len(paths) > 1 or paths[0].is_dir()
        if published is ASK:
            return self.start(paths)
        given = published.date if isinstance(published, DateGuess) else published
        assert given is None or isinstance(given, date)
        return self.start(paths, ask_dates=False, published=given, guess_dates=several)

    def start(self, paths: Sequence[Path], *, ask_dates: bool = True,
              published: date | None = None, guess_dates: bool = True) -> Job | None:
        """Start the import of ``paths`` (files and folders) into the current case: one job
        (:meth:`OperationRunner.start_pieces`) running
        :func:`casefile.services.imports.import_documents`, with a progress dialog (the file
        being imported, Cancel) and the service's questions answered by :meth:`answer`.

        One file (not a folder) is one piece: Cancel, or a refused file (said in an error
        box), stores nothing; it opens once imported. Several files or a folder commit a few
        files at a time: Cancel keeps those committed, and a summary lists what was imported
        and why each failure failed (:class:`FolderImport`). Returns the job, or None without
        a case."""
        window = self.window
        if window.case_id is None:
            window.report_error("Create or open a case before importing documents.")
            return None
        case_id = window.case_id
        paths = list(paths)
        several = len(paths) > 1 or paths[0].is_dir()
        if not several:
            label = paths[0].name
        elif len(paths) == 1:
            label = str(paths[0])
        elif any(p.is_dir() for p in paths):
            label = f"{len(paths)} folders and files"
        else:
            label = f"{len(paths)} files"
        workspace = window.workspace
        panel = window.suggestions_panel
        tabs = window.documents
        suggest = window.suggestions.enabled
        storing = threading.Event()
        waiting: list[int] = []  # the new documents waiting for OCR, read by the job

        def work(transactions: Transactions, job: Job) -> BatchResult:
            # the ingesters load on first use, here on the worker (~0.2 s of imports)
            from casefile.services.imports import import_documents

            def report(done: int, total: int, path: Path | None) -> None:
                storing.set()
                job.progress(done, total, "" if path is None else
                             f"Importing {path.name}\n({done + 1} of {total})")

            def checking(done: int, total: int) -> None:
                job.progress(done, total, "Checking the files for published dates…")

            result = import_documents(
                transactions, case_id, paths, ask=job.ask, ask_dates=ask_dates,
                published=published, guess_dates=guess_dates,
                reading=lambda: workspace.transaction(write=False), progress=report,
                checking=checking, cancelled=lambda: job.cancelled,
                cancel_current=not several)
            if not several and result.outcomes and result.outcomes[0].result is not None:
                tabs.prepare(result.outcomes[0].result.document_id)  # opened at the end
            new = _new_documents(result)
            if new:
                from casefile.ui.ocr_runner import waiting_for_ocr

                with workspace.transaction(write=False) as session:
                    waiting.extend(waiting_for_ocr(session, new))
            if any(o.status == "imported" for o in result.outcomes):
                # What the GUI thread does next, made ready here: the document's view and
                # pages (above), the Suggestions panel's list read after the last commit, the
                # extractor's modules imported (the suggestion run checks for them when the
                # import ends).
                panel.prepare(case_id)
                if suggest:
                    from casefile.ui.suggesting import suggestions_available

                    if suggestions_available():
                        import casefile.services.suggest_pool  # noqa: F401
            return result

        passwords: dict[Path, str] = {}
        declined: list[Path] = []

        def answer(question: Any, reply: Callable[[Any], None]) -> None:
            self.answer(question, reply, passwords, declined)

        job = window.runner.start_pieces(
            work, label=f"Importing {label}…", change=lambda r: _changed(case_id, r),
            parent=window.qt_window(), answer=answer,
            cancel_text=("Cancelling after this file… the files already imported stay."
                         if several else "Cancelling… nothing of this will be stored."),
            on_done=lambda j: self._on_done(j, case_id, label, several, storing.is_set(),
                                            passwords, declined, waiting))
        if several:
            def started(running: Job, _done: int, _total: int) -> None:
                if running is job and storing.is_set() and not job.done:
                    window.folder_import.last_job = job  # past its questions: storing
            window.runner.job_progressed.connect(started)
            window.runner.job_finished.connect(
                lambda ended: window.runner.job_progressed.disconnect(started)
                if ended is job else None)
        self.last_job = job
        window.last_job = job
        return job

    def answer(self, question: Any, reply: Callable[[Any], None],
               passwords: dict[Path, str], declined: list[Path]) -> None:
        """Show a question of the import service on the GUI thread and ``reply`` with the
        answer: a :class:`PasswordQuestion` in a password box (the password is kept in
        ``passwords``; a declined file in ``declined``), a :class:`DateQuestion` in the
        published-date dialog (kept in ``date_dialog`` while open, :meth:`_question`)."""
        if isinstance(question, PasswordQuestion):
            given = ask_pdf_password(self.window.qt_window(), question.path.name,
                                     wrong=question.wrong)
            if given is None:
                declined.append(question.path)
            else:
                passwords[question.path] = given
            reply(given)
        elif isinstance(question, DateQuestion):
            self._question(question, reply)
        else:
            reply(None)

    def _question(self, question: DateQuestion, reply: Callable[[Any], None]) -> None:
        """Open the date question (prefilled as the service says: the first file's
        modification date, or a web page's own date) and ``reply`` a :class:`DateAnswer`
        once OK or No date is pressed, None on Cancel."""
        dialog = PublishedDateDialog([p.name for p in question.files], question.suggested,
                                     question.source, self.window.qt_window(),
                                     position=question.position)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.date_dialog = dialog

        def finished(result: int) -> None:
            self.date_dialog = None
            self.window.qt_window().activateWindow()  # the window's shortcuts work again at once
            if result == QDialog.DialogCode.Rejected:
                reply(None)
                return
            reply(DateAnswer(None if result == PublishedDateDialog.NO_DATE
                             else dialog.published(), dialog.for_all()))

        dialog.finished.connect(finished)
        dialog.open()

    def _on_done(self, job: Job, case_id: int, label: str, several: bool, stored: bool,
                 passwords: dict[Path, str], declined: list[Path], waiting: list[int]) -> None:
        window = self.window
        result: BatchResult | None = job.result
        if result is None:  # failed before any file (unknown case, database error): said
            return
        if declined:
            window.notify(f"Import cancelled: {declined[0].name} needs its password; nothing "
                          "was stored.", 8000)
            return
        if result.cancelled and not result.outcomes and not (several and stored):
            window.notify("Import cancelled: nothing was stored.", 8000)
            return
        for outcome in result.outcomes:
            given = passwords.get(outcome.path)
            if given is not None and outcome.result is not None:
                window.pdf_passwords[outcome.result.sha256] = given
        if several:
            window.folder_import.show_summary(label, case_id, result, waiting)
            return
        (outcome,) = result.outcomes
        if outcome.result is None:
            window.runner.fail(outcome.error or "cannot be imported", parent=window.qt_window())
            return
        done = outcome.result
        window.notify(f"Imported {int(done.created)} document{'s' if not done.created else ''}"
                      + ("" if done.created else "; 1 already in the case") + ".", 8000)
        window.open_document(done.document_id, asked=False)  # not read until worked with
        new = [done.document_id] if done.created else []
        children = [c.document_id for c in done.children if c.created] if done.created else []
        window.record_import(case_id, new, children)
        window.ocr.after_import(new + children, suggest=new, waiting=waiting)


def _new_documents(result: BatchResult) -> list[int]:
    """The documents an import created: each new file's, then its new attachments'."""
    return [d for o in result.outcomes if o.status == "imported" and o.result is not None
            for d in [o.result.document_id, *(c.document_id for c in o.result.children
                                              if c.created)]]


def _changed(case_id: int, result: BatchResult) -> CaseChange | None:
    """What an import's committed files changed (None: nothing committed)."""
    created = [o.result.document_id for o in result.outcomes
               if o.status == "imported" and o.result is not None]
    if not created:
        return None
    children = [c.document_id for o in result.outcomes if o.result is not None
                for c in o.result.children]
    return change(case_id, kinds={"document"}, created=created + children, label="import")
