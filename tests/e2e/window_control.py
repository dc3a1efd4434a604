"""The other end of ``tests/e2e/window_driver.py``: start a window process and steer it through
its control folder (requests in, answers out, see the driver's docstring), for the tests and
``scripts/shared_workspace_soak.py``."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

DRIVER = Path(__file__).with_name("window_driver.py")
REPO = Path(__file__).resolve().parents[2]


class WindowGone(RuntimeError):
    """The window process ended, or did not answer in time; the message says which, with what
    the process printed."""


class WindowProcess:
    """A window process started by the driver with ``args`` (``casefile`` arguments), in
    ``env``, steered through the new folder ``control``; ``limit`` is how many seconds an
    answer may take."""

    def __init__(self, control: Path, args: list[str], env: Mapping[str, str],
                 limit: float) -> None:
        self.control = control
        self.limit = limit
        control.mkdir()
        self.proc = subprocess.Popen([sys.executable, str(DRIVER), str(control), *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env=dict(env), cwd=REPO)
        self.pid = int(self.wait_for(control / "ready"))
        self._n = 0

    def wait_for(self, path: Path) -> str:
        """The text of ``path`` once the window has written it; :class:`WindowGone` when the
        process ends first or after ``limit`` seconds."""
        deadline = time.monotonic() + self.limit
        while time.monotonic() < deadline:
            if path.exists():
                return path.read_text(encoding="utf-8")
            if self.proc.poll() is not None:
                out, err = self.proc.communicate()
                raise WindowGone(f"the window process ended ({self.proc.returncode}) before "
                                 f"{path.name}:\n{out}\n{err}")
            time.sleep(0.05)
        raise WindowGone(f"no {path.name} from the window within {self.limit:g} s")

    def ask(self, request: str) -> str:
        """Send one request (``case TITLE``, ``list``, ``quit``) and return its answer."""
        self._n += 1
        name = f"r{self._n:05d}"
        tmp = self.control / f"{name}.tmp-request"
        tmp.write_text(request, encoding="utf-8")
        os.replace(tmp, self.control / f"{name}.request")  # the driver never reads half
        answer = self.wait_for(self.control / f"{name}.answer")
        (self.control / f"{name}.answer").unlink()
        return answer

    def database_descriptors(self) -> list[str]:
        """Where the window's descriptors of workspace files point (``… (deleted)`` for a file
        removed while open); Linux only (/proc)."""
        targets = []
        for fd in Path(f"/proc/{self.pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if "casefile.sqlite3" in target:
                targets.append(target)
        return targets

    def quit(self) -> bool:
        """Ask the window to quit and wait up to ``limit`` seconds for the process to end;
        False if it had to be killed."""
        self.ask("quit")
        try:
            self.proc.communicate(timeout=self.limit)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.communicate()
            return False
        return True
