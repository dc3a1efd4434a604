"""Released migrations are history: a workspace upgraded revision by revision over the months
has the schema of one made today, so what each revision makes must never change. The schema
after every revision, and after taking each one back, is recorded in ``schema_history/``
(one file per engine) and a run of the migrations must give it again, on SQLite and, with
CASEFILE_TEST_DB_URL set, on PostgreSQL.

Each file lists, revision by revision, what ``upgrade`` changed (``+`` a new object with its
definition, ``~`` a changed one, ``-`` one gone) and how the schema after its ``downgrade``
differs from the one before the upgrade (usually nothing). SQLite's objects are the rows of
``sqlite_master`` (the CREATE statements as stored); PostgreSQL's are read from the catalogs:
columns in their order, indexes, constraints, row-level security and policies, functions,
triggers, sequences. Alembic's batch mode copies a SQLite table's constraints in no fixed order,
so a CREATE TABLE's constraint clauses are compared as a set; everything else as written.

A new revision appends its sections: run ``python -m tests.store.test_migration_history`` (with
CASEFILE_TEST_DB_URL set for the PostgreSQL file) and check that the diff only adds. A change to
an older section means a released revision now makes another schema: change the migration back.
The scripts run are the checkout's ``db/`` (the files shipped as ``casefile.db``).
"""

from __future__ import annotations

import itertools
import os
import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, text

from casefile.store import workspace as wsmod

HISTORY = Path(__file__).resolve().parent / "schema_history"
SCRIPTS = Path(__file__).resolve().parents[2] / "db"
PG_URL = os.environ.get("CASEFILE_TEST_DB_URL")

Schema = dict[str, str]

_CONSTRAINT = ("CONSTRAINT ", "PRIMARY KEY", "FOREIGN KEY", "UNIQUE", "CHECK")


def _sqlite_statement(sql: str) -> str:
    """``sql`` as stored, with a CREATE TABLE's constraint clauses sorted (columns stay in
    their order)."""
    lines = sql.split("\n")
    if not lines[0].startswith("CREATE TABLE") or len(lines) < 3:
        return sql
    body = [line.strip().removesuffix(",").rstrip() for line in lines[1:-1]]
    columns = [line for line in body if not line.startswith(_CONSTRAINT)]
    constraints = sorted(line for line in body if line.startswith(_CONSTRAINT))
    return "\n".join([lines[0], *columns, *constraints, lines[-1]])


def sqlite_schema(conn: Connection) -> Schema:
    """Every object of ``sqlite_master``: ``"<type> <name>"`` -> its statement."""
    rows = conn.execute(text("SELECT type, name, sql FROM sqlite_master")).all()
    return {f"{kind} {name}": _sqlite_statement(sql or "") for kind, name, sql in rows}


_PG_CATALOG = {
    "column": "SELECT table_name || '.' || column_name, concat_ws(' ', ordinal_position, "
              "data_type, character_maximum_length, CASE is_nullable WHEN 'NO' THEN 'NOT NULL' "
              "END, 'DEFAULT ' || column_default, 'GENERATED ' || generation_expression) "
              "FROM information_schema.columns WHERE table_schema = 'public'",
    "index": "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'",
    "constraint": "SELECT c.conrelid::regclass::text || '.' || c.conname, "
                  "pg_get_constraintdef(c.oid) FROM pg_constraint c "
                  "JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = 'public'",
    "security": "SELECT relname, concat_ws(' ', 'ROW LEVEL SECURITY', "
                "CASE WHEN relforcerowsecurity THEN 'FORCED' END) FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = 'public' AND relkind = 'r' AND relrowsecurity",
    "policy": "SELECT tablename || '.' || policyname, concat_ws(' ', cmd, 'USING ' || qual, "
              "'WITH CHECK ' || with_check) FROM pg_policies WHERE schemaname = 'public'",
    "function": "SELECT p.oid::regprocedure::text, pg_get_functiondef(p.oid) FROM pg_proc p "
                "JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'",
    "trigger": "SELECT t.tgrelid::regclass::text || '.' || t.tgname, pg_get_triggerdef(t.oid) "
               "FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
               "JOIN pg_namespace n ON n.oid = c.relnamespace "
               "WHERE n.nspname = 'public' AND NOT t.tgisinternal",
    "sequence": "SELECT sequencename, concat_ws(' ', data_type, start_value, increment_by) "
                "FROM pg_sequences WHERE schemaname = 'public'",
}


def pg_schema(conn: Connection) -> Schema:
    """Every object of the ``public`` schema: ``"<kind> <name>"`` -> its definition."""
    return {f"{kind} {name}": definition.strip()
            for kind, sql in _PG_CATALOG.items()
            for name, definition in conn.execute(text(sql)).all()}


def delta(before: Schema, after: Schema) -> list[str]:
    """How ``after`` differs from ``before``, one object at a time in name order."""
    out: list[str] = []
    for key in sorted(before.keys() | after.keys()):
        if key not in after:
            out.append(f"- {key}")
        elif before.get(key) != after[key]:
            out.append(f"{'+' if key not in before else '~'} {key}")
            out += [f"    {line}" for line in after[key].split("\n") if after[key]]
    return out


def _config(scripts: Path) -> Config:
    cfg = wsmod.alembic_config()
    cfg.set_main_option("script_location", str(scripts))
    return cfg


def _migrate(engine: Engine, scripts: Path, to: str, *, down: bool = False) -> None:
    cfg = _config(scripts)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(cfg, to)


def _read(engine: Engine, read: Callable[[Connection], Schema]) -> Schema:
    with engine.connect() as conn:
        return read(conn)


def history(url: str, scripts: Path, copy: Callable[[Engine], Iterator[Engine]],
            read: Callable[[Connection], Schema]) -> dict[str, list[str]]:
    """Each revision's sections (``"0003 upgrade"`` / ``"0003 downgrade"`` -> lines), for the
    empty database at ``url`` taken up one revision of ``scripts`` at a time; each downgrade
    runs on a copy (``copy(engine)`` yields an engine on one) of the database at that revision."""
    revisions = [s.revision for s in reversed(list(
        ScriptDirectory.from_config(_config(scripts)).walk_revisions()))]
    sections: dict[str, list[str]] = {}
    engine = wsmod.make_engine(url)
    try:
        previous, before = "base", _read(engine, read)
        for revision in revisions:
            _migrate(engine, scripts, revision)
            after = _read(engine, read)
            sections[f"{revision} upgrade"] = delta(before, after)
            with contextmanager(copy)(engine) as copied:
                _migrate(copied, scripts, previous, down=True)
                sections[f"{revision} downgrade"] = delta(before, _read(copied, read))
            previous, before = revision, after
    finally:
        engine.dispose()
    return sections


def render(sections: dict[str, list[str]]) -> str:
    return "".join(f"== {name}\n" + "".join(f"{line}\n" for line in lines)
                   for name, lines in sections.items())


def parse(recorded: str) -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    lines: list[str] = []
    for line in recorded.splitlines():
        if line.startswith("== "):
            lines = sections.setdefault(line[3:], [])
        else:
            lines.append(line)
    return sections


def sqlite_history(folder: Path, scripts: Path = SCRIPTS) -> dict[str, list[str]]:
    copies = itertools.count()

    def copy(engine: Engine) -> Iterator[Engine]:
        target = folder / f"copy-{next(copies)}.sqlite3"
        raw = engine.raw_connection()  # the engine's connections begin a transaction
        try:
            driver = raw.driver_connection
            assert driver is not None
            driver.execute("VACUUM INTO ?", (str(target),))
        finally:
            raw.close()
        copied = wsmod.make_engine(f"sqlite:///{target}")
        try:
            yield copied
        finally:
            copied.dispose()

    return history(f"sqlite:///{folder / 'steps.sqlite3'}", scripts, copy, sqlite_schema)


def pg_history(scripts: Path = SCRIPTS) -> dict[str, list[str]]:
    from tests.conftest import _new_pg_database

    def copy(engine: Engine) -> Iterator[Engine]:
        engine.dispose()  # a template database has no other sessions
        with contextmanager(_new_pg_database)(engine.url.database) as url:
            copied = wsmod.make_engine(url)
            try:
                yield copied
            finally:
                copied.dispose()

    with contextmanager(_new_pg_database)() as url:
        return history(url, scripts, copy, pg_schema)


def check(sections: dict[str, list[str]], engine: str) -> None:
    """Fail unless every one of ``sections`` is recorded for ``engine`` as it is, and every
    recorded revision is still there."""
    recorded = parse((HISTORY / f"{engine}.txt").read_text(encoding="utf-8"))
    for name, lines in sections.items():
        assert name in recorded, (
            f"revision {name} is not recorded in schema_history/{engine}.txt: run "
            "python -m tests.store.test_migration_history to append it")
        assert lines == recorded[name], (
            f"{name} on {engine} no longer makes the schema it made when it was released")
    assert recorded.keys() <= sections.keys(), "a recorded revision is gone from db/versions"


def test_every_revision_makes_the_schema_it_always_made_on_sqlite(tmp_path: Path) -> None:
    check(sqlite_history(tmp_path), "sqlite")


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.skipif(not PG_URL, reason="CASEFILE_TEST_DB_URL not set")
def test_every_revision_makes_the_schema_it_always_made_on_postgresql() -> None:
    check(pg_history(), "postgresql")


def test_a_revision_made_to_make_another_schema_is_caught(tmp_path: Path) -> None:
    """Revision 0001 changed as a refactoring might change it by mistake (one foreign key's
    ON DELETE) fails the check, though the tables, columns and constraint names stay."""
    scripts = tmp_path / "db"
    shutil.copytree(SCRIPTS, scripts, ignore=shutil.ignore_patterns("__pycache__"))
    initial = next((scripts / "versions").glob("0001_*.py"))
    source = initial.read_text(encoding="utf-8")
    assert '"SET NULL"' in source
    initial.write_text(source.replace('"SET NULL"', '"CASCADE"', 1), encoding="utf-8")
    (tmp_path / "steps").mkdir()
    with pytest.raises(AssertionError, match="0001 upgrade on sqlite no longer makes"):
        check(sqlite_history(tmp_path / "steps", scripts), "sqlite")


def append_new(sections: dict[str, list[str]], engine: str) -> list[str]:
    """Append to ``engine``'s file the sections of revisions it does not hold yet; returns the
    names of recorded sections that differ (left as they are: see the module docstring)."""
    path = HISTORY / f"{engine}.txt"
    recorded = parse(path.read_text(encoding="utf-8")) if path.exists() else {}
    new = {name: lines for name, lines in sections.items() if name not in recorded}
    with path.open("a", encoding="utf-8") as out:
        out.write(render(new))
    return [name for name in recorded if sections.get(name) != recorded[name]]


if __name__ == "__main__":
    import tempfile

    HISTORY.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        changed = append_new(sqlite_history(Path(tmp)), "sqlite")
    if PG_URL:
        changed += append_new(pg_history(), "postgresql")
    else:
        print("CASEFILE_TEST_DB_URL not set: postgresql.txt left as it is", file=sys.stderr)
    if changed:
        sys.exit(f"released revisions now make another schema: {', '.join(changed)}")
