"""The window's style sheet (resources/casefile.qss) as a user sees it: the current entry of a
drop-down list is painted highlighted and readable, not as a blank row (seen in the Case
selector and the export dialogs' "For:" list)."""

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
