"""Keyboard and help: application-wide shortcuts from any focus, tab switching,
docks shown and focused from the View menu, Help ▸ Keyboard shortcuts and Getting started,
a visible focus outline."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QFileDialog, QLineEdit, QTableWidget, QTextBrowser

from casefile.services.demo import build_demo
from casefile.ui.docks import in_front
from casefile.ui.help import shortcut_rows

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def demo_window(make_window, ui_workspace):
    with ui_workspace.transaction() as s:
        case_id, _ = build_demo(s)
    return make_window(case_id)


class X11LineEditKeys(QObject):
    """What a QLineEdit does under X11, where Qt binds Ctrl+E (end of line), Ctrl+U (delete
    the line) and Ctrl+K (delete to the end): it accepts the ShortcutOverride, so a window
    shortcut on those keys never runs. The offscreen platform has no such bindings, so the
    tests put them back on the text fields they type in."""

    KEYS = {Qt.Key.Key_E, Qt.Key.Key_U, Qt.Key.Key_K}

    def eventFilter(self, watched, event):
        if (event.type() == QEvent.Type.ShortcutOverride
                and event.modifiers() == Qt.KeyboardModifier.ControlModifier
                and event.key() in self.KEYS):
            event.accept()
            return True
        return False


@pytest.fixture
def x11_keys(qapp):
    keys = X11LineEditKeys()
    yield lambda edit: edit.installEventFilter(keys)


def _save_to(monkeypatch, path):
    asked = []

    def fake(*args, **kwargs):
        asked.append(args)
        return str(path), "PDF files (*.pdf)"

    monkeypatch.setattr(QFileDialog, "getSaveFileName", fake)
    return asked


@pytest.mark.parametrize("box", ["search", "filter"])
def test_ctrl_e_from_a_text_field_writes_the_brief(demo_window, qtbot, monkeypatch, tmp_path,
                                                   box, x11_keys):
    window = demo_window
    out = tmp_path / "brief.pdf"
    asked = _save_to(monkeypatch, out)
    if box == "search":
        qtbot.keyClick(window, Qt.Key.Key_F, CTRL | SHIFT)  # Edit ▸ Search…
        edit = window.search_panel.edit
    else:
        qtbot.keyClick(window, Qt.Key.Key_F, CTRL)  # the section filter
        edit = window.filter_edit
    qtbot.waitUntil(edit.hasFocus, timeout=3000)
    x11_keys(edit)
    qtbot.keyClicks(edit, "ab")
    qtbot.keyClick(edit, Qt.Key.Key_Left)  # the cursor mid-text: "end of line" would move it
    with qtbot.waitSignal(window.runner.job_finished, timeout=60000) as finished:
        qtbot.keyClick(edit, Qt.Key.Key_E, CTRL)
    assert len(asked) == 1 and finished.args[0].outcome == "succeeded"
    assert out.read_bytes().startswith(b"%PDF")
    assert edit.text() == "ab" and edit.cursorPosition() == 1  # the field kept its text
    box_shown = window.exports.written_box
    assert box_shown is not None and box_shown.isVisible()


def test_ctrl_k_and_ctrl_u_work_from_the_filter_box(demo_window, qtbot, x11_keys):
    window = demo_window
    x11_keys(window.filter_edit)
    window.focus_filter()
    qtbot.keyClicks(window.filter_edit, "xy")
    qtbot.keyClick(window.filter_edit, Qt.Key.Key_U, CTRL)
    assert window.tabs.currentWidget() is window.followups_view
    assert window.filter_edit.text() == "xy"  # not "delete the line"
    window.focus_filter()
    qtbot.keyClick(window.filter_edit, Qt.Key.Key_K, CTRL)
    dialog = window.quick_open.dialog
    assert dialog is not None and dialog.isVisible()


def test_ctrl_tab_and_ctrl_page_keys_switch_the_central_tabs(demo_window, qtbot):
    window = demo_window
    window.table.setFocus()
    assert window.tabs.currentIndex() == 0
    qtbot.keyClick(window.table, Qt.Key.Key_Tab, CTRL)
    assert window.tabs.currentWidget() is window.followups_view
    qtbot.keyClick(window.focusWidget() or window, Qt.Key.Key_PageDown, CTRL)
    assert window.tabs.currentIndex() == 2
    qtbot.keyClick(window.focusWidget() or window, Qt.Key.Key_PageUp, CTRL)
    assert window.tabs.currentIndex() == 1
    qtbot.keyClick(window.focusWidget() or window, Qt.Key.Key_Backtab, CTRL | SHIFT)
    assert window.tabs.currentIndex() == 0
    qtbot.keyClick(window.focusWidget() or window, Qt.Key.Key_Backtab, CTRL | SHIFT)
    assert window.tabs.currentIndex() == window.tabs.count() - 1  # wraps around


def test_ctrl_shift_s_shows_and_focuses_the_suggestions_then_hides_them(demo_window, qtbot):
    window = demo_window
    dock = window.docks["suggestions_dock"]
    action = window.dock_actions["suggestions_dock"]
    assert not in_front(dock) and action.isChecked()  # behind the Evidence tab, ticked
    window.filter_edit.setFocus()
    qtbot.keyClick(window.filter_edit, Qt.Key.Key_S, CTRL | SHIFT)
    qtbot.waitUntil(lambda: in_front(dock), timeout=3000)
    focused = QApplication.focusWidget()
    assert focused is not None and dock.isAncestorOf(focused)
    assert action.isChecked()
    qtbot.keyClick(focused, Qt.Key.Key_S, CTRL | SHIFT)  # the second press hides it
    assert dock.isHidden() and not action.isChecked()
    window.evidence_dock.raise_()
    qtbot.keyClick(window, Qt.Key.Key_S, CTRL | SHIFT)  # and the next one brings it back
    assert in_front(dock) and action.isChecked()


def test_the_view_menu_raises_and_focuses_the_evidence_dock(demo_window, qtbot):
    window = demo_window
    window.docks["suggestions_dock"].raise_()
    assert not in_front(window.evidence_dock)
    window.dock_actions["evidence_dock"].trigger()
    assert in_front(window.evidence_dock)
    focused = QApplication.focusWidget()
    assert focused is not None and window.evidence_dock.isAncestorOf(focused)


def test_help_lists_every_shortcut_from_the_actions(demo_window, qtbot):
    window = demo_window
    rows = shortcut_rows(window)
    keys = {k for _action, ks, _where in rows for k in ks.split(", ")}
    native = QKeySequence.SequenceFormat.NativeText
    for seq in ("Ctrl+E", "Ctrl+I", "Ctrl+K", "Ctrl+U", "Ctrl+Shift+S", "Ctrl+Tab",
                "Ctrl+PgDown", "Ctrl+Shift+F", "Ctrl+N", "Ctrl+Z", "Ctrl+F"):
        assert QKeySequence(seq).toString(native) in keys, seq
    assert ("Export brief", QKeySequence("Ctrl+E").toString(native), "File menu") in rows
    # a shortcut added later shows up too: the list is built from the actions
    window.new_case_action.setShortcut(QKeySequence("Ctrl+Shift+N"))
    dialog = window.help.show_shortcuts()
    table = dialog.findChild(QTableWidget, "shortcuts_table")
    texts = {(table.item(r, 0).text(), table.item(r, 1).text()) for r in range(table.rowCount())}
    assert ("New case", QKeySequence("Ctrl+Shift+N").toString(native)) in texts
    assert table.rowCount() == len(rows) + 1
    dialog.close()


def test_getting_started_page(demo_window, qtbot):
    window = demo_window
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    titles = [a.text() for a in help_menu.actions() if a.text()]
    assert titles[:2] == ["&Keyboard shortcuts", "&Getting started"]
    window.help.getting_started_action.trigger()
    browser = window.help.dialog.findChild(QTextBrowser, "getting_started")
    text = browser.toPlainText()
    for topic in ("Import documents", "Suggestions", "Evidence", "Follow-ups", "Export brief"):
        assert topic in text, topic


def test_focus_is_outlined(demo_window, qtbot):
    window = demo_window
    sheet = window.styleSheet()
    for selector in ("QLineEdit:focus", "QAbstractItemView:focus", "QPushButton:focus"):
        assert selector in sheet
    window.filter_edit.setFocus()
    unfocused = window.table.grab().toImage()
    window.table.setFocus()
    qtbot.waitUntil(window.table.hasFocus, timeout=2000)
    focused = window.table.grab().toImage()
    highlight = window.table.palette().highlight().color()
    edge = focused.pixelColor(0, focused.height() // 2)
    assert edge == highlight and unfocused.pixelColor(0, unfocused.height() // 2) != highlight
    assert isinstance(window.filter_edit, QLineEdit)


def test_ctrl_shift_g_opens_the_graph_from_a_document_viewer(make_window, ui_workspace, qtbot):
    """Linux's standard "find previous" is Ctrl+Shift+G too: the viewer leaves it to the Graph
    tab (a key bound twice is ambiguous and does nothing), and keeps Shift+F3."""
    from tests.ui.helpers import add_text_document, make_case

    cid = make_case(ui_workspace)
    doc = add_text_document(ui_workspace, cid, "Harbor director Lena Ortiz resigned.")
    window = make_window(cid)
    viewer = window.open_document(doc)
    viewer.text_view.setFocus()
    qtbot.keyClick(viewer.text_view, Qt.Key.Key_G, CTRL | SHIFT)
    assert window.tabs.currentWidget() is window.case_views.graph_tab
    assert QKeySequence("Shift+F3") in viewer.find_previous_action.shortcuts()
