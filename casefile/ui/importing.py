"""Importing files from the window: File ▸ Import documents…, files dropped on the window, the
password loop of an encrypted PDF, and suggestions after an import.

:class:`ImportController` uses the window's public interface only (``case_id``, ``runner``,
``notify``, ``report_error``, ``open_document``, ``pdf_passwords``, ``folder_import``,
``suggestions``, ``last_job``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog
from sqlalchemy.orm import Session

from casefile.ingest import PdfPasswordError
from casefile.services import documents
from casefile.ui.operations import Cancelled, CaseChange, Job, change
from casefile.ui.passwords import ask_pdf_password

if TYPE_CHECKING:
    from casefile.ui.main_window import MainWindow

FILE_FILTER = "Documents (*.txt *.md *.html *.htm *.pdf *.eml *.docx);;All files (*)"


def local_paths(urls: Sequence[Any]) -> list[Path]:
    """The local files and folders among dropped URLs (QUrl), in order."""
    return [Path(u.toLocalFile()) for u in urls if u.isLocalFile() and u.toLocalFile()]


class ImportController(QObject):
    """The window's file import."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.last_job: Job | None = None

    def prompt(self) -> Job | None:
        """File ▸ Import: choose files (QFileDialog) and import them in the background."""
        names, _filter = QFileDialog.getOpenFileNames(
            self.window, "Import documents", str(Path.home()), FILE_FILTER)
        if not names:
            return None
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
        if any(p.is_dir() for p in paths):
            return self.window.folder_import.start(paths)
        return self.import_files(paths)

    def import_files(self, paths: Sequence[Path],
                     passwords: dict[Path, str] | None = None) -> Job | None:
        """Import files into the current case off the GUI thread, with a cancellable progress
        dialog.

        Several files go the folder import's way (:meth:`FolderImport.start`): each file its
        own transaction, the good ones stored, then a summary listing each failure's reason.
        A single file is one transaction: cancel, or a refused file, stores nothing; an
        encrypted PDF stops the job (nothing stored) and the window asks for its password
        (``passwords`` holds those given so far), then imports again; a wrong one is said so
        and asked again, until the reporter cancels."""
        window = self.window
        if window.case_id is None:
            window.report_error("Create or open a case before importing documents.")
            return None
        case_id = window.case_id
        paths = list(paths)
        if len(paths) > 1:
            return window.folder_import.start(paths)
        given = dict(passwords or {})

        def work(session: Session, job: Job) -> list[documents.ImportResult]:
            results = []
            for n, path in enumerate(paths):
                job.check()
                if len(paths) > 1:
                    job.report(n, len(paths))
                try:
                    results.append(documents.import_file(session, case_id, path,
                                                         password=given.get(path)))
                except PdfPasswordError as exc:  # roll back, ask, import again
                    job.password_needed = (path, exc.wrong)  # type: ignore[attr-defined]
                    raise Cancelled() from exc
            return results

        def changed(results: list[documents.ImportResult]) -> CaseChange:
            return change(case_id, kinds={"document"},
                          created=[r.document_id for r in results if r.created]
                          + [c.document_id for r in results for c in r.children],
                          label="import")

        label = (f"Importing {paths[0].name}…" if len(paths) == 1
                 else f"Importing {len(paths)} files…")
        job = window.runner.start(work, label=label, change=changed, parent=window,
                                  on_done=lambda job: self._on_done(job, paths, given))
        self.last_job = job
        window.last_job = job
        return job

    def _on_done(self, job: Job, paths: Sequence[Path], passwords: dict[Path, str]) -> None:
        window = self.window
        needed = getattr(job, "password_needed", None)
        if needed is not None and not job.cancelled:
            path, wrong = needed
            password = ask_pdf_password(window, path.name, wrong=wrong)
            if password is None:
                window.notify(
                    f"Import cancelled: {path.name} needs its password; nothing was stored.", 8000)
                return
            self.import_files(paths, {**passwords, path: password})
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
        window.suggestions.after_import([r.document_id for r in new])
