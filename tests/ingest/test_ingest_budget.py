"""The budget of one file: images sized from their header, PDF streams counted as they inflate,
page counts capped, UTF-16/32 without a byte-order mark, names that are not UTF-8, long texts
not given to the extractor. Hostile files are built here; the end-to-end runs with measured
memory are in tests/e2e/test_hostile_files.py."""

from __future__ import annotations

import io
import os
import random
from pathlib import Path

import pytest

from casefile.errors import IngestError
from casefile.extract import extract_suggestions
from casefile.filenames import name_note, printable_name
from casefile.ingest import budget, ingest_bytes, ingest_file
from casefile.ingest.ocr import OcrError, page_images
from tests.e2e.hostile_files import (
    _pdf,
    flate_bomb_pdf,
    many_pages_pdf,
    one_colour_png,
    repeated_deflate,
)

MEMO = "Harbor Authority director Lena Ortiz resigned on Monday.\n"


def test_an_image_over_the_pixel_limit_is_refused_before_decoding(tmp_path: Path) -> None:
    scan = one_colour_png(tmp_path / "scan.png", 12000, 9000)
    with pytest.raises(IngestError) as refused:
        ingest_bytes(scan.read_bytes(), "scan.png")
    assert str(refused.value) == ("scan.png was not imported: 12000×9000 pixels is more than "
                                  "the 100-megapixel limit")


def test_an_image_over_twice_the_limit_is_refused_naming_its_pixels(tmp_path: Path) -> None:
    scan = one_colour_png(tmp_path / "scan.png", 20000, 20000)  # Pillow's own error, not ours
    with pytest.raises(IngestError) as refused:
        ingest_bytes(scan.read_bytes(), "scan.png")
    assert str(refused.value) == ("scan.png was not imported: 400,000,000 pixels is more than "
                                  "the 100-megapixel limit")


def test_a_tiff_frame_over_the_limit_is_refused_though_the_first_is_small() -> None:
    from PIL import Image

    Image.MAX_IMAGE_PIXELS = None
    small, large = Image.new("1", (100, 100), 1), Image.new("1", (11000, 10000), 1)
    out = io.BytesIO()
    small.save(out, "TIFF", save_all=True, append_images=[large], compression="group4")
    with pytest.raises(IngestError, match="11000×10000 pixels is more than the 100-megapixel"):
        ingest_bytes(out.getvalue(), "fax.tiff")


def test_a_large_image_is_scaled_down_for_ocr() -> None:
    from PIL import Image

    out = io.BytesIO()
    Image.new("L", (6000, 5000), 255).save(out, "PNG")
    [(number, image)] = list(page_images(out.getvalue(), "image/png", [1]))
    assert number == 1 and image.width * image.height <= budget.MAX_OCR_PIXELS
    assert image.width / image.height == pytest.approx(6000 / 5000, rel=0.01)


def test_ocr_of_a_pdf_page_holding_a_huge_image_is_refused_before_rendering() -> None:
    pixels = repeated_deflate(b"", bytes(14000), 14000)  # grey 14000x14000, 196 MB inflated
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Count 1 /Kids [3 0 R] >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /XObject << /Im1 5 0 R >> >> >>",
        b"<< /Length 33 >>\nstream\nq 612 0 0 792 0 0 cm /Im1 Do Q\nendstream",
        b"<< /Type /XObject /Subtype /Image /Width 14000 /Height 14000 /ColorSpace /DeviceGray "
        b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n" % len(pixels)
        + pixels + b"\nendstream",
    ]
    with pytest.raises(OcrError) as refused:
        list(page_images(_pdf(objects), "application/pdf", [1]))
    assert str(refused.value) == ("page 1 holds an image of 14000×14000 pixels, more than the "
                                  "100-megapixel limit; it was not read")


def test_a_flate_bomb_is_refused_as_what_it_is(tmp_path: Path) -> None:
    bomb = flate_bomb_pdf(tmp_path / "bomb.pdf", inflated=300 * 1024**2)
    with pytest.raises(IngestError) as refused:
        ingest_bytes(bomb.read_bytes(), "bomb.pdf")
    assert str(refused.value) == ("bomb.pdf was not imported: a compressed stream in it "
                                  "inflates to more than 256 MB (a decompression bomb)")


def test_a_flate_bomb_without_its_end_is_still_called_a_bomb(tmp_path: Path) -> None:
    bomb = flate_bomb_pdf(tmp_path / "bomb.pdf", inflated=300 * 1024**2).read_bytes()
    with pytest.raises(IngestError, match="a decompression bomb"):
        ingest_bytes(bomb[:-2000], "bomb.pdf")


def test_many_streams_over_the_total_budget_are_refused(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    monkeypatch.setattr(budget, "MAX_INFLATED_TOTAL", 5 * 1024**2)
    pages = many_pages_pdf(tmp_path / "p.pdf", 3).read_bytes()
    assert ingest_bytes(pages, "p.pdf").extra["pages"] == 3  # under the budget
    bomb = flate_bomb_pdf(tmp_path / "bomb.pdf", inflated=8 * 1024**2).read_bytes()
    with pytest.raises(IngestError, match="inflate to more than 0 GB in all"):
        ingest_bytes(bomb, "bomb.pdf")


def test_page_count_over_the_limit_is_refused_with_both_numbers(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(budget, "MAX_PDF_PAGES", 2)
    data = many_pages_pdf(tmp_path / "p.pdf", 3).read_bytes()
    with pytest.raises(IngestError) as refused:
        ingest_bytes(data, "ledger.pdf")
    assert str(refused.value) == ("ledger.pdf was not imported: it has 3 pages; Casefile reads "
                                  "at most 2 (split it into parts and import those)")


TEXTS = {
    "English": MEMO,
    "Russian": "Директор портовой администрации Лена Ортис ушла в отставку.\n",
    "Chinese": "港务局局长莉娜·奥尔蒂斯周一辞职。\n",
    "Japanese": "港湾局のレナ・オルティス局長は月曜日に辞任した。\n",
}


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
@pytest.mark.parametrize("language", list(TEXTS))
def test_utf16_and_utf32_without_bom_are_read(codec: str, language: str) -> None:
    doc = ingest_bytes(TEXTS[language].encode(codec), "memo.txt")
    assert doc.text == TEXTS[language]
    assert doc.notes[0].startswith(f"No byte-order mark; read as UTF-{codec[4:6]}")


def test_utf32_with_its_byte_order_mark_is_read() -> None:
    assert ingest_bytes(MEMO.encode("utf-32"), "memo.txt").text == MEMO


@pytest.mark.parametrize("data", [
    MEMO.encode() * 5 + bytes(300),  # text padded with NUL bytes
    bytes(range(256)) * 20,
    b"\x01\x00\x02\x00" * 500,  # 16-bit numbers
])
def test_bytes_with_zeros_that_are_not_utf16_stay_binary(data: bytes) -> None:
    with pytest.raises(IngestError, match="is not text"):
        ingest_bytes(data, "data.txt")


def test_random_bytes_stay_binary() -> None:
    # seeded: fresh random bytes start with a known file signature (gzip's 1f 8b...) about once
    # in 1,300 runs of 50, and are then refused as that type instead
    rng = random.Random(4096)
    for _ in range(50):
        with pytest.raises(IngestError, match="is not text"):
            ingest_bytes(rng.randbytes(4096), "random.txt")


@pytest.mark.parametrize(("raw", "shown"), [
    (b"caf\xe9.txt", "café.txt"),
    (b"Gda\xf1sk \xa9.txt", "Gdañsk \ufffd.txt"),
    (b"\x83e\x83X\x83g.txt", "\ufffde\ufffdX\ufffdg.txt"),  # Shift JIS: no guess
    (b"plain.txt", "plain.txt"),
])
def test_names_that_are_not_utf8_become_printable(raw: bytes, shown: str) -> None:
    name = raw.decode("utf-8", "surrogateescape")
    assert printable_name(name) == shown
    shown.encode("utf-8")  # no surrogate left
    assert (name_note(name) is None) == (raw == b"plain.txt")


@pytest.mark.skipif(os.name != "posix", reason="file names are bytes on POSIX only")
def test_a_file_named_in_latin1_is_read_with_a_readable_title(tmp_path: Path) -> None:
    path = Path(os.fsdecode(os.fsencode(tmp_path) + b"/caf\xe9.png"))
    one_colour_png(path, 20, 10)
    _data, doc = ingest_file(path)
    assert (doc.title, doc.filename) == ("café", "café.png")
    assert "The file name is not valid UTF-8 (b'caf\\xe9.png'); it is shown as café.png" \
        in doc.notes


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX special files")
def test_a_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(IngestError) as refused:
        ingest_file(tmp_path / "pipe")  # would block forever if it were opened for reading
    assert str(refused.value) == "pipe was not imported: it is a named pipe (FIFO), not a file"


def test_a_text_over_the_suggestion_limit_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget, "MAX_SUGGEST_CHARS", 1000)
    found = extract_suggestions(MEMO * 100, mode="rules")
    assert found["mode"] == "skipped" and found["people"] == []
    assert found["skipped"] == ("suggestions skipped: the text is 5,700 characters, above the "
                                "1,000 limit; run `casefile extract` on parts")
    assert "skipped" not in extract_suggestions(MEMO * 10, mode="rules")
