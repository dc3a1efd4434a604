"""Python's cyclic garbage collector, kept out of the way of work that makes many objects.

A full collection walks every live object (SQLAlchemy's, reportlab's, the window's: hundreds
of thousands) and holds the interpreter lock meanwhile; work that grows the heap fast (a big
read, a brief, loading the libraries) triggers such passes again and again, for nothing when
what it makes holds no cycles or lives on. :func:`paused` stops the collector for a block;
:func:`loaded_and_frozen` imports modules with it stopped, then moves everything alive into its
permanent generation (``gc.freeze``) so later collections skip them. No Qt, no I/O.
"""

from __future__ import annotations

import gc
import importlib
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

_LOCK = threading.Lock()
_paused = 0  # paused() blocks running now, in any thread
_was_on = True  # whether the collector ran before the first of them


@contextmanager
def paused() -> Iterator[None]:
    """The collector stopped for the block (cycles made meanwhile are collected after it).
    Nested and concurrent blocks (threads) resume it when the last one ends, and only if it
    was on before the first."""
    global _paused, _was_on
    with _LOCK:
        if _paused == 0:
            _was_on = gc.isenabled()
            gc.disable()
        _paused += 1
    try:
        yield
    finally:
        with _LOCK:
            _paused -= 1
            if _paused == 0 and _was_on:
                gc.enable()


def loaded_and_frozen(modules: Iterable[str], then: Callable[[], None] | None = None) -> None:
    """Import ``modules`` with the collector paused, call ``then`` (set-up that makes
    long-lived objects, such as the models' mappers), then freeze what is alive
    (``gc.freeze``, before the collector runs again). A no-op when all of them are loaded
    already, so nothing made later is frozen."""
    names = list(modules)
    if all(name in sys.modules for name in names):
        return
    with paused():
        for name in names:
            importlib.import_module(name)
        if then is not None:
            then()
        # frozen before the collector resumes: its first pass would otherwise walk every
        # object just loaded, young as they all are (about 30-50 ms of every command)
        gc.freeze()


def collect_all() -> int:
    """A full collection that reaches the frozen objects too: everything is handed back to the
    collector (``gc.unfreeze``), collected, and what is still alive frozen again. Holds the
    interpreter lock for as long as a full pass over the heap takes (80-170 ms with the window
    open), so the window runs it only when the user is idle (ARCHITECTURE.md, "The window":
    cold start and responsiveness). Returns the number of unreachable objects found."""
    with _LOCK:
        gc.unfreeze()
        try:
            return gc.collect()
        finally:
            gc.freeze()
