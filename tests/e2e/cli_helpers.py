"""Run the real ``casefile`` command in a subprocess, as a user would, on a given workspace."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from casefile.store.workspace import DB_FILENAME

REPO = Path(__file__).resolve().parents[2]


@dataclass
class Run:
    """What one command did: exit code, stdout and stderr (text)."""

    code: int
    out: str
    err: str


def command(workspace: Path | None, *args: str, env: dict[str, str] | None = None,
            new_workspace: bool | None = None) -> tuple[list[str], dict[str, str]]:
    """The argv and environment :func:`casefile` runs (see there), for a caller that starts
    the process itself (``subprocess.Popen``: a command left running while others run)."""
    exe = shutil.which("casefile", path=str(Path(sys.executable).parent))
    cmd = [exe] if exe else [sys.executable, "-m", "casefile"]
    full_env = {**os.environ, **(env or {})}
    full_env.pop("CASEFILE_DEBUG", None)
    # Run this checkout's code, not whichever copy the entry point was installed from.
    full_env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(REPO), full_env.get("PYTHONPATH", "")) if p)
    where: list[str] = []
    if workspace is not None:
        where = ["--workspace", str(workspace)]
        if new_workspace is None:
            new_workspace = not workspace.is_file() and not (workspace / DB_FILENAME).is_file()
    if new_workspace:
        where.append("--new-workspace")
    return [*cmd, *where, *args], full_env


def casefile(workspace: Path | None, *args: str, env: dict[str, str] | None = None,
             new_workspace: bool | None = None) -> Run:
    """Run ``casefile --workspace WORKSPACE ARGS...`` with the installed entry point.

    ``new_workspace``: add ``--new-workspace``; None (the default) adds it when WORKSPACE is not
    a workspace yet (the user creating a workspace for the test's first command). A None
    ``workspace`` runs without ``--workspace`` (the environment chooses).
    """
    argv, full_env = command(workspace, *args, env=env, new_workspace=new_workspace)
    proc = subprocess.run(argv, capture_output=True, text=True, env=full_env, timeout=300)
    return Run(proc.returncode, proc.stdout, proc.stderr)


def pdf_text(path: Path) -> str:
    """The text of a PDF as pdftotext extracts it (poppler-utils), or pypdf when missing."""
    if shutil.which("pdftotext"):
        return subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"],
                              capture_output=True, text=True, check=True).stdout
    from pypdf import PdfReader

    return "\n".join(page.extract_text() or "" for page in PdfReader(path).pages)


def squash(text: str) -> str:
    """Whitespace runs (line breaks of the PDF layout) become single spaces."""
    return " ".join(text.split())
