"""OCR of pages scanned sideways or upside down: :func:`read_upright` reads a page image the
right way up, asking Tesseract's orientation detection first when it is installed, else trying
the page turned on a small copy when its reading is poor. Boxes are given back on the page as
it is (:mod:`casefile.ingest.ocr` describes boxes and confidences).
"""

from __future__ import annotations

import shutil
from typing import TYPE_CHECKING

from casefile.ingest.ocr import Box, OcrEngine, OcrLine, OcrPage, OcrWord

if TYPE_CHECKING:
    from PIL.Image import Image


#: A page read with at least this many words at this mean confidence is taken as upright
#: without looking further.
UPRIGHT_WORDS = 8
UPRIGHT_CONFIDENCE = 0.75
#: The longer side, in pixels, of the copy turned four ways to find a page's orientation when
#: Tesseract's orientation detection is not installed.
PROBE_SIDE = 1000
#: Tesseract's orientation confidence below which its answer is not followed.
OSD_MIN_CONFIDENCE = 2.0


def _legible(page: OcrPage, size: tuple[int, int], *, across: bool = True) -> float:
    """How much confidently read text a page of ``size`` pixels has: letters weighted by
    confidence, words under 0.5 confidence not counted; with ``across``, only lines that run
    across the page (a line standing on its end was read by turning its strip, which an
    engine does for a page on its side, giving its lines in the wrong order)."""
    width, height = size
    total = 0.0
    for line in page.lines:
        if across and line.words:
            x0 = min(w.box[0] for w in line.words)
            x1 = max(w.box[2] for w in line.words)
            y0 = min(w.box[1] for w in line.words)
            y1 = max(w.box[3] for w in line.words)
            if (x1 - x0) * width < (y1 - y0) * height:
                continue
        total += sum(len(w.text) * w.confidence for w in line.words if w.confidence >= 0.5)
    return total


def _reads_well(page: OcrPage, size: tuple[int, int]) -> bool:
    """A reading good enough not to look further: :data:`UPRIGHT_WORDS` words at a mean
    confidence of :data:`UPRIGHT_CONFIDENCE`, most of its text in lines across the page."""
    return (len(page.words) >= UPRIGHT_WORDS
            and (page.mean_confidence() or 0.0) >= UPRIGHT_CONFIDENCE
            and _legible(page, size) >= 0.8 * _legible(page, size, across=False))


def _box_turned_back(box: Box, turned: int) -> Box:
    """A box (fractions, top-left origin) on an image turned ``turned`` degrees
    counterclockwise (Pillow's ``rotate(turned, expand=True)``), on the image as it was."""
    x0, y0, x1, y1 = box
    if turned == 90:  # (u, v) went to (v, 1 - u)
        return (1 - y1, x0, 1 - y0, x1)
    if turned == 180:
        return (1 - x1, 1 - y1, 1 - x0, 1 - y0)
    if turned == 270:  # (u, v) went to (1 - v, u)
        return (y0, 1 - x1, y1, 1 - x0)
    return box


def _turned_back(page: OcrPage, turned: int) -> OcrPage:
    return OcrPage([OcrLine(tuple(OcrWord(w.text, _box_turned_back(w.box, turned),
                                          w.confidence) for w in line.words))
                    for line in page.lines], turned=turned)


def tesseract_orientation(image: Image) -> int | None:
    """Degrees to turn ``image`` counterclockwise to make its text upright (0, 90, 180, 270),
    from Tesseract's orientation and script detection (``--psm 0``); None when it cannot tell
    (Tesseract or its ``osd`` data not installed, too little text, a confidence under
    :data:`OSD_MIN_CONFIDENCE`). The page goes to Tesseract on its standard input, never to
    the disk."""
    import io
    import re
    import subprocess

    program = shutil.which("tesseract")
    if program is None:
        return None
    page = io.BytesIO()
    image.convert("L").save(page, format="PNG")
    try:
        done = subprocess.run([program, "stdin", "stdout", "--psm", "0"], input=page.getvalue(),
                              capture_output=True, timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    out = done.stdout.decode("utf-8", "replace")
    rotate = re.search(r"Rotate:\s*(\d+)", out)
    confidence = re.search(r"Orientation confidence:\s*([\d.]+)", out)
    if (done.returncode != 0 or rotate is None or confidence is None
            or float(confidence.group(1)) < OSD_MIN_CONFIDENCE):
        return None  # no osd data, too few characters, or unsure: it cannot tell
    return (360 - int(rotate.group(1))) % 360  # "Rotate: 90" is 90 degrees clockwise


def _probe_orientation(engine: OcrEngine, image: Image) -> int:
    """The turn (counterclockwise degrees) under which ``engine`` reads the most text across
    the page on a small copy of ``image``; 0 unless another turn reads clearly more."""
    probe = image.copy()
    probe.thumbnail((PROBE_SIDE, PROBE_SIDE))
    scores: dict[int, float] = {}
    for turn in (0, 90, 270, 180):
        turned = probe.rotate(turn, expand=True) if turn else probe
        scores[turn] = _legible(engine.recognize(turned), turned.size)
    best = max(scores, key=lambda turn: scores[turn])
    return best if scores[best] >= max(2 * scores[0], 12.0) else 0


def read_upright(engine: OcrEngine, image: Image) -> OcrPage:
    """OCR one page image the right way up. When Tesseract's orientation detection is
    installed and sure, it says first how the page is turned; otherwise a page whose reading is
    poor
    (fewer than :data:`UPRIGHT_WORDS` words, a mean confidence under
    :data:`UPRIGHT_CONFIDENCE`, or lines standing on end) is tried turned on a small copy, and
    read again turned when that reads clearly more. The result's boxes are on the page as it
    is; ``turned`` says by how much it was turned to be read."""
    turn = tesseract_orientation(image)
    if turn:
        rotated = image.rotate(turn, expand=True)
        turned = engine.recognize(rotated)
        if _reads_well(turned, rotated.size):
            return _turned_back(turned, turn)
        # Tesseract may be wrong: the page as it is, if that reads better
        page = engine.recognize(image)
        return (page if _legible(page, image.size) > _legible(turned, rotated.size)
                else _turned_back(turned, turn))
    page = engine.recognize(image)
    if turn == 0 or _reads_well(page, image.size):
        return page
    legible = _legible(page, image.size)
    turn = _probe_orientation(engine, image)
    if not turn:
        return page
    rotated = image.rotate(turn, expand=True)
    turned = engine.recognize(rotated)
    return _turned_back(turned, turn) if _legible(turned, rotated.size) > legible else page
