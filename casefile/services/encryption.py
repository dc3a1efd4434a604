"""Workspace encryption as user actions: encrypt a plain workspace in place, change the
passphrase of an encrypted one (the window and the CLI both call these).

The work is in :mod:`casefile.store.encryption`; here the folder is checked for open Casefile
windows first (their marks in ``open-windows/``), since a window writing to the plain file
while it is swapped would lose its changes, and the backups rewritten have their SHA-256
recorded again (:func:`casefile.store.backups.record_checksum`).
"""

from __future__ import annotations

from pathlib import Path

from casefile.errors import CasefileError
from casefile.store.encryption import (
    EncryptResult,
    change_passphrase,
    check_new_passphrase,
    encrypt_in_place,
    is_encrypted_file,
)
from casefile.store.workspace import DB_FILENAME


def _database(folder: str | Path) -> Path:
    path = Path(folder).expanduser() / DB_FILENAME
    if not path.is_file():
        raise CasefileError(f"no workspace at {folder}")
    return path


def _windows_open(folder: Path, own_window: str | None) -> bool:
    from casefile.store.watch import Presence

    marks = Presence(folder)
    if own_window is not None:
        marks.name = own_window
    return bool(marks.others())


def encrypt_workspace(folder: str | Path, passphrase: str, confirmation: str | None = None,
                      *, own_window: str | None = None) -> EncryptResult:
    """Encrypt the plain workspace in ``folder`` with ``passphrase`` (checked against
    ``confirmation`` when given): an encrypted copy verified table by table, swapped in, the
    plain database and its plain backups overwritten and removed
    (:func:`casefile.store.encryption.encrypt_in_place`). ``own_window`` is the presence mark
    of the calling window (its own mark does not count as another window; its engine must be
    closed). Raises ValidationError for a bad passphrase, CasefileError when the workspace
    is missing, already encrypted, open elsewhere, or the copy fails its checks (then nothing
    is changed)."""
    path = _database(folder)
    check_new_passphrase(passphrase, confirmation)
    result = encrypt_in_place(path, passphrase,
                              is_busy=lambda: _windows_open(path.parent, own_window))
    _record_checksums(result.backups)
    return result


def change_workspace_passphrase(folder: str | Path, old: str, new: str,
                                confirmation: str | None = None, *,
                                own_window: str | None = None) -> tuple[Path, ...]:
    """Re-key the encrypted workspace in ``folder`` (and its backups made under ``old``) from
    ``old`` to ``new`` (checked against ``confirmation`` when given); returns the backups
    re-keyed. Raises WrongPassphraseError, ValidationError, or CasefileError when the
    workspace is not encrypted, missing, or open in a window (other than ``own_window``, the
    calling window's presence mark): that window's connections keep the old key and would
    read nothing more."""
    path = _database(folder)
    if not is_encrypted_file(path):
        raise CasefileError(f"the workspace at {path.parent} is not encrypted; encrypt it with: "
                            "casefile workspace encrypt")
    check_new_passphrase(new, confirmation)
    if _windows_open(path.parent, own_window):
        raise CasefileError(f"{path.parent} is open in a Casefile window; close it first "
                            "(nothing was changed)")
    rekeyed = change_passphrase(path, old, new)
    _record_checksums(rekeyed)
    return rekeyed


def _record_checksums(rewritten: tuple[Path, ...]) -> None:
    """Record again the SHA-256 of backups whose bytes were rewritten on purpose (encrypted,
    re-keyed), so a restore does not take them for damaged ones (a backup that had none, as
    one made before an upgrade, gets none)."""
    from casefile.store.backups import checksum_path, record_checksum

    for backup in rewritten:
        if checksum_path(backup).exists():
            record_checksum(backup)
