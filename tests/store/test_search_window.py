"""A query matching at least ``RANK_WINDOW`` items is shown newest first, not ranked by relevance
(store.search.running, "Ranking and cost"); with fewer matches every match is ranked; a case filter
counts only the case's matches. Same on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from casefile.ingest.types import Ingested
from casefile.services import cases
from casefile.services.documents import store_document
from casefile.store import search
from casefile.store.search import running


def _add(ws, case_id: int, bodies: list[str], title: str = "Note") -> list[int]:
    with ws.transaction() as s:
        return [store_document(s, case_id, f"{title} {n} {b}".encode(), Ingested(
            text=b, mime_type="text/plain", title=f"{title} {n}")).document_id
            for n, b in enumerate(bodies)]


def test_many_matches_come_newest_first(workspace, case_id,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    older = _add(workspace, case_id, ["ledger ledger ledger ledger"] * 3)
    [titled] = _add(workspace, case_id, ["about the harbour"], title="Ledger audit")
    newer = _add(workspace, case_id, ["a ledger among many other words here"] * 2)
    with workspace.transaction() as s:
        other = cases.create_case(s, "Other").id
    elsewhere = _add(workspace, other, ["ledger in another case"] * 4)
    monkeypatch.setattr(running, "RANK_WINDOW", 3)
    with workspace.transaction() as s:
        in_case = [h.item_id for h in search.search(s, "ledger", case_id=case_id, limit=4)]
        everywhere = [h.item_id for h in search.search(s, "ledger -harbour", limit=4)]
        rare = {h.item_id for h in search.search(s, "among OR harbour")}
        hit = search.search(s, "ledger", case_id=other, limit=1)[0]
    assert in_case == [*reversed(newer), titled, older[-1]]  # not ranked: newest first
    assert everywhere == list(reversed(elsewhere))
    assert rare == {titled, *newer}
    assert hit.item_id == elsewhere[-1] and hit.snippet == "[ledger] in another case"
    monkeypatch.setattr(running, "RANK_WINDOW", 2000)  # ranked: all found, best first
    with workspace.transaction() as s:
        ranked = [h.item_id for h in search.search(s, "ledger", case_id=case_id)]
    assert set(ranked) == {titled, *older, *newer} and ranked[0] == titled
