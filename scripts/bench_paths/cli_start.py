"""Benchmark: one ``casefile`` command's start-up, beside ``python -c "import sqlite3"``.

Every ``casefile`` command pays the interpreter's start and the imports it needs before doing
anything; scripts and the end-to-end tests run many. Sides, taking turns, each a new process
with compiled bytecode (``compileall`` of casefile first, ``PYTHONDONTWRITEBYTECODE`` unset, one
warm-up run of each side not counted), wall time from start to exit:

- ``casefile --version``: the command line parsed, nothing else loaded (the row the start-up
  target is stated on: <= 3x the reference);
- ``casefile case list``: a workspace of 3 cases opened and listed (the database layer loaded:
  target well under 0.5 s here, so <= 0.5 s, the ratio reported);
- ``reference``: ``python -c "import sqlite3"``, the same interpreter.

Run alone: ``python -m scripts.bench_paths.cli_start --rounds 9 --json OUT``. ``n`` is the
number of cases listed.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from scripts.bench_paths._common import ROOT, main, process_env, row, timed_process, turns

CASES = 3




def plan(sizes: list[int], rounds: int) -> tuple[list[int], int]:
    """For ``scripts/bench.py``: one workspace of :data:`CASES` cases, at most 9 turns."""
    return [CASES], min(rounds, 9)


def measure(sizes: list[int], rounds: int) -> list[dict[str, Any]]:
    """Two rows: ``cli start-up`` (``--version``) and ``cli case list``, seconds, p50."""
    py = sys.executable
    subprocess.run([py, "-m", "compileall", "-q", str(ROOT / "casefile")], check=True,
                   env=process_env())
    with tempfile.TemporaryDirectory(prefix="casefile-bench-cli-") as tmp:
        folder = Path(tmp) / "ws"
        base = [py, "-m", "casefile", "--workspace", str(folder)]
        subprocess.run([*base, "--new-workspace", "case", "new", "Case 1"], check=True,
                       capture_output=True, env=process_env(), cwd=ROOT)
        for i in range(2, CASES + 1):
            subprocess.run([*base, "case", "new", f"Case {i}"], check=True,
                           capture_output=True, env=process_env(), cwd=ROOT)
        version = [py, "-m", "casefile", "--version"]
        listing = [*base, "case", "list"]
        reference = [py, "-c", "import sqlite3"]
        for cmd in (version, listing, reference):  # warm-up: OS caches, any missing .pyc
            timed_process(cmd)
        times = turns({"version": lambda: timed_process(version),
                       "case list": lambda: timed_process(listing),
                       "reference": lambda: timed_process(reference)}, rounds)
    notes = ("`python -m casefile` vs `python -c \"import sqlite3\"`, whole processes, compiled "
             "bytecode")
    return [
        row("cli start-up (--version)", 0, {"casefile": times["version"],
                                             "reference": times["reference"]},
            unit="s", stat="p50", target_ratio=3.0, target_abs=None,
            target="<= 3x python -c 'import sqlite3' (p50)", notes=notes),
        row("cli case list", CASES, {"casefile": times["case list"],
                                     "reference": times["reference"]},
            unit="s", stat="p50", target_ratio=float("inf"), target_abs=0.5,
            target="<= 0.5 s (p50; ratio reported)", notes=f"{notes}; {CASES} cases listed"),
    ]


if __name__ == "__main__":
    sys.exit(main(measure, __doc__ or "", default_rounds=9))
