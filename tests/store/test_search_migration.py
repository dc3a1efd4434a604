"""Revision 0003 re-indexes a workspace made at 0001: its documents are found afterwards, with
the new matching rules (accents folded), on SQLite and PostgreSQL."""

from __future__ import annotations

from sqlalchemy import insert, text
from sqlalchemy.orm import Session

from casefile.store import Item
from casefile.store import search as search_backend
from casefile.store.workspace import make_engine, open_workspace
from tests.store.old_rows import old_case, old_document, upgrade_to

OLD_ROWS = {
    "Łódź harbour audit": "The audit of the Łódź harbour found unpaid invoices.",
    "Deleted memo": "A memo about Zanzibar.",
}


def test_workspace_made_at_0001_with_documents_is_reindexed_on_upgrade(url: str) -> None:
    engine = make_engine(url)
    upgrade_to(engine, "0001")
    sqlite = engine.dialect.name == "sqlite"
    with Session(engine) as s, s.begin():
        case_id = old_case(s)
        ids = {}
        for title, body in OLD_ROWS.items():
            ids[title] = old_document(s, case_id, title, body)
        # the person's rows as 0001 had them (the Person class has columns added since)
        person_id = s.execute(insert(Item.__table__).values(
            case_id=case_id, kind="person", title="Seán O’Brien", notes="Harbour master")
            .returning(Item.__table__.c.id)).scalar_one()
        s.execute(text("INSERT INTO people (id, aliases) VALUES (:i, '[]')"), {"i": person_id})
        # the index as 0001 wrote it
        rows = [(i, t, b) for t, i in ids.items() for b in [OLD_ROWS[t]]]
        rows.append((person_id, "Seán O’Brien", "Harbour master"))
        for item_id, title, body in rows:
            s.execute(text(f"INSERT INTO {'search_fts' if sqlite else 'search_pg'} "
                           "(item_id, case_id, title, body) VALUES (:i, :c, :t, :b)"),
                      {"i": item_id, "c": case_id, "t": title, "b": body})
        # a document deleted at 0001 whose index row stayed behind (SQLite had no cascade)
        s.execute(text("DELETE FROM documents WHERE id = :i"), {"i": ids["Deleted memo"]})
        s.execute(text("DELETE FROM items WHERE id = :i"), {"i": ids["Deleted memo"]})
    engine.dispose()

    ws = open_workspace(db_url=url)
    try:
        with ws.transaction() as s:
            hits = search_backend.search(s, "Lodz")
            assert [h.item_id for h in hits] == [ids["Łódź harbour audit"]]
            assert hits[0].snippet == "The audit of the [Łódź] harbour found unpaid invoices."
            assert [h.item_id for h in search_backend.search(s, "O'Brien")] == [person_id]
            assert len(search_backend.search(s, "harbour")) == 2
            assert search_backend.search(s, "Zanzibar") == []
            table = "search_fts_docs" if sqlite else "search_pg"
            assert s.scalar(text(f"SELECT count(*) FROM {table}")) == 2
    finally:
        ws.close()
