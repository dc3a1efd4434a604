"""Entity suggestions from the window: run the extractor over newly imported documents in the
background, then bring the Suggestions panel forward saying how many wait.

:class:`SuggestionsController` uses the window's public interface only (``case_id``,
``runner``, ``notify``) and the panel's public ``reload`` / ``listing``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from sqlalchemy.orm import Session

from casefile.ui.operations import Job, change

if TYPE_CHECKING:
    from casefile.ui.main_window import MainWindow


def suggestions_available() -> bool:
    """True when the entity extractor is installed: imports then run suggestions."""
    try:
        from casefile.extract import extract_suggestions  # noqa: F401
    except ImportError:
        return False
    return True


class SuggestionsController(QObject):
    """Runs suggestions for a window. ``enabled`` (the window's ``suggest_after_import``) says
    whether :meth:`after_import` runs them at all."""

    def __init__(self, window: MainWindow, *, enabled: bool = True) -> None:
        super().__init__(window)
        self.window = window
        self.enabled = enabled
        self.last_job: Job | None = None

    def after_import(self, document_ids: list[int]) -> Job | None:
        """Suggest for freshly imported documents when enabled and the extractor is there."""
        if not document_ids or not self.enabled or not suggestions_available():
            return None
        return self.start(document_ids)

    def start(self, document_ids: list[int]) -> Job:
        """Run entity suggestions for these documents in the background (progress in the
        status bar; no dialog)."""
        from casefile.services.suggestions import suggest_for_document

        case_id = self.window.case_id

        def work(session: Session, job: Job) -> int:
            for n, doc_id in enumerate(document_ids):
                job.report(n, len(document_ids))
                suggest_for_document(session, doc_id)
            return len(document_ids)

        job = self.window.runner.start(
            work, label="Finding names and dates…", progress=False,
            change=change(case_id, label="suggestions"), parent=self.window,
            on_done=self._on_done)
        self.last_job = job
        return job

    def _on_done(self, job: Job) -> None:
        self.window.notify("Suggestions ready." if job.outcome == "succeeded" else
                           "Suggestions stopped.", 5000)
