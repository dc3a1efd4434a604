"""Revision 0007 re-indexes the items of a workspace made before it that hold CJK, Hangul or Thai
text, so their words are found inside sentences once the workspace is opened (SQLite and
PostgreSQL); the other items' index rows are left as they were."""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.orm import Session

from casefile.store import search as search_backend
from casefile.store.workspace import make_engine, open_workspace
from tests.store.old_rows import old_case, old_document, old_person, upgrade_to

CJK_DOC = "Memo\n港口の知事は来年度の予算について記者会見を開いた。"
LATIN_DOC = "The harbour master kept the ledger."
KOREAN_NOTES = "시의회 예산안은 다음 달에 표결된다"


def _old_row(s: Session, sqlite: bool, item_id: int, case_id: int, title: str, body: str,
             indexed: str) -> None:
    """An index row as revision 0006 left it: ``indexed`` the words it held (of a run of CJK
    characters longer than 64, none)."""
    if sqlite:
        s.execute(text("INSERT INTO search_fts (rowid, title, body) VALUES (:i, :t, :b)"),
                  {"i": item_id, "t": " ".join(search_backend.tokens(title)), "b": indexed})
        s.execute(text("INSERT INTO search_fts_docs (item_id, case_id, title, body) "
                       "VALUES (:i, :c, :t, :b)"),
                  {"i": item_id, "c": case_id, "t": title, "b": body})
    else:
        s.execute(text(
            "INSERT INTO search_pg (item_id, case_id, title, body, tsv, terms) VALUES "
            "(:i, :c, :t, :b, CAST(:v AS tsvector), CAST(:w AS tsvector))"),
            {"i": item_id, "c": case_id, "t": title, "b": body,
             "v": search_backend.tsvector_literal(title, indexed),
             "w": search_backend.terms_literal(item_id, title, indexed)})


def test_items_with_cjk_text_are_reindexed_on_upgrade(url: str) -> None:
    engine = make_engine(url)
    sqlite = engine.dialect.name == "sqlite"
    upgrade_to(engine, "0006")
    with Session(engine) as s, s.begin():
        case_id = old_case(s)
        ids = {}
        for name, body in (("cjk", CJK_DOC), ("latin", LATIN_DOC)):
            ids[name] = old_document(s, case_id, name, body)
        ids["person"] = old_person(s, case_id, "City council", KOREAN_NOTES)
        _old_row(s, sqlite, ids["cjk"], case_id, "cjk", "", "memo")
        # "oldmarker": a word only this old row holds, gone if the row were written again
        _old_row(s, sqlite, ids["latin"], case_id, "latin", "",
                 " ".join(search_backend.tokens(LATIN_DOC)) + " oldmarker")
        _old_row(s, sqlite, ids["person"], case_id, "City council", KOREAN_NOTES, "")
    engine.dispose()

    ws = open_workspace(db_url=url)  # upgrades to head
    try:
        with ws.transaction() as s:
            for query, expected in (("知事", {ids["cjk"]}), ("記者会見", {ids["cjk"]}),
                                    ("예산", {ids["person"]}), ("ledger", {ids["latin"]}),
                                    ("memo", {ids["cjk"]}), ("oldmarker", {ids["latin"]})):
                assert {h.item_id for h in search_backend.search(s, query)} == expected, query
            (hit,) = search_backend.search(s, "予算")
            assert "[予算]" in hit.snippet
    finally:
        ws.close()
