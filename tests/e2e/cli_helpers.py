"""Run the real ``casefile`` command in a subprocess, as a user would, on a given workspace."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Run:
    """What one command did: exit code, stdout and stderr (text)."""

    code: int
    out: str
    err: str


def casefile(workspace: Path, *args: str, env: dict[str, str] | None = None) -> Run:
    """Run ``casefile --workspace WORKSPACE ARGS...`` with the installed entry point."""
    exe = shutil.which("casefile", path=str(Path(sys.executable).parent))
    cmd = [exe] if exe else [sys.executable, "-m", "casefile"]
    full_env = {**os.environ, **(env or {})}
    full_env.pop("CASEFILE_DEBUG", None)
    proc = subprocess.run(
        [*cmd, "--workspace", str(workspace), *args],
        capture_output=True, text=True, env=full_env, timeout=300,
    )
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
