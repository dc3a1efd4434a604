"""A page scanned on its side or upside down is read the right way up (its orientation found
before or after a poor first reading), with each word boxed where it is on the page as scanned."""

from __future__ import annotations

import io
import shutil

import pytest

from casefile.ingest import ocr_upright
from casefile.ingest.ocr import get_engine, recognize_pages
from tests.e2e.make_files import scan_image, scan_line_box

LINES = ["The harbor inspector reported the pier unsafe", "and asked the council for repairs.",
         "Fishermen said the fees rose again in March.", "The mayor declined to comment."]


def _turned_scan(degrees: int, dpi: int) -> bytes:
    buffer = io.BytesIO()
    scan_image(LINES, dpi=dpi).rotate(degrees, expand=True).save(buffer, "PNG")
    return buffer.getvalue()


def _check(found, degrees: int, dpi: int) -> None:
    page = found[1]
    text, boxes = page.text_and_boxes()
    assert text.split() == " ".join(LINES).split()
    assert page.turned == (360 - degrees) % 360
    # "The", the first word, is boxed where the first line is on the page as scanned
    x0, y0, x1, y1 = ocr_upright._box_turned_back(scan_line_box(LINES, 0, dpi=dpi), 360 - degrees)
    _s, _e, bx0, by0, bx1, by1 = boxes[0]
    assert x0 - 0.02 <= bx0 < bx1 <= x1 + 0.02 and y0 - 0.02 <= by0 < by1 <= y1 + 0.02, (
        boxes[0], (x0, y0, x1, y1))


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="Tesseract is not installed")
@pytest.mark.parametrize("degrees", [90, 180])
def test_tesseract_says_how_a_page_is_turned_before_it_is_read(degrees) -> None:
    if ocr_upright.tesseract_orientation(scan_image(LINES, dpi=150)) is None:
        pytest.skip("Tesseract's orientation data (osd) is not installed")
    found = recognize_pages(get_engine("rapidocr"), _turned_scan(degrees, 150), "image/png", [1])
    _check(found, degrees, 150)


def test_without_tesseract_a_poor_reading_is_tried_turned(monkeypatch) -> None:
    monkeypatch.setattr(ocr_upright, "tesseract_orientation", lambda _image: None)
    found = recognize_pages(get_engine("rapidocr"), _turned_scan(90, 120), "image/png", [1])
    _check(found, 90, 120)


def test_boxes_turned_back_land_where_they_were() -> None:
    box = (0.1, 0.2, 0.3, 0.25)
    for turn in (90, 180, 270):
        there = ocr_upright._box_turned_back(box, turn)
        back = ocr_upright._box_turned_back(there, (360 - turn) % 360)
        assert back == pytest.approx(box)
    assert ocr_upright._box_turned_back(box, 90) == pytest.approx((0.75, 0.1, 0.8, 0.3))
