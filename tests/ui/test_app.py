"""Starting the app (run_app), remembering window state, and suggestions after an import."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDockWidget, QMessageBox, QToolBar

from casefile.services import demo
from casefile.store import Mention
from casefile.ui import app as app_module
from casefile.ui import startup
from casefile.ui.main_window import MainWindow
from casefile.ui.suggesting import suggestions_available
from casefile.ui.window_state import app_settings
from tests.ui.helpers import make_case


def test_run_app_opens_the_case_and_remembers_it(qapp, tmp_path, monkeypatch):
    seen = {}

    def fake_exec():
        (window,) = [w for w in QApplication.topLevelWidgets()
                     if isinstance(w, MainWindow) and w.isVisible()]
        seen["title"] = window.windowTitle()
        seen["people"] = window.picker.navigator.item(0).text()
        window.close()
        return 0

    monkeypatch.setattr(QApplication, "exec", lambda self=None: fake_exec())
    folder = tmp_path / "ws"
    from casefile.store.workspace import open_workspace

    ws = open_workspace(folder)
    with ws.transaction() as s:
        case_id, _ = demo.build_demo(s)
    url = ws.url
    ws.close()
    assert app_module.run_app(workspace=folder, case_id=case_id) == 0
    assert seen["title"].startswith(demo.demo_title())
    assert seen["people"] == "People (5)"
    assert int(app_settings().value(f"last_case/{url}")) == case_id
    # without a case id, the last case is opened again
    assert app_module.run_app(workspace=folder) == 0
    assert seen["title"].startswith(demo.demo_title())


def test_run_app_reports_a_workspace_it_cannot_open(qapp, tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: shown.append(a[2]))
    not_a_db = tmp_path / "ws"
    not_a_db.mkdir()
    (not_a_db / "casefile.sqlite3").write_bytes(b"this is not a database at all" * 100)
    assert app_module.run_app(workspace=not_a_db) == 1
    assert shown and "cannot be opened" in shown[0]


def test_the_frame_has_the_windows_menus_tool_bar_and_docks(make_window, ui_workspace):
    """The frame painted while the window loads (casefile.ui.startup) looks like the window."""
    window = make_window(make_case(ui_workspace))
    assert [a.text() for a in window.menuBar().actions()] == list(startup.MENU_TITLES)
    (toolbar,) = window.findChildren(QToolBar)
    assert [None if a.isSeparator() else a.text() for a in toolbar.actions()] == list(
        startup.TOOLBAR)
    docks = {d.objectName(): d.windowTitle() for d in window.findChildren(QDockWidget)}
    assert {name: title for title, name in startup.DOCKS} == docks
    frame = startup.StartupFrame()
    try:
        assert {d.objectName(): d.windowTitle()
                for d in frame.findChildren(QDockWidget)} == docks
        assert [a.text() for a in frame.menuBar().actions()] == list(startup.MENU_TITLES)
    finally:
        frame.close()


def test_the_frame_docks_at_the_right_and_ctrl_q_closes_it(qtbot):
    """With no layout saved yet (a first start) the frame's three docks sit at the right, one
    tabbed behind another, not piled over its menu bar; Quit works while the window loads."""
    frame = startup.StartupFrame()
    qtbot.addWidget(frame)
    frame.show()
    frame.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is frame)
    docks = frame.findChildren(QDockWidget)
    assert len(docks) == len(startup.DOCKS)
    assert {frame.dockWidgetArea(d) for d in docks} == {Qt.DockWidgetArea.RightDockWidgetArea}
    assert sum(not d.visibleRegion().isEmpty() for d in docks) == 1  # one in front
    qtbot.keyClick(frame, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    assert frame.closed and not frame.isVisible()


def test_window_geometry_and_splitters_are_restored(make_window, ui_workspace):
    cid = make_case(ui_workspace)
    window = make_window(cid)
    window.splitter.setSizes([260, 700])
    window.items.splitter.setSizes([200, 400])
    left, table = window.splitter.sizes()[0], window.items.splitter.sizes()[0]
    window.close()
    again = make_window(cid)
    again.resize(1280, 800)
    assert again.splitter.sizes()[0] == left
    assert again.items.splitter.sizes()[0] == table


@pytest.mark.skipif(not suggestions_available(), reason="the extractor is not there")
def test_import_runs_suggestions_in_the_background(make_window, ui_workspace, qtbot, tmp_path):
    cid = make_case(ui_workspace)
    note = tmp_path / "note.txt"
    note.write_text("Broward County Sheriff Scott Israel said Deputy Scot Peterson waited "
                    "outside Marjory Stoneman Douglas High School in Parkland.", encoding="utf-8")
    window = make_window(cid, suggest_after_import=True)
    finished = []
    window.runner.job_finished.connect(finished.append)
    window.imports.import_files([note], published=None)
    qtbot.waitUntil(lambda: len(finished) == 2, timeout=60000)
    assert [j.outcome for j in finished] == ["succeeded", "succeeded"]
    assert finished[1].dialog is None  # quiet: no modal dialog for the second step
    with ui_workspace.transaction() as s:
        assert s.query(Mention).count() > 0
