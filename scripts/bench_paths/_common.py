"""Helpers shared by the user-path benchmarks: percentiles, turns, the load, the row shape."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]



def process_env() -> dict[str, str]:
    """The environment a timed ``casefile`` process gets: this checkout on its path, with
    compiled bytecode as an installed app runs."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = str(ROOT)
    return env


def timed_process(cmd: list[str]) -> float:
    """Seconds ``cmd`` takes as a whole process (run from the checkout, :func:`process_env`)."""
    import subprocess
    import time

    t = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env=process_env(), cwd=ROOT)
    return time.perf_counter() - t

def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def load() -> list[float]:
    """``os.getloadavg()`` rounded (1, 5, 15 minutes)."""
    return [round(x, 2) for x in os.getloadavg()]


def turns(sides: dict[str, Callable[[], float]], rounds: int) -> dict[str, list[float]]:
    """Run each side ``rounds`` times, taking turns (a, b, a, b, ...); their timings."""
    out: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(rounds):
        for name, run in sides.items():
            out[name].append(run())
    return out


@contextmanager
def window_on(ws: Any, case_id: int, dock: str | None = None) -> Iterator[Any]:
    """The real ``MainWindow`` on the case of the open workspace ``ws`` (no suggestions after
    an import; its settings kept in a new temp folder, never the user's own), 1280x800 and
    shown, with the dock of that object name brought to the front. At the end the window's
    jobs are stopped, it is closed and deleted, and ``ws`` is closed."""
    import tempfile

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication, QDockWidget

    from casefile.ui.app import ensure_application
    from casefile.ui.main_window import MainWindow

    ensure_application()
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope,
                      tempfile.mkdtemp(prefix="casefile-bench-settings-"))
    window = MainWindow(ws, case_id=case_id, suggest_after_import=False)
    try:
        window.resize(1280, 800)
        window.show()
        if dock is not None:
            widget = window.findChild(QDockWidget, dock)
            assert widget is not None, dock
            widget.show()
            widget.raise_()
        QApplication.processEvents()
        yield window
    finally:
        window.runner.shutdown()
        window.close()
        window.deleteLater()
        QApplication.processEvents()
        ws.close()


def alternating_ms(sides: dict[str, Callable[[], object]], rounds: int,
                   away: Callable[[], object]) -> dict[str, list[float]]:
    """Time each side ``rounds`` times, taking turns in an order that flips every round
    (a, b, b, a, ...) so neither always runs first, each turn after an untimed ``away()``;
    the milliseconds of each side's turns."""
    import time

    times: dict[str, list[float]] = {name: [] for name in sides}
    order = list(sides.items())
    for r in range(rounds):
        for name, fn in (order if r % 2 == 0 else order[::-1]):
            away()
            t = time.perf_counter()
            fn()
            times[name].append((time.perf_counter() - t) * 1000)
    return times


def row(path: str, n: int, times: dict[str, list[float]], *, unit: str, stat: str,
        target_ratio: float, target_abs: float | None, target: str, notes: str,
        casefile: str = "casefile", reference: str = "reference") -> dict[str, Any]:
    """The benchmark row: ``stat`` ("p50" or "p95") is what the target
    is stated on; times in ``unit``."""
    p50 = {k: round(statistics.median(v), 4) for k, v in times.items()}
    p95 = {k: round(pct(v, 0.95), 4) for k, v in times.items()}
    chosen = p50 if stat == "p50" else p95
    cf, ref = chosen[casefile], chosen[reference]
    ratio = cf / ref if ref else float("inf")
    met = ratio <= target_ratio and (target_abs is None or cf <= target_abs)
    return {"path": path, "n": n, "casefile": cf, "reference": ref, "unit": unit,
            "ratio": round(ratio, 2), "target": target, "met": met, "p50": p50, "p95": p95,
            "notes": f"{notes}; load {load()}"}


def main(measure: Callable[[list[int], int], list[dict[str, Any]]], doc: str,
         default_rounds: int, argv: list[str] | None = None) -> int:
    """``--sizes 1000,10000 --rounds N --json OUT``: run ``measure`` and print/write its rows."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--sizes", default="1000")
    parser.add_argument("--rounds", type=int, default=default_rounds)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    rows = measure(sizes, args.rounds)
    for r in rows:
        print(f"{r['path']:<28} n={r['n']:<7} casefile {r['casefile']:.3f} {r['unit']}  "
              f"reference {r['reference']:.3f}  ratio {r['ratio']:.2f}  "
              f"{'met' if r['met'] else 'NOT met'} ({r['target']})  {r['notes']}", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "load": load()}, indent=2))
    return 0
