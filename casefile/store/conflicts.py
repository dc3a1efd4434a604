"""Recognise the database errors that mean "another writer got there first".

SQLite (WAL journal) refuses to let a transaction that read an older snapshot write once another
connection has committed: ``SQLITE_BUSY_SNAPSHOT``; a writer that waited past ``busy_timeout``
gets ``SQLITE_BUSY`` (sqlite.org/rescode.html, sqlite.org/wal.html "Sometimes Queries Return
SQLITE_BUSY In WAL Mode"). PostgreSQL reports serialization failures, deadlocks and lock
timeouts by SQLSTATE 40001, 40P01, 55P03 (postgresql.org/docs/15/errcodes-appendix.html).
Services turn these into ConflictError; the engine-specific codes stay in this package.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.exc import DBAPIError

T = TypeVar("T")

SQLITE_BUSY = 5
SQLITE_BUSY_SNAPSHOT = 517
PG_CONFLICT_STATES = frozenset({"40001", "40P01", "55P03"})


def is_write_conflict(exc: BaseException) -> bool:
    """True when ``exc`` (a SQLAlchemy DBAPIError) means a concurrent writer won the race."""
    if not isinstance(exc, DBAPIError):
        return False
    orig = exc.orig
    code = getattr(orig, "sqlite_errorcode", None)
    if code is not None:
        return code in (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT)
    return getattr(orig, "sqlstate", None) in PG_CONFLICT_STATES


def retry_on_conflict(
    action: Callable[[], T], *, attempts: int = 8, first_delay: float = 0.05
) -> T:
    """Run ``action`` (which opens and commits its own transaction) again when it loses a write
    race to another connection, waiting 0.05 s, 0.1 s, 0.2 s… between tries.

    Two processes importing into one SQLite workspace at once is the common case: the loser of
    a race gets SQLITE_BUSY(_SNAPSHOT) at its first write and simply tries again from a fresh
    snapshot. Raises the last error after ``attempts`` tries, or at once for any other error.
    """
    delay = first_delay
    for attempt in range(1, attempts + 1):
        try:
            return action()
        except DBAPIError as exc:
            if attempt == attempts or not is_write_conflict(exc):
                raise
        time.sleep(delay)
        delay = min(delay * 2, 2.0)
    raise AssertionError("unreachable")
