"""Two `casefile import` processes on one workspace at the same time both finish cleanly."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.cli_helpers import casefile


@pytest.mark.parametrize("suggest", [False, True], ids=["no-suggest", "with-suggestions"])
def test_parallel_imports_into_one_workspace(tmp_path: Path, suggest: bool) -> None:
    ws = tmp_path / "ws"
    assert casefile(ws, "case", "new", "Harbor").code == 0
    folder = tmp_path / "notes"
    folder.mkdir()
    for n in range(15):
        (folder / f"note-{n:02}.txt").write_text(
            f"Memo {n}. Port director Ana Silva of the Harbor Authority met auditors on "
            f"March {n + 1}. The audit is expected to be released within two weeks.\n"
        )
    args = ["import", str(folder), "--case", "Harbor", "--published", "2024-03-20", "--json"]
    if not suggest:
        args.append("--no-suggest")
    cmd = [sys.executable, "-m", "casefile", "--workspace", str(ws), *args]
    env = {**os.environ, "CASEFILE_DEBUG": ""}
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env) for _ in range(2)]
    outs = [p.communicate(timeout=240) for p in procs]
    for proc, (out, err) in zip(procs, outs, strict=True):
        assert proc.returncode == 0, err
        assert "Traceback" not in err and "internal error" not in err, err
        result = json.loads(out)
        assert result["total"] == 15 and result["failed"] == 0
    statuses = [f["status"] for out, _ in outs for f in json.loads(out)["files"]]
    assert statuses.count("imported") == 15 and statuses.count("already there") == 15
    db = sqlite3.connect(ws / "casefile.sqlite3")
    try:
        assert db.execute("select count(*) from documents").fetchone() == (15,)
        assert db.execute("pragma integrity_check").fetchone() == ("ok",)
        if suggest:
            docs_with_mentions = db.execute(
                "select count(distinct document_id) from mentions").fetchone()[0]
            assert docs_with_mentions == 15
    finally:
        db.close()
