"""The Graph tab's scene items (ARCHITECTURE.md, "The window"): a node (:class:`NodeItem`, its
shape by kind, marks and label), every edge in one layer (:class:`EdgeLayer`, one ``drawLines``
per pen; the dragged node's lines apart in :class:`LiftedEdges`) and the canvas
(:class:`GraphCanvas`: wheel zoom, background drag, edge clicks). Part of the Graph tab,
:mod:`casefile.ui.graph_view`, which re-exports these names.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QLineF,
    QPointF,
    QRectF,
    Qt,
)
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsSceneMouseEvent,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QStyleOptionGraphicsItem,
    QWidget,
)

from casefile.services.graph import (
    AFFILIATION,
    EDGE_RELATIONS,
    QUOTED_IN,
    QUOTED_TOGETHER,
    GraphEdge,
    GraphNode,
)

if TYPE_CHECKING:
    from casefile.ui.graph_view import GraphView

KIND_COLOURS = {"person": "#3b6fb6", "organization": "#c0692b", "place": "#3a8d4f",
                "document": "#7a5aa6"}
KIND_LABELS = {"person": "People", "organization": "Organizations", "place": "Places",
               "document": "Documents"}
#: Below this zoom, labels hide (except the selected node's), unless the graph is small.
LABEL_MIN_SCALE = 0.35
LABELS_ALWAYS_UP_TO = 80
LABEL_WIDTH = 130  # px on screen; longer names wrap to a second line, then are cut
#: Square pixels of the view per label when not all are shown (about 20 labels on a laptop's
#: graph tab), so that the nodes and lines stay visible between them.
LABEL_AREA = 22_000
ZOOM_STEP = 1.25
MIN_SCALE, MAX_SCALE = 0.02, 6.0
EDGE_HIT_PX = 6.0
#: Above this many edges, lines are drawn plain (one pixel, solid) and culled to the view.
FAST_EDGES = 1500


def node_radius(degree: int) -> float:
    """A node's radius in scene units: bigger for more connections."""
    return 9.0 + min(9.0, 2.5 * math.log2(1 + degree))


def _wrapped(title: str, font: QFont) -> str:
    """``title`` on at most two lines of LABEL_WIDTH pixels (the rest cut with "…")."""
    from PySide6.QtGui import QFontMetricsF

    metrics = QFontMetricsF(font)
    if metrics.horizontalAdvance(title) <= LABEL_WIDTH:
        return title
    words, first = title.split(), ""
    while words and metrics.horizontalAdvance((first + " " + words[0]).strip()) <= LABEL_WIDTH:
        first = (first + " " + words.pop(0)).strip()
    if not first:  # one long word
        return metrics.elidedText(title, Qt.TextElideMode.ElideRight, LABEL_WIDTH)
    rest = metrics.elidedText(" ".join(words), Qt.TextElideMode.ElideRight, LABEL_WIDTH)
    return f"{first}\n{rest}" if rest else first


class NodeItem(QGraphicsItem):
    """One node: its shape by kind, confidential and pinned marks; the label is a child that
    ignores the zoom."""

    def __init__(self, node: GraphNode, radius: float, view: GraphView) -> None:
        super().__init__()
        self.node = node
        self.radius = radius
        self._bounds: QRectF | None = None
        self.view = view
        self.pinned = False
        self._pressed_at: QPointF | None = None
        self.setFlags(QGraphicsItem.GraphicsItemFlag.ItemIsMovable
                      | QGraphicsItem.GraphicsItemFlag.ItemIsSelectable
                      | QGraphicsItem.GraphicsItemFlag.ItemSendsGeometryChanges)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setZValue(1)
        self.setToolTip(self._tooltip())
        self.label = QGraphicsSimpleTextItem(_wrapped(node.title, view.label_font), self)
        self.label.setFont(view.label_font)
        self.label.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.label.setBrush(QBrush(QColor("#1d1d1d")))
        self.label.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.label.setZValue(2)
        width = self.label.boundingRect().width()
        self.label.setPos(-width / 2 * 0.0, radius + 2)  # placed by _place_label
        self._place_label()

    def _tooltip(self) -> str:
        n = self.node
        parts = [n.title, n.kind + (f" ({n.detail})" if n.detail else "")]
        if n.published:
            parts.append(f"published {n.published.isoformat()}")
        if n.confidential:
            parts.append("confidential")
        return "\n".join(parts)

    def _place_label(self) -> None:
        # the label ignores the zoom: its offset from the node is in screen pixels, so it is
        # centred with a transform of its own
        width = self.label.boundingRect().width()
        self.label.setTransform(self.label.transform().fromTranslate(-width / 2, 0))
        self.label.setPos(0, self.radius + 1)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        # made once: the scene asks for it tens of times per node while a graph is drawn
        if self._bounds is None:
            r = self.radius + 4
            self._bounds = QRectF(-r, -r, 2 * r, 2 * r)
        return self._bounds

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addEllipse(QPointF(0, 0), self.radius + 2, self.radius + 2)
        return path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        n, r = self.node, self.radius
        colour = QColor(KIND_COLOURS.get(n.kind, "#777777"))
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setBrush(QBrush(colour.lighter(150) if n.kind == "document" else colour))
        selected = self.isSelected()
        if n.confidential:
            pen = QPen(QColor("#c62828"), 2.5 if not selected else 3.5, Qt.PenStyle.DashLine)
        else:
            pen = QPen(QColor("#111111") if selected else colour.darker(140),
                       3.0 if selected else 1.2)
        painter.setPen(pen)
        if n.kind == "person":
            painter.drawEllipse(QPointF(0, 0), r, r)
        elif n.kind == "organization":
            painter.drawRoundedRect(QRectF(-r, -r, 2 * r, 2 * r), r * 0.3, r * 0.3)
        elif n.kind == "place":
            painter.drawPolygon(QPolygonF([QPointF(0, -r * 1.15), QPointF(r * 1.15, 0),
                                           QPointF(0, r * 1.15), QPointF(-r * 1.15, 0)]))
        else:  # a page with a folded corner
            w, h, fold = r * 0.8, r, r * 0.35
            painter.drawPolygon(QPolygonF([QPointF(-w, -h), QPointF(w - fold, -h),
                                           QPointF(w, -h + fold), QPointF(w, h),
                                           QPointF(-w, h)]))
        if n.confidential:  # a padlock at the top right
            painter.setPen(QPen(QColor("#c62828"), 1.6))
            painter.setBrush(QBrush(QColor("#c62828")))
            x, y = r * 0.55, -r * 1.05
            painter.drawRect(QRectF(x, y, 7, 6))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawArc(QRectF(x + 1, y - 5, 5, 9), 0, 180 * 16)
        if self.pinned:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(QColor("#222222")))
            painter.drawEllipse(QPointF(-r * 0.75, -r * 0.75), 2.5, 2.5)

    def itemChange(self, change: QGraphicsItem.GraphicsItemChange, value: Any) -> Any:  # noqa: N802
        if change == QGraphicsItem.GraphicsItemChange.ItemPositionHasChanged:
            self.view.edges.node_moved(self.node.id, self.pos())
        elif change == QGraphicsItem.GraphicsItemChange.ItemSelectedHasChanged:
            self.label.setVisible(bool(value) or self.node.id in self.view.labelled)
        return super().itemChange(change, value)

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802
        self._pressed_at = self.pos()
        self.view.edges.lift(self.node.id)
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802
        super().mouseReleaseEvent(event)
        self.view.edges.lift(None)
        if self._pressed_at is not None and self.pos() != self._pressed_at:
            self.view.node_dropped(self)
        self._pressed_at = None

    def mouseDoubleClickEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802
        self.view.item_activated.emit(self.node.id, self.node.kind)
        event.accept()


def _edge_pen(relation: str, weight: int) -> QPen:
    width = 1.0 + min(4.0, 1.2 * math.log2(max(1, weight)))
    if relation == QUOTED_TOGETHER:
        pen = QPen(QColor(0, 128, 128, 150), width)
    elif relation == QUOTED_IN:
        pen = QPen(QColor(120, 120, 120, 120), max(1.0, width - 0.5), Qt.PenStyle.DotLine)
    elif relation == AFFILIATION:
        pen = QPen(QColor(60, 60, 60, 200), width, Qt.PenStyle.DashLine)
    else:
        pen = QPen(QColor(40, 40, 40, 210), width + 0.5)
    pen.setCosmetic(False)
    return pen


class EdgeLayer(QGraphicsItem):
    """Every edge, painted in one pass: lines grouped by pen, one ``drawLines`` per group. The
    selected edge is drawn again on top, wide."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(0)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)
        # repaints for a selection, a tooltip, a label are a blit of the drawn lines
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.lifted = LiftedEdges(self)
        self.edges: list[GraphEdge] = []
        self.lines: list[QLineF] = []
        self._groups: dict[tuple[str, int], tuple[QPen, list[QLineF]]] = {}
        self._ends: dict[int, list[tuple[int, int]]] = {}  # node -> (edge index, 1 or 2)
        self._index_of: dict[int, int] = {}  # id(line) -> edge index
        self._rect = QRectF()
        self.selected: int | None = None
        #: While a graph is put on the scene, the part whose lines are drawn so far (they are
        #: drawn a strip per event-loop turn: 6,000 lines at once took ~100 ms); None: all.
        self.revealed: QRectF | None = None
        self.visible_relations: set[str] = set(EDGE_RELATIONS)

    def set_edges(self, edges: list[GraphEdge], positions: dict[int, QPointF]) -> None:
        """Show these edges between nodes at ``positions`` (scene coordinates)."""
        for _ in self.fill(edges, positions):
            pass
        self.revealed = None

    def fill(self, edges: list[GraphEdge], positions: dict[int, QPointF],
             chunk: int = 300) -> Iterator[None]:
        """:meth:`set_edges` a step at a time: yields after every ``chunk`` edges (the graph
        view runs the steps a slice per event-loop turn); nothing is drawn until the last."""
        self.prepareGeometryChange()
        self._rect = QRectF()
        self.edges = [e for e in edges if e.source in positions and e.target in positions]
        self.lines = []
        self._groups = {}
        self._ends = {}
        self._index_of = {}
        self.lifted.node_id, self.lifted.indexes = None, set()
        self.selected = None
        self.revealed = QRectF()  # nothing drawn until reveal() (or set_edges: all at once)
        for n, edge in enumerate(self.edges):
            line = QLineF(positions[edge.source], positions[edge.target])
            self.lines.append(line)
            bucket = min(5, int(math.log2(max(1, edge.weight))))
            key = (edge.relation, bucket)
            if key not in self._groups:
                self._groups[key] = (_edge_pen(edge.relation, 2 ** bucket), [])
            self._groups[key][1].append(line)
            self._index_of[id(line)] = n
            self._ends.setdefault(edge.source, []).append((n, 1))
            self._ends.setdefault(edge.target, []).append((n, 2))
            if n % chunk == chunk - 1:
                yield
        self.prepareGeometryChange()
        self._rect = self._bounds()
        self.update()

    def reveal(self, strips: int = 6) -> Iterator[None]:
        """Draw the lines a vertical strip of the layer at a time: yields after asking for
        each strip's repaint (the graph view ends its event-loop turn there)."""
        rect = self._rect
        if rect.isEmpty() or len(self.lines) <= FAST_EDGES:
            self.revealed = None
            return
        width = rect.width() / strips
        for k in range(strips):
            self.revealed = QRectF(rect.left(), rect.top(), width * (k + 1), rect.height())
            self.update(QRectF(rect.left() + width * k, rect.top(), width, rect.height()))
            yield
        self.revealed = None

    def _bounds(self) -> QRectF:
        if not self.lines:
            return QRectF()
        xs = [c for ln in self.lines for c in (ln.x1(), ln.x2())]
        ys = [c for ln in self.lines for c in (ln.y1(), ln.y2())]
        return QRectF(min(xs) - 10, min(ys) - 10, max(xs) - min(xs) + 20, max(ys) - min(ys) + 20)

    def node_moved(self, node_id: int, pos: QPointF) -> None:
        """Follow a node that moved (while it is lifted, only its own lines are redrawn)."""
        ends = self._ends.get(node_id)
        if not ends:
            return
        for n, end in ends:
            if end == 1:
                self.lines[n].setP1(pos)
            else:
                self.lines[n].setP2(pos)
        if not self._rect.contains(pos):
            self.prepareGeometryChange()
            self._rect = self._rect.united(QRectF(pos.x() - 10, pos.y() - 10, 20, 20))
        if self.lifted.node_id == node_id:
            self.lifted.refresh()
        else:
            self.update()

    def lift(self, node_id: int | None) -> None:
        """Draw the lines of ``node_id`` apart while it is dragged (None: put them back), so
        a drag redraws a node's few lines, not all of them."""
        if self.lifted.node_id == node_id:
            return
        self.lifted.node_id = node_id
        self.lifted.indexes = {n for n, _end in self._ends.get(node_id, [])} if node_id else set()
        self.lifted.refresh()
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        # Dashed, wide, antialiased lines cost the raster engine ~50 us each: a big graph is
        # drawn with plain one-pixel pens, and only the lines crossing the exposed area.
        many = len(self.lines) > FAST_EDGES
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, not many and lod > 0.3)
        exposed = option.exposedRect
        if self.revealed is not None:  # a graph being drawn: only the strips shown so far
            exposed = exposed.intersected(self.revealed)
            if exposed.isEmpty():
                return
        cull = many and not exposed.contains(self._rect)
        left, top = exposed.left(), exposed.top()
        right, bottom = exposed.right(), exposed.bottom()
        hidden = self.lifted.indexes
        for pen, lines in self._groups.values():
            if hidden:
                lines = [ln for ln in lines if self._index_of[id(ln)] not in hidden]
            if many:
                pen = QPen(pen.color(), 0)  # cosmetic, solid
            painter.setPen(pen)
            if cull:
                lines = [ln for ln in lines
                         if not (max(ln.x1(), ln.x2()) < left or min(ln.x1(), ln.x2()) > right
                                 or max(ln.y1(), ln.y2()) < top
                                 or min(ln.y1(), ln.y2()) > bottom)]
            painter.drawLines(lines)
        if self.selected is not None:
            edge = self.edges[self.selected]
            pen = _edge_pen(edge.relation, edge.weight)
            pen.setColor(QColor("#e0a000"))
            pen.setWidthF(pen.widthF() + 4)
            pen.setStyle(Qt.PenStyle.SolidLine)
            painter.setPen(pen)
            painter.drawLine(self.lines[self.selected])

    def edge_at(self, point: QPointF, tolerance: float) -> int | None:
        """The index of the edge nearest ``point`` within ``tolerance`` (scene units)."""
        best, best_d = None, tolerance
        px, py = point.x(), point.y()
        for n, ln in enumerate(self.lines):
            x1, y1, x2, y2 = ln.x1(), ln.y1(), ln.x2(), ln.y2()
            if (min(x1, x2) - best_d > px or max(x1, x2) + best_d < px
                    or min(y1, y2) - best_d > py or max(y1, y2) + best_d < py):
                continue
            dx, dy = x2 - x1, y2 - y1
            length2 = dx * dx + dy * dy
            t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy)
                                                     / length2))
            d = math.hypot(px - (x1 + t * dx), py - (y1 + t * dy))
            if d <= best_d:
                best, best_d = n, d
        return best


class LiftedEdges(QGraphicsItem):
    """The lines of the node being dragged, drawn apart from the (cached) edge layer."""

    def __init__(self, layer: EdgeLayer) -> None:
        super().__init__()
        self.layer = layer
        self.node_id: int | None = None
        self.indexes: set[int] = set()
        self._rect = QRectF()
        self.setZValue(0.5)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def refresh(self) -> None:
        """Follow the lifted lines."""
        self.prepareGeometryChange()
        rect = QRectF()
        for n in self.indexes:
            ln = self.layer.lines[n]
            rect = rect.united(QRectF(ln.p1(), ln.p2()).normalized())
        self._rect = rect.adjusted(-6, -6, 6, 6) if self.indexes else QRectF()
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        for n in self.indexes:
            edge = self.layer.edges[n]
            painter.setPen(_edge_pen(edge.relation, edge.weight))
            painter.drawLine(self.layer.lines[n])


class GraphCanvas(QGraphicsView):
    """The drawing: wheel zoom around the pointer, background drag to pan, edge clicks."""

    def __init__(self, view: GraphView) -> None:
        super().__init__(view.scene)
        self.owner = view
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState)
        self.setBackgroundBrush(QBrush(QColor("#fbfbf8")))

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802
        steps = event.angleDelta().y() / 120
        if steps:
            self.owner.zoom_by(ZOOM_STEP ** steps)
        event.accept()

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        item = self.itemAt(event.position().toPoint())
        if event.button() == Qt.MouseButton.LeftButton and not isinstance(
                item, NodeItem | QGraphicsSimpleTextItem):
            scene_point = self.mapToScene(event.position().toPoint())
            self.owner.click_background(scene_point)
        super().mousePressEvent(event)

