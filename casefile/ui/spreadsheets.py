"""Spreadsheets from the window: File ▸ Export ▸ Excel workbook… / CSV files…, and File ▸
Import ▸ People or organizations from a spreadsheet… with its column-mapping dialog.

The exports run :func:`casefile.services.sheets.export_xlsx` / ``export_csv`` off the GUI thread;
the import is one undoable :class:`~casefile.ui.undo.ActionCommand` over
:func:`casefile.services.table_import.import_records`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)
from sqlalchemy.orm import Session

from casefile.services import table_import
from casefile.ui.exporting import ask_export_path, profile_label, safe_file_name, start_export
from casefile.ui.operations import Job
from casefile.ui.recent_folder import ask_open_file, dialog_folder
from casefile.ui.undo import push_case_action

if TYPE_CHECKING:
    from casefile.ui.shell import WindowShell

#: How the mapping dialog names each field.
FIELD_LABELS = {
    "title": "Name", "aliases": "Other names (separated by ;)", "role": "Role",
    "affiliation": "Organization", "contact": "Contact details", "org_kind": "Kind",
    "jurisdiction": "Jurisdiction", "notes": "Notes", "confidential": "Confidential (yes/no)",
}
NOT_USED = "(not imported)"
PREVIEW_ROWS = 5


class ColumnMappingDialog(QDialog):
    """Which column fills which field, with the first rows of the file shown. ``kind_box``,
    ``boxes`` (field -> QComboBox) and ``preview`` are public for tests."""

    def __init__(self, sheet: table_import.SheetRows, file_name: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Import people or organizations from {file_name}")
        self.sheet = sheet
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(f"{len(sheet.rows):,} rows. Choose what each field is taken "
                                "from; a name already in the case is merged, not repeated."))
        self.form = QFormLayout()
        self.kind_box = QComboBox()
        self.kind_box.addItem("People", "person")
        self.kind_box.addItem("Organizations", "organization")
        self.kind_box.currentIndexChanged.connect(self._fill_fields)
        self.form.addRow("Import as", self.kind_box)
        layout.addLayout(self.form)
        self.preview = QTableWidget(min(PREVIEW_ROWS, len(sheet.rows)), len(sheet.columns))
        self.preview.setHorizontalHeaderLabels(sheet.columns)
        for r, row in enumerate(sheet.rows[:PREVIEW_ROWS]):
            for c, value in enumerate(row):
                self.preview.setItem(r, c, QTableWidgetItem(value))
        self.preview.setMaximumHeight(170)
        layout.addWidget(self.preview)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Import")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.boxes: dict[str, QComboBox] = {}
        self._fill_fields()
        self.resize(640, 480)

    def kind(self) -> str:
        return str(self.kind_box.currentData())

    def _fill_fields(self) -> None:
        while self.form.rowCount() > 1:
            self.form.removeRow(1)
        self.boxes = {}
        guess = table_import.guess_mapping(self.sheet.columns, self.kind())
        for fld in table_import.MAPPABLE[self.kind()]:
            box = QComboBox()
            box.addItem(NOT_USED, None)
            for column in self.sheet.columns:
                box.addItem(column, column)
            if fld in guess:
                box.setCurrentIndex(box.findData(guess[fld]))
            self.boxes[fld] = box
            self.form.addRow(FIELD_LABELS.get(fld, fld), box)

    def mapping(self) -> dict[str, str]:
        """The chosen ``{field: column}``."""
        return {f: str(b.currentData()) for f, b in self.boxes.items()
                if b.currentData() is not None}


class SpreadsheetController(QObject):
    """The window's spreadsheet exports and its people/organizations import. ``last_dialog``
    is the mapping dialog while it is open (tests fill it)."""

    def __init__(self, window: WindowShell) -> None:
        super().__init__(window.qt_window())
        self.window = window
        self.last_dialog: ColumnMappingDialog | None = None

    def prompt_xlsx(self) -> Job | None:
        """Ask for a file name and write the case's workbook in the background."""
        if self.window.case_id is None:
            return None
        chosen = ask_export_path(self.window, "Export case as Excel workbook",
                                 dialog_folder(self.window.settings) / f"{self._stem()}.xlsx",
                                 "Excel workbooks (*.xlsx)")
        if chosen is None:
            return None
        out, profile = chosen
        if out.suffix.lower() != ".xlsx":
            out = out.with_suffix(".xlsx")
        return self.export(out, "xlsx", profile=profile)

    def prompt_csv(self) -> Job | None:
        """Ask for a folder and write a CSV file per section into it in the background."""
        if self.window.case_id is None:
            return None
        chosen = ask_export_path(self.window, "Export case as CSV files (choose a folder)",
                                 dialog_folder(self.window.settings))
        if chosen is None:
            return None
        folder, profile = chosen
        return self.export(folder / self._stem(), "csv", profile=profile)

    def _stem(self) -> str:
        return safe_file_name(self.window.case_title()) or "case"

    def export(self, out: Path, fmt: str, *, include_confidential: bool = False,
               profile: str | None = None) -> Job:
        """Write the case as ``fmt`` ("xlsx": the file ``out``; "csv": files in the folder
        ``out``) under the export ``profile`` (None: editor, or internal with
        ``include_confidential``) off the GUI thread."""
        from casefile.services import sheets

        window = self.window
        assert window.case_id is not None
        case_id = window.case_id

        def work(session: Session, job: Job) -> Path:
            return sheets.export_tables(session, case_id, out, fmt,
                                        include_confidential=include_confidential,
                                        profile=profile)

        what = "Workbook" if fmt == "xlsx" else "CSV files"
        return start_export(window, work, out,
                            f"{what} ({profile_label(profile, include_confidential)})")

    def prompt_import(self) -> bool:
        """Choose a .csv or .xlsx file, map its columns, and import (undoable)."""
        if self.window.case_id is None:
            return False
        path = ask_open_file(self.window.qt_window(), self.window.settings,
                             "Import people or organizations",
                             "Spreadsheets (*.csv *.xlsx);;All files (*)")
        return path is not None and self.import_file(path)

    def import_file(self, path: Path, *, ask: bool = True) -> bool:
        """Read ``path``, show the mapping dialog (``ask``; else take the guessed mapping) and
        run the import as one undoable command. Returns True when something was imported."""
        window = self.window
        sheet = window.runner.checked(lambda: table_import.read_table(path))
        if sheet is None:
            return False
        dialog = ColumnMappingDialog(sheet, path.name, window.qt_window())
        self.last_dialog = dialog
        try:
            if ask and dialog.exec() != QDialog.DialogCode.Accepted:
                return False
            kind, mapping = dialog.kind(), dialog.mapping()
        finally:
            self.last_dialog = None
            dialog.deleteLater()
        records = window.runner.checked(lambda: table_import.map_rows(sheet, kind, mapping))
        if records is None:
            return False
        return push_case_action(
            window, f"Import {len(records)} rows from {path.name}",
            lambda s, case_id: table_import.import_records(s, case_id, kind, records))
