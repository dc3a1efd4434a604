"""The sample case of ``casefile demo``, built from resources/demo through the ordinary services.

The article in resources/demo is written by the Casefile team and entirely fictional. The case
spec (demo-case.json) lists the people, organizations, places, events, questions and claims with
a quote from the article for each, which becomes a Passage linked as evidence. Follow-up due
dates are given relative to today (``due_in_days``) so the demo always has something due.
"""

from __future__ import annotations

import json
from datetime import date, timedelta
from importlib import resources
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from casefile.ingest import ingest_bytes
from casefile.services import cases, documents, evidence, items, passages, questions
from casefile.store import Case


def _spec() -> dict[str, Any]:
    text = (resources.files("casefile.resources") / "demo" / "demo-case.json").read_text("utf-8")
    return dict(json.loads(text))


def demo_title() -> str:
    """The title of the sample case."""
    return str(_spec()["case"]["title"])


def build_demo(session: Session, *, today: date | None = None) -> tuple[int, bool]:
    """Build the sample case if it is not there yet; returns ``(case_id, created)``."""
    spec = _spec()
    title = spec["case"]["title"]
    existing = session.scalar(select(Case.id).where(Case.title == title))
    if existing is not None:
        return existing, False
    today = today or date.today()
    case = cases.create_case(session, title, spec["case"]["summary"])
    d = spec["document"]
    raw = (resources.files("casefile.resources") / "demo" / d["file"]).read_bytes()
    ingested = ingest_bytes(raw, d["file"])
    ingested.outlet, ingested.author = d.get("outlet"), d.get("author")
    result = documents.store_document(
        session, case.id, raw, ingested, published=d["published"], title=d["title"],
        filename=d["file"], suggestions_follow=False,
    )
    doc_id = result.document_id
    ids: dict[str, int] = {}

    def cite(item_id: int, entry: dict[str, Any], relation: str = "supports") -> None:
        if entry.get("quote"):
            p = passages.add_passage_by_quote(session, doc_id, entry["quote"])
            evidence.link_evidence(session, item_id, passage_id=p.id,
                                   relation=entry.get("relation", relation))

    for o in spec["organizations"]:
        item = items.create_item(session, case.id, "organization", o["name"],
                                 org_kind=o.get("kind"), aliases=o.get("aliases", []))
        ids[o["name"]] = item.id
        cite(item.id, o, "mentions")
    for p in spec["people"]:
        item = items.create_item(
            session, case.id, "person", p["name"], role=p.get("role"),
            aliases=p.get("aliases", []), affiliation_id=ids.get(p.get("affiliation") or ""),
            confidential=p.get("confidential", False),
        )
        ids[p["name"]] = item.id
        cite(item.id, p)
    for pl in spec["places"]:
        item = items.create_item(session, case.id, "place", pl["name"])
        cite(item.id, pl, "mentions")
    for e in spec["events"]:
        item = items.create_item(session, case.id, "event", e["title"], date=e["date"],
                                 precision=e.get("precision", "day"))
        cite(item.id, e)
    for q in spec["questions"]:
        due = today + timedelta(days=q["due_in_days"]) if "due_in_days" in q else None
        item = questions.create_question(session, case.id, q["text"], kind=q["kind"], due=due,
                                         ask_id=ids.get(q.get("ask") or ""))
        cite(item.id, q, "context")
    for c in spec["claims"]:
        item = items.create_item(
            session, case.id, "claim", c["statement"][:200], statement=c["statement"],
            status=c["status"], attributed_to_id=ids.get(c.get("attributed_to") or ""),
            via_id=ids.get(c.get("via") or ""),
        )
        cite(item.id, c)
        if c.get("contradicted_by"):
            cite(item.id, {"quote": c["contradicted_by"]}, "contradicts")
    return case.id, True
