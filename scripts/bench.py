"""Benchmark of the paths a reporter waits on, each beside an independent reference.

Usage::

    python scripts/bench.py [--sizes 1000,10000,100000] [--rounds 20] [--only PATH]
                            [--json FILE]

Every module in ``scripts/bench_paths`` (not starting with ``_``) is one user path: it has
``measure(sizes: list[int], rounds: int) -> list[dict]`` returning rows ``{"path", "n",
"casefile", "reference", "unit", "ratio", "target", "met", "p50", "p95", "notes"}`` (ratio > 1
means Casefile is slower). Each module runs in its own process (``--module NAME``: imports
it and calls ``measure``), so one path's imports, caches and memory do not bear on the next,
and a module that fails or crashes becomes one row with ``met: false`` and the error in
``notes``. ``--only PATH`` runs that module alone (its file name without ``.py``).

``--sizes`` are case sizes in documents. A module may define ``plan(sizes, rounds) -> (sizes,
rounds)`` to say what those mean on its path (the evidence panel: an item with a tenth as many
passages; the brief: its fixed 500-item case; import: the 1,000 files its targets are stated
on) and how many turns it can afford; the rows carry the sizes it measured.

Writes ``{"rows": [...], "load": [...]}`` to ``--json`` (``load``: ``os.getloadavg()`` before
and after each module, the machine may be shared) and prints a table: path, n, casefile,
reference, unit, ratio, target, met.
"""

from __future__ import annotations

import argparse
import json
import os
import pkgutil
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
PATHS = ROOT / "scripts" / "bench_paths"


def modules() -> list[str]:
    """The user-path modules of scripts/bench_paths, by name."""
    return sorted(m.name for m in pkgutil.iter_modules([str(PATHS)])
                  if not m.name.startswith("_"))


def error_row(name: str, message: str) -> dict[str, Any]:
    """The row reporting that module ``name`` did not measure."""
    return {"path": name, "n": 0, "casefile": None, "reference": None, "unit": "",
            "ratio": None, "target": "", "met": False, "p50": {}, "p95": {},
            "notes": f"error: {message}"}


def run_module(name: str, sizes: list[int], rounds: int, timeout: float | None
               ) -> list[dict[str, Any]]:
    """The rows of module ``name``, measured in a child process; an error row if it fails."""
    with tempfile.TemporaryDirectory(prefix="casefile-bench-") as tmp:
        out = Path(tmp) / "rows.json"
        cmd = [sys.executable, str(Path(__file__).resolve()), "--module", name,
               "--sizes", ",".join(map(str, sizes)), "--rounds", str(rounds), "--json", str(out)]
        try:
            proc = subprocess.run(cmd, cwd=ROOT, capture_output=True,
                                  text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return [error_row(name, f"no answer in {timeout:.0f} s")]
        sys.stderr.write(proc.stderr[-4000:] if proc.returncode else "")
        if proc.returncode or not out.exists():
            last = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
            return [error_row(name, last)]
        rows = json.loads(out.read_text())
        if not isinstance(rows, list):
            return [error_row(name, "measure() did not return a list of rows")]
        return rows


def _module_main(name: str, sizes: list[int], rounds: int, out: Path) -> int:
    """In the child: import module ``name``, call ``measure``, write its rows to ``out``."""
    import importlib

    try:
        module = importlib.import_module(f"scripts.bench_paths.{name}")
        plan = getattr(module, "plan", None)
        if plan is not None:
            sizes, rounds = plan(sizes, rounds)
        rows = module.measure(sizes, rounds)
    except Exception as exc:  # reported as the module's row, traceback on stderr
        traceback.print_exc()
        rows = [error_row(name, f"{type(exc).__name__}: {exc}")]
    out.write_text(json.dumps(rows, default=str))
    return 0


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.2f}" if abs(value) < 100 else f"{value:,.0f}"
    return str(value)


def table(rows: list[dict[str, Any]]) -> str:
    """The rows as a Markdown table."""
    head = ["path", "n", "casefile", "reference", "unit", "ratio", "target", "met"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [_cell(r.get("path")), f"{r.get('n') or 0:,}", _cell(r.get("casefile")),
                 _cell(r.get("reference")), _cell(r.get("unit")), _cell(r.get("ratio")),
                 _cell(r.get("target")), "yes" if r.get("met") else "**no**"]
        lines.append("| " + " | ".join(cells) + " |")
    notes = [f"- {r['path']} ({r.get('n') or 0:,}): {r['notes']}" for r in rows
             if r.get("notes")]
    return "\n".join(lines + ([""] + notes if notes else []))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--rounds", type=int, default=20, help="turns per measurement")
    ap.add_argument("--only", action="append", metavar="PATH",
                    help="run this module of scripts/bench_paths only (repeatable)")
    ap.add_argument("--json", type=Path, default=Path("bench.json"))
    ap.add_argument("--timeout", type=float, default=None,
                    help="seconds a module may take (default: no limit)")
    ap.add_argument("--module", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",") if x.strip()]
    if args.module:
        return _module_main(args.module, sizes, args.rounds, args.json)
    names = modules()
    if args.only:
        unknown = [n for n in args.only if n not in names]
        if unknown:
            print(f"No benchmark path {', '.join(unknown)}; there are: {', '.join(names)}",
                  file=sys.stderr)
            return 2
        names = [n for n in names if n in args.only]
    rows: list[dict[str, Any]] = []
    load: list[dict[str, Any]] = []
    for name in names:
        before = os.getloadavg()
        start = time.perf_counter()
        got = run_module(name, sizes, args.rounds, args.timeout)
        load.append({"path": name, "before": before, "after": os.getloadavg(),
                     "seconds": round(time.perf_counter() - start, 1)})
        print(f"{name}: {len(got)} rows in {load[-1]['seconds']} s, load "
              f"{before[0]:.1f} -> {load[-1]['after'][0]:.1f}", file=sys.stderr, flush=True)
        rows += got
    args.json.write_text(json.dumps({"rows": rows, "load": load}, indent=2, default=str))
    print(table(rows))
    print("\nload (1/5/15 min) before -> after: " + "; ".join(
        f"{x['path']} {x['before'][0]:.1f}/{x['before'][1]:.1f}/{x['before'][2]:.1f} -> "
        f"{x['after'][0]:.1f}/{x['after'][1]:.1f}/{x['after'][2]:.1f} ({x['seconds']} s)"
        for x in load))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
