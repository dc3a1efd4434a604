"""Image files (PNG, JPEG, TIFF): imported as documents whose text comes from OCR.

An image has no text of its own: it is stored with its original bytes and an empty text, one
page per frame (a multi-page TIFF has several), every page marked as needing OCR
(``extra["needs_ocr"]``, as for a scanned PDF), which :mod:`casefile.services.ocr` fills in
after the import commits. :func:`image_as_pdf` wraps the image as a PDF in memory, so the
document viewer's page pane shows it like a scanned PDF. Pillow loads with the first image.
"""

from __future__ import annotations

import io
from pathlib import PurePath
from typing import Any

from casefile.errors import IngestError
from casefile.ingest.types import Ingested

#: Image types imported (the others are refused with their name).
IMAGE_TYPES = ("image/png", "image/jpeg", "image/tiff")
#: Pages are separated as a PDF's are (``casefile.ingest.pdf.PAGE_SEPARATOR``).
PAGE_SEPARATOR = "\n\n"
#: An image with more pixels than this is refused (Pillow's decompression-bomb guard).
MAX_PIXELS = 200_000_000


def _open(data: bytes, filename: str) -> Any:
    """The image as Pillow opens it (loaded); IngestError when it cannot."""
    from PIL import Image

    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    try:
        image = Image.open(io.BytesIO(data))
        image.load()
    except Image.DecompressionBombError:
        raise IngestError(f"{filename} is an image too large to read") from None
    except Exception:
        raise IngestError(f"{filename} is a damaged image and cannot be read") from None
    return image


def ingest_image(data: bytes, filename: str, mime_type: str) -> Ingested:
    """An image file as a document: empty text, one page per frame, all pages needing OCR.

    ``page_starts`` are the offsets of the (empty) pages in the text of separators; ``extra``
    holds ``pages``, ``needs_ocr`` (1-based pages) and ``image`` (``{"width", "height"}`` in
    pixels of the first frame). Raises IngestError for a damaged or oversized image."""
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
