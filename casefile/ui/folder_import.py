"""Importing a folder from the window: File ▸ Import folder… or a folder dropped on the window.

The batch service (:func:`casefile.services.batch.import_paths`) walks the folder and imports each
file in its own transaction, so the job runs through the window's OperationRunner without using
the runner's transaction: cancelling stops between files and the files already done stay. The
progress dialog names the file being imported; at the end a summary dialog gives the counts
(imported, already there, failed) and each failure's reason. The worker also makes ready what
the GUI thread needs next (the Suggestions panel's list, the extractor's modules), and the
refresh, the suggestion run's start and the summary take separate event-loop turns, so the
window stays responsive through a 1,000-file import (ARCHITECTURE.md, "The window").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHeaderView,
    QLabel,
    QMenu,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)
from sqlalchemy.orm import Session

from casefile.filenames import printable_name
from casefile.ui.operations import Job, change
from casefile.ui.recent_folder import dialog_folder, remember_folder

if TYPE_CHECKING:
    from casefile.services.batch import BatchResult, FileOutcome
    from casefile.ui.main_window import MainWindow


def reporter_reason(outcome: FileOutcome) -> str:
    """A failure's reason as the window says it (the CLI's ``--password`` hint rephrased)."""
    reason = outcome.error or "unknown error"
    if reason.endswith("is encrypted: give --password"):
        return (f"{printable_name(outcome.path.name)} is encrypted: import it on its own "
                "(File ▸ Import documents…) to give its password")
    return reason


class ImportSummaryDialog(QDialog):
    """The end of a folder import: "N imported, N already there, N failed" and the failures,
    one row per file with its reason."""

    def __init__(self, folder_label: str, batch: BatchResult,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Import")
        self.batch = batch
        failures = [o for o in batch.outcomes if o.status == "failed"]
        head = f"Imported from {folder_label}" if not batch.cancelled else \
            f"Import from {folder_label} cancelled"
        self.counts_label = QLabel(
            f"<b>{head}</b><br>{batch.count('imported')} imported, "
            f"{batch.count('already there')} already there, {len(failures)} failed"
            + (f"; {batch.total - len(batch.outcomes)} not imported (cancelled)"
               if batch.cancelled else ""))
        self.counts_label.setTextFormat(Qt.TextFormat.RichText)
        self.counts_label.setWordWrap(True)
        self.failures = QTableWidget(len(failures), 2)
        self.failures.setObjectName("import_failures")
        self.failures.setHorizontalHeaderLabels(["File", "Why it was not imported"])
        self.failures.verticalHeader().setVisible(False)
        self.failures.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.failures.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.failures.setAlternatingRowColors(True)
        self.failures.setWordWrap(True)
        for row, outcome in enumerate(failures):
            name = QTableWidgetItem(printable_name(_relative(outcome.path, folder_label)))
            name.setToolTip(printable_name(str(outcome.path)))
            reason = QTableWidgetItem(reporter_reason(outcome))
            reason.setToolTip(reporter_reason(outcome))
            self.failures.setItem(row, 0, name)
            self.failures.setItem(row, 1, reason)
        header = self.failures.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        self.failures.setColumnWidth(0, 200)
        self.failures.setVisible(bool(failures))
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok)
        self.buttons.accepted.connect(self.accept)
        layout = QVBoxLayout(self)
        layout.addWidget(self.counts_label)
        if failures:
            layout.addWidget(QLabel("Not imported:"))
        layout.addWidget(self.failures, 1)
        layout.addWidget(self.buttons)
        self.resize(720, 380 if failures else 140)
        if len(failures) <= 500:  # wrapped reasons; a long list keeps one line per file
            QTimer.singleShot(0, self.failures.resizeRowsToContents)

    def failure_rows(self) -> list[tuple[str, str]]:
        """The failures as shown: (file, reason)."""
        return [(self._cell(i, 0), self._cell(i, 1)) for i in range(self.failures.rowCount())]

    def _cell(self, row: int, column: int) -> str:
        item = self.failures.item(row, column)
        assert item is not None  # __init__ fills every cell
        return item.text()


def _relative(path: Path, folder_label: str) -> str:
    try:
        return str(path.relative_to(folder_label))
    except ValueError:
        return path.name


class _FileProgress(QObject):
    """Carries (done, total, file name) from the worker to the GUI thread (queued)."""

    progressed = Signal(int, int, str)


class FolderImport(QObject):
    """The window's folder import: the File menu action, the job, the summary.

    ``summary`` is the last summary dialog shown (tests read it); ``last_job`` the last job.
    """

    finished = Signal(object)  # BatchResult

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.summary: ImportSummaryDialog | None = None
        self.last_job: Job | None = None
        self.action = QAction("Import &folder…", window)
        self.action.setShortcut(QKeySequence("Ctrl+Shift+I"))
        self.action.setStatusTip("Import every document of a folder and its subfolders")
        self.action.triggered.connect(self.prompt)
        window.addAction(self.action)
        menu = next((m for a in window.menuBar().actions()
                     if isinstance(m := a.menu(), QMenu) and window.import_action in m.actions()),
                    None)
        if menu is not None:
            menu.insertAction(window.export_action, self.action)
        window.import_action.changed.connect(
            lambda: self.action.setEnabled(window.import_action.isEnabled()))
        self.action.setEnabled(window.import_action.isEnabled())

    @Slot()
    def prompt(self) -> Job | None:
        """Ask for a folder (QFileDialog.getExistingDirectory) and import it the way Import
        documents… imports several files: first the published-date question for its files
        that carry none (:meth:`ImportController.import_files`), then :meth:`start`. Returns
        the first job (the check of the files' dates)."""
        folder = QFileDialog.getExistingDirectory(
            self.window, "Import folder", str(dialog_folder(self.window.settings)))
        if not folder:
            return None
        remember_folder(folder, self.window.settings)  # the next dialogs open in it
        return self.window.imports.import_files([Path(folder)])

    def start(self, paths: Sequence[Path], *, guess_dates: bool = True,
              fallback_published: date | None = None,
              published_by_file: Mapping[Path, date | None] | None = None) -> Job | None:
        """Import ``paths`` (folders recursively, and files) off the GUI thread: a progress
        dialog with the current file and Cancel (between files), then the summary.

        Each file gets the published date found in its metadata or text (``guess_dates``), else
        its answer in ``published_by_file`` (the answers to the import's date question, by path
        as :func:`casefile.services.batch.iter_import_files` yields it; None: no date), else
        ``fallback_published``, else its modification date; a note on the document says
        which. Asks nothing itself (:meth:`prompt` does)."""
        window = self.window
        if window.case_id is None:
            window.report_error("Create or open a case before importing documents.")
            return None
        case_id = window.case_id
        paths = list(paths)
        if len(paths) == 1:
            label = str(paths[0])
        elif any(p.is_dir() for p in paths):
            label = f"{len(paths)} folders and files"
        else:
            label = f"{len(paths)} files"
        progress = _FileProgress(self)
        transaction = window.workspace.transaction
        panel = window.suggestions_panel
        suggest = window.suggestions.enabled

        def work(_session: Session, job: Job) -> BatchResult:
            # the ingesters load on first use, here on the worker (~0.2 s of imports)
            from casefile.services.batch import import_paths

            # Each file commits in its own transaction; the runner's session stays unused.
            def report(done: int, total: int, path: Path | None) -> None:
                progress.progressed.emit(done, total, path.name if path is not None else "")

            batch = import_paths(transaction, case_id, paths, progress=report,
                                 guess_dates=guess_dates, fallback_published=fallback_published,
                                 published_by_file=published_by_file,
                                 cancelled=lambda: job.cancelled)
            job.batch = batch  # type: ignore[attr-defined]  # kept when cancelled
            if batch.outcomes:
                # What the GUI thread does next, made ready here: the Suggestions panel's
                # list read after the last commit, the extractor's modules imported (the
                # suggestion run checks for them when the import ends).
                panel.prepare(case_id)
                if suggest:
                    from casefile.ui.suggesting import suggestions_available

                    if suggestions_available():
                        import casefile.services.suggest_pool  # noqa: F401
            return batch

        job = window.runner.start(
            work, label=f"Importing {label}…", change=None, parent=window,
            on_done=lambda j: self._on_done(j, label, case_id))
        if job.dialog is not None:
            dialog = job.dialog
            dialog.canceled.disconnect()  # files done stay: say so instead of "nothing stored"
            dialog.canceled.connect(job.cancel)
            dialog.canceled.connect(lambda: dialog.setLabelText(
                "Cancelling after this file… the files already imported stay."))

            def on_progress(done: int, total: int, name: str) -> None:
                if job.done or job.cancelled or job.dialog is None:
                    return
                dialog.setMaximum(max(total, 1))
                dialog.setValue(min(done, total))
                if name:
                    dialog.setLabelText(f"Importing {name}\n({done + 1} of {total})")

            progress.progressed.connect(on_progress)
        self.last_job = job
        window.last_job = job
        return job

    def _on_done(self, job: Job, label: str, case_id: int) -> None:
        window = self.window
        batch: BatchResult | None = getattr(job, "batch", None)
        if batch is None:  # failed before any file (unknown case, database error)
            return
        new = [o.result.document_id for o in batch.outcomes
               if o.status == "imported" and o.result is not None]
        children = [c.document_id for o in batch.outcomes if o.result is not None
                    for c in o.result.children]
        window.statusBar().showMessage(f"Import: {batch.summary()}.", 10000)
        dialog = ImportSummaryDialog(label, batch, window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.finished.connect(lambda _r: setattr(self, "summary", None)
                                if self.summary is dialog else None)
        self.summary = dialog
        dialog.open()
        # the summary, the views' refresh and the suggestion run's start each get their own
        # event-loop turn (together they held the window ~0.2 s after a 1,000-file import);
        # ``finished`` comes once all three are done
        QTimer.singleShot(0, self, lambda: self._refresh(case_id, new + children, new, batch))

    def _refresh(self, case_id: int, documents: list[int], new: list[int],
                 batch: BatchResult) -> None:
        if batch.outcomes:  # committed per file, also when cancelled: refresh the views
            self.window.runner.case_changed.emit(change(case_id, kinds={"document"},
                                                        created=documents, label="import"))
            self.window.record_import(case_id, new, [d for d in documents if d not in new])
        QTimer.singleShot(0, self, lambda: self._suggest(new, batch))

    def _suggest(self, new: list[int], batch: BatchResult) -> None:
        children = [c.document_id for o in batch.outcomes if o.result is not None
                    for c in o.result.children if c.created]
        self.window.ocr.after_import(new + children, suggest=new)
        self.finished.emit(batch)


def install_folder_import(window: MainWindow) -> FolderImport:
    """Add File ▸ Import folder… to the window; returns the controller."""
    return FolderImport(window)
