"""Hostile web archives given to the real ``casefile`` command: a WARC whose gzip member
expands to a gigabyte, and a page whose HTTP body is a gzip bomb. Each is refused in one line
naming the reason, in a child process whose peak memory stays under 1 GB, and nothing is
stored (see test_hostile_containers.py for the method)."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest

from tests.e2e.cli_helpers import workspace_with_case
from tests.e2e.hostile_files import run_measured
from tests.e2e.test_hostile_containers import CASE, PEAK, _one_line_refusal, _rows
from tests.e2e.zip_bombs import GiB, MiB
from tests.ingest.test_ingest_webarchive import HTML_UTF8, PAGE, URL, response_record


def _gzip_of_zeros(head: bytes, size: int, tail: bytes = b"") -> bytes:
    """One gzip member: ``head``, ``size`` zero bytes (compressed a MiB at a time), ``tail``."""
    packer = zlib.compressobj(9, wbits=31)
    out = [packer.compress(head)]
    block = bytes(MiB)
    for _ in range(size // MiB):
        out.append(packer.compress(block))
    out.append(packer.compress(tail))
    out.append(packer.flush())
    return b"".join(out)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """A workspace with the case of test_hostile_containers.py (made in-process)."""
    return workspace_with_case(tmp_path / "ws", CASE)


@pytest.mark.slow
def test_a_warc_that_expands_to_a_gigabyte_is_refused_within_bounded_memory(ws, tmp_path):
    size = 1 * GiB
    head = (b"WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: https://ledger.example/a.png"
            b"\r\nWARC-Date: 2026-12-02T09:15:00Z\r\nWARC-Record-ID: <urn:uuid:00000000-0000-"
            b"0000-0000-000000000001>\r\nContent-Type: image/png\r\nContent-Length: "
            + str(size).encode() + b"\r\n\r\n")
    bomb = tmp_path / "site.warc.gz"
    bomb.write_bytes(_gzip_of_zeros(head, size, b"\r\n\r\n") + response_record(PAGE, HTML_UTF8))
    assert bomb.stat().st_size < 3 * MiB
    before = _rows(ws)
    run_ = run_measured(ws, "import", str(bomb), "--case", CASE, "--no-suggest", timeout=300)
    _one_line_refusal(run_, "site.warc.gz was not imported", "512 MB", "(a zip bomb?)")
    assert run_.peak < PEAK, f"peak {run_.peak / MiB:.0f} MiB"
    assert _rows(ws) == before


@pytest.mark.slow
def test_a_page_whose_http_body_is_a_gzip_bomb_is_refused_within_bounded_memory(ws, tmp_path):
    body = _gzip_of_zeros(b"<html><body><p>", 1 * GiB)
    http = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n")
    block = http + body
    record = (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: " + URL.encode()
              + b"\r\nWARC-Date: 2026-12-02T09:15:00Z\r\nWARC-Record-ID: <urn:uuid:00000000-"
              b"0000-0000-0000-000000000002>\r\nContent-Type: application/http; msgtype=response"
              b"\r\nContent-Length: " + str(len(block)).encode() + b"\r\n\r\n" + block
              + b"\r\n\r\n")
    bomb = tmp_path / "page.warc"
    bomb.write_bytes(record)
    before = _rows(ws)
    run_ = run_measured(ws, "import", str(bomb), "--case", CASE, "--no-suggest", timeout=300)
    _one_line_refusal(run_, "page.warc was not imported", "over the 32 MB allowed for one page")
    assert run_.peak < PEAK, f"peak {run_.peak / MiB:.0f} MiB"
    assert _rows(ws) == before

