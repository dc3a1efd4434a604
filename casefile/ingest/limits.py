"""How much a file may expand while it is read: the limits on zip containers (Word and Excel
files, case archives) and e-mails, in one place. Pure: no database, no Qt.

A zip bomb is a small file that declares (or hides) a huge expansion. :func:`check_zip` looks
at a zip before anything is decompressed: the number of members, each member's declared size,
the sum of them and each member's compression ratio. It then reads every member once in
1 MiB chunks, counting the bytes that really come out against the same budgets, so a member
whose declared size lies is refused too (Python's ``zipfile`` never returns more than the
declared size and checks the CRC-32, so a lying member is also damaged). Nothing is kept of
what was read.

Every refusal is an :class:`~casefile.errors.IngestError` with one sentence naming the file
and the real reason, e.g. "report.docx was not imported: it would expand to more than 512 MB
(a zip bomb?)".

One budget can be shared by a file and everything inside it (an e-mail and its attachments):
:func:`shared_budget` opens it, and every :func:`check_zip` within charges it.
"""

from __future__ import annotations

import contextlib
import contextvars
import io
import struct
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

from casefile.errors import IngestError

MiB = 1024**2

#: Bytes that all the members of one imported file (an e-mail's attachments included) may
#: expand to in total.
MAX_EXPANDED = 512 * MiB
#: Bytes one member of a Word or Excel file may expand to (a book-length document.xml is
#: tens of MB; its XML tree takes several times that).
MAX_MEMBER_EXPANDED = 128 * MiB
#: Largest expansion ratio (uncompressed / compressed) accepted for a member over
#: :data:`RATIO_FLOOR`: deflate reaches about 1000 only on degenerate input such as runs of one
#: byte, while real XML stays well under 100.
MAX_RATIO = 200
#: Members smaller than this expanded are not judged by their ratio (harmless whatever it is).
RATIO_FLOOR = 1 * MiB
#: Most members one zip container may hold (a Word file has a few dozen).
MAX_MEMBERS = 10_000
#: Most MIME parts read in one e-mail; the rest are left out with a note.
MAX_EMAIL_PARTS = 200
#: Most attachments read from one e-mail; the rest are listed but not imported, with a note.
MAX_EMAIL_ATTACHMENTS = 100

_CHUNK = 1 * MiB


def size_text(n: int) -> str:
    """``n`` bytes for a person: "512 MB", "1.5 GB", "900 KB", "12 bytes"."""
    for unit, scale in (("GB", 1024**3), ("MB", MiB), ("KB", 1024)):
        if n >= scale:
            value = n / scale
            return f"{value:.0f} {unit}" if value == int(value) or value >= 100 else \
                f"{value:.1f} {unit}"
    return f"{n} bytes"


@dataclass
class Budget:
    """Bytes still allowed to come out of zip members: ``left`` of ``total``."""

    total: int
    left: int

    def charge(self, n: int, filename: str) -> None:
        """Count ``n`` more bytes; raise IngestError naming ``filename`` when over."""
        self.left -= n
        if self.left < 0:
            raise IngestError(expansion_refusal(filename, self.total))


_BUDGET: contextvars.ContextVar[Budget | None] = contextvars.ContextVar(
    "casefile_zip_budget", default=None)


@contextlib.contextmanager
def shared_budget(total: int = MAX_EXPANDED) -> Iterator[Budget]:
    """Within the ``with`` block, every :func:`check_zip` charges one budget of ``total``
    bytes; an inner ``shared_budget`` reuses the outer one (a mailbox's messages, an e-mail's
    attached e-mails). Yields the :class:`Budget`."""
    current = _BUDGET.get()
    if current is not None:
        yield current
        return
    budget = Budget(total, total)
    token = _BUDGET.set(budget)
    try:
        yield budget
    finally:
        _BUDGET.reset(token)


def expansion_refusal(filename: str, limit: int) -> str:
    """The one sentence for a file over an expansion limit of ``limit`` bytes."""
    return (f"{filename} was not imported: it would expand to more than {size_text(limit)} "
            "(a zip bomb?)")


def _declared(infos: list[zipfile.ZipInfo], filename: str, budget: Budget, member_limit: int,
              max_ratio: int) -> None:
    total = 0
    for info in infos:
        if info.file_size > member_limit:
            raise IngestError(
                f"{filename} was not imported: {info.filename} inside it would expand to "
                f"{size_text(info.file_size)}, more than the {size_text(member_limit)} allowed "
                "for one part (a zip bomb?)")
        if info.file_size > RATIO_FLOOR and info.file_size > max_ratio * max(
                info.compress_size, 1):
            ratio = info.file_size // max(info.compress_size, 1)
            raise IngestError(
                f"{filename} was not imported: {info.filename} inside it would expand "
                f"{ratio:,} times, from {size_text(info.compress_size)} to "
                f"{size_text(info.file_size)} (a zip bomb?)")
        total += info.file_size
    if total > budget.left:
        raise IngestError(expansion_refusal(filename, budget.total))


def _drain(zf: zipfile.ZipFile, info: zipfile.ZipInfo, filename: str, budget: Budget,
           member_limit: int) -> None:
    """Decompress one member in chunks, keeping nothing, charging what comes out."""
    produced = 0
    with zf.open(info) as member:
        while chunk := member.read(_CHUNK):
            produced += len(chunk)
            if produced > member_limit:
                raise IngestError(
                    f"{filename} was not imported: {info.filename} inside it expands to more "
                    f"than {size_text(member_limit)} (a zip bomb?)")
            budget.charge(len(chunk), filename)


def _member_count(data: bytes) -> int | None:
    """Entries the end-of-central-directory record declares (zip64 aware), or None when the
    record cannot be found (zipfile then says the file is damaged)."""
    at = data.rfind(b"PK\x05\x06", max(0, len(data) - 65_557))
    if at < 0 or at + 22 > len(data):
        return None
    count = struct.unpack_from("<H", data, at + 10)[0]
    if count == 0xFFFF:  # zip64: the real count is in the zip64 record the locator names
        locator = at - 20
        if locator >= 0 and data[locator:locator + 4] == b"PK\x06\x07":
            record = struct.unpack_from("<Q", data, locator + 8)[0]
            if record + 56 <= len(data) and data[record:record + 4] == b"PK\x06\x06":
                count = struct.unpack_from("<Q", data, record + 32)[0]
    return count


def check_zip(data: bytes, filename: str, *, member_limit: int = MAX_MEMBER_EXPANDED,
              max_ratio: int = MAX_RATIO, max_members: int = MAX_MEMBERS) -> None:
    """Refuse ``data`` (a zip container named ``filename``) before a library decompresses it
    when it would expand too much (module docstring). The total is charged to the
    :func:`shared_budget` in force, else to a fresh one of :data:`MAX_EXPANDED`.

    Raises IngestError (one sentence): too many members, a member over ``member_limit`` bytes
    or over ``max_ratio`` times its compressed size, a total over the budget (declared or
    really read), or a damaged zip ("FILE is damaged and cannot be read").
    """
    count = _member_count(data)
    if count is not None and count > max_members:
        raise IngestError(f"{filename} was not imported: it holds {count:,} files inside, more "
                          f"than the {max_members:,} allowed (a zip bomb?)")
    budget = _BUDGET.get() or Budget(MAX_EXPANDED, MAX_EXPANDED)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            infos = zf.infolist()
            _declared(infos, filename, budget, member_limit, max_ratio)
            for info in infos:
                if not info.is_dir():
                    _drain(zf, info, filename, budget, member_limit)
    except IngestError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, struct.error,
            NotImplementedError, RuntimeError) as exc:
        # RuntimeError: an encrypted member; NotImplementedError: a compression method
        # Python does not read.
        raise IngestError(f"{filename} is damaged and cannot be read") from exc


__all__ = [
    "MAX_EMAIL_ATTACHMENTS", "MAX_EMAIL_PARTS", "MAX_EXPANDED", "MAX_MEMBERS",
    "MAX_MEMBER_EXPANDED", "MAX_RATIO", "Budget", "check_zip", "expansion_refusal",
    "shared_budget", "size_text",
]
