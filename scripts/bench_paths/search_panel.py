"""Benchmark: the Search panel run and painted, beside the same hits in a bare QListView.

The workspace: ``scripts.synthetic.news`` documents in one case (the corpus of
``scripts/bench_paths/search.py``, built the same way), and beside it a plain FTS5 table of
the same texts. Both are kept between runs in the temp folder (``casefile-bench-panel-N``;
built once, minutes at 100,000).

- ``casefile``: the real window (``MainWindow`` on that case, 1280x800, offscreen, the Search
  dock shown): the query typed in the panel's box, ``SearchPanel.run_search()`` (the service's
  search, 100 hits with snippets) and the events it posted processed and the list painted
  (``processEvents()`` + ``list.viewport().repaint()``).
- ``reference``: FTS5's own idiom (sqlite.org/fts5.html 3.5.2: ``rank`` set to ``bm25(10.0,
  1.0)``, the title weighing as Casefile weighs it; ``ORDER BY rank LIMIT 100``, or newest
  first by rowid for a query matching RANK_WINDOW documents or more, as Casefile orders them;
  chosen before the clock starts), ``snippet()`` for those 100 rows only, then a bare
  ``QListView`` + ``QStringListModel`` of the same size, word wrap on, given "title (kind)" and
  the snippet of each hit, and painted the same way.

Between turns the box is cleared (untimed). Turns alternate; p95 (ms) per query class, and a
row "search panel (all classes)" with the p95 over every turn of every class: the target
is <= 1.5x the bare list and p95 <= 60 ms at 100,000 documents.

Run alone: ``QT_QPA_PLATFORM=offscreen python -m scripts.bench_paths.search_panel --sizes
100000 --rounds 10 [--json OUT]``.
"""

from __future__ import annotations

import os
import sqlite3
import statistics
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts import synthetic  # noqa: E402
from scripts.bench_paths._common import alternating_ms, load, pct, window_on  # noqa: E402
from scripts.bench_paths._common import main as run_main  # noqa: E402
from scripts.bench_paths.search import QUERIES, build_reference, build_workspace  # noqa: E402

HITS = 100
TARGET_RATIO = 1.5
TARGET_MS = 60.0


def plan(sizes: list[int], rounds: int) -> tuple[list[int], int]:
    """For ``scripts/bench.py``: the largest size only (the target's), at most 10 turns."""
    return [max(sizes)], min(rounds, 10)


def prepared(n: int) -> tuple[Path, Path]:
    """The workspace folder and the reference's FTS5 file for ``n`` documents, built once."""
    base = Path(tempfile.gettempdir()) / f"casefile-bench-panel-{n}"
    folder, ref = base / "ws", base / "ref.sqlite"
    done = base / "complete"
    if not done.exists():
        import shutil

        shutil.rmtree(base, ignore_errors=True)
        base.mkdir(parents=True)
        docs = list(synthetic.news(n, seed=7))
        ws, _case = build_workspace(folder, docs)
        ws.close()
        build_reference(ref, docs).close()
        done.write_text("ok")
    return folder, ref


def reference_hits(conn: sqlite3.Connection, fts_query: str, newest: bool
                   ) -> list[tuple[int, str, str]]:
    """``(rowid, title, snippet)`` of the best HITS, FTS5's way (module docstring)."""
    order = "rowid DESC" if newest else "rank"
    return conn.execute(
        "SELECT rowid, title, snippet(ref, 1, '', '', '…', 40) FROM ref "
        f"WHERE ref MATCH ? ORDER BY {order} LIMIT {HITS}", (fts_query,)).fetchall()


def measure(sizes: list[int], rounds: int) -> list[dict[str, Any]]:
    from PySide6.QtCore import QStringListModel
    from PySide6.QtWidgets import QApplication, QListView

    from casefile.store.search.running import RANK_WINDOW
    from casefile.store.workspace import open_workspace

    out: list[dict[str, Any]] = []
    for n in sizes:
        started = time.perf_counter()
        folder, ref_path = prepared(n)
        built = time.perf_counter() - started
        with (window_on(open_workspace(folder), 1, "search_dock") as window,
              closing(sqlite3.connect(ref_path)) as conn):
            bare = QListView()
            try:
                panel = window.search_panel
                bare.setWordWrap(True)
                bare.setUniformItemSizes(False)
                bare.resize(panel.list.size())
                bare.show()
                QApplication.processEvents()
                every: dict[str, list[float]] = {"casefile": [], "reference": []}
                for cls, query, fts_query in QUERIES:
                    count = conn.execute(
                        f"SELECT count(*) FROM (SELECT 1 FROM ref WHERE ref MATCH ? "
                        f"LIMIT {RANK_WINDOW})", (fts_query,)).fetchone()[0]
                    newest = count >= RANK_WINDOW

                    def ours(query: str = query, panel: Any = panel) -> None:
                        panel.edit.setText(query)
                        panel.run_search()
                        QApplication.processEvents()
                        panel.list.viewport().repaint()

                    def reference(fts_query: str = fts_query, newest: bool = newest,
                                  conn: Any = conn, bare: Any = bare) -> None:
                        hits = reference_hits(conn, fts_query, newest)
                        model = QStringListModel(
                            [f"{title} (Document)\n{snip}" for _id, title, snip in hits], bare)
                        old = bare.model()
                        bare.setModel(model)
                        if old is not None:
                            old.deleteLater()
                        QApplication.processEvents()
                        bare.viewport().repaint()

                    def away(panel: Any = panel, bare: Any = bare) -> None:
                        panel.edit.setText("")
                        panel.timer.stop()
                        bare.setModel(QStringListModel(bare))
                        QApplication.processEvents()

                    ours()
                    ids = [h.item_id for h in panel.hits()]
                    want = [r[0] for r in reference_hits(conn, fts_query, newest)]
                    same = ("same hits" if ids == want else "same set" if set(ids) == set(want)
                            else f"{len(set(ids) & set(want))}/{len(want)} in common")
                    reference()
                    times = alternating_ms({"casefile": ours, "reference": reference}, rounds,
                                           away)
                    for k in every:
                        every[k] += times[k]
                    out.append(_row(f"search panel: {cls}", n, times,
                                    f"{len(ids)} hits, {same}; "
                                    f"{'newest first' if newest else 'ranked'}"))
                out.append(_row("search panel (all classes)", n, every,
                                f"p95 over {len(QUERIES)} query classes x {rounds} turns; "
                                f"corpus ready in {built:.0f} s"))
            finally:
                bare.close()
    return out


def _row(path: str, n: int, times: dict[str, list[float]], notes: str) -> dict[str, Any]:
    p50 = {k: round(statistics.median(v), 2) for k, v in times.items()}
    p95 = {k: round(pct(v, 0.95), 2) for k, v in times.items()}
    ratio = p95["casefile"] / max(p95["reference"], 1e-9)
    return {"path": path, "n": n, "casefile": p95["casefile"], "reference": p95["reference"],
            "unit": "ms", "ratio": round(ratio, 2),
            "target": f"p95 <= {TARGET_MS:.0f} ms and <= {TARGET_RATIO}x bare QListView",
            "met": ratio <= TARGET_RATIO and p95["casefile"] <= TARGET_MS,
            "p50": p50, "p95": p95,
            "notes": f"{notes}; p50 {p50['casefile']:.1f} / {p50['reference']:.1f} ms; "
                     f"load {load()}"}


if __name__ == "__main__":
    raise SystemExit(run_main(lambda s, r: measure(*plan(s, r)), __doc__ or "", 10))
