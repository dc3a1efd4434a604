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
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from sqlalchemy.orm import Session

from casefile.errors import CasefileError
from casefile.services.changes import Changes
from casefile.ui.operations import Job, Transactions
from casefile.ui.status_line import plural

if TYPE_CHECKING:
    from typing import Protocol

    from casefile.ui.shell import WindowShell
    from casefile.ui.suggesting import SuggestionsController

    class OcrWindow(WindowShell, Protocol):
        """The window as OCR sees it: the shell, and the suggestions that follow OCR."""

        suggestions: SuggestionsController


@dataclass
class OcrRun:
    """What an OCR job did (the runner's partial result): ``changes`` names every document
    whose text was filled, each committed on its own; ``cancelled`` when it stopped early."""

    changes: Changes
    cancelled: bool


def waiting_for_ocr(session: Session, document_ids: Sequence[int]) -> list[int]:
    """Which of ``document_ids`` wait for OCR (for :meth:`OcrController.after_import`'s
    ``waiting``): read by an import's job on its worker thread, so the GUI thread does not
    load the documents' page metadata (and the OCR service's modules) when the import ends."""
    from casefile.services.ocr import pending_ocr

    return [p.document_id for p in pending_ocr(session, document_ids=list(document_ids))]


class OcrController(QObject):
    """Runs OCR for a window after imports (``enabled``) or on demand (:meth:`start`)."""

    def __init__(self, window: OcrWindow, *, enabled: bool = True) -> None:
        super().__init__(window.qt_window())
        self.window = window
        self.enabled = enabled
        self.last_job: Job | None = None

    def after_import(self, document_ids: Sequence[int], suggest: Sequence[int] = (),
                     waiting: Sequence[int] | None = None) -> None:
        """Start OCR of the imported documents that wait for it (when enabled), and the
        suggestion step: at once for the documents of ``suggest`` that need no OCR, after it
        for the others. ``waiting``: those that wait for OCR, when the import's job read it
        already (:func:`waiting_for_ocr`, off the GUI thread)."""
        from casefile.services.ocr import pending_ocr

        if waiting is not None:
            waiting = [d for d in waiting if d in document_ids] if self.enabled else []
        elif self.enabled and document_ids:
            try:
                waiting = [p.document_id for p in self.window.runner.read(
                    lambda s: pending_ocr(s, document_ids=list(document_ids)))]
            except CasefileError:
                waiting = []
        else:
            waiting = []
        now = [d for d in suggest if d not in waiting]
        if now:
            self.window.suggestions.after_import(now)
        if waiting:
            self.start(waiting, suggest=[d for d in suggest if d in waiting])

    def waiting_in_case(self, case_id: int) -> list[int]:
        """The documents of the case whose scanned pages still wait for OCR (an OCR run that
        was cancelled, or ended with the window), in id order."""
        from casefile.services.ocr import pending_ocr

        try:
            return [p.document_id for p in self.window.runner.read(
                lambda s: pending_ocr(s, case_id=case_id))]
        except CasefileError:
            return []

    def run_waiting(self) -> Job | None:
        """Case ▸ Read scans waiting for OCR: OCR every document of the open case that waits
        for it; None (and a word in the status bar) when none does or OCR is running."""
        case_id = self.window.case_id
        if case_id is None:
            return None
        if self.last_job is not None and not self.last_job.outcome:
            self.window.notify("OCR is running already (see the status bar).", 5000)
            return None
        waiting = self.waiting_in_case(case_id)
        if not waiting:
            self.window.notify("No scanned document of this case waits for OCR.", 5000)
            return None
        return self.start(waiting)

    def start(self, document_ids: Sequence[int], suggest: Sequence[int] = ()) -> Job:
        """OCR these documents in the background; then suggestions for ``suggest``."""
        ids = [int(d) for d in document_ids]

        def work(transactions: Transactions, job: Job) -> OcrRun:
            # each document commits in its own transaction
            from casefile.services.ocr import OcrBatch, ocr_documents

            done = ocr_documents(transactions, ids, progress=job.progress,
                                 cancelled=lambda: job.cancelled)
            return OcrRun(done, isinstance(done.value, OcrBatch) and done.value.cancelled)

        job = self.window.runner.start_pieces(
            work, label=f"Reading {plural(len(ids), 'scanned document')} (OCR)…",
            progress=False, change=lambda run: run.changes if run.changes.documents else None,
            parent=self.window.qt_window(), cancellable=True,
            on_done=lambda j: self._on_done(j, list(suggest)))
        self.last_job = job
        self.window.notify(f"Reading {plural(len(ids), 'scanned document')} with OCR… "
                           "(Cancel in the status bar)", 8000)
        return job

    def _on_done(self, job: Job, suggest: list[int]) -> None:
        run: OcrRun | None = job.result
        filled = set(run.changes.documents) if run is not None else set()
        done = sorted(filled)
        if job.outcome == "cancelled":  # what committed before stays (the views show it)
            self.window.notify("OCR cancelled: the document being read was left as it was"
                               + (f"; {plural(len(done), 'document')} read before stay."
                                  if done else "."), 8000)
        elif job.outcome == "succeeded":
            self.window.notify(f"OCR done: text read from {plural(len(done), 'document')}.",
                               8000)
        again = [d for d in suggest if d in filled]
        if again:
            self.window.suggestions.after_import(again)
