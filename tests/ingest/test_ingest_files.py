"""ingest_file: the refusals a reporter sees before any content is read, and type by content."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from casefile.errors import IngestError
from casefile.ingest import detect_type, ingest_bytes, ingest_file


def test_returns_the_original_bytes_unchanged(tmp_path: Path) -> None:
    raw = b"Line one\r\nLine two\r\n"
    path = tmp_path / "crlf.txt"
    path.write_bytes(raw)
    data, doc = ingest_file(path)
    assert data == raw
    assert doc.text == "Line one\nLine two\n"
    assert doc.filename == "crlf.txt"


def test_missing_path(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match=r"nothere\.txt does not exist$"):
        ingest_file(tmp_path / "nothere.txt")


def test_directory(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match=r"is a folder, not a file$"):
        ingest_file(tmp_path)


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.touch()
    with pytest.raises(IngestError, match=r"^empty\.txt is empty$"):
        ingest_file(path)


def test_over_the_size_limit_says_size_and_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"a" * 3 * 1024 * 1024)
    with pytest.raises(IngestError, match=r"^big\.txt is 3\.0 MB, over the 2\.0 MB limit"):
        ingest_file(path, max_bytes=2 * 1024 * 1024)


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="needs POSIX non-root")
def test_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "secret.txt"
    path.write_text("hidden")
    path.chmod(0)
    try:
        with pytest.raises(IngestError, match=r"cannot be read \(permission denied\)$"):
            ingest_file(path)
    finally:
        path.chmod(0o600)


@pytest.mark.parametrize(
    ("data", "name", "mime"),
    [
        (b"%PDF-1.7\n...", "report.txt", "application/pdf"),
        (b"plain words", "x.pdf", "text/plain"),
        (b"# Title\n", "notes.md", "text/markdown"),
        (b"  <!doctype html><html><body>x</body></html>", "page.txt", "text/html"),
        (b"<p>Some paragraph</p>", "frag.dat", "text/html"),
        (b"<b>bold</b> in markdown", "n.md", "text/markdown"),
        (b"From: a@example.org\nTo: b@example.org\nSubject: hi\n\nbody", "m.txt",
         "message/rfc822"),
        (b"From a@example.org Mon Jan  1 00:00:00 2018\nFrom: a@example.org\nSubject: x\n\nb",
         "box", "application/mbox"),
        (b"Subject: just one header line\n\ntext", "n.txt", "text/plain"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "photo.txt", "image/png"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 20, "old.doc",
         "application/x-ole-storage"),
    ],
)
def test_detect_type_by_content(data: bytes, name: str, mime: str) -> None:
    assert detect_type(data, name) == mime


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"GIF89a\x00\x00", r"^scan\.txt is an image \(image/gif\); images are read as PNG"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", r"^scan\.txt is a damaged image and cannot be read$"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 20, r"^scan\.txt is an old Office file"),
        (b"PK\x03\x04broken zip", r"^scan\.txt is not text \(binary content\)$"),
    ],
)
def test_unsupported_content_is_refused_with_what_it_is(data: bytes, message: str) -> None:
    with pytest.raises(IngestError, match=message):
        ingest_bytes(data, "scan.txt")


def test_a_mislabelled_file_is_read_by_its_content_with_a_note() -> None:
    from casefile.ingest import ingest_bytes

    text = ingest_bytes(b"Minutes of the harbor board\nThe vote was 4 to 1.", "scan.png")
    assert text.mime_type == "text/plain" and "Minutes of the harbor board" in text.text
    assert "The file is named .png but holds plain text; it was read as such." in text.notes
    plain = ingest_bytes(b"Minutes of the harbor board", "minutes.txt")
    assert not any("is named" in n for n in plain.notes)


def test_a_batch_of_web_pages_starts_the_readers_before_its_first_file_is_read() -> None:
    """Worker processes load their readers while the first files are read here (so a big
    import of web pages has them sooner); a batch of plain text files starts none."""
    from casefile.ingest.pool import MIN_SLOW_FILES, ReaderPool

    with ReaderPool(1) as pool:
        pool.expect([f"note-{i}.txt" for i in range(50)] + ["notes.md", "page.html"])
        assert not pool.started
        pool.expect([f"page-{i}.html" for i in range(MIN_SLOW_FILES)])
        assert pool.started
        page = b"<html><body><p>The council met on Monday about the harbor.</p></body></html>"
        done = pool.read([(page, f"p{i}.html", None) for i in range(MIN_SLOW_FILES)])
        assert all(not isinstance(r, str) and "council met" in r.text for r in done)
    with ReaderPool(0) as pool:
        pool.expect([f"page-{i}.html" for i in range(50)])
        assert not pool.started


def test_pages_handed_to_the_workers_ahead_come_back_as_read_here() -> None:
    """The next group's pages, handed to the workers while this group is stored, come back
    in order and as this process reads them; a file whose bytes changed before its turn is
    read from its new bytes."""
    from casefile.ingest.pool import ReaderPool, read_one

    def page(i: int, word: str = "audit") -> bytes:
        return (f"<html><head><title>Page {i}</title></head><body><p>Page {i} of the harbor "
                f"{word}, which the council delayed again on Monday.</p></body></html>").encode()

    first = [(page(i), f"a{i}.html", None) for i in range(8)]
    second = [(page(i + 8), f"b{i}.html", None) for i in range(8)]
    with ReaderPool(1) as pool:
        pool.expect([name for _d, name, _p in first + second])
        while pool.read_by_workers == 0:  # until the worker has loaded its readers
            pool.read(first)
        pool.read_ahead(second)
        got_first = pool.read(first)
        changed = (page(15, "budget"), "b7.html", None)  # new bytes under the same name
        got_second = pool.read([*second[:7], changed])
    expected = [read_one(*job) for job in [*first, *second[:7], changed]]
    got = got_first + got_second
    assert [(r.title, r.text) for r in got] == [(r.title, r.text) for r in expected]
    assert "harbor budget" in got[-1].text
