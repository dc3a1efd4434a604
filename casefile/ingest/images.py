"""Image files (PNG, JPEG, TIFF): imported as documents whose text comes from OCR.

An image has no text of its own: it is stored with its original bytes and an empty text, one
page per frame (a multi-page TIFF has several), every page marked as needing OCR
(``extra["needs_ocr"]``, as for a scanned PDF), which :mod:`casefile.services.ocr` fills in
after the import commits. :func:`image_as_pdf` wraps the image as a PDF in memory, so the
document viewer's page pane shows it like a scanned PDF. Pillow loads with the first image.
"""

from __future__ import annotations

import io
import re
import warnings
from pathlib import PurePath
from typing import Any

from casefile.errors import IngestError
from casefile.ingest import budget
from casefile.ingest.types import Ingested

#: Image types imported (the others are refused with their name).
IMAGE_TYPES = ("image/png", "image/jpeg", "image/tiff")
#: Pages are separated as a PDF's are (``casefile.ingest.pdf.PAGE_SEPARATOR``).
PAGE_SEPARATOR = "\n\n"
_BOMB_PIXELS = re.compile(r"\((\d+) pixels\)")


def open_image(data: bytes, filename: str) -> Any:
    """The image as Pillow opens it, its header read and nothing decoded yet, each frame's
    size checked against :data:`casefile.ingest.budget.MAX_IMAGE_PIXELS` and its frames
    counted against :data:`~casefile.ingest.budget.MAX_IMAGE_FRAMES`. Raises IngestError
    ("scan.png was not imported: 14000×14000 pixels is more than the 100-megapixel limit")
    for an oversized image, IngestError for one Pillow cannot open."""
    from PIL import Image

    # Pillow's own guard (a warning above this, an error above twice this) stays on for every
    # image opened in the process; the refusal below names the size.
    Image.MAX_IMAGE_PIXELS = budget.MAX_IMAGE_PIXELS
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            budget.check_image_size(image.width, image.height, filename)
            frames = int(getattr(image, "n_frames", 1) or 1)
            if frames > budget.MAX_IMAGE_FRAMES:
                raise IngestError(
                    f"{filename} was not imported: it has {budget.count(frames)} frames; "
                    f"Casefile reads at most {budget.count(budget.MAX_IMAGE_FRAMES)}")
            for number in range(1, frames):  # frames of a TIFF may differ in size
                image.seek(number)
                budget.check_image_size(image.width, image.height, filename)
            if frames > 1:
                image.seek(0)
    except IngestError:
        raise
    except Image.DecompressionBombError as exc:
        found = _BOMB_PIXELS.search(str(exc))
        size = f"{budget.count(int(found.group(1)))} pixels" if found else "its size"
        raise IngestError(
            f"{filename} was not imported: {size} is more than the "
            f"{budget.megapixels(budget.MAX_IMAGE_PIXELS)}-megapixel limit") from None
    except Exception:
        raise IngestError(f"{filename} is a damaged image and cannot be read") from None
    return image


def _open(data: bytes, filename: str) -> Any:
    """The image as Pillow opens it (:func:`open_image`), its first frame decoded; IngestError
    when it cannot be."""
    image = open_image(data, filename)
    try:
        image.load()
    except Exception:
        raise IngestError(f"{filename} is a damaged image and cannot be read") from None
    return image


def ingest_image(data: bytes, filename: str, mime_type: str) -> Ingested:
    """An image file as a document: empty text, one page per frame, all pages needing OCR.

    ``page_starts`` are the offsets of the (empty) pages in the text of separators; ``extra``
    holds ``pages``, ``needs_ocr`` (1-based pages) and ``image`` (``{"width", "height"}`` in
    pixels of the first frame). Raises IngestError for a damaged image, and before decoding
    anything for one over the pixel or frame limits (:func:`open_image`)."""
    image = _open(data, filename)
    frames = max(1, int(getattr(image, "n_frames", 1) or 1))
    text = PAGE_SEPARATOR * (frames - 1)
    starts = [n * len(PAGE_SEPARATOR) for n in range(frames)]
    kind = {"image/png": "PNG", "image/jpeg": "JPEG", "image/tiff": "TIFF"}.get(mime_type, "")
    result = Ingested(
        text=text, mime_type=mime_type, title=PurePath(filename).stem or filename,
        kind="record", page_starts=starts, filename=filename,
        notes=[f"{kind} image: its text comes from OCR"
               + (f" ({frames} pages)" if frames > 1 else "")],
    )
    result.extra["pages"] = frames
    result.extra["needs_ocr"] = list(range(1, frames + 1))
    result.extra["image"] = {"width": int(image.width), "height": int(image.height)}
    return result


def image_as_pdf(data: bytes, *, dpi: float = 150.0) -> bytes:
    """The image's frames as the pages of a PDF (in memory; each page the frame's size at
    ``dpi``), for the page pane. Raises IngestError for an image Pillow cannot read."""
    from PIL import ImageOps

    image = _open(data, "the image")
    frames = []
    for number in range(max(1, int(getattr(image, "n_frames", 1) or 1))):
        image.seek(number)
        frame = ImageOps.exif_transpose(image.copy())
        frames.append(frame.convert("RGB") if frame.mode not in ("RGB", "L", "1") else frame)
    out = io.BytesIO()
    frames[0].save(out, "PDF", resolution=dpi, save_all=True, append_images=frames[1:])
    return out.getvalue()
