"""Changing an encrypted workspace's passphrase while a window has it open is refused: the
window's connections keep the old key, and it could read and save nothing more."""

from __future__ import annotations

from pathlib import Path

import pytest

from casefile.errors import CasefileError
from casefile.services import cases, encryption
from casefile.store.watch import Presence
from casefile.store.workspace import open_workspace

OLD, NEW = "harbor lights at dusk", "gulls over the breakwater"


def _encrypted(folder: Path) -> None:
    ws = open_workspace(folder, passphrase=OLD, encrypt=True)
    with ws.transaction() as s:
        cases.create_case(s, "Harbor inquiry")
    ws.close()


def test_the_passphrase_is_not_changed_under_an_open_window(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    _encrypted(folder)
    window = Presence(folder)  # what a window on this workspace announces
    window.announce()
    with pytest.raises(CasefileError, match="is open in a Casefile window; close it first"):
        encryption.change_workspace_passphrase(folder, OLD, NEW)
    open_workspace(folder, passphrase=OLD).close()  # the old passphrase still opens it
    window.withdraw()
    encryption.change_workspace_passphrase(folder, OLD, NEW)
    ws = open_workspace(folder, passphrase=NEW)
    try:
        with ws.transaction(write=False) as s:
            assert [c.title for c in cases.list_cases(s)] == ["Harbor inquiry"]
    finally:
        ws.close()
