"""The Timeline view: the case's events drawn on a time axis, one row per event.

A QGraphicsScene holds one :class:`EventMarker` per event, in date order from top to bottom,
placed left to right by date (``casefile.services.timeline`` gives the spans). How a date is
drawn says how well it is known:

- a day (``exact`` / ``day``): a solid diamond on that day;
- a range (date .. end): a solid bar from the first to the last day;
- ``month``, ``year`` or ``approximate``: a hatched bar with a dashed outline over the days it
  may be, the label starting with "~" for approximate dates ("Feb 2018" for a month).

The axis (dates at ticks chosen for the zoom) stays at the top of the view while it scrolls.
Clicking an event selects it (``event_selected``), double-clicking asks to edit it
(``event_activated``). Ctrl+wheel, ``+``/``-`` and the buttons zoom about the centre; Fit
(``0``) shows every event. The view reloads from the runner's ``case_changed`` only.
"""

from __future__ import annotations

import calendar
from datetime import date, timedelta
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt, Signal, Slot
from PySide6.QtGui import (
    QAction,
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QKeySequence,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QStyleOptionGraphicsItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from casefile.errors import CasefileError
from casefile.services.timeline import TimelineEvent, timeline
from casefile.ui.models import is_dark_palette
from casefile.ui.operations import CaseChange, OperationRunner

#: Marker styles (``EventMarker.style``).
POINT, RANGE, UNCERTAIN, UNDATED = "point", "range", "uncertain", "undated"
ZOOM_STEP = 1.5
MIN_PX_PER_DAY = 0.02
MAX_PX_PER_DAY = 400.0
LEFT = 24.0  # scene margin left of the earliest day
MARKER = 12.0  # height of bars, size of diamonds


def marker_style(event: TimelineEvent) -> str:
    """How an event is drawn: point (a day), range (a bar), uncertain (a hatched span) or
    undated."""
    if event.first is None:
        return UNDATED
    if event.approximate:
        return UNCERTAIN
    if event.is_range:
        return RANGE
    return POINT


def event_colour() -> QColor:
    """The fill of event markers, readable on the current palette."""
    return QColor("#7aa7ff") if is_dark_palette() else QColor("#2f5fbf")


class EventMarker(QGraphicsItem):
    """One event's row: its marker (diamond, bar or hatched span) and its label.

    ``x0``/``x1`` are the scene x of the first day and the end of the last day; the label goes
    right of the marker, or left of it when ``label_left``. Selectable; the bounding rectangle
    covers marker and label, so a click on either selects the event.
    """

    def __init__(self, event: TimelineEvent, x0: float, x1: float, height: float,
                 text: str, font: QFont, *, label_left: bool = False) -> None:
        super().__init__()
        self.event = event
        self.event_id = event.id
        self.style = marker_style(event)
        self.x0, self.x1 = x0, max(x1, x0 + 2)
        self.height = height
        self.text = text
        self.font = font
        self.label_left = label_left
        metrics = QFontMetricsF(font)
        self.text_width = metrics.horizontalAdvance(text)
        self.ascent = metrics.ascent()
        self.text_height = metrics.height()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        self.setAcceptHoverEvents(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        tip = [event.title, event.label + f"  ({event.precision})"]
        if event.place:
            tip.append(event.place)
        if event.description:
            tip.append(event.description)
        tip.append(f"{event.evidence} evidence link{'s' if event.evidence != 1 else ''}")
        self.setToolTip("\n".join(tip))

    # -- geometry -----------------------------------------------------------------------------

    def marker_rect(self) -> QRectF:
        """The marker's rectangle in item coordinates (a diamond's bounding square)."""
        if self.style in (POINT, UNDATED):
            return QRectF(self.x0 - MARKER / 2, -MARKER / 2, MARKER, MARKER)
        return QRectF(self.x0, -MARKER / 2, self.x1 - self.x0, MARKER)

    def text_rect(self) -> QRectF:
        """Where the label is drawn, in item coordinates."""
        marker = self.marker_rect()
        x = (marker.left() - 8 - self.text_width) if self.label_left else marker.right() + 8
        return QRectF(x, -self.text_height / 2, self.text_width, self.text_height)

    def boundingRect(self) -> QRectF:
        return self.marker_rect().united(self.text_rect()).adjusted(-4, -4, 4, 4)

    def pen(self) -> QPen:
        """The marker's outline: dashed for uncertain dates."""
        pen = QPen(event_colour().darker(130), 1.4)
        if self.style in (UNCERTAIN, UNDATED):
            pen.setStyle(Qt.PenStyle.DashLine)
        return pen

    def brush(self) -> QBrush:
        """The marker's fill: solid for days and ranges, hatched for uncertain dates."""
        if self.style == UNCERTAIN:
            return QBrush(event_colour(), Qt.BrushStyle.BDiagPattern)
        if self.style == UNDATED:
            return QBrush(Qt.BrushStyle.NoBrush)
        return QBrush(event_colour())

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        palette = widget.palette() if widget is not None else QPalette()
        if self.isSelected():
            band = QColor(palette.color(QPalette.ColorRole.Highlight))
            band.setAlpha(70)
            painter.fillRect(self.boundingRect(), band)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(self.pen())
        painter.setBrush(self.brush())
        rect = self.marker_rect()
        if self.style in (POINT, UNDATED):
            path = QPainterPath()
            c = rect.center()
            path.moveTo(c.x(), rect.top())
            path.lineTo(rect.right(), c.y())
            path.lineTo(c.x(), rect.bottom())
            path.lineTo(rect.left(), c.y())
            path.closeSubpath()
            painter.drawPath(path)
        else:
            if self.style == UNCERTAIN:
                light = QColor(event_colour())
                light.setAlpha(45)
                painter.fillRect(rect, light)
            painter.drawRoundedRect(rect, 3, 3)
            if self.style == UNCERTAIN and self.event.precision == "approximate":
                # the stated day, inside its span of uncertainty
                mid = self.x0 + (self.x1 - self.x0) / 2
                painter.setPen(QPen(event_colour().darker(130), 2))
                painter.drawLine(QPointF(mid, rect.top() - 3), QPointF(mid, rect.bottom() + 3))
        painter.setFont(self.font)
        painter.setPen(palette.color(QPalette.ColorRole.Text))
        text = self.text_rect()
        painter.drawText(QPointF(text.left(), text.top() + self.ascent), self.text)


class TimelineCanvas(QGraphicsView):
    """The graphics view: Ctrl+wheel zooms; the date axis is painted over the top rows."""

    zoom_requested = Signal(float)
    marker_double_clicked = Signal(int)

    def __init__(self, scene: QGraphicsScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.ticks: list[tuple[float, str]] = []
        self.axis_height = 0.0
        self.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.FullViewportUpdate)
        self.setDragMode(QGraphicsView.DragMode.NoDrag)

    def wheelEvent(self, event: QWheelEvent) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            delta = event.angleDelta().y()
            if delta:
                self.zoom_requested.emit(ZOOM_STEP if delta > 0 else 1 / ZOOM_STEP)
            event.accept()
            return
        super().wheelEvent(event)

    def mouseDoubleClickEvent(self, event: Any) -> None:
        for item in self.items(event.position().toPoint()):
            if isinstance(item, EventMarker):
                self.marker_double_clicked.emit(item.event_id)
                event.accept()
                return
        super().mouseDoubleClickEvent(event)

    def drawForeground(self, painter: QPainter, rect: QRectF | Any) -> None:
        """The axis band: tick lines and date labels, fixed at the top of the viewport."""
        if not self.ticks:
            return
        painter.save()
        painter.resetTransform()
        palette = self.palette()
        width = self.viewport().width()
        band = QRectF(0, 0, width, self.axis_height)
        painter.fillRect(band, palette.color(QPalette.ColorRole.Window))
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 1))
        painter.drawLine(QPointF(0, band.bottom()), QPointF(width, band.bottom()))
        painter.setPen(palette.color(QPalette.ColorRole.WindowText))
        metrics = QFontMetricsF(self.font())
        for x_scene, label in self.ticks:
            x = self.mapFromScene(QPointF(x_scene, 0)).x()
            if x < -200 or x > width + 200:
                continue
            painter.drawLine(QPointF(x, band.bottom() - 6), QPointF(x, band.bottom()))
            painter.drawText(QPointF(x + 3, band.bottom() - 8 - metrics.descent()), label)
        painter.restore()

    def drawBackground(self, painter: QPainter, rect: QRectF | Any) -> None:
        """Light vertical grid lines at the ticks."""
        super().drawBackground(painter, rect)
        colour = QColor(self.palette().color(QPalette.ColorRole.Mid))
        colour.setAlpha(70)
        painter.setPen(QPen(colour, 1, Qt.PenStyle.DotLine))
        for x, _label in self.ticks:
            painter.drawLine(QPointF(x, rect.top()), QPointF(x, rect.bottom()))


def _month_start(day: date) -> date:
    return day.replace(day=1)


def _add_months(day: date, n: int) -> date:
    month = day.month - 1 + n
    year = day.year + month // 12
    month = month % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def axis_ticks(first: date, last: date, px_per_day: float, min_gap: float
               ) -> tuple[str, list[date]]:
    """Tick dates between ``first`` and ``last`` at a unit whose spacing is at least
    ``min_gap`` pixels: ("day" | "week" | "month" | "quarter" | "year", dates)."""
    units = (("day", 1), ("week", 7), ("month", 30.5), ("quarter", 91.3), ("year", 365.25),
             ("5 years", 1826.25))
    unit = next((name for name, days in units if days * px_per_day >= min_gap), "5 years")
    ticks: list[date] = []
    if unit in ("day", "week"):
        step = 1 if unit == "day" else 7
        day = first - timedelta(days=first.weekday()) if unit == "week" else first
        while day <= last:
            if day >= first:
                ticks.append(day)
            day += timedelta(days=step)
    elif unit in ("month", "quarter"):
        step = 1 if unit == "month" else 3
        day = _month_start(first)
        if unit == "quarter":
            day = day.replace(month=(day.month - 1) // 3 * 3 + 1)
        while day <= last:
            if day >= first:
                ticks.append(day)
            day = _add_months(day, step)
    else:
        step = 1 if unit == "year" else 5
        year = first.year - (first.year % step if step > 1 else 0)
        while year <= last.year:
            day = date(year, 1, 1)
            if day >= first:
                ticks.append(day)
            year += step
    return unit, ticks


def tick_label(day: date, unit: str) -> str:
    """A tick's label: the day for day/week ticks, "Feb 2018" for months, the year else."""
    if unit in ("day", "week"):
        return day.isoformat()
    if unit in ("month", "quarter"):
        return day.strftime("%b %Y")
    return str(day.year)


class TimelineView(QWidget):
    """The Timeline tab: a toolbar (count, legend, zoom −/+, Fit) over the graphics view.

    ``runner`` reads the events and tells the view when the case changed. Signals:
    ``event_selected(event_id)`` when an event is clicked (or selected by
    :meth:`select_event`), ``event_activated(event_id)`` on double-click.
    """

    event_selected = Signal(int)
    event_activated = Signal(int)

    def __init__(self, runner: OperationRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.case_id: int | None = None
        self.events: list[TimelineEvent] = []
        self.markers: dict[int, EventMarker] = {}
        self.px_per_day = 8.0
        self._fitted = True
        self._origin = date.today()
        self._span = (date.today(), date.today())

        self.scene = QGraphicsScene(self)
        self.view = TimelineCanvas(self.scene)
        self.view.setObjectName("timeline_canvas")
        self.view.zoom_requested.connect(self.zoom)
        self.view.marker_double_clicked.connect(self.event_activated)
        self.scene.selectionChanged.connect(self._on_selection_changed)
        self.heading = QLabel("Timeline")
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        colour = event_colour().name()
        self.legend = QLabel(
            f'<span style="color:{colour}">&#9670;</span> day &nbsp; '
            f'<span style="color:{colour}">&#9644;</span> range &nbsp; '
            f'<span style="color:{colour}">&#9636;</span> month / approximate (~)')
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.zoom_out_button = QToolButton()
        self.zoom_out_button.setText("\u2212")
        self.zoom_out_button.setToolTip("Zoom out (-, Ctrl+wheel)")
        self.zoom_in_button = QToolButton()
        self.zoom_in_button.setText("+")
        self.zoom_in_button.setToolTip("Zoom in (+, Ctrl+wheel)")
        self.fit_button = QToolButton()
        self.fit_button.setText("Fit")
        self.fit_button.setToolTip("Show every event (0)")
        self.zoom_in_button.clicked.connect(lambda: self.zoom(ZOOM_STEP))
        self.zoom_out_button.clicked.connect(lambda: self.zoom(1 / ZOOM_STEP))
        self.fit_button.clicked.connect(self.fit)
        for keys, slot in ((("+", "=", "Ctrl++", "Ctrl+="), lambda: self.zoom(ZOOM_STEP)),
                           (("-", "Ctrl+-"), lambda: self.zoom(1 / ZOOM_STEP)),
                           (("0", "Ctrl+0"), self.fit)):
            action = QAction(self)
            action.setShortcuts([QKeySequence(k) for k in keys])
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            action.triggered.connect(slot)
            self.addAction(action)
        top = QHBoxLayout()
        top.addWidget(self.heading)
        top.addSpacing(16)
        top.addWidget(self.legend, 1)
        top.addWidget(self.zoom_out_button)
        top.addWidget(self.zoom_in_button)
        top.addWidget(self.fit_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(top)
        layout.addWidget(self.view, 1)
        self.runner.case_changed.connect(self._on_case_changed)

    # -- data -------------------------------------------------------------------------------

    def set_case(self, case_id: int | None) -> None:
        """Show a case's events (None: nothing), fitted to the width."""
        self.case_id = case_id
        self._fitted = True
        self.reload()

    def reload(self) -> None:
        """Read the events again and redraw, keeping the selection and the zoom."""
        selected = self.selected_event_id()
        if self.case_id is None:
            self.events = []
        else:
            case_id = self.case_id
            try:
                self.events = self.runner.read(lambda s: timeline(s, case_id))
            except CasefileError:
                self.events = []
        dated = [e for e in self.events if e.first is not None]
        n = len(self.events)
        self.heading.setText(f"Timeline: {n} event{'s' if n != 1 else ''}")
        if dated:
            first = min(e.first for e in dated if e.first)
            last = max(e.last for e in dated if e.last)
            self._span = (first, last)
        if self._fitted:
            self.px_per_day = self._fit_scale()
        self._rebuild()
        if selected is not None and selected in self.markers:
            self.select_event(selected, emit=False)

    @Slot(object)
    def _on_case_changed(self, ch: CaseChange) -> None:
        if ch.case_id is None or ch.case_id != self.case_id:
            return
        if ch.touches("event") or ch.touches("place") or ch.structural or ch.evidence:
            self.reload()

    # -- drawing ------------------------------------------------------------------------------

    def _row_height(self) -> float:
        return QFontMetricsF(self.font()).height() + 14

    def _axis_height(self) -> float:
        return QFontMetricsF(self.font()).height() + 16

    def _fit_scale(self) -> float:
        first, last = self._span
        days = (last - first).days + 1
        # room for the margins and the padding days either side (see _rebuild)
        width = max(self.view.viewport().width(), 300) - 2 * LEFT - 32
        return max(MIN_PX_PER_DAY, min(MAX_PX_PER_DAY, width / (max(days, 1) + 2)))

    def x_of(self, day: date) -> float:
        """The scene x of the start of ``day``."""
        return LEFT + (day - self._origin).days * self.px_per_day

    def _rebuild(self) -> None:
        self.scene.blockSignals(True)
        self.scene.clear()
        self.scene.blockSignals(False)
        self.markers = {}
        font = QFont(self.font())
        row_h = self._row_height()
        axis_h = self._axis_height()
        self.view.axis_height = axis_h
        first, last = self._span
        pad = max(1, int(12 / self.px_per_day))
        self._origin = first - timedelta(days=pad)
        right = self.x_of(last + timedelta(days=1 + pad))
        visible_right = max(right, float(self.view.viewport().width() - 16))
        y = axis_h + row_h / 2 + 4
        for event in self.events:
            if event.first is None or event.last is None:
                x0 = x1 = LEFT
            else:
                x0 = self.x_of(event.first)
                x1 = self.x_of(event.last + timedelta(days=1))
                if marker_style(event) == POINT:
                    x0 = x1 = x0 + self.px_per_day / 2
            text = f"{event.label}   {event.title}"
            if event.place:
                text += f"  \u2014 {event.place}"
            width = QFontMetricsF(font).horizontalAdvance(text)
            label_left = (x1 + 12 + width > visible_right) and (x0 - 12 - width >= 0)
            marker = EventMarker(event, x0, x1, row_h, text, font, label_left=label_left)
            marker.setPos(0, y)
            self.scene.addItem(marker)
            self.markers[event.id] = marker
            y += row_h
        if not self.events:
            message = QGraphicsSimpleTextItem(
                "No events in this case yet: add them in the Events section.")
            message.setBrush(self.palette().color(QPalette.ColorRole.PlaceholderText))
            message.setPos(LEFT, axis_h + 12)
            self.scene.addItem(message)
        bounds = self.scene.itemsBoundingRect()
        self.scene.setSceneRect(QRectF(0, 0, max(bounds.right() + 8, right + LEFT),
                                       max(bounds.bottom() + 12, y)))
        metrics = QFontMetricsF(font)
        min_gap = metrics.horizontalAdvance("2018-02-28") + 24
        if self.events and any(e.first for e in self.events):
            # ticks over everything that can be seen, not only the events' span
            shown_days = int(visible_right / self.px_per_day) + 1
            start = self._origin - timedelta(days=int(LEFT / self.px_per_day) + 1)
            end = max(last + timedelta(days=pad), self._origin + timedelta(days=shown_days))
            unit, days = axis_ticks(start, end, self.px_per_day, min_gap)
            self.view.ticks = [(self.x_of(d), tick_label(d, unit)) for d in days]
        else:
            self.view.ticks = []
        self.view.viewport().update()

    # -- zoom -----------------------------------------------------------------------------------

    def zoom(self, factor: float) -> None:
        """Zoom the time axis by ``factor`` about the date at the centre of the view."""
        centre = self.view.mapToScene(self.view.viewport().rect().center())
        day = (centre.x() - LEFT) / self.px_per_day
        self.px_per_day = max(MIN_PX_PER_DAY, min(MAX_PX_PER_DAY, self.px_per_day * factor))
        self._fitted = False
        old_origin = self._origin
        self._rebuild()
        shift = (old_origin - self._origin).days
        self.view.centerOn(LEFT + (day + shift) * self.px_per_day, centre.y())

    def fit(self) -> None:
        """Zoom so every event fits the width of the view."""
        self._fitted = True
        self.px_per_day = self._fit_scale()
        self._rebuild()
        self.view.horizontalScrollBar().setValue(0)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        if self._fitted:
            self.px_per_day = self._fit_scale()
            self._rebuild()

    # -- selection --------------------------------------------------------------------------

    def selected_event_id(self) -> int | None:
        """The id of the selected event, or None."""
        for item in self.scene.selectedItems():
            if isinstance(item, EventMarker):
                return item.event_id
        return None

    def select_event(self, event_id: int, *, emit: bool = True) -> bool:
        """Select an event and scroll it into view; True when it is on the timeline."""
        marker = self.markers.get(event_id)
        if marker is None:
            return False
        self.scene.blockSignals(not emit)
        self.scene.clearSelection()
        marker.setSelected(True)
        self.scene.blockSignals(False)
        self.view.ensureVisible(marker.mapRectToScene(marker.marker_rect()), 40, 40)
        return True

    @Slot()
    def _on_selection_changed(self) -> None:
        event_id = self.selected_event_id()
        if event_id is not None:
            self.event_selected.emit(event_id)

    def event_at(self, pos: QPointF) -> int | None:
        """The id of the event drawn at viewport position ``pos``, or None."""
        for item in self.view.items(pos.toPoint()):
            if isinstance(item, EventMarker):
                return item.event_id
        return None
