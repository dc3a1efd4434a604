"""Reading many files at once: the slow formats (web pages, PDFs, Word files, emails) are read
in worker processes while the calling process reads the others itself.

:class:`ReaderPool` starts its workers (``concurrent.futures.ProcessPoolExecutor``, spawn
context, so it is safe from a thread of the window; each ends with the calling process, see
:mod:`casefile.workers`) the first time a batch holds enough slow files, and does not wait for
them: until a worker has started and loaded the readers, the
calling process reads every file itself. Plain text and Markdown are always read in the calling
process (sending them to a worker costs more than reading them).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from casefile.errors import CasefileError
from casefile.ingest import detect
from casefile.ingest.files import ingest_bytes
from casefile.ingest.types import Ingested

if TYPE_CHECKING:  # multiprocessing loads with the first pool, not with every import
    from concurrent.futures import Future, ProcessPoolExecutor

#: Formats read in the calling process even when workers run.
LIGHT_TYPES = frozenset({detect.PLAIN, detect.MARKDOWN})
#: A batch with fewer slow files than this is read in the calling process only.
MIN_SLOW_FILES = 8

#: One file to read: ``(bytes, file name, password or None)``.
Job = tuple[bytes, str, "str | None"]


def read_one(data: bytes, filename: str, password: str | None) -> Ingested | str:
    """:func:`casefile.ingest.ingest_bytes`, with a refusal returned as its sentence (an
    IngestError's message; for any other error ``"NAME could not be imported (Type:
    message)"``), so that it crosses a process boundary as plain data."""
    try:
        return ingest_bytes(data, filename, password=password)
    except CasefileError as exc:
        return str(exc)
    except Exception as exc:  # a bug in a reader must not stop the other files
        return f"{filename} could not be imported ({type(exc).__name__}: {exc})"


def _ready() -> bool:
    """Run once in each worker: load the readers (trafilatura, pypdfium2, python-docx), with
    the garbage collector paused while they load and their objects frozen out of its reach
    afterwards (``gc.freeze``: later collections in the worker skip them)."""
    import gc

    from casefile.collector import paused

    with paused():
        from casefile.ingest.html import main_text_and_metadata

        main_text_and_metadata("<html><body><p>warm</p></body></html>")
        gc.freeze()  # before the collector resumes, whose first pass would walk them all
    return True


#: File name endings of formats read in the calling process (:data:`LIGHT_TYPES`), for
#: :meth:`ReaderPool.expect`'s guess before the files are read.
LIGHT_SUFFIXES = (".txt", ".text", *detect.MARKDOWN_SUFFIXES)


def default_workers() -> int:
    """Worker processes for reading: one fewer than the machine's cores (the calling process
    reads too and stores the documents), at most 4; 0 on a one-core machine."""
    return max(0, min((os.cpu_count() or 1) - 1, 4))


class ReaderPool:
    """Reads batches of files (:meth:`read`), with ``workers`` processes once they pay off
    (None: :func:`default_workers`; 0: always in the calling process). Close it
    (:meth:`close`, or use it as a context manager) to stop the workers."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = default_workers() if workers is None else max(0, workers)
        self._pool: ProcessPoolExecutor | None = None
        self._warm: Future[bool] | None = None
        self.broken = False
        #: how many files the workers read (the rest were read here); for tests and benchmarks
        self.read_by_workers = 0
        #: files handed over by :meth:`read_ahead`, for the next :meth:`read` to hand on
        self._next: list[Job] = []
        #: files the workers were given ahead of their turn, by ``id`` of their bytes
        self._ahead: dict[int, tuple[Job, Future[Ingested | str]]] = {}

    def __enter__(self) -> ReaderPool:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the workers (files being read are finished first)."""
        self._next = []
        self._ahead.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def _started(self, slow: int) -> ProcessPoolExecutor | None:
        """The pool when its workers are ready; starts it (without waiting) when ``slow``
        files are worth it."""
        if self.workers == 0 or self.broken:
            return None
        if self._pool is None:
            if slow < MIN_SLOW_FILES:
                return None
            from casefile.workers import process_pool

            self._pool = process_pool(self.workers)
            self._warm = self._pool.submit(_ready)
            return None
        if self._warm is not None and not self._warm.done():
            return None
        return self._pool

    @property
    def started(self) -> bool:
        """True once the worker processes were started (ready or not)."""
        return self._pool is not None

    def expect(self, names: Sequence[str]) -> None:
        """Start the workers now (without waiting for them) when the files about to be read,
        by their ``names``, hold :data:`MIN_SLOW_FILES` or more that are likely slow (not
        named like plain text or Markdown), so they load their readers while the first
        files are read here. A guess by name only: :meth:`read` still sorts files by their
        bytes."""
        slow = sum(1 for name in names if not name.lower().endswith(LIGHT_SUFFIXES))
        if self._pool is None and slow >= MIN_SLOW_FILES:
            self._started(slow)

    def read_ahead(self, jobs: Sequence[Job]) -> None:
        """Files to be read by a later :meth:`read` (the next group of an import): once the
        next :meth:`read` has handed the workers its own slow files, they get these slow files
        too, so they read them while this process stores what it has (instead of waiting).
        A later :meth:`read` of the same job (the same bytes object, name and password) takes
        the worker's answer instead of reading it again. Nothing is handed on while the
        workers are not ready. At most one batch waits: a new call replaces the last."""
        self._next = list(jobs)

    def _given_ahead(self, job: Job) -> Future[Ingested | str] | None:
        """The worker's future for ``job`` handed on by :meth:`read_ahead` (taken out)."""
        found = self._ahead.pop(id(job[0]), None)
        if found is None:
            return None
        given, future = found
        if given[0] is job[0] and given[1:] == job[1:]:
            return future
        future.cancel()
        return None

    def read(self, jobs: Sequence[Job]) -> list[Ingested | str]:
        """Read every job (see :func:`read_one`); results in the order of ``jobs``.

        Slow files go to the workers when they are ready (those handed on by
        :meth:`read_ahead` are with them already); this process reads the light files,
        then takes the slow files the workers have not started, from the end of the list,
        until the two meet. Then the workers get the files of :meth:`read_ahead`."""
        results: list[Ingested | str | None] = [None] * len(jobs)
        slow = [i for i, (data, name, _pw) in enumerate(jobs)
                if detect.detect_type(data, name) not in LIGHT_TYPES]
        pool = self._started(len(slow))
        futures: dict[int, Future[Ingested | str]] = {}
        ahead, self._next = self._next, []
        if pool is not None:
            from concurrent.futures.process import BrokenProcessPool

            try:
                for i in slow:
                    given = self._given_ahead(jobs[i])
                    futures[i] = given if given is not None else pool.submit(read_one, *jobs[i])
                for job in ahead:
                    if (id(job[0]) not in self._ahead
                            and detect.detect_type(job[0], job[1]) not in LIGHT_TYPES):
                        self._ahead[id(job[0])] = (job, pool.submit(read_one, *job))
            except (BrokenProcessPool, RuntimeError):
                self.broken = True
                futures = {}
                self._ahead.clear()
        for i, job in enumerate(jobs):
            if i not in futures:
                results[i] = read_one(*job)
        for i in reversed(slow):
            future = futures.get(i)
            if future is not None and future.cancel():
                results[i] = read_one(*jobs[i])
        for i, future in futures.items():
            if results[i] is not None:
                continue
            try:
                results[i] = future.result()
                self.read_by_workers += 1
            except Exception as exc:  # a worker died (or its answer was lost): read it here
                from concurrent.futures.process import BrokenProcessPool

                self.broken = self.broken or isinstance(exc, BrokenProcessPool)
                results[i] = read_one(*jobs[i])
        return [r if r is not None else read_one(*jobs[i]) for i, r in enumerate(results)]


#: The pool :func:`start_early_pool` started and no import took yet (at most one).
_early: list[ReaderPool] = []


def start_early_pool(names: Sequence[str]) -> None:
    """Start a pool of the default number of workers now (:meth:`ReaderPool.expect` on
    ``names``), for the next :func:`take_early_pool`: a command that imports files calls this
    before loading the rest of Casefile, so the workers load their readers meanwhile. Nothing
    is started when one waits already or the files do not need workers."""
    if _early:
        return
    pool = ReaderPool()
    pool.expect(names)
    if pool.started:
        _early.append(pool)


def take_early_pool(workers: int | None = None) -> ReaderPool:
    """The pool :func:`start_early_pool` started (taken: the caller closes it), when
    ``workers`` is None (the default number); otherwise, or when none waits, a new
    ``ReaderPool(workers)``."""
    if workers is None and _early:
        return _early.pop()
    return ReaderPool(workers)


def close_early_pool() -> None:
    """Stop the workers of a pool :func:`start_early_pool` started that no import took (the
    command failed before its import began)."""
    while _early:
        _early.pop().close()
