"""The Graph tab: the case's people, organizations, places and documents and what connects them
drawn from :mod:`casefile.services.graph`.

Nodes are drawn by kind (person: circle, organization: rounded square, place: diamond,
document: page), confidential ones with a dashed red outline and a padlock, pinned ones with a
pin dot. Edges are one layer item that draws every line in a few ``drawLines`` calls (typed
relationships solid, affiliations dashed, "quoted together" teal, "quoted in" dotted grey;
thicker for more evidence). Labels keep their size on screen and hide when zoomed far out.

Mouse and keys: drag a node to move it (it stays pinned there; the position is kept with the
case), drag the background to pan, wheel or Ctrl+= / Ctrl+- to zoom, Ctrl+0 to fit. Click a
node or an edge: ``item_selected`` / ``edge_selected`` (the window fills the evidence panel);
double-click a node: ``item_activated`` (its editor). The layout is computed on a worker thread
(``OperationRunner.start``); the view reloads from ``case_changed`` only.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QByteArray,
    QDate,
    QPointF,
    QRectF,
    QSize,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import (
    QAction,
    QColor,
    QFont,
    QImage,
    QImageWriter,
    QKeySequence,
    QPainter,
)
from PySide6.QtWidgets import (
    QCompleter,
    QDateEdit,
    QFileDialog,
    QGraphicsScene,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QMessageBox,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from casefile.services import graph as graph_service
from casefile.services.graph import (
    EDGE_RELATIONS,
    NODE_KINDS,
    CaseGraph,
    GraphEdge,
    GraphFilter,
)
from casefile.ui.flow_layout import FlowLayout
from casefile.ui.graph_items import (
    EDGE_HIT_PX,
    FAST_EDGES,
    KIND_COLOURS,
    KIND_LABELS,
    LABEL_AREA,
    LABEL_MIN_SCALE,
    LABEL_WIDTH,
    LABELS_ALWAYS_UP_TO,
    MAX_SCALE,
    MIN_SCALE,
    ZOOM_STEP,
    EdgeLayer,
    GraphCanvas,
    LiftedEdges,
    NodeItem,
    node_radius,
)
from casefile.ui.operations import CaseChange, Job, OperationRunner
from casefile.ui.recent_folder import dialog_folder, remember_folder
from casefile.ui.widgets import debounce_timer, wrapped_label

#: Seconds of the GUI thread a graph's build takes at most in one event-loop turn (see
#: GraphView._show): a slice of node items made, then the window paints and answers (a
#: repaint of a 2,000-node scene takes ~35 ms more).
BUILD_SLICE = 0.012
#: What a build's step yields to end its event-loop turn at once (before a costly step).
TURN = True

__all__ = [
    "EDGE_HIT_PX", "FAST_EDGES", "KIND_COLOURS", "KIND_LABELS", "LABELS_ALWAYS_UP_TO",
    "LABEL_AREA", "LABEL_MIN_SCALE", "LABEL_WIDTH", "MAX_SCALE", "MIN_SCALE", "ZOOM_STEP",
    "EdgeLayer", "GraphCanvas", "GraphView", "LiftedEdges", "NodeItem", "node_radius",
]


class GraphView(QWidget):
    """The Graph tab (module docstring).

    Signals: ``item_selected(int)`` (a node clicked), ``item_activated(int, str)`` (a node
    double-clicked: id and kind), ``edge_selected(object)`` (a :class:`GraphEdge` clicked),
    ``loaded()`` after each (re)load has been drawn.
    """

    item_selected = Signal(int)
    item_activated = Signal(int, str)
    edge_selected = Signal(object)
    loaded = Signal()

    def __init__(self, runner: OperationRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.case_id: int | None = None
        self.graph: CaseGraph | None = None
        self.nodes: dict[int, NodeItem] = {}
        self.labels_shown = True
        self.labelled: set[int] = set()  # the nodes whose labels are shown (_update_labels)
        self.loading = False
        self._pending: tuple[bool] | None = None
        self._build_id = 0  # the graphs put on the scene so far (see _show)
        self._current: Iterator[bool | None] | None = None  # the steps of the build under way
        self.build_slices = 0  # event-loop turns the last build took (tests look)
        self.placed: set[NodeItem] = set()  # the node items on the scene
        self._fit_next = True
        self.label_font = QFont(self.font())
        self.label_font.setPointSizeF(max(8.0, self.font().pointSizeF() * 0.9))
        self.scene = QGraphicsScene(self)
        self.scene.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self.edges = EdgeLayer()
        self.scene.addItem(self.edges)
        self.scene.addItem(self.edges.lifted)
        self.scene.selectionChanged.connect(self._on_selection_changed)
        self.canvas = GraphCanvas(self)
        # the labels in view are chosen again when a pan pauses (not on every scroll step)
        self._label_timer = debounce_timer(self, 80, self._update_labels)
        self.canvas.horizontalScrollBar().valueChanged.connect(self._labels_later)
        self.canvas.verticalScrollBar().valueChanged.connect(self._labels_later)
        self.canvas.setObjectName("graph_canvas")

        # a flow of groups, not a QToolBar: outside a main window a tool bar hides what does
        # not fit behind a "»" button that never opens (beside the Evidence dock at 1366 px that
        # was Find, Fit and Export); here a group that does not fit goes to the next line
        bar = QWidget()
        bar.setObjectName("graph_bar")
        flow = FlowLayout(bar, spacing=8)
        flow.setContentsMargins(6, 3, 6, 3)

        def group(*widgets: QWidget) -> QWidget:
            box = QWidget()
            row = QHBoxLayout(box)
            row.setContentsMargins(0, 0, 0, 0)
            row.setSpacing(2)
            for widget in widgets:
                row.addWidget(widget)
            flow.addWidget(box)
            return box

        self.kind_buttons: dict[str, QToolButton] = {}
        for kind in NODE_KINDS:
            button = QToolButton()
            button.setText(KIND_LABELS[kind])
            button.setCheckable(True)
            button.setChecked(True)
            button.setToolTip(f"Show {KIND_LABELS[kind].lower()}")
            button.setStyleSheet(f"QToolButton:checked {{ border-bottom: 3px solid "
                                 f"{KIND_COLOURS[kind]}; }}")
            button.toggled.connect(self._on_filter_changed)
            self.kind_buttons[kind] = button
        self.relations_button = QToolButton()
        self.relations_button.setText("Relations")
        self.relations_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.relations_button)
        self.relation_actions: dict[str, QAction] = {}
        for relation in EDGE_RELATIONS:
            action = menu.addAction(relation)
            action.setCheckable(True)
            action.setChecked(True)
            action.toggled.connect(self._on_filter_changed)
            self.relation_actions[relation] = action
        self.relations_button.setMenu(menu)
        group(*self.kind_buttons.values(), self.relations_button)
        self.since_edit = self._date_edit("since_edit")
        self.until_edit = self._date_edit("until_edit")
        group(QLabel("From"), self.since_edit, QLabel("to"), self.until_edit)
        self.find_edit = QLineEdit()
        self.find_edit.setObjectName("graph_find")
        self.find_edit.setPlaceholderText("Find a node\u2026")
        self.find_edit.setClearButtonEnabled(True)
        self.find_edit.returnPressed.connect(lambda: self.find_node(self.find_edit.text()))
        self.completer = QCompleter([], self)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.completer.activated.connect(self.find_node)
        self.find_edit.setCompleter(self.completer)
        self.find_edit.setMinimumWidth(140)
        self.relayout_button = QToolButton()
        self.relayout_button.setText("Re-layout")
        self.relayout_button.setToolTip("Lay out every node again (pinned nodes stay)")
        self.relayout_button.clicked.connect(lambda: self.reload(relayout=True))
        self.fit_button = QToolButton()
        self.fit_button.setText("Fit")
        self.fit_button.setToolTip("Show the whole graph (Ctrl+0)")
        self.fit_button.clicked.connect(self.fit)
        self.export_button = QToolButton()
        self.export_button.setText("Export")
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        export_menu = QMenu(self.export_button)
        export_menu.addAction("As PNG image\u2026", lambda: self.prompt_export("png"))
        export_menu.addAction("As SVG drawing\u2026", lambda: self.prompt_export("svg"))
        self.export_button.setMenu(export_menu)
        group(self.find_edit, self.fit_button, self.export_button, self.relayout_button)

        self.status = wrapped_label(name="graph_status")
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(bar)
        layout.addWidget(self.canvas, 1)
        layout.addWidget(self.status)

        for keys, slot in (("Ctrl+=", lambda: self.zoom_by(ZOOM_STEP)),
                           ("Ctrl++", lambda: self.zoom_by(ZOOM_STEP)),
                           ("Ctrl+-", lambda: self.zoom_by(1 / ZOOM_STEP)),
                           ("Ctrl+0", self.fit)):
            action = QAction(self)
            action.setShortcut(QKeySequence(keys))
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            action.triggered.connect(slot)
            self.addAction(action)
        self.runner.case_changed.connect(self._on_case_changed)

    def _date_edit(self, name: str) -> QDateEdit:
        edit = QDateEdit()
        edit.setObjectName(name)
        edit.setCalendarPopup(True)
        edit.setDisplayFormat("yyyy-MM-dd")
        edit.setMinimumDate(QDate(1900, 1, 1))
        edit.setSpecialValueText("any")
        edit.setDate(edit.minimumDate())
        edit.dateChanged.connect(self._on_filter_changed)
        return edit

    # -- data -------------------------------------------------------------------------------

    def current_filter(self) -> GraphFilter:
        """The filter the controls say."""
        def day(edit: QDateEdit) -> date | None:
            if edit.date() == edit.minimumDate():
                return None
            value = edit.date().toPython()
            return value if isinstance(value, date) else None

        kinds = frozenset(k for k, b in self.kind_buttons.items() if b.isChecked())
        relations = frozenset(r for r, a in self.relation_actions.items() if a.isChecked())
        since, until = day(self.since_edit), day(self.until_edit)
        if since and until and since > until:
            since, until = until, since
        return GraphFilter(kinds=kinds, relations=relations, since=since, until=until)

    def set_case(self, case_id: int | None) -> None:
        """Show a case's graph (None: nothing), fitted to the view."""
        self.case_id = case_id
        self._fit_next = True
        self.reload()

    def reload(self, relayout: bool = False) -> None:
        """Read the graph again and lay out what has no position yet (``relayout``: every
        unpinned node), on a worker thread."""
        if self.case_id is None:
            self._show(CaseGraph((), ()), {}, frozenset())
            return
        if self.loading:  # one at a time: the last request wins
            self._pending = (relayout,)
            return
        self.loading = True
        case_id, chosen = self.case_id, self.current_filter()
        if not chosen.kinds:
            self.loading = False
            self._show(CaseGraph((), ()), {}, frozenset())
            return
        self.status.setText("Laying out the graph\u2026")
        started = time.perf_counter()

        def work(session: Any, _job: Job) -> Any:
            return graph_service.graph_with_layout(session, case_id, chosen, relayout=relayout)

        def done(job: Job) -> None:
            if job.outcome == "succeeded" and self.case_id == case_id:
                graph, positions, pinned = job.result
                self.layout_seconds = time.perf_counter() - started
                self._show(graph, positions, pinned)  # loading until it is on the scene
                return
            self.loading = False
            if job.outcome != "succeeded":
                self.status.setText(job.error or "The graph could not be drawn.")
            self._next_request()

        self.runner.start(work, label="laying out the graph", change=None, progress=False,
                          on_done=done, parent=self)

    def _next_request(self) -> None:
        """Run the reload asked for while one was under way, if any."""
        if self._pending is not None:
            pending, self._pending = self._pending, None
            self.reload(*pending)

    def _show(self, graph: CaseGraph, positions: dict[int, tuple[float, float]],
              pinned: frozenset[int]) -> None:
        """Put ``graph`` on the scene, its nodes at ``positions`` (scene units), in slices of
        at most :data:`BUILD_SLICE` seconds of the GUI thread, one per event-loop turn (the
        old items taken off, the node items made, the edges' lines grouped), so that a big
        graph never holds the window (ARCHITECTURE.md, "The window"). The view is fitted to
        the positions first, so each node is drawn once, at its final zoom. :attr:`loading`
        stays True until the last slice, which emits ``loaded``; a later call abandons an
        unfinished build."""
        self._build_id += 1
        self.loading = True
        self.build_slices = 0
        self._current = self._build(graph, positions, pinned)
        self._steps(self._build_id)

    def _steps(self, build_id: int) -> None:
        """Run the current build for one slice; the next slice in the next turn."""
        steps = self._current
        if build_id != self._build_id or steps is None:
            return  # a newer graph is being put on the scene, or this one is done
        deadline = time.perf_counter() + BUILD_SLICE
        self.build_slices += 1
        for step in steps:
            if step is TURN or time.perf_counter() >= deadline:
                QTimer.singleShot(0, lambda: self._steps(build_id))
                return
        if self._current is steps:  # (its end may have started the next one)
            self._current = None

    def complete_build(self) -> None:
        """Run what is left of the graph's build now (tests and benchmarks)."""
        while self._current is not None:
            steps = self._current
            for _ in steps:
                pass
            if self._current is steps:
                self._current = None

    def _build(self, graph: CaseGraph, positions: dict[int, tuple[float, float]],
               pinned: frozenset[int]) -> Iterator[bool | None]:
        selected = self.selected_item_id()
        old = list(self.placed)  # an unfinished build's too
        self.nodes = {}
        self.graph = graph
        self.edges.set_edges([], {})
        if self._fit_next and positions:
            self._fit_next = False
            xs = [positions.get(n.id, (0.0, 0.0))[0] for n in graph.nodes]
            ys = [positions.get(n.id, (0.0, 0.0))[1] for n in graph.nodes]
            if xs:
                pad = node_radius(10 ** 6) + 4
                self.fit_rect(QRectF(min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad,
                                     max(ys) - min(ys) + 2 * pad), labels=False)
        for item in old:  # hidden at once: the view repaints an empty scene, not each slice
            item.setVisible(False)
        self.scene.blockSignals(True)
        try:
            for k, item in enumerate(old):
                self.scene.removeItem(item)
                self.placed.discard(item)
                if k % 10 == 9:
                    yield None
        finally:
            self.scene.blockSignals(False)
        degree: dict[int, int] = {}
        for e in graph.edges:
            degree[e.source] = degree.get(e.source, 0) + 1
            degree[e.target] = degree.get(e.target, 0) + 1
        points: dict[int, QPointF] = {}
        # left to right: each turn's new nodes lie in one strip of the view, which is all
        # that is painted again then (not the whole scene)
        order = sorted(graph.nodes, key=lambda n: positions.get(n.id, (0.0, 0.0))[0])
        for k, node in enumerate(order):
            item = NodeItem(node, node_radius(degree.get(node.id, 0)), self)
            item.label.setVisible(False)  # the labels that fit are chosen at the end
            x, y = positions.get(node.id, (0.0, 0.0))
            item.setPos(x, y)
            item.pinned = node.id in pinned
            self.scene.addItem(item)
            self.placed.add(item)
            self.nodes[node.id] = item
            points[node.id] = QPointF(x, y)
            if k % 20 == 19:
                yield None
        yield from self.edges.fill(list(graph.edges), points)
        for _ in self.edges.reveal():
            yield TURN  # a strip of the lines is drawn in each turn
        yield from self._built(graph, selected)

    def _built(self, graph: CaseGraph, selected: int | None) -> Iterator[bool | None]:
        """The last steps of a build: selection, scene size, completer, status; labels."""
        if selected in self.nodes:
            self.nodes[selected].setSelected(True)
        self.scene.setSceneRect(self.scene.itemsBoundingRect().adjusted(-200, -200, 200, 200))
        self.completer.model().setStringList(sorted({n.title for n in graph.nodes},  # type: ignore[attr-defined]
                                                    key=str.casefold))
        n, m = len(graph.nodes), len(graph.edges)
        self.status.setText(
            f"{n} node{'s' if n != 1 else ''}, {m} edge{'s' if m != 1 else ''}. "
            "Drag a node to pin it; drag the background to pan; wheel to zoom; "
            "click a node or an edge for its evidence; double-click to edit." if n else
            "Nothing to draw: no people, organizations, places or documents"
            + (" in this selection." if self.case_id is not None else "."))
        yield TURN
        if self._fit_next:
            self._fit_next = False
            self.fit()
        else:
            self._update_labels()
        self.loading = False
        self.loaded.emit()
        self._next_request()

    @Slot(object)
    def _on_case_changed(self, ch: CaseChange) -> None:
        if ch.case_id is None or ch.case_id != self.case_id:
            return
        if (ch.structural or ch.evidence or any(ch.touches(k) for k in NODE_KINDS)):
            self.reload()

    @Slot()
    def _on_filter_changed(self, *_args: object) -> None:
        self.reload()

    # -- interaction ------------------------------------------------------------------------

    def selected_item_id(self) -> int | None:
        """The id of the selected node, or None."""
        for item in self.scene.selectedItems():
            if isinstance(item, NodeItem):
                return item.node.id
        return None

    @Slot()
    def _on_selection_changed(self) -> None:
        item_id = self.selected_item_id()
        if item_id is not None:
            if self.edges.selected is not None:
                self.edges.selected = None
                self.edges.update()
            self.item_selected.emit(item_id)

    def click_background(self, point: QPointF) -> GraphEdge | None:
        """A click not on a node: select the edge under it (within a few pixels), if any."""
        scale = self.canvas.transform().m11() or 1.0
        index = self.edges.edge_at(point, EDGE_HIT_PX / scale)
        if index is None:
            return None
        return self.select_edge(index)

    def select_edge(self, index: int) -> GraphEdge:
        """Select edge ``index`` of the layer and say so (``edge_selected``)."""
        self.scene.clearSelection()
        self.edges.selected = index
        self.edges.update()
        edge = self.edges.edges[index]
        self.edge_selected.emit(edge)
        return edge

    def edge_title(self, edge: GraphEdge) -> str:
        """How the evidence panel names an edge: "Jane Roe — employed by — City Hall"."""
        graph = self.graph

        def title(item_id: int) -> str:
            node = graph.node(item_id) if graph is not None else None
            return node.title if node is not None else f"item {item_id}"

        return f"{title(edge.source)} \u2014 {edge.relation} \u2014 {title(edge.target)}"

    def node_dropped(self, item: NodeItem) -> None:
        """A node was dragged somewhere: pin it there and keep the position."""
        item.pinned = True
        item.update()
        if self.case_id is None:
            return
        case_id = self.case_id
        pinned = {i for i, n in self.nodes.items() if n.pinned}
        pos = (item.pos().x(), item.pos().y())
        self.runner.run(lambda s: graph_service.save_layout(
            s, case_id, {item.node.id: pos}, pinned=pinned | self._hidden_pins(s, case_id)),
            change=None, label="keeping the graph's positions")

    def _hidden_pins(self, session: Any, case_id: int) -> set[int]:
        """Pins of nodes the current filter hides (kept as they are)."""
        saved = graph_service.saved_layout(session, case_id)
        return {i for i in saved.pinned if i not in self.nodes}

    def find_node(self, text: str) -> int | None:
        """Select and centre the first node whose title contains ``text`` (ignoring case;
        an exact title first); returns its id."""
        wanted = " ".join(text.split()).casefold()
        if not wanted or self.graph is None:
            return None
        nodes = list(self.graph.nodes)
        match = next((n for n in nodes if n.title.casefold() == wanted), None) or next(
            (n for n in nodes if wanted in n.title.casefold()), None)
        if match is None:
            self.status.setText(f"No node named \u201c{text.strip()}\u201d here.")
            return None
        item = self.nodes[match.id]
        self.scene.clearSelection()
        item.setSelected(True)
        if self.canvas.transform().m11() < 0.8:
            self.set_scale(1.0)
        self._room_around(item.pos())
        self.canvas.centerOn(item)
        return match.id

    def _room_around(self, point: QPointF) -> None:
        """Widen the scene rectangle so ``point`` can be scrolled to the middle of the view."""
        scale = self.canvas.transform().m11() or 1.0
        half_w = self.canvas.viewport().width() / scale / 2 + 20
        half_h = self.canvas.viewport().height() / scale / 2 + 20
        wanted = QRectF(point.x() - half_w, point.y() - half_h, 2 * half_w, 2 * half_h)
        rect = self.scene.sceneRect()
        if not rect.contains(wanted):
            self.scene.setSceneRect(rect.united(wanted))

    def set_scale(self, scale: float) -> None:
        """Zoom to ``scale`` (1.0: 100 %)."""
        scale = max(MIN_SCALE, min(MAX_SCALE, scale))
        self.canvas.resetTransform()
        self.canvas.scale(scale, scale)
        self._update_labels()

    def zoom_by(self, factor: float) -> None:
        """Zoom in (``factor`` > 1) or out, around the pointer when it is over the view."""
        current = self.canvas.transform().m11()
        factor = max(MIN_SCALE, min(MAX_SCALE, current * factor)) / current
        self.canvas.scale(factor, factor)
        self._update_labels()

    def fit(self) -> None:
        """Show the whole graph."""
        self.fit_rect(self.scene.itemsBoundingRect())

    def fit_rect(self, rect: QRectF, labels: bool = True) -> None:
        """Show ``rect`` (scene units) whole, at 150 % at most; the labels chosen again
        unless ``labels`` is False."""
        if rect.isEmpty():
            self.canvas.resetTransform()
            return
        self.canvas.fitInView(rect.adjusted(-60, -40, 60, 60), Qt.AspectRatioMode.KeepAspectRatio)
        if self.canvas.transform().m11() > 1.5:
            self.canvas.resetTransform()
            self.canvas.scale(1.5, 1.5)
            self.canvas.centerOn(rect.center())
        if labels:
            self._update_labels()

    def _update_labels(self) -> None:
        """Show the labels that fit in the view at the current zoom (:meth:`label_choice`),
        the selected node's always."""
        viewport = self.canvas.viewport().rect()
        seen = self.canvas.mapToScene(viewport).boundingRect()
        chosen = self.label_choice(self.canvas.transform().m11(), seen)
        self.labelled = chosen
        self.labels_shown = len(chosen) == len(self.nodes)
        for node_id, item in self.nodes.items():
            visible = node_id in chosen or item.isSelected()
            if item.label.isVisible() != visible:
                item.label.setVisible(visible)

    def _labels_later(self, *_args: object) -> None:
        """After a pan: choose the labels again once the scrolling pauses."""
        self._label_timer.start()

    def label_choice(self, scale: float, seen: QRectF | None = None) -> set[int]:
        """The nodes whose labels are shown at zoom ``scale``: all of them for a small graph
        seen at :data:`LABEL_MIN_SCALE` or closer, else as many as fit without overlapping
        one another, the most connected (largest) nodes first; zoomed out beyond
        :data:`LABEL_MIN_SCALE`, at most one per :data:`LABEL_AREA` square pixels of ``seen``
        (the part of the scene in view, whose labels must lie inside it; None: the whole
        graph). Labels keep their size on screen,
        so the further out, the fewer fit, but the fitted view always has some."""
        if not self.nodes:
            return set()
        if scale >= LABEL_MIN_SCALE and len(self.nodes) <= LABELS_ALWAYS_UP_TO:
            return set(self.nodes)
        limit = len(self.nodes)
        if seen is not None and scale < LABEL_MIN_SCALE:
            limit = max(8, int(seen.width() * seen.height() * scale * scale / LABEL_AREA))
        cell = 120.0 / scale  # scene units per grid cell
        grid: dict[tuple[int, int], list[QRectF]] = {}
        chosen: set[int] = set()
        order = sorted(self.nodes.items(), key=lambda kv: (not kv[1].isSelected(),
                                                           -kv[1].radius, kv[1].node.title))
        for node_id, item in order:
            if len(chosen) >= limit:
                break
            box = item.label.boundingRect()
            w, h = (box.width() + 6) / scale, (box.height() + 2) / scale
            at = item.pos()
            rect = QRectF(at.x() - w / 2, at.y() + item.radius + 1, w, h)
            if seen is not None and not seen.contains(rect):
                continue
            cells = [(cx, cy)
                     for cx in range(math.floor(rect.left() / cell),
                                     math.floor(rect.right() / cell) + 1)
                     for cy in range(math.floor(rect.top() / cell),
                                     math.floor(rect.bottom() / cell) + 1)]
            if any(rect.intersects(other) for c in cells for other in grid.get(c, ())):
                continue
            for c in cells:
                grid.setdefault(c, []).append(rect)
            chosen.add(node_id)
        return chosen

    # -- export -----------------------------------------------------------------------------

    def prompt_export(self, fmt: str) -> Path | None:
        """Export ▸ As PNG/SVG: choose a file and write the whole graph to it; a file that
        cannot be written is said in a message box (None is returned)."""
        suffix = "." + fmt
        name, _filter = QFileDialog.getSaveFileName(
            self, "Export the graph", str(dialog_folder() / f"graph{suffix}"),
            "PNG images (*.png)" if fmt == "png" else "SVG drawings (*.svg)")
        if not name:
            return None
        remember_folder(name)
        out = Path(name)
        if out.suffix.lower() != suffix:
            out = out.with_name(out.name + suffix)
        try:
            written = self.export(out)
        except OSError as exc:
            QMessageBox.warning(self, "Graph not exported", str(exc))
            return None
        top = self.window()
        if isinstance(top, QMainWindow):  # said where the image went, as other exports do
            top.statusBar().showMessage(f"Graph exported to {written}", 8000)
        return written

    def export(self, out: Path) -> Path:
        """Write the whole graph to ``out`` (.png or .svg, by its suffix), with the labels
        that fit at the image's scale (:meth:`label_choice`; all of them unless they would
        overlap).

        Raises OSError with one sentence naming the file and the reason when it cannot be
        written.
        """
        rect = self.scene.itemsBoundingRect().adjusted(-40, -40, 40, 60)
        svg = out.suffix.lower() == ".svg"
        scale = 1.0 if svg else min(1.0, 8000 / max(rect.width(), rect.height(), 1))
        shown = self.label_choice(scale)
        for node_id, item in self.nodes.items():
            item.label.setVisible(node_id in shown or item.isSelected())
        selected = self.edges.selected
        self.edges.selected = None
        try:
            if svg:
                from PySide6.QtSvg import QSvgGenerator

                generator = QSvgGenerator()
                generator.setFileName(str(out))
                generator.setSize(QSize(int(rect.width()), int(rect.height())))
                generator.setViewBox(QRectF(0, 0, rect.width(), rect.height()))
                generator.setTitle("Casefile graph")
                painter = QPainter(generator)
                self.scene.render(painter, QRectF(0, 0, rect.width(), rect.height()), rect)
                painter.end()
            else:
                image = QImage(int(rect.width() * scale), int(rect.height() * scale),
                               QImage.Format.Format_ARGB32)
                image.fill(QColor("#ffffff"))
                painter = QPainter(image)
                painter.setRenderHint(QPainter.RenderHint.Antialiasing)
                self.scene.render(painter, QRectF(image.rect()), rect)
                painter.end()
                # QImageWriter, not QImage.save: PySide6 6.11 raises ValueError for save's
                # format given as bytes, and save says nothing of why it failed
                writer = QImageWriter(str(out), QByteArray(b"png"))
                if not writer.write(image):
                    raise OSError(f"{out.name} could not be written: {writer.errorString()}")
        finally:
            self.edges.selected = selected
            self._update_labels()
        if not out.is_file() or out.stat().st_size == 0:
            raise OSError(f"{out.name} could not be written (no file was made in {out.parent})")
        return out

