"""Hostile files through the real ``casefile import``: each is refused in one line naming the
real reason, or stored, within seconds and under 1 GB of peak memory of the importing process.

Every file is built here, at test time (see tests/e2e/hostile_files.py); the import runs in a
child process whose own peak memory is measured (``os.wait4``), and the subprocess timeout is
the time limit.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
from pathlib import Path

import pytest

from tests.e2e.cli_helpers import workspace_with_case
from tests.e2e.hostile_files import (
    MEMORY_LIMIT,
    flate_bomb_pdf,
    long_one_line_text,
    many_pages_pdf,
    one_colour_png,
    run_measured,
    text_png,
)

CASE = "Harbor audit"
MEMO = "Harbor Authority director Lena Ortiz resigned on Monday.\n"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """A workspace with the case, made in-process (quicker than ``casefile case new``)."""
    return workspace_with_case(tmp_path / "ws", CASE)


def documents(workspace: Path) -> list[tuple[str, str, int, list[str]]]:
    """(title, filename, length of text, import notes) of every stored document."""
    db = sqlite3.connect(workspace / "casefile.sqlite3")
    try:
        rows = db.execute("select i.title, d.filename, length(d.text), d.import_notes "
                          "from documents d join items i on i.id = d.id order by d.id")
        return [(t, f, n, json.loads(notes or "[]")) for t, f, n, notes in rows]
    finally:
        db.close()


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("casefile: "), err
    return lines[0]


def assert_refused(ws: Path, path: Path, reason: str, timeout: float = 120) -> None:
    """``casefile import path`` exits 1 with the one line "casefile: NAME was not imported:
    ``reason``", within ``timeout`` seconds and the memory budget, and stores nothing."""
    run = run_measured(ws, "import", str(path), "--case", CASE, "--no-suggest", timeout=timeout)
    assert run.code == 1, run
    assert one_line(run.err) == f"casefile: {path.name} was not imported: {reason}"
    assert run.peak < MEMORY_LIMIT, run.peak
    assert documents(ws) == []


def test_a_14000_px_square_png_is_refused_from_its_header(ws: Path, tmp_path: Path) -> None:
    scan = one_colour_png(tmp_path / "scan.png", 14000, 14000)
    assert_refused(ws, scan, "14000×14000 pixels is more than the 100-megapixel limit")


SIGNED = ["Harbor commission minutes", "The dredging contract was signed in May"]


@pytest.mark.parametrize("mode", ["RGBA", "1"])
def test_a_100_megapixel_scan_is_read_by_ocr_within_the_memory_budget(ws: Path, tmp_path: Path,
                                                                      mode: str) -> None:
    scan = text_png(tmp_path / "poster.png", 9990, mode, SIGNED)
    run = run_measured(ws, "import", str(scan), "--case", CASE, "--no-suggest", timeout=240)
    assert run.code == 0, run
    assert run.peak < MEMORY_LIMIT, run.peak
    [(_title, _name, _length, notes)] = documents(ws)
    assert any(note.startswith("Text of page 1 from OCR (RapidOCR") for note in notes), notes
    db = sqlite3.connect(ws / "casefile.sqlite3")
    try:
        [(text,)] = db.execute("select text from documents")
    finally:
        db.close()
    assert "dredging contract" in " ".join(text.split()).lower(), text


def _special(kind: str, folder: Path) -> Path:
    if kind == "a named pipe (FIFO)":
        os.mkfifo(folder / "pipe.txt")
        return folder / "pipe.txt"
    if kind == "a socket":
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(str(folder / "sock.txt"))  # the file stays after the socket closes
        listener.close()
        return folder / "sock.txt"
    return Path("/dev/null")  # a character device


SPECIAL = ["a named pipe (FIFO)", "a socket", "a character device"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX special files")
@pytest.mark.parametrize("kind", SPECIAL)
def test_a_special_file_is_refused_without_being_opened(ws: Path, tmp_path: Path,
                                                        kind: str) -> None:
    assert_refused(ws, _special(kind, tmp_path), f"it is {kind}, not a file", timeout=60)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX special files")
def test_a_folder_holding_a_pipe_and_a_socket_imports_its_other_files(ws: Path,
                                                                      tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    _special("a named pipe (FIFO)", inbox)
    _special("a socket", inbox)
    (inbox / "memo.txt").write_text(MEMO)
    run = run_measured(ws, "import", str(inbox), "--case", CASE, "--no-suggest", timeout=60)
    assert run.code == 0, run
    assert run.out.strip().splitlines()[-1] == "1 imported, 0 already there, 2 failed"
    assert "pipe.txt was not imported: it is a named pipe (FIFO), not a file" in run.err
    assert "sock.txt was not imported: it is a socket, not a file" in run.err
    assert [d[0] for d in documents(ws)] == [MEMO.strip()]


def test_a_pdf_of_200000_pages_is_refused_with_its_page_count(ws: Path, tmp_path: Path) -> None:
    ledger = many_pages_pdf(tmp_path / "ledger.pdf", 200_000)
    assert_refused(ws, ledger, "it has 200,000 pages; Casefile reads at most 2,000 (split it "
                               "into parts and import those)")


def test_a_pdf_of_2000_pages_is_still_read(ws: Path, tmp_path: Path) -> None:
    ledger = many_pages_pdf(tmp_path / "ledger.pdf", 2_000)
    run = run_measured(ws, "import", str(ledger), "--case", CASE, "--no-suggest", "--no-ocr",
                       timeout=300)
    assert run.code == 0, run
    assert run.peak < MEMORY_LIMIT, run.peak
    [(title, _name, length, _notes)] = documents(ws)
    assert title == "Harbor Authority ledger page"
    assert length == 2_000 * len("Harbor Authority ledger page") + 1_999 * 2


def test_a_flate_bomb_pdf_is_refused_as_a_bomb(ws: Path, tmp_path: Path) -> None:
    bomb = flate_bomb_pdf(tmp_path / "bomb.pdf")  # 2 MB inflating to 2 GB
    assert_refused(ws, bomb, "a compressed stream in it inflates to more than 256 MB (a "
                             "decompression bomb)")


def test_a_60_mb_one_line_text_is_stored_and_its_suggestions_skipped_with_a_note(
        ws: Path, tmp_path: Path) -> None:
    dump = long_one_line_text(tmp_path / "dump.txt")
    run = run_measured(ws, "import", str(dump), "--case", CASE, timeout=240)
    assert run.code == 0, run
    note = ("suggestions skipped: the text is 63 million characters, above the 2 million "
            "limit; run `casefile extract` on parts")
    assert f"  {note}\n" in run.out
    assert run.peak < MEMORY_LIMIT, run.peak
    [(title, _name, length, notes)] = documents(ws)
    assert (title, length) == ("dump", dump.stat().st_size)
    assert note in notes  # shown with the document in the window too


ENCODINGS = ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"]


@pytest.mark.parametrize("codec", ENCODINGS)
def test_utf16_and_utf32_without_a_byte_order_mark_are_read(ws: Path, tmp_path: Path,
                                                             codec: str) -> None:
    memo = tmp_path / "memo.txt"
    memo.write_bytes(MEMO.encode(codec))
    run = run_measured(ws, "import", str(memo), "--case", CASE, "--no-suggest", timeout=60)
    assert run.code == 0, run
    size, order = codec[4:6], "little" if codec.endswith("le") else "big"
    assert (f"  note: No byte-order mark; read as UTF-{size} ({order}-endian), which the "
            "pattern of its zero bytes shows\n") in run.out
    [(title, _name, length, _notes)] = documents(ws)
    assert (title, length) == (MEMO.strip(), len(MEMO))


@pytest.mark.skipif(os.name != "posix", reason="file names are bytes on POSIX only")
@pytest.mark.parametrize("json_output", [False, True])
def test_a_file_name_that_is_not_utf8_is_imported_with_a_readable_name(
        ws: Path, tmp_path: Path, json_output: bool) -> None:
    folder = os.fsencode(tmp_path)
    good = Path(os.fsdecode(folder + b"/caf\xe9.txt"))
    good.write_text(MEMO)
    empty = Path(os.fsdecode(folder + b"/\x83\x65mpty.txt"))
    empty.write_bytes(b"")
    args = ["import", str(good), str(empty), "--case", CASE, "--no-suggest"]
    run = run_measured(ws, *args, *(["--json"] if json_output else []), timeout=60)
    assert run.code == 0, run
    assert "Error" not in run.err + run.out and "\\udc" not in run.err + run.out
    note = "The file name is not valid UTF-8 (b'caf\\xe9.txt'); it is shown as café.txt"
    if json_output:
        files = json.loads(run.out)["files"]
        assert files[0]["path"].endswith("/café.txt") and note in files[0]["notes"]
        assert files[1]["error"] == "\ufffdempty.txt is empty"
    else:
        assert f"  note: {note}\n" in run.out
        assert one_line(run.err) == "casefile: \ufffdempty.txt is empty"
    [(title, filename, _length, notes)] = documents(ws)
    assert (title, filename) == (MEMO.strip(), "café.txt")
    assert note in notes
