"""Database users for team workspace tests: made on the test server (CASEFILE_TEST_DB_URL, a
superuser as in CI) with unique names, dropped afterwards; and the URL each logs in with."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import create_engine, text
from sqlalchemy.engine import Connection, make_url

from tests.conftest import PG_URL


@contextmanager
def connected(url: str) -> Iterator[Connection]:
    """A connection to ``url`` (its own engine, disposed of when the block ends)."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            yield conn
    finally:
        engine.dispose()


@contextmanager
def database_users(*kinds: str) -> Iterator[dict[str, str]]:
    """Create one LOGIN role per kind (``{kind: name}``, names unique to this run, password
    ``pw-NAME``); drop them at the end, with their privileges in any database left."""
    assert PG_URL
    tag = uuid.uuid4().hex[:8]
    users = {kind: f"{kind}_{tag}" for kind in kinds}
    server = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    try:
        with server.connect() as conn:
            for name in users.values():
                conn.execute(text(f"CREATE ROLE \"{name}\" LOGIN PASSWORD 'pw-{name}'"))
        yield users
    finally:
        with server.connect() as conn:
            for name in users.values():
                _drop_owned(name)
                conn.execute(text(f'DROP ROLE IF EXISTS "{name}"'))
        server.dispose()


def _drop_owned(name: str) -> None:
    """Take role ``name``'s privileges away in every database still holding some (a test's
    database dropped after its users is one)."""
    assert PG_URL
    server = create_engine(PG_URL)
    try:
        with server.connect() as conn:
            databases = [str(d) for (d,) in conn.execute(text(
                "SELECT DISTINCT d.datname FROM pg_shdepend s JOIN pg_database d "
                "ON d.oid = s.dbid JOIN pg_roles r ON r.oid = s.refobjid "
                "WHERE r.rolname = :n"), {"n": name})]
    finally:
        server.dispose()
    for database in databases:
        engine = create_engine(make_url(PG_URL).set(database=database),
                               isolation_level="AUTOCOMMIT")
        try:
            with engine.connect() as conn:
                conn.execute(text(f'DROP OWNED BY "{name}"'))
        finally:
            engine.dispose()


def user_url(db_url: str, name: str) -> str:
    """The URL of database ``db_url`` with user ``name``'s credentials."""
    return make_url(db_url).set(username=name, password=f"pw-{name}").render_as_string(
        hide_password=False)
