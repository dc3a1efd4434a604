"""Bad input: one clear line on stderr, exit 1, and not one row changed anywhere."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.cli_helpers import casefile, row_counts


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    assert casefile(ws, "case new", ).code == 2  # usage error: no title
    assert casefile(ws, "case", "new", "Harbor audit").code == 0
    good = tmp_path / "good.txt"
    good.write_text("Harbor Authority director Lena Ortiz resigned on Monday.\n")
    assert casefile(ws, "import", str(good), "--case", "Harbor audit", "--no-suggest").code == 0
    return ws


def _bad_files(tmp_path: Path) -> dict[str, Path]:
    files = {
        "missing path": tmp_path / "nope.txt",
        "a directory": tmp_path / "adir",
        "an empty file": tmp_path / "empty.txt",
        "random bytes named .txt": tmp_path / "random.txt",
        "an HTML file with no body text": tmp_path / "blank.html",
    }
    files["a directory"].mkdir()
    files["an empty file"].write_bytes(b"")
    files["random bytes named .txt"].write_bytes(os.urandom(4096))
    files["an HTML file with no body text"].write_text(
        "<html><head><title>Nothing</title></head><body><script>var a=1;</script></body></html>"
    )
    return files


@pytest.mark.parametrize("what", [
    "missing path", "a directory", "an empty file", "random bytes named .txt",
    "an HTML file with no body text",
])
def test_bad_file_gives_one_line_exit_1_and_changes_nothing(
    ws: Path, tmp_path: Path, what: str
) -> None:
    path = _bad_files(tmp_path)[what]
    before = row_counts(ws)
    run = casefile(ws, "import", str(path), "--case", "Harbor audit")
    assert run.code == 1, (what, run)
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("casefile: "), (what, run.err)
    assert "Traceback" not in run.err + run.out
    assert path.name in lines[0]
    assert row_counts(ws) == before


def test_unknown_case_is_a_user_error(ws: Path, tmp_path: Path) -> None:
    f = tmp_path / "x.txt"
    f.write_text("Some text about the harbor.")
    run = casefile(ws, "import", str(f), "--case", "No such case")
    assert run.code == 1
    assert run.err.strip() == ("casefile: no case titled 'No such case' (create it: casefile "
                               "case new 'No such case'; see: casefile case list)")
    near = casefile(ws, "import", str(f), "--case", "harbor  AUDIT")
    assert (near.code, near.err.strip()) == (
        1, "casefile: no case titled 'harbor  AUDIT' (did you mean 'Harbor audit'?)")


def test_usage_errors_exit_2(ws: Path) -> None:
    assert casefile(ws, "import").code == 2
    assert casefile(ws, "followups", "--case", "Harbor audit", "--due-within", "soon").code == 2
    assert casefile(ws, "import", "x.txt", "--case", "Harbor audit",
                    "--published", "23/02/2018").code == 2


def test_same_file_twice_leaves_one_document_and_says_so(ws: Path, tmp_path: Path) -> None:
    f = tmp_path / "memo.txt"
    f.write_text("Port director Sam Reed signed the memo on May 2.\n")
    first = casefile(ws, "import", str(f), "--case", "Harbor audit", "--no-suggest")
    copy = tmp_path / "memo-copy.txt"
    copy.write_bytes(f.read_bytes())
    second = casefile(ws, "import", str(copy), "--case", "Harbor audit", "--no-suggest")
    assert first.out.startswith("imported: ")
    assert second.code == 0 and second.out.startswith("already there: ")
    assert row_counts(ws)["documents"] == 2  # good.txt from the fixture + memo.txt


def test_latin1_text_imports_with_accents_and_a_note(ws: Path, tmp_path: Path) -> None:
    f = tmp_path / "latin1.txt"
    f.write_bytes("Le maire de Saint-Étienne, José Müller, a démissionné à Noël.\n"
                  .encode("latin-1"))
    run = casefile(ws, "import", str(f), "--case", "Harbor audit", "--no-suggest", "--json")
    assert run.code == 0, run.err
    import json

    result = json.loads(run.out)["files"][0]
    assert result["status"] == "imported"
    assert any("UTF-8" in n and "Latin-1" in n or "8859" in n for n in result["notes"]), result
    items = json.loads(casefile(ws, "items", "--case", "Harbor audit", "--kind", "document",
                                "--json").out)
    doc = next(d for d in items if d["sha256"] == result["sha256"])
    assert doc["notes_on_import"] == result["notes"]
    found = json.loads(casefile(ws, "search", "Étienne démissionné", "--json").out)
    assert [h["item_id"] for h in found] == [result["document_id"]]


def test_damaged_database_gives_one_line_not_sql(ws: Path) -> None:
    db = ws / "casefile.sqlite3"
    for name in ("casefile.sqlite3-wal", "casefile.sqlite3-shm"):
        (ws / name).unlink(missing_ok=True)
    data = bytearray(db.read_bytes())
    for offset in range(8192, len(data), 4096):  # every page but the first two
        data[offset:offset + 1024] = os.urandom(1024)
    db.write_bytes(bytes(data))
    for args in (("case", "list"), ("items", "--case", "Harbor audit"), ("search", "Ortiz")):
        run = casefile(ws, *args)
        assert run.code == 1, (args, run)
        lines = run.err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("casefile: "), (args, run.err)
        assert "SQL" not in run.err and "sqlalche.me" not in run.err


def test_workspace_path_that_is_a_file(tmp_path: Path) -> None:
    f = tmp_path / "notes.txt"
    f.write_text("not a folder")
    run = casefile(f, "case", "list")
    assert run.code == 1
    assert run.err.strip() == f"casefile: {f} is a file, not a workspace folder"
