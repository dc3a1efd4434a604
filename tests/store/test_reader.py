"""Workspace.reading(): plain SQL without a session gives the same search answers, sees only
committed data, keeps nothing it wrote, and works again after a failed statement."""

from __future__ import annotations

import pytest

from casefile.services import cases
from casefile.services.search import search_workspace
from casefile.store import search
from tests.store.helpers import add_documents


def _summary(hits: list[search.SearchHit]) -> list[tuple[int, str, str, tuple]]:
    return [(h.item_id, h.title, h.text, h.highlights) for h in hits]


def test_search_through_a_reader_answers_as_through_a_session(workspace, case_id) -> None:
    ids = add_documents(workspace, case_id, {
        "Harbor memo": "Councillor O’Brien sent an e-mail about the Łódź contract.",
        "Audit": "The auditors reaudited the harbor contract.",
    })
    for query in ("contract", "O'Brien e-mail", "lodz", "audit*", "harbor -memo", "nothing"):
        with workspace.transaction() as s:
            by_session = search.search(s, query)
            by_session_ws = search_workspace(s, query, case_id)
        with workspace.reading() as r:
            by_reader = search.search(r, query)
            by_reader_ws = search_workspace(r, query, case_id)
        assert _summary(by_reader) == _summary(by_session), query
        assert by_reader_ws == by_session_ws, query
    with workspace.reading() as r:
        [hit] = search_workspace(r, "Łódź", case_id).hits
    assert hit.item_id == ids["Harbor memo"] and hit.case_title == "Test case"
    assert hit.match is not None and hit.match[1] - hit.match[0] == len("Łódź")


def test_a_reader_sees_committed_data_only_and_keeps_nothing(workspace, case_id) -> None:
    def titles() -> set[str]:
        with workspace.reading() as r:
            return {t for (t,) in r.run("SELECT title FROM cases", {})}

    assert titles() == {"Test case"}
    with workspace.transaction() as s:
        cases.create_case(s, "Second")
        s.flush()
        assert titles() == {"Test case"}  # not committed yet
    assert titles() == {"Test case", "Second"}
    with workspace.reading() as r:
        r.run("UPDATE cases SET title = 'Changed' WHERE title = 'Second' RETURNING id", {})
        assert "Changed" in {t for (t,) in r.run("SELECT title FROM cases", {})}
    assert titles() == {"Test case", "Second"}  # rolled back at the end


def test_reading_works_again_after_a_failed_statement(workspace, case_id) -> None:
    for _ in range(8):  # more than the pool keeps open
        with pytest.raises(Exception, match="no_such_table"), workspace.reading() as r:
            r.run("SELECT * FROM no_such_table", {})
    with workspace.reading() as r:
        assert r.run("SELECT count(*) FROM cases WHERE id = :id", {"id": case_id}) == [(1,)]
    assert workspace.engine.pool.checkedout() == 0


def test_a_reader_refuses_to_run_after_its_block(workspace, case_id) -> None:
    with workspace.reading() as r:
        assert r.run("SELECT count(*) FROM cases", {}) == [(1,)]
    with pytest.raises(RuntimeError, match="has ended"):
        r.run("SELECT count(*) FROM cases", {})
    with workspace.transaction() as s:  # the pooled connection is clean for the next user
        assert search_workspace(s, "anything", case_id).hits == ()


def test_search_through_a_session_sees_its_unflushed_changes(workspace, case_id) -> None:
    add_documents(workspace, case_id, {"Harbor memo": "The harbor contract."})
    with workspace.transaction() as s:
        cases.get_case(s, case_id).title = "Renamed"  # not flushed yet
        [hit] = search_workspace(s, "harbor", case_id).hits
    assert hit.case_title == "Renamed"
