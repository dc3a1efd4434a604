"""Writing the brief from the window: File ▸ Export brief… (Ctrl+E), with or without the
confidential sources, in the background.

:class:`ExportController` uses the window's public interface only (``case_id``, ``runner``,
``notify``, ``case_title``, ``last_job``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog
from sqlalchemy.orm import Session

from casefile.errors import CasefileError
from casefile.services import brief
from casefile.ui.operations import Job

if TYPE_CHECKING:
    from casefile.ui.main_window import MainWindow


class ExportController(QObject):
    """The window's brief export."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.last_job: Job | None = None

    def prompt(self, include_confidential: bool = False) -> Job | None:
        """Choose where (QFileDialog) and write the PDF in the background."""
        if self.window.case_id is None:
            return None
        suggested = Path.home() / f"{self.window.case_title() or 'brief'}.pdf"
        name, _filter = QFileDialog.getSaveFileName(
            self.window, "Export brief", str(suggested), "PDF files (*.pdf)")
        if not name:
            return None
        out = Path(name)
        if not out.suffix:
            out = out.with_suffix(".pdf")
        return self.export_brief(out, include_confidential=include_confidential)

    def export_brief(self, out: Path, *, include_confidential: bool = False) -> Job:
        """Write the case's PDF brief to ``out`` off the GUI thread (progress, cancellable);
        a partial file never replaces ``out``."""
        window = self.window
        assert window.case_id is not None
        case_id = window.case_id

        def work(session: Session, job: Job) -> Path:
            tmp = out.with_name(f".{out.name}.casefile-part")
            try:
                brief.export_brief(session, case_id, tmp,
                                   include_confidential=include_confidential,
                                   progress=job.report)
                job.check()
                os.replace(tmp, out)
            except OSError as exc:
                raise CasefileError(f"cannot write {out}: {exc.strerror or exc}") from exc
            finally:
                tmp.unlink(missing_ok=True)
            return out

        def done(job: Job) -> None:
            if job.outcome == "succeeded":
                window.notify(f"Brief written to {out}", 10000)
            elif job.outcome == "cancelled":
                window.notify("Export cancelled.", 6000)

        job = window.runner.start(work, label=f"Writing {out.name}…", change=None,
                                  parent=window, on_done=done)
        self.last_job = job
        window.last_job = job
        return job
