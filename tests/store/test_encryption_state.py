"""What a workspace folder says about its encryption (casefile.store.encryption.inspect_folder):
a workspace left half-encrypted by an older Casefile (no journal) is recognised and finished;
orphaned journals and temporary copies are named and removed."""

from __future__ import annotations

from pathlib import Path

import pytest

from casefile.errors import CasefileError
from casefile.services import backups, cases, encryption
from casefile.store import backups as store_backups
from casefile.store.encryption import SQLITE_HEADER, inspect_folder
from casefile.store.workspace import open_workspace

PASS = "harbor lights at dusk"


def _plain_with_backups(folder: Path, n: int) -> list[Path]:
    ws = open_workspace(folder)
    try:
        with ws.transaction() as s:
            cases.create_case(s, "Harbor inquiry")
        return [backups.backup_now(ws).path for _ in range(n)]
    finally:
        ws.close()


def test_a_plain_workspace_is_not_an_unfinished_encryption(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    _plain_with_backups(folder, 1)
    state = inspect_folder(folder)
    assert (state.database_encrypted, state.unfinished, state.plain) == (False, None, ())
    assert state.describe() == "not encrypted"


def test_plain_backups_an_older_casefile_left_beside_an_encrypted_database_are_finished(
        tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    made = _plain_with_backups(folder, 2)
    plain_bytes = {p: p.read_bytes() for p in made}
    encryption.encrypt_workspace(folder, PASS)
    for path, data in plain_bytes.items():  # what the older, interrupted run left
        path.write_bytes(data)
    orphan = folder / "backups" / "casefile-20240101T000000-manual.sqlite3-journal"
    orphan.write_bytes(b"\xd9\xd5\x05\xf9 a journal whose database is gone")

    state = inspect_folder(folder)
    assert state.database_encrypted and state.unfinished == "encrypt" and not state.encrypted
    assert set(state.plain) == {*made, orphan}
    assert state.describe().startswith("partly encrypted: an encryption was interrupted; "
                                       "3 files can still be read without the passphrase")
    with pytest.raises(CasefileError, match="wrong passphrase"):
        encryption.encrypt_workspace(folder, "another long passphrase")

    done = encryption.encrypt_workspace(folder, PASS)
    assert done.resumed and set(done.backups) == set(made) and orphan in done.erased
    assert inspect_folder(folder).encrypted
    for path in made:
        assert path.read_bytes()[:16] != SQLITE_HEADER
    for listed in store_backups.list_backups(folder / "casefile.sqlite3"):
        assert store_backups.verify_checksum(listed) is True
    with pytest.raises(CasefileError, match="already encrypted"):
        encryption.encrypt_workspace(folder, PASS)
