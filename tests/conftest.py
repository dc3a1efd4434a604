"""Shared fixtures: a fresh workspace per test (SQLite, and PostgreSQL when configured).

Set CASEFILE_TEST_DB_URL (e.g. postgresql+psycopg://postgres@127.0.0.1:54329/postgres) to run
every test that uses the ``workspace`` fixture on PostgreSQL as well: each such test gets a new
database created on that server and dropped afterwards. Migrating every one of those databases
from empty to head would dominate the suite's time, so the ``workspace`` fixture copies a template
database migrated once per test session (``CREATE DATABASE ... TEMPLATE``, PostgreSQL docs
"Template Databases"); ``pg_database`` stays an empty database for migration tests. A SQLite
workspace is likewise a copy of a workspace folder migrated once per test process
(:func:`new_sqlite_workspace`): its creation runs every revision, about a second each time.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
SAMPLES = SHARED / "samples"
ARTICLE = SAMPLES / "parkland-coral-springs-article.txt"
GOLD = SAMPLES / "parkland-gold.json"
PG_URL = os.environ.get("CASEFILE_TEST_DB_URL")

BACKENDS = [
    "sqlite",
    pytest.param("postgresql", marks=[
        pytest.mark.postgres,
        pytest.mark.skipif(not PG_URL, reason="CASEFILE_TEST_DB_URL not set"),
    ]),
]


UI_TESTS = Path(__file__).resolve().parent / "ui"
#: Fixtures that start a Qt application (pytest-qt).
QT_FIXTURES = {"qtbot", "qapp"}


def _imports_qt(module: ModuleType | None) -> bool:
    """True when the test module holds a Qt module or class at its top level."""
    for value in vars(module).values() if module is not None else ():
        name = value.__name__ if isinstance(value, ModuleType) else getattr(
            value, "__module__", None)
        if isinstance(name, str) and name.startswith("PySide6"):
            return True
    return False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``gui`` every test that needs a Qt application: the tests under tests/ui, those
    using a pytest-qt fixture and those of a module that imports Qt (``-m "not gui"`` then
    leaves out every one of them).

    Then the files holding a ``slow`` test go first, in their order: pytest-xdist hands out
    whole files in this order (``--dist loadfile``), and a two-minute file handed out last
    keeps one worker busy while the others have nothing left."""
    qt_modules: dict[object, bool] = {}
    for item in items:
        module = getattr(item, "module", None)
        if module not in qt_modules:
            qt_modules[module] = _imports_qt(module)
        if (item.path.is_relative_to(UI_TESTS) or qt_modules[module]
                or QT_FIXTURES & set(getattr(item, "fixturenames", ()))):
            item.add_marker(pytest.mark.gui)
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)  # stable: the order within kept


@pytest.fixture(autouse=True)
def _isolated_environment(tmp_path_factory: pytest.TempPathFactory,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Never touch the user's real workspace or settings from a test."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("CASEFILE_WORKSPACE", str(home / "default-workspace"))
    monkeypatch.delenv("CASEFILE_DB_URL", raising=False)
    monkeypatch.delenv("CASEFILE_SPACY_MODEL", raising=False)  # the default model unless asked
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))


def _new_pg_database(template: str | None = None) -> Iterator[str]:
    """Create a database on the test server (a copy of ``template`` if given); yield its URL;
    drop it afterwards."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    assert PG_URL
    name = f"cf_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    copy = f' TEMPLATE "{template}" STRATEGY FILE_COPY' if template else ""
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"{copy}'))
    url = make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    try:
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def pg_database() -> Iterator[str]:
    """A new, empty PostgreSQL database on the test server; yields its URL, drops it after."""
    if not PG_URL:
        pytest.skip("CASEFILE_TEST_DB_URL not set")
    yield from _new_pg_database()


@pytest.fixture(scope="session")
def pg_template() -> Iterator[str]:
    """Name of a PostgreSQL database migrated to head once per test session (to copy from)."""
    if not PG_URL:
        pytest.skip("CASEFILE_TEST_DB_URL not set")
    from sqlalchemy.engine import make_url

    from casefile.store.workspace import open_workspace

    for url in _new_pg_database():
        open_workspace(db_url=url).close()  # migrate, then let go: a template has no sessions
        yield str(make_url(url).database)


@pytest.fixture
def pg_workspace_database(pg_template: str) -> Iterator[str]:
    """A new PostgreSQL database already at head (a copy of ``pg_template``); yields its URL."""
    yield from _new_pg_database(pg_template)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite workspace folder created (migrated to head) once per test process, closed: what
    :func:`new_sqlite_workspace` copies."""
    from casefile.store.workspace import open_workspace

    folder = tmp_path_factory.mktemp("template") / "ws"
    open_workspace(folder).close()  # the last connection checkpoints: one file, no -wal
    return folder


def new_sqlite_workspace(template: Path, folder: Path):
    """Open a new workspace at ``folder`` (which must not exist): a copy of ``template``
    (modes kept), the same as a workspace created there, without running the migrations."""
    from casefile.store.workspace import open_workspace

    shutil.copytree(template, folder)
    return open_workspace(folder)


@pytest.fixture(params=BACKENDS)
def workspace(request: pytest.FixtureRequest, tmp_path: Path):
    """A fresh, migrated workspace: a temp SQLite folder, or a new PostgreSQL database."""
    from casefile.store.workspace import open_workspace

    if request.param == "sqlite":
        ws = new_sqlite_workspace(request.getfixturevalue("sqlite_template"), tmp_path / "ws")
    else:
        ws = open_workspace(db_url=request.getfixturevalue("pg_workspace_database"))
    yield ws
    ws.close()


@pytest.fixture
def sqlite_workspace(sqlite_template: Path, tmp_path: Path):
    """A fresh SQLite workspace folder (for tests about files, backups and the CLI)."""
    ws = new_sqlite_workspace(sqlite_template, tmp_path / "ws")
    yield ws
    ws.close()


@pytest.fixture
def case_id(workspace) -> int:
    """A case titled "Test case" in the fresh workspace."""
    from casefile.services.cases import create_case

    with workspace.transaction() as s:
        return create_case(s, "Test case").id
