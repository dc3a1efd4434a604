"""Case ▸ Members… in the window: on a team workspace (PostgreSQL) the owner of a case adds a
database user, changes their role and removes them, and the database's memberships follow; a
reader sees the list but cannot change it (the server's refusal is shown); a database user in no
case gets one line instead of an empty window. On a SQLite workspace the menu says it is
single-user."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from sqlalchemy import create_engine, text

from casefile.services import cases, team
from casefile.store.workspace import open_workspace
from tests.conftest import PG_URL
from tests.team_helpers import database_users, user_url

needs_pg = [pytest.mark.postgres,
            pytest.mark.skipif(not PG_URL, reason="CASEFILE_TEST_DB_URL not set")]


def _members(db_url: str) -> dict[str, str]:
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            return dict(conn.execute(text("SELECT member, role FROM case_members")).all())
    finally:
        engine.dispose()


def _shown(dialog) -> dict[str, str]:
    return {dialog.table.item(r, 0).text(): dialog.table.item(r, 1).text()
            for r in range(dialog.table.rowCount())}


@pytest.fixture
def newsroom(pg_workspace_database: str) -> Iterator[tuple[str, dict[str, str], int]]:
    """A team workspace (its owner's URL), three database users (owner, colleague, intern)
    and a case owned by ``owner``."""
    with database_users("owner", "colleague", "intern") as users:
        ws = open_workspace(db_url=pg_workspace_database)
        try:
            with ws.transaction() as s:
                case_id = cases.create_case(s, "Harbor dredging").id
                team.add_member(s, case_id, users["owner"], "owner")
        finally:
            ws.close()
        yield pg_workspace_database, users, case_id


@pytest.mark.parametrize("_pg", [pytest.param(None, marks=needs_pg)])
def test_an_owner_adds_changes_and_removes_a_member(make_window, qtbot, newsroom, _pg):
    admin, users, case_id = newsroom
    ws = open_workspace(db_url=user_url(admin, users["owner"]))
    try:
        window = make_window(case_id, workspace=ws)
        window.case_menu.members_action.trigger()
        dialog = window.case_menu.members.dialog
        assert dialog is not None and dialog.isVisible()
        assert _shown(dialog) == {users["owner"]: "owner"}

        qtbot.keyClicks(dialog.user_edit, users["colleague"])
        dialog.role_box.setCurrentText("reader")
        qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
        assert _shown(dialog) == {users["owner"]: "owner", users["colleague"]: "reader"}
        assert _members(admin) == {users["owner"]: "owner", users["colleague"]: "reader"}
        assert users["colleague"] in window.statusBar().currentMessage()

        row = next(r for r in range(dialog.table.rowCount())
                   if dialog.table.item(r, 0).text() == users["colleague"])
        dialog.table.selectRow(row)
        assert dialog.user_edit.text() == users["colleague"]
        dialog.role_box.setCurrentText("editor")
        qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
        assert _members(admin)[users["colleague"]] == "editor"

        dialog.table.selectRow(row)
        qtbot.mouseClick(dialog.remove_button, Qt.MouseButton.LeftButton)
        assert _shown(dialog) == {users["owner"]: "owner"}
        assert _members(admin) == {users["owner"]: "owner"}
    finally:
        ws.close()


@pytest.mark.parametrize("_pg", [pytest.param(None, marks=needs_pg)])
def test_a_reader_sees_the_members_but_cannot_change_them(make_window, newsroom, _pg):
    admin, users, case_id = newsroom
    ws = open_workspace(db_url=user_url(admin, users["owner"]))
    try:
        with ws.transaction() as s:
            team.add_member(s, case_id, users["colleague"], "reader")
    finally:
        ws.close()
    ws = open_workspace(db_url=user_url(admin, users["colleague"]))
    try:
        window = make_window(case_id, workspace=ws)
        window.case_menu.members_action.trigger()
        dialog = window.case_menu.members.dialog
        assert _shown(dialog) == {users["owner"]: "owner", users["colleague"]: "reader"}
        assert not dialog.add_button.isEnabled() and not dialog.remove_button.isEnabled()
        assert not dialog.user_edit.isEnabled()
        # asked anyway (a stale dialog): the server refuses, in its own words
        assert window.case_menu.members.add(users["intern"], "reader") is False
        said = window.statusBar().currentMessage()
        assert "a reader" in said and "Harbor dredging" in said and "\n" not in said
        assert _members(admin) == {users["owner"]: "owner", users["colleague"]: "reader"}
    finally:
        ws.close()


@pytest.mark.parametrize("_pg", [pytest.param(None, marks=needs_pg)])
def test_a_user_in_no_case_gets_one_line_not_an_empty_window(newsroom, monkeypatch, _pg):
    from casefile.ui import app

    admin, users, _case_id = newsroom
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "critical",
                        lambda _p, _t, message, *_a, **_k: shown.append(message))
    monkeypatch.setattr(app, "MainWindow", lambda *_a, **_k: pytest.fail("a window opened"))
    assert app.run_app(db_url=user_url(admin, users["intern"])) == 1
    (message,) = shown
    reason = message.split("\n", 1)[1]
    assert "not a member of any case" in reason and users["intern"] in reason
    assert "casefile team add" in reason and "\n" not in reason


def test_a_workspace_folder_says_it_is_single_user(make_window, ui_workspace):
    with ui_workspace.transaction() as s:
        case_id = cases.create_case(s, "Harbor dredging").id
    window = make_window(case_id)
    window.case_menu.members_action.trigger()
    assert window.case_menu.members.dialog is None
    said = window.statusBar().currentMessage()
    assert "single-user" in said and "PostgreSQL" in said
