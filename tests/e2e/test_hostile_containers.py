"""Hostile containers given to the real ``casefile`` command: zip bombs in a Word file, an
Excel file and an e-mail, an e-mail of a thousand parts of random bytes, case archives with
huge blobs, flipped bytes, a cut-off end, only a sealed header, or rows that do not fit.

Each file is built here (small on disk, gigabytes once expanded). The command runs in a child
process whose peak memory (``ru_maxrss`` from ``os.wait4``) must stay under 1 GB, within a
subprocess timeout; the refusal is one line naming the real reason, or the stored document is
what a reporter should see. Nothing is changed by a refusal.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import zipfile
from pathlib import Path

import pytest

from tests.e2e.cli_helpers import casefile, command, workspace_with_case
from tests.e2e.zip_bombs import (
    GiB,
    Measured,
    MiB,
    archive_with_big_blobs,
    bomb_docx,
    bomb_xlsx,
    email_with_attachment,
    flip_byte_in_member,
    rewrite_archive,
    run_measured,
    thousand_part_email,
)

CASE = "Harbor audit"
DEMO = "Sample: Alder Creek flood response"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
#: Peak memory allowed to the child that reads one hostile file.
PEAK = 1 * GiB
#: Seconds the child may take; a refusal comes within seconds, the timeout only stops a hang.
TIMEOUT = 120


def _rows(workspace: Path) -> dict[str, int]:
    db = sqlite3.connect(workspace / "casefile.sqlite3")
    try:
        tables = [r[0] for r in db.execute(
            "select name from sqlite_master where type='table' and name not like 'sqlite_%'")]
        return {t: db.execute(f'select count(*) from "{t}"').fetchone()[0] for t in tables}
    finally:
        db.close()


def _run(workspace: Path, *args: str, env: dict[str, str] | None = None,
         timeout: float = TIMEOUT) -> Measured:
    argv, full_env = command(workspace, *args, env=env)
    return run_measured(argv, env=full_env, timeout=timeout)


def _one_line_refusal(run: Measured, *needles: str) -> str:
    assert run.code == 1, run
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("casefile: "), run.err
    assert "internal error" not in run.err and "Traceback" not in run.err + run.out
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """A workspace with the case (made in-process)."""
    return workspace_with_case(tmp_path / "ws", CASE)


@pytest.mark.slow
def test_a_word_zip_bomb_is_refused_in_one_line_within_bounded_memory(ws: Path, tmp_path):
    bomb = tmp_path / "report.docx"
    bomb.write_bytes(bomb_docx())  # 1.6 MB on disk, 1.5 GB expanded
    before = _rows(ws)
    run = _run(ws, "import", str(bomb), "--case", CASE, "--no-suggest")
    _one_line_refusal(run, "report.docx was not imported", "1.5 GB", "(a zip bomb?)")
    assert run.peak < PEAK, f"peak {run.peak / MiB:.0f} MiB"
    assert _rows(ws) == before


@pytest.mark.slow
def test_a_zip_bomb_attached_to_an_email_is_left_out_with_a_note(ws: Path, tmp_path):
    mail = tmp_path / "report.eml"
    mail.write_bytes(email_with_attachment(bomb_docx(), "report.docx", DOCX))
    run = _run(ws, "import", str(mail), "--case", CASE, "--no-suggest", "--json")
    assert run.code == 0, run.err
    assert run.peak < PEAK, f"peak {run.peak / MiB:.0f} MiB"
    result = json.loads(run.out)["files"][0]
    assert result["status"] == "imported" and result["title"] == "The report you asked for"
    refusals = [n for n in result["notes"] if n.startswith("Attachment report.docx")]
    assert len(refusals) == 1 and "(a zip bomb?)" in refusals[0], result["notes"]
    assert _rows(ws)["documents"] == 1  # the e-mail; no document made of the bomb


@pytest.mark.slow
def test_an_excel_zip_bomb_is_refused_by_the_table_import(ws: Path, tmp_path):
    bomb = tmp_path / "contacts.xlsx"
    bomb.write_bytes(bomb_xlsx())
    before = _rows(ws)
    run = _run(ws, "import-table", str(bomb), "--case", CASE, "--kind", "person")
    _one_line_refusal(run, "contacts.xlsx was not imported", "(a zip bomb?)")
    assert run.peak < PEAK, f"peak {run.peak / MiB:.0f} MiB"
    assert _rows(ws) == before


def test_an_email_of_a_thousand_random_parts_stores_no_binary_as_text(ws: Path, tmp_path):
    mail = tmp_path / "many.eml"
    mail.write_bytes(thousand_part_email())
    run = _run(ws, "import", str(mail), "--case", CASE, "--no-suggest", "--json")
    assert run.code == 0, run.err
    assert run.peak < PEAK
    result = json.loads(run.out)["files"][0]
    assert "The message has more than 200 parts; only the first 200 were read" \
        in result["notes"]
    assert any("is not text (application/octet-stream)" in n for n in result["notes"])
    db = sqlite3.connect(ws / "casefile.sqlite3")
    try:
        stored = db.execute("select mime_type, text from documents").fetchall()
    finally:
        db.close()
    assert [mime for mime, _ in stored] == ["message/rfc822"], [m for m, _ in stored]
    assert "The body of a message with very many parts." in stored[0][1]


@pytest.fixture(scope="module")
def demo_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo case exported as an unsealed archive (made once for this module)."""
    root = tmp_path_factory.mktemp("demo-archive")
    assert casefile(root / "ws", "demo").code == 0
    out = root / "demo.casefile"
    assert casefile(root / "ws", "archive", "export", "--case", DEMO, "-o", str(out)).code == 0
    return out


@pytest.mark.slow
def test_an_archive_with_huge_blobs_is_refused_by_their_size(ws: Path, tmp_path,
                                                              demo_archive: Path):
    big = tmp_path / "big.casefile"
    archive_with_big_blobs(demo_archive, big, blobs=2, size=600 * MiB)
    assert big.stat().st_size < 20 * MiB
    before = _rows(ws)
    run = _run(ws, "archive", "import", str(big))
    _one_line_refusal(run, "big.casefile was not imported", "600 MB",
                      "the largest document Casefile imports")
    assert run.peak < PEAK, f"peak {run.peak / MiB:.0f} MiB"
    assert _rows(ws) == before


@pytest.mark.slow
@pytest.mark.parametrize("sealed", [False, True], ids=["unsealed", "sealed"])
def test_an_archive_of_large_documents_is_read_one_document_at_a_time(ws: Path, tmp_path,
                                                                      sealed: bool):
    here = tmp_path / "here"
    assert casefile(here, "case", "new", "Six memos").code == 0
    memos = []
    for n in range(6):
        memos.append(tmp_path / f"memo-{n}.txt")
        memos[-1].write_text(f"Memo {n}: the harbor director signed contract {n}.\n")
    assert casefile(here, "import", *map(str, memos), "--case", "Six memos",
                    "--no-suggest").code == 0
    small = tmp_path / "six.casefile"
    assert casefile(here, "archive", "export", "--case", "Six memos", "-o", str(small)).code == 0
    large = tmp_path / "large.casefile"
    archive_with_big_blobs(small, large, blobs=5, size=180 * MiB)  # 900 MB of original bytes
    secret = {"CASEFILE_ARCHIVE_PASSPHRASE": "long enough phrase"}
    if sealed:
        from casefile.export.archive_file import _seal

        large.write_bytes(_seal(large.read_bytes(), secret["CASEFILE_ARCHIVE_PASSPHRASE"]))
    # storing 900 MB in SQLite takes about a minute on a loaded machine; the timeout only
    # stops a hang
    run = _run(ws, "archive", "import", str(large), "--json", env=secret, timeout=600)
    assert run.code == 0, run.err
    assert run.peak < PEAK, f"peak {run.peak / MiB:.0f} MiB"
    db = sqlite3.connect(ws / "casefile.sqlite3")
    try:
        sizes = sorted(r[0] for r in db.execute("select size from blobs"))
    finally:
        db.close()
    assert sizes[-5:] == [180 * MiB] * 5


def _flipped(demo: Path, target: Path) -> None:
    flip_byte_in_member(demo, target, "tables/documents.json")


def _truncated(demo: Path, target: Path) -> None:
    target.write_bytes(demo.read_bytes()[: demo.stat().st_size // 2])


def _sealed_header(demo: Path, target: Path) -> None:
    from casefile.export.archive_file import MAGIC

    target.write_bytes(MAGIC)


def _word_file(demo: Path, target: Path) -> None:
    from tests.e2e.make_files import docx_bytes

    target.write_bytes(docx_bytes(["Not an archive at all."]))


def _rows_edit(table: str, change: dict[str, object]):
    def make(demo: Path, target: Path) -> None:
        def edit(members: dict[str, bytes]) -> None:
            rows = json.loads(members[f"tables/{table}.json"])
            rows[0].update(change)
            members[f"tables/{table}.json"] = json.dumps(rows).encode()

        rewrite_archive(demo, target, edit)
    return make


HOSTILE_ARCHIVES = {
    "a flipped byte": (_flipped, "is damaged"),
    "a cut-off end": (_truncated, "is damaged or truncated"),
    "only a sealed header": (_sealed_header, "sealed case archive cut short"),
    "a Word file": (_word_file, "not a Casefile case archive"),
    "a text id": (_rows_edit("items", {"id": "seven"}), "values of the wrong kind"),
    "a date that is no date": (_rows_edit("items", {"created": "yesterday"}),
                               "values of the wrong kind"),
    "a title that is a list": (_rows_edit("items", {"title": ["a", "b"]}),
                               "values of the wrong kind"),
    "a missing title": (_rows_edit("items", {"title": None}), "that this workspace cannot store"),
    "a number too large": (_rows_edit("passages", {"start": 2**70}),
                           "values of the wrong kind"),
}


@pytest.mark.parametrize("what", list(HOSTILE_ARCHIVES))
def test_a_hostile_archive_is_refused_in_one_sentence(ws: Path, tmp_path, demo_archive: Path,
                                                      what: str):
    make, reason = HOSTILE_ARCHIVES[what]
    path = tmp_path / "hostile.casefile"
    make(demo_archive, path)
    before = _rows(ws)
    run = _run(ws, "archive", "import", str(path),
               env={"CASEFILE_ARCHIVE_PASSPHRASE": "a passphrase"})
    _one_line_refusal(run, reason)
    assert run.peak < PEAK
    assert _rows(ws) == before


def test_the_demo_archive_itself_imports(ws: Path, tmp_path, demo_archive: Path):
    """The control for the hostile archives above: the same file, unchanged, is accepted."""
    copy = tmp_path / "copy.casefile"
    shutil.copy(demo_archive, copy)
    assert zipfile.is_zipfile(copy)
    run = _run(ws, "archive", "import", str(copy))
    assert run.code == 0, run.err
    assert "imported case" in run.out
