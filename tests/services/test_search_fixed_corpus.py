"""The Search panel's answers on a fixed corpus stay what they were: the same hits in the same
order, the same snippets and highlights, the same match span in each document (the
match is now located once per shown hit and a ranked query runs once).

The expected answers are in ``search_fixed_corpus.json``, written by the code before that
change (``python -m tests.services.test_search_fixed_corpus --write`` writes it again from
the current code): per query, the hits in order, each as its label, its match span and a
digest of what the panel shows of it (case title, kind, title, snippet, highlights). The match
spans are also checked against the whole text folded (``FoldedText.spans``). On PostgreSQL
the ranking functions differ (``ts_rank``), so there the hits are compared as a set when all
matches are shown, and each shown hit's snippet, highlights and match must be the ones
recorded for it.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from casefile.ingest.types import Ingested
from casefile.services import cases, items
from casefile.services.documents import store_document
from casefile.services.search import SearchResults, search_workspace
from casefile.store.search import running as search_running
from casefile.store.textfind import FoldedText
from scripts import synthetic

EXPECTED = Path(__file__).with_name("search_fixed_corpus.json")

LONG = ("The budget memo was filed on time. " * 2100 + "Officials in Łódź denied it. "
        + "The budget memo was filed on time. " * 300 + "Quarrington signed the memo at last.")
HANDMADE = {
    "strasse": ("Hauptstraße memo", "Die Hauptstraße in Łódź: O’Brien traf José (Jose\u0301) "
                "am Bahnhof. The ﬁnance e-mail went to the STRASSE office and to Mr. O'Brien."),
    "emoji": ("Radio log 👮", "Radio memo 👮🚓\n\nThe logs show the Harbor\nPolice waited by "
              "the stairwell while Deputy O’Brien called Łódź. Ferreira   said nothing."),
    "long": ("Long budget file", LONG),
    "title only": ("Dispatch log Ferreira", "Nothing in this text names anyone at all."),
    "hyphens": ("Saint-Étienne e-mail", "An email and an e mail and an e-mail from "
                "Saint-Étienne, Saint Etienne and SAINT-ETIENNE; Kraków or Krakow."),
}
QUERIES = (*synthetic.QUERIES, "Carrabine", "hospital", "subpoena withheld",
           '"unpaid overtime"', "Kowalski OR Lindqvist", "strasse", "hauptstrasse", "jose",
           "fi*", "finance", "lodz", '"harbor police"', "stair*", "quarrington",
           "budget quarrington", "dispatch", "Ferreira -hospital", "the", "e mail", "email",
           "krakow", '"memo was filed"', "spokesperson", "o'brien", "-invoice")
#: (name, scope, limit, settings of store.search.running): the panel's 100 hits, a short list
#: in one case, and the newest-first order of a query matching RANK_WINDOW items or more (20 and
#: 100 hits). Runs named "<name> / <how>" must give the answers recorded for <name>: the
#: settings they add change how the matching runs (the sample of the newest ids that guesses
#: whether a query matches RANK_WINDOW items), not the answer.
RUNS: tuple[tuple[str, str | None, int, dict[str, int]], ...] = (
    ("all", None, 100, {}),
    ("desk", "Harbor desk", 7, {}),
    ("newest", None, 20, {"RANK_WINDOW": 40}),
    ("newest 100", None, 100, {"RANK_WINDOW": 40}),
    ("newest / sampled", None, 20, {"RANK_WINDOW": 40, "RANK_SAMPLE_SHARE": 4,
                                    "RANK_SAMPLE_MIN": 8}),
    ("newest 100 / sampled", None, 100, {"RANK_WINDOW": 40, "RANK_SAMPLE_SHARE": 4,
                                         "RANK_SAMPLE_MIN": 8}),
    ("newest / tiny sample", None, 20, {"RANK_WINDOW": 40, "RANK_SAMPLE_SHARE": 64,
                                        "RANK_SAMPLE_MIN": 2}),
    ("desk 30", "Harbor desk", 7, {"RANK_WINDOW": 30}),
    ("desk 30 / tiny sample", "Harbor desk", 7, {"RANK_WINDOW": 30, "RANK_SAMPLE_SHARE": 64,
                                                 "RANK_SAMPLE_MIN": 2}),
)


def shown(h: Any) -> str:
    """A digest of what the panel shows of a hit (its snippet and highlights, titles, kind)."""
    data = json.dumps([h.case_title, h.kind, h.title, h.snippet, h.highlights],
                      ensure_ascii=False)
    return hashlib.sha1(data.encode()).hexdigest()[:12]


def build(workspace: Any) -> tuple[dict[int, str], dict[str, int]]:
    """The fixed corpus: two cases of invented articles, handmade awkward texts and a few
    items other than documents. ``(label of item id, case id of case title)``."""
    labels: dict[int, str] = {}
    with workspace.transaction() as s:
        desk = cases.create_case(s, "Harbor desk").id
        vale = cases.create_case(s, "Vale desk").id
        for case, seed, n in ((desk, 23, 150), (vale, 29, 40)):
            for k, d in enumerate(synthetic.documents(n, seed=seed, size=1500)):
                label = f"{seed}-{k}"
                raw = f"{label}\n{d.text}".encode()
                r = store_document(s, case, raw, Ingested(
                    text=d.text, mime_type="text/plain", title=d.title, kind="article",
                    outlet="The Invented Gazette"), filename=f"{label}.txt")
                labels[r.document_id] = label
        for label, (title, body) in HANDMADE.items():
            r = store_document(s, vale, body.encode(), Ingested(
                text=body, mime_type="text/plain", title=title))
            labels[r.document_id] = label
        for label, kind, title, fields in (
                ("person", "person", "Nadia Ferreira", {"role": "spokesperson",
                                                         "notes": "Harbor Police contact"}),
                ("org", "organization", "Harbor Police Department", {"notes": "hospital"}),
                ("claim", "claim", "Unpaid overtime", {
                    "statement": "The unpaid overtime was never audited."})):
            labels[items.create_item(s, desk, kind, title, **fields).id] = label
    return labels, {"Harbor desk": desk, "Vale desk": vale}


def collect(workspace: Any, monkeypatch: pytest.MonkeyPatch | None = None,
            check: Callable[[str, SearchResults], None] | None = None,
            recording: bool = False) -> dict[str, Any]:
    """Every run of every query on the fixed corpus (when ``recording``, the runs without a
    " / "), as plain JSON values; ``check(query, results)`` is called with each answer."""
    labels, case_ids = build(workspace)
    out: dict[str, Any] = {}
    for name, scope, limit, settings in RUNS:
        if " / " in name and recording:
            continue
        for setting, value in settings.items():
            assert monkeypatch is not None
            monkeypatch.setattr(search_running, setting, value)  # raises for an unknown one
        for query in QUERIES:
            with workspace.reading() as r:
                res = search_workspace(r, query, case_ids.get(scope or ""), limit)
            if check is not None:
                check(query, res)
            out[f"{name}: {query}"] = {
                "more": res.more, "terms": list(res.terms),
                "hits": [[labels[h.item_id], list(h.match) if h.match else None, shown(h)]
                         for h in res.hits]}
        if monkeypatch is not None:
            monkeypatch.undo()
    return out


def test_the_search_panel_answers_as_before_on_a_fixed_corpus(
        workspace: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    texts: dict[int, str] = {}
    located = 0

    def check(query: str, res: SearchResults) -> None:
        nonlocal located
        if not texts:  # the corpus is built by collect
            with workspace.reading() as r:
                texts.update((int(i), t) for i, t in r.run("SELECT id, text FROM documents", {}))
        for h in res.hits:  # the match is the first of the whole text, folded
            spans = FoldedText(texts[h.item_id]).spans(query) if h.kind == "document" else []
            assert h.match == (spans[0] if spans else None), (query, h.item_id)
            located += h.match is not None

    got = collect(workspace, monkeypatch, check)
    assert located > 1000
    assert {k for k in got if " / " not in k.split(": ")[0]} == expected.keys()
    for key in list(got):  # a run that only changes how the matching runs: same answers
        run, query = key.split(": ", 1)
        if " / " in run:  # (settings of the SQLite search)
            have = got.pop(key)
            if workspace.engine.dialect.name == "sqlite":
                assert have == expected[f"{run.split(' / ')[0]}: {query}"], key
    # the corpus has long texts, accents, ligatures, emoji, and queries that match a lot
    assert any(h[0] == "long" and h[1] and h[1][0] > 70_000
               for h in expected["all: quarrington"]["hits"])
    assert len(expected["all: the"]["hits"]) == 100 and expected["all: the"]["more"]
    if workspace.engine.dialect.name == "sqlite":
        for key, want in expected.items():
            assert got[key] == want, key
        return
    for key, want in expected.items():  # PostgreSQL ranks with ts_rank: same hits, own order
        have = got[key]
        assert have["terms"] == want["terms"], key
        if not want["more"] and not have["more"]:
            assert sorted(h[0] for h in have["hits"]) == sorted(h[0] for h in want["hits"]), key
        run, query = key.split(": ", 1)
        every = expected[f"all: {query}"]  # up to 100 hits: how many items match
        if run.startswith("newest") and (every["more"] or len(every["hits"]) >= 40):
            assert have["hits"] == want["hits"], key  # newest first: the same on both engines
        recorded = {h[0]: h for h in want["hits"]}
        for h in have["hits"]:
            if h[0] in recorded:
                assert h == recorded[h[0]], (key, h[0])


if __name__ == "__main__" and "--write" in sys.argv:
    import tempfile

    from casefile.store.workspace import open_workspace

    with tempfile.TemporaryDirectory() as tmp:
        ws = open_workspace(Path(tmp) / "ws")
        mp = pytest.MonkeyPatch()
        try:
            data = collect(ws, mp, recording=True)
        finally:
            mp.undo()
            ws.close()
    EXPECTED.write_text("{\n" + ",\n".join(
        f"{json.dumps(k, ensure_ascii=False)}: {json.dumps(v, separators=(',', ':'))}"
        for k, v in data.items()) + "\n}\n", encoding="utf-8")
    print(f"wrote {EXPECTED} ({EXPECTED.stat().st_size // 1000} kB)")
