"""One workspace, many processes, one truth: a real window process (started by ``demo --open``
and by the plain start) beside command-line writers and a backup. Every case each of them
creates is seen by all the others, is still there after the window quits, and the window never
holds a deleted ``-wal`` or ``-shm`` (the sign that it lost its locks and works on a copy of the
data that the others no longer see)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.cli_helpers import REPO, casefile

pytestmark = [pytest.mark.gui, pytest.mark.slow]

DRIVER = Path(__file__).with_name("window_driver.py")
WAIT_S = 60


def _wait_for(path: Path, proc: subprocess.Popen[str]) -> str:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if path.exists():
            return path.read_text(encoding="utf-8")
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"the window process ended ({proc.returncode}) before {path.name}:\n"
                        f"{out}\n{err}")
        time.sleep(0.05)
    pytest.fail(f"no {path.name} from the window within {WAIT_S} s")


class Window:
    """The window process and its control folder."""

    def __init__(self, control: Path, args: list[str]) -> None:
        self.control = control
        control.mkdir()
        env = {**os.environ, "PYTHONPATH": str(REPO), "QT_QPA_PLATFORM": "offscreen",
               "XDG_CONFIG_HOME": str(control.parent / "config")}
        env.pop("CASEFILE_DEBUG", None)
        self.proc = subprocess.Popen([sys.executable, str(DRIVER), str(control), *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env=env, cwd=REPO)
        self.pid = int(_wait_for(control / "ready", self.proc))
        self._n = 0

    def ask(self, request: str) -> str:
        self._n += 1
        name = f"r{self._n:03d}"
        tmp = self.control / f"{name}.tmp-request"
        tmp.write_text(request, encoding="utf-8")
        os.replace(tmp, self.control / f"{name}.request")
        return _wait_for(self.control / f"{name}.answer", self.proc)

    def cases(self) -> dict[str, list[str]]:
        return json.loads(self.ask("list"))

    def database_descriptors(self) -> list[str]:
        """Where the window's descriptors of workspace files point (``… (deleted)`` for a file
        removed while open)."""
        fds = Path(f"/proc/{self.pid}/fd")
        targets = []
        for fd in fds.iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if "casefile.sqlite3" in target:
                targets.append(target)
        return targets

    def quit(self) -> None:
        self.ask("quit")
        try:
            self.proc.communicate(timeout=WAIT_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.communicate()
            pytest.fail("the window did not quit")


def _cli_titles(ws: Path) -> list[str]:
    run = casefile(ws, "case", "list", "--json")
    assert run.code == 0, run.err
    return sorted(c["title"] for c in json.loads(run.out))


def _cli_new(ws: Path, title: str) -> None:
    run = casefile(ws, "case", "new", title)
    assert run.code == 0, run.err


def _seen_by_window(window: Window, wanted: set[str]) -> dict[str, list[str]]:
    """The window's answer once its case box shows ``wanted`` (it reloads within a second or
    two of another process's commit), or the last answer after the wait."""
    deadline = time.monotonic() + 15
    seen = window.cases()
    while not wanted <= set(seen["shown"]) and time.monotonic() < deadline:
        time.sleep(0.3)
        seen = window.cases()
    return seen


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/PID/fd")
@pytest.mark.parametrize("start", [["demo", "--open"], ["gui"]], ids=["demo-open", "plain"])
def test_window_and_cli_writers_share_one_workspace(tmp_path: Path, start: list[str]) -> None:
    ws = tmp_path / "ws"
    if start[0] == "gui":
        _cli_new(ws, "made before the window")  # the plain start opens an existing workspace
    window = Window(tmp_path / "control", ["--workspace", str(ws), "--new-workspace", *start])
    try:
        _share_and_quit(window, ws)
    finally:
        if window.proc.poll() is None:  # a failed check: no window left running
            window.proc.kill()
            window.proc.communicate()


def _share_and_quit(window: Window, ws: Path) -> None:
    expected = set(_cli_titles(ws))
    assert expected, "the window's workspace has a case to start from"

    for round_ in range(3):
        _cli_new(ws, f"from the command line {round_}")
        answer = window.ask(f"case from the window {round_}")
        assert answer.startswith("created"), answer
        run = casefile(ws, "backup", "now")
        assert run.code == 0, run.err
        expected |= {f"from the command line {round_}", f"from the window {round_}"}

        assert set(_cli_titles(ws)) == expected
        seen = _seen_by_window(window, expected)
        assert set(seen["stored"]) == expected
        assert set(seen["shown"]) == expected
        held = window.database_descriptors()
        assert held, "the window holds the workspace open"
        assert not [t for t in held if t.endswith("(deleted)")], held

    window.quit()
    assert window.proc.returncode == 0
    assert set(_cli_titles(ws)) == expected
    assert (ws / "casefile.sqlite3").is_file()


def test_a_logout_ends_the_window_as_quit_does(tmp_path: Path) -> None:
    """SIGTERM (what a logout sends) closes the window as File ▸ Quit does: the process ends
    at once with status 0, the write-ahead log is folded into the database file (so a copy of
    ``casefile.sqlite3`` alone holds every case) and its open-window mark is gone; the settings
    file, which names the workspace and the folders of the sources, is readable by its owner
    only."""
    ws = tmp_path / "ws"
    window = Window(tmp_path / "control", ["--workspace", str(ws), "--new-workspace"])
    assert window.ask("case Harbor audit").startswith("created")
    window.proc.terminate()
    out, err = window.proc.communicate(timeout=WAIT_S)
    assert window.proc.returncode == 0, err
    leftovers = sorted(p.name for p in ws.rglob("*") if p.name.endswith(("-wal", "-shm"))
                       or p.parent.name == "open-windows")
    assert leftovers == []
    copy = tmp_path / "copy"
    copy.mkdir()
    (copy / "casefile.sqlite3").write_bytes((ws / "casefile.sqlite3").read_bytes())
    assert "Harbor audit" in _cli_titles(copy)
    settings = tmp_path / "config" / "Casefile" / "Casefile.ini"  # it names the workspace
    assert "last_case" in settings.read_text(encoding="utf-8")
    assert (settings.stat().st_mode & 0o777, settings.parent.stat().st_mode & 0o777) == (
        0o600, 0o700)
