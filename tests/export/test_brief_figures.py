"""The brief's figures as a reader sees them: graph and timeline labels that never overlap,
Chinese and Japanese labels in a font that has their glyphs, Arabic joined and Hebrew in
reading order (as in the body text), and a graph that fills the room left on a page instead of
leaving it two-thirds empty."""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path

import pytest
from reportlab.graphics.shapes import String
from reportlab.pdfbase.pdfmetrics import stringWidth

from casefile.export.brief_data import EventEntry, GraphFigure, GraphNodeEntry
from casefile.export.figures import graph_drawing, timeline_drawing
from casefile.export.fonts import fallback_fonts, font_chars, register_fonts
from casefile.export.textruns import TextRuns

WIDTH = 468.0


@pytest.fixture(scope="module")
def runs() -> TextRuns:
    return TextRuns(register_fonts(), fallback_fonts())


def _strings(drawing) -> list[String]:
    return [s for s in drawing.contents if isinstance(s, String)]


def _labels(drawing) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Each label (adjacent runs on one baseline joined) with its box."""
    out: list[tuple[str, list[float]]] = []
    for s in _strings(drawing):
        w = stringWidth(s.text, s.fontName, s.fontSize)
        left = s.x - (w / 2 if s.textAnchor == "middle" else w if s.textAnchor == "end" else 0)
        if out and abs(out[-1][1][1] - s.y) < 0.01 and abs(out[-1][1][2] - left) < 0.01:
            out[-1] = (out[-1][0] + s.text, [out[-1][1][0], s.y, left + w, s.fontSize])
        else:
            out.append((s.text, [left, s.y, left + w, s.fontSize]))
    return [(text, (b[0], b[1], b[2], b[1] + b[3])) for text, b in out]


def _no_overlap(boxes) -> None:
    for i, (ta, a) in enumerate(boxes):
        for tb, b in boxes[i + 1:]:
            assert not (a[0] < b[2] - 0.1 and b[0] < a[2] - 0.1
                        and a[1] < b[3] - 0.1 and b[1] < a[3] - 0.1), (ta, tb)


def test_graph_labels_of_a_crowded_graph_do_not_overlap(runs) -> None:
    rng = random.Random(7)
    nodes = [GraphNodeEntry(i, "person", f"Person with a long name {i}", rng.uniform(0, 300),
                            rng.uniform(0, 200)) for i in range(120)]
    edges = [(i, rng.randrange(120), "related to", 1) for i in range(120)]
    drawing = graph_drawing(GraphFigure(nodes, edges, 120), WIDTH, runs.fonts.regular,
                            max_height=300, runs=runs)
    labels = [(t, b) for t, b in _labels(drawing) if t.startswith("Person")]
    assert len(labels) >= 10  # the best connected are still labelled
    _no_overlap(labels)


def test_timeline_labels_of_a_busy_week_do_not_overlap(runs) -> None:
    events = [EventEntry(f"Meeting number {n} at the council", (date(2024, 3, 1)
                         + timedelta(days=n % 7)).isoformat()) for n in range(12)]
    events.append(EventEntry("Audit published", "2024-09-01"))
    drawing = timeline_drawing(events, WIDTH, runs.fonts.regular, runs=runs)
    labels = _labels(drawing)
    assert len(labels) >= 10
    _no_overlap(labels)


def test_cjk_arabic_and_hebrew_labels_are_printable_and_shaped(runs) -> None:
    names = ["王小明", "株式会社みらい", "محمد الأحمد", "דוד כהן"]
    nodes = [GraphNodeEntry(i, "person", name, 100.0 * i, 0.0) for i, name in enumerate(names)]
    drawing = graph_drawing(GraphFigure(nodes, [(0, 1, "related to", 1), (1, 2, "related to", 1),
                                                (2, 3, "related to", 1)], 4),
                            WIDTH, runs.fonts.regular, runs=runs)
    strings = _strings(drawing)
    for s in strings:  # every glyph is in the font it is set in: no boxes
        assert set(s.text) <= font_chars(s.fontName) | {" "}, (s.text, s.fontName)
    texts = [s.text for s in strings]
    if runs.fallbacks.font_for("王") is None:
        pytest.skip("no font with Chinese glyphs on this machine")
    assert "王小明" in texts and "株式会社みらい" in texts
    assert any(s.fontName != runs.fonts.regular for s in strings if s.text == "王小明")
    # Arabic in its joined presentation forms, no bare letters left
    arabic = "".join(t for t in texts if any("\ufe70" <= c <= "\ufeff" for c in t))
    assert len(arabic.replace(" ", "")) >= 8
    joined = sum(1 for c in arabic if "\ufe70" <= c <= "\ufeff")
    assert joined >= len(arabic.replace(" ", "")) - 2, arabic  # (a lone alef stays as is)
    assert "ןהכ דוד" in texts  # Hebrew drawn right to left: its last letter leftmost
    events = [EventEntry("דוד כהן resigns", "2024-03-01"), EventEntry("王小明 meets", "2024-04-01")]
    shown = [t for t, _b in _labels(timeline_drawing(events, WIDTH, runs.fonts.regular,
                                                     runs=runs))]
    assert "resigns ןהכ דוד (1 Mar 2024)" in shown and "王小明 meets (1 Apr 2024)" in shown


def _lowest_text(page) -> float:
    """The y (points from the page's bottom) of the lowest line of body text on a PDF page
    (the footer, under 0.8 inch, left out)."""
    ys: list[float] = []

    def visit(text, cm, tm, _font, _size) -> None:
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]  # the text matrix in page space
        if text.strip() and y > 0.8 * 72:
            ys.append(y)

    page.extract_text(visitor_text=visit)
    return min(ys)


@pytest.mark.parametrize("people", [6, 12, 14, 17, 20])
def test_no_page_is_left_mostly_empty_before_the_graph(workspace, case_id, people,
                                                       tmp_path: Path) -> None:
    from pypdf import PdfReader

    from casefile.services import brief, items, relationships

    with workspace.transaction() as s:
        ids = [items.create_item(s, case_id, "person", f"Person {n:02d}",
                                 notes="A note on this person, long enough for a second line "
                                       "in the brief's list of people.").id
               for n in range(people)]
        for n in range(1, people):
            relationships.add_relationship(s, ids[n], ids[n // 2], "related to")
    out = tmp_path / "brief.pdf"
    with workspace.transaction() as s:
        brief.export_brief(s, case_id, out, today=date(2024, 4, 1))
    pages = PdfReader(out).pages
    texts = [" ".join((page.extract_text() or "").split()) for page in pages]
    at = next(i for i, text in enumerate(texts) if "Relationship graph" in text)
    height = float(pages[at - 1].mediabox.height)
    before = texts[at - 1]
    if "Open questions" in before and "People" not in before:
        return  # the page before is the cover, which ends on purpose
    # the page before the graph is more than half full (the graph is drawn smaller on a page
    # with room for a good part of it, and moved only when there is not)
    assert _lowest_text(pages[at - 1]) < height / 2, (people, before[-300:])
