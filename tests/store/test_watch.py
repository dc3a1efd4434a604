"""Seeing other processes' commits (CommitWatch) and other open windows (Presence)."""

from __future__ import annotations

import json
import os
import time

from casefile.services import cases, items
from casefile.store.watch import STALE_AFTER, CommitWatch, Presence
from casefile.store.workspace import open_workspace


def _person(ws, case_id: int, name: str) -> int:
    with ws.transaction() as s:
        return items.create_item(s, case_id, "person", name).id


def test_a_commit_through_another_workspace_is_seen_within_one_poll(workspace, case_id):
    other = open_workspace(db_url=workspace.url)  # a second window: its own engine
    try:
        watch = CommitWatch(workspace)
        assert watch.poll() is None  # nothing since it started
        person = _person(other, case_id, "Ana Ortiz")
        seen = watch.poll()
        assert seen is not None
        assert seen.cases == {case_id} and seen.present == {person} and not seen.gone
        assert watch.poll() is None  # seen once
        with other.transaction() as s:
            items.delete_item(s, person)
        gone = watch.poll()
        assert gone is not None and gone.gone == {person}
        watch.close()
    finally:
        other.close()


def test_own_commits_are_not_reported_but_mixed_ones_are(workspace, case_id):
    other = open_workspace(db_url=workspace.url)
    try:
        watch = CommitWatch(workspace)
        _person(workspace, case_id, "Ana Ortiz")
        _person(workspace, case_id, "Ben Cole")
        assert watch.poll() is None  # this window already refreshed from its own Changes
        _person(workspace, case_id, "Cy Dunn")
        _person(other, case_id, "Di Eng")
        mixed = watch.poll()
        assert mixed is not None and len(mixed.present) == 2
        with workspace.transaction() as s:  # a rolled-back action counts for nothing
            items.create_item(s, case_id, "person", "Ed Fox")
            s.rollback()
        assert watch.poll() is None
        watch.close()
    finally:
        other.close()


def test_a_new_case_in_another_workspace_object_is_seen(workspace):
    other = open_workspace(db_url=workspace.url)
    try:
        watch = CommitWatch(workspace)
        with other.transaction() as s:
            made = cases.create_case(s, "Harbor audit").id
        seen = watch.poll()
        assert seen is not None and made in seen.cases
    finally:
        other.close()


def test_presence_sees_another_live_window_and_ignores_stale_ones(sqlite_workspace):
    mine, theirs = Presence(sqlite_workspace), Presence(sqlite_workspace)
    assert mine.others() == []
    mine.announce()
    assert mine.others() == []  # its own mark is not another window
    theirs.announce()
    (record,) = mine.others()
    assert record["pid"] == os.getpid()
    assert theirs.path is not None
    old = time.time() - STALE_AFTER - 5  # a window that stopped refreshing its mark
    os.utime(theirs.path, (old, old))
    assert mine.others() == []
    assert not theirs.path.exists()  # stale marks are cleared away
    theirs.announce()
    theirs.withdraw()
    assert mine.others() == []


def test_a_mark_left_by_a_crashed_process_is_ignored(sqlite_workspace):
    mine = Presence(sqlite_workspace)
    mine.announce()
    assert mine.folder is not None
    dead = mine.folder / "crashed.json"
    pid = 2 ** 22 + 12345  # above Linux's pid_max: no such process
    dead.write_text(json.dumps({"host": mine.host, "pid": pid, "since": time.time()}))
    assert mine.others() == []
    assert not dead.exists()
