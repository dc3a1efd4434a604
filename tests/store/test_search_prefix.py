"""``prefix*`` queries: on SQLite they are written out as the indexed words that start with the
prefix (``search_fts_vocab``, revision 0006); the results must be those of a plain prefix
query, follow edits and deletes at once, and survive a whole reindex and the upgrade from 0005."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text
from sqlalchemy.orm import Session

from casefile.services import cases, items
from casefile.services.reindex import rebuild_search_index
from casefile.store import search
from casefile.store.workspace import make_engine, open_workspace, sqlite_url
from tests.store.helpers import add_documents
from tests.store.old_rows import old_case, old_document, upgrade_to

DOCS = {
    "auditor": "The auditor signed the harbour accounts.",
    "audits": "Two audits of the port were late.",
    "audit": "An audit began on Monday.",
    "audio": "The audio recording was lost.",
    "lodz": "The shipment left Łódź on the audited barge.",
}


def _found(ws, query: str) -> set[int]:
    with ws.transaction() as s:
        return {h.item_id for h in search.search(s, query, limit=100)}


def _plain_prefix_ids(ws, query: str) -> set[int]:
    """What FTS5's own prefix query (no word list) finds, on SQLite."""
    with ws.transaction() as s:
        stmts = search.search_statements("sqlite", search.parse_query(query), None)
        rows = s.connection().execute(text(stmts.newest), stmts.params).all()
    return {r[0] for r in rows}


def _run(s):
    """A ``store.search.Run`` on the session."""
    return lambda sql, params: s.connection().execute(text(sql), params).all()


def test_prefix_finds_the_same_items_as_fts5s_own_prefix_query(sqlite_workspace) -> None:
    ws = sqlite_workspace
    with ws.transaction() as s:
        case_id = cases.create_case(s, "Prefix").id
    ids = add_documents(ws, case_id, DOCS)
    for query in ("audit*", "audi*", "audite*", '"the audit"*', "port -audit*", "lod*", "zz*"):
        assert search.search_statements("sqlite", search.parse_query(query), None).prefixes
        assert _found(ws, query) == _plain_prefix_ids(ws, query), query
    assert _found(ws, "audit*") == {ids["auditor"], ids["audits"], ids["audit"], ids["lodz"]}
    with ws.transaction() as s:
        assert search.prefix_words(_run(s), search.parse_query("audit*")) == {
            "audit": ["audit", "audited", "auditor", "audits"]}
        # no indexed word starts with "zz": the prefix query is kept
        assert search.prefix_words(_run(s), search.parse_query("zz*")) == {}
    assert search.fts5_query(search.parse_query("audit*"), {"audit": ["audit", "audits"]}) \
        == '(("audit" OR "audits"))'


def test_a_prefix_with_too_many_words_stays_a_prefix_query(sqlite_workspace) -> None:
    ws = sqlite_workspace
    with ws.transaction() as s:
        case_id = cases.create_case(s, "Many").id
    many = {f"w{i}": f"Word pre{i:03d}x here." for i in range(search.MAX_PREFIX_WORDS + 5)}
    ids = add_documents(ws, case_id, many)
    with ws.transaction() as s:
        assert search.prefix_words(_run(s), search.parse_query("pre*")) == {}
        assert len(search.prefix_words(_run(s), search.parse_query("pre00*"))["pre00"]) == 10
    assert _found(ws, "pre*") == set(ids.values())
    assert _found(ws, "pre00*") == {ids[f"w{i}"] for i in range(10)}


def test_prefix_follows_edits_and_deletes_and_a_whole_reindex(workspace, case_id) -> None:
    # "quarrel" is indexed first, so "quarr*" has a word list before the edit adds
    # "quarrington": the list must grow in the edit's own transaction.
    ids = add_documents(workspace, case_id, {"memo": "Nothing but a quarrel."})
    with workspace.transaction() as s:
        person = items.create_item(s, case_id, "person", "Jo Smith").id
    assert _found(workspace, "quarr*") == {ids["memo"]}
    with workspace.transaction() as s:
        items.update_item(s, person, title="Jo Quarrington")
    assert _found(workspace, "quarr*") == {ids["memo"], person}
    assert _found(workspace, "quarrin*") == {person}
    with workspace.transaction() as s:
        items.delete_item(s, person)
    assert _found(workspace, "quarr*") == {ids["memo"]}
    with workspace.transaction() as s:
        rebuild_search_index(s)
    assert _found(workspace, "quarr*") == {ids["memo"]}
    if workspace.engine.dialect.name == "sqlite":
        with workspace.transaction() as s:
            vocab = {r[0] for r in s.execute(text("SELECT term FROM search_fts_vocab"))}
        # made again from the data: the deleted person's words are gone
        assert {"nothing", "quarrel"} <= vocab and "quarrington" not in vocab


def test_revision_0006_lists_the_words_of_a_workspace_indexed_before_it(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    url = sqlite_url(tmp_path / "ws")
    engine = make_engine(url)
    upgrade_to(engine, "0005")
    with Session(engine) as s, s.begin():  # a document indexed as 0005 did: no word list
        case_id = old_case(s)
        doc_id = old_document(s, case_id, "Ledger", DOCS["auditor"])
        s.execute(text("INSERT INTO search_fts (rowid, title, body) VALUES (:i, :t, :b)"),
                  {"i": doc_id, "t": "ledger", "b": " ".join(search.tokens(DOCS["auditor"]))})
        s.execute(text("INSERT INTO search_fts_docs (item_id, case_id, title, body) "
                       "VALUES (:i, :c, 'Ledger', '')"), {"i": doc_id, "c": case_id})
    engine.dispose()
    ws = open_workspace(db_url=url)  # upgrades to head
    try:
        with ws.transaction() as s:
            vocab = {r[0] for r in s.execute(text("SELECT term FROM search_fts_vocab"))}
        assert {"ledger", "auditor", "harbour"} <= vocab
        assert _found(ws, "audito*") == {doc_id}
        assert _found(ws, "ledg*") == {doc_id}
    finally:
        ws.close()
