"""Revision 0011 (case members, row-level security; PostgreSQL only). A 0010 team workspace that a
colleague used the old way (every table granted) upgrades with its cases intact, and from then
on the colleague, a member of no case, is told so in one line instead of seeing every case;
downgrading takes members, policies and functions away again. On SQLite it changes nothing:
the change log still names the OS user."""

from __future__ import annotations

import getpass
from datetime import datetime
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, inspect, text

from casefile.errors import CasefileError
from casefile.services import cases
from casefile.store import workspace as wsmod
from casefile.store.teams import NotAMemberError
from tests.conftest import PG_URL
from tests.team_helpers import database_users, user_url

pg = [pytest.mark.postgres, pytest.mark.skipif(not PG_URL, reason="CASEFILE_TEST_DB_URL not set")]


def _migrate(url: str, to: str, down: bool = False) -> None:
    cfg = wsmod.alembic_config(url)
    engine = wsmod.make_engine(url)
    try:
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            (command.downgrade if down else command.upgrade)(cfg, to)
    finally:
        engine.dispose()


def _secured(url: str) -> dict[str, bool]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return dict(conn.execute(text(
                "SELECT relname, relrowsecurity FROM pg_class c JOIN pg_namespace n "
                "ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND relkind = 'r'")).all())
    finally:
        engine.dispose()


@pytest.mark.parametrize("_pg", [pytest.param(None, marks=pg)])
def test_a_0010_team_workspace_upgrades_and_its_old_users_see_nothing(pg_database: str, _pg):
    _migrate(pg_database, "0010")
    engine = create_engine(pg_database)
    with database_users("colleague") as users:
        try:
            with engine.begin() as conn:
                conn.execute(text("INSERT INTO cases (title, created, updated) VALUES "
                                  "('Harbor dredging', :t, :t), ('Parks budget', :t, :t)"),
                             {"t": datetime(2024, 5, 3)})
                conn.execute(text(f'GRANT ALL ON ALL TABLES IN SCHEMA public TO '
                                  f'"{users["colleague"]}"'))
        finally:
            engine.dispose()
        colleague = user_url(pg_database, users["colleague"])
        _owner_must_upgrade(colleague)
        ws = wsmod.open_workspace(db_url=pg_database)  # the owner upgrades it
        try:
            with ws.transaction(write=False) as s:
                assert [c.title for c in cases.list_cases(s)] == ["Harbor dredging",
                                                                 "Parks budget"]
        finally:
            ws.close()
        assert all(_secured(pg_database)[t] for t in ("items", "cases", "change_log", "blobs"))
        with pytest.raises(NotAMemberError):
            wsmod.open_workspace(db_url=colleague)
        engine = create_engine(colleague)
        try:
            with engine.connect() as conn:  # the old grants: still no row of any case
                assert conn.execute(text("SELECT * FROM cases")).all() == []
        finally:
            engine.dispose()

        _migrate(pg_database, "0010", down=True)
        engine = create_engine(pg_database)
        try:
            assert "case_members" not in inspect(engine).get_table_names()
        finally:
            engine.dispose()
        assert not any(_secured(pg_database).values())
        engine = create_engine(colleague)
        try:
            with engine.connect() as conn:  # 0010 again: no policies
                assert len(conn.execute(text("SELECT * FROM cases")).all()) == 2
        finally:
            engine.dispose()
        _owner_must_upgrade(colleague)
        _migrate(pg_database, "head")  # and up again
        assert _secured(pg_database)["items"]
        with pytest.raises(NotAMemberError):
            wsmod.open_workspace(db_url=colleague)


def _owner_must_upgrade(url: str) -> None:
    with pytest.raises(CasefileError) as refused:
        wsmod.open_workspace(db_url=url)
    said = str(refused.value)
    assert "older schema (0010)" in said and "owner" in said and "\n" not in said


def test_a_workspace_folder_has_no_members_and_logs_the_os_user(tmp_path: Path):
    ws = wsmod.open_workspace(tmp_path / "ws")
    try:
        assert "case_members" not in wsmod.table_names(ws.engine)
        with ws.transaction() as s:
            cases.create_case(s, "Harbor dredging")
        with ws.engine.connect() as conn:
            actor = conn.scalar(text("SELECT actor FROM change_log"))
    finally:
        ws.close()
    assert actor == getpass.getuser()
