"""One workspace, many processes, one truth: a real window process (started by ``demo --open``
and by the plain start) beside command-line writers and a backup. Every case each of them
creates is seen by all the others, is still there after the window quits, and the window never
holds a deleted ``-wal`` or ``-shm`` (the sign that it lost its locks and works on a copy of the
data that the others no longer see)."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.cli_helpers import REPO, casefile
from tests.e2e.window_control import WindowProcess

pytestmark = [pytest.mark.gui, pytest.mark.slow]

WAIT_S = 60


class Window(WindowProcess):
    """The window process (started with ``args``) and its control folder."""

    def __init__(self, control: Path, args: list[str]) -> None:
        env = {**os.environ, "PYTHONPATH": str(REPO), "QT_QPA_PLATFORM": "offscreen",
               "XDG_CONFIG_HOME": str(control.parent / "config")}
        env.pop("CASEFILE_DEBUG", None)
        super().__init__(control, args, env, WAIT_S)

    def cases(self) -> dict[str, list[str]]:
        return json.loads(self.ask("list"))


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

    assert window.quit(), "the window did not quit"
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
