"""Several processes writing to one workspace at once: every user action that reads before it
writes (a new case checks its title first) succeeds, waiting its turn, instead of failing with
"database is locked" because another process wrote between its read and its write."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from casefile.services import cases
from casefile.store.workspace import open_workspace
from tests.e2e.cli_helpers import REPO

WRITER = """
import sys
from casefile.services import cases
from casefile.store.workspace import open_workspace
ws = open_workspace(sys.argv[1], create=False)
failed = 0
for n in range(int(sys.argv[3])):
    try:
        with ws.transaction() as s:
            cases.create_case(s, f"writer {sys.argv[2]} case {n}")
    except Exception as exc:
        failed += 1
        print(type(exc).__name__, str(exc).splitlines()[0], file=sys.stderr)
ws.close()
print(failed)
"""

PER_WRITER = 150


def test_concurrent_writers_each_get_their_turn(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    open_workspace(folder).close()
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(folder), str(k),
                               str(PER_WRITER)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, cwd=REPO)
             for k in range(4)]
    results = [p.communicate(timeout=300) for p in procs]
    failed = [int(out.strip() or -1) for out, _err in results]
    assert failed == [0, 0, 0, 0], [err[:500] for _out, err in results]
    ws = open_workspace(folder)
    try:
        with ws.transaction(write=False) as s:
            titles = {c.title for c in cases.list_cases(s)}
    finally:
        ws.close()
    assert len(titles) == 4 * PER_WRITER
