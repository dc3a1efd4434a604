"""Importing a folder from the window: File ▸ Import folder…, and the summary at the end of
an import of several files or a folder.

The import itself is the window's one import job (:meth:`ImportController.start`): each group
of files commits in its own transaction, cancelling stops between files and the files already
done stay. At the end a summary dialog gives the counts (imported, already there, failed) and
each failure's reason; the undo step, the summary and the suggestion run's start take
separate event-loop turns, so the window stays responsive through a 1,000-file import
(ARCHITECTURE.md, "The window").
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHeaderView,
    QLabel,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from casefile.filenames import printable_name
from casefile.ui.actions import menu_holding
from casefile.ui.dialogs import listing_table
from casefile.ui.operations import Job
from casefile.ui.recent_folder import dialog_folder, remember_folder

if TYPE_CHECKING:
    from typing import Protocol

    from PySide6.QtGui import QAction

    from casefile.services.batch import BatchResult, FileOutcome
    from casefile.ui.importing import ImportController
    from casefile.ui.ocr_runner import OcrController
    from casefile.ui.shell import WindowShell

    class FolderImportWindow(WindowShell, Protocol):
        """The window as File ▸ Import folder… sees it: the shell, the import and export
        actions it sits beside, the import and OCR controllers, and the undo step of an import."""

        import_action: QAction
        export_action: QAction
        imports: ImportController
        ocr: OcrController

        def record_import(self, case_id: int, document_ids: list[int],
                          attachments: Sequence[int] = ()) -> None: ...


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
        self.failures = listing_table(("File", "Why it was not imported"), len(failures),
                                      name="import_failures")
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


class FolderImport(QObject):
    """The window's folder import: the File menu action and the summary of an import of
    several files or a folder.

    ``summary`` is the last summary dialog shown (tests read it); ``last_job`` the last such
    import that got past its questions and began storing files; ``finished(BatchResult)``
    comes once its summary, undo step and suggestion run are under way.
    """

    finished = Signal(object)  # BatchResult

    def __init__(self, window: FolderImportWindow) -> None:
        super().__init__(window.qt_window())
        self.window = window
        self.summary: ImportSummaryDialog | None = None
        self.last_job: Job | None = None
        self.action = QAction("Import &folder…", window.qt_window())
        self.action.setShortcut(QKeySequence("Ctrl+Shift+I"))
        self.action.setStatusTip("Import every document of a folder and its subfolders")
        self.action.triggered.connect(self.prompt)
        window.addAction(self.action)
        menu = menu_holding(window.menuBar(), window.import_action)
        if menu is not None:
            menu.insertAction(window.export_action, self.action)
        window.import_action.changed.connect(
            lambda: self.action.setEnabled(window.import_action.isEnabled()))
        self.action.setEnabled(window.import_action.isEnabled())

    @Slot()
    def prompt(self) -> Job | None:
        """Ask for a folder (QFileDialog.getExistingDirectory) and import it the way Import
        documents… imports several files (:meth:`ImportController.import_files`: the
        published-date question for its files that carry none, then the files). Returns the
        import's job."""
        folder = QFileDialog.getExistingDirectory(
            self.window.qt_window(), "Import folder", str(dialog_folder(self.window.settings)))
        if not folder:
            return None
        remember_folder(folder, self.window.settings)  # the next dialogs open in it
        return self.window.imports.import_files([Path(folder)])

    def start(self, paths: Sequence[Path], *, guess_dates: bool = True) -> Job | None:
        """Import ``paths`` (folders recursively, and files) without asking anything: each
        new file gets the date its metadata or text gives, else (``guess_dates``) its
        modification date (:meth:`ImportController.start`)."""
        return self.window.imports.start(paths, ask_dates=False, guess_dates=guess_dates)

    def show_summary(self, label: str, case_id: int, batch: BatchResult,
                     waiting: Sequence[int] | None = None) -> None:
        """The end of an import of several files or a folder (committed, cancelled or not):
        the status line and the summary dialog; then, each on its own event-loop turn, the
        undo step and OCR / suggestions for the new documents (``waiting``: those waiting
        for OCR, when the job read it); then ``finished``."""
        window = self.window
        new = [o.result.document_id for o in batch.outcomes
               if o.status == "imported" and o.result is not None]
        children = [c.document_id for o in batch.outcomes if o.result is not None
                    for c in o.result.children if c.created]
        window.statusBar().showMessage(f"Import: {batch.summary()}.", 10000)
        dialog = ImportSummaryDialog(label, batch, window.qt_window())
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.finished.connect(lambda _r: setattr(self, "summary", None)
                                if self.summary is dialog else None)
        self.summary = dialog
        dialog.open()

        def suggest() -> None:
            window.ocr.after_import(new + children, suggest=new, waiting=waiting)
            self.finished.emit(batch)

        def record() -> None:
            if new:
                window.record_import(case_id, new, children)
            QTimer.singleShot(0, self, suggest)

        QTimer.singleShot(0, self, record)


def install_folder_import(window: FolderImportWindow) -> FolderImport:
    """Add File ▸ Import folder… to the window; returns the controller."""
    return FolderImport(window)
