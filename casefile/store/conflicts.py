"""Recognise the database errors that mean "another writer got there first".

SQLite (WAL journal) refuses to let a transaction that read an older snapshot write once another
connection has committed: ``SQLITE_BUSY_SNAPSHOT``; a writer that waited past ``busy_timeout``
gets ``SQLITE_BUSY`` (sqlite.org/rescode.html, sqlite.org/wal.html "Sometimes Queries Return
SQLITE_BUSY In WAL Mode"). PostgreSQL reports serialization failures, deadlocks and lock
timeouts by SQLSTATE 40001, 40P01, 55P03 (postgresql.org/docs/15/errcodes-appendix.html).
Services turn these into ConflictError; the engine-specific codes stay in this package.
"""

from __future__ import annotations

from sqlalchemy.exc import DBAPIError

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
