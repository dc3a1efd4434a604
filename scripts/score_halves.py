"""Score suggestions on the development articles, whole and in two halves split by outlet.

A rule is kept only if it helps both halves (ARCHITECTURE.md, "Suggestions"). This script runs
Casefile's extraction (the same calls as ``casefile extract FILE --published DATE --json``) and the
raw model (the shared ``peer_spacy.py``) once per article, in one process, then scores them with the
shared scorers' own functions (``score_corpus.count``/``prf``, ``score_claims.score_article``/
``figures``), so the numbers equal what those tools print.

Outlets are read from each gold file (the host of ``url``, or the first word of ``about``); an
outlet's articles all go to one half. Halves are filled greedily in the order of a hash of the
outlet, so the split is fixed, balanced by article count, and names nothing.

Usage (from the repository root, ../shared beside it)::

    .venv/bin/python scripts/score_halves.py [--articles] [--verbose] [--show-split] [--json OUT]

Prints one table: rows whole / half A / half B; columns Casefile people and organizations F1 with
the raw model's beside them, due dates found/required, claims found, speaker right and right F1.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import hashlib
import importlib.util
import io
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
FOLDERS = (SHARED / "samples" / "articles", SHARED / "samples" / "articles-2")
TOOLS = SHARED / "tools"
KINDS = ("people", "organizations")


def _tool(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(TOOLS))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(TOOLS))
    return module


def outlet(gold: dict[str, Any]) -> str:
    """The outlet's host name ("example.com") of one gold file."""
    if gold.get("url"):
        host = urlparse(gold["url"]).hostname or ""
    else:
        host = str(gold.get("about", "")).split(",")[0].split(":")[0].split()[0]
    host = host.lower().removeprefix("www.")
    return host


def articles() -> list[tuple[Path, dict[str, Any]]]:
    """Every (text path, gold) pair of the development folders."""
    out = []
    for folder in FOLDERS:
        for gold in sorted(folder.glob("*-gold.json")):
            text = gold.with_name(gold.name[: -len("-gold.json")] + ".txt")
            if text.exists():
                out.append((text, json.loads(gold.read_text(encoding="utf-8"))))
    return out


def halves(pairs: list[tuple[Path, dict[str, Any]]]) -> dict[str, str]:
    """Text path (str) -> "A" or "B", all of an outlet's articles in one half."""
    by_outlet: dict[str, list[str]] = {}
    for path, gold in pairs:
        by_outlet.setdefault(outlet(gold), []).append(str(path))
    order = sorted(by_outlet, key=lambda o: hashlib.sha256(o.encode()).hexdigest())
    size = {"A": 0, "B": 0}
    side: dict[str, str] = {}
    for name in order:
        half = "A" if size["A"] <= size["B"] else "B"
        size[half] += len(by_outlet[name])
        for p in by_outlet[name]:
            side[p] = half
    return side


def casefile_predict(path: Path, published: str | None, mode: str = "auto") -> dict[str, Any]:
    from casefile.extract import extract_suggestions
    from casefile.ingest import ingest_file

    _data, ingested = ingest_file(path)
    day = dt.date.fromisoformat(published) if published else (
        dt.date.fromisoformat(ingested.published) if ingested.published else None)
    found = extract_suggestions(ingested.text, day, mode=mode)  # type: ignore[arg-type]
    result: dict[str, Any] = json.loads(json.dumps(found, default=str))
    return result


_PEER: ModuleType | None = None


def peer_predict(path: Path, _published: str | None) -> dict[str, Any]:
    global _PEER
    if _PEER is None:
        _PEER = _tool("peer_spacy")
    out = io.StringIO()
    argv = sys.argv
    sys.argv = ["peer_spacy.py", str(path)]
    try:
        with contextlib.redirect_stdout(out):
            _PEER.main()
    finally:
        sys.argv = argv
    result: dict[str, Any] = json.loads(out.getvalue())
    return result


def article_rows(pairs: list[tuple[Path, dict[str, Any]]], mine: dict[str, Any],
                 peer: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per article: its half, names F1 (Casefile and the raw model), missed and wrong
    names, due dates found/required and the claims figures, scored by the shared tools."""
    corpus = _tool("score_corpus")
    claims = _tool("score_claims")
    side = halves(pairs)
    rows = []
    for path, gold in pairs:
        row: dict[str, Any] = {"article": f"{path.parent.name}/{path.stem}",
                               "half": side[str(path)]}
        for who, preds in (("casefile", mine), ("peer", peer)):
            for k in KINDS:
                c = corpus.count(gold.get(k, {}), [x["name"] for x in preds[str(path)].get(k, [])])
                row[f"{who}_{k}_f1"] = round(corpus.prf(c)[2], 3)
                if who == "casefile":
                    row[f"{k}_missed"], row[f"{k}_wrong"] = c["missed"], c["wrong"]
        pred = mine[str(path)]
        dues = {f.get("due") for f in pred.get("followups", []) if f.get("due")}
        want = [f["due"] for f in gold.get("followups", {}).get("required", []) if f.get("due")]
        row["due"] = [sum(1 for d in want if d in dues), len(want)]
        if "claims" in gold:
            c = claims.score_article(path.read_text(encoding="utf-8"), gold["claims"],
                                     pred.get("claims", []))
            row["claims"] = {k: c[k] for k in ("gold", "found", "right")}
            row["right_f1"] = round(claims.figures(c)["right"], 3)
        rows.append(row)
    return rows


def print_report(table: dict[str, Any], rows: list[dict[str, Any]] | None = None) -> None:
    """Print the per-article lines (if given), then the whole / half A / half B table."""
    for r in rows or []:
        cl = r.get("claims")
        claims = (f"claims {cl['found']}/{cl['gold']} right {cl['right']} "
                  f"rightF1 {r['right_f1']:.2f}" if cl else "claims -")
        print(f"  [{r['half']}] {r['article']}: people {r['casefile_people_f1']:.2f} "
              f"(raw {r['peer_people_f1']:.2f}) orgs {r['casefile_organizations_f1']:.2f} "
              f"(raw {r['peer_organizations_f1']:.2f}) due {r['due'][0]}/{r['due'][1]} {claims}")
    print(f"{'':6} {'n':>3} | {'people':>6} {'peer':>5} | {'orgs':>5} {'peer':>5} | {'due':>5} | "
          f"{'found':>5} {'spkr':>5} {'rightF1':>7}")
    for label, r in table.items():
        print(f"{label:6} {r['articles']:3} | {r['casefile_people_f1']:6.3f} "
              f"{r['peer_people_f1']:5.3f}"
              f" | {r['casefile_organizations_f1']:5.3f} {r['peer_organizations_f1']:5.3f}"
              f" | {r['due'][0]:2}/{r['due'][1]:<2} | {r['claims_found']:5.3f} "
              f"{r['speaker_right']:5.3f} {r['right_f1']:7.3f}")


def print_names(rows: list[dict[str, Any]]) -> None:
    """Print each article's missed and wrong names (people and organisations), half A first:
    the error analysis a rule starts from."""
    for r in sorted(rows, key=lambda r: (r["half"], r["article"])):
        for k in KINDS:
            if r[f"{k}_missed"] or r[f"{k}_wrong"]:
                print(f"  [{r['half']}] {r['article']} {k}: missed {r[f'{k}_missed']} "
                      f"wrong {r[f'{k}_wrong']}")


def score(pairs: list[tuple[Path, dict[str, Any]]], mine: dict[str, Any], peer: dict[str, Any],
          verbose: bool = False) -> dict[str, Any]:
    """The whole / "A" / "B" table: per group the article count, Casefile's and the raw
    model's people and organizations F1, due dates [found, required] and the claims figures
    (claims_found, speaker_right, right_f1, claims_precision)."""
    corpus = _tool("score_corpus")
    claims = _tool("score_claims")
    side = halves(pairs)
    groups = {"whole": lambda p: True, "A": lambda p: side[str(p)] == "A",
              "B": lambda p: side[str(p)] == "B"}
    table: dict[str, Any] = {}
    for label, keep in groups.items():
        names = {who: {k: {"gold": 0, "found": 0, "tp": 0, "fp": 0, "dup": 0} for k in KINDS}
                 for who in ("casefile", "peer")}
        due = [0, 0]
        ctot = {"gold": 0, "found": 0, "tp": 0, "fp": 0, "right": 0}
        n = 0
        for path, gold in pairs:
            if not keep(path):
                continue
            n += 1
            for who, preds in (("casefile", mine), ("peer", peer)):
                pred = preds[str(path)]
                for k in KINDS:
                    c = corpus.count(gold.get(k, {}), [x["name"] for x in pred.get(k, [])])
                    for f in names[who][k]:
                        names[who][k][f] += c[f]
            pred = mine[str(path)]
            dues = {f.get("due") for f in pred.get("followups", []) if f.get("due")}
            want = [f["due"] for f in gold.get("followups", {}).get("required", []) if f.get("due")]
            due[0] += sum(1 for d in want if d in dues)
            due[1] += len(want)
            if "claims" in gold:
                c = claims.score_article(path.read_text(encoding="utf-8"), gold["claims"],
                                         pred.get("claims", []))
                for k in ctot:
                    ctot[k] += c[k]
                if verbose and label == "whole":
                    f = claims.figures(c)
                    print(f"  {path.parent.name}/{path.stem} [{side[str(path)]}]: claims "
                          f"{c['found']}/{c['gold']} speaker right {c['right']}/{c['found']} "
                          f"right F1 {f['right']:.2f}")
        row: dict[str, Any] = {"articles": n, "due": due}
        for who in names:
            for k in KINDS:
                row[f"{who}_{k}_f1"] = round(corpus.prf(names[who][k])[2], 3)
        cf = claims.figures(ctot)
        row.update(claims_found=round(cf["found"], 3), speaker_right=round(cf["speaker"], 3),
                   right_f1=round(cf["right"], 3), claims_precision=round(cf["precision"], 3))
        table[label] = row
    return table


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--verbose", action="store_true",
                    help="per-article claims lines, and each article's missed and wrong names")
    ap.add_argument("--articles", action="store_true", help="one line per article first")
    ap.add_argument("--json", dest="out", help="write the table as JSON here")
    ap.add_argument("--show-split", action="store_true", help="print which outlet is in which half")
    a = ap.parse_args(argv)
    pairs = articles()
    if a.show_split:
        side = halves(pairs)
        for path, gold in pairs:
            print(f"{side[str(path)]} {outlet(gold):28} {path.parent.name}/{path.name}")
    mine = {str(p): casefile_predict(p, g.get("published")) for p, g in pairs}
    peer = {str(p): peer_predict(p, g.get("published")) for p, g in pairs}
    table = score(pairs, mine, peer, a.verbose)
    rows = article_rows(pairs, mine, peer) if a.articles or a.verbose else None
    if a.verbose and rows:
        print_names(rows)
    print_report(table, rows if a.articles else None)
    if a.out:
        Path(a.out).write_text(json.dumps(table, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
