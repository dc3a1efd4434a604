"""Mangled files of every format give a result or an IngestError, never another exception."""

from __future__ import annotations

import io
import random
from email.message import EmailMessage

import docx
import pytest
from ingest_helpers import REAL, make_pdf

from casefile.errors import IngestError
from casefile.ingest import ingest_bytes


def _docx() -> bytes:
    document = docx.Document()
    document.add_paragraph("Body paragraph")
    document.add_table(rows=1, cols=2).cell(0, 0).text = "cell"
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def _eml() -> bytes:
    message = EmailMessage()
    message["From"] = "a@example.org"
    message["Subject"] = "Mangle me"
    message.set_content("Body text")
    message.add_attachment(make_pdf(["attached"]), maintype="application", subtype="pdf",
                           filename="a.pdf")
    return message.as_bytes()


GOOD = {
    "doc.pdf": make_pdf(["Page one", "Page two"]),
    "doc.docx": _docx(),
    "mail.eml": _eml(),
    "page.html": b"<html><head><title>t</title></head><body><p>Body text here.</p></body></html>",
    "zen.pdf": (REAL / "zen_of_python_corrupted.pdf").read_bytes(),
    "017.eml": (REAL / "017.eml").read_bytes(),
}


def _mangled(data: bytes, seed: int) -> bytes:
    rng = random.Random(seed)
    choice = seed % 3
    if choice == 0:  # truncated
        return data[: rng.randrange(1, len(data))]
    if choice == 1:  # bytes overwritten with junk, header kept
        out = bytearray(data)
        for _ in range(max(1, len(data) // 50)):
            out[rng.randrange(10, len(out))] = rng.getrandbits(8)
        return bytes(out)
    start = rng.randrange(10, len(data))  # a slice cut out of the middle
    return data[:start] + data[start + rng.randrange(1, 200):]


@pytest.mark.parametrize("name", sorted(GOOD))
def test_mangled_files_never_leak_a_traceback(name: str) -> None:
    for seed in range(30):
        data = _mangled(GOOD[name], seed)
        try:
            result = ingest_bytes(data, name)
        except IngestError as exc:
            message = str(exc)
            assert "\n" not in message and message.strip() == message and message
        else:
            assert isinstance(result.text, str)
