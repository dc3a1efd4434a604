"""The graph as a new user meets it: Find, Fit and Export within reach beside the Evidence dock
on a laptop screen, a PNG export that is really written (or says why not), and labels at the
fitted view of a large graph that do not overlap."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from casefile.services import cases, items, relationships
from casefile.services.demo import build_demo
from casefile.ui import graph_view as graph_module
from casefile.ui.graph_view import KIND_COLOURS


def _open_graph(make_window, qtbot, case_id, width=1366, height=768):
    window = make_window(case_id=case_id)
    window.resize(width, height)
    window.evidence.dock.show()
    window.evidence.dock.raise_()
    window.tabs.setCurrentWidget(window.case_views.graph_tab)
    view = window.case_views.graph
    qtbot.waitUntil(lambda: view.graph is not None and not view.loading, timeout=30000)
    QApplication.processEvents()
    return window, view


@pytest.mark.parametrize("width", [1366, 1024])
def test_find_fit_and_export_are_on_screen_beside_the_evidence_dock(
        make_window, ui_workspace, qtbot, width) -> None:
    with ui_workspace.transaction() as s:
        case_id = build_demo(s)[0]
    window, view = _open_graph(make_window, qtbot, case_id, width)
    assert window.width() <= width and window.evidence.dock.isVisible()
    assert not window.evidence.dock.isFloating()
    inside = QRect(0, 0, window.width(), window.height())
    for control in (view.find_edit, view.fit_button, view.export_button):
        assert control.isVisible(), control
        top_left = control.mapTo(window, control.rect().topLeft())
        assert inside.contains(QRect(top_left, control.size())), (control, top_left)
        # not covered by the dock
        assert top_left.x() + control.width() <= window.evidence.dock.x()
    qtbot.keyClicks(view.find_edit, "Ruth")
    assert view.find_node(view.find_edit.text()) is not None


def test_a_png_export_is_a_picture_of_the_graph(make_window, ui_workspace, qtbot,
                                                tmp_path: Path) -> None:
    with ui_workspace.transaction() as s:
        case_id = build_demo(s)[0]
    _window, view = _open_graph(make_window, qtbot, case_id)
    out = view.export(tmp_path / "graph.png")
    if shots := os.environ.get("CASEFILE_SHOTS"):  # for looking at it
        shutil.copy(out, Path(shots) / "graph-export.png")
    image = QImage(str(out))
    assert not image.isNull() and image.width() > 300 and image.height() > 200
    colours: dict[str, int] = {}
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            name = image.pixelColor(x, y).name()
            colours[name] = colours.get(name, 0) + 1
    for kind in ("person", "organization", "place"):
        assert colours.get(KIND_COLOURS[kind], 0) > 10, kind  # each kind's nodes are drawn
    # every node's label is written under it (the image is at scale 1 for a graph this small)
    origin = view.scene.itemsBoundingRect().adjusted(-40, -40, 40, 60).topLeft()
    for item in view.nodes.values():
        at = item.pos() - origin
        dark = sum(1 for y in range(int(at.y() + item.radius + 2), int(at.y() + item.radius + 16))
                   for x in range(int(at.x() - 30), int(at.x() + 30))
                   if image.pixelColor(x, y).lightness() < 80)
        assert dark > 15, item.node.title


def test_a_png_export_that_cannot_be_written_says_why(make_window, ui_workspace, qtbot,
                                                      tmp_path: Path, monkeypatch) -> None:
    with ui_workspace.transaction() as s:
        case_id = build_demo(s)[0]
    window, view = _open_graph(make_window, qtbot, case_id)
    target = tmp_path / "gone" / "graph.png"  # its folder does not exist
    monkeypatch.setattr(graph_module.QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(target), ""))
    said: list[str] = []
    monkeypatch.setattr(graph_module.QMessageBox, "warning",
                        lambda _parent, title, text: said.append(f"{title}: {text}"))
    assert view.prompt_export("png") is None
    assert len(said) == 1 and said[0].startswith("Graph not exported: graph.png could not be "
                                                 "written")
    assert not target.exists()
    monkeypatch.setattr(graph_module.QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(tmp_path / "graph"), ""))
    written = view.prompt_export("png")
    assert written == tmp_path / "graph.png" and not QImage(str(written)).isNull()
    assert window.statusBar().currentMessage() == f"Graph exported to {written}"


def test_the_fitted_view_of_a_large_graph_has_labels_that_do_not_overlap(
        make_window, ui_workspace, qtbot) -> None:
    with ui_workspace.transaction() as s:
        case_id = cases.create_case(s, "Many people").id
        people = [items.create_item(s, case_id, "person", f"Person number {n}").id
                  for n in range(160)]
        for n in range(1, 160):
            relationships.add_relationship(s, people[n], people[(n * 7) % n], "related to")
    window, view = _open_graph(make_window, qtbot, case_id)
    view.fit()
    QApplication.processEvents()
    assert len(view.nodes) == 160
    shown = [item for item in view.nodes.values() if item.label.isVisible()]
    assert len(shown) >= 8, len(shown)  # the fitted view is labelled...
    canvas = view.canvas
    rects = [canvas.mapFromScene(item.label.sceneBoundingRect()).boundingRect()
             for item in shown]
    for i, a in enumerate(rects):  # ...and no two labels overlap
        for b in rects[i + 1:]:
            assert not a.adjusted(1, 1, -1, -1).intersects(b.adjusted(1, 1, -1, -1)), (a, b)
    hub = max(view.nodes.values(), key=lambda item: item.radius)
    assert hub.label.isVisible()  # the most connected node is among them
    assert len(shown) < 60  # and the graph is not buried under its labels
    # zoomed in and panned to a node far from the hub: its label shows once the pan pauses
    view.set_scale(1.0)
    far = max(view.nodes.values(), key=lambda item: (item.pos() - hub.pos()).manhattanLength())
    assert not far.label.isVisible() or far is hub
    canvas.centerOn(far)
    qtbot.waitUntil(lambda: far.label.isVisible(), timeout=3000)
