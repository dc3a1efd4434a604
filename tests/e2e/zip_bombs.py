"""Hostile containers built at test time (nothing large is kept in the repo): zip bombs in a
Word file, an Excel file and an e-mail, a case archive with huge blobs, an e-mail of a thousand
parts of random bytes. Each builder writes a small file that would expand to gigabytes.

:func:`run_measured` runs a command in a child process and returns what it printed with the
child's peak memory (``ru_maxrss`` of the waited-for child, via ``os.wait4``).
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import random
import struct
import subprocess
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

from tests.e2e.make_files import docx_bytes

MiB = 1024**2
GiB = 1024**3
_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def _deflated(data: bytes, *, last: bool) -> bytes:
    """Raw deflate of ``data`` that refers to nothing before it and ends on a byte boundary,
    so that such pieces can be laid end to end (only the ``last`` one closes the stream)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush(zlib.Z_FINISH if last else zlib.Z_FULL_FLUSH)


@dataclass
class Member:
    """One zip member as raw deflate pieces: ``pieces`` (in order, each repeated ``times``),
    with the CRC-32 and size of what they expand to."""

    name: str
    pieces: list[tuple[bytes, int]]
    crc: int
    size: int

    @classmethod
    def of(cls, name: str, data: bytes) -> Member:
        return cls(name, [(_deflated(data, last=True), 1)], zlib.crc32(data), len(data))

    @classmethod
    def repeated(cls, name: str, head: bytes, fill: bytes, times: int, tail: bytes) -> Member:
        """``head``, ``fill`` ``times`` times, ``tail``: compressed once each, so a gigabyte
        takes well under a second to build."""
        crc = zlib.crc32(head)
        for _ in range(times):
            crc = zlib.crc32(fill, crc)
        crc = zlib.crc32(tail, crc)
        pieces = [(_deflated(head, last=False), 1), (_deflated(fill, last=False), times),
                  (_deflated(tail, last=True), 1)]
        return cls(name, pieces, crc, len(head) + len(fill) * times + len(tail))


def write_zip(members: list[Member], out: io.RawIOBase | io.BufferedIOBase) -> None:
    """Write a zip of deflated ``members`` (each under 4 GiB) to the binary file ``out``."""
    central = []
    offset = 0
    for member in members:
        name = member.name.encode()
        packed = sum(len(piece) * times for piece, times in member.pieces)
        fields = (20, 0, 8, 0, 0x21, member.crc, packed, member.size, len(name), 0)
        header = struct.pack("<4s5H3L2H", b"PK\x03\x04", *fields) + name
        out.write(header)
        for piece, times in member.pieces:
            for _ in range(times):
                out.write(piece)
        central.append(struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, *fields, 0, 0, 0, 0,
                                   offset) + name)
        offset += len(header) + packed
    directory = b"".join(central)
    out.write(directory)
    out.write(struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, len(central), len(central),
                          len(directory), offset, 0))


def _zip_bytes(members: list[Member]) -> bytes:
    buffer = io.BytesIO()
    write_zip(members, buffer)
    return buffer.getvalue()


def bomb_docx(expanded: int = 3 * GiB // 2) -> bytes:
    """A Word file whose document.xml holds ``expanded`` bytes of spaces (about 1.5 MB on
    disk for the default 1.5 GB): every other part is a real document's."""
    real = zipfile.ZipFile(io.BytesIO(docx_bytes(["A harmless first line."])))
    members = []
    for info in real.infolist():
        if info.filename == "word/document.xml":
            members.append(Member.repeated(
                info.filename,
                f'<w:document xmlns:w="{_W}"><w:body><w:p><w:r><w:t>Bomb</w:t></w:r>'
                "</w:p>".encode(), b" " * MiB, expanded // MiB, b"</w:body></w:document>"))
        else:
            members.append(Member.of(info.filename, real.read(info)))
    return _zip_bytes(members)


def bomb_xlsx(expanded: int = 3 * GiB // 2) -> bytes:
    """An Excel workbook whose first sheet's XML is padded with ``expanded`` bytes of
    spaces."""
    from openpyxl import Workbook

    book = Workbook()
    book.active.append(["name", "email"])
    book.active.append(["Lena Ortiz", "lena@example.org"])
    saved = io.BytesIO()
    book.save(saved)
    real = zipfile.ZipFile(io.BytesIO(saved.getvalue()))
    members = []
    for info in real.infolist():
        data = real.read(info)
        if info.filename == "xl/worksheets/sheet1.xml":
            cut = data.index(b"<sheetData>")
            members.append(Member.repeated(info.filename, data[:cut], b" " * MiB,
                                           expanded // MiB, data[cut:]))
        else:
            members.append(Member.of(info.filename, data))
    return _zip_bytes(members)


def email_with_attachment(data: bytes, filename: str, mime: str) -> bytes:
    """An ordinary e-mail with a short body and ``data`` attached as ``filename``."""
    message = EmailMessage()
    message["From"] = "Lena Ortiz <lena@example.org>"
    message["To"] = "desk@example.org"
    message["Subject"] = "The report you asked for"
    message["Date"] = "Mon, 3 Mar 2025 09:00:00 +0000"
    message.set_content("Attached is the report on the harbor audit.\n")
    maintype, subtype = mime.split("/")
    message.add_attachment(data, maintype=maintype, subtype=subtype, filename=filename)
    return message.as_bytes()


def thousand_part_email(parts: int = 1000, seed: int = 25) -> bytes:
    """An e-mail with ``parts`` attachments of a few random bytes each, typed
    application/octet-stream and without names (as a fuzzer or a broken mailer makes them)."""
    rng = random.Random(seed)
    boundary = "==bound=="
    lines = [
        "From: Fuzz <fuzz@example.org>", "To: desk@example.org", "Subject: Many parts",
        "Date: Mon, 3 Mar 2025 09:00:00 +0000", "MIME-Version: 1.0",
        f'Content-Type: multipart/mixed; boundary="{boundary}"', "",
        f"--{boundary}", "Content-Type: text/plain; charset=utf-8", "",
        "The body of a message with very many parts.",
    ]
    for _ in range(parts):
        size = rng.randint(4, 40)
        payload = bytes(rng.randrange(256) for _ in range(size))
        lines += [f"--{boundary}", "Content-Type: application/octet-stream",
                  "Content-Transfer-Encoding: base64", "",
                  base64.b64encode(payload).decode()]
    lines.append(f"--{boundary}--")
    return ("\r\n".join(lines) + "\r\n").encode()


def archive_with_big_blobs(source: Path, target: Path, *, blobs: int = 2,
                           size: int = 600 * MiB) -> None:
    """Copy the real (unsealed) case archive ``source`` to ``target`` with ``blobs`` extra
    blobs of ``size`` bytes each (a multiple of 64 KiB), named by their SHA-256 and listed in
    the manifest, that compress about 100 times (600 random bytes in every 64 KiB), so no
    ratio check catches them. The first ``blobs`` documents of the case are the new blobs'
    documents (their own blobs stay in the archive, unused)."""
    rng = random.Random(25)
    block = 64 * 1024
    with zipfile.ZipFile(source) as old:
        manifest = json.loads(old.read("manifest.json"))
        documents = json.loads(old.read("tables/documents.json"))
        members = [Member.of(info.filename, old.read(info)) for info in old.infolist()
                   if info.filename not in ("manifest.json", "tables/documents.json")]
    with_bytes = [row for row in documents if row.get("sha256")]
    for n in range(blobs):
        fill = rng.randbytes(600) + bytes(block - 600)
        digest = hashlib.sha256()
        for _ in range(size // block):
            digest.update(fill)
        sha = digest.hexdigest()
        members.append(Member.repeated(f"blobs/{sha}", b"", fill, size // block, b""))
        manifest["files"][f"blobs/{sha}"] = {"sha256": sha, "size": size}
        if n < len(with_bytes):
            with_bytes[n]["sha256"] = sha
    table = json.dumps(documents).encode()
    members.append(Member.of("tables/documents.json", table))
    manifest["files"]["tables/documents.json"] = {
        "sha256": hashlib.sha256(table).hexdigest(), "size": len(table)}
    members.append(Member.of("manifest.json", json.dumps(manifest).encode()))
    with target.open("wb") as out:
        write_zip(members, out)


@dataclass
class Measured:
    """A finished child: exit ``code``, ``out``/``err`` text, peak memory ``peak`` (bytes)."""

    code: int
    out: str
    err: str
    peak: int


def run_measured(argv: list[str], env: dict[str, str] | None = None,
                 timeout: float = 120) -> Measured:
    """Run ``argv`` (stdout/stderr to temporary files) and wait for it with ``os.wait4`` to
    read that one child's peak resident memory. Raises subprocess.TimeoutExpired (after
    killing the child) when it runs longer than ``timeout`` seconds."""
    import tempfile
    import time

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                env=env)
        deadline = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                proc.kill()
                os.wait4(proc.pid, 0)
                proc.returncode = -9
                raise subprocess.TimeoutExpired(argv, timeout)
            time.sleep(0.05)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Measured(proc.returncode, out.read().decode(errors="replace"),
                        err.read().decode(errors="replace"), usage.ru_maxrss * 1024)


def rewrite_archive(source: Path, target: Path,
                    edit: Callable[[dict[str, bytes]], None]) -> None:
    """Copy the unsealed case archive ``source`` to ``target`` after ``edit`` changed its
    members (name -> bytes, the manifest left out), with a manifest that lists them truly, as
    a hostile writer would make it."""
    with zipfile.ZipFile(source) as old:
        manifest = json.loads(old.read("manifest.json"))
        members = {info.filename: old.read(info) for info in old.infolist()
                   if info.filename != "manifest.json"}
    edit(members)
    manifest["files"] = {name: {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
                         for name, data in members.items()}
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
        zf.writestr("manifest.json", json.dumps(manifest))


def flip_byte_in_member(source: Path, target: Path, member: str) -> None:
    """Copy ``source`` (an unsealed archive) with one byte flipped in the middle of
    ``member``'s compressed data."""
    data = bytearray(source.read_bytes())
    with zipfile.ZipFile(source) as zf:
        info = zf.getinfo(member)
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    data[start + info.compress_size // 2] ^= 0xFF
    target.write_bytes(bytes(data))
