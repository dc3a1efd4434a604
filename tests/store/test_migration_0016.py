"""Revision 0016 (SQLite's partial index of the documents left without suggestions for their
language) upgrades a 0015 workspace: the Suggestions panel's status names the same documents
before and after, then read from the index alone; downgrading drops the index and keeps the
notes."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

from casefile.extract.language import NOTE_PREFIX
from casefile.services.cases import create_case
from casefile.services.suggestions import unread_language_notes
from casefile.store import Document, document_notes
from casefile.store import workspace as wsmod
from tests.store.old_rows import sqlite_indexes, upgrade_to

INDEX = "ix_documents_language_notes"
KOREAN = f"{NOTE_PREFIX}Korean; ko_core_news_sm would read its names."


def _indexes(url: str) -> set[str]:
    return sqlite_indexes(url, "documents")


def _status(url: str, case_id: int) -> tuple[list[str], str]:
    """What the status says of documents left unread, and how SQLite reads them."""
    ws = wsmod.open_workspace(db_url=url, migrate=False)
    try:
        with ws.transaction(write=False) as s:
            plan = " ".join(str(r[3]) for r in s.execute(
                text("EXPLAIN QUERY PLAN " + document_notes._SQLITE), {"case_id": case_id}))
            return unread_language_notes(s, case_id), plan
    finally:
        ws.close()


def test_0015_workspace_upgrades_and_names_the_same_unread_documents(tmp_path: Path) -> None:
    url = wsmod.sqlite_url(tmp_path / "ws")
    ws = wsmod.open_workspace(db_url=url)
    try:
        with ws.transaction() as s:
            case_id = create_case(s, "Harbor").id
            other = create_case(s, "Another").id
            for k, notes in enumerate([[KOREAN], ["Published date from the page."], [],
                                       ["OCR: 2 pages.", KOREAN]]):
                s.add(Document(case_id=case_id, title=f"Document {k}", text="Text. " * 2000,
                               mime_type="text/plain", import_notes=notes))
            s.add(Document(case_id=other, title="Elsewhere", text="Text.",
                           mime_type="text/plain", import_notes=[KOREAN]))
    finally:
        ws.close()
    engine = wsmod.make_engine(url)
    try:
        upgrade_to(engine, "0015", down=True)
    finally:
        engine.dispose()
    assert INDEX not in _indexes(url)
    before, _plan = _status(url, case_id)
    assert before == [f"{KOREAN} (2 documents: “Document 0”, “Document 3”)"]
    wsmod.open_workspace(db_url=url).close()
    assert INDEX in _indexes(url)
    after, plan = _status(url, case_id)
    assert after == before
    assert INDEX in plan  # the documents holding the note, not every document of the case
    engine = wsmod.make_engine(url)
    try:
        upgrade_to(engine, "0015", down=True)
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM documents")).scalar() == 5
    finally:
        engine.dispose()
    assert INDEX not in _indexes(url)
    assert _status(url, case_id)[0] == before
