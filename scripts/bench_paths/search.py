"""Benchmark of the Search panel: the call the window makes, beside a plain FTS5 table.

Casefile side: what ``SearchPanel.run_search`` runs (casefile/ui/search_panel.py) — a new
``Workspace.reading()`` (``OperationRunner.read_plain``) and in it
``services.search.search_workspace(reader, query, case_id, 100)`` with the panel's default scope
("This case"; the workspace has one case holding every document): 100 hits, each with its
snippet, highlights and, for a document, the span of its first match (``first_span``).

Reference: a plain SQLite FTS5 table (``unicode61 remove_diacritics 2`` tokenizer, title and text
columns, its own file) built from the same texts in the same run; the same query in FTS5 syntax,
the same ordering in FTS5's own idiom (``ORDER BY rank``, ``rank`` set to bm25 with the title
weighing 10, so ``snippet()`` runs for the returned rows only; or newest first when the query
matches RANK_WINDOW documents or more, as Casefile orders them; the ordering is chosen before
the clock starts), 100 hits with FTS5's ``snippet()`` and, per hit, the location of the first
query word by ``str.find`` in the lower-cased text.

Corpus: ``scripts.synthetic.news`` (seed 7, ~3 KB news-like articles with recurring and a few
rare names), written into a new SQLite workspace with bulk Core inserts and
``store.search.index_rows`` in one transaction (not Casefile's import path: 100,000 documents
in minutes). Turns alternate (Casefile, reference, Casefile, ...; each round starts with the
other one), warm (one untimed run of each first). One row per query class and size: p95 in ms
(p50 beside it). Target per row: p95 <= 50 ms at 100,000 documents (any size here), <= 2x the
reference, and at the largest size, <= 2x the p95 at the smallest when it is 100x smaller.

Run alone: ``python -m scripts.bench_paths.search --sizes 1000 --json OUT [--rounds N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts import synthetic  # noqa: E402

#: Query classes: (class, Casefile query, the same query in FTS5 syntax for the reference).
QUERIES: tuple[tuple[str, str, str], ...] = (
    ("rare name", "Carrabine", "carrabine"),
    ("common word", "hospital", "hospital"),
    ("AND of two words", "subpoena withheld", "subpoena AND withheld"),
    ("phrase", '"unpaid overtime"', '"unpaid overtime"'),
    ("prefix*", "audit*", "audit*"),
    ("OR", "Kowalski OR Lindqvist", "kowalski OR lindqvist"),
)
HITS = 100
LIMIT_MS = 50.0
MAX_RATIO = 2.0
MAX_SCALE = 2.0


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def build_workspace(folder: Path, docs: list[synthetic.SyntheticDocument]) -> tuple[Any, int]:
    """A new SQLite workspace in ``folder`` holding ``docs`` in one case, written with bulk
    inserts (items, documents, blobs, then the search index); ``(workspace, case_id)``."""
    from sqlalchemy import insert

    from casefile.services import cases
    from casefile.services.documents import sha256_hex
    from casefile.store import Blob, Document, Item, search
    from casefile.store.workspace import open_workspace

    ws = open_workspace(folder)
    with ws.transaction() as s:
        case_id = cases.create_case(s, "Harbor bench").id
    with ws.transaction() as s:
        next_id = 1_000
        for start in range(0, len(docs), 1000):
            items, documents, blobs, index = [], [], [], []
            for k, d in enumerate(docs[start:start + 1000], start):
                data = f"{k}\n{d.text}".encode()
                digest = sha256_hex(data)
                items.append({"id": next_id, "case_id": case_id, "kind": "document",
                              "title": d.title})
                documents.append({"id": next_id, "doc_kind": "article", "status": "obtained",
                                  "outlet": "The Invented Gazette", "sha256": digest,
                                  "mime_type": "text/plain", "text": d.text,
                                  "retrieved": date.today(), "filename": f"{k}.txt"})
                blobs.append({"sha256": digest, "size": len(data), "data": data})
                index.append(search.IndexRow(next_id, case_id, d.title, "The Invented Gazette",
                                             d.text))
                next_id += 1
            s.execute(insert(Blob), blobs)
            s.execute(insert(Item.metadata.tables["items"]), items)
            s.execute(insert(Document.metadata.tables["documents"]), documents)
            search.index_rows(s, index, new=True)
    with ws.engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA optimize")
    return ws, case_id


def build_reference(path: Path, docs: list[synthetic.SyntheticDocument]) -> sqlite3.Connection:
    """A plain FTS5 table ``ref(title, body)`` of the same texts (rowid = Casefile's item id,
    so newest first is the same order), in its own SQLite file."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE VIRTUAL TABLE ref USING fts5(title, body, "
                 "tokenize = 'unicode61 remove_diacritics 2')")
    with conn:
        conn.executemany("INSERT INTO ref (rowid, title, body) VALUES (?, ?, ?)",
                         ((1_000 + k, d.title, d.text) for k, d in enumerate(docs)))
    # FTS5's own ranking idiom (sqlite.org/fts5.html 3.5.2): ``ORDER BY rank`` with the
    # title weighing as Casefile weighs it; auxiliary functions then run for the rows returned
    conn.execute("INSERT INTO ref (ref, rank) VALUES ('rank', 'bm25(10.0, 1.0)')")
    conn.execute("INSERT INTO ref (ref) VALUES ('optimize')")
    conn.commit()
    return conn


def reference_search(conn: sqlite3.Connection, fts_query: str, newest: bool,
                     first_word: str) -> list[tuple[int, str, str, int]]:
    """The reference's answer: ``(rowid, title, snippet, location)`` of the best HITS."""
    order = "rowid DESC" if newest else "rank"
    rows = conn.execute(
        "SELECT rowid, title, body, snippet(ref, 1, '[', ']', '…', 40) FROM ref "
        f"WHERE ref MATCH ? ORDER BY {order} LIMIT {HITS}", (fts_query,)).fetchall()
    return [(rowid, title, snip, body.lower().find(first_word))
            for rowid, title, body, snip in rows]


def _turns(fns: list[Callable[[], object]], rounds: int
           ) -> tuple[list[list[float]], list[list[float]]]:
    """Run each of ``fns`` once untimed, then ``rounds`` times in turns (round r starts with
    fns[r % len(fns)]); the wall-clock and the CPU seconds of this process of each run, per
    fn (both sides run in this process: SQLite is a library; on a shared machine the CPU time
    shows the work without the waits for a core)."""
    for fn in fns:
        fn()
    times: list[list[float]] = [[] for _ in fns]
    cpu: list[list[float]] = [[] for _ in fns]
    order = list(range(len(fns)))
    for r in range(rounds):
        k = r % len(fns)
        for i in order[k:] + order[:k]:
            c = time.process_time()
            t = time.perf_counter()
            fns[i]()
            times[i].append(time.perf_counter() - t)
            cpu[i].append(time.process_time() - c)
    return times, cpu


def measure_size(n: int, rounds: int, tmp: Path) -> list[dict[str, Any]]:
    """Rows of one size (see the module docstring)."""
    from casefile.services.search import search_workspace
    from casefile.store.search import RANK_WINDOW

    t0 = time.perf_counter()
    docs = list(synthetic.news(n, seed=7))
    t1 = time.perf_counter()
    ws, case_id = build_workspace(tmp / f"ws{n}", docs)
    t2 = time.perf_counter()
    ref = build_reference(tmp / f"ref{n}.sqlite", docs)
    t3 = time.perf_counter()
    del docs
    build = f"corpus {t1 - t0:.0f} s, workspace {t2 - t1:.0f} s, reference {t3 - t2:.0f} s"
    rows = []
    for cls, query, fts_query in QUERIES:
        count = ref.execute(f"SELECT count(*) FROM (SELECT 1 FROM ref WHERE ref MATCH ? "
                            f"LIMIT {RANK_WINDOW})", (fts_query,)).fetchone()[0]
        newest = count >= RANK_WINDOW
        first_word = fts_query.strip('"').split()[0].rstrip("*").lower()

        def ours(query: str = query) -> object:
            with ws.reading() as r:
                return search_workspace(r, query, case_id, HITS)

        def theirs(fts_query: str = fts_query, newest: bool = newest,
                   first_word: str = first_word) -> object:
            return reference_search(ref, fts_query, newest, first_word)

        got = ours()
        want = theirs()
        ours_ids = [h.item_id for h in got.hits]  # type: ignore[attr-defined]
        ref_ids = [r[0] for r in want]  # type: ignore[attr-defined]
        same = ("same hits" if ours_ids == ref_ids else
                "same set" if set(ours_ids) == set(ref_ids) else
                f"{len(set(ours_ids) & set(ref_ids))}/{len(ref_ids)} hits in common")
        (cf_t, ref_t), (cf_c, ref_c) = _turns([ours, theirs], rounds)
        p50 = {"casefile": pct(cf_t, 0.5) * 1000, "reference": pct(ref_t, 0.5) * 1000,
               "casefile_cpu": pct(cf_c, 0.5) * 1000, "reference_cpu": pct(ref_c, 0.5) * 1000}
        p95 = {"casefile": pct(cf_t, 0.95) * 1000, "reference": pct(ref_t, 0.95) * 1000}
        ratio = p95["casefile"] / max(p95["reference"], 1e-9)
        rows.append({
            "path": f"search: {cls}", "n": n, "casefile": p95["casefile"],
            "reference": p95["reference"], "unit": "ms", "ratio": ratio,
            "target": f"p95 <= {LIMIT_MS:.0f} ms, <= {MAX_RATIO:.0f}x ref, "
                      f"100x docs <= {MAX_SCALE:.0f}x",
            "met": p95["casefile"] <= LIMIT_MS and ratio <= MAX_RATIO,
            "p50": p50, "p95": p95, "query": query,
            "notes": (f"p50 {p50['casefile']:.1f} / {p50['reference']:.1f} ms, CPU p50 "
                      f"{p50['casefile_cpu']:.1f} / {p50['reference_cpu']:.1f} ms; "
                      f"{'newest first' if newest else 'ranked'}, {len(ours_ids)} hits, "
                      f"{same}, matches {count}{'+' if newest else ''}; "
                      f"{rounds} turns each; {build}"),
        })
    ref.close()
    ws.close()
    return rows


def _scaling(rows: list[dict[str, Any]]) -> None:
    """Mark the largest size's rows unmet when its p95 is over MAX_SCALE x the p95 of a size
    at least 100x smaller (the note says the factor either way)."""
    by = {(r["path"], r["n"]): r for r in rows}
    for path in dict.fromkeys(r["path"] for r in rows):
        sizes = sorted(n for p, n in by if p == path)
        small, big = sizes[0], sizes[-1]
        if big < 100 * small:
            continue
        factor = by[(path, big)]["casefile"] / max(by[(path, small)]["casefile"], 1e-9)
        row = by[(path, big)]
        row["scale"] = factor
        row["notes"] += f"; {big // small}x docs -> p95 x{factor:.2f}"
        row["met"] = bool(row["met"] and factor <= MAX_SCALE)


def measure(sizes: Iterable[int], rounds: int) -> list[dict[str, Any]]:
    """One row per query class and size (module docstring); p95/p50 in ms."""
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="casefile-bench-search-") as tmp:
        for n in sizes:
            rows += measure_size(int(n), max(1, int(rounds)), Path(tmp))
    _scaling(rows)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--sizes", default="1000")
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    load = [os.getloadavg()]
    rows = measure([int(x) for x in args.sizes.split(",")], args.rounds)
    load.append(os.getloadavg())
    for r in rows:
        print(f"{r['path']:<26} {r['n']:>7} {r['p50']['casefile']:7.1f} "
              f"{r['casefile']:7.1f} {r['reference']:7.1f} {r['ratio']:5.2f} "
              f"{'yes' if r['met'] else 'NO'}  {r['notes']}")
    print(f"load {load}")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "load": load}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
