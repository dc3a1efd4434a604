"""Case archives from the window: File ▸ Export case… and File ▸ Import case…, each one call of
:mod:`casefile.services.archive` off the GUI thread, with progress and cancel. A passphrase is
asked in a dialog and kept only for the call."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog, QInputDialog, QLineEdit, QMessageBox
from sqlalchemy.orm import Session

from casefile.ui.exporting import safe_file_name, start_export
from casefile.ui.operations import Job, change
from casefile.ui.recent_folder import ask_open_file, dialog_folder, remember_folder

if TYPE_CHECKING:
    from casefile.services.archive import ArchiveImport
    from casefile.ui.shell import WindowShell

FILTER = "Casefile case archives (*.casefile);;All files (*)"


class ArchiveController(QObject):
    """The window's case export and import. ``ask_passphrase`` is the prompt (tests replace
    it); ``last_import`` the last import's result."""

    def __init__(self, window: WindowShell) -> None:
        super().__init__(window.qt_window())
        self.window = window
        self.last_import: ArchiveImport | None = None

    def ask_passphrase(self, label: str, *, confirm: bool) -> str | None:
        """A passphrase from the reporter (twice when ``confirm``); None when cancelled."""
        first, ok = QInputDialog.getText(self.window.qt_window(), "Passphrase", label,
                                         QLineEdit.EchoMode.Password, "")
        if not ok or not first:
            return None
        if confirm:
            again, ok = QInputDialog.getText(self.window.qt_window(), "Passphrase",
                                             "Repeat the passphrase:",
                                             QLineEdit.EchoMode.Password, "")
            if not ok:
                return None
            if again != first:
                self.window.runner.operation_failed.emit(
                    "The two passphrases differ; nothing was written.")
                return None
        return first

    def prompt_export(self) -> Job | None:
        """Choose the file, whether to seal it, and write the archive in the background. A case
        with confidential items is offered only sealed, with them included (the archive
        carries every document and quote whole: :mod:`casefile.services.archive`)."""
        from casefile.services.archive import confidential_titles

        window = self.window
        if window.case_id is None:
            return None
        case_id = window.case_id
        name, _f = QFileDialog.getSaveFileName(
            window.qt_window(), "Export case", str(dialog_folder(window.settings)
                                       / f"{safe_file_name(window.case_title())}.casefile"),
            FILTER)
        if not name:
            return None
        remember_folder(name, window.settings)
        secret = window.runner.read(lambda s: confidential_titles(s, case_id))
        if secret:
            if not self.confirm_confidential(secret):
                return None
            seal = True
        elif window.workspace.encrypted:
            chosen = self.confirm_seal_encrypted()
            if chosen is None:
                return None
            seal = chosen
        else:
            seal = QMessageBox.question(
                window.qt_window(), "Seal the archive?",
                "Seal the archive with a passphrase? Anyone with the file and the passphrase "
                "can read the whole case.",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.Yes) == QMessageBox.StandardButton.Yes
        passphrase = None
        if seal:
            passphrase = self.ask_passphrase("Passphrase for the archive:", confirm=True)
            if passphrase is None:
                return None
        return self.export(Path(name), passphrase=passphrase, include_confidential=bool(secret))

    def confirm_seal_encrypted(self) -> bool | None:
        """From an encrypted workspace: warn that an unsealed archive is readable by anyone
        who gets the file, and offer the sealed one (the default). True: seal, False: write it
        unsealed anyway, None: cancelled (nothing is written)."""
        box = QMessageBox(QMessageBox.Icon.Warning, "Seal the archive?",
                          "This workspace is encrypted, but an unsealed archive is not: anyone "
                          "who gets the file can read the whole case, documents included.\n\n"
                          "Seal it with a passphrase?", parent=self.window.qt_window())
        seal = box.addButton("Seal with a passphrase", QMessageBox.ButtonRole.AcceptRole)
        plain = box.addButton("Write it unsealed", QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(seal)
        box.exec()
        clicked = box.clickedButton()
        return True if clicked is seal else False if clicked is plain else None

    def confirm_confidential(self, titles: list[str]) -> bool:
        """Ask whether to hand on the case's confidential items (``titles``) in a sealed
        archive; False when the reporter declines (nothing is written)."""
        shown = "\n".join(f"  • {t}" for t in titles[:5]) + (
            f"\n  … and {len(titles) - 5} more" if len(titles) > 5 else "")
        box = QMessageBox(QMessageBox.Icon.Warning, "Confidential items in the archive",
                          f"This case holds {len(titles)} confidential "
                          f"{'item' if len(titles) == 1 else 'items'}:\n{shown}\n\n"
                          "An archive carries every document and quote whole, so they go in "
                          "with their names. It will be sealed with a passphrase; hand it only "
                          "to someone who may know these sources.", parent=self.window.qt_window())
        include = box.addButton("Seal and include them", QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return box.clickedButton() is include

    def export(self, out: Path, *, passphrase: str | None = None,
               include_confidential: bool = False) -> Job:
        """Write the open case's archive to ``out`` off the GUI thread."""
        from casefile.services import archive

        window = self.window
        assert window.case_id is not None
        case_id = window.case_id

        def work(session: Session, job: Job) -> Path:
            return archive.export_archive(session, case_id, out, passphrase=passphrase,
                                          include_confidential=include_confidential)

        return start_export(window, work, out, "Case archive")

    def prompt_import(self) -> Job | None:
        """Choose an archive (and its passphrase when sealed) and import it as a new case."""
        from casefile.export.archive_file import is_sealed

        path = ask_open_file(self.window.qt_window(), self.window.settings, "Import case",
                             FILTER)
        if path is None:
            return None
        passphrase = None
        try:
            sealed = is_sealed(path)
        except OSError as exc:
            self.window.runner.operation_failed.emit(f"Cannot read {path.name}: {exc.strerror}")
            return None
        if sealed:
            passphrase = self.ask_passphrase(f"{path.name} is sealed. Its passphrase:",
                                             confirm=False)
            if passphrase is None:
                return None
        return self.import_file(path, passphrase=passphrase)

    def import_file(self, path: Path, *, passphrase: str | None = None) -> Job:
        """Import the archive at ``path`` as a new case and open it when done. A wrong
        passphrase asks again (Cancel ends it; nothing is imported)."""
        from casefile.export.archive_file import ArchivePassphraseError
        from casefile.services import archive

        window = self.window

        def work(session: Session, job: Job) -> ArchiveImport | None:
            try:
                return archive.import_archive(session, path, passphrase=passphrase,
                                              progress=job.report)
            except ArchivePassphraseError:
                if passphrase is None:
                    raise
                return None  # the passphrase was wrong: asked again in done()

        def done(job: Job) -> None:
            if job.outcome != "succeeded":
                return
            if job.result is None:
                again = self.ask_passphrase(
                    f"That passphrase does not open {path.name}. Try again:", confirm=False)
                if again is not None:
                    self.import_file(path, passphrase=again)
                return
            self.last_import = job.result
            window.open_case(job.result.case_id)
            summary = job.result.summary()
            window.notify(summary[0].upper() + summary[1:], 10000)

        job = window.runner.start(
            work, label=f"Importing {path.name}…",
            change=lambda r: change(r.case_id if r is not None else None,
                                    cases=r is not None, label="import case"),
            parent=window.qt_window(), on_done=done)
        window.last_job = job
        return job
