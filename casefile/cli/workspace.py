"""``casefile workspace info | encrypt | passphrase`` and ``casefile backup list | now |
restore``: the workspace itself, its encryption and its backups.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from casefile.cli.common import (
    NEW_PASSPHRASE_ENV,
    PASSPHRASE_ENV,
    add_actions,
    ask_new_passphrase,
    ask_passphrase,
    open_workspace,
    print_json,
    print_rows,
)
from casefile.errors import CasefileError


def add_backup_parser(sub: Any) -> None:
    """``casefile backup list [--json] | now | restore ID``."""
    bk_acts = add_actions(sub, "backup", help="list, take or restore the workspace's backups")
    bk_list = bk_acts.add_parser("list", help="the backups, newest first")
    bk_list.add_argument("--json", action="store_true")
    bk_acts.add_parser("now", help="take a backup now (checked, then older ones rotated)")
    bk_res = bk_acts.add_parser("restore", help="restore a backup (its checksum and integrity "
                                "checked first; the current state is backed up before)")
    bk_res.add_argument("backup_id", metavar="ID")



def add_workspace_parser(sub: Any) -> None:
    """``casefile workspace info | encrypt | passphrase``."""
    acts = add_actions(sub, "workspace", help="the workspace itself: whether it is encrypted; "
                                              "encrypt it; change its passphrase")
    info = acts.add_parser("info", help="where the workspace is, whether it is encrypted, and "
                                        "every plain file an interrupted encryption left")
    info.add_argument("--json", action="store_true")
    acts.add_parser("encrypt", help="encrypt a plain workspace in place (passphrase asked twice, "
                                    "or $CASEFILE_PASSPHRASE); the plain files are overwritten. "
                                    "Run again, it finishes an interrupted encryption (with "
                                    "the same passphrase)")
    acts.add_parser("passphrase", help="change the passphrase of an encrypted workspace (old one "
                                       "asked or $CASEFILE_PASSPHRASE, new one asked twice or "
                                       "$CASEFILE_NEW_PASSPHRASE); run again with the same two, "
                                       "it finishes an interrupted change")


def cmd_workspace(args: argparse.Namespace) -> int:
    from casefile.services import encryption
    from casefile.store.workspace import choose_location, database_path, missing_workspace

    missing = missing_workspace(args.workspace, args.db)
    if missing is not None:
        raise missing
    url = choose_location(args.workspace, args.db).url
    path = database_path(url)
    if path is None:
        raise CasefileError("a database server workspace is not encrypted by Casefile")
    if not path.is_file():
        raise CasefileError(f"no workspace at {path.parent}")
    from casefile.store.encryption import is_encrypted_file

    if args.workspace_command == "info":
        state = encryption.encryption_state(path.parent)
        if args.json:
            print_json({"folder": str(path.parent), "database": str(path),
                         "encrypted": state.encrypted,
                         "database_encrypted": state.database_encrypted,
                         "unfinished": state.unfinished,
                         "plain_files": [str(p) for p in state.plain],
                         "old_passphrase_files": [str(p) for p in state.old_key],
                         "temporary_files": [str(p) for p in state.temporary]})
            return 0
        print(f"{path.parent}: {state.describe()}")
        for label, files in (("plain (readable without the passphrase)", state.plain),
                             ("still under the old passphrase", state.old_key),
                             ("temporary copy", state.temporary)):
            for file in files:
                print(f"  {label}: {file}")
        return 0
    if args.workspace_command == "encrypt":
        state = encryption.encryption_state(path.parent)
        if state.encrypted:
            raise CasefileError(f"the workspace at {path.parent} is already encrypted")
        if state.database_encrypted:  # an interrupted encryption: finished with its passphrase
            passphrase = ask_passphrase(
                f"Passphrase of the partly encrypted workspace at {path.parent}: ",
                PASSPHRASE_ENV)
        else:
            open_workspace(args).close()  # brings the schema to head, with its pre-upgrade backup
            passphrase = ask_new_passphrase("New passphrase", PASSPHRASE_ENV)
        result = encryption.encrypt_workspace(path.parent, passphrase)
        if result.resumed:
            print(f"finished encrypting {path.parent}: {len(result.backups)} backups encrypted, "
                  f"{len(result.erased)} plain files overwritten and removed")
        else:
            print(f"encrypted {path.parent}: {sum(result.tables.values())} rows in "
                  f"{len(result.tables)} tables checked, {len(result.backups)} backups "
                  f"encrypted, {len(result.erased)} plain files overwritten and removed")
        for other in result.others:
            print(f"casefile: note: {other} is not part of the database and was left as it is",
                  file=sys.stderr)
        return 0
    if not is_encrypted_file(path):
        raise CasefileError(f"the workspace at {path.parent} is not encrypted; encrypt it "
                            "with: casefile workspace encrypt")
    old = ask_passphrase(f"Current passphrase for the workspace at {path.parent}: ", PASSPHRASE_ENV)
    new = ask_new_passphrase("New passphrase", NEW_PASSPHRASE_ENV)
    done = encryption.change_workspace_passphrase(path.parent, old, new)
    print(f"passphrase {'change finished' if done.resumed else 'changed'} for {path.parent} "
          f"({len(done.rekeyed)} backups re-keyed)")
    for other in done.other_key:
        print(f"casefile: note: backup {other.name} was made under another passphrase and was "
              "left as it is", file=sys.stderr)
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    from casefile.services import backups

    ws = open_workspace(args)
    try:
        if args.backup_command == "list":
            listed = backups.list_backups(ws)
            print_rows(
                args, listed,
                lambda b: {"id": b.id, "taken": b.taken.isoformat(), "reason": b.reason,
                           "size": b.size, "path": str(b.path)},
                lambda b: (f"{b.id:<32} {b.taken:%Y-%m-%d %H:%M:%S} UTC  {b.reason:<15} "
                           f"{b.size / 1e6:.1f} MB"),
                "no backups yet")
            return 0
        if args.backup_command == "now":
            made = backups.backup_now(ws)
            print(f"backup {made.id} taken ({made.size / 1e6:.1f} MB): {made.path}")
            return 0
        done = backups.restore(ws, args.backup_id)
        print(f"restored backup {done.restored.id} ({sum(done.tables.values())} rows checked); "
              f"the state before it is backup {done.before.id}")
        if done.note:
            print(f"casefile: note: {done.note}", file=sys.stderr)
        return 0
    finally:
        ws.close()
