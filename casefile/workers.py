"""Worker processes that end with the process that started them.

:func:`process_pool` makes the ``ProcessPoolExecutor`` (spawn context) behind the file readers
(:class:`casefile.ingest.pool.ReaderPool`) and the extractor
(:class:`casefile.services.suggest_pool.SuggestionPool`). A worker of such a pool otherwise
outlives a parent killed with SIGKILL or SIGTERM: it waits on its task queue forever (it holds
that pipe's write end itself, so it never reads an end), keeps the multiprocessing resource
tracker alive (which exits only when every holder of its pipe is gone) and, with it, the
caller's stdout and stderr (inherited by both).

Each worker therefore starts with :func:`watch_parent`: a daemon thread waits on the parent's
sentinel (multiprocessing's pipe from the parent on POSIX, a process handle on Windows: ready
the moment the parent process is gone, whatever ended it) and checks ``os.getppid()`` every
:data:`POLL_S` seconds besides; when the parent is gone the worker ends at once
(``os._exit``), and the resource tracker, left without holders, ends too.

Linux's ``prctl(PR_SET_PDEATHSIG)`` is deliberately not used: it fires when the *thread* that
started the worker ends, and the window starts pools from pooled worker threads that end after
a while of idling, which would kill the workers of a live window.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

#: How often (seconds) a worker also compares its parent's pid, besides waiting on the sentinel.
POLL_S = 0.5
#: The exit status of a worker that ended because its parent was gone.
ORPHAN_EXIT = 70


def _parent_gone(parent_pid: int) -> bool:
    return os.getppid() != parent_pid


def watch_parent(parent_pid: int) -> threading.Thread | None:
    """In a worker: start the daemon thread that ends this process (``os._exit`` with
    :data:`ORPHAN_EXIT`) within about :data:`POLL_S` seconds of the parent process
    ``parent_pid`` ending; ends it at once when the parent is gone already. Returns the thread
    (None in a process that multiprocessing did not start: nothing to watch)."""
    from multiprocessing.connection import wait

    parent = multiprocessing.parent_process()
    if parent is None:
        return None
    if _parent_gone(parent_pid):
        os._exit(ORPHAN_EXIT)
    sentinel = parent.sentinel

    def watch() -> None:
        while True:
            try:
                ready = wait([sentinel], timeout=POLL_S)
            except OSError:  # the sentinel is unusable: the pid check alone
                ready = []
                threading.Event().wait(POLL_S)
            if ready or _parent_gone(parent_pid):
                os._exit(ORPHAN_EXIT)

    thread = threading.Thread(target=watch, name="casefile-parent-watch", daemon=True)
    thread.start()
    return thread


def _start_worker(parent_pid: int, initializer: Callable[..., Any] | None,
                  initargs: tuple[Any, ...]) -> None:
    watch_parent(parent_pid)
    if initializer is not None:
        initializer(*initargs)


def process_pool(max_workers: int, initializer: Callable[..., Any] | None = None,
                 initargs: tuple[Any, ...] = ()) -> ProcessPoolExecutor:
    """A ``ProcessPoolExecutor`` of ``max_workers`` spawned processes (safe from any thread),
    each of which runs :func:`watch_parent` first, then ``initializer(*initargs)`` (a
    module-level function: it is pickled). Raises ValueError for ``max_workers`` < 1."""
    return ProcessPoolExecutor(
        max_workers=max_workers, mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker, initargs=(os.getpid(), initializer, initargs))
