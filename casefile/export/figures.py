"""The brief's pictures: the relationship graph, the timeline and follow-ups by status,
as reportlab graphics Drawings (vector, a few hundred shapes each: cheap to print).

Each function takes the plain data of :mod:`casefile.export.brief_data` (already filtered for
the export profile), a width in points and the font to set labels in, and returns a Drawing,
or None when there is nothing to draw.

Labels are set like the body text (:class:`casefile.export.textruns.TextRuns`, given as
``runs``): a run of characters the main font lacks (Chinese, Japanese) in the fallback font
that has them, Arabic joined, right-to-left text in display order. They are placed so that no
two overlap: a label that finds no free place is left out (its item is still in the text).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import date

from reportlab.graphics.shapes import Circle, Drawing, Line, Path, Polygon, Rect, String
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth

from casefile.export.brief_data import EventEntry, GraphFigure
from casefile.export.textruns import TextRuns

_Box = tuple[float, float, float, float]  # left, bottom, right, top in points

KIND_COLOURS = {"person": colors.HexColor("#3b6fb6"),
                "organization": colors.HexColor("#c0692b"),
                "place": colors.HexColor("#3a8d4f"),
                "document": colors.HexColor("#b39ddb")}
STATUS_COLOURS = {"open": colors.HexColor("#3b6fb6"), "waiting": colors.HexColor("#e0a000"),
                  "answered": colors.HexColor("#3a8d4f"), "dropped": colors.HexColor("#9e9e9e")}
INK = colors.HexColor("#222222")
MUTED = colors.HexColor("#6b6b6b")
#: At most this many nodes are labelled (the most connected); the rest are dots.
MAX_LABELS = 60
LABEL_CHARS = 28
#: Rows of labels on each side of the timeline's axis.
TIMELINE_ROWS = 5


def _drawing(width: float, height: float, font: str) -> Drawing:
    """A Drawing whose default font is ``font`` (reportlab's default, Helvetica, would be
    referenced in the PDF without being embedded)."""
    drawing = Drawing(width, height)
    drawing.initialFontName = font
    return drawing


def _cut(text: str, chars: int = LABEL_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= chars else text[: chars - 1].rstrip() + "\u2026"


def _label(text: str, font: str, size: float, runs: TextRuns | None
           ) -> tuple[list[tuple[str, str]], float]:
    """``text`` as ``(font, piece)`` runs in display order and its width in points."""
    if runs is None or text.isascii():
        return [(font, text)], stringWidth(text, font, size)
    pieces = runs.visual_runs(text, font)
    return pieces, sum(stringWidth(t, f, size) for f, t in pieces)


def _draw_label(drawing: Drawing, left: float, y: float, pieces: list[tuple[str, str]],
                size: float, colour: colors.Color = INK) -> None:
    for font, piece in pieces:
        drawing.add(String(left, y, piece, fontName=font, fontSize=size, fillColor=colour))
        left += stringWidth(piece, font, size)


def _overlaps(box: _Box, boxes: Sequence[_Box]) -> bool:
    return any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3]
               for b in boxes)


def graph_drawing(figure: GraphFigure, width: float, font: str,
                  max_height: float | None = None, runs: TextRuns | None = None
                  ) -> Drawing | None:
    """The graph scaled into ``width`` points (height as its shape asks, at most
    ``max_height``): edges as grey lines (typed relationships darker), nodes by kind, labels
    under (or above) the best-connected nodes, as many as fit without overlapping one another
    or another node (at most :data:`MAX_LABELS`)."""
    nodes = figure.nodes
    if not nodes:
        return None
    max_height = max_height or width * 0.8
    xs = [n.x for n in nodes]
    ys = [n.y for n in nodes]
    x0, y0 = min(xs), min(ys)
    span_x, span_y = max(max(xs) - x0, 1.0), max(max(ys) - y0, 1.0)
    pad = 30.0
    scale = min((width - 2 * pad) / span_x, (max_height - 2 * pad) / span_y)
    height = span_y * scale + 2 * pad
    drawing = _drawing(width, height, font)
    left = (width - span_x * scale) / 2

    def at(x: float, y: float) -> tuple[float, float]:  # y grows down in the scene, up here
        return left + (x - x0) * scale, height - pad - (y - y0) * scale

    where = {n.id: at(n.x, n.y) for n in nodes}
    degree: dict[int, int] = {}
    paths: dict[tuple[bool, bool, int], Path] = {}  # one path per line style: cheap to print
    for source, target, relation, weight in figure.edges:
        if source not in where or target not in where:
            continue
        degree[source] = degree.get(source, 0) + 1
        degree[target] = degree.get(target, 0) + 1
        (ax, ay), (bx, by) = where[source], where[target]
        typed = relation not in ("quoted together", "quoted in")
        dashed = relation in ("quoted in", "affiliated with")
        key = (typed, dashed, min(2, int(math.log2(max(1, weight)))))
        path = paths.get(key)
        if path is None:
            path = paths[key] = Path(
                strokeWidth=0.5 + 0.6 * key[2], fillColor=None,
                strokeColor=colors.HexColor("#555555" if typed else "#bdbdbd"),
                strokeDashArray=[2, 2] if dashed else None)
        path.moveTo(ax, ay)
        path.lineTo(bx, by)
    for path in paths.values():
        drawing.add(path)
    def radius(node_id: int) -> float:
        return 3.0 + min(4.0, math.log2(1 + degree.get(node_id, 0)))

    discs = {n.id: (where[n.id][0] - radius(n.id), where[n.id][1] - radius(n.id),
                    where[n.id][0] + radius(n.id), where[n.id][1] + radius(n.id)) for n in nodes}
    placed: list[_Box] = []
    labels: list[tuple[float, float, list[tuple[str, str]]]] = []
    size = 6.5
    for n in sorted(nodes, key=lambda n: (-degree.get(n.id, 0), n.id)):
        if len(labels) >= MAX_LABELS:
            break
        pieces, w = _label(_cut(n.label), font, size, runs)
        x, y = where[n.id]
        r = radius(n.id)
        left = min(max(x - w / 2, 1.0), width - w - 1.0)  # inside the drawing
        others = [box for node_id, box in discs.items() if node_id != n.id]
        for base in (y - r - 7, y + r + 2):  # under the node, else above it
            box = (left - 4, base - 1.5, left + w + 4, base + size)  # a space between
            if base < 12 or base + size > height - 1:  # the legend's line, the top edge
                continue
            if not _overlaps(box, placed) and not _overlaps(box, others):
                placed.append(box)
                labels.append((left, base, pieces))
                break
    for n in nodes:
        x, y = where[n.id]
        r = radius(n.id)
        fill = KIND_COLOURS.get(n.kind, colors.grey)
        stroke = colors.HexColor("#c62828") if n.confidential else colors.white
        if n.kind == "organization":
            shape: Rect | Circle | Polygon = Rect(x - r, y - r, 2 * r, 2 * r)
        elif n.kind == "place":
            shape = Polygon([x, y + r * 1.2, x + r * 1.2, y, x, y - r * 1.2, x - r * 1.2, y])
        elif n.kind == "document":
            shape = Rect(x - r * 0.8, y - r, r * 1.6, r * 2)
        else:
            shape = Circle(x, y, r)
        shape.fillColor, shape.strokeColor, shape.strokeWidth = fill, stroke, 0.8
        if n.confidential:
            shape.strokeDashArray = [1.5, 1]
        drawing.add(shape)
    for left, base, pieces in labels:
        _draw_label(drawing, left, base, pieces, size)
    _legend(drawing, font, [(k.capitalize(), c) for k, c in KIND_COLOURS.items()], 4, 4)
    return drawing


def _legend(drawing: Drawing, font: str, entries: Sequence[tuple[str, colors.Color]],
            x: float, y: float) -> None:
    for label, colour in entries:
        drawing.add(Rect(x, y, 6, 6, fillColor=colour, strokeColor=None))
        drawing.add(String(x + 9, y, label, fontName=font, fontSize=6.5, fillColor=MUTED))
        x += 14 + stringWidth(label, font, 6.5)


def _day(value: str | None) -> date | None:
    try:
        return date.fromisoformat(value) if value else None
    except ValueError:
        return None


def timeline_drawing(events: Sequence[EventEntry], width: float, font: str,
                     runs: TextRuns | None = None) -> Drawing | None:
    """The dated events on one axis, first to last: a dot per event (a bar for a range), its
    label above or below the axis in the nearest row where it overlaps no other label (at
    most :data:`TIMELINE_ROWS` rows a side; an event that finds none keeps its dot only), the
    first and last date under the axis. None with fewer than two dated events."""
    dated = sorted(((d, e) for e in events if (d := _day(e.date)) is not None),
                   key=lambda pair: pair[0])
    if len(dated) < 2:
        return None
    first = dated[0][0]
    last = max(_day(e.end) or d for d, e in dated)
    days = max((last - first).days, 1)
    pad, size, step = 40.0, 6.3, 10.0

    def x_of(day: date) -> float:
        return pad + (day - first).days / days * (width - 2 * pad)

    # rows[side][row]: the label boxes (left, right) taken in that row
    rows: dict[int, list[list[tuple[float, float]]]] = {
        1: [[] for _ in range(TIMELINE_ROWS)], -1: [[] for _ in range(TIMELINE_ROWS)]}
    placed: list[tuple[int, int, float, list[tuple[str, str]], float]] = []
    for n, (day, event) in enumerate(dated):
        x = x_of(day)
        # the title is ordered on its own (a Hebrew title does not carry the date into its
        # right-to-left run), the date after it
        pieces, w = _label(_cut(event.title, 24), font, size, runs)
        when = f" ({day.day} {day:%b %Y})"
        pieces = [*pieces, (font, when)]
        w += stringWidth(when, font, size)
        # beside its leader line at the ends of the axis, centred on it in the middle
        left = x + 3 if x < width * 0.25 else (x - w - 3 if x > width * 0.75 else x - w / 2)
        left = min(max(left, 1.0), width - w - 1.0)
        span = (left - 3, left + w + 3)
        sides = (1, -1) if n % 2 == 0 else (-1, 1)
        choice = next(((side, row) for row in range(TIMELINE_ROWS) for side in sides
                       if all(span[1] <= a or b <= span[0] for a, b in rows[side][row])), None)
        if choice is None:
            continue
        side, row = choice
        rows[side][row].append(span)
        placed.append((side, row, x, pieces, left))
    used = max([row + 1 for _side, row, *_rest in placed] or [1])
    height = 30.0 + used * 2 * step + 2 * size
    drawing = _drawing(width, height, font)
    axis_y = height / 2
    drawing.add(Line(pad, axis_y, width - pad, axis_y, strokeColor=MUTED, strokeWidth=0.8))
    for day, event in dated:
        x = x_of(day)
        end = _day(event.end)
        if end is not None and end > day:
            drawing.add(Rect(x, axis_y - 2.5, max(x_of(end) - x, 2), 5,
                             fillColor=colors.HexColor("#3b6fb6"), strokeColor=None))
        approximate = event.precision in ("month", "year", "approximate")
        drawing.add(Circle(x, axis_y, 3, fillColor=colors.white if approximate
                           else colors.HexColor("#3b6fb6"),
                           strokeColor=colors.HexColor("#3b6fb6"), strokeWidth=1))
    for side, row, x, pieces, left in placed:
        label_y = axis_y + side * (10 + row * step) - (size if side < 0 else 0)
        drawing.add(Line(x, axis_y + side * 3, x, label_y + (0 if side > 0 else size),
                         strokeColor=colors.HexColor("#cccccc"), strokeWidth=0.4))
        _draw_label(drawing, left, label_y, pieces, size)
    return drawing


def status_drawing(counts: Sequence[tuple[str, int]], width: float, font: str
                   ) -> Drawing | None:
    """Follow-ups by status as horizontal bars with their counts. None when there are none."""
    counts = [(s, c) for s, c in counts]
    if not any(c for _s, c in counts):
        return None
    bar, gap, label_w = 10.0, 5.0, 60.0
    height = len(counts) * (bar + gap) + gap
    drawing = _drawing(width, height, font)
    most = max(c for _s, c in counts)
    usable = min(width - label_w - 40, 260.0)
    for n, (status, count) in enumerate(counts):
        y = height - (n + 1) * (bar + gap)
        drawing.add(String(label_w - 6, y + 2, status, fontName=font, fontSize=8,
                           fillColor=INK, textAnchor="end"))
        length = usable * count / most if most else 0
        if count:
            drawing.add(Rect(label_w, y, max(length, 1.5), bar,
                             fillColor=STATUS_COLOURS.get(status, colors.grey),
                             strokeColor=None))
        drawing.add(String(label_w + length + 4, y + 2, str(count), fontName=font,
                           fontSize=8, fillColor=MUTED))
    return drawing
