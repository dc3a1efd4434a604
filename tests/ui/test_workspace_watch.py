"""A window reloads when another process commits, and says when a second window is open."""

from __future__ import annotations

import pytest

from casefile.services import items
from casefile.store.workspace import open_workspace
from casefile.ui.watch import OTHER_WINDOW_MESSAGE
from tests.ui.helpers import make_case

pytestmark = pytest.mark.gui


def test_a_person_made_elsewhere_appears_in_the_people_section(make_window, ui_workspace,
                                                               qtbot):
    cid = make_case(ui_workspace)
    window = make_window(cid)
    assert window.watch is not None  # every window watches its workspace
    window.show_section("person")
    assert window.navigator.item(0).text() == "People (0)"
    other = open_workspace(db_url=ui_workspace.url)  # another process's connection
    try:
        with other.transaction() as s:
            items.create_item(s, cid, "person", "Ana Ortiz")
    finally:
        other.close()
    qtbot.waitUntil(lambda: window.navigator.item(0).text() == "People (1)", timeout=3000)
    qtbot.waitUntil(lambda: window.proxy.rowCount() == 1, timeout=1000)
    assert window.proxy.index(0, 0).data() == "Ana Ortiz"


def test_a_second_window_is_announced_once_and_own_edits_do_not_reload(make_window,
                                                                       ui_workspace, qtbot):
    cid = make_case(ui_workspace)
    first = make_window(cid)
    first_watch = first.watch
    first_watch.tick()
    assert first.statusBar().currentMessage() != OTHER_WINDOW_MESSAGE  # alone so far
    second_ws = open_workspace(db_url=ui_workspace.url)
    try:
        second = make_window(cid, workspace=second_ws)
        second_watch = second.watch
        second_watch.tick()
        assert second.statusBar().currentMessage() == OTHER_WINDOW_MESSAGE
        qtbot.waitUntil(lambda: first.statusBar().currentMessage() == OTHER_WINDOW_MESSAGE,
                        timeout=3000)
        first.statusBar().clearMessage()
        first_watch.tick()
        assert first.statusBar().currentMessage() == ""  # said once, not every second
        seen = []
        first.runner.case_changed.connect(seen.append)
        with ui_workspace.transaction() as s:  # the first window's own engine
            items.create_item(s, cid, "person", "Ben Cole")
        first_watch.tick()
        assert seen == []
        second.runner.shutdown()
        second.close()
        second_watch.tick()
        qtbot.wait(50)
        first_watch.told = False
        first_watch.tick()
        assert first.statusBar().currentMessage() == ""  # the other window has gone
    finally:
        second_ws.close()


def test_a_save_that_another_process_got_ahead_of_runs_again_instead_of_failing(
        make_window, ui_workspace, qtbot):
    # SQLite refuses a write from a transaction that read before another process committed
    # ("database is locked"); the window's action is then run again on a fresh snapshot.
    from sqlalchemy import select

    from casefile.store import Item

    cid = make_case(ui_workspace)
    window = make_window(cid)
    failures: list[str] = []
    window.runner.operation_failed.connect(failures.append)
    other = open_workspace(db_url=ui_workspace.url)  # another process's connection
    tries = []

    def save(s):
        tries.append(s.scalar(select(Item.id).limit(1)))  # this transaction has read
        if len(tries) == 1:
            with other.transaction() as o:
                items.create_item(o, cid, "person", "Ana Ortiz")
        return items.create_item(s, cid, "person", "Ben Cole").id

    try:
        out = window.runner.run(save, change=None, label="saving")
    finally:
        other.close()
    assert out.ok and failures == [] and not window.messages
    assert len(tries) == 2
    with ui_workspace.transaction() as s:
        assert set(s.scalars(select(Item.title).where(Item.kind == "person"))) == {
            "Ana Ortiz", "Ben Cole"}
