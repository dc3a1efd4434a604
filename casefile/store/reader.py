"""Plain SQL through the database driver, for hot read paths (search).

A :class:`Reader` runs SQL written with ``:name`` parameters directly on a DBAPI connection
(sqlite3 or psycopg), skipping SQLAlchemy's statement layer and, when made by
:func:`reading`, the ORM session too. Measured at 100,000 documents: a session
costs about 0.5 ms a use (open, connection checkout, BEGIN, commit, close) and SQLAlchemy
about 0.25 ms a statement on PostgreSQL, against 3-5 ms for a whole search in SQLite.

Driver errors propagate unchanged (``sqlite3.Error``, ``psycopg.Error``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

#: ``run(sql, params)``: every row of ``sql`` (``:name`` parameters) run with ``params``.
Run = Callable[[str, dict[str, object]], Sequence[Sequence[Any]]]


@dataclass(frozen=True)
class Reader:
    """Read access in one transaction: ``run`` (:data:`Run`), and ``dialect``, SQLAlchemy's
    name of the engine ("sqlite" or "postgresql"), for SQL that differs between them."""

    dialect: str
    run: Run


_NAMED_PARAM = re.compile(r"(?<![:\w]):(\w+)")


@lru_cache(maxsize=512)
def _pyformat(sql: str) -> str:
    """``sql`` with its ``:name`` parameters written ``%(name)s`` (psycopg's style)."""
    return _NAMED_PARAM.sub(r"%(\1)s", sql)


def dbapi_runner(dbapi: Any, dialect: str) -> Run:
    """A :data:`Run` on the DBAPI connection ``dbapi`` of ``dialect``, in whatever
    transaction the connection is in. sqlite3 takes ``:name`` parameters as they are;
    for psycopg they are rewritten ``%(name)s`` (cached per statement)."""
    if dialect == "sqlite":
        def run_sqlite(sql: str, params: dict[str, object]) -> Sequence[Sequence[Any]]:
            cur = dbapi.cursor()
            try:
                return cur.execute(sql, params).fetchall()
            finally:
                cur.close()
        return run_sqlite

    def run_pg(sql: str, params: dict[str, object]) -> Sequence[Sequence[Any]]:
        cur = dbapi.cursor()
        try:
            cur.execute(_pyformat(sql), params)
            return cur.fetchall()
        finally:
            cur.close()
    return run_pg


def session_reader(session: Session) -> Reader:
    """A :class:`Reader` on the session's own connection, in its current transaction (begun
    here if needed), after flushing the session, so that it sees the session's uncommitted
    changes."""
    session.flush()  # as the session's own queries would (autoflush)
    conn = session.connection()
    dbapi = conn.connection.dbapi_connection
    assert dbapi is not None
    return Reader(conn.dialect.name, dbapi_runner(dbapi, conn.dialect.name))


@contextmanager
def reading(engine: Engine) -> Iterator[Reader]:
    """A read-only transaction without an ORM session: a connection from ``engine``'s pool,
    ``BEGIN`` on SQLite (the workspace engine turns pysqlite's own transaction handling off,
    see ``workspace.make_engine``), the driver's implicit transaction on PostgreSQL; rolled
    back at the end (nothing is kept; transaction-local settings are undone) and the
    connection returned to the pool, also after an error. The Reader's ``run`` raises
    RuntimeError once the block has ended (it would run on a connection now in the pool).

    Plain driver SQL: on PostgreSQL a literal ``%`` must be written ``%%``, and ``:name``
    is taken as a parameter even inside a string literal; pass values as parameters."""
    fairy = engine.raw_connection()
    try:
        dbapi = fairy.driver_connection
        assert dbapi is not None
        dialect = engine.dialect.name
        if dialect == "sqlite":
            dbapi.execute("BEGIN")
        run = dbapi_runner(dbapi, dialect)
        active = True

        def guarded(sql: str, params: dict[str, object]) -> Sequence[Sequence[Any]]:
            if not active:
                raise RuntimeError("this Reader's transaction has ended (used after its block)")
            return run(sql, params)

        try:
            yield Reader(dialect, guarded)
        finally:
            active = False
            dbapi.rollback()
    finally:
        fairy.close()
