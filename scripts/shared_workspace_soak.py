"""One workspace, many processes, for minutes on end: a real window process plus three
command-line writers plus backups, all on one SQLite workspace, checked all along.

    .venv/bin/python scripts/shared_workspace_soak.py [--minutes 10] [--writers 3] [--json OUT]

The window runs in its own process (``tests/e2e/window_driver.py``: the real ``casefile demo
--open`` code path, offscreen unless ``$QT_QPA_PLATFORM`` says otherwise) and creates a case
every two seconds the way its New case does. Each writer is a loop of whole ``casefile``
processes: ``case new`` then ``import`` of a small note into that case. Every 30 s a
``casefile backup now`` runs. Every 10 s the window is asked which cases it reads through its
own connections, and its descriptors are read from /proc:

- ``missing in the window``: a case a writer had finished creating before the question that
  the window's connections did not see;
- ``missing after``: a case anyone created that ``casefile case list`` does not show after the
  window quit;
- ``deleted WAL``: a check where a descriptor of the window pointed to a deleted workspace file
  (the sign of a process that lost its locks and works on a copy of the data);
- the window process's exit code, and ``PRAGMA integrity_check`` at the end.

It prints a table and exits 1 when anything went wrong. Linux only (/proc).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.e2e.window_control import WindowProcess  # noqa: E402


def _env(root: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "XDG_CONFIG_HOME": str(root / "config")}
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    env.pop("CASEFILE_DEBUG", None)
    return env


def _cli(root: Path, ws: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "casefile", "--workspace", str(ws), *args],
                          capture_output=True, text=True, env=_env(root), timeout=300,
                          check=False)


@dataclass
class Log:
    """What happened, shared by the threads (guarded by ``lock``)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    #: title -> the monotonic time its creation finished
    made: dict[str, float] = field(default_factory=dict)
    made_by: dict[str, int] = field(default_factory=dict)
    imports: int = 0
    backups: int = 0
    failures: list[str] = field(default_factory=list)
    checks: int = 0
    missing_in_window: int = 0
    deleted_seen: int = 0

    def record(self, who: str, title: str) -> None:
        with self.lock:
            self.made[title] = time.monotonic()
            self.made_by[who] = self.made_by.get(who, 0) + 1


class Window(WindowProcess):
    """The window process on ``ws`` (``demo --open``), steered through ``root/control``."""

    def __init__(self, root: Path, ws: Path) -> None:
        super().__init__(root / "control", ["--workspace", str(ws), "--new-workspace", "demo",
                                            "--open"], _env(root), limit=120)

    def deleted_descriptors(self) -> list[str]:
        return [t for t in self.database_descriptors() if t.endswith("(deleted)")]

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0


def writer(k: int, root: Path, ws: Path, log: Log, stop: threading.Event) -> None:
    rng = random.Random(k)
    n = 0
    note = root / f"note-{k}.txt"
    while not stop.is_set():
        title = f"writer {k} case {n}"
        done = _cli(root, ws, "case", "new", title)
        if done.returncode != 0:
            log.failures.append(f"{title}: {done.stderr.strip()}")
        else:
            log.record(f"writer {k}", title)
            note.write_text(f"Note {n} from writer {k}: gauge at {rng.randint(1, 400)} cm.\n",
                            encoding="utf-8")
            done = _cli(root, ws, "import", str(note), "--case", title, "--no-suggest")
            if done.returncode != 0:
                log.failures.append(f"import into {title}: {done.stderr.strip()}")
            else:
                with log.lock:
                    log.imports += 1
        n += 1


def backups(root: Path, ws: Path, log: Log, stop: threading.Event) -> None:
    while not stop.wait(30):
        done = _cli(root, ws, "backup", "now")
        if done.returncode != 0:
            log.failures.append(f"backup now: {done.stderr.strip()}")
        else:
            with log.lock:
                log.backups += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--writers", type=int, default=3)
    parser.add_argument("--json", metavar="OUT")
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="casefile-soak-"))
    ws = root / "ws"
    log = Log()
    window = Window(root, ws)
    rss_start = window.rss_mb()
    stop = threading.Event()
    threads = [threading.Thread(target=writer, args=(k, root, ws, log, stop), daemon=True)
               for k in range(args.writers)]
    threads.append(threading.Thread(target=backups, args=(root, ws, log, stop), daemon=True))
    for t in threads:
        t.start()
    end = time.monotonic() + args.minutes * 60
    n = 0
    last_check = 0.0
    try:
        while time.monotonic() < end:
            title = f"window case {n}"
            answer = window.ask(f"case {title}")
            if answer.startswith("created"):
                log.record("window", title)
            else:
                log.failures.append(f"{title}: {answer}")
            n += 1
            if time.monotonic() - last_check >= 10:
                last_check = time.monotonic()
                asked = time.monotonic()
                with log.lock:
                    before = {t for t, at in log.made.items() if at < asked}
                seen = set(json.loads(window.ask("list"))["stored"])
                with log.lock:
                    log.checks += 1
                    log.missing_in_window += len(before - seen)
                    log.deleted_seen += bool(window.deleted_descriptors())
            time.sleep(2)
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=300)
    rss_end = window.rss_mb()
    window.quit()  # killed if it does not end: its exit code says so
    listed = _cli(root, ws, "case", "list", "--json")
    after = {c["title"] for c in json.loads(listed.stdout)} if listed.returncode == 0 else set()
    missing_after = sorted(set(log.made) - after)
    db = sqlite3.connect(f"file:{ws / 'casefile.sqlite3'}?mode=ro", uri=True)
    integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
    db.close()
    result = {
        "minutes": args.minutes, "writers": args.writers,
        "cases made": dict(sorted(log.made_by.items())), "imports": log.imports,
        "backups": log.backups, "window checks": log.checks,
        "missing in the window": log.missing_in_window, "missing after": len(missing_after),
        "checks with a deleted WAL": log.deleted_seen,
        "window exit code": window.proc.returncode, "window RSS MB start/end":
        f"{rss_start:.0f}/{rss_end:.0f}", "integrity": integrity,
        "failed commands": len(log.failures),
    }
    print("| measure | value |\n|---|---|")
    for key, value in result.items():
        print(f"| {key} | {value} |")
    for line in log.failures[:10]:
        print("  failed:", line)
    for title in missing_after[:10]:
        print("  missing after the window quit:", title)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1), encoding="utf-8")
    bad = (log.missing_in_window or missing_after or log.deleted_seen or log.failures
           or window.proc.returncode != 0 or integrity != "ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
