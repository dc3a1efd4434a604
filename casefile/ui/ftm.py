"""FollowTheMoney from the window: File ▸ Export case as ▸ FollowTheMoney (.ftm.json)… and File ▸
Import from ▸ FollowTheMoney….

The export runs :func:`casefile.services.ftm_export.export_ftm` off the GUI thread; the import
is one undoable :class:`~casefile.ui.undo.ActionCommand` over
:func:`casefile.services.ftm_import.import_entities` (its status message names the merges).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from sqlalchemy.orm import Session

from casefile.ui.exporting import ask_export_path, profile_label, safe_file_name, start_export
from casefile.ui.operations import Job
from casefile.ui.recent_folder import ask_open_file, dialog_folder
from casefile.ui.undo import push_case_action

if TYPE_CHECKING:
    from casefile.ui.shell import WindowShell

SUFFIX = ".ftm.json"


class FtmController(QObject):
    """The window's FollowTheMoney export and import."""

    def __init__(self, window: WindowShell) -> None:
        super().__init__(window.qt_window())
        self.window = window

    def installed(self) -> bool:
        """True when followthemoney is installed; else says how to install it (before any
        file dialog: the reporter chooses nothing that cannot be written)."""
        from casefile.services.ftm_export import MISSING_FTM, followthemoney_installed

        if followthemoney_installed():
            return True
        self.window.runner.operation_failed.emit(MISSING_FTM)
        return False

    def prompt_export(self) -> Job | None:
        """Ask for a file name and write the case's entities in the background."""
        window = self.window
        if window.case_id is None or not self.installed():
            return None
        stem = safe_file_name(window.case_title()) or "case"
        chosen = ask_export_path(window, "Export case as FollowTheMoney entities",
                                 dialog_folder(window.settings) / f"{stem}{SUFFIX}",
                                 "FollowTheMoney entities (*.ftm.json *.json *.ijson)")
        if chosen is None:
            return None
        out, profile = chosen
        if not out.name.lower().endswith((".json", ".ijson")):
            out = out.with_name(out.name + SUFFIX)
        return self.export(out, profile=profile)

    def export(self, out: Path, *, include_confidential: bool = False,
               profile: str | None = None) -> Job:
        """Write the case's FtM entities to ``out`` under the export ``profile`` (None:
        editor, or internal with ``include_confidential``) off the GUI thread."""
        from casefile.services import ftm_export

        window = self.window
        assert window.case_id is not None
        case_id = window.case_id

        def work(session: Session, job: Job) -> ftm_export.FtmExport:
            return ftm_export.export_ftm(session, case_id, out,
                                         include_confidential=include_confidential,
                                         profile=profile)

        return start_export(window, work, out, "FollowTheMoney entities "
                            f"({profile_label(profile, include_confidential)})")

    def prompt_import(self) -> bool:
        """Choose a FtM file and import its entities into the case (undoable)."""
        if self.window.case_id is None or not self.installed():
            return False
        path = ask_open_file(
            self.window.qt_window(), self.window.settings, "Import FollowTheMoney entities",
            "FollowTheMoney entities (*.ftm.json *.json *.ijson *.jsonl);;All files (*)")
        return path is not None and self.import_file(path)

    def import_file(self, path: Path) -> bool:
        """Read ``path`` and import its entities as one undoable command. Returns True when
        the import ran."""
        from casefile.services import ftm_import

        entities = self.window.runner.checked(lambda: ftm_import.read_ftm(path))
        if entities is None:
            return False
        return push_case_action(
            self.window, f"Import {len(entities)} entities from {path.name}",
            lambda s, case_id: ftm_import.import_entities(s, case_id, entities, source=path.name))
