"""Run the ``casefile`` command on a given workspace, as a user would.

:func:`casefile` runs it in this process, through the command's own entry point
``casefile.cli.main(argv)``: what a terminal shows is captured (stdout, stderr, exit code) and
each run gets what a new process would have (see :func:`run_main`). Starting Python, importing
the app and loading the spaCy model once per command cost 3-4 s a command under load; in
process the suite pays that once per test worker.

:func:`casefile_process` (and :func:`command`, for a caller that starts the process itself)
runs the installed entry point in a child process instead. Tests whose point is the process
boundary use it:

* a process killed with SIGKILL midway (test_import_crash, test_encrypt_resume's fault points,
  test_worker_orphans);
* several processes writing one workspace at once (test_concurrent_import, the import running
  beside backups in test_backups_cli, test_shared_workspace's window and command);
* the no-network audit hook, installed by ``sitecustomize`` in the child
  (test_no_network) and the peak memory of a child (test_hostile_files);
* exit codes and output of a real process: a hostile file read within a time limit
  (test_hostile_containers), ``python -m casefile`` itself (test_demo), and the bundle
  (test_bundle).
"""

from __future__ import annotations

import contextlib
import gc
import io
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from casefile.store.workspace import DB_FILENAME

REPO = Path(__file__).resolve().parents[2]
#: The variable that makes a command kill its own process at a named step
#: (casefile.store.faults): such a command runs in a child process only.
FAULT_ENV = "CASEFILE_FAULT_AT"


@dataclass
class Run:
    """What one command did: exit code, stdout and stderr (text)."""

    code: int
    out: str
    err: str


def _arguments(workspace: Path | None, args: tuple[str, ...],
               new_workspace: bool | None) -> list[str]:
    where: list[str] = []
    if workspace is not None:
        where = ["--workspace", str(workspace)]
        if new_workspace is None:
            new_workspace = not workspace.is_file() and not (workspace / DB_FILENAME).is_file()
    if new_workspace:
        where.append("--new-workspace")
    return [*where, *args]


def command(workspace: Path | None, *args: str, env: Mapping[str, str | None] | None = None,
            new_workspace: bool | None = None) -> tuple[list[str], dict[str, str]]:
    """The argv and environment :func:`casefile_process` runs (see :func:`casefile`), for a
    caller that starts the process itself (``subprocess.Popen``: a command left running while
    others run). A None value in ``env`` leaves that variable out."""
    exe = shutil.which("casefile", path=str(Path(sys.executable).parent))
    cmd = [exe] if exe else [sys.executable, "-m", "casefile"]
    full_env = {**os.environ, **(env or {})}
    full_env.pop("CASEFILE_DEBUG", None)
    # Run this checkout's code, not whichever copy the entry point was installed from.
    full_env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(REPO), full_env.get("PYTHONPATH") or "") if p)
    clean = {k: v for k, v in full_env.items() if v is not None}
    return [*cmd, *_arguments(workspace, args, new_workspace)], clean


def casefile_process(workspace: Path | None, *args: str,
                     env: Mapping[str, str | None] | None = None,
                     new_workspace: bool | None = None) -> Run:
    """:func:`casefile` in a child process (the installed entry point), for the tests listed
    in this module's docstring."""
    argv, full_env = command(workspace, *args, env=env, new_workspace=new_workspace)
    proc = subprocess.run(argv, capture_output=True, text=True, env=full_env, timeout=300,
                          stdin=subprocess.DEVNULL)
    return Run(proc.returncode, proc.stdout, proc.stderr)


def casefile(workspace: Path | None, *args: str, env: Mapping[str, str | None] | None = None,
             new_workspace: bool | None = None, umask: int | None = None) -> Run:
    """Run ``casefile --workspace WORKSPACE ARGS...`` in this process (:func:`run_main`).

    ``env``: variables set for this run only (a None value unsets one); CASEFILE_DEBUG is
    always unset (a traceback is a failure the test should see as one). ``new_workspace``: add
    ``--new-workspace``; None (the default) adds it when WORKSPACE is not a workspace yet (the
    user creating a workspace for the test's first command). A None ``workspace`` runs without
    ``--workspace`` (the environment chooses). ``umask``: the file mode mask the command runs
    with (default: the test's).
    """
    return run_main(_arguments(workspace, args, new_workspace),
                    {"CASEFILE_DEBUG": None, **(env or {})}, umask=umask)


_one_at_a_time = threading.Lock()


def _python_default_warnings() -> None:
    """The warning filters a new ``python`` process starts with (not pytest's "error")."""
    warnings.resetwarnings()
    warnings.simplefilter("default")
    for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning,
                     ResourceWarning):
        warnings.simplefilter("ignore", category)
    warnings.filterwarnings("default", category=DeprecationWarning, module="__main__")


@contextlib.contextmanager
def _as_a_new_process(env: Mapping[str, str | None], out: io.StringIO, err: io.StringIO,
                      umask: int | None) -> Iterator[None]:
    """Give the command what a child process of the test would have, and take it back after:
    the environment (os.environ plus ``env``, HOME an empty folder of its own), the working
    folder, the umask, stdin (empty, not a terminal), stdout and stderr (``out``, ``err``),
    the warning filters, the loggers' levels and handlers."""
    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    loggers = [logging.getLogger(), *(logger for logger in
                                      logging.Logger.manager.loggerDict.values()
                                      if isinstance(logger, logging.Logger))]
    saved_logging = [(logger, logger.level, list(logger.handlers)) for logger in loggers]
    home = tempfile.mkdtemp(prefix="casefile-home-")
    saved_umask = os.umask(umask) if umask is not None else None
    try:
        os.environ["HOME"] = home
        for name, value in env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        sys.stdin, sys.stdout, sys.stderr = io.StringIO(""), out, err
        with warnings.catch_warnings():
            _python_default_warnings()
            yield
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        if saved_umask is not None:
            os.umask(saved_umask)
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        for logger, level, handlers in saved_logging:
            logger.setLevel(level)
            logger.handlers[:] = handlers
        shutil.rmtree(home, ignore_errors=True)


def _held_files() -> dict[str, int]:
    from casefile.store import db_files

    with db_files._lock:
        return {path: held.connections for path, held in db_files._held.items()}


def run_main(argv: list[str], env: Mapping[str, str | None] | None = None,
             umask: int | None = None) -> Run:
    """``casefile.cli.main(argv)`` in this process, as :func:`casefile` describes: returns its
    exit code (argparse's too: 2 for a usage error) and what it printed.

    Afterwards nothing of the run is left for the next one: the command closes what it opened
    (a database file still held by one of its connections fails the test, since the process
    it stands for would have let it go); the environment, working folder, streams, warning
    filters and loggers are restored; the caches that depend on the environment or on files a
    test may change are emptied (:func:`casefile.extract.model.forget_pipelines`,
    :func:`casefile.ingest.ocr.forget_engines`). What is kept between runs is what a process
    may keep for good: imported modules, and the installed spaCy model once loaded (a package,
    unchanged while the tests run).

    A command asked to kill itself at a fault point ($CASEFILE_FAULT_AT) would take the test
    with it: that raises, use :func:`casefile_process`."""
    from casefile.cli import main
    from casefile.extract.model import forget_pipelines
    from casefile.ingest.ocr import forget_engines

    env = dict(env or {})
    if env.get(FAULT_ENV) or (FAULT_ENV not in env and os.environ.get(FAULT_ENV)):
        raise RuntimeError(f"{FAULT_ENV} kills the process: run it with casefile_process")
    out, err = io.StringIO(), io.StringIO()
    with _one_at_a_time:
        held = _held_files()
        try:
            with _as_a_new_process(env, out, err, umask):
                try:
                    code = main(argv)
                except SystemExit as exc:  # argparse: --help, --version, usage errors
                    code = exc.code if isinstance(exc.code, int) else (exc.code is not None)
        finally:
            forget_pipelines()
            forget_engines()
        def added() -> dict[str, int]:
            # what the command holds beyond what was held before it (another test's window
            # may release its own connections meanwhile: fewer is not the command's doing)
            return {f: n - held.get(f, 0) for f, n in _held_files().items()
                    if n > held.get(f, 0)}

        left = added()
        if left:
            gc.collect()  # a connection dropped without close() is released when collected
            left = added()
        assert not left, (f"`casefile {' '.join(argv)}` left database connections open: "
                          f"{left} (before: {held})")
    return Run(int(code), out.getvalue(), err.getvalue())



def workspace_with_case(folder: Path, title: str) -> Path:
    """Create a workspace at ``folder`` holding one case titled ``title``, in this process
    (quicker than ``casefile case new``), and close it; returns ``folder``."""
    from casefile.services.cases import create_case
    from casefile.store.workspace import open_workspace

    workspace = open_workspace(folder)
    try:
        with workspace.transaction() as session:
            create_case(session, title)
    finally:
        workspace.close()
    return folder


def row_counts(workspace: Path) -> dict[str, int]:
    """Rows in every table of the workspace's SQLite database (FTS shadow tables included)."""
    import sqlite3

    db = sqlite3.connect(workspace / DB_FILENAME)
    try:
        tables = [r[0] for r in db.execute(
            "select name from sqlite_master where type='table' and name not like 'sqlite_%'"
        )]
        return {t: db.execute(f'select count(*) from "{t}"').fetchone()[0] for t in tables}
    finally:
        db.close()

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
