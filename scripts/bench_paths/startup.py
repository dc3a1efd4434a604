"""Benchmark: cold start of the window on an N-document case, beside a bare QMainWindow.

The workspace: one case of N invented ~3 KB articles (scripts/synthetic.py, seed 7) and 200
people, written with bulk Core inserts (items, documents, blobs, search rows) in one
transaction — setup, not a measurement.

Sides, taking turns, each a new process with compiled bytecode (``compileall`` of casefile
first, ``PYTHONDONTWRITEBYTECODE`` unset, one warm-up run of each side not counted), settings
in a fresh ``XDG_CONFIG_HOME``, ``QT_QPA_PLATFORM=offscreen``:

- ``casefile``: ``python -m casefile --workspace W gui`` with ``CASEFILE_EXIT_AFTER_SHOW=1``
  (casefile.ui.startup prints ``casefile: painted`` at the first event-loop turn after its
  frame's first paint, ``casefile: stall S``, the longest the event loop was held from then
  on, and ``casefile: shown`` at the first turn after the window was shown with its case
  opened, then quits): wall time from process start to each line on its stdout;
- ``reference``: a bare ``QApplication`` + ``QMainWindow`` (1280x800) shown, timed to the line
  it prints at the first event-loop turn after its first paint.

Two rows: ``cold start (first paint)`` (target <= 4x the bare window) and ``cold start (case
shown)`` (target <= 1.0 s; the ratio to the same bare window reported), whose notes give the
longest stall of the event loop between the two (p50 and max over the turns).

Run alone: ``python -m scripts.bench_paths.startup --sizes 1000,10000 --json OUT``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, datetime
from pathlib import Path
from typing import Any

from scripts import synthetic
from scripts.bench_paths._common import ROOT, main, row, turns

BARE = (
    "import sys, time\n"
    "from PySide6.QtCore import QEvent, QTimer\n"
    "from PySide6.QtWidgets import QApplication, QMainWindow\n"
    "app = QApplication(sys.argv[:1])\n"
    "class Bare(QMainWindow):\n"
    "    waiting = True\n"
    "    def event(self, e):\n"
    "        done = super().event(e)\n"
    "        if self.waiting and e.type() == QEvent.Type.Paint:\n"
    "            self.waiting = False\n"
    "            QTimer.singleShot(0, lambda: (print(f'bare: painted {time.process_time():.3f}',"
    " flush=True), app.quit()))\n"
    "        return done\n"
    "w = Bare()\n"
    "w.resize(1280, 800)\n"
    "w.show()\n"
    "app.exec()\n"
)


def build_workspace(folder: Path, n: int, people: int = 200) -> int:
    """A workspace in ``folder`` with one case of ``n`` documents and ``people`` people, by
    bulk inserts; returns the case id."""
    from sqlalchemy import insert

    from casefile.services import cases
    from casefile.services.documents import sha256_hex
    from casefile.store import Blob, Document, Item, Person, search
    from casefile.store.workspace import open_workspace

    ws = open_workspace(folder)
    try:
        with ws.transaction() as s:
            case_id = cases.create_case(s, f"Startup bench {n}", "An invented case.").id
        docs = synthetic.documents(n, seed=7)
        now = datetime(2024, 1, 1)
        next_id = 1000
        with ws.transaction() as s:
            done = 0
            while done < n:
                items, documents, blobs, index = [], [], [], []
                for _ in range(min(1000, n - done)):
                    d = next(docs)
                    data = f"{done}\n{d.text}".encode()
                    digest = sha256_hex(data)
                    items.append({"id": next_id, "case_id": case_id, "kind": "document",
                                  "title": d.title, "confidential": False, "version": 1,
                                  "created": now, "updated": now})
                    documents.append({"id": next_id, "doc_kind": "article", "status": "obtained",
                                      "outlet": "The Invented Gazette", "sha256": digest,
                                      "mime_type": "text/plain", "text": d.text,
                                      "retrieved": date(2024, 1, 1), "filename": f"{done}.txt"})
                    blobs.append({"sha256": digest, "size": len(data), "data": data})
                    index.append(search.IndexRow(next_id, case_id, d.title,
                                                 "The Invented Gazette", d.text))
                    next_id += 1
                    done += 1
                s.execute(insert(Blob), blobs)
                s.execute(insert(Item.metadata.tables["items"]), items)
                s.execute(insert(Document.metadata.tables["documents"]), documents)
                search.index_rows(s, index, new=True)
            s.execute(insert(Item.metadata.tables["items"]), [
                {"id": next_id + i, "case_id": case_id, "kind": "person",
                 "title": f"{synthetic.FIRST[i % 20]} {synthetic.LAST[i % 11]} {i}",
                 "confidential": False, "version": 1, "created": now, "updated": now}
                for i in range(people)])
            s.execute(insert(Person.__table__), [
                {"id": next_id + i, "aliases": [], "role": synthetic.ROLES[i % 6]}
                for i in range(people)])
        return case_id
    finally:
        ws.close()


def _env(config: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # compiled bytecode, as an installed app runs
    env.update({"QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(config),
                "CASEFILE_EXIT_AFTER_SHOW": "1", "PYTHONPATH": str(ROOT)})
    return env


#: The lines the window prints (casefile.ui.startup.EXIT_AFTER_SHOW), in order.
MARKS = ("casefile: painted", "casefile: stall", "casefile: shown")
#: CPU seconds (``time.process_time``) each side reported at its lines, by marker: less
#: sensitive to the load of a shared machine than the wall time.
CPU: dict[str, list[float]] = {}
#: Wall seconds to each marker after the first one :func:`time_to_line` was asked for, and the
#: stalls the window reported (seconds), by marker.
LATER: dict[str, list[float]] = {}


def time_to_line(cmd: list[str], env: dict[str, str], marker: str,
                 *later: str) -> float:
    """Seconds from starting ``cmd`` to the first line of its stdout that starts with
    ``marker`` (``MARKER SECONDS``; the number is kept in :data:`CPU`); the seconds to each of
    ``later`` markers go to :data:`LATER`. The process is then waited for; a failure raises
    RuntimeError."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            cwd=ROOT, text=True)
    assert proc.stdout is not None
    elapsed = None
    waiting = [marker, *later]
    for line in proc.stdout:
        if waiting and line.startswith(waiting[0]):
            now = time.perf_counter() - t
            name = waiting.pop(0)
            if name == marker:
                elapsed = now
            else:
                LATER.setdefault(name, []).append(now)
            CPU.setdefault(name, []).append(float(line.split()[-1]))
            if not waiting:
                break
    _out, err = proc.communicate(timeout=60)
    if elapsed is None or waiting or proc.returncode != 0:
        raise RuntimeError(f"{cmd} failed ({proc.returncode}): {err[-2000:]}")
    return elapsed


def plan(sizes: list[int], rounds: int) -> tuple[list[int], int]:
    """For ``scripts/bench.py``: the 10,000-document case the target is stated on (a larger
    size only adds the minutes of building it), at most 7 turns (each starts two processes)."""
    return [min(max(sizes), 10_000)], min(rounds, 7)


def measure(sizes: list[int], rounds: int) -> list[dict[str, Any]]:
    """Two rows per size: process start to the first paint, and to the case shown; seconds,
    p50."""
    py = sys.executable
    subprocess.run([py, "-m", "compileall", "-q", str(ROOT / "casefile")], check=True,
                   env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})
    rows: list[dict[str, Any]] = []
    for n in sizes:
        with tempfile.TemporaryDirectory(prefix="casefile-bench-start-") as tmp:
            folder, config = Path(tmp) / "ws", Path(tmp) / "config"
            t = time.perf_counter()
            build_workspace(folder, n)
            built = time.perf_counter() - t
            env = _env(config)
            app = [py, "-m", "casefile", "--workspace", str(folder), "gui"]
            bare = [py, "-c", BARE]
            time_to_line(app, env, *MARKS)  # warm-up: OS caches, any missing .pyc
            time_to_line(bare, env, "bare: painted")
            CPU.clear()
            LATER.clear()
            times = turns({
                "casefile": lambda app=app, env=env: time_to_line(app, env, *MARKS),
                "reference": lambda bare=bare, env=env: time_to_line(bare, env, "bare: painted"),
            }, rounds)
            cpu = {k: round(statistics.median(v), 3)
                   for k, v in CPU.items() if k != "casefile: stall"}
            stalls = CPU["casefile: stall"]
            common = (f"{n}-document case + 200 people (built in {built:.1f} s); compiled "
                      f"bytecode, offscreen; CPU s p50 {cpu}; longest stall of the event loop "
                      f"from paint to case shown p50 {statistics.median(stalls):.3f} s, max "
                      f"{max(stalls):.3f} s")
            rows.append(row(
                "cold start (first paint)", n, times, unit="s", stat="p50", target_ratio=4.0,
                target_abs=None, target="<= 4x a bare QMainWindow's first paint (p50)",
                notes="`python -m casefile gui` to the first event-loop turn after its frame's "
                      f"first paint; {common}"))
            rows.append(row(
                "cold start (case shown)", n,
                {"casefile": LATER["casefile: shown"], "reference": times["reference"]},
                unit="s", stat="p50", target_ratio=float("inf"), target_abs=1.0,
                target="<= 1.0 s (p50; ratio to the bare window's first paint reported)",
                notes="`python -m casefile gui` to the first event-loop turn after the window "
                      f"was shown with its case opened; {common}"))
    return rows


if __name__ == "__main__":
    sys.exit(main(measure, __doc__ or "", default_rounds=7))
