"""OCR from the window: after an import, scanned pages and images are read in the background.

:class:`OcrController` starts one quiet job (no dialog: the status line shows its progress in
pages and a Cancel button) that OCRs each waiting document with
:func:`casefile.services.ocr.ocr_document`, one transaction per document. Cancelling stops
before the next page; the document being read is left as it was (nothing of it is stored),
documents finished before stay. The views refresh from the Changes the service returned, and
the suggestion step then runs on the new text, as it does after an import. It uses the
window's public interface only (``runner``, ``workspace``, ``notify``, ``suggestions``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from sqlalchemy.orm import Session

from casefile.errors import CasefileError
from casefile.services.changes import Changes, changes
from casefile.ui.operations import Job
from casefile.ui.status_line import plural

if TYPE_CHECKING:
    from casefile.ui.main_window import MainWindow


def _merged(parts: Sequence[Changes], case_id: int | None) -> Changes:
    """One Changes naming every document OCR filled (``value``: their OcrResults)."""
    docs = [d for ch in parts for d in ch.documents]
    return changes(case_id, kinds={"document"} if docs else set(), updated=docs,
                   documents=docs, evidence=any(ch.evidence for ch in parts),
                   suggestions=any(ch.suggestions for ch in parts), label="OCR",
                   message=f"OCR read {plural(len(docs), 'document')}.",
                   value=[ch.value for ch in parts if ch.value is not None])


class OcrController(QObject):
    """Runs OCR for a window after imports (``enabled``) or on demand (:meth:`start`)."""

    def __init__(self, window: MainWindow, *, enabled: bool = True) -> None:
        super().__init__(window)
        self.window = window
        self.enabled = enabled
        self.last_job: Job | None = None

    def after_import(self, document_ids: Sequence[int], suggest: Sequence[int] = ()) -> None:
        """Start OCR of the imported documents that wait for it (when enabled), and the
        suggestion step: at once for the documents of ``suggest`` that need no OCR, after it
        for the others."""
        from casefile.services.ocr import pending_ocr

        waiting: list[int] = []
        if self.enabled and document_ids:
            try:
                waiting = [p.document_id for p in self.window.runner.read(
                    lambda s: pending_ocr(s, document_ids=list(document_ids)))]
            except CasefileError:
                waiting = []
        now = [d for d in suggest if d not in waiting]
        if now:
            self.window.suggestions.after_import(now)
        if waiting:
            self.start(waiting, suggest=[d for d in suggest if d in waiting])

    def start(self, document_ids: Sequence[int], suggest: Sequence[int] = ()) -> Job:
        """OCR these documents in the background; then suggestions for ``suggest``."""
        transaction = self.window.workspace.transaction
        ids = [int(d) for d in document_ids]
        case_id = self.window.case_id

        def work(_session: Session, job: Job) -> Changes:
            # each document commits in its own transaction; the runner's session stays unused
            from casefile.services.ocr import OcrCancelled, ocr_document

            done: list[Changes] = []
            job.ocr_done = done  # type: ignore[attr-defined]  # kept when cancelled
            for n, doc_id in enumerate(ids):
                if job.cancelled:
                    break

                def report(page: int, pages: int, n: int = n) -> None:
                    job.signals.progressed.emit(n * 1000 + page * 1000 // max(pages, 1),
                                                len(ids) * 1000)

                try:
                    done.append(ocr_document(transaction, doc_id, progress=report,
                                             cancelled=lambda: job.cancelled))
                except OcrCancelled:
                    break
            return _merged(done, case_id)

        job = self.window.runner.start(
            work, label=f"Reading {plural(len(ids), 'scanned document')} (OCR)…",
            progress=False, change=lambda c: c, parent=self.window, cancellable=True,
            on_done=lambda j: self._on_done(j, list(suggest)))
        self.last_job = job
        self.window.notify(f"Reading {plural(len(ids), 'scanned document')} with OCR… "
                           "(Cancel in the status bar)", 8000)
        return job

    def _on_done(self, job: Job, suggest: list[int]) -> None:
        done: list[Changes] = getattr(job, "ocr_done", [])
        if job.outcome == "cancelled":
            if done:  # those committed before the cancel: the views show them
                self.window.runner.case_changed.emit(_merged(done, self.window.case_id))
            self.window.notify("OCR cancelled: the document being read was left as it was"
                               + (f"; {plural(len(done), 'document')} read before stay."
                                  if done else "."), 8000)
        elif job.outcome == "succeeded":
            self.window.notify(f"OCR done: text read from {plural(len(done), 'document')}.",
                               8000)
        filled = {d for ch in done for d in ch.documents}
        again = [d for d in suggest if d in filled]
        if again:
            self.window.suggestions.after_import(again)
