"""``casefile import`` without ``--published``: the date found, and a note saying where from."""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path

from tests.conftest import ARTICLE
from tests.e2e.cli_helpers import casefile


def test_import_without_published_takes_the_text_or_file_date_and_says_so(tmp_path: Path):
    ws = tmp_path / "ws"
    assert casefile(ws, "case", "new", "Parkland").code == 0
    dated = tmp_path / "dated.txt"
    dated.write_text("Published February 23, 2018\n\n" + ARTICLE.read_text(encoding="utf-8"),
                     encoding="utf-8")
    undated = tmp_path / "undated.txt"
    undated.write_text("The harbor audit is late, the port authority said.\n", encoding="utf-8")
    stamp = datetime(2021, 6, 7, 12).timestamp()
    os.utime(undated, (stamp, stamp))
    run = casefile(ws, "import", str(dated), str(undated), "--case", "Parkland", "--no-suggest")
    assert run.code == 0, run.err
    assert "  note: Published date taken from the text: 2018-02-23" in run.out
    assert "  note: Published date taken from the file's modification date: 2021-06-07" in run.out
    docs = json.loads(casefile(ws, "items", "--case", "Parkland", "--kind", "document",
                               "--json").out)
    published = {d["title"][:9]: d["published"] for d in docs}  # titles: first lines
    assert published == {"Published": "2018-02-23", "The harbo": "2021-06-07"}
