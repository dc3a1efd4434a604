"""A folder import killed with SIGKILL at several moments leaves every document whole or absent."""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.cli_helpers import casefile
from tests.e2e.make_files import mixed_folder

CASE = "Harbor audit"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")


def _start_import(ws: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "casefile", "--workspace", str(ws), "import", *args,
         "--case", CASE],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
    )


def _kill_after(proc: subprocess.Popen[str], lines: int, prefix: str = "") -> int:
    """SIGKILL the import once it has printed ``lines`` lines starting with ``prefix``."""
    assert proc.stdout is not None
    seen = 0
    for line in proc.stdout:
        if line.startswith(prefix):
            seen += 1
        if seen >= lines:
            proc.send_signal(signal.SIGKILL)
            break
    proc.wait(timeout=60)
    proc.stdout.close()
    return seen


def check_whole_or_absent(ws: Path) -> int:
    """Assert the workspace is consistent after a crash; returns the number of documents."""
    db = sqlite3.connect(ws / "casefile.sqlite3")
    try:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        docs = db.execute(
            "SELECT d.id, d.sha256, d.text, d.import_notes, d.parent_id, i.kind, i.case_id "
            "FROM documents d JOIN items i ON i.id = d.id"
        ).fetchall()
        assert db.execute("SELECT count(*) FROM items WHERE kind = 'document'").fetchone()[0] \
            == len(docs), "an items row without its documents row (or the reverse)"
        blobs = {sha: (size, data) for sha, size, data in
                 db.execute("SELECT sha256, size, data FROM blobs")}
        logged = {r[0] for r in db.execute(
            "SELECT item_id FROM change_log WHERE action = 'document.import'")}
        for doc_id, sha, text, notes, _parent, kind, _case in docs:
            assert kind == "document"
            assert sha in blobs, f"document {doc_id} has no original bytes"
            size, data = blobs[sha]
            assert hashlib.sha256(data).hexdigest() == sha and size == len(data)
            assert text.strip() or json.loads(notes or "[]"), f"document {doc_id} is empty"
        doc_ids = {d[0] for d in docs}
        assert set(blobs) == {d[1] for d in docs}, "a blob no document uses"
        assert logged == doc_ids, "change log and documents disagree"
        texts = {d[0]: d[2] for d in docs}
        for doc_id, start, end, quote in db.execute(
            "SELECT document_id, start, \"end\", quote FROM passages"
        ):
            assert texts[doc_id][start:end] == quote
        for doc_id, start, end, mention in db.execute(
            "SELECT document_id, start, \"end\", text FROM mentions"
        ):
            assert texts[doc_id][start:end] == mention
        # the first five emails each carry a PDF: parent and child come and go together
        children = dict(db.execute(
            "SELECT p.filename, count(c.id) FROM documents p "
            "LEFT JOIN documents c ON c.parent_id = p.id WHERE p.filename LIKE 'message-%' "
            "GROUP BY p.id"
        ).fetchall())
        for name, count in children.items():
            assert count == (1 if int(name[8:11]) < 5 else 0), (name, count)
    finally:
        db.close()
    _check_findable(ws, {d[0]: d[2] for d in docs})
    return len(docs)


def _check_findable(ws: Path, texts: dict[int, str]) -> None:
    """Each document is found by text search with the first words of its text."""
    from casefile.store.search import search
    from casefile.store.workspace import open_workspace

    workspace = open_workspace(ws)
    try:
        with workspace.transaction() as session:
            for doc_id, text in texts.items():
                words = re.findall(r"[^\W_]+", text)[:8]
                if words:
                    hits = search(session, '"' + " ".join(words) + '"', limit=1000)
                    assert doc_id in {h.item_id for h in hits}, f"document {doc_id} not found"
    finally:
        workspace.close()


def test_sigkill_during_folder_import_leaves_each_document_whole_or_absent(
    tmp_path: Path
) -> None:
    folder = tmp_path / "inbox"
    mixed_folder(folder)
    ws = tmp_path / "ws"
    from casefile.services.cases import create_case
    from casefile.store.workspace import open_workspace

    workspace = open_workspace(ws)
    with workspace.transaction() as session:
        create_case(session, CASE)
    workspace.close()

    # the killed runs skip bad/ (55 refusals before the first document: time, not coverage)
    good = [str(p) for p in sorted(folder.iterdir()) if p.is_dir() and p.name != "bad"
            and not p.name.startswith(".")]
    counts = []
    # killed while writing documents, at three points further and further into the folder
    # (each run first passes the files already in as "already there")
    for lines in (5, 35, 70):
        _kill_after(_start_import(ws, *good, "--no-suggest"), lines)
        counts.append(check_whole_or_absent(ws))
    # killed while suggestions are being stored for new documents (second transaction)
    _kill_after(_start_import(ws, *good), 1, prefix="  suggestions")
    counts.append(check_whole_or_absent(ws))
    assert counts == sorted(counts) and counts[0] > 0 and counts[-1] < 125, counts

    final = casefile(ws, "import", str(folder), "--case", CASE, "--no-suggest", "--json")
    assert final.code == 0, final.err
    out = json.loads(final.out)
    assert out["total"] == 200 and out["failed"] == 55
    assert out["imported"] + out["already_there"] == 145
    assert check_whole_or_absent(ws) == 125  # (it opens the workspace, as the app would)
