"""Workspace encryption as user actions: encrypt a plain workspace in place, change the
passphrase of an encrypted one, say what an interrupted run left (the window and the CLI both
call these).

The work is in :mod:`casefile.store.encryption`; here the folder is checked for open Casefile
windows first (their marks in ``open-windows/``), since a window writing to the plain file
while it is swapped would lose its changes. Both actions finish an interrupted run of
themselves when called again (ARCHITECTURE.md, "Encryption that finishes"); afterwards the
folder's files are made owner-only again (:func:`casefile.store.private.tighten`).
"""

from __future__ import annotations

from pathlib import Path

from casefile.errors import CasefileError
from casefile.store.encryption import (
    EncryptionState,
    EncryptResult,
    RekeyResult,
    change_passphrase,
    check_new_passphrase,
    encrypt_in_place,
    inspect_folder,
    is_encrypted_file,
)
from casefile.store.private import tighten
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


def encryption_state(folder: str | Path) -> EncryptionState:
    """Whether the workspace in ``folder`` is encrypted, and what an interrupted encryption
    or passphrase change left (every plain file named): see
    :func:`casefile.store.encryption.inspect_folder`. Raises CasefileError when there is no
    workspace or a file cannot be read."""
    return inspect_folder(_database(folder).parent)


def encrypt_workspace(folder: str | Path, passphrase: str, confirmation: str | None = None,
                      *, own_window: str | None = None) -> EncryptResult:
    """Encrypt the plain workspace in ``folder`` with ``passphrase`` (checked against
    ``confirmation`` when given): an encrypted copy verified table by table, swapped in, the
    plain database and its plain backups overwritten and removed
    (:func:`casefile.store.encryption.encrypt_in_place`). When an earlier encryption was
    interrupted, this finishes it; ``passphrase`` must then be the one it started with (once
    the database is encrypted). ``own_window`` is the presence mark of the calling window (its
    own mark does not count as another window; its engine must be closed). Raises
    ValidationError for a bad passphrase, WrongPassphraseError when finishing with another
    passphrase, CasefileError when the workspace is missing, already encrypted with nothing
    left to do, open elsewhere, or a copy fails its checks (then that file is unchanged)."""
    path = _database(folder)
    if not is_encrypted_file(path):
        check_new_passphrase(passphrase, confirmation)
    try:
        return encrypt_in_place(path, passphrase,
                                is_busy=lambda: _windows_open(path.parent, own_window))
    finally:
        tighten(path.parent)


def change_workspace_passphrase(folder: str | Path, old: str, new: str,
                                confirmation: str | None = None, *,
                                own_window: str | None = None) -> RekeyResult:
    """Re-key the encrypted workspace in ``folder`` (and its backups made under ``old``) from
    ``old`` to ``new`` (checked against ``confirmation`` when given); returns what was
    re-keyed. Run again with the same two passphrases, it finishes an interrupted change.
    Raises WrongPassphraseError, ValidationError, or CasefileError when the workspace is not
    encrypted, missing, or open in a window (other than ``own_window``, the calling window's
    presence mark): that window's connections keep the old key and would read nothing
    more."""
    path = _database(folder)
    if not is_encrypted_file(path):
        raise CasefileError(f"the workspace at {path.parent} is not encrypted; encrypt it with: "
                            "casefile workspace encrypt")
    check_new_passphrase(new, confirmation)
    if _windows_open(path.parent, own_window):
        raise CasefileError(f"{path.parent} is open in a Casefile window; close it first "
                            "(nothing was changed)")
    try:
        return change_passphrase(path, old, new)
    finally:
        tighten(path.parent)
