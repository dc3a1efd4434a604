"""The Timeline view: events left to right in date order on a time axis, approximate dates
drawn differently, clicking an event fills the evidence panel, zoom and fit."""

from __future__ import annotations

from datetime import date

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from casefile.services import evidence, items, passages
from casefile.ui.timeline import POINT, RANGE, UNCERTAIN, UNDATED
from tests.ui.dated_window import ARTICLE, open_window
from tests.ui.helpers import add_text_document, make_case


def _events(ws) -> dict[str, int]:
    cid = make_case(ws)
    doc = add_text_document(ws, cid, ARTICLE, "article.txt", outlet="CNN")
    with ws.transaction() as s:
        ids = {"case": cid}
        for title, fields in (
            ("Hearing", {"date": "2018-03-10"}),
            ("Rumour", {}),
            ("Shooting", {"date": "2018-02-14", "precision": "exact"}),
            ("Deputies resign", {"date": "2018-02-20", "precision": "approximate"}),
            ("Vigils", {"date": "2018-02-15", "end": "2018-02-18"}),
            ("Review", {"date": "2018-03-01", "precision": "month"}),
        ):
            ids[title] = items.create_item(s, cid, "event", title, **fields).id
        p = passages.add_passage_by_quote(s, doc, "three other deputies were at the school")
        evidence.link_evidence(s, ids["Deputies resign"], passage_id=p.id, relation="supports")
    return ids


def test_events_left_to_right_in_date_order_approximate_drawn_differently(qtbot,
                                                                          ui_workspace):
    ids = _events(ui_workspace)
    window = open_window(qtbot, ui_workspace, ids["case"], date(2018, 3, 5))
    window.case_views.timeline_action.trigger()
    view = window.case_views.timeline
    assert window.tabs.currentWidget() is window.case_views.timeline_tab
    assert view.parent() is window.case_views.timeline_tab and view.isVisible()
    order = [e.title for e in view.events]
    assert order == ["Shooting", "Vigils", "Deputies resign", "Review", "Hearing", "Rumour"]
    markers = [view.markers[ids[t]] for t in order]
    ys = [m.scenePos().y() for m in markers]
    assert ys == sorted(ys) and len(set(ys)) == len(ys)  # a row per event, top to bottom
    starts = [m.mapRectToScene(m.marker_rect()).left() for m in markers[:-1]]
    assert starts == sorted(starts)  # left to right by date
    styles = {t: view.markers[ids[t]].style for t in order}
    assert styles == {"Shooting": POINT, "Vigils": RANGE, "Deputies resign": UNCERTAIN,
                      "Review": UNCERTAIN, "Hearing": POINT, "Rumour": UNDATED}
    approx, exact = view.markers[ids["Deputies resign"]], view.markers[ids["Shooting"]]
    assert approx.brush().style() == Qt.BrushStyle.BDiagPattern
    assert approx.pen().style() == Qt.PenStyle.DashLine
    assert exact.brush().style() == Qt.BrushStyle.SolidPattern
    assert exact.pen().style() == Qt.PenStyle.SolidLine
    assert approx.text.startswith("~2018-02-20")
    assert view.markers[ids["Review"]].text.startswith("Mar 2018")
    # the approximate span is a week wide, the range bar covers its four days
    assert approx.marker_rect().width() == pytest.approx(7 * view.px_per_day)
    vigils = view.markers[ids["Vigils"]]
    assert vigils.marker_rect().width() == pytest.approx(4 * view.px_per_day)
    # date labels on the axis, in order
    assert len(view.view.ticks) >= 2
    xs = [x for x, _label in view.view.ticks]
    assert xs == sorted(xs)
    assert all(label[:4].isdigit() or label[-4:].isdigit() for _x, label in view.view.ticks)


def test_clicking_an_event_selects_it_and_fills_the_evidence_panel(qtbot, ui_workspace):
    ids = _events(ui_workspace)
    window = open_window(qtbot, ui_workspace, ids["case"], date(2018, 3, 5))
    window.case_views.timeline_action.trigger()
    view = window.case_views.timeline
    marker = view.markers[ids["Deputies resign"]]
    centre = marker.mapToScene(marker.marker_rect().center())
    pos = view.view.mapFromScene(centre)
    with qtbot.waitSignal(view.event_selected, timeout=2000) as blocker:
        qtbot.mouseClick(view.view.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert blocker.args == [ids["Deputies resign"]]
    assert view.selected_event_id() == ids["Deputies resign"]
    assert marker.isSelected()
    assert window.evidence.panel.item_id == ids["Deputies resign"]
    assert window.evidence.panel.model.link_count() == 1
    # a click on another event's label moves the selection and the panel
    other = view.markers[ids["Hearing"]]
    label = view.view.mapFromScene(other.mapToScene(other.text_rect().center()))
    qtbot.mouseClick(view.view.viewport(), Qt.MouseButton.LeftButton, pos=label)
    assert window.evidence.panel.item_id == ids["Hearing"]
    # double-click opens the event in its section's editor
    qtbot.mouseDClick(view.view.viewport(), Qt.MouseButton.LeftButton, pos=label)
    assert window.tabs.currentWidget() is window.items.page
    assert window.items.current_item_id() == ids["Hearing"]


def test_zoom_with_keys_and_ctrl_wheel_then_fit(qtbot, ui_workspace):
    ids = _events(ui_workspace)
    window = open_window(qtbot, ui_workspace, ids["case"], date(2018, 3, 5))
    window.case_views.timeline_action.trigger()
    view = window.case_views.timeline
    fitted = view.px_per_day
    width = view.view.sceneRect().width()
    assert width <= view.view.viewport().width() + 1  # fitted: no horizontal scrolling
    view.view.setFocus()
    qtbot.keyClick(view.view, Qt.Key.Key_Plus)
    assert view.px_per_day == pytest.approx(fitted * 1.5)
    wheel = QWheelEvent(QPointF(100, 100), view.view.viewport().mapToGlobal(QPointF(100, 100)),
                        QPoint(0, 0), QPoint(0, 120), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.ControlModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(view.view.viewport(), wheel)
    assert view.px_per_day == pytest.approx(fitted * 1.5 * 1.5)
    assert view.view.sceneRect().width() > view.view.viewport().width()
    qtbot.keyClick(view.view, Qt.Key.Key_Minus)
    assert view.px_per_day == pytest.approx(fitted * 1.5)
    view.fit_button.click()
    assert view.px_per_day < fitted * 1.5
    assert view.view.sceneRect().width() <= view.view.viewport().width() + 1  # all in view


def test_timeline_follows_case_changes(qtbot, ui_workspace):
    ids = _events(ui_workspace)
    window = open_window(qtbot, ui_workspace, ids["case"], date(2018, 3, 5))
    view = window.case_views.timeline
    assert len(view.markers) == 6
    new = window.items.create_item("event", "Funeral", date="2018-02-01", select=False)
    assert new is not None and len(view.markers) == 7
    assert view.events[0].title == "Funeral"
    window.undo()
    assert len(view.markers) == 6
