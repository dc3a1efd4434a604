"""A `casefile import` killed while its worker processes run (SIGKILL or a plain SIGTERM) takes
them along: within seconds no process it started is left (no reader worker, no multiprocessing
resource tracker), and nothing holds the caller's output pipe open any more; the same for a
process whose suggestion pool (the window's) is extracting."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.e2e.cli_helpers import casefile, command
from tests.e2e.make_files import html_page

CASE = "Harbor audit"
#: How long the test waits for the import's workers to appear, and for them to be gone.
START_LIMIT_S = 120
GONE_LIMIT_S = 20

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="reads the process table from /proc")


def _stat(pid: int) -> tuple[int, str, str] | None:
    """(parent pid, state letter, start time) of ``pid``; None when it is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2:].split()  # after "pid (name) "
    return int(fields[1]), fields[0], fields[19]


def _descendants(root: int) -> dict[int, str]:
    """pid -> start time of every living process below ``root``."""
    parents: dict[int, tuple[int, str]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            st = _stat(int(entry))
            if st is not None and st[1] != "Z":
                parents[int(entry)] = (st[0], st[2])
    found: dict[int, str] = {}
    frontier = [root]
    while frontier:
        pid = frontier.pop()
        for child, (ppid, started) in parents.items():
            if ppid == pid and child not in found:
                found[child] = started
                frontier.append(child)
    return found


def _alive(pid: int, started: str) -> bool:
    """True while the process ``pid`` started at ``started`` runs (a zombie is dead; a new
    process under a reused pid is another one)."""
    st = _stat(pid)
    return st is not None and st[1] != "Z" and st[2] == started


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _html_folder(root: Path, count: int) -> Path:
    """Web pages: a slow format, read by the reader pool's workers."""
    root.mkdir()
    paragraph = ("The harbor board met on Tuesday to review the dredging contract, and the "
                 "auditor asked for the tide gauge records of the past decade. ") * 40
    for n in range(count):
        (root / f"page-{n:04}.html").write_text(
            html_page(f"Page {n}. {paragraph}", title=f"Harbor page {n}"), encoding="utf-8")
    return root


#: A process holding a suggestion pool (as the window does) with its workers extracting.
SUGGESTING = """
import time
from casefile.services.suggest_pool import SuggestionPool
pool = SuggestionPool(2)
text = "Port director Ana Silva of the Harbor Authority met Baltic Dredging Ltd. " * 400
futures = [pool.submit(text, None, [], set(), "rules", None) for _ in range(200)]
print("extracting", flush=True)
time.sleep(600)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize(("stage", "sig"), [
    ("reading", signal.SIGKILL), ("reading", signal.SIGTERM), ("suggesting", signal.SIGKILL)],
    ids=["import-sigkill", "import-sigterm", "suggestion-pool-sigkill"])
def test_a_killed_import_leaves_no_worker_and_no_open_output_pipe(
        tmp_path: Path, stage: str, sig: signal.Signals) -> None:
    """``reading``: a real ``casefile import`` of web pages (the reader pool's workers);
    ``suggesting``: a process extracting suggestions in a suggestion pool, as the window does
    after an import."""
    if stage == "reading":
        ws = tmp_path / "ws"
        assert casefile(ws, "case", "new", CASE).code == 0
        folder = _html_folder(tmp_path / "pages", 600)
        argv, env = command(ws, "import", str(folder), "--case", CASE, "--no-suggest")
    else:
        _argv, env = command(None)
        argv = [sys.executable, "-c", SUGGESTING]
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)
    assert proc.stdout is not None
    eof = threading.Event()

    def drain() -> None:  # keeps the pipe flowing; EOF once no process holds its write end
        assert proc.stdout is not None
        while proc.stdout.read(65536):
            pass
        eof.set()

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    seen: dict[int, str] = {}
    try:
        deadline = time.monotonic() + START_LIMIT_S
        while time.monotonic() < deadline and proc.poll() is None:
            seen.update(_descendants(proc.pid))
            workers = [p for p in seen if "spawn_main" in _cmdline(p)]
            if workers and any("resource_tracker" in _cmdline(p) for p in seen):
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the process ended before its workers were seen"
        assert any("spawn_main" in _cmdline(p) for p in seen), [_cmdline(p) for p in seen]
        seen.update(_descendants(proc.pid))
        proc.send_signal(sig)
        proc.wait(timeout=30)

        deadline = time.monotonic() + GONE_LIMIT_S
        while time.monotonic() < deadline and any(_alive(p, t) for p, t in seen.items()):
            time.sleep(0.1)
        left = {p: _cmdline(p) for p, t in seen.items() if _alive(p, t)}
        assert left == {}, f"still running {GONE_LIMIT_S} s after the import was killed: {left}"
        assert eof.wait(GONE_LIMIT_S), "the import's output pipe is still held open"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid, started in seen.items():  # what a failed run left: this test started them
            if _alive(pid, started):
                os.kill(pid, signal.SIGKILL)
        proc.stdout.close()
