"""Benchmark: ``casefile brief`` of a 500-item / 1,000-passage case, beside raw reportlab.

The case (built once per run through the services, as the window would build it): 40 invented
~3 KB articles and 460 other items (people, organizations, places, claims, open questions,
events) with 1,000 passages linked as evidence (sentences of the articles; every 8th a bare-name
"mentions" link, every 5th with a note, every 9th "contradicts").

Sides, taking turns:

- ``cli``: ``python -m casefile --workspace W brief --case T -o FILE.pdf`` in a subprocess (what
  the reporter runs), wall time from start to exit, PDF on disk;
- ``in process``: ``services.brief.export_brief`` to a path in one transaction of an open
  workspace (what the window's Export brief runs);
- ``reference``: raw reportlab — the same texts (every item's title, notes and quotes with their
  ``[n]`` citations, the sources with their hashes) read with plain sqlite3 and laid out with
  the same paragraph styles by ``SimpleDocTemplate`` to disk; ``reference cli`` is the same in a
  subprocess of its own (``python -m scripts.bench_paths.brief --raw W CASE_ID OUT``).

Run alone: ``python -m scripts.bench_paths.brief --sizes 500 --json OUT``. ``n`` is the number
of items (passages are twice that).
"""

from __future__ import annotations

import re
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from scripts import synthetic
from scripts.bench_paths._common import ROOT, main, row, timed_process, turns

TITLE = "Brief bench"
N_DOCUMENTS = 40
KINDS = ("person", "organization", "claim", "question", "event", "place", "person", "claim")


def build_case(folder: Path, n_items: int = 500, n_passages: int = 1000) -> int:
    """A workspace in ``folder`` with the case ``TITLE`` of ``n_items`` items (documents
    included) and ``n_passages`` linked passages; returns the case id."""
    from casefile.ingest.types import Ingested
    from casefile.services import cases, evidence, items, passages
    from casefile.services.documents import store_document
    from casefile.store.workspace import open_workspace

    ws = open_workspace(folder)
    try:
        with ws.transaction() as s:
            cid = cases.create_case(s, TITLE, "An invented case to time the brief.").id
            docs = list(synthetic.documents(N_DOCUMENTS, seed=99, size=3000))
            doc_ids, spans = [], []
            for i, d in enumerate(docs):
                ing = Ingested(text=d.text, mime_type="text/plain", title=d.title,
                               kind="article", outlet=f"Gazette {i % 7}",
                               published=f"2024-03-{1 + i % 28:02d}")
                doc_ids.append(store_document(s, cid, d.text.encode(), ing).document_id)
                spans.append([(m.start(), m.end()) for m in re.finditer(r"[^.!?\n]+[.!?]",
                                                                       d.text)])
            made = []
            for i in range(n_items - len(doc_ids)):
                kind = KINDS[i % len(KINDS)]
                fields: dict[str, Any] = {"notes": f"Note {i}: checked against the file."}
                if kind == "claim":
                    fields["statement"] = f"The contract number {i} was never paid."
                if kind == "question":
                    fields["due"] = f"2024-04-{1 + i % 28:02d}"
                if kind == "event":
                    fields["date"] = f"2024-02-{1 + i % 28:02d}"
                title = synthetic.FIRST[i % 20] + " " + synthetic.LAST[i % 11] + f" {i}" \
                    if kind == "person" else f"{kind.title()} {i}"
                made.append(items.create_item(s, cid, kind, title, **fields).id)
            for k in range(n_passages):
                item_id = made[k % len(made)]
                d = k % len(doc_ids)
                a, b = spans[d][(k // len(doc_ids)) % len(spans[d])]
                while docs[d].text[a] == " ":
                    a += 1
                relation = "supports"
                if k % 8 == 0:
                    relation, b = "mentions", min(b, a + 12)
                elif k % 9 == 0:
                    relation = "contradicts"
                p = passages.add_passage(s, doc_ids[d], a, b)
                evidence.link_evidence(s, item_id, passage_id=p.id, relation=relation,
                                       note=f"Checked {k}." if k % 5 == 0 else None)
        return cid
    finally:
        ws.close()


# -- the reference: raw sqlite3 + reportlab, same texts and styles -----------------------------


def raw_brief(db: Path, case_id: int, out: Path) -> None:
    """The case's texts printed by reportlab alone: every item's title and notes, its quotes
    with ``[n]`` citations, then the sources with their SHA-256; same fonts and styles."""
    from xml.sax.saxutils import escape

    from reportlab.platypus import Paragraph, SimpleDocTemplate

    from casefile.export.brief import _Styles
    from casefile.export.fonts import register_fonts

    con = sqlite3.connect(db)
    docs = con.execute(
        "SELECT i.id, i.title, d.sha256, d.outlet, d.published FROM items i JOIN documents d "
        "ON d.id = i.id WHERE i.case_id = ? ORDER BY d.published, i.title", (case_id,)).fetchall()
    number = {d[0]: n for n, d in enumerate(docs, start=1)}
    items = con.execute("SELECT id, kind, title, notes FROM items WHERE case_id = ? AND "
                        "kind != 'document' ORDER BY kind, title", (case_id,)).fetchall()
    quotes: dict[int, list[tuple[str, str, int]]] = {}
    for item_id, relation, quote, doc in con.execute(
            "SELECT l.item_id, l.relation, p.quote, p.document_id FROM evidence_links l "
            "JOIN passages p ON p.id = l.passage_id JOIN items i ON i.id = l.item_id "
            "WHERE i.case_id = ? ORDER BY l.id", (case_id,)):
        quotes.setdefault(item_id, []).append((relation, quote, number[doc]))
    con.close()
    styles = _Styles(register_fonts())
    story: list[Any] = [Paragraph(escape(TITLE), styles.title)]
    for item_id, kind, title, notes in items:
        story.append(Paragraph(escape(title), styles.h2))
        story.append(Paragraph(escape(kind), styles.meta))
        if notes:
            story.append(Paragraph(escape(notes), styles.body))
        for relation, quote, n in quotes.get(item_id, []):
            prefix = "" if relation == "supports" else f"<i>{relation}:</i> "
            story.append(Paragraph(f"{prefix}\u201c{escape(quote)}\u201d "
                                   f'<font color="#1f3a5f">[{n}]</font>', styles.quote))
    for n, (_id, title, sha, outlet, published) in enumerate(docs, start=1):
        story.append(Paragraph(f"<b>{escape(title)}</b>", styles.source, bulletText=f"[{n}]"))
        story.append(Paragraph(f"{escape(outlet or '')} · {published}", styles.source_meta))
        story.append(Paragraph(f"<b>SHA-256:</b> {sha}", styles.hash))
    SimpleDocTemplate(str(out)).build(story)


# -- measurement ----------------------------------------------------------------------------




def plan(sizes: list[int], rounds: int) -> tuple[list[int], int]:
    """For ``scripts/bench.py``: the brief is timed on the target's case, 500 items / 1,000
    passages, whatever the workspace sizes; at most 5 turns."""
    return [500], min(rounds, 5)


def measure(sizes: list[int], rounds: int) -> list[dict[str, Any]]:
    """Rows for a brief of each size of items (passages: twice that), in seconds, p50."""
    rows: list[dict[str, Any]] = []
    for n in sizes:
        rows += _measure_one(n, rounds)
    return rows


def _measure_one(n: int, rounds: int) -> list[dict[str, Any]]:
    from casefile.services.brief import export_brief
    from casefile.store.workspace import open_workspace

    rows = []
    with tempfile.TemporaryDirectory(prefix="casefile-bench-brief-") as tmp:
        folder = Path(tmp) / "ws"
        t = time.perf_counter()
        cid = build_case(folder, n, 2 * n)
        built = time.perf_counter() - t
        db = folder / "casefile.sqlite3"
        out = Path(tmp) / "brief.pdf"
        raw_out = Path(tmp) / "raw.pdf"
        py = sys.executable
        timed_process([py, "-m", "compileall", "-q", str(ROOT / "casefile")])
        ws = open_workspace(folder)

        def in_process() -> float:
            t = time.perf_counter()
            with ws.transaction() as s:
                export_brief(s, cid, out)
            return time.perf_counter() - t

        def reference() -> float:
            t = time.perf_counter()
            raw_brief(db, cid, raw_out)
            return time.perf_counter() - t

        cli = [py, "-m", "casefile", "--workspace", str(folder), "brief", "--case", TITLE,
               "-o", str(out)]
        raw_cli = [py, "-m", "scripts.bench_paths.brief", "--raw", str(db), str(cid),
                   str(raw_out)]
        in_process(), reference()  # warm: fonts registered, caches filled
        timed_process(cli), timed_process(raw_cli)
        times = turns({"casefile": in_process, "reference": reference,
                       "casefile cli": lambda: timed_process(cli),
                       "reference cli": lambda: timed_process(raw_cli)}, rounds)
        ws.close()
        pages = [len(re.findall(rb"/Type /Page[^s]", f.read_bytes())) for f in (out, raw_out)]
        notes = (f"{n} items, {2 * n} passages, {pages[0]} pages (raw {pages[1]}); built in "
                 f"{built:.1f} s; in process export_brief to a path vs raw sqlite3 + "
                 "reportlab in process")
        rows.append(row("brief", n, times, unit="s", stat="p50", target_ratio=1.5,
                        target_abs=None, target="<= 1.5x raw reportlab (p50)", notes=notes))
        cli_times = {"casefile": times["casefile cli"], "reference": times["reference cli"]}
        rows.append(row("brief cli", n, cli_times, unit="s", stat="p50", target_ratio=1.5,
                        target_abs=None, target="<= 1.5x raw reportlab subprocess (p50)",
                        notes=f"`casefile brief` subprocess vs raw reportlab subprocess, "
                              f"compiled bytecode; {n} items"))
    return rows


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--raw":
        raw_brief(Path(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4]))
        sys.exit(0)
    sys.exit(main(measure, __doc__ or "", default_rounds=5))
