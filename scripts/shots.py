"""What the screenshot scripts share (``screenshots_*.py``, ``screenshot_suggestions.py``; run
as ``python scripts/NAME.py``): a fresh temp workspace whose window settings stay in the same
temp folder, with or without the demo case, and letting the window and workspace go."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any


def temp_workspace() -> Any:
    """A new workspace in a temp folder; the window's settings are kept beside it, so a shot
    never reads or changes the user's own."""
    from PySide6.QtCore import QSettings

    from casefile.store.workspace import open_workspace

    tmp = Path(tempfile.mkdtemp(prefix="casefile-shots-"))
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp / "settings"))
    return open_workspace(tmp / "workspace")


def demo_workspace() -> tuple[Any, int, Path]:
    """:func:`temp_workspace` holding the demo case; returns (the workspace, the case id, the
    temp folder, where what a shot imports is made)."""
    from casefile.services.demo import build_demo

    ws = temp_workspace()
    with ws.transaction() as s:
        case_id, _ = build_demo(s)
    return ws, case_id, ws.folder.parent


def out_folder(argv: list[str], default: str) -> Path:
    """The folder the shots are saved in (the first argument, else ``default``), made."""
    out = Path(argv[0] if argv else default)
    out.mkdir(parents=True, exist_ok=True)
    return out


def let_go(window: Any, ws: Any) -> None:
    """Stop the window's jobs, close it and its workspace."""
    window.runner.shutdown()
    window.close()
    ws.close()
