"""The window on a workspace whose encryption was interrupted (a real ``workspace encrypt``
killed with SIGKILL after the database, before the backups): it says so in words, naming the
plain backups, and File ▸ Finish encryption… finishes it. An unsealed case archive from an
encrypted workspace is written only after a warning that offers the sealed one."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from casefile.export.archive_file import is_sealed
from casefile.services import backups, cases, items
from casefile.store.faults import FAULT_ENV
from casefile.store.workspace import open_workspace
from casefile.ui import workspace_menu
from casefile.ui.main_window import MainWindow
from tests.e2e.cli_helpers import command
from tests.e2e.crypt_helpers import NOTE_WORD, leaks

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")

PASS = "tide tables at dawn"


def _interrupted(folder: Path) -> tuple[int, list[Path]]:
    """A plain workspace with two backups, then ``workspace encrypt`` killed once the database
    was done: returns the case id and the backups (still plain)."""
    ws = open_workspace(folder)
    try:
        with ws.transaction() as s:
            case_id = int(cases.create_case(s, "Harbor inquiry").id)
            items.create_item(s, case_id, "person", "Board clerk", notes=f"{NOTE_WORD} cafe")
        made = [backups.backup_now(ws).path, backups.backup_now(ws).path]
    finally:
        ws.close()
    argv, env = command(folder, "workspace", "encrypt",
                        env={"CASEFILE_PASSPHRASE": PASS, FAULT_ENV: "encrypt:backup-1:copied"})
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    return case_id, made


def test_the_window_names_what_an_interrupted_encryption_left_and_finishes_it(
        qapp, qtbot, tmp_path, monkeypatch) -> None:
    folder = tmp_path / "ws"
    case_id, made = _interrupted(folder)
    assert set(leaks(folder, (NOTE_WORD,))) == {f"backups/{p.name}" for p in made}
    ws = open_workspace(folder, passphrase=PASS)
    # built here, not by make_window: the warning box takes the focus from the window
    window = MainWindow(ws, case_id=case_id, suggest_after_import=False,
                        ocr_after_import=False, auto_backup=False)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: bool(window.messages), timeout=5000)
    said = window.messages[0].text()
    assert said.startswith("An encryption of this workspace was interrupted.")
    assert "can still be read without a passphrase" in said
    for path in made:
        assert f"backups/{path.name}" in said
    assert window.encrypt_workspace_action.isEnabled()
    assert window.encrypt_workspace_action.text().replace("&", "") == "Finish encryption…"
    for box in list(window.messages):
        box.close()

    told: list[str] = []
    monkeypatch.setattr(QMessageBox, "information",
                        lambda _p, _t, text, *a, **k: told.append(text))
    window.encrypt_workspace_action.trigger()  # no passphrase asked: the window's own
    (reopened,) = [w for w in workspace_menu._WINDOWS if isinstance(w, MainWindow)]
    try:
        assert told and told[0].startswith("The workspace is encrypted: 2 backups encrypted")
        assert leaks(folder, (NOTE_WORD,)) == {}
        assert reopened.encryption_state is not None
        assert reopened.encryption_state.encrypted
        assert not reopened.encrypt_workspace_action.isEnabled()
        assert reopened.messages == []
    finally:
        reopened.runner.shutdown()
        reopened.close()


def _pressing(text: str, seen: list[str]):
    def exec_(box: QMessageBox) -> int:
        seen.append(box.text())
        (button,) = [b for b in box.buttons() if b.text().replace("&", "").startswith(text)]
        button.click()
        return 0
    return exec_


@pytest.mark.parametrize("answer", ["Cancel", "Write it unsealed", "Seal with a passphrase"])
def test_an_unsealed_archive_from_an_encrypted_workspace_is_written_only_after_a_warning(
        qapp, qtbot, tmp_path, monkeypatch, make_window, answer: str) -> None:
    ws = open_workspace(tmp_path / "enc", passphrase=PASS, encrypt=True)
    with ws.transaction() as s:
        case_id = int(cases.create_case(s, "Harbor inquiry").id)
        items.create_item(s, case_id, "person", "Board clerk")
    window = make_window(case_id=case_id, workspace=ws)
    out = tmp_path / "harbor.casefile"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    monkeypatch.setattr(window.archives, "ask_passphrase",
                        lambda label, *, confirm: "an archive passphrase")
    seen: list[str] = []
    monkeypatch.setattr(QMessageBox, "exec", _pressing(answer, seen))
    job = window.archives.prompt_export()
    assert len(seen) == 1 and seen[0].startswith("This workspace is encrypted, but an unsealed")
    if answer == "Cancel":
        assert job is None and not out.exists()
        return
    assert job is not None
    qtbot.waitUntil(lambda: job.done, timeout=15000)
    assert job.outcome == "succeeded", job.error
    assert is_sealed(out) is (answer == "Seal with a passphrase")
    ws.close()
