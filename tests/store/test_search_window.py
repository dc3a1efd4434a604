"""Only the newest ``RANK_WINDOW`` matches of a query are ranked (store.search, "Ranking and
cost"): with more matches the hits come from the newest ones; with fewer, every match is found;
a case filter counts only the case's matches. Same on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from casefile.ingest.types import Ingested
from casefile.services import cases
from casefile.services.documents import store_document
from casefile.store import search


def _add(ws, case_id: int, bodies: list[str]) -> list[int]:
    with ws.transaction() as s:
        return [store_document(s, case_id, f"{n} {b}".encode(), Ingested(
            text=b, mime_type="text/plain", title=f"Note {n}")).document_id
            for n, b in enumerate(bodies)]


def test_only_the_newest_matches_are_ranked(workspace, case_id,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    older = _add(workspace, case_id, ["ledger ledger ledger ledger"] * 3)
    newer = _add(workspace, case_id, ["a ledger among many other words here"] * 3)
    with workspace.transaction() as s:
        other = cases.create_case(s, "Other").id
    _add(workspace, other, ["ledger in another case"] * 4)
    monkeypatch.setattr(search, "RANK_WINDOW", 3)
    with workspace.transaction() as s:
        in_case = {h.item_id for h in search.search(s, "ledger", case_id=case_id)}
        everywhere = [h.item_id for h in search.search(s, "ledger")]
        rare = {h.item_id for h in search.search(s, "among")}
    assert in_case == set(newer)  # the better-ranked older ones are outside the window
    assert len(everywhere) == 3 and not set(everywhere) & set(older + newer)
    assert rare == set(newer)
    monkeypatch.setattr(search, "RANK_WINDOW", 2000)
    with workspace.transaction() as s:
        assert {h.item_id for h in search.search(s, "ledger", case_id=case_id)} == set(
            older + newer)
