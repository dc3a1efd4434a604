"""OCR engine and image files: words with boxes where they are on the page."""

from __future__ import annotations

import io
import sys

import pytest

from casefile.errors import IngestError
from casefile.ingest import ingest_bytes, pages_needing_ocr
from casefile.ingest.ocr import get_engine, recognize_pages, span_boxes, split_line
from tests.e2e.make_files import scan_image, scan_png
from tests.ingest.ingest_helpers import SAMPLES

JBIG2 = SAMPLES / "real" / "pdf-with-jbig2.pdf"


def test_a_line_without_character_places_is_split_by_character_positions() -> None:
    words = split_line("ab cd", (0.0, 10.0, 50.0, 20.0), None)
    assert words == [("ab", (0.0, 10.0, 20.0, 20.0)), ("cd", (30.0, 10.0, 50.0, 20.0))]


def test_character_places_box_each_word_by_its_own_letters() -> None:
    pieces = [("a", (0, 0, 5, 9)), ("b", (6, 0, 9, 9)), ("c", (30, 1, 36, 10))]
    assert split_line("ab c", (0, 0, 40, 10), pieces) == [("ab", (0, 0, 9, 9)),
                                                          ("c", (30, 1, 36, 10))]


def test_span_boxes_cut_a_word_at_its_characters_and_join_words_of_a_line() -> None:
    words = [[0, 4, 0.1, 0.1, 0.3, 0.12], [5, 9, 0.32, 0.1, 0.5, 0.12],
             [10, 14, 0.1, 0.2, 0.3, 0.22]]
    assert span_boxes(words, 2, 9) == [(0.2, 0.1, 0.5, 0.12)]
    two_lines = span_boxes(words, 5, 14)
    assert [round(b[1], 2) for b in two_lines] == [0.1, 0.2]


def test_an_image_file_imports_with_an_empty_text_and_every_page_waiting_for_ocr() -> None:
    png = ingest_bytes(scan_png(["Nothing to see"]), "page.png")
    assert (png.mime_type, png.text, png.page_starts) == ("image/png", "", [0])
    assert pages_needing_ocr(png) == [1]
    frames = [scan_image([f"Frame {n}"], dpi=50) for n in (1, 2)]
    buffer = io.BytesIO()
    frames[0].save(buffer, "TIFF", save_all=True, append_images=frames[1:])
    tiff = ingest_bytes(buffer.getvalue(), "two.tif")
    assert (tiff.mime_type, tiff.text, tiff.page_starts) == ("image/tiff", "\n\n", [0, 2])
    assert pages_needing_ocr(tiff) == [1, 2]
    with pytest.raises(IngestError, match="^bad.jpg is a damaged image"):
        ingest_bytes(b"\xff\xd8\xff\xe0 not really a jpeg", "bad.jpg")


@pytest.mark.slow
def test_the_jbig2_scan_gets_the_words_of_its_speech_bubble_boxed_in_the_bubble() -> None:
    # the page (rendered and looked at): a face and a speech bubble reading
    # "It / Doesn't / Work?!?!?!" right of the page's centre, a quarter of the way down
    found = recognize_pages(get_engine("rapidocr"), JBIG2.read_bytes(), "application/pdf", [1])
    assert found is not None
    text, boxes = found[1].text_and_boxes()
    assert text.split() == ["It", "Doesn't", "Work?!?!?!"]
    for _start, _end, x0, y0, x1, y1 in boxes:
        assert 0.6 < x0 < x1 < 0.75 and 0.25 < y0 < y1 < 0.35
    assert found[1].mean_confidence() > 0.8


def test_tesseract_reads_a_generated_scan_with_each_word_where_it_is_drawn(
        tmp_path, monkeypatch) -> None:
    import os
    import tempfile

    from casefile.ingest.ocr import tesseract_available
    from tests.e2e.make_files import scan_line_box

    if not tesseract_available():
        message = "Tesseract is not installed (Debian: apt-get install tesseract-ocr)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    lines = ["The harbor inspector reported the pier unsafe", "and asked for repairs."]
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    written: list[str] = []
    watching = [True]

    def watch(event: str, args: tuple) -> None:  # an audit hook stays: it is switched off below
        if watching[0] and event == "open" and str(args[0]).startswith(str(tmp_path)):
            written.append(str(args[0]))

    sys.addaudithook(watch)
    try:
        found = recognize_pages(get_engine("tesseract"), scan_png(lines, dpi=200), "image/png",
                                [1])
    finally:
        watching[0] = False
    assert written == []  # the page never went to the temp folder, not even for a moment
    assert found is not None
    text, boxes = found[1].text_and_boxes()
    assert text.split() == " ".join(lines).split()
    x0, y0, x1, y1 = scan_line_box(lines, 0, dpi=200)
    first = boxes[0]  # "The": at the start of the first line
    assert abs(first[2] - x0) < 0.01 and y0 - 0.01 < first[3] < first[5] < y1 + 0.01
    assert found[1].mean_confidence() > 0.8
