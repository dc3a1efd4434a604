"""A window reloads when another process commits, and says when a second window is open."""

from __future__ import annotations

from casefile.services import items
from casefile.store.workspace import open_workspace
from casefile.ui.watch import OTHER_WINDOW_MESSAGE
from tests.ui.helpers import make_case


def test_a_person_made_elsewhere_appears_in_the_people_section(make_window, ui_workspace,
                                                               qtbot):
    cid = make_case(ui_workspace)
    window = make_window(cid)
    assert window.watch is not None  # every window watches its workspace
    window.items.show_section("person")
    assert window.picker.navigator.item(0).text() == "People (0)"
    other = open_workspace(db_url=ui_workspace.url)  # another process's connection
    try:
        with other.transaction() as s:
            items.create_item(s, cid, "person", "Ana Ortiz")
    finally:
        other.close()
    qtbot.waitUntil(lambda: window.picker.navigator.item(0).text() == "People (1)", timeout=3000)
    qtbot.waitUntil(lambda: window.items.proxy.rowCount() == 1, timeout=1000)
    assert window.items.proxy.index(0, 0).data() == "Ana Ortiz"


def test_a_case_made_by_another_program_opens_in_a_window_that_had_none(make_window,
                                                                     ui_workspace, qtbot):
    """A window opened on an empty workspace opens the first case a command-line ``case new``
    makes, as it does for one made in the window: Import is enabled, "Create a case" goes."""
    from casefile.services import cases

    window = make_window(None)
    assert window.case_id is None and not window.import_action.isEnabled()
    other = open_workspace(db_url=ui_workspace.url)
    try:
        with other.transaction() as s:
            made = int(cases.create_case(s, "Harbor audit").id)
    finally:
        other.close()
    qtbot.waitUntil(lambda: window.case_id == made, timeout=3000)
    assert window.import_action.isEnabled()
    assert window.statusBar().currentMessage() == ""


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


def test_a_save_while_another_process_writes_waits_its_turn_instead_of_failing(
        make_window, ui_workspace, qtbot):
    # Another process is in the middle of a write when the window saves: the window's action
    # waits for the write lock (BEGIN IMMEDIATE, up to the busy timeout) and then saves; it
    # does not fail with "database is locked".
    import threading
    import time

    from sqlalchemy import select

    from casefile.store import Item

    cid = make_case(ui_workspace)
    window = make_window(cid)
    failures: list[str] = []
    window.runner.operation_failed.connect(failures.append)
    other = open_workspace(db_url=ui_workspace.url)  # another process's connection
    writing = threading.Event()

    def other_process() -> None:
        with other.transaction() as o:
            items.create_item(o, cid, "person", "Ana Ortiz")
            writing.set()
            time.sleep(1.0)  # still writing when the window saves

    thread = threading.Thread(target=other_process)
    thread.start()
    try:
        assert writing.wait(10)
        out = window.runner.run(lambda s: items.create_item(s, cid, "person", "Ben Cole").id,
                                change=None, label="saving")
    finally:
        thread.join(30)
        other.close()
    assert out.ok and failures == [] and not window.messages
    with ui_workspace.transaction() as s:
        assert set(s.scalars(select(Item.title).where(Item.kind == "person"))) == {
            "Ana Ortiz", "Ben Cole"}
