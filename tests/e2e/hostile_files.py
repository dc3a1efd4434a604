"""Hostile files built at test time (small on disk, costly to read naively), and a way to run
the real ``casefile`` command on them while measuring the child process's peak memory.

Nothing large is shipped: each builder streams its output, so building one costs the test
process a few megabytes whatever the file expands to.
"""

from __future__ import annotations

import os
import signal
import struct
import subprocess
import sys
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from tests.e2e.cli_helpers import command

#: What a single import may cost at most (the issue's budget).
MEMORY_LIMIT = 1024**3


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return (struct.pack(">I", len(body)) + kind + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))


def repeated_deflate(head: bytes, unit: bytes, count: int) -> bytes:
    """A zlib stream (RFC 1950) of ``head`` then ``unit`` ``count`` times, made without
    compressing more than one ``unit``: after a full flush a deflate compressor starts afresh,
    so the compressed bytes of ``unit`` can be repeated; the checksum runs over the whole."""
    first = zlib.compressobj(9, zlib.DEFLATED, -15)
    start = first.compress(head) + first.flush(zlib.Z_FULL_FLUSH)
    again = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = again.compress(unit) + again.flush(zlib.Z_FULL_FLUSH)
    end = zlib.compressobj(9, zlib.DEFLATED, -15).flush(zlib.Z_FINISH)  # the final empty block
    checksum = zlib.adler32(head)
    for _ in range(count):
        checksum = zlib.adler32(unit, checksum)
    return b"\x78\xda" + start + block * count + end + struct.pack(">I", checksum)


def one_colour_png(path: Path, width: int, height: int, rgb: tuple[int, int, int] = (200, 30, 30)
                   ) -> Path:
    """An RGB PNG of one colour (PNG spec: IHDR, IDAT, IEND): the first row filtered "Sub",
    the others "Up", so every row after the first is zeros. 14000x14000 is about 600 KB on
    disk and 588 MB decoded."""
    first = b"\x01" + bytes(rgb) + bytes(3 * (width - 1))
    row = b"\x02" + bytes(3 * width)
    idat = repeated_deflate(first, row, height - 1)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header)
                     + _png_chunk(b"IDAT", idat) + _png_chunk(b"IEND", b""))
    return path


def text_png(path: Path, side: int, mode: str, lines: list[str]) -> Path:
    """A square PNG of ``side`` pixels, white, with ``lines`` written large in black, one every
    few hundred rows; ``mode`` "RGBA" (8-bit colour with alpha, 4 bytes a pixel decoded) or "1"
    (1-bit grey). Written a row at a time through one deflate stream, so the test process never
    holds the image: only one band of text rows at a time."""
    from PIL import Image, ImageDraw, ImageFont

    from casefile.export.fonts import matplotlib_font_dir

    font = ImageFont.truetype(str(matplotlib_font_dir() / "DejaVuSans.ttf"), side // 80)
    band = side // 60
    white = {"RGBA": (255, 255, 255, 255), "1": 1}[mode]
    black = {"RGBA": (0, 0, 0, 255), "1": 0}[mode]
    stride = len(Image.new(mode, (side, 1), white).tobytes())
    blank = b"\x00" + Image.new(mode, (side, 1), white).tobytes()
    gap = (side - band * len(lines)) // (len(lines) + 1)
    squeeze = zlib.compressobj(6)
    idat = bytearray()
    row = 0
    for line in lines:
        for _ in range(gap):
            idat += squeeze.compress(blank)
        strip = Image.new(mode, (side, band), white)
        ImageDraw.Draw(strip).text((side // 20, band // 6), line, fill=black, font=font)
        raw = strip.tobytes()
        for k in range(band):
            idat += squeeze.compress(b"\x00" + raw[k * stride:(k + 1) * stride])
        row += gap + band
    for _ in range(side - row):
        idat += squeeze.compress(blank)
    idat += squeeze.flush()
    depth, colour = {"RGBA": (8, 6), "1": (1, 0)}[mode]
    header = struct.pack(">IIBBBBB", side, side, depth, colour, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header)
                     + _png_chunk(b"IDAT", bytes(idat)) + _png_chunk(b"IEND", b""))
    return path


def _pdf(objects: list[bytes]) -> bytes:
    """A PDF of ``objects`` (object n+1 is ``objects[n]``; object 1 the catalog) with a correct
    cross-reference table (ISO 32000-1 7.5)."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += (b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n"
            % (len(objects) + 1, xref))
    return bytes(out)


def many_pages_pdf(path: Path, pages: int) -> Path:
    """A PDF of ``pages`` pages sharing one content stream and one font (each page a small
    object of its own): 200,000 pages take about 14 MB."""
    content = b"BT /F1 12 Tf 72 720 Td (Harbor Authority ledger page) Tj ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"",  # the page tree, filled in below
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    first = len(objects) + 1
    page = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R "
            b"/Resources << /Font << /F1 4 0 R >> >> >>")
    objects += [page] * pages
    kids = b" ".join(b"%d 0 R" % n for n in range(first, first + pages))
    objects[1] = b"<< /Type /Pages /Count %d /Kids [%s] >>" % (pages, kids)
    path.write_bytes(_pdf(objects))
    return path


def flate_bomb_pdf(path: Path, inflated: int = 2 * 1024**3) -> Path:
    """A one-page PDF whose content stream is ``inflated`` bytes of spaces, Flate-compressed
    (about 1/1000 of that on disk: 2 GB -> 2 MB)."""
    block = b" " * (1024**2)
    stream = repeated_deflate(b"", block, inflated // len(block))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Count 1 /Kids [3 0 R] >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream
        + b"\nendstream",
    ]
    path.write_bytes(_pdf(objects))
    return path


def long_one_line_text(path: Path, size: int = 60 * 1024**2) -> Path:
    """A text file of ``size`` bytes on one line (words, no newline)."""
    unit = b"Harbor Authority director Lena Ortiz paid Pier Nine Holdings. "
    with path.open("wb") as out:
        block = unit * (1024**2 // len(unit))
        written = 0
        while written + len(block) <= size:
            out.write(block)
            written += len(block)
        out.write(unit[: max(0, min(len(unit), size - written))])
    return path


@dataclass
class Measured:
    """What one measured command did: exit code, stdout, stderr, and the child's peak
    resident memory in bytes (``ru_maxrss`` of that child alone, its waited-for workers
    included)."""

    code: int
    out: str
    err: str
    peak: int


#: Run by a small Python between the test and ``casefile``: a child's ``ru_maxrss`` starts at
#: the peak of the process it was forked from (Linux records the old memory's high-water mark
#: at exec), so ``casefile`` is forked from this small process, not from pytest, and its peak
#: is read with ``os.wait4`` on it alone. argv: peak file, then the command.
_MEASURE = """
import os, subprocess, sys
proc = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL)
_pid, status, usage = os.wait4(proc.pid, 0)
with open(sys.argv[1], "w") as out:
    out.write(f"{usage.ru_maxrss * 1024} {os.waitstatus_to_exitcode(status)}")
"""


def run_measured(workspace: Path, *args: str, timeout: float = 120) -> Measured:
    """Run ``casefile --workspace WORKSPACE ARGS...`` (the installed command, as
    :func:`tests.e2e.cli_helpers.casefile` does) and measure the peak memory of that process
    alone (see :data:`_MEASURE`). Raises subprocess.TimeoutExpired (after killing it) when it
    runs longer than ``timeout`` seconds."""
    argv, env = command(workspace, *args)
    with tempfile.TemporaryDirectory() as folder:
        peak_file = Path(folder) / "peak"
        with open(Path(folder) / "out", "w+b") as out, open(Path(folder) / "err", "w+b") as err:
            proc = subprocess.Popen([sys.executable, "-c", _MEASURE, str(peak_file), *argv],
                                    stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env,
                                    start_new_session=True)
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)  # the measuring process and casefile
                proc.wait()
                raise
            out.seek(0)
            err.seek(0)
            peak, code = (int(v) for v in peak_file.read_text().split())
            return Measured(code, out.read().decode("utf-8", "replace"),
                            err.read().decode("utf-8", "replace"), peak)
