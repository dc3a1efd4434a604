"""Case members (services.team): what each role gives a database user on a team workspace, the
table privileges that follow a membership, undo, and the refusals a user sees in one line. A
SQLite workspace is single-user: every member action is refused there in one line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import make_url

from casefile.errors import CasefileError, ConflictError, ValidationError
from casefile.services import case_actions, cases, item_actions, team, trash
from casefile.services.changes import run_step
from casefile.store import ChangeLog, Item
from casefile.store.teams import AccessRefusedError
from casefile.store.workspace import Workspace, open_workspace
from tests.conftest import PG_URL
from tests.e2e.cli_helpers import casefile
from tests.team_helpers import database_users, user_url


def test_a_workspace_folder_refuses_members_in_one_line(sqlite_workspace, tmp_path: Path):
    with sqlite_workspace.transaction() as s:
        case_id = cases.create_case(s, "Harbor dredging").id
    for act in (lambda s: team.add_member(s, case_id, "ann", "reader"),
                lambda s: team.remove_member(s, case_id, "ann"),
                lambda s: team.list_members(s)):
        with pytest.raises(team.NotATeamWorkspaceError) as refused, \
                sqlite_workspace.transaction() as s:
            act(s)
        assert "single-user" in str(refused.value) and "\n" not in str(refused.value)
    run = casefile(tmp_path / "ws", "team", "add", "ann", "--case", "Harbor dredging",
                   "--role", "reader", new_workspace=True)
    assert run.code == 1 and run.err.count("\n") == 1 and "single-user" in run.err


pytestmark_pg = [pytest.mark.postgres,
                 pytest.mark.skipif(not PG_URL, reason="CASEFILE_TEST_DB_URL not set")]


@pytest.fixture
def newsroom(pg_workspace_database: str) -> Iterator[tuple[str, dict[str, str], int]]:
    """A team workspace (its owner's URL), users owner/colleague, a case owned by owner."""
    with database_users("owner", "colleague") as users:
        ws = open_workspace(db_url=pg_workspace_database)
        try:
            with ws.transaction() as s:
                case_id = cases.create_case(s, "Harbor dredging").id
                item_actions.create(s, case_id, "person", "Board clerk")
                team.add_member(s, case_id, users["owner"], "owner")
        finally:
            ws.close()
        yield pg_workspace_database, users, case_id


def _as(admin: str, name: str) -> Workspace:
    return open_workspace(db_url=user_url(admin, name))


def _may(admin: str, name: str, privilege: str) -> bool:
    engine = create_engine(admin)
    try:
        with engine.connect() as conn:
            return bool(conn.scalar(text("SELECT has_table_privilege(:u, 'items', :p)"),
                                    {"u": name, "p": privilege}))
    finally:
        engine.dispose()


@pytest.mark.parametrize("_pg", [pytest.param(None, marks=pytestmark_pg)])
def test_each_role_gives_what_it_says_and_the_privileges_follow(newsroom, _pg):
    admin, users, case_id = newsroom
    me = users["colleague"]
    owner = _as(admin, users["owner"])
    try:
        assert not _may(admin, me, "SELECT")
        with owner.transaction() as s:
            added = team.add_member(s, case_id, me, "reader")
        assert added.value.role == "reader" and me in added.message
        assert _may(admin, me, "SELECT") and not _may(admin, me, "INSERT")

        colleague = _as(admin, me)
        try:
            with colleague.transaction(write=False) as s:
                assert [c.title for c in cases.list_cases(s)] == ["Harbor dredging"]
                assert team.my_role(s, case_id) == "reader"
            with pytest.raises(AccessRefusedError, match="only reads in this workspace"), \
                    colleague.transaction() as s:
                case_actions.rename(s, case_id, "Renamed")

            with owner.transaction() as s:
                team.add_member(s, case_id, me, "editor")
            assert _may(admin, me, "INSERT")
            with colleague.transaction() as s:
                case_actions.rename(s, case_id, "Harbor dredging, 2024")
                item_actions.create(s, case_id, "person", "Second clerk")
            # an editor changes the case, but deleting it or managing members needs an owner
            with pytest.raises(AccessRefusedError, match="is an editor of case"), \
                    colleague.transaction() as s:
                trash.delete_case(s, case_id)
            with pytest.raises(AccessRefusedError, match="is an editor of case"), \
                    colleague.transaction() as s:
                team.add_member(s, case_id, users["owner"], "reader")
            # a case of one's own: the user who creates it owns it
            with colleague.transaction() as s:
                own = cases.create_case(s, "Colleague's own story").id
                assert team.my_role(s, own) == "owner"
                assert [m.user for m in team.list_members(s, own)] == [me]
        finally:
            colleague.close()

        with owner.transaction() as s:
            removed = team.remove_member(s, case_id, me)
        assert removed.value.role == "editor"
        # still an owner of their own case: the privileges stay
        assert _may(admin, me, "INSERT")
        with owner.transaction() as s:  # undo puts them back, as an editor
            run_step(s, removed.undo)
            assert {m.user: m.role for m in team.list_members(s, case_id)}[me] == "editor"
            log = s.scalars(select(ChangeLog.actor).where(
                ChangeLog.action.in_(("team.add", "team.remove")),
                ChangeLog.case_id == case_id)).all()
        assert set(log) == {make_url(admin).username, users["owner"]}
    finally:
        owner.close()


@pytest.mark.parametrize("_pg", [pytest.param(None, marks=pytestmark_pg)])
def test_refusals_name_the_reason(newsroom, _pg):
    admin, users, case_id = newsroom
    owner = _as(admin, users["owner"])
    try:
        with pytest.raises(ValidationError, match="only owner"), owner.transaction() as s:
            team.remove_member(s, case_id, users["owner"])
        with pytest.raises(ValidationError, match="only owner"), owner.transaction() as s:
            team.add_member(s, case_id, users["owner"], "reader")
        with pytest.raises(ValidationError, match="no database user “nobody_here”"), \
                owner.transaction() as s:
            team.add_member(s, case_id, "nobody_here", "reader")
        with pytest.raises(ValidationError, match="reader, editor or owner"), \
                owner.transaction() as s:
            team.add_member(s, case_id, users["colleague"], "boss")
        with pytest.raises(CasefileError, match="not a member of case"), \
                owner.transaction() as s:
            team.remove_member(s, case_id, users["colleague"])
        with owner.transaction(write=False) as s:
            assert [(m.user, m.role) for m in team.list_members(s)] == [
                (users["owner"], "owner")]
            assert s.scalar(select(Item.title).where(Item.case_id == case_id)) == "Board clerk"
    finally:
        owner.close()
    # the colleague is in no case: one line, not an empty workspace
    with pytest.raises(CasefileError, match="not a member of any case") as refused:
        _as(admin, users["colleague"])
    assert users["colleague"] in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize("_pg", [pytest.param(None, marks=pytestmark_pg)])
def test_undo_keeps_a_membership_another_owner_changed_since(newsroom, _pg):
    admin, users, case_id = newsroom
    me = users["colleague"]
    window, other = _as(admin, users["owner"]), _as(admin, users["owner"])
    try:
        with window.transaction() as s:
            added = team.add_member(s, case_id, me, "reader")
        with other.transaction() as s:  # another owner's program makes them an editor
            team.add_member(s, case_id, me, "editor")
        with pytest.raises(ConflictError, match=(
                f"^The membership of {me} in case “Harbor dredging” was changed since "
                r"\(by another program\); nothing was undone$")), window.transaction() as s:
            run_step(s, added.undo)

        def role() -> str | None:
            with window.transaction(write=False) as s:
                return {m.user: m.role for m in team.list_members(s, case_id)}.get(me)

        assert role() == "editor" and _may(admin, me, "INSERT")
        # nobody in between: the undo takes the role back, and its redo checks again
        with window.transaction() as s:
            promoted = team.add_member(s, case_id, me, "owner")
        with window.transaction() as s:
            undone = run_step(s, promoted.undo)
        assert role() == "editor"
        with other.transaction() as s:
            team.remove_member(s, case_id, me)
        with pytest.raises(ConflictError, match="nothing was redone$"), \
                window.transaction() as s:
            run_step(s, undone.undo)
        assert role() is None
    finally:
        window.close()
        other.close()
