"""Copies of one story in a case, for the reporter to see (``casefile duplicates``, the
window's Copies list): clusters of documents that share an origin
(:mod:`casefile.services.copies`: most of one's text in the other, boilerplate aside).

A claim's corroboration counts these clusters, not documents (:mod:`casefile.services.claims`,
rule 6). Reads only.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from casefile.services.copies import case_copy_pairs, copy_clusters, wire_of
from casefile.store import Document


@dataclass(frozen=True)
class CopyCluster:
    """Documents that are copies of one story: ``document_ids`` and ``titles`` (in id order),
    ``reasons`` why they were joined (each once, e.g. "same text (92% shared)" — the lowest
    share among the pairs), ``wire`` the wire service all of them credit,
    if any, and ``label`` one line for people ("5 copies of one AP story")."""

    document_ids: tuple[int, ...]
    titles: tuple[str, ...]
    reasons: tuple[str, ...]
    wire: str | None

    @property
    def label(self) -> str:
        what = f"one {self.wire} story" if self.wire else "one story"
        return f"{len(self.document_ids)} copies of {what}"

    def as_json(self) -> dict[str, object]:
        """``{"label", "document_ids", "titles", "reasons", "wire"}``."""
        return {"label": self.label, "document_ids": list(self.document_ids),
                "titles": list(self.titles), "reasons": list(self.reasons), "wire": self.wire}


def case_duplicates(session: Session, case_id: int) -> list[CopyCluster]:
    """The clusters of copies among the case's documents, largest first (a document in none
    is its own origin). Reads only; raises nothing for a case without documents."""
    rows = session.execute(
        select(Document.id, Document.title, Document.text).where(Document.case_id == case_id)
    ).all()
    texts = {r.id: r.text or "" for r in rows}
    titles = {r.id: r.title for r in rows}
    pairs = case_copy_pairs(texts)
    out: list[CopyCluster] = []
    for ids in copy_clusters(texts, pairs):
        members = set(ids)
        reasons: list[str] = []
        shares = [p.reason for p in pairs if p.first in members and p.reason.startswith(
            "same text")]
        if shares:
            reasons.append(min(shares, key=lambda r: int(r.split("(")[1].split("%")[0])))
        reasons += sorted({p.reason for p in pairs if p.first in members
                           and not p.reason.startswith("same text")})
        wires = {wire_of(texts[i]) for i in ids}
        wire = wires.pop() if len(wires) == 1 else None
        out.append(CopyCluster(tuple(ids), tuple(titles[i] for i in ids), tuple(reasons), wire))
    return out
