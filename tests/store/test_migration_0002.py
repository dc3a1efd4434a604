"""Revision 0002 (follow-up status history, calendar UIDs) upgrades a 0001 workspace that
already holds follow-ups: each keeps its data, gets a UID and a first history entry."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from casefile.services import questions
from casefile.store import workspace as wsmod
from tests.conftest import BACKENDS
from tests.store.old_rows import upgrade_to

ROWS = [
    # id, title, status, status_changed, created
    (1, "Coral Springs police report", "waiting", datetime(2018, 2, 27, 9, 30),
     datetime(2018, 2, 23, 12, 0)),
    (2, "Was the shooter still inside?", "open", None, datetime(2018, 2, 24, 8, 0)),
]


def _fill_0001(url: str) -> None:
    engine = wsmod.make_engine(url)
    try:
        upgrade_to(engine, "0001")
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO cases (id, title, created, updated) "
                              "VALUES (1, 'Parkland', :t, :t)"), {"t": datetime(2018, 2, 23)})
            for qid, title, status, changed, created in ROWS:
                conn.execute(text(
                    "INSERT INTO items (id, case_id, kind, title, confidential, created, updated,"
                    " version) VALUES (:id, 1, 'question', :title, false, :c, :c, 1)"),
                    {"id": qid, "title": title, "c": created})
                conn.execute(text(
                    "INSERT INTO questions (id, question_kind, status, status_changed, due) "
                    "VALUES (:id, 'question', :status, :changed, :due)"),
                    {"id": qid, "status": status, "changed": changed,
                     "due": date(2018, 3, 2) if qid == 1 else None})
    finally:
        engine.dispose()


@pytest.mark.parametrize("backend", BACKENDS)
def test_0001_workspace_with_followups_upgrades(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if backend == "sqlite":
        folder = tmp_path / "ws"
        url = wsmod.sqlite_url(folder)
    else:
        url = request.getfixturevalue("pg_database")
    _fill_0001(url)

    ws = wsmod.open_workspace(db_url=url)
    try:
        if backend == "sqlite":
            assert ws.backup_path is not None and "rev0001" in ws.backup_path.name
        with ws.engine.connect() as conn:
            assert wsmod.current_revision(ws.engine) == wsmod.head_revision()
            uids = conn.execute(text("SELECT uid FROM questions ORDER BY id")).scalars().all()
        assert len(set(uids)) == 2 and all(len(u) == 36 for u in uids)
        with ws.transaction() as s:
            listed = questions.followups(s, 1, today=date(2018, 3, 5), include_closed=True)
            assert [(f.text, f.status, f.due, f.overdue, f.status_since) for f in listed] == [
                ("Coral Springs police report", "waiting", "2018-03-02", True, "2018-02-27"),
                ("Was the shooter still inside?", "open", None, False, "2018-02-24"),
            ]
            assert [f.uid for f in listed] == uids
            history = questions.status_history(s, 1)
            assert [(h.previous, h.status, h.on) for h in history] == [
                (None, "waiting", "2018-02-27")]
            questions.set_status(s, 1, "answered", answer="Report released.",
                                 answered_on="2018-03-05")
        with ws.transaction() as s:
            assert [(h.previous, h.status, h.on) for h in questions.status_history(s, 1)] == [
                (None, "waiting", "2018-02-27"), ("waiting", "answered", "2018-03-05")]
    finally:
        ws.close()


def test_downgrade_to_0001_and_back(tmp_path: Path) -> None:
    url = wsmod.sqlite_url(tmp_path / "ws")
    _fill_0001(url)
    wsmod.open_workspace(db_url=url).close()
    engine = create_engine(url)
    try:
        upgrade_to(engine, "0001", down=True)
        with engine.connect() as conn:
            cols = [r[1] for r in conn.execute(text("PRAGMA table_info(questions)"))]
            assert "uid" not in cols
            assert conn.execute(text("SELECT count(*) FROM questions")).scalar() == 2
    finally:
        engine.dispose()
    ws = wsmod.open_workspace(db_url=url)
    ws.close()
