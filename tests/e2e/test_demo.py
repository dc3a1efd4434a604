"""`casefile demo`: the README's first command shows a populated sample case."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.e2e.cli_helpers import casefile, pdf_text, squash


def test_demo_builds_a_populated_case_once(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    first = casefile(ws, "demo")
    assert first.code == 0, first.err
    case_id = int(first.out.strip())
    again = casefile(ws, "demo")
    assert again.code == 0 and int(again.out.strip()) == case_id
    listed = json.loads(casefile(ws, "case", "list", "--json").out)
    assert len(listed) == 1
    counts = listed[0]["counts"]
    assert counts["person"] >= 4 and counts["organization"] >= 3 and counts["document"] == 1
    assert counts["event"] >= 3 and counts["question"] >= 2 and counts["claim"] >= 1
    title = listed[0]["title"]
    due = json.loads(casefile(ws, "followups", "--case", title, "--due-within", "7",
                              "--json").out)
    assert any(f["overdue"] for f in due) and any(not f["overdue"] for f in due)
    claims = json.loads(casefile(ws, "claims", "--case", title, "--json").out)
    assert sorted(c["status"] for c in claims) == ["disputed", "single-source"]


def test_demo_open_without_a_display_writes_the_brief_instead(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "casefile", "--workspace", str(ws), "--new-workspace", "demo",
             "--open"],
        capture_output=True, text=True, env=env, timeout=120,
    )
    if sys.platform.startswith("linux"):
        assert proc.returncode == 0, proc.stderr
        assert "wrote the sample brief" in proc.stderr
        text = squash(pdf_text(ws / "sample-brief.pdf"))
        assert "Ruth Okonkwo" in text and "Alder Creek" in text
