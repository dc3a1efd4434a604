"""Backups (issue 18): consistent while another connection writes, encrypted like the
workspace, rotated, and restored only after a check, the current state backed up first."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from casefile.errors import CasefileError
from casefile.services import backups, cases
from casefile.store import backups as store_backups
from casefile.store.encryption import SQLITE_HEADER
from casefile.store.workspace import open_workspace
from tests.e2e.crypt_helpers import leaks

PASS = "tide tables at dawn"


def _open(folder: Path, encrypted: bool):
    if encrypted:
        return open_workspace(folder, passphrase=PASS, encrypt=True)
    return open_workspace(folder)


def _titles(ws) -> list[str]:
    with ws.transaction() as s:
        return [c.title for c in cases.list_cases(s)]


@pytest.mark.parametrize("encrypted", [False, True], ids=["plain", "encrypted"])
def test_backups_taken_while_another_thread_writes_each_pass_the_check(
        tmp_path: Path, encrypted: bool) -> None:
    ws = _open(tmp_path / "ws", encrypted)
    stop = threading.Event()
    written: list[int] = []

    def writer() -> None:
        while not stop.is_set() and len(written) < 400:
            with ws.transaction() as s:
                cases.create_case(s, f"Quarrystone case {len(written)}")
            written.append(1)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        taken = [backups.backup_now(ws) for _ in range(4)]
    finally:
        stop.set()
        thread.join()
    try:
        assert written, "the writer never ran"
        assert len({b.id for b in taken}) == 4
        for b in taken:
            counts = store_backups.check_copy(b.path, PASS if encrypted else None)
            assert counts["cases"] <= len(written)
            assert (b.path.read_bytes()[:16] == SQLITE_HEADER) is not encrypted
        if encrypted:
            assert leaks(tmp_path / "ws", ("Quarrystone",)) == {}
    finally:
        ws.close()


@pytest.mark.parametrize("encrypted", [False, True], ids=["plain", "encrypted"])
def test_restore_gives_back_the_earlier_state_after_backing_up_the_current_one(
        tmp_path: Path, encrypted: bool) -> None:
    ws = _open(tmp_path / "ws", encrypted)
    try:
        with ws.transaction() as s:
            cases.create_case(s, "Harbor inquiry")
        earlier = backups.backup_now(ws)
        with ws.transaction() as s:
            cases.create_case(s, "Later case")
        done = backups.restore(ws, earlier.id)
        assert _titles(ws) == ["Harbor inquiry"]
        assert done.before.reason == "before-restore"
        assert done.tables["cases"] == 1
        backups.restore(ws, done.before.id)  # and back again
        assert sorted(_titles(ws)) == ["Harbor inquiry", "Later case"]
    finally:
        ws.close()


def test_a_damaged_backup_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    ws = open_workspace(tmp_path / "ws")
    try:
        with ws.transaction() as s:
            cases.create_case(s, "Harbor inquiry")
        made = backups.backup_now(ws)
        data = bytearray(made.path.read_bytes())
        data[100:4000] = b"\xff" * 3900
        made.path.write_bytes(bytes(data))
        with ws.transaction() as s:
            cases.create_case(s, "Later case")
        listed = len(backups.list_backups(ws))
        with pytest.raises(CasefileError, match=made.id):
            backups.restore(ws, made.id)
        assert sorted(_titles(ws)) == ["Harbor inquiry", "Later case"]
        assert len(backups.list_backups(ws)) == listed  # no before-restore copy either
        with pytest.raises(CasefileError, match="no backup"):
            backups.restore(ws, "20200101T000000-manual")
    finally:
        ws.close()


def test_rotation_keeps_the_last_ten_and_one_a_day_for_a_week(tmp_path: Path) -> None:
    db = tmp_path / "casefile.sqlite3"
    folder = tmp_path / "backups"
    folder.mkdir()
    now = datetime(2024, 5, 20, 12, 0)
    stamps = [now - timedelta(minutes=5 * i) for i in range(15)]  # today, every 5 minutes
    stamps += [now - timedelta(days=d, hours=h) for d in range(1, 10) for h in (1, 3)]
    for t in stamps:
        (folder / f"casefile-{t:%Y%m%dT%H%M%S%f}-auto.sqlite3").write_bytes(b"x")
    (folder / "casefile-20240101T000000-rev0006.sqlite3").write_bytes(b"x")
    store_backups.rotate(db, now)
    kept = store_backups.list_backups(db)
    auto = [b.taken for b in kept if b.reason == "auto"]
    assert auto[:10] == stamps[:10]
    # one a day for the 7 days before (their newest), none older than a week
    assert auto[10:] == [now - timedelta(days=d, hours=1) for d in range(1, 8)]
    assert [b.reason for b in kept if b.reason != "auto"] == ["rev0006"]


def test_a_backup_killed_midway_leaves_nothing_listed_and_its_leftover_goes(
        tmp_path: Path) -> None:
    import os
    import time

    ws = open_workspace(tmp_path / "ws")
    try:
        folder = tmp_path / "ws" / "backups"
        folder.mkdir()
        stale = folder / "casefile-20240101T000000000000-manual.sqlite3.partial"
        fresh = folder / "casefile-20240101T000001000000-open.sqlite3.partial"
        for path in (stale, fresh):
            path.write_bytes(b"half a database")
        hour_ago = time.time() - store_backups.STALE_PARTIAL_S - 60
        os.utime(stale, (hour_ago, hour_ago))
        assert backups.list_backups(ws) == []  # a half-written copy is no backup
        made = backups.backup_now(ws)
        assert [b.id for b in backups.list_backups(ws)] == [made.id]
        assert not stale.exists()
        assert fresh.exists()  # may be another process's backup being written now
    finally:
        ws.close()


def test_every_reason_reads_as_words() -> None:
    when = datetime(2024, 5, 20, 12, 0)
    why = {r: store_backups.Backup("x", Path("x"), when, r, 1).why
           for r in ("open", "periodic", "manual", "before-restore", "rev0006")}
    assert why == {"open": "on opening the window",
                   "periodic": "while working (every few minutes)",
                   "manual": "taken by hand (backup now)", "before-restore": "before a restore",
                   "rev0006": "before an upgrade (schema 0006)"}


class _Stop(Exception):
    """What a Cancel raises in the window (any exception does the same)."""


@pytest.mark.parametrize("encrypted", [False, True], ids=["plain", "encrypted"])
def test_a_restore_stopped_during_the_copy_changes_nothing(
        tmp_path: Path, encrypted: bool) -> None:
    ws = _open(tmp_path / "ws", encrypted)
    try:
        with ws.transaction() as s:
            for n in range(300):  # enough pages for the copy to take several steps
                cases.create_case(s, f"Earlier case {n} " + "tide table " * 40)
        earlier = backups.backup_now(ws)
        with ws.transaction() as s:
            cases.create_case(s, "Later case")
        told: list[int] = []

        def stop_midway(done: int, total: int) -> None:
            told.append(done)
            if 40 < done < total:
                raise _Stop

        with pytest.raises(_Stop):
            backups.restore(ws, earlier.id, progress=stop_midway)
        assert told[:2] == [20, 40] and 40 < told[-1] < 100
        assert "Later case" in _titles(ws) and len(_titles(ws)) == 301
        assert [b.reason for b in backups.list_backups(ws)] == ["before-restore", "manual"]
        with ws.transaction() as s:  # still writable afterwards
            cases.create_case(s, "Another case")
        done = backups.restore(ws, earlier.id, progress=lambda d, _t: told.append(d))
        assert told[-1] == 100 and done.tables["cases"] == 300
        assert "Later case" not in _titles(ws)
    finally:
        ws.close()
