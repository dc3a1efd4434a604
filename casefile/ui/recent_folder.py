"""Where the window's file dialogs open: the folder last chosen in any of them (an import, an
export, a save), kept in the window's settings, else the home folder. A reporter who saves a
brief in the story's folder finds that folder again for the spreadsheet and the next import.
:func:`ask_open_file` is the window's "choose a file to import" dialog over them."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog, QWidget

#: The settings key of the last folder.
KEY = "dialogs/last_folder"


def _settings(settings: QSettings | None) -> QSettings:
    if settings is not None:
        return settings
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "Casefile",
                     "Casefile")


def dialog_folder(settings: QSettings | None = None) -> Path:
    """The folder a file dialog opens in: the last one remembered when it still exists, else
    the home folder. ``settings`` None: the application's settings."""
    value = _settings(settings).value(KEY)
    if isinstance(value, str) and value and Path(value).is_dir():
        return Path(value)
    return Path.home()


def remember_folder(chosen: str | Path, settings: QSettings | None = None) -> None:
    """Remember the folder of ``chosen`` (a file: its folder; a folder: itself) for the next
    dialog; an empty choice (cancelled) changes nothing."""
    if not str(chosen):
        return
    path = Path(chosen)
    folder = path if path.is_dir() else path.parent
    _settings(settings).setValue(KEY, str(folder))


def ask_open_file(parent: QWidget, settings: QSettings, title: str, file_filter: str
                  ) -> Path | None:
    """Ask for a file to read, starting in :func:`dialog_folder`, and remember its folder;
    None when cancelled."""
    name, _filter = QFileDialog.getOpenFileName(parent, title, str(dialog_folder(settings)),
                                                file_filter)
    if not name:
        return None
    remember_folder(name, settings)
    return Path(name)
