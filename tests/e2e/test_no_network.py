"""Nothing goes out (ARCHITECTURE.md, "Nothing goes out"): the reporter's whole journey through
the real ``casefile`` command — import with OCR of a scan, suggestions, accept, a confidential
source, search, the brief under two profiles and every export — with an audit hook in every
Python process (tests/e2e/audit_site) that refuses any socket connection or name lookup and
records any file written outside the workspace, the temp folder and the chosen export paths.
Native code raises no audit events, so the test also looks at the (empty, private) home folder
afterwards: onnxruntime's telemetry files would appear there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.cli_helpers import REPO, command, pdf_text

AUDIT_SITE = Path(__file__).resolve().parent / "audit_site"
ARTICLE = REPO.parent / "shared" / "samples" / "parkland-coral-springs-article.txt"
#: Where onnxruntime keeps its device id and queued telemetry events, under the home folder.
ORT_CACHE = Path(".cache") / "Microsoft"
SCAN_LINES = ("Harbor Commission minutes", "Director Lena Ortiz signed the dredging contract",
              "before the council vote on March 3.")


#: Variables by which a library knows it runs under CI (onnxruntime writes no telemetry when
#: ``CI`` is set): taken out, so the processes behave as on a reporter's machine.
CI_MARKERS = ("CI", "CONTINUOUS_INTEGRATION", "GITHUB_ACTIONS", "BUILD_NUMBER", "TF_BUILD")


def scan_image(path: Path) -> Path:
    """A page "scanned" at test time: black text on white, no text layer, so it needs OCR."""
    from PIL import Image, ImageDraw, ImageFont

    from casefile.export.fonts import matplotlib_font_dir

    fonts = matplotlib_font_dir()
    font = (ImageFont.truetype(str(fonts / "DejaVuSans.ttf"), 34) if fonts
            else ImageFont.load_default())
    page = Image.new("L", (1400, 400), 255)
    draw = ImageDraw.Draw(page)
    for k, line in enumerate(SCAN_LINES):
        draw.text((60, 60 + 90 * k), line, fill=0, font=font)
    page.save(path)
    return path


def private_env(root: Path, log: Path, allowed: list[Path]) -> dict[str, str]:
    """An environment with an empty home and temp folder of its own and the audit hook on.

    The switches Casefile sets for itself (``casefile.offline``) are taken out, so that only the
    code under test can turn them on in the child processes."""
    from casefile.offline import OFFLINE_ENVIRONMENT

    home, tmp = root / "home", root / "tmp"
    home.mkdir()
    tmp.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in OFFLINE_ENVIRONMENT and k not in CI_MARKERS and not k.startswith("XDG_")}
    env.update({
        "HOME": str(home), "TMPDIR": str(tmp), "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONPATH": os.pathsep.join([str(AUDIT_SITE), str(REPO)]),
        "CASEFILE_AUDIT_LOG": str(log),
        "CASEFILE_AUDIT_ALLOW": os.pathsep.join(str(p) for p in [*allowed, tmp, log]),
    })
    return env


def files_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


@pytest.mark.skipif(not ARTICLE.is_file(), reason="needs ../shared/samples beside the repo")
def test_the_whole_journey_makes_no_connection_and_writes_only_where_asked(tmp_path: Path):
    ws, out, log = tmp_path / "ws", tmp_path / "out", tmp_path / "audit.jsonl"
    out.mkdir()
    env = private_env(tmp_path, log, [ws, out])
    scan = scan_image(tmp_path / "minutes-scan.png")

    def run(*args: str, **extra: str) -> str:
        # this environment only: not the test process's, which has Casefile's switches (it
        # imported casefile) and may have CI set
        argv, _inherited = command(ws, *args)
        done = subprocess.run(argv, env={**env, **extra}, capture_output=True, text=True,
                              timeout=300, cwd=tmp_path)
        assert done.returncode == 0, (args, done.stderr)
        return done.stdout

    run("case", "new", "Harbor audit")
    run("import", str(scan), str(ARTICLE), "--case", "Harbor audit",
        "--published", "2018-02-23")
    waiting = json.loads(run("suggestions", "--case", "Harbor audit", "--json"))
    people = [r for r in waiting if r["kind"] == "person"]
    assert people, "the article gave no suggestions"
    run("suggestions", "accept", *(str(r["id"]) for r in people[:3]), "--case", "Harbor audit")
    items = json.loads(run("items", "--case", "Harbor audit", "--kind", "person", "--json"))
    run("item", str(items[0]["id"]), "--confidential")
    found = run("search", "dredging")
    assert "minutes-scan" in found, found  # OCR read the scan (its words are searchable)

    run("brief", "--case", "Harbor audit", "-o", str(out / "brief.pdf"))
    run("brief", "--case", "Harbor audit", "-o", str(out / "public.pdf"), "--profile", "public")
    run("export", "csv", "--case", "Harbor audit", "-o", str(out / "csv"))
    run("export", "xlsx", "--case", "Harbor audit", "-o", str(out / "case.xlsx"))
    run("followups", "--case", "Harbor audit", "--ics", str(out / "followups.ics"))
    run("export", "ftm", "--case", "Harbor audit", "-o", str(out / "case.ftm.json"))
    run("archive", "export", "--case", "Harbor audit", "-o", str(out / "case.casefile"), "--seal",
        "--include-confidential", CASEFILE_ARCHIVE_PASSPHRASE="a long archive phrase")
    run("backup", "now")
    assert "Harbor" in pdf_text(out / "brief.pdf")

    events = [json.loads(line) for line in log.read_text("utf-8").splitlines()] \
        if log.exists() else []
    assert events == []
    assert files_under(tmp_path / "home") == []
    assert not (tmp_path / "home" / ORT_CACHE).exists()


def test_onnxruntime_left_alone_does_write_its_telemetry_files(tmp_path: Path):
    """The home-folder check above can see telemetry: the same engine, run without Casefile's
    switch, leaves its device id and event database there."""
    pytest.importorskip("rapidocr_onnxruntime")
    env = private_env(tmp_path, tmp_path / "audit.jsonl", [])
    env.pop("CASEFILE_AUDIT_LOG")
    scan = scan_image(tmp_path / "scan.png")
    code = ("import sys, numpy, PIL.Image; from rapidocr_onnxruntime import RapidOCR; "
            "RapidOCR(print_verbose=False)(numpy.asarray(PIL.Image.open(sys.argv[1])"
            ".convert('RGB')))")
    subprocess.run([sys.executable, "-c", code, str(scan)], env=env, check=True,
                   cwd=tmp_path, capture_output=True, timeout=300)
    written = files_under(tmp_path / "home")
    assert any(name.startswith(str(ORT_CACHE)) for name in written), written


def test_the_audit_hook_is_live_in_child_processes(tmp_path: Path):
    """The journey test's hook really runs in the processes it starts: a name lookup is refused
    and logged, and a file written in the home folder is logged."""
    log = tmp_path / "audit.jsonl"
    env = private_env(tmp_path, log, [])
    code = ("import socket, pathlib, sys\n"
            "pathlib.Path(sys.argv[1], 'notes.txt').write_text('x')\n"
            "socket.getaddrinfo('example.org', 443)\n")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "home")], env=env,
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "PermissionError: no network" in done.stderr
    events = [json.loads(line)["event"] for line in log.read_text("utf-8").splitlines()]
    assert events == ["write", "socket.getaddrinfo"]
