"""The window fits a 1280×800 screen: no tab, section or dock widens it (tester's report)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QDockWidget

from casefile.services.demo import build_demo

pytestmark = pytest.mark.gui


@pytest.fixture
def demo_window(make_window, ui_workspace):
    with ui_workspace.transaction() as s:
        case_id, _ = build_demo(s)
    return make_window(case_id)


def test_every_tab_fits_1280_by_800(demo_window, qtbot):
    window = demo_window
    window.resize(1280, 800)
    # the Search panel with long hits listed (every kind, case titles shown)
    window.search_panel.set_all_cases(True)
    window.search_panel.edit.setText("the")
    assert window.search_panel.run_search() is not None and window.search_panel.hits()
    # a document tab with its find bar open
    doc = next(h for h in window.search_panel.hits() if h.kind == "document")
    viewer = window.open_document(doc.item_id)
    assert viewer is not None and viewer.find_text("the") > 0
    for dock_name in ("evidence_dock", "suggestions_dock", "search_dock"):
        dock = window.findChild(QDockWidget, dock_name)
        assert dock is not None
        dock.show()
        dock.raise_()
        for index in range(window.tabs.count()):
            window.tabs.setCurrentIndex(index)
            QApplication.processEvents()
            name = window.tabs.tabText(index)
            assert window.minimumSizeHint().width() <= 1280, (dock_name, name)
            assert window.width() <= 1280, (dock_name, name)
        for row in range(window.navigator.count()):
            window.navigator.setCurrentRow(row)
            QApplication.processEvents()
            assert window.minimumSizeHint().width() <= 1280, window.navigator.item(row).text()
            assert window.width() <= 1280
