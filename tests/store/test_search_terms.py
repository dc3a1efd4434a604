"""PostgreSQL finds candidates in ``search_pg.terms`` (words, adjacent-word pairs, id windows;
store.search.terms_literal): phrases still need their words side by side, exclusions still
exclude, and the newest matches found window by window are the newest of all. The behaviour
tests run on both engines, so SQLite (FTS5 phrases) is the reference."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import text

from casefile.ingest.types import Ingested
from casefile.services import cases
from casefile.services.documents import store_document
from casefile.store import search
from casefile.store.search import index, running
from casefile.store.workspace import Workspace, open_workspace
from tests.store.old_rows import old_case, old_document, upgrade_to


def _add(ws, case_id: int, bodies: list[str]) -> list[int]:
    with ws.transaction() as s:
        return [store_document(s, case_id, f"{case_id} {n} {b}".encode(), Ingested(
            text=b, mime_type="text/plain", title=f"Note {n}")).document_id
            for n, b in enumerate(bodies)]


def _found(ws, query: str, **kwargs: Any) -> list[int]:
    with ws.transaction() as s:
        return [h.item_id for h in search.search(s, query, **kwargs)]


def test_terms_hold_words_pairs_within_a_part_and_the_id_window() -> None:
    lexemes = set(search.terms_literal(2050, "Harbor Police", "said O'Brien: police").split())
    assert lexemes == {
        "'_w2'", "'harbor'", "'police'", "'said'", "'o'", "'brien'",
        "'_harbor_police'", "'_said_o'", "'_o_brien'", "'_brien_police'",
    }  # no pair across the title and the body: a phrase never spans them (as in FTS5)


def test_terms_query_is_exact_up_to_two_word_phrases() -> None:
    q = search.terms_tsquery
    assert q(search.parse_query('"harbor police" audit* -invoice')) == (
        "(('_harbor_police')) & (('audit':*)) & !('invoice')", True)
    assert q(search.parse_query('"harbor pol"*')) == ("(('_harbor_pol':*))", True)
    tq, exact = q(search.parse_query('"harbor police department"'))
    assert (tq, exact) == ("(('_harbor_police' & '_police_department'))", False)
    assert q(search.parse_query('ledger -"harbor police department"')) == (
        "(('ledger'))", False)


def test_phrases_need_their_words_side_by_side(workspace, case_id: int) -> None:
    together, apart, reversed_, other = _add(workspace, case_id, [
        "The harbor police department said nothing.",
        "The harbor police met the police department chief.",
        "Department police harbor, in that order.",
        "Unrelated ledger entries.",
    ])
    assert set(_found(workspace, '"harbor police department"')) == {together}
    assert set(_found(workspace, '"harbor police"')) == {together, apart}
    assert set(_found(workspace, '"police department"')) == {together, apart}
    assert set(_found(workspace, '"harbor police dep"*')) == {together}
    assert set(_found(workspace, 'police -"harbor police department"')) == {apart, reversed_}
    assert set(_found(workspace, 'department -"harbor police"')) == {reversed_}
    assert set(_found(workspace, '"police harbor" OR ledger')) == {reversed_, other}


def test_newest_matches_across_id_windows_are_the_newest_of_all(
        workspace, case_id: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(index, "WINDOW_IDS", 4)  # before indexing: windows of 4 ids
    monkeypatch.setattr(running, "RANK_WINDOW", 3)
    old = _add(workspace, case_id, ["a ledger page"] * 6)
    _add(workspace, case_id, ["filler words only"] * 30)
    [newest] = _add(workspace, case_id, ["the last ledger"])
    with workspace.transaction() as s:
        other = cases.create_case(s, "Other").id
    elsewhere = _add(workspace, other, ["ledger elsewhere"] * 2)
    assert _found(workspace, "ledger", case_id=case_id, limit=4) == [newest, *old[:-4:-1]]
    assert _found(workspace, "ledger", limit=3) == [*reversed(elsewhere), newest]
    assert _found(workspace, "ledger -last", limit=50) == [
        *reversed(elsewhere), *reversed(old)]


@pytest.fixture
def pg_workspace(pg_workspace_database: str) -> Iterator[Workspace]:
    ws = open_workspace(db_url=pg_workspace_database)
    yield ws
    ws.close()


@pytest.mark.postgres
def test_postgresql_widens_the_id_window_only_as_far_as_needed(
        pg_workspace: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    workspace = pg_workspace
    with workspace.transaction() as s:
        case_id = cases.create_case(s, "Case").id
    monkeypatch.setattr(index, "WINDOW_IDS", 4)
    monkeypatch.setattr(running, "RANK_WINDOW", 3)
    _add(workspace, case_id, ["filler words only"] * 40)
    old = _add(workspace, case_id, ["a ledger page"] * 6)
    _add(workspace, case_id, ["more filler words"] * 20)
    [newest] = _add(workspace, case_id, ["the last ledger"])
    assert newest // 4 - 7 <= old[-3] // 4  # the second try (8 windows) reaches them
    windows: list[str] = []
    during: list[str] = []
    with workspace.transaction() as s:
        conn = s.connection()
        stmts = search.search_statements("postgresql", search.parse_query("ledger"), case_id)

        def run(sql: str, params: dict[str, object]) -> Any:
            if "tqw" in params:
                windows.append(str(params["tqw"]))
                during.append(conn.execute(text(
                    "SELECT current_setting('enable_seqscan') || current_setting("
                    "'enable_indexscan')")).scalar_one())
            return conn.execute(text(sql), params).all()

        ids = search.search_ids(run, stmts, 4)
        settings = conn.execute(text("SELECT current_setting('enable_seqscan'), "
                                     "current_setting('enable_indexscan')")).one()
    assert ids == [newest, *old[:-4:-1]]
    assert len(windows) == 2 and windows[0].count("_w") == 1 and windows[1].count("_w") == 8
    assert during == ["offoff", "offoff"]  # the index answers the search statements
    assert tuple(settings) == ("on", "on")  # and the planner settings are put back


@pytest.mark.postgres
def test_revision_0005_fills_terms_of_a_workspace_indexed_before_it(pg_database: str) -> None:
    from sqlalchemy.orm import Session

    from casefile.store.workspace import make_engine

    engine = make_engine(pg_database)
    upgrade_to(engine, "0004")
    body = "The Harbor Police Department kept the ledger."
    with Session(engine) as s, s.begin():
        case_id = old_case(s)
        texts = [body, "Police met the harbor master."]
        ids = [old_document(s, case_id, f"Memo {n}", text_) for n, text_ in enumerate(texts)]
        for n, (doc_id, text_) in enumerate(zip(ids, texts, strict=True)):
            # the index rows 0004 wrote: no terms column yet
            s.execute(text("INSERT INTO search_pg (item_id, case_id, title, body, tsv) "
                           "VALUES (:i, :c, :t, '', CAST(:v AS tsvector))"),
                      {"i": doc_id, "c": case_id, "t": f"Memo {n}",
                       "v": search.tsvector_literal(f"Memo {n}", text_)})
        memo, other = ids
    upgrade_to(engine, "head")
    with engine.connect() as conn:
        indexes = {r[0] for r in conn.execute(text(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'search_pg'"))}
    engine.dispose()
    assert "search_pg_terms" in indexes and "search_pg_tsv" not in indexes
    ws = open_workspace(db_url=pg_database)
    try:
        assert _found(ws, '"harbor police"') == [memo]
        assert set(_found(ws, "harbor police")) == {memo, other}
        assert _found(ws, '"police department kept"') == [memo]
        assert _found(ws, "memo -ledger") == [other]
    finally:
        ws.close()
