"""Backups in the window: File ▸ Restore from backup… lists the backups, restores
the chosen one through the same service as the command line, off the GUI thread, and the views
show the restored state; automatic backups run on a worker thread, quietly."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtWidgets import QDialog, QMessageBox

from casefile.errors import CasefileError
from casefile.services import backups, cases, items
from casefile.store.workspace import open_workspace
from casefile.ui import auto_backup as auto_backup_module
from casefile.ui.backup_restore import RestoreBackupDialog

PASS = "tide tables at dawn"


def _people(window) -> list[str]:
    window.show_section("person")
    return sorted(window.proxy.index(r, 0).data() for r in range(window.proxy.rowCount()))


def _choose_in_dialog(monkeypatch, backup_id: str, seen: list[list[tuple[str, str]]]) -> None:
    """The dialog opens for real; "the user" selects the row of ``backup_id`` and restores.
    What it listed (when, why) goes to ``seen``."""

    def fake_exec(self) -> int:
        seen.append([(self.table.item(r, 0).text(), self.table.item(r, 1).text())
                     for r in range(self.table.rowCount())])
        row = next(r for r, b in enumerate(self.listed) if b.id == backup_id)
        self.table.selectRow(row)
        assert self.restore_button.isEnabled()
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(RestoreBackupDialog, "exec", fake_exec)


@pytest.mark.parametrize("encrypted", [False, True], ids=["plain", "encrypted"])
def test_restore_from_the_window_gives_back_the_earlier_state_in_every_view(
        qtbot, tmp_path, make_window, monkeypatch, encrypted) -> None:
    ws = (open_workspace(tmp_path / "enc", passphrase=PASS, encrypt=True) if encrypted
          else open_workspace(tmp_path / "plain"))
    with ws.transaction() as s:
        case_id = int(cases.create_case(s, "Harbor inquiry").id)
        items.create_item(s, case_id, "person", "Board clerk")
        pilot = int(items.create_item(s, case_id, "person", "Harbor pilot").id)
    backups.backup_now(ws, "open")
    earlier = backups.backup_now(ws)
    window = make_window(case_id=case_id, workspace=ws)
    window.search_panel.edit.setText("pilot")
    window.search_panel.run_search()
    assert [h.item_id for h in window.search_panel.hits()] == [pilot]
    # changes made in the window after the backup: one item deleted, one added
    assert window.select_item(pilot, "person")
    window.delete_selected()
    assert window.create_item("person", "Dredging contractor") is not None
    assert _people(window) == ["Board clerk", "Dredging contractor"]
    qtbot.waitUntil(lambda: window.search_panel.hits() == [], timeout=5000)
    assert window.undo_stack.count() == 2

    seen: list[list[tuple[str, str]]] = []
    _choose_in_dialog(monkeypatch, earlier.id, seen)
    asked: list[str] = []

    def yes(_parent, _title, text, *_a, **_k):
        asked.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", yes)
    window.restore_backup_action.trigger()
    job = window.backup_restore.job
    assert job is not None and job.dialog is not None  # off the GUI thread, with progress
    qtbot.waitUntil(lambda: job.done, timeout=30_000)
    assert job.outcome == "succeeded", job.error
    assert [why for _when, why in seen[0]] == ["taken by hand (backup now)",
                                               "on opening the window"]
    assert asked and "backed up first" in asked[0]

    assert _people(window) == ["Board clerk", "Harbor pilot"]
    assert window.navigator.item(0).text() == "People (2)"
    assert window.undo_stack.count() == 0  # its steps were about the state that is gone
    qtbot.waitUntil(lambda: [h.item_id for h in window.search_panel.hits()] == [pilot],
                    timeout=5000)
    assert "Restored the backup of" in window.statusBar().currentMessage()
    assert window.select_item(pilot, "person")
    assert window.editor.widgets["title"].text() == "Harbor pilot"
    # the state before is a backup of its own, and the workspace keeps working
    (before,) = [b for b in backups.list_backups(ws) if b.reason == "before-restore"]
    assert window.create_item("person", "Tug captain") is not None
    with ws.transaction() as s:
        titles = sorted(i.title for i in items.list_items(s, case_id, "person"))
    assert titles == ["Board clerk", "Harbor pilot", "Tug captain"]
    window.backup_restore.restore(before.id)
    qtbot.waitUntil(lambda: window.backup_restore.job.done, timeout=30_000)
    assert _people(window) == ["Board clerk", "Dredging contractor"]
    window.runner.shutdown()
    window.close()
    ws.close()


def test_a_restore_cancelled_at_the_question_changes_nothing(
        qtbot, ui_workspace, make_window, monkeypatch) -> None:
    with ui_workspace.transaction() as s:
        case_id = int(cases.create_case(s, "Harbor inquiry").id)
    earlier = backups.backup_now(ui_workspace)
    window = make_window(case_id=case_id)
    window.create_item("person", "Board clerk")
    _choose_in_dialog(monkeypatch, earlier.id, [])
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *_a, **_k: QMessageBox.StandardButton.Cancel)
    assert window.backup_restore.prompt() is None
    assert _people(window) == ["Board clerk"]
    assert [b.id for b in backups.list_backups(ui_workspace)] == [earlier.id]


def test_automatic_backups_run_on_a_worker_thread_without_a_dialog(
        qtbot, ui_workspace, make_window, monkeypatch) -> None:
    with ui_workspace.transaction() as s:
        case_id = int(cases.create_case(s, "Harbor inquiry").id)
    threads: list[threading.Thread] = []
    real = backups.backup_now

    def recording(ws, reason="manual"):
        threads.append(threading.current_thread())
        return real(ws, reason)

    monkeypatch.setattr(backups, "backup_now", recording)
    monkeypatch.setattr(auto_backup_module, "FIRST_MS", 0)
    window = make_window(case_id=case_id, auto_backup=True)
    auto = window.auto_backup
    assert auto is not None
    qtbot.waitUntil(lambda: auto.taken == 1, timeout=10_000)
    assert threads and threads[0] is not threading.main_thread()
    assert auto.job is not None and auto.job.dialog is None
    assert [b.reason for b in backups.list_backups(ui_workspace)] == ["open"]
    assert window.statusBar().currentMessage().startswith("Backed up")
    # nothing changed since: the next tick copies nothing; after a change it does
    job = auto.tick()
    qtbot.waitUntil(lambda: job.done, timeout=10_000)
    assert auto.taken == 1
    window.create_item("person", "Board clerk")
    job = auto.tick()
    qtbot.waitUntil(lambda: job.done, timeout=10_000)
    assert auto.taken == 2
    assert [b.reason for b in backups.list_backups(ui_workspace)] == ["periodic", "open"]


def test_the_test_windows_take_no_automatic_backup(qtbot, ui_workspace, make_window) -> None:
    window = make_window()
    assert window.auto_backup is None
    assert window.restore_backup_action.isEnabled()


def _parkland_then_harbor(ws):
    """A workspace whose backup holds only "Parkland"; "Harbor audit" came after it. Returns
    (backup, parkland id, harbor id)."""
    with ws.transaction() as s:
        park = int(cases.create_case(s, "Parkland").id)
        items.create_item(s, park, "person", "Parks director")
    earlier = backups.backup_now(ws)
    with ws.transaction() as s:
        harbor = int(cases.create_case(s, "Harbor audit").id)
        items.create_item(s, harbor, "person", "Harbor pilot")
    return earlier, park, harbor


def _boxes(window) -> list[tuple[QMessageBox.Icon, str]]:
    return [(box.icon(), box.text()) for box in window.messages]


def test_restoring_a_backup_older_than_the_case_shown_says_so_and_shows_one_that_exists(
        qtbot, ui_workspace, make_window, monkeypatch) -> None:
    from casefile.ui.backup_restore import taken_words

    earlier, park, harbor = _parkland_then_harbor(ui_workspace)
    window = make_window(case_id=harbor)
    assert window.windowTitle() == "Harbor audit — Casefile"
    _choose_in_dialog(monkeypatch, earlier.id, [])
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *_a, **_k: QMessageBox.StandardButton.Yes)
    window.restore_backup_action.trigger()
    job = window.backup_restore.job
    qtbot.waitUntil(lambda: job.done, timeout=30_000)
    assert job.outcome == "succeeded", job.error

    said = (f"Restored the backup of {taken_words(earlier)}. The case “Harbor audit” did not "
            "exist then; showing “Parkland” instead.")
    assert window.statusBar().currentMessage() == said
    assert _boxes(window) == [(QMessageBox.Icon.Information, said)]
    assert window.case_id == park and window.windowTitle() == "Parkland — Casefile"
    assert window.picker.case_ids() == [park]
    assert _people(window) == ["Parks director"]
    qtbot.wait(1500)  # a poll of the workspace watch comes and goes: nothing else is said
    assert _boxes(window) == [(QMessageBox.Icon.Information, said)]
    assert window.create_item("person", "Groundskeeper") is not None  # in a case that exists
    assert _people(window) == ["Groundskeeper", "Parks director"]


def test_a_restore_by_another_process_is_said_in_the_window_and_it_shows_a_case_that_exists(
        qtbot, ui_workspace, make_window) -> None:
    earlier, park, harbor = _parkland_then_harbor(ui_workspace)
    window = make_window(case_id=harbor)
    other = open_workspace(ui_workspace.folder)  # as `casefile backup restore` would
    try:
        backups.restore(other, earlier.id)
    finally:
        other.close()
    said = ("Another window or command restored a backup of this workspace. The case “Harbor "
            "audit” did not exist then; showing “Parkland” instead.")
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == said, timeout=10_000)
    assert _boxes(window) == [(QMessageBox.Icon.Information, said)]
    assert window.case_id == park and window.windowTitle() == "Parkland — Casefile"
    assert _people(window) == ["Parks director"]
    assert window.create_item("person", "Groundskeeper") is not None
    assert _boxes(window) == [(QMessageBox.Icon.Information, said)]  # no "no case with id"


def test_a_restore_stopped_after_its_safety_copy_is_not_taken_for_one_made_elsewhere(
        qtbot, ui_workspace, make_window, monkeypatch) -> None:
    earlier, _park, harbor = _parkland_then_harbor(ui_workspace)
    window = make_window(case_id=harbor)

    def stopped(ws, _backup_id, progress=None):
        backups.backup_now(ws, "before-restore")  # as a restore cancelled during its copy
        raise CasefileError("the restore was stopped; nothing was changed")

    monkeypatch.setattr(backups, "restore", stopped)
    job = window.backup_restore.restore(earlier.id)
    qtbot.waitUntil(lambda: job.done, timeout=30_000)
    window.messages.clear()  # the refusal's own box
    other = open_workspace(ui_workspace.folder)  # then another process adds a case
    try:
        with other.transaction() as s:
            cases.create_case(s, "Tug fleet")
    finally:
        other.close()
    qtbot.waitUntil(lambda: "Tug fleet" in [window.case_box.itemText(i)
                                            for i in range(window.case_box.count())],
                    timeout=10_000)
    assert window.case_id == harbor and _people(window) == ["Harbor pilot"]
    assert "restored a backup" not in window.statusBar().currentMessage()
    assert _boxes(window) == []
