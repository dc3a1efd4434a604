"""The window's size and saved state: the first window fits the screen it opens on, a restored
one is kept on the screen; geometry, dock layout and splitter sizes live in QSettings."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QByteArray, QRect, QSettings
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow, QSplitter

#: The first window's size on a screen large enough (pixels).
DEFAULT_SIZE = (1280, 800)
#: Room left for a window manager's frame and title bar (pixels, width and height).
FRAME_ALLOWANCE = (16, 40)


def app_settings() -> QSettings:
    """The application's settings (organization and application "Casefile", INI format).

    Tests redirect the INI location with ``QSettings.setPath`` so they never touch the user's.
    """
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "Casefile", "Casefile")


def available_geometry(window: QMainWindow) -> QRect:
    """The available geometry (without panels and docks of the desktop) of the screen the
    window is on, else of the primary screen."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, *DEFAULT_SIZE)


def fit_to_screen(window: QMainWindow, available: QRect) -> None:
    """Size a first window: :data:`DEFAULT_SIZE`, or less to fit ``available`` with its frame,
    centred there; never below the window's minimum size."""
    width = min(DEFAULT_SIZE[0], available.width() - FRAME_ALLOWANCE[0])
    height = min(DEFAULT_SIZE[1], available.height() - FRAME_ALLOWANCE[1])
    window.resize(max(width, window.minimumSizeHint().width()),
                  max(height, window.minimumSizeHint().height()))
    x = available.x() + max((available.width() - window.width()) // 2, 0)
    y = available.y() + max((available.height() - window.height() - FRAME_ALLOWANCE[1]) // 2, 0)
    window.move(x, y)


def clamp_to_screen(window: QMainWindow, available: QRect) -> None:
    """Keep a restored window on ``available``: shrink it to fit (with its frame), then move it
    inside. A maximized or full-screen window is left to the window manager."""
    if window.isMaximized() or window.isFullScreen():
        return
    width = min(window.width(), available.width() - FRAME_ALLOWANCE[0])
    height = min(window.height(), available.height() - FRAME_ALLOWANCE[1])
    if (width, height) != (window.width(), window.height()):
        window.resize(width, height)
    x = min(max(window.x(), available.x()), available.right() + 1 - window.width())
    y = min(max(window.y(), available.y()),
            available.bottom() + 1 - window.height() - FRAME_ALLOWANCE[1])
    window.move(max(x, available.x()), max(y, available.y()))


def restore_window_state(window: QMainWindow, settings: QSettings,
                         splitters: Sequence[QSplitter],
                         available: QRect | None = None) -> None:
    """Restore what :func:`save_window_state` stored, kept on the screen; a first run fits
    the screen (:func:`fit_to_screen`). ``available`` defaults to the window's screen's."""
    restore_geometry(window, settings, available)
    state = settings.value("window/state")
    if isinstance(state, QByteArray) and not state.isEmpty():
        window.restoreState(state)
    for splitter in splitters:
        sizes = settings.value(f"window/{splitter.objectName()}")
        if isinstance(sizes, QByteArray) and not sizes.isEmpty():
            splitter.restoreState(sizes)


def restore_geometry(window: QMainWindow, settings: QSettings,
                     available: QRect | None = None) -> None:
    """Only the window's size and place of :func:`restore_window_state` (the frame painted
    while the window loads takes the window's)."""
    area = available if available is not None else available_geometry(window)
    geometry = settings.value("window/geometry")
    if isinstance(geometry, QByteArray) and not geometry.isEmpty() \
            and window.restoreGeometry(geometry):
        clamp_to_screen(window, area)
    else:
        fit_to_screen(window, area)


def save_window_state(window: QMainWindow, settings: QSettings,
                      splitters: Sequence[QSplitter]) -> None:
    """Store the window's geometry, dock layout and the splitters' sizes."""
    settings.setValue("window/geometry", window.saveGeometry())
    settings.setValue("window/state", window.saveState())
    for splitter in splitters:
        settings.setValue(f"window/{splitter.objectName()}", splitter.saveState())


def remembered_case(settings: QSettings, workspace_url: str) -> int | None:
    """The case last opened in the workspace at ``workspace_url`` (None: none or unreadable)."""
    value = settings.value(f"last_case/{workspace_url}")
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None
