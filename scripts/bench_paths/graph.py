"""The Graph tab with 2,000 nodes and 10,000 edges: layout time, frame time.

Rows:
- ``graph layout``: :func:`casefile.services.graph.layout_graph` of a synthetic graph (random
  edges, a few heavy ones), seconds; the reference is the budget (5 s: the reporter waits for it
  once per case, on a worker thread).
- ``graph frame (whole graph)`` / ``graph frame (100 %)`` / ``graph frame (dragging)``: one
  synchronous repaint of the Graph view's canvas (1280x800, offscreen), ms, fitted to the whole
  graph, at 100 % zoom, and while a node is being dragged (move + repaint); the reference is
  the same scene drawn the plain Qt way (one QGraphicsLineItem per edge, one ellipse and one
  text item per node) at the same zoom.

Run alone: ``QT_QPA_PLATFORM=offscreen python scripts/bench_paths/graph.py --rounds 15``.
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scripts.bench_paths._common import main as run_main  # noqa: E402
from scripts.bench_paths._common import row  # noqa: E402

NODES, EDGES = 2000, 10000


def plan(sizes: list[int], rounds: int) -> tuple[list[int], int]:
    return [NODES], min(rounds, 15)


def synthetic() -> Any:
    from casefile.services.graph import CaseGraph, GraphEdge, GraphNode

    rng = random.Random(19)
    kinds = ("person", "organization", "place", "document")
    nodes = tuple(GraphNode(i + 1, kinds[i % 4], f"Synthetic {kinds[i % 4]} {i + 1}",
                            confidential=i % 97 == 0) for i in range(NODES))
    pairs: set[tuple[int, int]] = set()
    while len(pairs) < EDGES:
        a, b = rng.randint(1, NODES), rng.randint(1, NODES)
        if a != b:
            pairs.add((min(a, b), max(a, b)))
    relations = ("employed by", "related to", "quoted together", "quoted in")
    edges = tuple(GraphEdge(a, b, relations[(a + b) % 4], rng.choice((1, 1, 1, 2, 5)),
                            (a * 7 + b,)) for a, b in sorted(pairs))
    return CaseGraph(nodes, edges)


def measure(sizes: list[int], rounds: int) -> list[dict[str, Any]]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from casefile.services.graph import layout_graph

    g = synthetic()
    layout_times = []
    positions: dict[int, tuple[float, float]] = {}
    for _ in range(max(1, rounds // 5)):
        started = time.perf_counter()
        positions = layout_graph(g)
        layout_times.append(time.perf_counter() - started)
    rows = [row("graph layout", NODES, {"casefile": layout_times, "reference": [5.0]},
                unit="s", stat="p50", target_ratio=1.0, target_abs=5.0,
                target="layout of 2,000 nodes / 10,000 edges within 5 s",
                notes=f"{EDGES} edges, seeded force layout")]
    rows.extend(_frames(g, positions, rounds))
    return rows


def _frames(g: Any, positions: dict[int, tuple[float, float]], rounds: int
            ) -> list[dict[str, Any]]:
    from PySide6.QtCore import QObject, QPointF, Signal
    from PySide6.QtGui import QPainter, QPen
    from PySide6.QtWidgets import QApplication, QGraphicsScene, QGraphicsView

    from casefile.ui.graph_view import GraphView

    app = QApplication.instance() or QApplication([])

    class _Runner(QObject):  # what GraphView needs of an OperationRunner: case_changed
        case_changed = Signal(object)

    runner = _Runner()
    view = GraphView(runner)  # type: ignore[arg-type]
    view.resize(1280, 800)
    view.show()
    view._show(g, positions, frozenset())
    app.processEvents()

    plain_scene = QGraphicsScene()
    pen = QPen()
    for e in g.edges:
        (ax, ay), (bx, by) = positions[e.source], positions[e.target]
        plain_scene.addLine(ax, ay, bx, by, pen)
    for n in g.nodes:
        x, y = positions[n.id]
        plain_scene.addEllipse(x - 10, y - 10, 20, 20)
        text = plain_scene.addSimpleText(n.title)
        text.setPos(x - 40, y + 12)
    plain = QGraphicsView(plain_scene)
    plain.setRenderHint(QPainter.RenderHint.Antialiasing)
    plain.resize(1280, 800)
    plain.show()
    app.processEvents()

    def frame(widget: Any) -> float:
        started = time.perf_counter()
        widget.viewport().repaint()
        return (time.perf_counter() - started) * 1000

    out = []
    for name, setup in (("whole graph", "fit"), ("100 %", "one")):
        if setup == "fit":
            view.fit()
            plain.fitInView(plain_scene.itemsBoundingRect())
        else:
            view.set_scale(1.0)
            centre = view.scene.itemsBoundingRect().center()
            view.canvas.centerOn(centre)
            plain.resetTransform()
            plain.centerOn(centre)
        app.processEvents()
        times: dict[str, list[float]] = {"casefile": [], "reference": []}
        for _ in range(rounds):
            times["casefile"].append(frame(view.canvas))
            times["reference"].append(frame(plain))
        out.append(row(f"graph frame ({name})", len(g.nodes), times, unit="ms", stat="p95",
                       target_ratio=1.5, target_abs=100.0,
                       target="p95 repaint <= 100 ms and <= 1.5x plain QGraphicsScene",
                       notes=f"{len(g.edges)} edges, 1280x800 offscreen"))
    # selecting a node: the repaint a click or hover causes
    sel: dict[str, list[float]] = {"casefile": [], "reference": []}
    items = list(view.nodes.values())
    plain_items = plain_scene.items()
    for step in range(rounds):
        started = time.perf_counter()
        items[step].setSelected(True)
        view.canvas.viewport().repaint()
        sel["casefile"].append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        plain_items[step].setSelected(True)
        plain.viewport().repaint()
        sel["reference"].append((time.perf_counter() - started) * 1000)
    out.append(row("graph frame (selecting)", len(g.nodes), sel, unit="ms", stat="p95",
                   target_ratio=1.5, target_abs=100.0,
                   target="p95 select + repaint <= 100 ms and <= 1.5x plain QGraphicsScene",
                   notes="100 % zoom"))
    # dragging: move the best-connected node a little, then repaint
    hub = max(view.nodes.values(), key=lambda item: len(view.edges._ends.get(item.node.id, ())))
    view.canvas.centerOn(hub)
    drag: dict[str, list[float]] = {"casefile": [], "reference": []}
    plain_item = plain_scene.items()[0]
    view.edges.lift(hub.node.id)  # as a press on the node does
    app.processEvents()
    for step in range(rounds):
        started = time.perf_counter()
        hub.setPos(hub.pos() + QPointF(3 if step % 2 else -3, 2))
        view.canvas.viewport().repaint()
        drag["casefile"].append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        plain_item.setPos(plain_item.pos() + QPointF(3 if step % 2 else -3, 2))
        plain.viewport().repaint()
        drag["reference"].append((time.perf_counter() - started) * 1000)
    view.edges.lift(None)
    out.append(row("graph frame (dragging)", len(g.nodes), drag, unit="ms", stat="p95",
                   target_ratio=1.5, target_abs=50.0,
                   target="p95 move + repaint <= 50 ms and <= 1.5x plain QGraphicsScene",
                   notes="the most connected node, 100 % zoom"))
    view.close()
    plain.close()
    for widget in (view, plain):
        widget.deleteLater()
    app.processEvents()
    _keep.extend([view, plain, plain_scene, runner])  # freed at exit, after Qt's own teardown
    return out


_keep: list[Any] = []


def main(argv: list[str] | None = None) -> int:
    return run_main(lambda sizes, rounds: measure(*plan(sizes, rounds)), __doc__ or "", 15,
                    argv)


if __name__ == "__main__":
    raise SystemExit(main())
