"""Benchmark Casefile as a case grows: import rate, search latency vs raw SQL, open time,
evidence panel, brief, peak memory. Not run by pytest.

Usage::

    .venv/bin/python scripts/bench.py [--sizes 1000,10000,100000] [--db-url URL] [--json OUT]

``--db-url`` (a PostgreSQL server URL, e.g. postgresql+psycopg://postgres@127.0.0.1:54329/postgres)
adds PostgreSQL runs: each size gets a new database on that server, dropped afterwards. SQLite
runs use a temporary workspace folder. Every (size, engine) is measured in its own process, so
peak memory (``resource.getrusage`` ru_maxrss) is that configuration's; the corpus is built in
another process before it.

Documents are invented ~3 KB news-like articles (scripts/synthetic.py, seed 7). A workspace of
N documents is made in two parts:

- setup (not a measurement of Casefile's import): N - 1,000 documents written with bulk Core
  inserts (items, documents, blobs and ``store.search.index_rows``) in one transaction, so that
  100,000 documents take minutes instead of the half hour the services would take. Its rate is
  printed as ``setup docs/s``.
- import: the last 1,000 documents through the real path, ``services.documents.store_document``,
  one transaction per document as a folder import does (issue 5): documents per second.

Measured afterwards, on the N-document workspace:

- search p50/p95: ``store.search.search`` (whole workspace, 50 hits, snippets) in a new
  ``Workspace.reading()`` each (a read transaction on a pooled connection, no ORM session:
  the Search panel's path) over ``synthetic.QUERIES`` run 6 times each, warm, taking turns
  with the raw runs below (each repeat starts with another of them); the full-rank runs
  come after all of them.
- raw p95: every statement Casefile's search runs (``store.search.search_statements`` and
  ``search_ids``: the RANK_WINDOW probe, the ranked or newest-first query, then the hits'
  rows), run directly through sqlite3 / psycopg on one connection kept open, without
  SQLAlchemy, session, snippets or hit objects; ratio = p95/raw. raw ids p95 and ids ratio:
  the same without the rows statement (the ids alone). full-rank raw p95: the ranked query
  alone over every match (what a search cost before RANK_WINDOW), for reference.
- open: ``open_workspace`` + ``list_cases`` + ``item_counts`` of the big case.
- evidence: ``services.evidence.evidence_for`` of a person with 1,000 linked passages.
- brief: ``services.brief.export_brief`` of a separate 500-item case (to memory).
- db MB: the SQLite file (with its WAL) or ``pg_database_size``; load: ``os.getloadavg()`` at
  the start and end of the measurement (the machine may be shared).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts import synthetic  # noqa: E402

REPEATS = 6


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


IMPORTED = 1000


def _setup(url: str, case_id: int, n: int) -> float:
    """Write ``n`` synthetic documents with bulk Core inserts in one transaction; docs/s.

    Rows as ``store_document`` would write them (item, document, blob, search rows), without the
    change log and with no per-document statements."""
    from datetime import date

    from sqlalchemy import insert, select, text
    from sqlalchemy.sql import func

    from casefile.services.documents import sha256_hex
    from casefile.store import Blob, Document, Item, search
    from casefile.store.workspace import open_workspace

    ws = open_workspace(db_url=url)
    start = time.perf_counter()
    docs = synthetic.documents(n, seed=7)
    with ws.transaction() as s:
        next_id = (s.scalar(select(func.max(Item.id))) or 0) + 1
        done = 0
        while done < n:
            items, documents, blobs, index = [], [], [], []
            for _ in range(min(1000, n - done)):
                d = next(docs)
                data = f"{done}\n{d.text}".encode()
                digest = sha256_hex(data)
                items.append({"id": next_id, "case_id": case_id, "kind": "document",
                              "title": d.title})
                documents.append({"id": next_id, "doc_kind": "article", "status": "obtained",
                                  "outlet": "The Invented Gazette", "sha256": digest,
                                  "mime_type": "text/plain", "text": d.text,
                                  "retrieved": date.today(), "filename": f"{done}.txt"})
                blobs.append({"sha256": digest, "size": len(data), "data": data})
                index.append(search.IndexRow(next_id, case_id, d.title,
                                             "The Invented Gazette", d.text))
                next_id += 1
                done += 1
            s.execute(insert(Blob), blobs)
            s.execute(insert(Item.metadata.tables["items"]), items)
            s.execute(insert(Document.metadata.tables["documents"]), documents)
            search.index_rows(s, index, new=True)
        if s.get_bind().dialect.name == "postgresql":  # ids were given: move the sequence on
            s.execute(text("SELECT setval(pg_get_serial_sequence('items', 'id'), :n)"),
                      {"n": next_id - 1})
    rate = n / (time.perf_counter() - start) if n else 0.0
    ws.close()
    return rate


def _import(ws: Any, case_id: int, n: int, skip: int) -> float:
    """Import ``n`` documents (after the first ``skip`` of the corpus) through
    ``store_document``, one transaction each; documents per second."""
    from casefile.ingest.types import Ingested
    from casefile.services.documents import store_document

    docs = synthetic.documents(skip + n, seed=7)
    for _ in range(skip):
        next(docs)
    batch = []  # generated before the clock starts: the rate is Casefile's, not the RNG's
    for i in range(n):
        d = next(docs)
        ing = Ingested(text=d.text, mime_type="text/plain", title=d.title, kind="article",
                       outlet="The Invented Gazette")
        batch.append((f"{skip + i}\n{d.text}".encode(), ing, f"{skip + i}.txt"))
    start = time.perf_counter()
    for data, ing, name in batch:
        with ws.transaction() as s:
            store_document(s, case_id, data, ing, filename=name)
    return n / (time.perf_counter() - start)


def _db_mb(ws: Any) -> float:
    from sqlalchemy import text

    if ws.engine.dialect.name == "sqlite":
        path = Path(ws.engine.url.database)
        return sum(p.stat().st_size for p in path.parent.glob(path.name + "*")) / 1e6
    with ws.transaction() as s:
        return float(s.scalar(text("SELECT pg_database_size(current_database())"))) / 1e6


def _raw_runner(url: str) -> tuple[Any, Any]:
    """``(run, end)``: ``run(sql, params) -> rows`` runs SQL written with ``:name`` parameters
    directly through sqlite3 / psycopg (no SQLAlchemy, no session), ``end()`` ends the
    transaction (PostgreSQL's search sets transaction-local planner settings)."""
    if url.startswith("sqlite"):
        import sqlite3

        conn = sqlite3.connect(url.removeprefix("sqlite:///"))

        def run_sqlite(sql: str, params: dict[str, object]) -> list[Any]:
            return conn.execute(sql, params).fetchall()

        return run_sqlite, conn.commit
    import psycopg

    pconn = psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"))

    def run_pg(sql: str, params: dict[str, object]) -> list[Any]:
        return pconn.execute(re.sub(r"(?<!:):(\w+)", r"%(\1)s", sql), params).fetchall()

    return run_pg, pconn.commit


def _search(ws: Any, url: str) -> dict[str, float]:
    from casefile.store import search

    ours: list[float] = []
    raw: list[float] = []
    raw_ids: list[float] = []
    full: list[float] = []
    run_raw, end_raw = _raw_runner(url)
    dialect = "sqlite" if url.startswith("sqlite") else "postgresql"
    per_query: dict[str, float] = {}
    for q in synthetic.QUERIES:  # warm up caches once
        with ws.reading() as r:
            search.search(r, q)
    for q in synthetic.QUERIES:
        stmts = search.search_statements(dialect, search.parse_query(q), None)

        def ours_once(q: str = q) -> None:
            with ws.reading() as r:
                search.search(r, q)

        def raw_once(stmts: Any = stmts) -> None:
            ids = search.search_ids(run_raw, stmts, 50)
            if ids:
                run_raw(stmts.rows.format(ids=",".join(map(str, ids))), {})
            end_raw()

        def ids_once(stmts: Any = stmts) -> None:
            search.search_ids(run_raw, stmts, 50)
            end_raw()

        times: dict[Any, list[float]] = {ours_once: [], raw_once: [], ids_once: []}
        runs = list(times)
        for r in range(REPEATS):
            # Each repeat starts with another of the three, so none always runs on the
            # caches another left.
            for fn in runs[r % 3:] + runs[:r % 3]:
                t = time.perf_counter()
                fn()
                times[fn].append(time.perf_counter() - t)
        ours += times[ours_once]
        raw += times[raw_once]
        raw_ids += times[ids_once]
        per_query[q] = statistics.median(times[ours_once]) * 1000
    # Full ranking last: at 100,000 documents it reads every match's vector (up to a second)
    # and evicts cached pages; between the measurements above it slowed whichever ran next.
    for q in synthetic.QUERIES:
        stmts = search.search_statements(dialect, search.parse_query(q), None)
        for _ in range(REPEATS):
            t = time.perf_counter()
            run_raw(stmts.ranked, {**stmts.params, "limit": 50})  # every match ranked
            end_raw()
            full.append(time.perf_counter() - t)
    slowest = sorted(per_query.items(), key=lambda kv: -kv[1])[:3]
    return {
        "search_p50_ms": _pct(ours, 0.5) * 1000, "search_p95_ms": _pct(ours, 0.95) * 1000,
        "raw_p50_ms": _pct(raw, 0.5) * 1000, "raw_p95_ms": _pct(raw, 0.95) * 1000,
        "ratio_p95": _pct(ours, 0.95) / max(_pct(raw, 0.95), 1e-9),
        "raw_ids_p95_ms": _pct(raw_ids, 0.95) * 1000,
        "ratio_ids_p95": _pct(ours, 0.95) / max(_pct(raw_ids, 0.95), 1e-9),
        "full_rank_raw_p95_ms": _pct(full, 0.95) * 1000,
        "slowest_queries_ms": dict(slowest),  # type: ignore[dict-item]
    }


def _evidence(ws: Any, case_id: int, links: int = 1000) -> float:
    from sqlalchemy import select

    from casefile.services import evidence, items, passages
    from casefile.store import Document

    with ws.transaction() as s:
        pid = items.create_item(s, case_id, "person", "Nadia Ferreira (bench)").id
        doc_ids = list(s.scalars(select(Document.id).where(Document.case_id == case_id)
                                 .order_by(Document.id).limit(links)))
        for i in range(links):
            p = passages.add_passage(s, doc_ids[i % len(doc_ids)], 0, 40)
            evidence.link_evidence(s, pid, passage_id=p.id)
    t = time.perf_counter()
    with ws.transaction() as s:
        shown = evidence.evidence_for(s, pid)
    assert len(shown) == links
    return time.perf_counter() - t


def _brief(ws: Any, n_items: int = 500) -> float:
    from casefile.ingest.types import Ingested
    from casefile.services import brief, cases, evidence, items, passages
    from casefile.services.documents import store_document

    with ws.transaction() as s:
        cid = cases.create_case(s, f"Brief bench {uuid.uuid4().hex[:6]}").id
        docs = list(synthetic.documents(50, seed=99, size=1500))
        doc_ids = [store_document(s, cid, d.text.encode(), Ingested(
            text=d.text, mime_type="text/plain", title=d.title)).document_id for d in docs]
        kinds = ("person", "organization", "claim", "question", "event", "place")
        for i in range(n_items - len(doc_ids)):
            kind = kinds[i % len(kinds)]
            fields: dict[str, Any] = {"notes": f"Bench note {i}."}
            if kind == "claim":
                fields["statement"] = f"The contract number {i} was never paid."
            it = items.create_item(s, cid, kind, f"{kind.title()} {i}", **fields)
            if i % 3 == 0:
                p = passages.add_passage(s, doc_ids[i % len(doc_ids)], 0, 60)
                evidence.link_evidence(s, it.id, passage_id=p.id)
    t = time.perf_counter()
    with ws.transaction() as s:
        brief.export_brief(s, cid, io.BytesIO())
    return time.perf_counter() - t


def _pg_database(admin_url: str) -> tuple[str, Any]:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"casefile_bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))

    def drop() -> None:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()

    return make_url(admin_url).set(database=name).render_as_string(hide_password=False), drop


def run_one(n: int, engine: str, db_url: str | None) -> dict[str, Any]:
    """Build a workspace of ``n`` documents on ``engine`` and measure it (in this process)."""
    from casefile.services import cases
    from casefile.store.workspace import open_workspace, sqlite_url

    drop = None
    tmp = tempfile.TemporaryDirectory(prefix="casefile-bench-")
    if engine == "sqlite":
        url = sqlite_url(Path(tmp.name))
    else:
        assert db_url
        url, drop = _pg_database(db_url)
    try:
        load_start = os.getloadavg()[0]
        ws = open_workspace(db_url=url)
        with ws.transaction() as s:
            cid = cases.create_case(s, "Harbor bench").id
        ws.close()
        bulk = max(0, n - IMPORTED)
        setup_rate = 0.0
        if bulk:  # in a child process: its memory is not this configuration's peak
            out = subprocess.run(
                [sys.executable, __file__, "--setup", str(bulk), str(cid), url], check=True,
                stdout=subprocess.PIPE, text=True).stdout
            setup_rate = float(out.strip().splitlines()[-1])
        ws = open_workspace(db_url=url)
        rate = _import(ws, cid, n - bulk, bulk)
        if engine != "sqlite":
            with ws.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                conn.exec_driver_sql("VACUUM ANALYZE")
        else:
            with ws.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA optimize")
        ws.close()
        t = time.perf_counter()
        ws = open_workspace(db_url=url)
        with ws.transaction() as s:
            cases.list_cases(s)
            cases.item_counts(s, cid)
        open_s = time.perf_counter() - t
        result: dict[str, Any] = {"n": n, "engine": engine, "setup_docs_per_s": setup_rate,
                                  "import_docs_per_s": rate, "open_s": open_s,
                                  "db_mb": _db_mb(ws)}
        result.update(_search(ws, url))
        result["evidence_s"] = _evidence(ws, cid)
        result["brief_s"] = _brief(ws)
        ws.close()
        result["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        result["load"] = f"{load_start:.1f}-{os.getloadavg()[0]:.1f}"
        return result
    finally:
        if drop:
            drop()
        tmp.cleanup()


def _table(rows: list[dict[str, Any]]) -> str:
    head = ("| N | engine | setup docs/s | import docs/s | search p50 ms | search p95 ms | "
            "raw p95 ms | ratio | raw ids p95 ms | ids ratio | full-rank raw p95 ms | open s | "
            "evidence s (1,000) | brief s (500) | peak MB | db MB | load |")
    lines = [head, "|" + "---|" * 17]
    for r in rows:
        lines.append(
            f"| {r['n']:,} | {r['engine']} | {r['setup_docs_per_s']:.0f} | "
            f"{r['import_docs_per_s']:.0f} | "
            f"{r['search_p50_ms']:.1f} | {r['search_p95_ms']:.1f} | {r['raw_p95_ms']:.1f} | "
            f"{r['ratio_p95']:.2f} | {r['raw_ids_p95_ms']:.1f} | {r['ratio_ids_p95']:.2f} | "
            f"{r['full_rank_raw_p95_ms']:.1f} | {r['open_s']:.2f} | "
            f"{r['evidence_s']:.3f} | "
            f"{r['brief_s']:.2f} | {r['peak_mb']:.0f} | {r['db_mb']:.0f} | {r['load']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--db-url", help="PostgreSQL server URL (adds PostgreSQL runs)")
    ap.add_argument("--engines", default=None, help="comma list: sqlite,postgresql")
    ap.add_argument("--json", type=Path, default=Path("bench.json"))
    ap.add_argument("--one", nargs=2, metavar=("N", "ENGINE"), help=argparse.SUPPRESS)
    ap.add_argument("--setup", nargs=3, metavar=("N", "CASE", "URL"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.setup:
        print(_setup(args.setup[2], int(args.setup[1]), int(args.setup[0])))
        return 0
    if args.one:
        print(json.dumps(run_one(int(args.one[0]), args.one[1], args.db_url)))
        return 0
    engines = (args.engines.split(",") if args.engines
               else ["sqlite"] + (["postgresql"] if args.db_url else []))
    rows = []
    for n in [int(x) for x in args.sizes.split(",")]:
        for engine in engines:
            cmd = [sys.executable, __file__, "--one", str(n), engine]
            if args.db_url:
                cmd += ["--db-url", args.db_url]
            out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout
            rows.append(json.loads(out.strip().splitlines()[-1]))
            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    by = {(r["engine"], r["n"]): r for r in rows}
    for engine in engines:
        sizes = sorted(n for e, n in by if e == engine)
        if len(sizes) > 1 and sizes[-1] >= 100 * sizes[0]:
            small, big = by[(engine, sizes[0])], by[(engine, sizes[-1])]
            print(f"{engine}: {sizes[-1] // sizes[0]}x documents -> search p95 x"
                  f"{big['search_p95_ms'] / small['search_p95_ms']:.2f}")
    print(_table(rows))
    args.json.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
