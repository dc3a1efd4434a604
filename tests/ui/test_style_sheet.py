"""Drop-down lists as a user sees them. With the window's style sheet (resources/casefile.qss)
the current entry of a list is painted highlighted and readable, not as a blank row (seen in the
Case selector and the export dialogs' "For:" list); the Case list opens wide enough for whole
titles."""

from __future__ import annotations

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QComboBox, QVBoxLayout, QWidget

from casefile.ui.keyboard import stylesheet


def test_the_current_entry_of_a_drop_down_list_is_painted_highlighted(qtbot):
    window = QWidget()
    window.setStyleSheet(stylesheet())
    qtbot.addWidget(window)
    box = QComboBox()
    for text in ("Editor: confidential items left out", "Internal: everything"):
        box.addItem(text)
    QVBoxLayout(window).addWidget(box)
    window.resize(420, 120)
    window.show()
    qtbot.waitExposed(window)
    box.showPopup()
    QApplication.processEvents()
    view = box.view()
    row = view.visualRect(view.model().index(0, 0))
    image = view.viewport().grab().toImage()
    highlight = box.palette().color(QPalette.ColorRole.Highlight)
    colours = {image.pixelColor(x, row.center().y()).rgb() for x in range(row.left(), row.right())}
    box.hidePopup()
    assert highlight.rgb() in colours  # the current entry's background
    assert len(colours) > 2  # and its text drawn on it (not one flat colour)


def test_the_case_list_opens_wide_enough_to_tell_two_long_titles_apart(qtbot):
    from casefile.ui.navigator import CaseNavigator

    picker = CaseNavigator()
    qtbot.addWidget(picker)
    picker.resize(190, 400)
    picker.show()
    titles = ["Harbor inquiry: police response — north pier",
              "Harbor inquiry: police response — north pier (imported)"]
    picker.set_cases([(1, titles[0]), (2, titles[1])], 2)
    view = picker.case_box.view()
    needed = max(view.fontMetrics().horizontalAdvance(t) for t in titles)
    assert picker.case_box.width() < needed  # the closed box cuts the titles…
    picker.case_box.showPopup()
    QApplication.processEvents()
    shown = view.viewport().width()
    picker.case_box.hidePopup()
    assert shown > needed  # …the open list shows them whole
    assert picker.case_box.itemData(1, 3) == titles[1]  # and each says it in its tooltip
