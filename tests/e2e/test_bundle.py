"""The desktop bundle (``scripts/build_bundle.py``) works on its own, as a reporter runs it.

Runs only when ``CASEFILE_TEST_BUNDLE`` names a built bundle folder (``dist/Casefile``) or its
executable; ``.ci/run`` builds one and sets it. Every command runs as ``env -i`` would: only
``PATH=/usr/bin:/bin`` and an empty ``HOME``, no virtual environment, no PYTHONPATH, the working
folder outside the checkout, and (where ``unshare -n`` is allowed) no network, so anything the
bundle lacks (a module, the spaCy pipeline, the OCR models, the migrations, the fonts, the sample
case) fails here.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ARTICLE, SAMPLES

BUNDLE = os.environ.get("CASEFILE_TEST_BUNDLE", "")
SCAN = SAMPLES / "real" / "pdf-with-jbig2.pdf"
REPO = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.bundle,
    pytest.mark.slow,
    pytest.mark.skipif(not BUNDLE, reason="CASEFILE_TEST_BUNDLE (a built bundle) not set"),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the Linux bundle"),
]


def _no_network() -> list[str]:
    """``unshare -n`` (a new network namespace: no interface but a loopback that is down) when
    this machine allows it, so a command that tries to fetch anything fails; else nothing."""
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "-n", "true"], capture_output=True).returncode == 0:
        return [unshare, "-n"]
    return []


def _executable() -> Path:
    path = Path(BUNDLE).resolve()
    exe = path / "casefile" if path.is_dir() else path
    assert exe.is_file() and os.access(exe, os.X_OK), f"no bundle executable at {exe}"
    return exe


class Clean:
    """Runs the bundle with nothing of this machine's Python set up: an empty HOME."""

    def __init__(self, root: Path) -> None:
        self.home = root / "home"
        self.cwd = root / "elsewhere"
        self.home.mkdir()
        self.cwd.mkdir()
        self.exe = _executable()
        self.offline = _no_network()

    def env(self, **extra: str) -> dict[str, str]:
        return {"PATH": "/usr/bin:/bin", "HOME": str(self.home), **extra}

    def run(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*self.offline, str(self.exe), *args], capture_output=True, text=True,
                              env=self.env(), cwd=self.cwd, timeout=timeout,
                              stdin=subprocess.DEVNULL)

    @property
    def default_workspace(self) -> Path:
        """Where the user data folder puts the workspace on Linux (XDG, platformdirs)."""
        return self.home / ".local" / "share" / "Casefile" / "workspace"


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Clean]:
    root = tmp_path_factory.mktemp("bundle")
    assert REPO not in root.parents
    yield Clean(root)


def test_version_is_this_checkouts(clean: Clean) -> None:
    from casefile import __version__

    proc = clean.run("--version")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"casefile {__version__}"


def test_demo_builds_the_sample_case_in_the_user_data_folder(clean: Clean) -> None:
    proc = clean.run("demo")
    assert proc.returncode == 0, proc.stderr
    assert re.fullmatch(r"\d+", proc.stdout.strip()), proc.stdout
    assert (clean.default_workspace / "casefile.sqlite3").is_file()
    listed = clean.run("case", "list")
    assert listed.returncode == 0 and proc.stdout.strip() in listed.stdout, listed.stdout


def _suggestions_line(output: str) -> str:
    lines = [line.strip() for line in output.splitlines() if "suggestions (" in line]
    assert len(lines) == 1, output
    return lines[0]


def test_import_suggests_with_the_shipped_spacy_pipeline(clean: Clean, tmp_path: Path) -> None:
    from casefile.extract.model import default_model_name

    model = default_model_name()
    assert model is not None, "the development install has no spaCy pipeline to compare with"
    assert clean.run("case", "new", "Article").returncode == 0
    proc = clean.run("import", str(ARTICLE), "--case", "Article")
    assert proc.returncode == 0, proc.stderr
    bundled = _suggestions_line(proc.stdout)
    assert bundled.startswith(f"suggestions ({model} "), bundled  # not "(rules)"
    assert re.search(r"\d+ person", bundled), bundled

    # the same program: the development install suggests the same from the same file
    ws = tmp_path / "dev-ws"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("CASEFILE_DEBUG", None)
    dev = [sys.executable, "-m", "casefile", "--workspace", str(ws)]
    subprocess.run([*dev, "--new-workspace", "case", "new", "Article"], env=env, check=True,
                   capture_output=True, timeout=300)
    mine = subprocess.run([*dev, "import", str(ARTICLE), "--case", "Article"], env=env,
                          capture_output=True, text=True, timeout=300)
    assert mine.returncode == 0, mine.stderr
    assert _suggestions_line(mine.stdout) == bundled


def test_ocr_of_a_jbig2_scan_with_the_shipped_models(clean: Clean) -> None:
    assert clean.run("case", "new", "Scan").returncode == 0
    proc = clean.run("import", str(SCAN), "--case", "Scan")
    assert proc.returncode == 0, proc.stderr
    ocr = re.search(r"OCR \(RapidOCR [\d.]+\): (\d+) pages?, (\d+) words", proc.stdout)
    assert ocr is not None, proc.stdout + proc.stderr
    assert int(ocr.group(1)) >= 1 and int(ocr.group(2)) >= 1, proc.stdout


def test_brief_of_the_sample_case(clean: Clean) -> None:
    import json

    assert clean.run("demo").returncode == 0
    cases = json.loads(clean.run("case", "list", "--json").stdout)
    demo = min(cases, key=lambda c: c["id"])
    target = clean.cwd / "brief.pdf"
    proc = clean.run("brief", "--case", demo["title"], "-o", str(target))
    assert proc.returncode == 0, proc.stderr
    assert target.read_bytes().startswith(b"%PDF")
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(target), "-"], capture_output=True, text=True,
                              check=True).stdout
        assert " ".join(demo["title"].split()) in " ".join(text.split())
    if shutil.which("pdffonts"):
        fonts = subprocess.run(["pdffonts", str(target)], capture_output=True, text=True,
                               check=True).stdout
        assert "DejaVu" in fonts, fonts


def test_an_older_workspace_is_backed_up_then_upgraded(clean: Clean, tmp_path: Path) -> None:
    """A newer bundle opening a workspace made by an older Casefile: the shipped migrations
    run from the bundle, after a backup of the old file."""
    from alembic import command
    from alembic.script import ScriptDirectory

    from casefile.store.workspace import (
        DB_FILENAME,
        alembic_config,
        current_revision,
        head_revision,
        make_engine,
    )

    ws = tmp_path / "old-workspace"
    ws.mkdir()
    url = f"sqlite:///{ws / DB_FILENAME}"
    oldest = ScriptDirectory.from_config(alembic_config()).get_base()
    assert isinstance(oldest, str) and oldest != head_revision()
    engine = make_engine(url)
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, oldest)
    engine.dispose()

    proc = clean.run("--workspace", str(ws), "case", "new", "After the update")
    assert proc.returncode == 0, proc.stderr
    backups = list((ws / "backups").glob(f"*rev{oldest}*.sqlite3"))
    assert len(backups) == 1, list((ws / "backups").iterdir())
    engine = make_engine(url)
    try:
        assert current_revision(engine) == head_revision()
    finally:
        engine.dispose()


def _wait_until(check, proc: subprocess.Popen[str], timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"the window exited with {proc.returncode}: {err or out}")
        if check():
            return
        time.sleep(0.5)
    pytest.fail("the window did not open in time")


def _stop(proc: subprocess.Popen[str]) -> str:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        _out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        _out, err = proc.communicate()
    return err


def test_window_opens_offscreen(clean: Clean) -> None:
    """With no arguments the bundle opens the window (Qt's offscreen platform): its platform
    plug-in is loaded from the bundle and the window opens the default workspace."""
    proc = subprocess.Popen([str(clean.exe)], env=clean.env(QT_QPA_PLATFORM="offscreen"),
                            cwd=clean.cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    maps = Path(f"/proc/{proc.pid}/maps")

    def opened() -> bool:
        try:
            loaded = maps.read_text()
        except OSError:
            return False
        return "libqoffscreen.so" in loaded and str(clean.exe.parent) in loaded

    try:
        _wait_until(opened, proc)
        time.sleep(3)  # still running: the window is up, not failing on start
        assert proc.poll() is None
    finally:
        err = _stop(proc)
    assert "internal error" not in err and "Traceback" not in err, err


@pytest.mark.skipif(not (shutil.which("Xvfb") and shutil.which("xwininfo")),
                    reason="needs Xvfb and xwininfo (x11-utils)")
def test_window_opens_on_an_x_display(clean: Clean) -> None:
    """Under Xvfb the bundle's window appears as a top-level X window named Casefile."""
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "1280x800x24",
                             "-nolisten", "tcp"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)
    try:
        assert xvfb.stdout is not None
        display = f":{xvfb.stdout.readline().strip()}"
        proc = subprocess.Popen([str(clean.exe)], env=clean.env(DISPLAY=display), cwd=clean.cwd,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

        def shown() -> bool:
            tree = subprocess.run(["xwininfo", "-root", "-tree", "-display", display],
                                  capture_output=True, text=True).stdout
            return re.search(r'"[^"\n]*Casefile"', tree) is not None

        try:
            _wait_until(shown, proc)
        finally:
            err = _stop(proc)
        assert "internal error" not in err and "Traceback" not in err, err
    finally:
        xvfb.terminate()
        xvfb.communicate(timeout=30)
