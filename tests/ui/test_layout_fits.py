"""The window fits the screen: no tab, section or dock widens it past 960 px, the
first window is sized to the screen's available geometry, and at 1366×768 and 1024×640 the
docks, the Suggestions tab and the status bar are on screen with no header cut."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QByteArray, QRect
from PySide6.QtWidgets import QApplication, QDockWidget, QHeaderView, QTabBar

from casefile.services.demo import build_demo
from casefile.ui.window_state import FRAME_ALLOWANCE, clamp_to_screen, fit_to_screen

SCREENS = [QRect(0, 0, 1366, 768), QRect(0, 0, 1024, 640)]


@pytest.fixture
def demo_window(make_window, ui_workspace):
    with ui_workspace.transaction() as s:
        case_id, _ = build_demo(s)
    return make_window(case_id)


def test_no_tab_section_or_dock_makes_the_window_wider_than_960(demo_window, qtbot):
    window = demo_window
    window.resize(960, 600)
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
            assert window.minimumSizeHint().width() <= 960, (dock_name, name)
            assert window.width() <= 960, (dock_name, name)
        for row in range(window.navigator.count()):
            window.navigator.setCurrentRow(row)
            QApplication.processEvents()
            assert window.minimumSizeHint().width() <= 960, window.navigator.item(row).text()
            assert window.width() <= 960


def _inside(window, widget) -> bool:
    """The widget is shown and lies wholly inside the window's client area."""
    top_left = widget.mapTo(window, widget.rect().topLeft())
    area = QRect(top_left, widget.size())
    return widget.isVisible() and window.rect().contains(area)


def _dock_tab_bar(window) -> QTabBar:
    bars = [b for b in window.findChildren(QTabBar) if b.parent() is window and b.isVisible()]
    bar = next((b for b in bars
                if any(b.tabText(i).startswith("Suggestions") for i in range(b.count()))), None)
    assert bar is not None, [b.tabText(0) for b in bars]
    return bar


def _clipped_headers(window) -> list[str]:
    """Visible header sections whose title does not fit their width."""
    clipped = []
    for header in window.findChildren(QHeaderView):
        if not header.isVisible() or header.orientation().name != "Horizontal":
            continue
        model = header.model()
        metrics = header.fontMetrics()
        for section in range(header.count()):
            if header.isSectionHidden(section) or header.sectionSize(section) == 0:
                continue
            text = str(model.headerData(section, header.orientation()) or "")
            needed = metrics.horizontalAdvance(text) + 8
            if header.sectionSize(section) < needed:
                clipped.append(f"{header.parent().objectName()}:{text}")
    return clipped


@pytest.mark.parametrize("screen", SCREENS, ids=["1366x768", "1024x640"])
def test_the_first_window_fits_the_screen_with_docks_tabs_and_status_bar(demo_window, qtbot,
                                                                          screen):
    window = demo_window
    fit_to_screen(window, screen)
    QApplication.processEvents()
    assert window.width() <= screen.width() - FRAME_ALLOWANCE[0]
    assert window.height() <= screen.height() - FRAME_ALLOWANCE[1]
    assert screen.contains(window.geometry())
    assert window.minimumSizeHint().width() <= 960
    qtbot.waitUntil(lambda: _inside(window, window.statusBar()), timeout=3000)
    assert _inside(window, window.evidence_dock)
    bar = _dock_tab_bar(window)
    assert _inside(window, bar)
    assert {bar.tabText(i).split(" (")[0] for i in range(bar.count())} >= {"Evidence",
                                                                            "Suggestions"}
    assert _inside(window, window.workspace_label) and _inside(window, window.counts_label)
    for kind in ("person", "document", "event", "question"):
        window.show_section(kind)
        QApplication.processEvents()
        assert _clipped_headers(window) == [], kind
    window.dock_actions["suggestions_dock"].trigger()
    QApplication.processEvents()
    dock = window.docks["suggestions_dock"]
    assert _inside(window, dock) and _clipped_headers(window) == []
    reject = window.suggestions_panel.reject_button
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        QApplication.processEvents()
        assert window.width() <= screen.width(), window.tabs.tabText(index)
        assert _clipped_headers(window) == [], window.tabs.tabText(index)
        # the last decision button is wholly on show, not behind a scroll bar
        shown = reject.visibleRegion().boundingRect()
        assert (shown.width(), shown.height()) == (reject.width(), reject.height()), \
            window.tabs.tabText(index)


def test_a_restored_window_is_kept_on_the_screen(demo_window):
    window = demo_window
    window.setGeometry(900, 700, 1500, 1000)  # saved on a larger screen, far off
    saved = window.saveGeometry()
    assert isinstance(saved, QByteArray)
    window.restoreGeometry(saved)
    clamp_to_screen(window, SCREENS[1])
    assert SCREENS[1].contains(window.geometry())
    assert window.height() <= SCREENS[1].height() - FRAME_ALLOWANCE[1]
