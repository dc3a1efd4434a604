"""The Graph tab: drawn from the case, a click on an edge shows its evidence, a
dragged node stays pinned where it was put, type-to-find centres a node."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtWidgets import QApplication

from casefile.services import graph
from casefile.services.demo import build_demo
from casefile.ui.docks import in_front


def _graph_window(make_window, ui_workspace, qtbot):
    with ui_workspace.transaction() as s:
        case_id = build_demo(s)[0]
    window = make_window(case_id=case_id)
    window.tabs.setCurrentWidget(window.case_views.graph_tab)
    view = window.case_views.graph
    qtbot.waitUntil(lambda: view.graph is not None and not view.loading, timeout=20000)
    return window, view, case_id


def test_click_on_an_edge_shows_its_evidence(make_window, ui_workspace, qtbot) -> None:
    window, view, _case = _graph_window(make_window, ui_workspace, qtbot)
    assert len(view.nodes) == len(view.graph.nodes) > 5
    edges = view.edges.edges
    # the heaviest "quoted together" edge, clicked half-way along on screen
    n = max((i for i, e in enumerate(edges) if e.relation == graph.QUOTED_TOGETHER),
            key=lambda i: edges[i].weight)
    view.set_scale(1.0)
    line = view.edges.lines[n]
    middle = QPointF((line.x1() + line.x2()) / 2, (line.y1() + line.y2()) / 2)
    view.canvas.centerOn(middle)
    at = view.canvas.mapFromScene(middle)
    assert not isinstance(view.canvas.itemAt(at), type(next(iter(view.nodes.values()))))
    window.docks["suggestions_dock"].raise_()  # another tab in front of Evidence
    QApplication.processEvents()
    assert not in_front(window.evidence_dock)
    qtbot.mouseClick(view.canvas.viewport(), Qt.MouseButton.LeftButton, pos=at)
    assert view.edges.selected == n
    QApplication.processEvents()
    assert in_front(window.evidence_dock)  # the click brings the evidence forward
    panel = window.evidence.panel
    a, b = (view.graph.node(edges[n].source), view.graph.node(edges[n].target))
    assert a.title in panel.title.text() and b.title in panel.title.text()
    shown = {v.passage_id for v in panel.model.evidence.links}
    assert shown == set(edges[n].passages) and shown


def test_drag_pins_a_node_and_find_centres_one(make_window, ui_workspace, qtbot) -> None:
    window, view, case_id = _graph_window(make_window, ui_workspace, qtbot)
    view.set_scale(1.0)
    item = next(i for i in view.nodes.values() if i.node.kind == "person")
    view.canvas.centerOn(item)
    start = view.canvas.mapFromScene(item.pos())
    viewport = view.canvas.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    for step in range(1, 6):
        qtbot.mouseMove(viewport, start + QPoint(12 * step, 8 * step))
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=start + QPoint(60, 40))
    assert item.pinned
    with ui_workspace.transaction() as s:
        kept = graph.saved_layout(s, case_id)
    assert item.node.id in kept.pinned
    assert kept.positions[item.node.id] == (round(item.pos().x(), 1), round(item.pos().y(), 1))
    assert window.evidence.panel.item_id == item.node.id  # a click on a node: its evidence

    other = next(i for i in view.nodes.values() if i is not item and i.node.kind == "place")
    view.canvas.centerOn(item)
    found = view.find_node(other.node.title[2:].upper())
    assert found == other.node.id and other.isSelected()
    centre = view.canvas.mapToScene(viewport.rect().center())
    assert (centre - other.pos()).manhattanLength() < 5
