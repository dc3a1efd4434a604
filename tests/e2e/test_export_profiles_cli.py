"""Safe exports through the real ``casefile`` command: mark a person of the sample
case confidential (``casefile item ID --confidential``), write a public brief and a public
calendar, and find the person's name in neither."""

from __future__ import annotations

import json
import re
from pathlib import Path

from casefile.export.pdf_check import normalize, pdf_places
from tests.e2e.cli_helpers import casefile, pdf_text


def test_public_brief_and_calendar_of_the_demo_case(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    run = casefile(ws, "demo")
    assert run.code == 0, run.err
    rows = json.loads(casefile(ws, "items", "--case", _title(ws), "--kind", "person",
                               "--json").out)
    person = max(rows, key=lambda r: (len(r["title"].split()), -r["id"]))  # a two-word name
    marked = casefile(ws, "item", str(person["id"]), "--confidential", "--json")
    assert marked.code == 0 and json.loads(marked.out)["confidential"] is True
    case = _title(ws)
    names = [person["title"], person["title"].split()[-1], *person["aliases"]]

    out = tmp_path / "public.pdf"
    run = casefile(ws, "brief", "--case", case, "-o", str(out), "--profile", "public")
    assert run.code == 0 and run.out.strip() == f"wrote {out} (profile public)", run.err
    every = normalize(" ".join(t for _p, t in pdf_places(out)))
    for name in names:
        assert not re.search(rf"(?<!\w){re.escape(normalize(name))}(?!\w)", every), name
    assert "Source A" in pdf_text(out)

    default = tmp_path / "default.pdf"
    assert casefile(ws, "brief", "--case", case, "-o", str(default)).out.strip() == (
        f"wrote {default} (profile editor)")

    ics = tmp_path / "public.ics"
    run = casefile(ws, "followups", "--case", case, "--ics", str(ics), "--profile", "public")
    assert run.code == 0, run.err
    unfolded = ics.read_text("utf-8").replace("\r\n ", "")
    assert person["title"] not in unfolded

    bad = casefile(ws, "brief", "--case", case, "-o", str(out), "--profile", "press")
    assert bad.code == 2 and "invalid choice: 'press'" in bad.err
    both = casefile(ws, "brief", "--case", case, "-o", str(out), "--profile", "public",
                    "--include-confidential")
    assert both.code == 2 and "not allowed with argument" in both.err
    gone = casefile(ws, "item", "999999", "--confidential")
    assert gone.code == 1 and len(gone.err.strip().splitlines()) == 1, gone.err
    back = casefile(ws, "item", str(person["id"]), "--not-confidential")
    assert back.code == 0 and back.out.strip().endswith(": not confidential")


def _title(ws: Path) -> str:
    listed = json.loads(casefile(ws, "case", "list", "--json").out)
    assert len(listed) == 1
    return str(listed[0]["title"])
