"""``casefile import`` OCRs scans and images and their words are found."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.cli_helpers import casefile
from tests.e2e.make_files import scan_pdf, scan_png

LINES = ["Minutes of the harbor commission", "The inspector found the pier unsafe."]


def test_a_scanned_pdf_and_a_png_import_and_their_words_are_found(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (tmp_path / "minutes.pdf").write_bytes(scan_pdf([LINES]))
    (tmp_path / "minutes.png").write_bytes(scan_png(LINES[::-1]))
    assert casefile(ws, "case", "new", "Harbor").code == 0
    run = casefile(ws, "import", str(tmp_path / "minutes.pdf"), str(tmp_path / "minutes.png"),
                   "--case", "Harbor", "--no-suggest", "--json")
    assert run.code == 0, run.err
    assert run.err == ""  # no progress line when not on a terminal
    files = json.loads(run.out)["files"]
    for entry in files:
        assert entry["ocr"]["engine"].startswith("RapidOCR ")
        assert entry["ocr"]["pages"] == [1] and entry["ocr"]["mean_confidence"] > 0.8
    found = casefile(ws, "search", "inspector", "--case", "Harbor", "--json")
    assert {h["item_id"] for h in json.loads(found.out)} == {f["document_id"] for f in files}
    items = json.loads(casefile(ws, "items", "--case", "Harbor", "--kind", "document",
                                "--json").out)
    assert items, "the documents are listed"


def test_no_ocr_leaves_the_scan_empty_until_casefile_ocr_reads_it(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (tmp_path / "scan.png").write_bytes(scan_png(LINES))
    assert casefile(ws, "case", "new", "Later").code == 0
    run = casefile(ws, "import", str(tmp_path / "scan.png"), "--case", "Later",
                   "--no-suggest", "--no-ocr")
    assert run.code == 0, run.err
    assert "OCR (" not in run.out
    assert "no results" in casefile(ws, "search", "commission", "--case", "Later").out
    later = casefile(ws, "ocr", "--case", "Later", "--no-suggest")
    assert later.code == 0, later.err
    assert "OCR (RapidOCR " in later.out and "mean confidence" in later.out
    assert "scan" in casefile(ws, "search", "commission", "--case", "Later").out
    assert "no documents waiting" in casefile(ws, "ocr", "--case", "Later").out
