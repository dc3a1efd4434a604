"""What one file may cost to read: the limits on images, PDFs, long texts and special files.

Every limit is checked before the costly step it guards (decoding pixels, inflating streams,
reading pages, running the extractor), so a hostile file is refused within seconds and within
a small memory budget, with one sentence naming the real reason and the limit. Pure: no
database, no Qt.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from casefile.errors import IngestError
from casefile.filenames import printable_name

#: An image (each frame) with more pixels than this is refused before it is decoded. 100
#: megapixels is a 600 dpi scan of an A1 poster; decoded as RGB it takes 300 MB.
MAX_IMAGE_PIXELS = 100_000_000
#: An image file with more frames than this is refused (each frame is a page to OCR).
MAX_IMAGE_FRAMES = 2_000
#: Image frames larger than this are scaled down before OCR (RapidOCR scales large images
#: down itself; the full-size copies it would make first cost gigabytes).
MAX_OCR_PIXELS = 25_000_000
#: A PDF with more pages than this is refused (its page count named). Every page's lines are
#: kept until the whole document is read (running headers, hyphenation): 5,000 pages of dense
#: text (16.5 million characters) took the reader 940 MB and almost 5 minutes, 2,000 about
#: 420 MB.
MAX_PDF_PAGES = 2_000
#: A compressed PDF stream that inflates to more than this is a decompression bomb...
MAX_INFLATED_STREAM = 256 * 1024**2
#: ... and so is a PDF whose compressed streams inflate to more than this in all.
MAX_INFLATED_TOTAL = 2 * 1024**3
#: Suggestions are not run on a text longer than this (Python str characters).
MAX_SUGGEST_CHARS = 2_000_000


def count(n: int) -> str:
    """``200000`` -> ``"200,000"``."""
    return f"{n:,}"


def megapixels(pixels: int) -> str:
    """``100_000_000`` -> ``"100"``; ``2_500_000`` -> ``"2.5"``."""
    value = pixels / 1_000_000
    return f"{value:.0f}" if value >= 10 or value == int(value) else f"{value:.1f}"


def check_image_size(width: int, height: int, filename: str) -> None:
    """Refuse an image of ``width`` x ``height`` pixels over :data:`MAX_IMAGE_PIXELS`.
    Raises IngestError ("scan.png was not imported: 14000×14000 pixels is more than the
    100-megapixel limit")."""
    if width * height > MAX_IMAGE_PIXELS:
        raise IngestError(
            f"{filename} was not imported: {width}\u00d7{height} pixels is more than the "
            f"{megapixels(MAX_IMAGE_PIXELS)}-megapixel limit")


def millions(n: int) -> str:
    """A count of characters in words: ``60_000_000`` -> ``"60 million"``, ``1_500`` ->
    ``"1,500"``."""
    if n >= 1_000_000:
        value = n / 1_000_000
        shown = f"{value:.0f}" if value >= 10 or value == int(value) else f"{value:.1f}"
        return f"{shown} million"
    return count(n)


def suggestions_skipped(length: int) -> str | None:
    """The note for a text of ``length`` characters too long for suggestions, or None when
    suggestions run on it (at most :data:`MAX_SUGGEST_CHARS`)."""
    if length <= MAX_SUGGEST_CHARS:
        return None
    return (f"suggestions skipped: the text is {millions(length)} characters, above the "
            f"{millions(MAX_SUGGEST_CHARS)} limit; run `casefile extract` on parts")


_SPECIAL = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def special_kind(mode: int) -> str | None:
    """What a file of ``st_mode`` ``mode`` is when it is not a regular file or a folder
    ("a named pipe (FIFO)", "a character device", "a block device", "a socket"), else None."""
    for test, label in _SPECIAL:
        if test(mode):
            return label
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        return "not a regular file"
    return None


def refuse_special(path: Path) -> os.stat_result:
    """``os.stat`` of ``path`` (never opening it), refusing what is not a regular file or a
    folder: raises IngestError ("pipe was not imported: it is a named pipe (FIFO), not a
    file"). Reading a pipe waits forever for a writer, and reading a device can have effects.
    OSError (missing, permission denied) is left to the caller."""
    found = os.stat(path)
    kind = special_kind(found.st_mode)
    if kind is not None:
        raise IngestError(f"{printable_name(path.name)} was not imported: it is {kind}, "
                          "not a file")
    return found
