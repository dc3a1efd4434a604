"""Crash safety, shown: kill the ``casefile`` command with SIGKILL at random moments during
import, edit (accepting suggestions), merge, archive import, backup, restore, archive export,
encryption, case delete and Trash restore, then check that everything it reported as done is
there, nothing is half-written, and SQLite's ``integrity_check`` is ok.

    .venv/bin/python scripts/crash_trials.py [--trials 100] [--seed 1] [--json OUT]

Each trial copies a prepared workspace, starts one command, kills it after a random delay
between the command line's start-up time (``casefile --version``) and 1.15x the time that
command takes to finish (measured first on its own copy), and checks the copy:

- ``integrity``: ``PRAGMA integrity_check`` is ok and ``foreign_key_check`` is empty;
- ``lost``: something the command printed as done (a document imported, a suggestion decided,
  a case imported, a backup taken) is not in the workspace;
- ``half``: a half-written row — a document without its item row, blob or search row; an item
  missing from the search index; a mention marked decided without its item; one name's mentions
  partly decided; an imported case with fewer items than its archive; a backup file that is
  not a whole database; a case both in the workspace and in the Trash, or in neither, or
  with fewer items (or Trash rows) than it had.

After each encryption trial (killed or not) it also runs ``workspace info`` and, unless that
says the workspace is encrypted with nothing left, ``workspace encrypt`` again, as a reporter
would after a crash, and counts: ``plain backups`` left beside an encrypted database right
after the kill; ``unnamed``, files that start with the plain SQLite header or show a word of
the case that ``info`` did not name; ``plain after rerun``, files under the workspace folder
that still do after the second run (must be 0).

    .venv/bin/python scripts/crash_trials.py --only encrypt --trials 100

It prints a table (one row per operation) and exits 1 when anything was lost or half-written,
or left readable after the second encryption. POSIX only (SIGKILL).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO.parent / "shared" / "samples"
CASE = "Crash trials"
DB = "casefile.sqlite3"
#: The passphrase of the encryption trials (``$CASEFILE_PASSPHRASE`` for the command).
KEY = "crash-trial passphrase"


def _cli(ws: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "casefile", "--workspace", str(ws), *args]


def _env() -> dict[str, str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "CASEFILE_PASSPHRASE": KEY,
           "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH"))
                                         if p)}
    env.pop("CASEFILE_DEBUG", None)
    return env


def _run(cmd: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, env=_env(), timeout=600,
                          check=False)


@dataclass
class Operation:
    """One kind of trial: ``command(ws)`` is the argv to run on the workspace copy ``ws``;
    ``check(ws, stdout)`` returns (lost, half) counts."""

    name: str
    command: Callable[[Path], list[str]]
    check: Callable[[Path, str], tuple[int, int]]
    full_time: float = 0.0


@dataclass
class Tally:
    trials: int = 0
    killed: int = 0
    killed_after_commit: int = 0
    finished: int = 0
    lost: int = 0
    half: int = 0
    integrity_ok: int = 0
    plain_backups: int = 0
    unnamed: int = 0
    plain_after_rerun: int = 0
    notes: list[str] = field(default_factory=list)


def _open(ws: Path) -> Any:
    """A connection to the trial workspace's database, keyed when it is encrypted now."""
    from casefile.store.encryption import connect_raw, is_encrypted_file

    path = ws / DB
    return connect_raw(path, KEY if is_encrypted_file(path) else None)


def _integrity(ws: Path) -> bool:
    db = _open(ws)
    try:
        return (db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
                and db.execute("PRAGMA foreign_key_check").fetchall() == [])
    finally:
        db.close()


def _common_half(db: sqlite3.Connection) -> int:
    """Half-written rows any operation could leave (module docstring)."""
    half = 0
    half += db.execute("SELECT count(*) FROM documents d LEFT JOIN items i ON i.id = d.id "
                       "WHERE i.id IS NULL").fetchone()[0]
    half += db.execute("SELECT count(*) FROM items WHERE kind = 'document' AND id NOT IN "
                       "(SELECT id FROM documents)").fetchone()[0]
    half += db.execute("SELECT count(*) FROM documents WHERE sha256 IS NOT NULL AND sha256 "
                       "NOT IN (SELECT sha256 FROM blobs)").fetchone()[0]
    half += db.execute("SELECT count(*) FROM items WHERE id NOT IN "
                       "(SELECT rowid FROM search_fts_docs)").fetchone()[0]
    half += db.execute("SELECT count(*) FROM mentions WHERE status IN ('accepted', 'merged') "
                       "AND item_id IS NULL").fetchone()[0]
    half += db.execute(
        "SELECT count(*) FROM (SELECT case_id, kind, name FROM mentions "
        "WHERE status IN ('suggested', 'accepted', 'merged') GROUP BY case_id, kind, name "
        "HAVING count(DISTINCT CASE WHEN status = 'suggested' THEN 0 ELSE 1 END) > 1)"
    ).fetchone()[0]
    return half


def _changes(ws: Path) -> int:
    """Rows in the change log (every committed action writes at least one)."""
    db = _open(ws)
    try:
        return int(db.execute("SELECT count(*) FROM change_log").fetchone()[0])
    finally:
        db.close()


def _digests(ws: Path) -> dict[str, tuple[int, str]]:
    """Every table's row count and digest (see casefile.store.encryption.table_digests)."""
    from casefile.store.encryption import table_digests

    db = _open(ws)
    try:
        return table_digests(db)
    finally:
        db.close()


def _counts(path: Path) -> dict[str, int]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        names = [r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE "
            "'CREATE VIRTUAL%' AND name NOT LIKE 'sqlite_%' AND name != 'change_log'")]
        return {n: int(db.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0]) for n in names}
    finally:
        db.close()


def check_import(ws: Path, out: str) -> tuple[int, int]:
    db = _open(ws)
    try:
        said = [int(line.split("(document ", 1)[1].split(",", 1)[0]) for line in
                out.splitlines() if line.startswith("imported: ") and "(document " in line]
        there = {r[0] for r in db.execute("SELECT id FROM documents")}
        return sum(1 for d in said if d not in there), _common_half(db)
    finally:
        db.close()


def check_decisions(ws: Path, out: str) -> tuple[int, int]:
    db = _open(ws)
    try:
        done = [int(line.split(":", 1)[0]) for line in out.splitlines()
                if line.split(":", 1)[0].isdigit()]
        lost = 0
        for sid in done:
            row = db.execute("SELECT status, item_id FROM mentions WHERE id = ?",
                             (sid,)).fetchone()
            if row is None or row[0] == "suggested" or row[1] is None:
                lost += 1
        return lost, _common_half(db)
    finally:
        db.close()


def check_archive_import(ws: Path, out: str, expected_items: int) -> tuple[int, int]:
    db = _open(ws)
    try:
        cases = db.execute("SELECT id FROM cases WHERE id > ? ORDER BY id",
                           (PREPARED["last_case_id"],)).fetchall()
        half = _common_half(db)
        for (case_id,) in cases:
            n = db.execute("SELECT count(*) FROM items WHERE case_id = ?",
                           (case_id,)).fetchone()[0]
            half += n != expected_items
        lost = int("imported case" in out and not cases)
        return lost, half
    finally:
        db.close()


def check_backup(ws: Path, out: str) -> tuple[int, int]:
    db = _open(ws)
    try:
        half = _common_half(db)
    finally:
        db.close()
    folder = ws / "backups"
    # ``casefile backup now`` prints "backup ID taken (1.1 MB): PATH" once the file is whole
    written = [Path(line.rsplit(": ", 1)[-1]) for line in out.splitlines()
               if line.startswith("backup ")]
    lost = sum(1 for path in written if path.parent != folder or not path.is_file())
    for path in folder.glob("*.sqlite3") if folder.is_dir() else []:
        try:
            copy = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            ok = copy.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            copy.close()
        except sqlite3.DatabaseError:
            ok = False
        half += not ok
    return lost, half


def check_restore(ws: Path, out: str, before: dict[str, int],
                  backup: dict[str, int]) -> tuple[int, int]:
    """Half: the tables (change log aside) match neither the state before nor the backup.
    Lost: the command said it restored, and the tables are not the backup's."""
    db = _open(ws)
    try:
        half = _common_half(db)
    finally:
        db.close()
    now = _counts(ws / DB)
    half += now not in (before, backup)
    return int(out.startswith("restored") and now != backup), half


def check_archive_export(ws: Path, out: str) -> tuple[int, int]:
    """Half: a file at the chosen path that does not read back as an archive. Lost: the
    command said it wrote the archive and there is none that reads back."""
    from casefile.export.archive_file import read_archive

    target = ws / "export.casefile"
    whole = False
    if target.exists():
        try:
            whole = bool(read_archive(target).tables)
        except Exception:
            whole = False
    lost = int("wrote " in out and not whole)
    half = int(target.exists() and not whole)
    return lost, half


def check_encrypt(ws: Path, out: str, before: dict[str, tuple[int, str]]) -> tuple[int, int]:
    """Half: the database is neither the plain original nor its encrypted copy, row for row
    (every table's count and digest). Lost: the command said it encrypted, and the database
    is not encrypted."""
    from casefile.store.encryption import is_encrypted_file

    half = int(_digests(ws) != before)
    return int(out.startswith("encrypted") and not is_encrypted_file(ws / DB)), half


def plain_backups_beside_encrypted(ws: Path) -> int:
    """Plain backups left in a workspace whose database is encrypted."""
    from casefile.store.encryption import is_encrypted_file

    if not is_encrypted_file(ws / DB):
        return 0
    return sum(1 for b in (ws / "backups").glob("*.sqlite3") if not is_encrypted_file(b))


#: Words of the sample article in every copy of the case (the scan after an encryption).
CASE_WORDS = (b"Stoneman Douglas", b"Coral Springs")


def readable_files(ws: Path) -> set[Path]:
    """Files under ``ws`` that a ``strings`` scan would show the case in: a plain SQLite
    header, or a word of :data:`CASE_WORDS` in the raw bytes."""
    from casefile.store.encryption import SQLITE_HEADER

    found = set()
    for path in ws.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            if data.startswith(SQLITE_HEADER) or any(w in data for w in CASE_WORDS):
                found.add(path)
    return found


def finish_encryption(ws: Path) -> tuple[int, int, int]:
    """After an encryption trial: ``workspace info`` must name every readable file left when
    an encryption was started; ``workspace encrypt`` run again must leave none and every row.
    Returns (unnamed, readable after the second run, half: rows changed or the rerun
    failed)."""
    info = json.loads(_run(_cli(ws, "workspace", "info", "--json")).stdout)
    if info["encrypted"]:
        return 0, len(readable_files(ws)), 0
    unnamed = 0
    if info["unfinished"] or info["database_encrypted"]:
        named = {Path(p) for p in info["plain_files"]}
        unnamed = len(readable_files(ws) - named)
    again = _run(_cli(ws, "workspace", "encrypt"))
    half = int(again.returncode != 0 or _digests(ws) != PREPARED["digests"])
    return unnamed, len(readable_files(ws)), half


#: The case the Trash trials restore (deleted to the Trash while preparing).
TRASHED = "Trash trial"
SAMPLE = "Sample: Alder Creek flood response"


def check_moved(ws: Path, out: str, title: str, items: int) -> tuple[int, int]:
    """A case moved to or from the Trash (``case delete``, ``trash restore``): it must be in
    exactly one of the two, whole (``items`` items, or every Trash row the entry counts); a
    move the command reported must have happened."""
    db = _open(ws)
    try:
        half = _common_half(db)
        case = db.execute("SELECT id FROM cases WHERE title = ?", (title,)).fetchone()
        entry = db.execute("SELECT id, counts FROM trash_entries WHERE what = 'case' AND "
                           "case_title = ?", (title,)).fetchone()
        lost = int(case is None and entry is None)
        half += case is not None and entry is not None
        if case is not None:
            half += db.execute("SELECT count(*) FROM items WHERE case_id = ?",
                               (case[0],)).fetchone()[0] != items
        if entry is not None:
            kept = db.execute("SELECT count(*) FROM trash_rows WHERE entry_id = ? AND op = "
                              "'row'", (entry[0],)).fetchone()[0]
            half += kept != sum(json.loads(entry[1]).values())
        lost += ("moved case" in out and case is not None) or (
            "Restored case" in out and case is None)
        return lost, half
    finally:
        db.close()


def prepare_trash(ws: Path) -> None:
    """Put a small case in the base workspace's Trash (for the restore trials); records in
    :data:`PREPARED` its Trash id (``trash_id``) and the items of that case and of the sample
    case (``trashed_items``, ``sample_items``)."""
    for cmd in (_cli(ws, "case", "new", TRASHED),
                _cli(ws, "import", str(SAMPLES / "parkland-coral-springs-article.txt"),
                     "--case", TRASHED, "--published", "2018-02-23")):
        done = _run(cmd)
        if done.returncode != 0:
            raise SystemExit(f"setup failed: {' '.join(cmd[3:])}: {done.stderr.strip()}")
    db = sqlite3.connect(ws / DB)
    PREPARED["trashed_items"], PREPARED["sample_items"] = (
        db.execute("SELECT count(*) FROM items i JOIN cases c ON c.id = i.case_id "
                   "WHERE c.title = ?", (title,)).fetchone()[0] for title in (TRASHED, SAMPLE))
    db.close()
    done = _run(_cli(ws, "case", "delete", TRASHED, "--json"))
    if done.returncode != 0:
        raise SystemExit(f"setup failed: case delete: {done.stderr.strip()}")
    PREPARED["trash_id"] = json.loads(done.stdout)["trash_id"]


def prepare(root: Path) -> tuple[Path, Path, Path, int, list[int], list[tuple[int, int]]]:
    """The base workspace (a case with the sample article and its suggestions, and the demo
    case), a folder of files to import and an archive of the demo case. Returns (workspace,
    folder, archive, items in the archive, suggestion ids to accept, (suggestion, item) pairs
    to merge)."""
    ws = root / "base"
    steps = [
        _cli(ws, "--new-workspace", "case", "new", CASE),
        _cli(ws, "import", str(SAMPLES / "parkland-coral-springs-article.txt"), "--case", CASE,
             "--published", "2018-02-23"),
        _cli(ws, "demo"),
    ]
    for cmd in steps:
        done = _run(cmd)
        if done.returncode != 0:
            raise SystemExit(f"setup failed: {' '.join(cmd[3:])}: {done.stderr.strip()}")
    listed = json.loads(_run(_cli(ws, "suggestions", "--case", CASE, "--json")).stdout)
    people = [s for s in listed if s.get("kind") in ("person", "organization", "place")]
    first = next(s for s in people if s["kind"] == "person")
    taken = json.loads(_run(_cli(ws, "suggestions", "accept", str(first["id"]), "--json")).stdout)
    target = int(taken[0]["item_id"])  # the item the merge trials merge into
    listed = json.loads(_run(_cli(ws, "suggestions", "--case", CASE, "--json")).stdout)
    people = [s for s in listed if s.get("kind") in ("person", "organization", "place")]
    # Accepting one suggestion can settle others (an affiliation accepted with its person):
    # keep the ids that still succeed when accepted one after another on a scratch copy.
    scratch = root / "scratch"
    shutil.copytree(ws, scratch)
    persons = [s for s in people if s["kind"] == "person"]
    merge = [(int(s["id"]), target) for s in persons[-2:]]
    keep = {m for m, _t in merge}
    accept = [int(s["id"]) for s in people if int(s["id"]) not in keep][:16]
    accept = [sid for sid in accept
              if _run(_cli(scratch, "suggestions", "accept", str(sid))).returncode == 0][:10]
    shutil.rmtree(scratch)
    folder = root / "inbox"
    folder.mkdir()
    article = (SAMPLES / "parkland-coral-springs-article.txt").read_text(encoding="utf-8")
    paragraphs = [p for p in article.split("\n") if len(p) > 80]
    rng = random.Random(7)
    for n in range(40):
        body = "\n\n".join(rng.sample(paragraphs, min(6, len(paragraphs))))
        (folder / f"note-{n:03}.txt").write_text(f"Note {n} on the response\n\n{body}\n",
                                                 encoding="utf-8")
    archive = root / "demo.casefile"
    done = _run(_cli(ws, "archive", "export", "--case", "Sample: Alder Creek flood response",
                     "-o", str(archive)))
    if done.returncode != 0:
        raise SystemExit(f"setup failed: archive export: {done.stderr.strip()}")
    db = sqlite3.connect(ws / DB)
    expected = db.execute("SELECT count(*) FROM items i JOIN cases c ON c.id = i.case_id "
                          "WHERE c.title LIKE 'Sample:%'").fetchone()[0]
    db.close()
    prepare_trash(ws)
    # a backup to restore, and a change after it (so that a restore changes something)
    done = _run(_cli(ws, "backup", "now"))
    if done.returncode != 0:
        raise SystemExit(f"setup failed: backup now: {done.stderr.strip()}")
    made = Path(done.stdout.strip().rsplit(": ", 1)[1])
    PREPARED["backup_id"] = made.name.removeprefix("casefile-").removesuffix(".sqlite3")
    PREPARED["backup_counts"] = _counts(made)
    _run(_cli(ws, "case", "new", "Opened after the backup"))
    PREPARED["counts"] = _counts(ws / DB)
    db = sqlite3.connect(ws / DB)
    PREPARED["last_case_id"] = db.execute("SELECT max(id) FROM cases").fetchone()[0]
    db.close()
    PREPARED["digests"] = _digests(ws)
    return ws, folder, archive, expected, accept, merge


#: What :func:`prepare` measured of the base workspace: ``backup_id`` (a backup taken before
#: the last change), ``backup_counts`` and ``counts`` (rows per table, change log aside, of that
#: backup and of the base), ``digests`` (every table's count and digest), ``last_case_id``.
PREPARED: dict[str, Any] = {}


def _has_backup_command() -> bool:
    return "backup" in _run([sys.executable, "-m", "casefile", "--help"]).stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", metavar="OUT")
    parser.add_argument("--only", metavar="WORD",
                        help="run only the operations whose name holds WORD (e.g. encrypt)")
    args = parser.parse_args(argv)
    if sys.platform == "win32":
        raise SystemExit("SIGKILL is POSIX; run this on Linux or macOS")
    rng = random.Random(args.seed)
    root = Path(tempfile.mkdtemp(prefix="casefile-crash-"))
    try:
        t0 = time.perf_counter()
        base, folder, archive, expected, accept, merge = prepare(root)
        print(f"prepared in {time.perf_counter() - t0:.1f} s: {len(accept)} suggestions to "
              f"accept, {len(merge)} to merge, 40 files, an archive of {expected} items",
              flush=True)
        ops = [
            Operation("import 40 files", lambda ws: _cli(ws, "import", str(folder), "--case",
                                                         CASE, "--no-suggest"),
                      check_import),
            Operation("edit: accept suggestions",
                      lambda ws: _cli(ws, "suggestions", "accept", *map(str, accept)),
                      check_decisions),
            Operation("merge suggestions", lambda ws: [
                *_cli(ws, "suggestions", "merge", str(merge[0][0]), "--into",
                      str(merge[0][1]))], check_decisions),
            Operation("archive import", lambda ws: _cli(ws, "archive", "import", str(archive)),
                      lambda ws, out: check_archive_import(ws, out, expected)),
        ]
        if _has_backup_command():
            ops.append(Operation("backup now", lambda ws: _cli(ws, "backup", "now"),
                                 check_backup))
        ops += [
            Operation("restore a backup",
                      lambda ws: _cli(ws, "backup", "restore", PREPARED["backup_id"]),
                      lambda ws, out: check_restore(ws, out, PREPARED["counts"],
                                                    PREPARED["backup_counts"])),
            Operation("archive export", lambda ws: _cli(
                ws, "archive", "export", "--case", CASE, "-o", str(ws / "export.casefile")),
                check_archive_export),
            Operation("encrypt workspace", lambda ws: _cli(ws, "workspace", "encrypt"),
                      lambda ws, out: check_encrypt(ws, out, PREPARED["digests"])),
            Operation("case delete", lambda ws: _cli(ws, "case", "delete", SAMPLE),
                      lambda ws, out: check_moved(ws, out, SAMPLE, PREPARED["sample_items"])),
            Operation("trash restore",
                      lambda ws: _cli(ws, "trash", "restore", str(PREPARED["trash_id"])),
                      lambda ws, out: check_moved(ws, out, TRASHED,
                                                  PREPARED["trashed_items"])),
        ]
        if args.only:
            ops = [op for op in ops if args.only in op.name]
            if not ops:
                raise SystemExit(f"no operation named with {args.only!r}")
        t = time.perf_counter()  # start-up alone: the command line parsed, nothing done
        _run([sys.executable, "-m", "casefile", "--version"])
        startup = time.perf_counter() - t
        print(f"start-up of the command: {startup:.2f} s", flush=True)
        for op in ops:  # how long each takes when left alone
            ws = root / f"timing-{op.name.split()[0]}"
            shutil.copytree(base, ws)
            t = time.perf_counter()
            done = _run(op.command(ws))
            op.full_time = time.perf_counter() - t
            if done.returncode != 0:
                raise SystemExit(f"{op.name} fails even without a kill: {done.stderr.strip()}")
            shutil.rmtree(ws)
        tallies = {op.name: Tally() for op in ops}
        base_changes = _changes(base)
        for n in range(args.trials):
            op = ops[n % len(ops)]
            tally = tallies[op.name]
            ws = root / f"trial-{n:03}"
            shutil.copytree(base, ws)
            # most of a short command is Python starting up: kill between the end of start-up
            # and a little after the whole run, so the kills land in the work itself
            delay = rng.uniform(startup * 0.9, op.full_time * 1.15)
            proc = subprocess.Popen(op.command(ws), stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, text=True, env=_env())
            try:
                proc.wait(timeout=delay)
                tally.finished += 1
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                tally.killed += 1
            out = proc.stdout.read() if proc.stdout else ""
            if proc.stdout:
                proc.stdout.close()
            tally.trials += 1
            if proc.returncode == -signal.SIGKILL and _changes(ws) > base_changes:
                tally.killed_after_commit += 1  # killed mid-run, some of its work committed
            ok = _integrity(ws)
            tally.integrity_ok += ok
            lost, half = op.check(ws, out)
            tally.plain_backups += plain_backups_beside_encrypted(ws)
            if op.name == "encrypt workspace":
                unnamed, readable, unfinished = finish_encryption(ws)
                tally.unnamed += unnamed
                tally.plain_after_rerun += readable
                half += unfinished
                if unnamed or readable:
                    tally.notes.append(f"trial {n}: {unnamed} readable files not named by "
                                       f"info, {readable} left after the second run ({ws})")
            tally.lost += lost
            tally.half += half
            if lost or half or not ok or (tally.notes and str(ws) in tally.notes[-1]):
                tally.notes.append(f"trial {n} after {delay:.2f} s: lost {lost}, half {half}, "
                                   f"integrity {'ok' if ok else 'FAILED'} ({ws})")
            else:
                shutil.rmtree(ws)
            print(f"  trial {n + 1}/{args.trials} {op.name}: "
                  f"{'killed' if proc.returncode == -signal.SIGKILL else 'finished'} after "
                  f"{delay:.2f} s; lost {lost}, half {half}, integrity {'ok' if ok else 'BAD'}",
                  flush=True)
        print()
        print("| operation | full run (s) | trials | killed | killed after a commit | "
              "finished first | lost | half rows | integrity ok | plain backups | unnamed | "
              "plain after rerun |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for op in ops:
            t = tallies[op.name]
            print(f"| {op.name} | {op.full_time:.2f} | {t.trials} | {t.killed} "
                  f"| {t.killed_after_commit} | {t.finished} | {t.lost} | {t.half} "
                  f"| {t.integrity_ok}/{t.trials} | {t.plain_backups} | {t.unnamed} "
                  f"| {t.plain_after_rerun} |")
        total = Tally()
        for t in tallies.values():
            for key in ("trials", "killed", "killed_after_commit", "finished", "lost", "half",
                        "integrity_ok", "plain_backups", "unnamed", "plain_after_rerun"):
                setattr(total, key, getattr(total, key) + getattr(t, key))
        print(f"| **all** | | {total.trials} | {total.killed} | {total.killed_after_commit} "
              f"| {total.finished} | {total.lost} | {total.half} "
              f"| {total.integrity_ok}/{total.trials} | {total.plain_backups} "
              f"| {total.unnamed} | {total.plain_after_rerun} |")
        for t in tallies.values():
            for note in t.notes:
                print("  " + note)
        if args.json:
            Path(args.json).write_text(json.dumps(
                {name: {k: v for k, v in vars(t).items()} for name, t in tallies.items()},
                indent=1), encoding="utf-8")
        bad = (total.lost or total.half or total.integrity_ok != total.trials
               or total.unnamed or total.plain_after_rerun)
        return 1 if bad else 0
    finally:
        if not any(t.notes for t in locals().get("tallies", {}).values()):
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
