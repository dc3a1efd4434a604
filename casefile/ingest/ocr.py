"""OCR: a page image -> lines of words, each with its box on the page and a confidence.

Pure (no database, no Qt). Two engines sit behind one small interface, :class:`OcrEngine`:

- ``rapidocr`` (the default): RapidOCR on ONNX Runtime (the ``rapidocr-onnxruntime`` package),
  whose PP-OCRv4 detection and recognition models ship inside the package, so nothing is
  downloaded at run time and it works offline on Windows, macOS and Linux alike. RapidOCR finds
  *lines*; asked with ``return_word_box`` it also places each recognised character (or word)
  inside its line, and the words here are the runs between spaces, each boxed by the union of
  its characters' boxes. Where it gives no character places, a line's box is split among its
  characters in proportion to their count (an approximation: narrow letters get as much room
  as wide ones). The 180° text-direction classifier is off: pages are rendered upright with
  their ``/Rotate`` applied, and on real scans it turned upright lines upside down.
- ``tesseract``: the system's Tesseract through pytesseract, when both are installed and the
  reporter asks for it (``CASEFILE_OCR_ENGINE=tesseract`` or ``--ocr-engine tesseract``); it
  boxes words itself. Its language data comes with the system's package.

Boxes are ``(x0, y0, x1, y1)`` as fractions of the image's width and height (0..1, origin at
the top left), so they hold whatever resolution a page is rendered at; confidences are 0..1.

onnxruntime, OpenCV, numpy and Pillow load when an engine is first made, not at start-up.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from casefile.errors import CasefileError
from casefile.ingest.budget import MAX_OCR_PIXELS
from casefile.offline import quiet_onnxruntime

if TYPE_CHECKING:
    from PIL.Image import Image

#: Engine names, the default first.
ENGINES = ("rapidocr", "tesseract")
#: Environment variable naming the engine to use when none is given.
ENGINE_ENV = "CASEFILE_OCR_ENGINE"
#: PDF pages are rendered at this many dots per inch for OCR...
RENDER_DPI = 200
#: ... and at most this many pixels on their long side (RapidOCR scales larger images down).
RENDER_MAX_SIDE = 2000
#: Text lines RapidOCR recognises with a lower confidence are dropped (its own default).
MIN_LINE_CONFIDENCE = 0.5

Box = tuple[float, float, float, float]


class OcrError(CasefileError):
    """OCR cannot run: the engine asked for is not installed, or an image cannot be read."""


@dataclass(frozen=True)
class OcrWord:
    """One recognised word: its text (no spaces), its box (fractions of the page, top-left
    origin) and the engine's confidence (0..1)."""

    text: str
    box: Box
    confidence: float


@dataclass(frozen=True)
class OcrLine:
    """A line of words in reading order (left to right)."""

    words: tuple[OcrWord, ...]


@dataclass
class OcrPage:
    """What OCR found on one page: its lines, top to bottom."""

    lines: list[OcrLine] = field(default_factory=list)
    #: Degrees (90, 180, 270, counterclockwise) the page image was turned to be read upright;
    #: the words' boxes are on the page as it is, not as it was turned
    #: (:func:`~casefile.ingest.ocr_upright.read_upright`).
    turned: int = 0

    @property
    def words(self) -> list[OcrWord]:
        """Every word of the page, in reading order."""
        return [w for line in self.lines for w in line.words]

    def mean_confidence(self) -> float | None:
        """The mean confidence of the page's words weighted by their length (None: no word)."""
        words = self.words
        total = sum(len(w.text) for w in words)
        if not total:
            return None
        return sum(w.confidence * len(w.text) for w in words) / total

    def text_and_boxes(self) -> tuple[str, list[list[float]]]:
        """The page's text (words joined by a space, lines by a newline) and, for each word,
        ``[start, end, x0, y0, x1, y1]``: its str offsets in that text and its box."""
        parts: list[str] = []
        boxes: list[list[float]] = []
        offset = 0
        for number, line in enumerate(self.lines):
            if number:
                parts.append("\n")
                offset += 1
            for index, word in enumerate(line.words):
                if index:
                    parts.append(" ")
                    offset += 1
                parts.append(word.text)
                boxes.append([offset, offset + len(word.text),
                              *(round(v, 5) for v in word.box)])
                offset += len(word.text)
        return "".join(parts), boxes


class OcrEngine(Protocol):
    """An OCR engine: ``name`` and ``version`` for the document's note; ``recognize`` reads
    one page image (a Pillow image, any mode) into an :class:`OcrPage`. An engine may also
    have ``frame_pixels``: the most pixels of an image file's frame it can use (larger frames
    are scaled down to that before it is asked; default
    :data:`casefile.ingest.budget.MAX_OCR_PIXELS`)."""

    name: str
    version: str

    def recognize(self, image: Image) -> OcrPage: ...


# -- RapidOCR ---------------------------------------------------------------------------------

def _bounds(points: Sequence[Sequence[float]]) -> tuple[float, float, float, float]:
    xs = [float(p[0]) for p in points]
    ys = [float(p[1]) for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def split_line(text: str, line_box: tuple[float, float, float, float],
               char_boxes: Sequence[tuple[str, tuple[float, float, float, float]]] | None,
               ) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Cut a recognised line into words (runs between spaces), each with its pixel box.

    ``char_boxes`` are the engine's pieces of the line in order (a character or a word each,
    with its box); a word's box is the union of the pieces it is made of. Without them (or when
    they do not spell the line), the line's box is split by character positions: character
    ``i`` of ``n`` gets the ``i/n``-th slice of the line's width.
    """
    places: list[tuple[float, float, float, float] | None] = [None] * len(text)
    placed = _place_pieces(text, char_boxes) if char_boxes else None
    for found, piece, (x0, y0, x1, y1) in placed or ():
        for k in range(len(piece)):  # a word-level piece is split among its letters
            places[found + k] = (x0 + (x1 - x0) * k / len(piece), y0,
                                 x0 + (x1 - x0) * (k + 1) / len(piece), y1)
    if any(p is None for i, p in enumerate(places) if not text[i].isspace()):
        x0, y0, x1, y1 = line_box
        n = max(1, len(text))
        places = [(x0 + (x1 - x0) * i / n, y0, x0 + (x1 - x0) * (i + 1) / n, y1)
                  for i in range(len(text))]
    words: list[tuple[str, tuple[float, float, float, float]]] = []
    start = None
    for i in range(len(text) + 1):
        space = i == len(text) or text[i].isspace()
        if not space and start is None:
            start = i
        elif space and start is not None:
            boxes = [b for b in places[start:i] if b is not None]
            words.append((text[start:i], (min(b[0] for b in boxes), min(b[1] for b in boxes),
                                          max(b[2] for b in boxes), max(b[3] for b in boxes))))
            start = None
    return words


def _place_pieces(text: str, pieces: Sequence[tuple[str, tuple[float, float, float, float]]]
                  ) -> list[tuple[int, str, tuple[float, float, float, float]]] | None:
    """Where the recogniser's pieces of a line (in order, each with its pixel box) stand in
    its ``text``: ``(index, piece, box)`` for each piece not blank, stripped, each found after
    the one before; None when one is not there (the pieces do not spell the line)."""
    placed = []
    cursor = 0
    for piece, box in pieces:
        piece = piece.strip()
        if not piece:
            continue
        found = text.find(piece, cursor)
        if found < 0:
            return None
        placed.append((found, piece, box))
        cursor = found + len(piece)
    return placed


#: A run of blank pixel columns at least this many line heights wide, inside a line, is a
#: space between words (see :func:`recover_spaces`).
WORD_GAP = 0.25


def recover_spaces(text: str, pieces: Sequence[tuple[str, tuple[float, float, float, float]]],
                   gray: Any, line_box: tuple[float, float, float, float]) -> str:
    """Put back the spaces between words a recogniser dropped ("unsafeandrecommended").

    PP-OCR's recogniser sometimes reads Latin words on a line without the spaces between
    them. The ink says where they are: inside the line's box (``gray``, the page as a 2-D
    array of 0..255), a run of columns without ink at least :data:`WORD_GAP` line heights wide
    (and twice the line's usual gap between letters) is a word gap; when the recognised
    characters on either side of it (``pieces``, in order, with their pixel boxes) have no
    space between them in ``text``, one is inserted. A gap inside a single piece (a
    word-level piece) cannot be placed and is left alone.
    """
    import numpy as np

    x0, y0, x1, y1 = (int(round(v)) for v in line_box)
    crop = gray[max(0, y0):max(0, y1), max(0, x0):max(0, x1)]
    if crop.size == 0 or len(pieces) < 2:
        return text
    low, high = int(crop.min()), int(crop.max())
    if high - low < 40:  # no contrast: nothing to read gaps from
        return text
    inked = (crop < (low + high) / 2).any(axis=0)
    columns = np.flatnonzero(inked)
    if columns.size < 2:
        return text
    blanks = [(int(a), int(b)) for a, b in zip(columns[:-1], columns[1:], strict=True)
              if b - a > 1]
    if not blanks:
        return text
    # word gaps are wider than both a quarter of the line and twice the usual letter gap
    usual = float(np.median([b - a - 1 for a, b in blanks]))
    gap_min = max(3.0, WORD_GAP * crop.shape[0], 2 * usual)
    gaps = [x0 + (a + b) / 2 for a, b in blanks if b - a - 1 >= gap_min]
    if not gaps:
        return text
    located = _place_pieces(text, pieces)
    if located is None:
        return text
    # (text index, length, centre x)
    placed = [(found, len(piece), (box[0] + box[2]) / 2) for found, piece, box in located]
    insert: set[int] = set()
    for gap in gaps:
        for (i, n, left), (j, _m, right) in zip(placed[:-1], placed[1:], strict=True):
            if left < gap < right:
                if not any(c.isspace() for c in text[i + n:j]):
                    insert.add(j)
                break
    if not insert:
        return text
    return "".join((" " + c) if k in insert else c for k, c in enumerate(text))


def snap_to_ink(words: list[tuple[str, tuple[float, float, float, float]]], gray: Any,
                line_box: tuple[float, float, float, float],
                ) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Fit each word's left and right edges to its ink: the recogniser's character places
    are columns of its own grid, a few pixels short of a word's last letter. Each edge moves
    to the first / last inked column within a quarter of the line's height of it, never past
    the neighbouring words."""
    if not words:
        return words
    x0, y0, x1, y1 = (int(round(v)) for v in line_box)
    crop = gray[max(0, y0):max(0, y1), :]
    if crop.size == 0:
        return words
    low, high = int(crop.min()), int(crop.max())
    if high - low < 40:
        return words
    inked = (crop < (low + high) / 2).any(axis=0)
    pad = 0.25 * max(1, y1 - y0)
    out = []
    for k, (text, (left, top, right, bottom)) in enumerate(words):
        floor = words[k - 1][1][2] if k else max(0.0, left - pad)
        ceiling = words[k + 1][1][0] if k + 1 < len(words) else min(len(inked), right + pad)
        lo, hi = int(max(floor, left - pad)), int(min(ceiling, right + pad))
        columns = [c for c in range(max(0, lo), min(len(inked), hi)) if inked[c]]
        if columns:
            left, right = float(min(left, columns[0])), float(max(right, columns[-1] + 1))
        out.append((text, (left, top, right, bottom)))
    return out


class RapidOcrEngine:
    """RapidOCR (``rapidocr-onnxruntime``): PP-OCRv4 models shipped in the package."""

    name = "RapidOCR"

    def __init__(self) -> None:
        try:
            from importlib.metadata import version

            import onnxruntime
            from rapidocr_onnxruntime import RapidOCR
        except ImportError as exc:
            raise OcrError("OCR needs the rapidocr-onnxruntime package (pip install "
                           "rapidocr-onnxruntime)") from exc
        quiet_onnxruntime(onnxruntime)
        self.version = version("rapidocr-onnxruntime")
        #: Frames are handed over at up to 4x the pixels the line finder is given (see
        #: :func:`_fit`), so that the last scaling is a smooth one.
        self.frame_pixels = 4 * DETECT_MAX_PIXELS
        # a thread per core (at most 4): on this 2-core machine, idle, a dense page of 30 lines
        # at 200 dpi took 10.5 s against 20.4 s with one thread (scripts/bench_ocr.py); OCR runs
        # on a worker thread, so the window stays responsive either way
        threads = max(1, min(4, os.cpu_count() or 1))
        self._ocr = RapidOCR(use_cls=False, print_verbose=False, intra_op_num_threads=threads,
                             inter_op_num_threads=1)
        self._lock = threading.Lock()

    def recognize(self, image: Image) -> OcrPage:
        """OCR one page image (see the module's notes on word boxes)."""
        import numpy as np

        image = _fit(image, self._ocr.max_side_len)
        rgb = image.convert("RGB")
        width, height = rgb.size
        pixels = np.ascontiguousarray(np.asarray(rgb)[:, :, ::-1])  # OpenCV's BGR order
        gray = np.asarray(image.convert("L"))
        with self._lock:
            found, _elapsed = self._ocr(pixels, use_cls=False, return_word_box=True,
                                        text_score=MIN_LINE_CONFIDENCE)
        page = OcrPage()
        for entry in found or []:
            quad, text, score = entry[0], str(entry[1]), float(entry[2])
            pieces = None
            if len(entry) >= 4 and entry[3]:
                boxes = entry[3]
                contents = entry[4] if len(entry) >= 5 else []
                if len(boxes) == len(contents):
                    pieces = [(str(c), _bounds(b)) for c, b in zip(contents, boxes, strict=True)]
            if pieces:
                text = recover_spaces(text, pieces, gray, _bounds(quad))
            words = split_line(text, _bounds(quad), pieces)
            if pieces:
                words = snap_to_ink(words, gray, _bounds(quad))
            if words:
                page.lines.append(OcrLine(tuple(
                    OcrWord(w, _fraction(b, width, height), score) for w, b in words)))
        return page


#: RapidOCR's line finder takes memory in proportion to the pixels it is given: a page scanned
#: at 200 dpi (1,545 x 2,000 once RapidOCR has scaled it) took about 620 MB. Larger images are
#: scaled down to this many pixels, so that no image costs more than such a page.
DETECT_MAX_PIXELS = 3_200_000


def _fit(image: Image, side: int) -> Image:
    """``image`` scaled down so that its longer side is at most ``side`` pixels and it has at
    most :data:`DETECT_MAX_PIXELS` (as it is when it fits).

    RapidOCR scales every image down to its ``max_side_len`` before it finds and reads lines
    (the lines are cut from the scaled image), so scaling first reads the same pixels without
    the full-size copies it would make (three of a 25-megapixel frame: 300 MB)."""
    import math

    from PIL import Image as PilImage

    width, height = image.size
    scale = min(side / max(width, height), math.sqrt(DETECT_MAX_PIXELS / (width * height)))
    if scale >= 1:
        return image
    return image.resize((max(1, round(width * scale)), max(1, round(height * scale))),
                        PilImage.Resampling.LANCZOS, reducing_gap=2.0)


def _fraction(box: tuple[float, float, float, float], width: int, height: int) -> Box:
    x0, y0, x1, y1 = box
    w, h = max(1, width), max(1, height)
    return (max(0.0, min(1.0, x0 / w)), max(0.0, min(1.0, y0 / h)),
            max(0.0, min(1.0, x1 / w)), max(0.0, min(1.0, y1 / h)))


# -- Tesseract --------------------------------------------------------------------------------

def tesseract_available() -> bool:
    """True when pytesseract is installed and finds a ``tesseract`` program."""
    try:
        import pytesseract  # noqa: F401
    except ImportError:
        return False
    return shutil.which("tesseract") is not None


class TesseractEngine:
    """The system's Tesseract through pytesseract (``image_to_data``: words with boxes)."""

    name = "Tesseract"

    def __init__(self, languages: str | None = None) -> None:
        if not tesseract_available():
            raise OcrError("Tesseract is not installed: install it with your system's package "
                           "manager and `pip install pytesseract`, or use the rapidocr engine")
        import pytesseract

        self._tesseract = pytesseract
        self.version = str(pytesseract.get_tesseract_version())
        self.languages = languages or os.environ.get("CASEFILE_TESSERACT_LANG", "eng")

    def _tsv(self, image: Image) -> dict[str, list[Any]]:
        """Tesseract's word table (``tsv``: column name -> values) for ``image``, the page given
        on its standard input and the table read from its standard output. pytesseract's own
        calls write the page to the temp folder (a world-readable PNG, left behind when the
        import is killed): a scan of an encrypted workspace must not reach the disk in plain."""
        import io
        import subprocess

        page = io.BytesIO()
        image.convert("RGB").save(page, format="PNG")
        command = [str(self._tesseract.pytesseract.tesseract_cmd), "stdin", "stdout",
                   "-l", self.languages, "tsv"]
        done = subprocess.run(command, input=page.getvalue(), capture_output=True,
                              timeout=600, check=False)
        if done.returncode != 0:
            reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise OcrError(f"Tesseract failed: {reason[-1] if reason else done.returncode}")
        rows = done.stdout.decode("utf-8", "replace").splitlines()
        header = rows[0].split("\t") if rows else []
        table: dict[str, list[Any]] = {name: [] for name in header}
        for row in rows[1:]:
            cells = row.split("\t")
            if len(cells) == len(header):
                for name, cell in zip(header, cells, strict=True):
                    table[name].append(cell)
        return table

    def recognize(self, image: Image) -> OcrPage:
        """OCR one page image; Tesseract's confidences (0..100) are scaled to 0..1."""
        data = self._tsv(image)
        width, height = image.size
        lines: dict[tuple[int, int, int], list[OcrWord]] = {}
        for i, text in enumerate(data.get("text", [])):
            text = str(text).strip()
            confidence = float(data["conf"][i])
            if not text or confidence < 0:
                continue
            left, top = float(data["left"][i]), float(data["top"][i])
            box = (left, top, left + float(data["width"][i]), top + float(data["height"][i]))
            key = (int(data["block_num"][i]), int(data["par_num"][i]), int(data["line_num"][i]))
            for part in text.split():  # Tesseract words hold no spaces; be safe
                lines.setdefault(key, []).append(
                    OcrWord(part, _fraction(box, width, height), confidence / 100))
        return OcrPage([OcrLine(tuple(words)) for _key, words in sorted(lines.items())])


# -- choosing an engine -------------------------------------------------------------------------

_ENGINES: dict[str, OcrEngine] = {}
_ENGINES_LOCK = threading.Lock()


def engine_name(name: str | None = None) -> str:
    """The engine to use: ``name``, else ``$CASEFILE_OCR_ENGINE``, else ``rapidocr``.
    Raises OcrError for an unknown name."""
    chosen = (name or os.environ.get(ENGINE_ENV) or ENGINES[0]).strip().lower()
    if chosen not in ENGINES:
        raise OcrError(f"unknown OCR engine {chosen!r}: choose {' or '.join(ENGINES)}")
    return chosen


def get_engine(name: str | None = None) -> OcrEngine:
    """The OCR engine ``name`` (see :func:`engine_name`), made once per process (loading
    RapidOCR's models takes about a second). Raises OcrError when it is not installed."""
    chosen = engine_name(name)
    with _ENGINES_LOCK:
        engine = _ENGINES.get(chosen)
        if engine is None:
            engine = RapidOcrEngine() if chosen == "rapidocr" else TesseractEngine()
            _ENGINES[chosen] = engine
        return engine


def forget_engines() -> None:
    """Drop the engines made so far except RapidOCR's (whose models do not change), so the next
    :func:`get_engine` makes them again with the environment of then (Tesseract reads
    ``CASEFILE_TESSERACT_LANG`` when made). For a host that runs several commands in one
    process (the test suite runs the CLI's ``main`` again and again)."""
    with _ENGINES_LOCK:
        for name in [n for n in _ENGINES if n != "rapidocr"]:
            del _ENGINES[name]


# -- page images ----------------------------------------------------------------------------

def page_images(data: bytes, mime_type: str, pages: Sequence[int],
                password: str | None = None, *,
                max_pixels: int | None = None) -> Generator[tuple[int, Image], None, None]:
    """The images of the 1-based ``pages`` of an original, in order, one at a time: a PDF's
    pages rendered in grey at :data:`RENDER_DPI` (long side at most :data:`RENDER_MAX_SIDE`
    pixels, the page's rotation applied), an image file's frames in grey or colour, scaled down
    by a whole factor to at most ``max_pixels`` (default
    :data:`casefile.ingest.budget.MAX_OCR_PIXELS`). Raises OcrError when the original cannot be
    read."""
    if mime_type == "application/pdf":
        yield from _pdf_pages(data, pages, password)
    elif mime_type.startswith("image/"):
        yield from _image_frames(data, pages, max_pixels)
    else:
        raise OcrError(f"OCR reads PDFs and images, not {mime_type}")


def _pdf_pages(data: bytes, pages: Sequence[int],
               password: str | None) -> Iterator[tuple[int, Image]]:
    import pypdfium2 as pdfium

    from casefile.ingest.pdf import PDFIUM_LOCK

    with PDFIUM_LOCK:
        try:
            document = pdfium.PdfDocument(data, password=password)
        except pdfium.PdfiumError as exc:
            raise OcrError("the PDF cannot be opened for OCR") from exc
    try:
        for number in pages:
            with PDFIUM_LOCK:
                if not 0 < number <= len(document):
                    continue
                page = document[number - 1]
                try:
                    _check_page_images(page, number)
                    width, height = page.get_size()
                    if page.get_rotation() % 180:
                        width, height = height, width
                    scale = min(RENDER_DPI / 72, RENDER_MAX_SIDE / max(width, height, 1.0))
                    bitmap = page.render(scale=scale, grayscale=True)
                    image = bitmap.to_pil().copy()
                    bitmap.close()
                finally:
                    page.close()
            yield number, image
    finally:
        with PDFIUM_LOCK:
            document.close()


def _check_page_images(page: Any, number: int) -> None:
    """Raise OcrError when an image drawn on the PDF page ``number`` has more pixels than
    :data:`casefile.ingest.budget.MAX_IMAGE_PIXELS` (rendering the page decodes it), from
    the image's own header, before anything is decoded."""
    import pypdfium2.raw as pdfium_c

    from casefile.ingest.budget import MAX_IMAGE_PIXELS, megapixels

    for found in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE]):
        try:
            width, height = found.get_px_size()
        except Exception:  # PDFium cannot say: rendering decides
            continue
        if width * height > MAX_IMAGE_PIXELS:
            raise OcrError(f"page {number} holds an image of {width}\u00d7{height} pixels, more "
                           f"than the {megapixels(MAX_IMAGE_PIXELS)}-megapixel limit; it was "
                           "not read")


def _image_frames(data: bytes, pages: Sequence[int],
                  max_pixels: int | None) -> Iterator[tuple[int, Image]]:
    from PIL import ImageOps

    from casefile.errors import IngestError
    from casefile.ingest.images import open_image

    try:
        image = open_image(data, "the image")  # sizes checked before any pixel is decoded
    except IngestError as exc:
        raise OcrError(f"the image cannot be read for OCR ({exc})") from exc
    frames = getattr(image, "n_frames", 1)
    try:
        for number in pages:
            if not 0 < number <= frames:
                continue
            try:
                image.seek(number - 1)
                orientation = image.getexif().get(_EXIF_ORIENTATION)
                frame = _scaled_for_ocr(image, max_pixels or MAX_OCR_PIXELS)
                if frames == 1:
                    image.close()  # the decoded full-size pixels go before the OCR runs
                if orientation:
                    frame.getexif()[_EXIF_ORIENTATION] = orientation
                    frame = ImageOps.exif_transpose(frame)
            except Exception as exc:
                raise OcrError(f"frame {number} of the image cannot be read ({exc})") from exc
            yield number, frame
    finally:
        image.close()


#: The EXIF tag saying how a photo is turned.
_EXIF_ORIENTATION = 0x0112
#: Rows of the full-size image :func:`_scaled_for_ocr` converts at a time: about this many
#: pixels.
_STRIP_PIXELS = 4_000_000


def _scaled_for_ocr(image: Any, max_pixels: int) -> Image:
    """The current frame in grey ("L") or colour ("RGB"), transparency laid on white, scaled
    down by a whole factor to at most ``max_pixels`` (a JPEG decoded at that scale directly).
    Converted and reduced a strip of rows at a time, so the only full-size copy is the decoded
    frame itself (PIL's ``reduce`` of a whole 100-megapixel RGBA frame took another 475 MB)."""
    import math

    from PIL import Image as PilImage

    pixels = image.width * image.height
    factor = max(1, math.ceil(math.sqrt(pixels / max_pixels)))
    if factor > 1 and image.format == "JPEG":
        image.draft(image.mode, (image.width // factor, image.height // factor))
        factor = max(1, math.ceil(math.sqrt(image.width * image.height / max_pixels)))
    image.load()
    grey = image.mode in ("1", "L", "LA", "I", "I;16", "F") or (
        image.mode in ("P", "PA") and _grey_palette(image))
    mode = "L" if grey else "RGB"
    width, height = image.size
    out = PilImage.new(mode, (math.ceil(width / factor), math.ceil(height / factor)), "white")
    rows = max(factor, (_STRIP_PIXELS // max(1, width)) // factor * factor)
    for top in range(0, height, rows):
        strip = _flattened(image.crop((0, top, width, min(height, top + rows))), mode)
        out.paste(strip.reduce(factor) if factor > 1 else strip, (0, top // factor))
    return out


def _grey_palette(image: Any) -> bool:
    palette = image.getpalette() or []
    return all(palette[k] == palette[k + 1] == palette[k + 2] for k in range(0, len(palette), 3))


def _flattened(strip: Any, mode: str) -> Image:
    """``strip`` in ``mode``, any transparency laid on white (a transparent background is
    usually black underneath, which would hide black text)."""
    from PIL import Image as PilImage

    if "A" in strip.mode or "transparency" in strip.info:
        rgba = strip.convert("RGBA")
        ground = PilImage.new("RGBA", rgba.size, (255, 255, 255, 255))
        return PilImage.alpha_composite(ground, rgba).convert(mode)
    return strip.convert(mode)


def recognize_pages(engine: OcrEngine, data: bytes, mime_type: str, pages: Sequence[int], *,
                    password: str | None = None,
                    progress: Callable[[int, int], None] | None = None,
                    cancelled: Callable[[], bool] | None = None) -> dict[int, OcrPage] | None:
    """OCR the 1-based ``pages`` of an original with ``engine``. ``progress(done, total)`` is
    called before the first page and after each; ``cancelled()`` is asked before each page
    (True: returns None, nothing kept). Returns each page's :class:`OcrPage` by number."""
    from casefile.ingest.ocr_upright import read_upright  # imports this module: not at its top

    found: dict[int, OcrPage] = {}
    total = len(pages)
    if progress is not None:
        progress(0, total)
    images: Generator[tuple[int, Image], None, None] = page_images(
        data, mime_type, pages, password, max_pixels=getattr(engine, "frame_pixels", None))
    try:
        while True:
            if cancelled is not None and cancelled():
                return None
            try:
                number, image = next(images)
            except StopIteration:
                break
            found[number] = read_upright(engine, image)
            if progress is not None:
                progress(len(found), total)
    finally:
        images.close()
    if cancelled is not None and cancelled():
        return None
    return found


def span_boxes(words: Sequence[Sequence[float]], start: int, end: int) -> list[Box]:
    """Boxes covering the page-local str offsets ``start <= i < end`` of a page whose words
    are ``[start, end, x0, y0, x1, y1]`` (:meth:`OcrPage.text_and_boxes`): a word partly in the
    span is cut by character positions; neighbouring words of one line merge into one box."""
    boxes: list[list[float]] = []
    for entry in words:
        w_start, w_end = int(entry[0]), int(entry[1])
        x0, y0, x1, y1 = (float(v) for v in entry[2:6])
        lo, hi = max(start, w_start), min(end, w_end)
        if lo >= hi:
            continue
        n = max(1, w_end - w_start)
        left = x0 + (x1 - x0) * (lo - w_start) / n
        right = x0 + (x1 - x0) * (hi - w_start) / n
        if boxes:
            last = boxes[-1]
            same_line = min(last[3], y1) - max(last[1], y0) > 0.5 * min(last[3] - last[1],
                                                                         y1 - y0)
            if same_line and left >= last[2] - 1e-6:
                last[2], last[1], last[3] = right, min(last[1], y0), max(last[3], y1)
                continue
        boxes.append([left, y0, right, y1])
    return [(b[0], b[1], b[2], b[3]) for b in boxes]
