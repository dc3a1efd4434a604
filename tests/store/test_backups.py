"""Backups: consistent while another connection writes, encrypted like the
workspace, rotated, and restored only after a check, the current state backed up first."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from casefile.errors import CasefileError
from casefile.services import backups, cases
from casefile.store import backups as store_backups
from casefile.store.encryption import SQLITE_HEADER
from casefile.store.workspace import Workspace, open_workspace
from tests.e2e.crypt_helpers import leaks

PASS = "tide tables at dawn"


@pytest.fixture(params=[False, True], ids=["plain", "encrypted"])
def encrypted(request: pytest.FixtureRequest) -> bool:
    """Each test using it runs twice: on a plain workspace and on an encrypted one."""
    return request.param


@pytest.fixture
def ws(tmp_path: Path, encrypted: bool) -> Iterator[Workspace]:
    """A new workspace in ``tmp_path / "ws"``, encrypted with :data:`PASS` or not; closed
    after the test."""
    folder = tmp_path / "ws"
    workspace = (open_workspace(folder, passphrase=PASS, encrypt=True) if encrypted
                 else open_workspace(folder))
    yield workspace
    workspace.close()


def _titles(ws) -> list[str]:
    with ws.transaction() as s:
        return [c.title for c in cases.list_cases(s)]


def test_backups_taken_while_another_thread_writes_each_pass_the_check(
        tmp_path: Path, ws: Workspace, encrypted: bool) -> None:
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
    assert written, "the writer never ran"
    assert len({b.id for b in taken}) == 4
    for b in taken:
        counts = store_backups.check_copy(b.path, PASS if encrypted else None)
        assert counts["cases"] <= len(written)
        assert (b.path.read_bytes()[:16] == SQLITE_HEADER) is not encrypted
    if encrypted:
        assert leaks(tmp_path / "ws", ("Quarrystone",)) == {}


def test_restore_gives_back_the_earlier_state_after_backing_up_the_current_one(
        ws: Workspace) -> None:
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


def test_rotation_keeps_the_last_ten_one_a_day_for_two_weeks_and_one_a_week_for_eight(
        tmp_path: Path) -> None:
    import os
    import time

    db = tmp_path / "casefile.sqlite3"
    folder = tmp_path / "backups"
    folder.mkdir()
    now = datetime(2024, 5, 20, 12, 0)  # a Monday
    stamps = [now - timedelta(minutes=5 * i) for i in range(15)]  # today, every 5 minutes
    # two a day (11:00 and 09:00) on each of the 70 days before: ten weeks
    stamps += [now - timedelta(days=d, hours=h) for d in range(1, 71) for h in (1, 3)]
    for t in stamps:
        backup = folder / f"casefile-{t:%Y%m%dT%H%M%S%f}-periodic.sqlite3"
        backup.write_bytes(b"x")
        store_backups.checksum_path(backup).write_text("0" * 64 + f"  {backup.name}\n")
    (folder / "casefile-20240101T000000-rev0006.sqlite3").write_bytes(b"x")
    (folder / "casefile-20240102T000000000000-before-restore.sqlite3").write_bytes(b"x")
    orphan = folder / "casefile-20240103T000000000000-manual.sqlite3.sha256"
    orphan.write_text("0" * 64)
    old = time.time() - store_backups.STALE_PARTIAL_S - 60
    os.utime(orphan, (old, old))

    store_backups.rotate(db, now)
    kept = store_backups.list_backups(db)
    periodic = [b.taken for b in kept if b.reason == "periodic"]
    assert periodic[:10] == stamps[:10]  # the last ten
    # the newest of each day: today (among the ten) and the 13 days before
    assert periodic[10:23] == [now - timedelta(days=d, hours=1) for d in range(1, 14)]
    # then the newest (a Sunday's) of each week back to the eighth: weeks starting on
    # 29 Apr, 22 Apr, 15 Apr, 8 Apr and 1 Apr (13 and 6 May have their days kept already)
    assert periodic[23:] == [datetime(2024, m, d, 11, 0)
                             for m, d in ((5, 5), (4, 28), (4, 21), (4, 14), (4, 7))]
    assert sorted(b.reason for b in kept if b.reason != "periodic") == [
        "before-restore", "rev0006"]
    # each kept backup keeps its checksum file; those rotated away take theirs along
    sums = sorted(p.name for p in folder.glob("*.sha256"))
    assert sums == sorted(b.path.name + ".sha256" for b in kept if b.reason == "periodic")
    store_backups.rotate(db, now + timedelta(days=1))  # the next day: today's go to one
    next_day = [b.taken for b in store_backups.list_backups(db) if b.reason == "periodic"]
    assert next_day[:11] == stamps[:10] + [now - timedelta(days=1, hours=1)]


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


def test_a_restore_stopped_during_the_copy_changes_nothing(ws: Workspace) -> None:
    with ws.transaction() as s:
        for n in range(300):  # enough pages for the copy to take several steps
            cases.create_case(s, f"Earlier case {n} " + "tide table " * 25)
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


def _alter_one_byte(path: Path, inside: bytes | None = None) -> None:
    """Change one byte of the file ``path``: the first byte of ``inside`` (a value stored in
    it, so the database stays well-formed) or, without it, one in the middle."""
    data = bytearray(path.read_bytes())
    at = data.index(inside) if inside is not None else len(data) // 2
    data[at] ^= 0x01
    path.write_bytes(bytes(data))


def test_a_backup_with_one_altered_byte_is_refused_first_and_nothing_changes(
        ws: Workspace, encrypted: bool) -> None:
    with ws.transaction() as s:
        cases.create_case(s, "Harbor inquiry", "Dredging permits signed in March")
    made = backups.backup_now(ws)
    # plain: one letter of the summary, which the integrity check alone does not notice
    _alter_one_byte(made.path, None if encrypted else b"Dredging permits")
    if not encrypted:
        assert store_backups.check_copy(made.path, None)["cases"] == 1
    with ws.transaction() as s:
        cases.create_case(s, "Later case")
    before = sorted(p.name for p in made.path.parent.iterdir())
    with pytest.raises(CasefileError) as refused:
        backups.restore(ws, made.id)
    assert str(refused.value) == (f"backup {made.id} is damaged: its checksum does not "
                                  "match; nothing was changed")
    assert sorted(_titles(ws)) == ["Harbor inquiry", "Later case"]
    assert sorted(p.name for p in made.path.parent.iterdir()) == before  # no copy taken


def test_each_backup_records_its_sha256_in_the_format_of_sha256sum(tmp_path: Path) -> None:
    import hashlib

    ws = open_workspace(tmp_path / "ws")
    try:
        made = backups.backup_now(ws)
    finally:
        ws.close()
    line = made.checksum_path.read_text(encoding="ascii")
    assert made.checksum_path.name == made.path.name + ".sha256"
    assert line == f"{hashlib.sha256(made.path.read_bytes()).hexdigest()}  {made.path.name}\n"
    assert [p.name for p in made.path.parent.iterdir() if p.name.endswith(".partial")] == []


def test_a_backup_without_a_recorded_checksum_is_restored_after_its_check_with_a_note(
        tmp_path: Path) -> None:
    ws = open_workspace(tmp_path / "ws")
    try:
        with ws.transaction() as s:
            cases.create_case(s, "Harbor inquiry")
        older = backups.backup_now(ws)
        older.checksum_path.unlink()  # as an older Casefile left it
        with ws.transaction() as s:
            cases.create_case(s, "Later case")
        done = backups.restore(ws, older.id)
        assert _titles(ws) == ["Harbor inquiry"]
        assert done.note == (f"backup {older.id} has no recorded checksum (made by an older "
                             "Casefile or before an upgrade); it passed its integrity check")
        assert done.before.checksum_path.is_file()
        assert backups.restore(ws, done.before.id).note is None
        # without a checksum, damage is still caught by the integrity check
        data = bytearray(older.path.read_bytes())
        data[100:4000] = b"\xff" * 3900
        older.path.write_bytes(bytes(data))
        with pytest.raises(CasefileError, match=older.id):
            backups.restore(ws, older.id)
    finally:
        ws.close()


def test_backups_encrypted_or_re_keyed_with_their_workspace_stay_restorable(
        tmp_path: Path) -> None:
    from casefile.services import encryption

    folder = tmp_path / "ws"
    ws = open_workspace(folder)
    with ws.transaction() as s:
        cases.create_case(s, "Harbor inquiry")
    made = backups.backup_now(ws)
    ws.close()
    encryption.encrypt_workspace(folder, PASS)
    assert made.path.read_bytes()[:16] != SQLITE_HEADER
    new = "gulls over the breakwater"
    encryption.change_workspace_passphrase(folder, PASS, new)
    ws = open_workspace(folder, passphrase=new)
    try:
        with ws.transaction() as s:
            cases.create_case(s, "Later case")
        done = backups.restore(ws, made.id)
        assert done.note is None
        assert _titles(ws) == ["Harbor inquiry"]
    finally:
        ws.close()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
@pytest.mark.parametrize("kind", ["fifo", "device", "huge"])
def test_a_checksum_file_that_is_no_small_plain_file_is_refused_without_reading_it(
        tmp_path: Path, kind: str) -> None:
    ws = open_workspace(tmp_path / "ws")
    try:
        made = backups.backup_now(ws)
        made.checksum_path.unlink()
        if kind == "fifo":  # reading it would wait forever for a writer
            os.mkfifo(made.checksum_path)
        elif kind == "device":  # reading it would never end
            made.checksum_path.symlink_to("/dev/zero")
        else:
            made.checksum_path.write_bytes(b"0" * 10_000_000)
        with pytest.raises(CasefileError) as refused:
            backups.restore(ws, made.id)
        assert str(refused.value) == (f"backup {made.id} cannot be checked: its checksum file "
                                      f"{made.checksum_path.name} is not a small plain file; "
                                      "nothing was changed")
    finally:
        ws.close()


def test_an_automatic_backup_of_an_unchanged_workspace_keeps_the_older_states(
        tmp_path: Path) -> None:
    """Opening and quitting without changes must not push older states out of rotation: an
    automatic backup with the newest backup's bytes is not kept twice; one after a change is;
    a backup asked for by hand always is."""
    ws = open_workspace(tmp_path / "ws")
    try:
        first = backups.backup_now(ws, "open")
        for _ in range(store_backups.KEEP_LAST + 2):  # a dozen opens with nothing done
            again = backups.backup_now(ws, "open")
            assert again.path == first.path
        with ws.transaction() as s:
            cases.create_case(s, "Harbor fire")
        changed = backups.backup_now(ws, "periodic")
        manual = backups.backup_now(ws, "manual")
    finally:
        ws.close()
    listed = [b.path for b in store_backups.list_backups(tmp_path / "ws" / "casefile.sqlite3")]
    assert set(listed) == {first.path, changed.path, manual.path}
    assert changed.path != first.path and manual.path != changed.path
    assert sorted(p.name for p in first.path.parent.iterdir()) == sorted(
        [*(p.name for p in listed), *(p.name + ".sha256" for p in listed)])
