"""Revision 0004 drops the search index's copy of document text from a workspace made at 0003:
its documents are still found, with the same snippets, and deleting a case empties the index."""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.orm import Session

from casefile.store import search as search_backend
from casefile.store.workspace import make_engine, open_workspace
from tests.store.old_rows import old_case, old_document, old_person, upgrade_to

MEMO = "The audit of the Łódź harbour found unpaid invoices.\n\nA second paragraph."


def _index_as_0003(s: Session, sqlite: bool, item_id: int, case_id: int, title: str,
                   body: str) -> None:
    """The index rows 0003's ``index_item`` wrote: the whole body, document text included."""
    if sqlite:
        s.execute(text("INSERT INTO search_fts (rowid, title, body) VALUES (:i, :t, :b)"),
                  {"i": item_id, "t": " ".join(search_backend.tokens(title)),
                   "b": " ".join(search_backend.tokens(body))})
        s.execute(text("INSERT INTO search_fts_docs (item_id, case_id, title, body) "
                       "VALUES (:i, :c, :t, :b)"),
                  {"i": item_id, "c": case_id, "t": title, "b": body})
    else:
        s.execute(text("INSERT INTO search_pg (item_id, case_id, title, body, tsv) "
                       "VALUES (:i, :c, :t, :b, CAST(:v AS tsvector))"),
                  {"i": item_id, "c": case_id, "t": title, "b": body,
                   "v": search_backend.tsvector_literal(title, body)})


def test_workspace_made_at_0003_keeps_results_and_snippets_without_the_text_copy(
        url: str) -> None:
    engine = make_engine(url)
    upgrade_to(engine, "0003")
    sqlite = engine.dialect.name == "sqlite"
    with Session(engine) as s, s.begin():
        case_id = old_case(s)
        memo_id = old_document(s, case_id, "Harbour audit", MEMO)
        noted_id = old_document(s, case_id, "Noted", "Zanzibar ledger entries.",
                                notes="Call the clerk", outlet="Gazette")
        person_id = old_person(s, case_id, "Seán O’Brien", "Harbour master")
        case_id, ids = case_id, {"memo": memo_id, "noted": noted_id, "person": person_id}
        _index_as_0003(s, sqlite, memo_id, case_id, "Harbour audit", MEMO)
        _index_as_0003(s, sqlite, noted_id, case_id, "Noted",
                       "Call the clerk\nGazette\nZanzibar ledger entries.")
        _index_as_0003(s, sqlite, person_id, case_id, "Seán O’Brien", "Harbour master")
    engine.dispose()

    ws = open_workspace(db_url=url)
    try:
        table = "search_fts_docs" if sqlite else "search_pg"
        with ws.transaction() as s:
            rows = s.execute(text(f"SELECT item_id, body FROM {table}")).all()
            bodies: dict[int, str] = {r[0]: r[1] for r in rows}
            assert bodies == {ids["memo"]: "", ids["noted"]: "Call the clerk\nGazette",
                              ids["person"]: "Harbour master"}
            [hit] = search_backend.search(s, "Lodz")
            assert hit.item_id == ids["memo"]
            assert hit.snippet == ("The audit of the [Łódź] harbour found unpaid invoices. "
                                   "A second paragraph.")
            [hit] = search_backend.search(s, "zanzibar", case_id=case_id)
            assert hit.snippet == "Call the clerk Gazette [Zanzibar] ledger entries."
            assert {h.item_id for h in search_backend.search(s, "harbour")} == {
                ids["memo"], ids["person"]}
            assert [h.item_id for h in search_backend.search(s, "clerk")] == [ids["noted"]]
        with ws.transaction() as s:
            s.execute(text("DELETE FROM cases WHERE id = :c"), {"c": case_id})
        with ws.transaction() as s:
            assert search_backend.search(s, "harbour") == []
            index = "search_fts" if sqlite else "search_pg"
            assert s.scalar(text(f"SELECT count(*) FROM {index}")) == 0
            assert s.scalar(text(f"SELECT count(*) FROM {table}")) == 0
    finally:
        ws.close()
