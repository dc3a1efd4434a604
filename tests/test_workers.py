"""Worker processes of Casefile's pools (:mod:`casefile.workers`): they run the pool's own
initializer and work as before, and a worker whose parent is gone ends by itself."""

from __future__ import annotations

import os

from casefile.workers import process_pool


def _niceness() -> int:
    return os.nice(0) if hasattr(os, "nice") else 0


def _pid_and_niceness() -> tuple[int, int]:
    return os.getpid(), _niceness()


def _raise_niceness() -> None:
    if hasattr(os, "nice"):
        os.nice(3)


def test_a_pool_worker_runs_the_pools_initializer_and_its_jobs() -> None:
    with process_pool(1, initializer=_raise_niceness) as pool:
        pid, niceness = pool.submit(_pid_and_niceness).result(timeout=120)
    assert pid != os.getpid()
    if hasattr(os, "nice"):
        assert niceness == _niceness() + 3


def test_workers_outlive_the_thread_that_started_them() -> None:
    """The window starts pools from pooled threads that end when idle: its workers go on."""
    import threading
    import time

    pool = process_pool(1)
    first: list[int] = []
    starter = threading.Thread(target=lambda: first.append(
        pool.submit(_pid_and_niceness).result(timeout=120)[0]))
    starter.start()
    starter.join()
    time.sleep(1.5)  # longer than a worker takes to notice a parent that is gone
    try:
        assert pool.submit(_pid_and_niceness).result(timeout=60)[0] == first[0]
    finally:
        pool.shutdown()
