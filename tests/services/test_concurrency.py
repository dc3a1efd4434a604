"""Two writers on one item: the second save of a stale item is refused, naming the item, and the
first save is what stays (SQLite and PostgreSQL)."""

from __future__ import annotations

import threading

import pytest

from casefile.errors import ConflictError
from casefile.services import items
from casefile.store import Person
from casefile.store import search as search_backend


def _person(workspace, case_id: int) -> int:
    with workspace.transaction() as s:
        return items.create_item(s, case_id, "person", "Omar Haddad", role="Clerk").id


def test_two_open_sessions_both_edit_and_save_second_gets_conflict(workspace, case_id) -> None:
    pid = _person(workspace, case_id)
    first = workspace.sessions()
    second = workspace.sessions()
    try:
        first.begin()
        second.begin()
        a = items.get_item(first, pid)
        b = items.get_item(second, pid)
        assert a.version == b.version
        items.update_item(first, pid, role="County Clerk")
        first.commit()
        with pytest.raises(ConflictError, match="Omar Haddad"):
            items.update_item(second, pid, role="Deputy Clerk", title="O. Haddad")
        second.rollback()
    finally:
        first.close()
        second.close()
    with workspace.transaction() as s:
        stored = s.get(Person, pid)
        assert (stored.role, stored.title) == ("County Clerk", "Omar Haddad")
        assert [h.item_id for h in search_backend.search(s, "County Clerk")] == [pid]
        assert search_backend.search(s, "Deputy") == []


def test_two_threads_save_the_same_loaded_version_one_wins(workspace, case_id) -> None:
    pid = _person(workspace, case_id)
    with workspace.transaction() as s:
        loaded = items.get_item(s, pid).version
    barrier = threading.Barrier(2)
    outcome: dict[str, object] = {}

    def save(role: str) -> None:
        # both start at once from the same loaded version; a write transaction waits for the
        # other's write lock (BEGIN IMMEDIATE), so they run one after the other
        barrier.wait(timeout=10)
        try:
            with workspace.transaction() as s:
                items.get_item(s, pid)
                items.update_item(s, pid, expected_version=loaded, role=role)
            outcome[role] = "saved"
        except ConflictError as exc:
            outcome[role] = exc

    threads = [threading.Thread(target=save, args=(r,)) for r in ("Chief Clerk", "Head Clerk")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    saved = [r for r, v in outcome.items() if v == "saved"]
    refused = [v for v in outcome.values() if isinstance(v, ConflictError)]
    assert len(saved) == 1 and len(refused) == 1, outcome
    assert "Omar Haddad" in str(refused[0])
    with workspace.transaction() as s:
        assert s.get(Person, pid).role == saved[0]
        assert s.get(Person, pid).version == loaded + 1
