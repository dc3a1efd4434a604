"""A database error from any command ends in one line naming the reason (the driver's own
words, without SQL), although the command line does not load the database layer before a
command runs (so `casefile --version` starts fast)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from sqlalchemy.exc import OperationalError

from casefile import cli


@pytest.mark.parametrize("reason, said", [
    ("database is locked", "the workspace is busy (database is locked)"),
    ("file is not a database", "the workspace database is damaged"),
    ("disk I/O error", "the workspace database failed: disk I/O error"),
])
def test_a_database_error_is_one_line(monkeypatch, capsys, tmp_path, reason, said) -> None:
    def failing(_args):
        raise OperationalError("SELECT 1", {}, Exception(reason))

    monkeypatch.setitem(cli.COMMANDS, "items", failing)
    code = cli.main(["--workspace", str(tmp_path), "items", "--case", "T"])
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith(f"casefile: {said}") and err.count("\n") == 1
    assert "SELECT" not in err and "internal error" not in err


def test_version_does_not_load_the_database_layer() -> None:
    done = subprocess.run([sys.executable, "-c", "import sys, casefile.cli; "
                           "print('sqlalchemy' in sys.modules)"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
