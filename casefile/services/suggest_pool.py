"""Suggestions for a batch of documents, the extractor running in worker processes.

Step two of a batch import (ARCHITECTURE.md, "Import: the document first, suggestions
after"): :func:`suggest_in_background` reads the documents and
what the extractor is given besides them (:func:`casefile.services.suggestions.extraction_context`,
once per case), sends the extraction to a :class:`SuggestionPool` (``ProcessPoolExecutor``,
spawn context: one process per core, at a lower priority, each loading the spaCy pipeline
once, each ending with the calling process: :mod:`casefile.workers`) and stores each result
through the service,
:func:`casefile.services.suggestions.suggest_for_document` with ``extracted=``, a few documents
per transaction. The calling thread only reads and stores, so a window that runs this on a
worker thread stays responsive and every core extracts.
"""

from __future__ import annotations

import atexit
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import AbstractContextManager, suppress
from datetime import date
from typing import TYPE_CHECKING, Any, Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from casefile.errors import NotFoundError
from casefile.services.changes import Changes, changes
from casefile.store import Document, Item
from casefile.store.conflicts import retry_on_conflict
from casefile.workers import process_pool

if TYPE_CHECKING:
    from casefile.extract.types import KnownItem
    from casefile.services.suggestions import SuggestionResult

TransactionFactory = Callable[[], AbstractContextManager[Session]]
_DOCUMENTS = Document.metadata.tables["documents"]
_ITEMS = Item.metadata.tables["items"]
#: Documents whose suggestions are stored in one transaction.
STORE_GROUP = 16
#: How much lower than the window the extracting processes run (``os.nice``).
WORKER_NICENESS = 5


def _lower_priority() -> None:
    """Worker start: yield the CPU to the window (best effort; POSIX only)."""
    if hasattr(os, "nice"):
        with suppress(OSError):
            os.nice(WORKER_NICENESS)


def extract_job(text: str, published: date | None, known: Sequence[KnownItem],
                rejected: set[str], mode: Literal["auto", "rules"],
                model: str | None) -> dict[str, Any]:
    """Run in a worker: :func:`casefile.extract.extract_suggestions` on one document. An
    error comes back as ``{"_error": (kind, ...)}`` (ModelError's arguments do not survive
    pickling; :func:`_result` raises it again in the calling process)."""
    from casefile.extract import extract_suggestions
    from casefile.extract.model import ModelError

    try:
        return extract_suggestions(text, published, known=known, rejected=rejected, mode=mode,
                                   model=model)
    except ModelError as exc:
        return {"_error": ("model", exc.name, exc.reason)}
    except Exception as exc:  # any other failure: its type and message
        return {"_error": ("other", type(exc).__name__, str(exc))}


def _result(future: Future[dict[str, Any]]) -> dict[str, Any]:
    """The extraction's result; raises ModelError, or RuntimeError naming the worker's
    error."""
    found = future.result()
    error = found.get("_error")
    if error is None:
        return found
    if error[0] == "model":
        from casefile.extract.model import ModelError

        raise ModelError(error[1], error[2])
    raise RuntimeError(f"the extractor failed ({error[1]}: {error[2]})")


def default_workers() -> int:
    """One extracting process per core (the calling thread mostly waits), at most 8."""
    return max(1, min(os.cpu_count() or 1, 8))


class SuggestionPool:
    """Worker processes running the extractor; started at the first :meth:`submit`, kept
    until :meth:`close` so the spaCy pipeline loads once per worker."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = default_workers() if workers is None else max(1, workers)
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def submit(self, *args: Any) -> Future[dict[str, Any]]:
        """Queue :func:`extract_job` with these arguments."""
        with self._lock:
            if self._pool is not None and getattr(self._pool, "_broken", False):
                self._pool.shutdown(wait=False, cancel_futures=True)  # a worker died
                self._pool = None
            if self._pool is None:
                self._pool = process_pool(self.workers, initializer=_lower_priority)
            return self._pool.submit(extract_job, *args)

    def close(self) -> None:
        """Stop the workers (queued extractions are dropped)."""
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=True, cancel_futures=True)
                self._pool = None


_SHARED: SuggestionPool | None = None


def shared_pool() -> SuggestionPool:
    """The process's pool (made on first use, closed when the process exits)."""
    global _SHARED
    if _SHARED is None:
        _SHARED = SuggestionPool()
        atexit.register(_SHARED.close)
    return _SHARED


def suggest_in_background(
    transaction: TransactionFactory, document_ids: Sequence[int], *,
    model: str | None = None, mode: Literal["auto", "rules"] = "auto",
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    pool: SuggestionPool | None = None,
) -> Changes:
    """Suggest for ``document_ids`` as :func:`casefile.services.suggestions.suggest_documents`
    does (same mentions stored), the extraction in ``pool``'s processes (None:
    :func:`shared_pool`), the storing :data:`STORE_GROUP` documents per transaction (opened
    with ``transaction``), in the order given.

    A document whose text is too long for suggestions
    (:func:`casefile.extract.types.skipped_result`) is not sent to a worker; its result says
    it was skipped (and the Changes' message too). ``progress(done, total)`` is called after
    each stored group; ``cancelled()`` is checked
    before each group (True: the queued extractions are dropped, the groups stored stay, the
    Changes name the documents done). Returns Changes with ``suggestions`` set, ``documents``
    the documents done, ``value`` their SuggestionResult list and ``message`` the count of new
    suggestions. Raises NotFoundError for an unknown document and ModelError if the chosen
    model cannot load (the groups stored before stay)."""
    from casefile.extract.types import skipped_result
    from casefile.services.suggestions import (
        extraction_context,
        found_message,
        suggest_for_document,
    )

    ids = [int(i) for i in document_ids]
    pool = pool or shared_pool()
    with transaction() as session:
        docs, items = _DOCUMENTS, _ITEMS
        rows = {int(r[0]): (int(r[1]), r[2], r[3]) for r in session.connection().execute(
            select(docs.c.id, items.c.case_id, docs.c.text, docs.c.published)
            .join(items, items.c.id == docs.c.id).where(docs.c.id.in_(ids)))}
        missing = [i for i in ids if i not in rows]
        if missing:
            raise NotFoundError(f"no document with id {missing[0]}")
        contexts = {case: extraction_context(session, case)
                    for case in sorted({rows[i][0] for i in ids})}
    futures: list[Future[dict[str, Any]] | None] = []
    for doc_id in ids:
        case_id, text, published = rows[doc_id]
        known, rejected = contexts[case_id]
        skipped = skipped_result(len(text or ""))
        if skipped is not None:  # too long: not sent to a worker at all
            futures.append(Future())
            futures[-1].set_result(skipped)  # type: ignore[union-attr]
            continue
        futures.append(pool.submit(text, published, known, rejected, mode, model))
    results: list[SuggestionResult] = []
    done_ids: list[int] = []
    try:
        for start in range(0, len(ids), STORE_GROUP):
            if cancelled is not None and cancelled():
                break
            group = list(zip(ids[start:start + STORE_GROUP],
                             futures[start:start + STORE_GROUP], strict=True))
            extracted = [(doc_id, _result(future)) for doc_id, future in group
                         if future is not None]
            # results stored are let go: a batch's results kept to the end grow the heap
            # the garbage collector scans (its pauses hold every thread, the window's too)
            futures[start:start + STORE_GROUP] = [None] * len(group)

            def store(batch: list[tuple[int, dict[str, Any]]] = extracted
                      ) -> list[SuggestionResult]:
                with transaction() as session:
                    return [suggest_for_document(session, doc_id, mode=mode, extracted=found)
                            for doc_id, found in batch]

            results += retry_on_conflict(store)
            done_ids += [doc_id for doc_id, _f in group]
            if progress is not None:
                progress(len(done_ids), len(ids))
    finally:
        for future in futures:
            if future is not None:
                future.cancel()
    first_case = rows[ids[0]][0] if ids else None
    return changes(first_case, documents=done_ids, suggestions=True, label="suggestions",
                   message=found_message(results), value=results)
