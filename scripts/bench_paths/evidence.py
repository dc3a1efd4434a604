"""Benchmark: the evidence panel filled and painted when the reporter selects an item.

A workspace (temp folder, SQLite) holds one case with ``n // 10`` invented documents
(scripts/synthetic.py text, dated) and a person, "Nadia Ferreira" (alias "Ferreira"), with
``n`` linked passages: about 80% quoted sentences (supports / contradicts / context), 20%
bare-name mentions ("Ferreira", relation "mentions") that the panel folds per document. A few
other items have a handful of links each. Setup uses bulk inserts (not measured).

Casefile side: the real window (``MainWindow`` on that case, 1280x800, offscreen), the
reporter's selection as the window runs it — ``window.show_evidence(item_id)`` (the Evidence
dock's read of the item's evidence and the panel's fill) — then the events it posted processed
and the panel painted (``QApplication.processEvents()`` + ``panel.grab()``). Between turns
another item (3 links) is selected, untimed, as a reporter moves from item to item.

Reference: a bare ``QTreeView`` + ``QStandardItemModel`` in a widget of the panel's size,
word wrap on, filled with the same rows (the same top-row and child texts, the relation
column; the same groups opened) from texts already in memory, then the same
``processEvents()`` + ``grab()``.

Turns alternate (casefile, reference, ...); p50 and p95 over ``rounds`` turns each. The
target is on p50: Casefile <= 2x the bare tree.

Usage::

    QT_QPA_PLATFORM=offscreen python -m scripts.bench_paths.evidence --sizes 100,1000 \\
        --rounds 15 [--json OUT]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import re
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts import synthetic  # noqa: E402
from scripts.bench_paths._common import alternating_ms, pct, window_on  # noqa: E402

PERSON, ALIAS = "Nadia Ferreira", "Ferreira"
TARGET_RATIO = 2.0


def build(folder: Path, n: int) -> tuple[Any, int, int, int]:
    """Make the workspace in ``folder``: ``(workspace, case_id, person_id, other_id)``; the
    person has ``n`` links, ``other`` (another person) 3."""
    from sqlalchemy import insert

    from casefile.services import cases, items
    from casefile.store import Document, EvidenceLink, Passage
    from casefile.store.workspace import open_workspace

    ws = open_workspace(folder)
    rng = random.Random(16)
    n_docs = max(1, n // 10)
    with ws.transaction() as s:
        cid = cases.create_case(s, f"Evidence bench {n}").id
        pid = items.create_item(s, cid, "person", PERSON, aliases=[ALIAS]).id
        others = [items.create_item(s, cid, kind, f"{kind.title()} {i}").id
                  for i, kind in enumerate(("person", "organization", "claim", "question"))]
        docs = []
        for i, d in enumerate(synthetic.documents(n_docs, seed=16, size=2500)):
            # the name in every document, so that its mentions are real occurrences
            text = f"{PERSON} was asked about the {d.topic} records. " + d.text
            doc = Document(case_id=cid, title=d.title, text=text, mime_type="text/plain",
                           outlet="The Invented Gazette" if i % 3 else None,
                           published=dt.date(2020, 1, 1) + dt.timedelta(days=i % 700))
            s.add(doc)
            docs.append(doc)
        s.flush()
        passages: list[dict[str, Any]] = []
        links: list[dict[str, Any]] = []
        spans: dict[int, list[tuple[int, int, str]]] = {}
        for doc in docs:
            text = doc.text
            sentences = [(m.start(), m.end()) for m in re.finditer(r"[^.\n]+\.", text)]
            names = [(m.start(), m.end()) for m in re.finditer(ALIAS, text)]
            spans[doc.id] = ([(a, b, "q") for a, b in sentences]
                             + [(a, b, "m") for a, b in names])
        pid_next = 1
        relations = ("supports", "supports", "supports", "contradicts", "context")

        def add(item: int, doc: Any, count: int) -> None:
            nonlocal pid_next
            choices = spans[doc.id]
            quotes = [c for c in choices if c[2] == "q"]
            names = [c for c in choices if c[2] == "m"]
            for k in range(count):
                mention = k % 5 == 4 and names
                a, b, _kind = rng.choice(names if mention else quotes)
                if not mention:
                    a += len(doc.text[a:b]) - len(doc.text[a:b].lstrip())
                passages.append({"id": pid_next, "case_id": cid, "document_id": doc.id,
                                 "start": a, "end": b, "page": None, "quote": doc.text[a:b],
                                 "note": None})
                links.append({"case_id": cid, "passage_id": pid_next, "document_id": None,
                              "item_id": item,
                              "relation": "mentions" if mention else rng.choice(relations),
                              "note": None})
                pid_next += 1

        per_doc = [n // n_docs + (1 if i < n % n_docs else 0) for i in range(n_docs)]
        for doc, count in zip(docs, per_doc, strict=True):
            add(pid, doc, count)
        for item in others:
            add(item, docs[rng.randrange(len(docs))], 3)
        s.execute(insert(Passage), passages)
        s.execute(insert(EvidenceLink), links)
    return ws, cid, pid, others[0]


def _reference_rows(groups: Any) -> list[tuple[str, bool, list[tuple[str, str]]]]:
    """The panel's rows as plain texts, for the bare tree: ``(top text, open, [(child text,
    relation), ...])``, built from the same evidence (before the clock starts)."""
    rows: list[tuple[str, bool, list[tuple[str, str]]]] = []
    by_doc: dict[int, list[Any]] = {}
    for v in groups.quotes:
        by_doc.setdefault(v.document_id, []).append(v)

    def facts(v: Any) -> str:
        return " · ".join(p for p in (v.outlet, v.published) if p)

    for vs in by_doc.values():
        f = facts(vs[0])
        n = len(vs)
        rows.append((f"{vs[0].document_title}\n{f + ' · ' if f else ''}{n} passage"
                     f"{'s' if n != 1 else ''}", True,
                     [("“" + " ".join((v.quote or "(the whole document)").split()) + "”",
                       v.relation) for v in vs]))
    for fold in groups.folds:
        f = facts(fold.mentions[0])
        n = len(fold.mentions)
        rows.append((f"Mentioned {n} times in {fold.document_title}" + (f"\n{f}" if f else ""),
                     False, [(m.context or "", m.relation) for m in fold.mentions]))
    return rows


def plan(sizes: list[int], rounds: int) -> tuple[list[int], int]:
    """For ``scripts/bench.py``: a workspace of N documents is timed on one item with N / 10
    passages (1,000 at 10k, the target's size), at most 15 turns."""
    return sorted({max(n // 10, 10) for n in sizes}), min(rounds, 15)


def measure(sizes: list[int], rounds: int) -> list[dict[str, Any]]:
    """One row per size: p50/p95 (ms) of the panel filled and painted, beside the bare tree."""
    out = []
    for n in sizes:
        with tempfile.TemporaryDirectory(prefix="casefile-bench-evidence-") as tmp:
            out.append(_measure_size(Path(tmp) / "ws", n, rounds))
    return out


def _measure_size(folder: Path, n: int, rounds: int) -> dict[str, Any]:
    from PySide6.QtGui import QStandardItem, QStandardItemModel
    from PySide6.QtWidgets import QApplication, QTreeView, QVBoxLayout, QWidget

    from casefile.services import evidence

    ws, cid, pid, other = build(folder, n)
    with window_on(ws, cid) as window:
        host = QWidget()
        try:
            panel = window.evidence.panel
            with ws.transaction() as s:
                groups = evidence.evidence_groups(s, pid)
            assert len(groups.links) == n, (len(groups.links), n)
            rows = _reference_rows(groups)

            host.resize(panel.size())
            tree = QTreeView(host)
            tree.setWordWrap(True)
            QVBoxLayout(host).addWidget(tree)
            host.show()
            QApplication.processEvents()

            def ours() -> None:
                window.show_evidence(pid)
                QApplication.processEvents()
                panel.grab()

            def reference() -> None:
                model = QStandardItemModel(0, 2, tree)
                model.setHorizontalHeaderLabels(["Evidence", "Relation"])
                opened = []
                for top_text, is_open, children in rows:
                    top = QStandardItem(top_text)
                    for text, relation in children:
                        top.appendRow([QStandardItem(text), QStandardItem(relation)])
                    model.appendRow([top, QStandardItem("")])
                    if is_open:
                        opened.append(top)
                old = tree.model()
                tree.setModel(model)
                for top in opened:
                    tree.expand(top.index())
                if old is not None:
                    old.deleteLater()
                QApplication.processEvents()
                host.grab()

            def away() -> None:  # untimed: another item, another tree
                window.show_evidence(other)
                tree.setModel(QStandardItemModel(tree))
                QApplication.processEvents()

            sides = {"casefile": ours, "reference": reference}
            for fn in sides.values():  # the first fill (fonts, styles) is not what is measured
                away()
                fn()
            load_before = os.getloadavg()
            times = alternating_ms(sides, rounds, away)
            load_after = os.getloadavg()
            ours()
            shown = panel.model.link_count()
            assert shown == n, (shown, n)
        finally:
            host.close()
            host.deleteLater()
    p50 = {k: statistics.median(v) for k, v in times.items()}
    p95 = {k: pct(v, 0.95) for k, v in times.items()}
    ratio = p50["casefile"] / max(p50["reference"], 1e-9)
    return {
        "path": "evidence panel (fill + paint)", "n": n,
        "casefile": p50["casefile"], "reference": p50["reference"], "unit": "ms",
        "ratio": ratio, "target": f"p50 <= {TARGET_RATIO:g}x bare QTreeView",
        "met": ratio <= TARGET_RATIO, "p50": p50, "p95": p95,
        "notes": (f"{n} passages of one item over {max(1, n // 10)} documents "
                  f"({len(groups.quotes)} quotes, {groups.mention_count} mentions in "
                  f"{len(groups.folds)} folds); {rounds} turns each; load "
                  f"{load_before[0]:.2f} -> {load_after[0]:.2f}"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    rows = measure([int(x) for x in args.sizes.split(",")], args.rounds)
    for row in rows:
        print(f"{row['path']} n={row['n']}: casefile p50 {row['p50']['casefile']:.1f} ms "
              f"p95 {row['p95']['casefile']:.1f} ms | bare tree p50 "
              f"{row['p50']['reference']:.1f} ms p95 {row['p95']['reference']:.1f} ms | "
              f"ratio {row['ratio']:.1f}x | met {row['met']} | {row['notes']}")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "load": list(os.getloadavg())},
                                        indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
