"""Rows written as an older schema had them, for migration tests: the ORM classes carry the
columns of the newest schema, which an older database does not have. :func:`upgrade_to` brings
a database to such a revision first."""

from __future__ import annotations

from sqlalchemy import Engine, insert, text
from sqlalchemy.orm import Session

from casefile.store import Blob, Case, Item
from casefile.store.workspace import alembic_config


def sqlite_indexes(url: str, table: str) -> set[str]:
    """The names of the indexes SQLite holds on ``table`` of the workspace at ``url``."""
    from casefile.store.workspace import make_engine

    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return {r[1] for r in conn.execute(text(f"PRAGMA index_list({table})"))}
    finally:
        engine.dispose()


def upgrade_to(engine: Engine, revision: str, *, down: bool = False) -> None:
    """Bring ``engine``'s database (empty, or at an older revision) to Alembic ``revision``
    ("0006", "head"), in one transaction; with ``down``, take a newer one back to it."""
    from alembic import command

    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(cfg, revision)


def old_case(session: Session) -> int:
    """Add a case and the placeholder original (sha256 "0" * 64) that :func:`old_document`
    rows point at; returns the case's id."""
    case = Case(title="Old case")
    session.add_all([case, Blob(sha256="0" * 64, size=1, data=b"x")])
    session.flush()
    return case.id

def old_person(session: Session, case_id: int, title: str, notes: str | None = None) -> int:
    """Add a person with only the columns every revision has (an ``items`` row and a ``people``
    row with no aliases); returns its id."""
    person_id = session.execute(insert(Item.__table__).values(
        case_id=case_id, kind="person", title=title, notes=notes)
        .returning(Item.__table__.c.id)).scalar_one()
    session.execute(text("INSERT INTO people (id, aliases) VALUES (:i, '[]')"), {"i": person_id})
    return int(person_id)


def old_document(session: Session, case_id: int, title: str, body: str, *,
                 notes: str | None = None, outlet: str | None = None,
                 sha256: str = "0" * 64) -> int:
    """Add a plain-text document with only the columns every revision has (an ``items`` row
    and a ``documents`` row); returns its id."""
    doc_id = session.execute(insert(Item.__table__).values(
        case_id=case_id, kind="document", title=title, notes=notes)
        .returning(Item.__table__.c.id)).scalar_one()
    session.execute(text(
        "INSERT INTO documents (id, doc_kind, status, sha256, mime_type, text, outlet, "
        "import_notes, meta) VALUES (:i, 'article', 'obtained', :sha, 'text/plain', :body, "
        ":outlet, '[]', '{}')"), {"i": doc_id, "sha": sha256, "body": body, "outlet": outlet})
    return int(doc_id)
