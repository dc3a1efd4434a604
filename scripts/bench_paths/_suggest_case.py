"""A case with many suggested mentions, for the Suggestions panel benchmark and its tests.

``build(folder, mentions=50_000, documents=2_000)``: a new SQLite workspace in ``folder`` with
one case of invented documents (``scripts.synthetic``) and ``mentions`` suggested mentions of
about 1,100 names (people, organizations, places, events, follow-ups, claims), bulk-inserted
(setup, not a measurement). Returns ``(workspace, case_id)``.
"""

from __future__ import annotations

import random
from datetime import date, datetime
from pathlib import Path
from typing import Any

from scripts import synthetic


def names(rng: random.Random) -> list[tuple[str, str, dict[str, Any] | None]]:
    """About 1,100 ``(kind, name, detail)`` suggestions, invented."""
    out: list[tuple[str, str, dict[str, Any] | None]] = []
    for first in synthetic.FIRST:
        for last in synthetic.LAST:
            out.append(("person", f"{first} {last}", None))
    for first in synthetic.FIRST[:12]:
        for last in synthetic.LAST[:12]:
            out.append(("person", f"{first} {last[0]}. {last}", None))
    for org in synthetic.ORGS:
        for topic in synthetic.TOPICS:
            out.append(("organization", f"{org} {topic.title()} Unit", None))
    out += [("place", p, None) for p in synthetic.PLACES]
    for k in range(60):
        out.append(("event", f"The {synthetic.NOUNS[k % 30]} was held on {k % 28 + 1} March.",
                    {"date": f"2024-03-{k % 28 + 1:02d}", "precision": "day"}))
    for k in range(60):
        out.append(("question", f"Records of the {synthetic.NOUNS[k % 30]} number {k} are due.",
                    {"question_kind": ("expected record", "open question")[k % 2],
                     "due": f"2024-04-{k % 28 + 1:02d}" if k % 3 else None}))
    for k in range(60):
        out.append(("claim", f"{synthetic.QUOTES[k % 6]} ({k}).",
                    {"attributed_to": f"{synthetic.FIRST[k % 24]} {synthetic.LAST[k % 24]}",
                     "via": "The Invented Gazette", "status": "single-source"}))
    return out


def build(folder: Path, mentions: int = 50_000, documents: int = 2_000) -> tuple[Any, int]:
    """See the module docstring."""
    from sqlalchemy import insert

    from casefile.services import cases
    from casefile.services.documents import sha256_hex
    from casefile.store import Blob, Document, Item, Mention, search
    from casefile.store.workspace import open_workspace

    rng = random.Random(29)
    ws = open_workspace(folder)
    with ws.transaction() as s:
        case_id = cases.create_case(s, "Suggestions bench").id
    now = datetime(2024, 1, 1)
    texts: list[str] = []
    with ws.transaction() as s:
        items, docs, blobs, index = [], [], [], []
        for k, d in enumerate(synthetic.documents(documents, seed=29, size=2000)):
            data = f"{k}\n{d.text}".encode()
            digest = sha256_hex(data)
            item_id = 1000 + k
            items.append({"id": item_id, "case_id": case_id, "kind": "document",
                          "title": d.title, "confidential": False, "version": 1,
                          "created": now, "updated": now})
            docs.append({"id": item_id, "doc_kind": "article", "status": "obtained",
                         "sha256": digest, "mime_type": "text/plain", "text": d.text,
                         "retrieved": date(2024, 1, 1), "filename": f"{k}.txt"})
            blobs.append({"sha256": digest, "size": len(data), "data": data})
            index.append(search.IndexRow(item_id, case_id, d.title, None, d.text))
            texts.append(d.text)
        s.execute(insert(Blob), blobs)
        s.execute(insert(Item.metadata.tables["items"]), items)
        s.execute(insert(Document.metadata.tables["documents"]), docs)
        search.index_rows(s, index, new=True)
        pool = names(rng)
        weights = [1.0 / (1 + i % 97) for i in range(len(pool))]
        rows = []
        for m in range(mentions):
            doc = rng.randrange(documents)
            kind, name, detail = pool[m] if m < len(pool) else rng.choices(pool, weights)[0]
            text = texts[doc]
            start = rng.randrange(0, max(1, len(text) - 40))
            end = start + min(len(name), 30)
            rows.append({"case_id": case_id, "document_id": 1000 + doc, "kind": kind,
                         "name": name, "start": start, "end": end, "text": text[start:end],
                         "role": synthetic.ROLES[m % 10] if kind == "person" and m % 7 == 0
                         else None,
                         "affiliation": synthetic.ORGS[m % 10] if kind == "person" and m % 11 == 3
                         else None,
                         "status": "suggested", "detail": detail, "created": now})
        s.execute(insert(Mention), rows)
    return ws, case_id
