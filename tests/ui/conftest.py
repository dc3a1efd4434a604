"""Fixtures of the desktop app tests: offscreen Qt, temp settings, a fresh workspace, a window.

QT_QPA_PLATFORM is set before Qt is imported, so the tests run without a display; QSettings
are redirected to a temp folder so the user's window state is never read or written.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from PySide6.QtCore import QSettings, Qt  # noqa: E402

from casefile.store.workspace import Workspace  # noqa: E402
from tests.conftest import new_sqlite_workspace  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[3] / "shared" / "samples"
if not SAMPLES.is_dir():  # the repository checked out elsewhere
    SAMPLES = Path("/work/shared/samples")


@pytest.fixture(autouse=True)
def temp_settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Point QSettings (INI, user scope) at a temp folder for each test."""
    folder = tmp_path_factory.mktemp("settings")
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))
    yield folder


@pytest.fixture
def ui_workspace(sqlite_template: Path, tmp_path: Path) -> Iterator[Workspace]:
    """A fresh, empty workspace in a temp folder (a copy of the migrated template)."""
    ws = new_sqlite_workspace(sqlite_template, tmp_path / "workspace")
    yield ws
    ws.close()


@pytest.fixture
def make_window(qtbot, ui_workspace):
    """Factory: ``make_window(case_id=None, workspace=None)`` -> a shown MainWindow (closed and
    its jobs waited for at teardown). Suggestions and OCR after import, and automatic backups
    (a job 3 s after opening), are off unless asked for."""
    from casefile.ui.main_window import MainWindow

    windows = []

    def make(case_id=None, workspace=None, suggest_after_import=False, ocr_after_import=False,
             auto_backup=False):
        window = MainWindow(workspace or ui_workspace, case_id=case_id,
                            suggest_after_import=suggest_after_import,
                            ocr_after_import=ocr_after_import, auto_backup=auto_backup)
        qtbot.addWidget(window)
        window.resize(1280, 800)
        window.show()
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow, timeout=3000)
        # a test's Ctrl+<key> click leaves Qt's keyboard modifiers at Ctrl (no release of Ctrl
        # itself is sent); a plain key event clears them, or a later table click toggles
        qtbot.keyRelease(window, Qt.Key.Key_Control)
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.runner.shutdown()
        window.close()
