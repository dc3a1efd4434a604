"""Encrypted workspaces in the window (offscreen): the passphrase asked at open with a retry,
File ▸ New workspace… with a passphrase, File ▸ Encrypt workspace… on the open workspace."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

from casefile.services import cases, items
from casefile.store.encryption import SQLITE_HEADER, is_encrypted_file
from casefile.store.workspace import open_workspace
from casefile.ui import app as app_module
from casefile.ui import workspace_menu
from casefile.ui.main_window import MainWindow
from casefile.ui.workspace_dialogs import (
    WRONG_MESSAGE,
    NewPassphraseDialog,
    NewWorkspaceDialog,
    PassphraseDialog,
)
from tests.e2e.crypt_helpers import NOTE_WORD, leaks

PASS = "tide tables at dawn"


def _encrypted_workspace(folder: Path) -> int:
    ws = open_workspace(folder, passphrase=PASS, encrypt=True)
    try:
        with ws.transaction() as s:
            case = cases.create_case(s, "Harbor inquiry")
            items.create_item(s, case.id, "person", "Board clerk", notes=f"{NOTE_WORD} cafe")
            return int(case.id)
    finally:
        ws.close()


def _answer_passphrases(monkeypatch, qtbot, answers: list[str | None], shown: list[str]) -> None:
    """PassphraseDialog.exec types the next answer (None: Cancel), recording its message."""
    def fake_exec(self: PassphraseDialog) -> int:
        shown.append(self.message.text())
        answer = answers.pop(0)
        if answer is None:
            return int(QDialog.DialogCode.Rejected)
        qtbot.keyClicks(self.field, answer)
        assert self.open_button.isEnabled()
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(PassphraseDialog, "exec", fake_exec)


def _close_at_exec(monkeypatch, opened: list[MainWindow]) -> None:
    def fake_exec(*_a) -> int:
        for w in QApplication.topLevelWidgets():
            if isinstance(w, MainWindow) and w.isVisible():
                opened.append(w)
                w.runner.shutdown()
                w.close()
        return 0

    monkeypatch.setattr(QApplication, "exec", fake_exec)


def test_the_window_asks_the_passphrase_again_after_a_wrong_one(
        qapp, qtbot, tmp_path, monkeypatch, temp_settings) -> None:
    folder = tmp_path / "ws"
    case_id = _encrypted_workspace(folder)
    shown: list[str] = []
    _answer_passphrases(monkeypatch, qtbot, ["not the passphrase", PASS], shown)
    opened: list[MainWindow] = []
    _close_at_exec(monkeypatch, opened)
    assert app_module.run_app(workspace=folder) == 0
    assert len(shown) == 2 and "is encrypted" in shown[0] and shown[1] == WRONG_MESSAGE
    assert len(opened) == 1
    assert opened[0].case_id == case_id and opened[0].workspace.encrypted
    for path in Path(temp_settings).rglob("*"):  # nothing of the passphrase in QSettings
        if path.is_file():
            assert PASS not in path.read_text(encoding="utf-8", errors="replace")


def test_cancelling_the_passphrase_opens_nothing(qapp, qtbot, tmp_path, monkeypatch,
                                                  capsys) -> None:
    folder = tmp_path / "ws"
    _encrypted_workspace(folder)
    _answer_passphrases(monkeypatch, qtbot, [None], [])
    opened: list[MainWindow] = []
    _close_at_exec(monkeypatch, opened)
    assert app_module.run_app(workspace=folder) == 1
    assert opened == []
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["casefile: no passphrase given; the workspace was not opened"]


def test_new_workspace_with_a_passphrase_opens_it_encrypted(qapp, qtbot, tmp_path,
                                                            monkeypatch, make_window) -> None:
    window = make_window()
    target = tmp_path / "secret-ws"
    seen: dict[str, object] = {}

    def fake_exec(self: NewWorkspaceDialog) -> int:
        ok = self.buttons.button(self.buttons.StandardButton.Ok)
        qtbot.keyClicks(self.folder_edit, str(target))
        self.encrypt.setChecked(True)
        qtbot.keyClicks(self.fields.first, PASS)
        qtbot.keyClicks(self.fields.second, PASS[:-1])
        seen["mismatch"] = (ok.isEnabled(), self.fields.problem.text())
        qtbot.keyClicks(self.fields.second, PASS[-1])
        seen["match"] = ok.isEnabled()
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(NewWorkspaceDialog, "exec", fake_exec)
    window.new_workspace_action.trigger()
    assert seen == {"mismatch": (False, "The two passphrases differ."), "match": True}
    (new_window,) = [w for w in workspace_menu._WINDOWS if isinstance(w, MainWindow)]
    try:
        assert new_window.workspace.encrypted and new_window.isVisible()
        assert is_encrypted_file(target / "casefile.sqlite3")
        assert not window.workspace.encrypted
    finally:
        new_window.runner.shutdown()
        new_window.close()


def test_encrypt_workspace_from_the_window_reopens_it_encrypted(
        qapp, qtbot, tmp_path, monkeypatch, make_window) -> None:
    folder = tmp_path / "plain"
    ws = open_workspace(folder)
    with ws.transaction() as s:
        case_id = int(cases.create_case(s, "Harbor inquiry").id)
        items.create_item(s, case_id, "person", "Board clerk", notes=f"{NOTE_WORD} cafe")
    window = make_window(case_id=case_id, workspace=ws)
    assert window.encrypt_workspace_action.isEnabled()
    assert leaks(folder, (NOTE_WORD,))  # the plain file shows the note

    def fake_exec(self: NewPassphraseDialog) -> int:
        qtbot.keyClicks(self.fields.first, PASS)
        qtbot.keyClicks(self.fields.second, PASS)
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(NewPassphraseDialog, "exec", fake_exec)
    told: list[str] = []
    monkeypatch.setattr(QMessageBox, "information",
                        lambda _p, _t, text, *a, **k: told.append(text))
    window.encrypt_workspace_action.trigger()
    (reopened,) = [w for w in workspace_menu._WINDOWS if isinstance(w, MainWindow)]
    try:
        assert not window.isVisible() and reopened.isVisible()
        assert reopened.workspace.encrypted and reopened.case_id == case_id
        assert told and told[0].startswith("The workspace is encrypted")
        assert (folder / "casefile.sqlite3").read_bytes()[:16] != SQLITE_HEADER
        assert leaks(folder, (NOTE_WORD,)) == {}
        with reopened.workspace.transaction() as s:
            assert [i.title for i in items.list_items(s, case_id, "person")] == ["Board clerk"]
    finally:
        reopened.runner.shutdown()
        reopened.close()


def test_the_window_backs_up_on_open_and_again_only_after_changes(
        qapp, qtbot, tmp_path, make_window) -> None:
    from casefile.services import backups
    from casefile.ui.auto_backup import AutoBackup

    ws = open_workspace(tmp_path / "enc", passphrase=PASS, encrypt=True)
    with ws.transaction() as s:
        case_id = int(cases.create_case(s, "Harbor inquiry").id)
    window = make_window(case_id=case_id, workspace=ws)
    auto = AutoBackup(window, interval_ms=60_000, first_ms=0)
    qtbot.waitUntil(lambda: auto.taken == 1, timeout=10_000)  # the one on open
    job = auto.tick()
    assert job is not None
    qtbot.waitUntil(lambda: job.done, timeout=10_000)
    assert job.outcome == "succeeded" and auto.taken == 1  # nothing changed: no second copy
    with ws.transaction() as s:
        items.create_item(s, case_id, "person", "Board clerk", notes=f"{NOTE_WORD} cafe")
    job = auto.tick()
    assert job is not None
    qtbot.waitUntil(lambda: job.done, timeout=10_000)
    assert auto.taken == 2
    assert {b.reason for b in backups.list_backups(ws)} == {"open", "periodic"}
    taken = [b for b in backups.list_backups(ws) if b.reason in ("open", "periodic")]
    assert len(taken) >= 2
    assert all(b.path.read_bytes()[:16] != SQLITE_HEADER for b in taken)
    assert leaks(tmp_path / "enc", (NOTE_WORD,)) == {}
    ws.close()
