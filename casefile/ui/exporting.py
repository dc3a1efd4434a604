"""Writing the brief from the window: File ▸ Export brief… (Ctrl+E), with or without the
confidential sources, in the background.

The save dialog's file-type list is the profile choice (:mod:`casefile.export.profiles`:
internal, editor, legal, public), one "PDF" entry per profile with what it prints; the entry
chosen is the profile the brief is written under. "Export brief…" offers editor first (the
default), "Export brief with confidential…" internal first.

:class:`ExportController` uses the window's public interface only (``case_id``, ``runner``,
``notify``, ``case_title``, ``last_job``). After a brief is written a non-modal box offers to
open it or show its folder (:class:`BriefWrittenBox`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QGridLayout,
    QLabel,
    QMessageBox,
    QPushButton,
)
from sqlalchemy.orm import Session

from casefile.errors import CasefileError
from casefile.export.profiles import DEFAULT_PROFILE, PROFILES
from casefile.ui.operations import Job
from casefile.ui.recent_folder import dialog_folder, remember_folder

if TYPE_CHECKING:
    from casefile.ui.shell import WindowShell



def safe_file_name(title: str) -> str:
    """A case title as a file name on every system: characters Windows and macOS refuse in
    names (``<>:"/\\|?*``, control characters) become "-", spaces and dots trimmed."""
    cleaned = "".join("-" if c in '<>:"/\\|?*' or ord(c) < 32 else c for c in title)
    return " ".join(cleaned.split()).strip(" .")

def start_export(window: WindowShell, work: Callable[[Session, Job], object], out: Path,
                 written: str) -> Job:
    """Run an export's one service call ``work`` off the GUI thread (progress, cancel); when it
    succeeds the status line says "``written`` written to ``out``". Returns the job (also the
    window's ``last_job``)."""
    def done(job: Job) -> None:
        if job.outcome == "succeeded":
            window.notify(f"{written} written to {out}", 10000)

    job = window.runner.start(work, label=f"Writing {out.name}…", change=None,
                              parent=window.qt_window(), on_done=done)
    window.last_job = job
    return job


def profile_label(profile: str | None, include_confidential: bool = False) -> str:
    """The profile an export is written under, as the status line names it: ``profile``, else
    "internal" with ``include_confidential``, else the default (editor)."""
    return profile or ("internal" if include_confidential else DEFAULT_PROFILE)


def profile_filters(first: str, pattern: str = "*.pdf") -> list[str]:
    """The save dialog's file types: one per export profile, ``first`` at the top, each for
    files matching ``pattern`` ("*.pdf" for the brief, "*.ics" for the calendar)."""
    names = [first, *(n for n in PROFILES if n != first)]
    return [f"{PROFILES[n].label} ({pattern})" for n in names]


def add_profile_box(dialog: QFileDialog, first: str = DEFAULT_PROFILE) -> QComboBox:
    """A "For:" row under a non-native file dialog choosing the export profile, ``first``
    selected; the box's ``currentData()`` is the profile's name. Used where the dialog's
    file-type list is the format (spreadsheets, FtM), not the profile."""
    box = QComboBox(dialog)
    box.setObjectName("exportProfile")
    for name in [first, *(n for n in PROFILES if n != first)]:
        box.addItem(PROFILES[name].label, name)
    box.setToolTip("Who the export is for: what it leaves out of confidential items")
    layout = dialog.layout()
    if isinstance(layout, QGridLayout):
        row = layout.rowCount()
        layout.addWidget(QLabel("For:", dialog), row, 0)
        layout.addWidget(box, row, 1, 1, max(1, layout.columnCount() - 1))
    elif layout is not None:
        layout.addWidget(box)
    return box


def ask_export_path(window: WindowShell, title: str, start: Path, file_filter: str | None = None,
                    ) -> tuple[Path, str] | None:
    """Ask where a case export goes with a non-native file dialog and its "For:" profile row
    (:func:`add_profile_box`): a file to save starting at ``start`` with ``file_filter``, or
    with no filter a folder; the folder is remembered. Returns (the path chosen, the profile's
    name), None when cancelled."""
    dialog = QFileDialog(window.qt_window(), title, str(start), file_filter or "")
    if file_filter is None:
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly)
    else:
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    profile = add_profile_box(dialog)
    if dialog.exec() != QDialog.DialogCode.Accepted or not dialog.selectedFiles():
        return None
    out = Path(dialog.selectedFiles()[0])
    remember_folder(out if file_filter is None else out.parent, window.settings)
    return out, str(profile.currentData())


def profile_of_filter(selected: str, default: str) -> str:
    """The profile a file type of :func:`profile_filters` stands for (``default`` for any
    other text, e.g. a platform dialog that reports no filter)."""
    for name in PROFILES:
        if selected.startswith(f"{PROFILES[name].label} ("):
            return name
    return default


class BriefWrittenBox(QMessageBox):
    """"Brief written to …" with "Open brief" (the PDF in the desktop's viewer), "Show folder"
    (its folder in the file manager) and "Close"; non-modal, deleted on close."""

    def __init__(self, out: Path, parent: WindowShell) -> None:
        super().__init__(QMessageBox.Icon.Information, "Brief written",
                         f"The brief was written to\n{out}", QMessageBox.StandardButton.NoButton,
                         parent.qt_window())
        self.out = out
        self.window_ = parent
        self.setWindowModality(Qt.WindowModality.NonModal)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.open_button = self._button("&Open brief", QMessageBox.ButtonRole.AcceptRole,
                                        lambda: self._open(QUrl.fromLocalFile(str(out))))
        self.folder_button = self._button(
            "Show &folder", QMessageBox.ButtonRole.ActionRole,
            lambda: self._open(QUrl.fromLocalFile(str(out.parent))))
        self.close_button = self.addButton(QMessageBox.StandardButton.Close)
        self.setDefaultButton(self.open_button)
        self.setEscapeButton(self.close_button)

    def _button(self, text: str, role: QMessageBox.ButtonRole,
                slot: Callable[[], None]) -> QPushButton:
        button = self.addButton(text, role)
        button.clicked.connect(slot)
        return button

    def _open(self, url: QUrl) -> None:
        if not QDesktopServices.openUrl(url):
            self.window_.notify(f"No program could open {url.toLocalFile()}.", 10000)


class ExportController(QObject):
    """The window's brief export. ``written_box`` is the "Brief written" box while it is
    shown (tests press its buttons)."""

    def __init__(self, window: WindowShell) -> None:
        super().__init__(window.qt_window())
        self.window = window
        self.last_job: Job | None = None
        self.written_box: BriefWrittenBox | None = None

    def prompt(self, include_confidential: bool = False) -> Job | None:
        """Choose where and for whom (QFileDialog; its file type is the export profile) and
        write the PDF in the background."""
        if self.window.case_id is None:
            return None
        first = "internal" if include_confidential else DEFAULT_PROFILE
        suggested = (dialog_folder(self.window.settings)
                     / f"{safe_file_name(self.window.case_title()) or 'brief'}.pdf")
        name, chosen = QFileDialog.getSaveFileName(
            self.window.qt_window(), "Export brief", str(suggested),
            ";;".join(profile_filters(first)))
        if not name:
            return None
        remember_folder(name, self.window.settings)
        out = Path(name)
        if not out.suffix:
            out = out.with_suffix(".pdf")
        return self.export_brief(out, profile=profile_of_filter(chosen, first))

    def export_brief(self, out: Path, *, include_confidential: bool = False,
                     profile: str | None = None) -> Job:
        """Write the case's PDF brief to ``out`` under ``profile`` (None: editor, or internal
        with ``include_confidential``) off the GUI thread (progress, cancellable); a partial
        file never replaces ``out``; a brief the self-check refuses leaves nothing."""
        window = self.window
        assert window.case_id is not None
        case_id = window.case_id
        from casefile.services import brief  # reportlab loads with the first brief

        def work(session: Session, job: Job) -> Path:
            tmp = out.with_name(f".{out.name}.casefile-part")
            try:
                brief.export_brief(session, case_id, tmp,
                                   include_confidential=include_confidential,
                                   profile=profile, progress=job.report)
                job.check()
                os.replace(tmp, out)
            except OSError as exc:
                raise CasefileError(f"cannot write {out}: {exc.strerror or exc}") from exc
            finally:
                tmp.unlink(missing_ok=True)
            return out

        def done(job: Job) -> None:
            if job.outcome == "succeeded":
                label = profile_label(profile, include_confidential)
                window.notify(f"Brief ({label}) written to {out}", 10000)
                self.offer_to_open(out)
            elif job.outcome == "cancelled":
                window.notify("Export cancelled.", 6000)

        job = window.runner.start(work, label=f"Writing {out.name}…", change=None,
                                  parent=window.qt_window(), on_done=done)
        self.last_job = job
        window.last_job = job
        return job

    def offer_to_open(self, out: Path) -> BriefWrittenBox:
        """Show the non-modal "Brief written" box for ``out``; returns it."""
        if self.written_box is not None:
            self.written_box.close()
        box = BriefWrittenBox(out, self.window)
        box.finished.connect(lambda _r: setattr(self, "written_box", None)
                             if self.written_box is box else None)
        self.written_box = box
        box.show()
        return box
