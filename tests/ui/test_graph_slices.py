"""A big graph is put on the Graph tab's scene a slice per event-loop turn (ARCHITECTURE.md,
"The window"): the window answers meanwhile, and the scene ends with the same nodes and edges
as the case's graph; a newer graph abandons an unfinished build."""

from __future__ import annotations

import random
import time

from PySide6.QtCore import QObject, QTimer, Signal

from casefile.services.graph import CaseGraph, GraphEdge, GraphNode, layout_graph
from casefile.ui import graph_view
from casefile.ui.graph_view import GraphView


class _Runner(QObject):  # what GraphView needs of an OperationRunner
    case_changed = Signal(object)


def _graph(nodes: int, edges: int, seed: int = 29) -> CaseGraph:
    rng = random.Random(seed)
    kinds = ("person", "organization", "place", "document")
    ns = tuple(GraphNode(i + 1, kinds[i % 4], f"Invented {kinds[i % 4]} {i + 1}")
               for i in range(nodes))
    pairs: set[tuple[int, int]] = set()
    while len(pairs) < edges:
        a, b = rng.randint(1, nodes), rng.randint(1, nodes)
        if a != b:
            pairs.add((min(a, b), max(a, b)))
    es = tuple(GraphEdge(a, b, "related to", 1, ()) for a, b in sorted(pairs))
    return CaseGraph(ns, es)


def test_a_big_graph_is_put_on_the_scene_in_slices(qtbot, monkeypatch) -> None:
    monkeypatch.setattr(graph_view, "BUILD_SLICE", 0.002)
    runner = _Runner()
    view = GraphView(runner)  # type: ignore[arg-type]
    qtbot.addWidget(view)
    view.resize(1000, 700)
    view.show()
    first = _graph(300, 600)
    positions = layout_graph(first)
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start()
    view._show(first, positions, frozenset([5]))
    assert view.loading and len(view.nodes) < 300  # the first slice only, so far
    with qtbot.waitSignal(view.loaded, timeout=20000):
        pass
    timer.stop()
    gaps = [(b - a) * 1000 for a, b in zip(ticks, ticks[1:], strict=False)]
    print(f"{view.build_slices} slices; event-loop gaps: max {max(gaps, default=0):.0f} ms")
    assert view.build_slices > 1 and not view.loading
    assert set(view.nodes) == {n.id for n in first.nodes}
    assert {(e.source, e.target) for e in view.edges.edges} == {
        (e.source, e.target) for e in first.edges}
    assert all((view.nodes[i].pos().x(), view.nodes[i].pos().y()) == positions[i]
               for i in view.nodes)
    assert view.nodes[5].pinned and not view.nodes[6].pinned
    scene_nodes = [i for i in view.scene.items() if isinstance(i, graph_view.NodeItem)]
    assert len(scene_nodes) == 300

    # a newer graph while one is being built: only the newer one is on the scene at the end
    second = _graph(120, 200, seed=3)
    view._show(first, positions, frozenset())
    view._show(second, layout_graph(second), frozenset())
    qtbot.waitUntil(lambda: not view.loading, timeout=20000)
    qtbot.wait(20)
    assert set(view.nodes) == {n.id for n in second.nodes}
    assert len([i for i in view.scene.items() if isinstance(i, graph_view.NodeItem)]) == 120
    assert len(view.edges.edges) == 200
