"""The code stays as clean as it is: ruff over the code, tests and scripts, and mypy over the
package (both configured in pyproject.toml), run by the same test command as everything else."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[test]')")
    return found


def test_ruff_finds_nothing() -> None:
    done = subprocess.run([_tool("ruff"), "check", "casefile", "tests", "scripts"], cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing(tmp_path: Path) -> None:
    done = subprocess.run([_tool("mypy"), "--cache-dir", str(tmp_path / "cache"), "casefile"],
                          cwd=REPO, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
