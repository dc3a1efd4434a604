"""Rebuilding the search index (``services.reindex``, ``casefile reindex``): repair only.

The index is damaged here with raw SQL, as a restore with triggers off or a hand edit would
damage it, on both engines: search then misses items or finds wrong ones, and the rebuild makes
it find exactly what it should again, with a report that says what was wrong.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from typing import Any

import pytest
from sqlalchemy import func, select, text

from casefile.errors import NotFoundError
from casefile.ingest.types import Ingested
from casefile.services import cases, items
from casefile.services.documents import store_document
from casefile.services.reindex import ReindexReport, rebuild_search_index
from casefile.store import ChangeLog, Document, Item
from casefile.store.search import (
    indexed_text,
    search,
    terms_literal,
    tokens,
    tsvector_literal,
)

# --- helpers ---------------------------------------------------------------------------------


def _is_sqlite(workspace) -> bool:
    return workspace.engine.dialect.name == "sqlite"


@contextmanager
def _raw(workspace) -> Iterator[Any]:
    """A connection for damaging the index, committed at the end, with the foreign keys (and on
    PostgreSQL the cascades) not enforced, so orphan rows can be written. Yields a callable
    ``run(sql, params)`` taking ``:name`` parameters."""
    if _is_sqlite(workspace):
        db = workspace.engine.url.database
        with closing(sqlite3.connect(db)) as conn:  # foreign_keys is off on a new connection
            yield lambda sql, params=None: conn.execute(sql, params or {})
            conn.commit()
    else:
        with workspace.engine.begin() as conn:
            conn.execute(text("SET LOCAL session_replication_role = replica"))
            yield lambda sql, params=None: conn.execute(text(sql), params or {})


def _parts(workspace, item_id: int) -> tuple[int, str, str, str]:
    """``(case_id, title, body, document text)`` as the normal path indexes the item."""
    with workspace.transaction() as s:
        item = s.get(Item, item_id)
        assert item is not None
        return (item.case_id, item.title, *items.search_parts(item))


def drop_index_row(workspace, item_id: int) -> None:
    """Delete an item's search row(s), leaving the item."""
    with _raw(workspace) as run:
        if _is_sqlite(workspace):
            run("DELETE FROM search_fts WHERE rowid = :i", {"i": item_id})
            run("DELETE FROM search_fts_docs WHERE item_id = :i", {"i": item_id})
        else:
            run("DELETE FROM search_pg WHERE item_id = :i", {"i": item_id})


def add_orphan_row(workspace, item_id: int, case_id: int, title: str, body: str = "") -> None:
    """Write a search row for an item id that has no item (deleted, or never there)."""
    with _raw(workspace) as run:
        if _is_sqlite(workspace):
            run("INSERT INTO search_fts (rowid, title, body) VALUES (:i, :t, :b)",
                {"i": item_id, "t": " ".join(tokens(title)), "b": " ".join(tokens(body))})
            run("INSERT INTO search_fts_docs (item_id, case_id, title, body) "
                "VALUES (:i, :c, :t, :b)", {"i": item_id, "c": case_id, "t": title, "b": body})
        else:
            run("INSERT INTO search_pg (item_id, case_id, title, body, tsv, terms) "
                "VALUES (:i, :c, :t, :b, CAST(:v AS tsvector), CAST(:w AS tsvector))",
                {"i": item_id, "c": case_id, "t": title, "b": body,
                 "v": tsvector_literal(title, body), "w": terms_literal(item_id, title, body)})


def set_stale_title(workspace, item_id: int, title: str) -> None:
    """Make the index keep ``title`` for the item (as a missed re-index after a rename would)."""
    _case, _title, body, doc_text = _parts(workspace, item_id)
    with _raw(workspace) as run:
        if _is_sqlite(workspace):
            run("UPDATE search_fts SET title = :t WHERE rowid = :i",
                {"i": item_id, "t": " ".join(tokens(title))})
            run("UPDATE search_fts_docs SET title = :t WHERE item_id = :i",
                {"i": item_id, "t": title})
        else:
            full = indexed_text(body, doc_text)
            run("UPDATE search_pg SET title = :t, tsv = CAST(:v AS tsvector), "
                "terms = CAST(:w AS tsvector) WHERE item_id = :i",
                {"i": item_id, "t": title, "v": tsvector_literal(title, full),
                 "w": terms_literal(item_id, title, full)})


def index_snapshot(workspace, item_ids: Sequence[int] | None = None) -> list[tuple[Any, ...]]:
    """The raw search rows (of these items, or all), in a comparable form."""
    where = "" if item_ids is None else "WHERE {col} IN (" + ",".join(map(str, item_ids)) + ")"
    with workspace.transaction() as s:
        conn = s.connection()
        if _is_sqlite(workspace):
            fts = conn.execute(text("SELECT 'fts', rowid, title, body FROM search_fts "
                                    + where.format(col="rowid") + " ORDER BY rowid"))
            docs = conn.execute(text("SELECT 'docs', item_id, case_id, title, body "
                                     "FROM search_fts_docs " + where.format(col="item_id")
                                     + " ORDER BY item_id"))
            return [tuple(r) for r in fts] + [tuple(r) for r in docs]
        return [tuple(r) for r in conn.execute(text(
            "SELECT item_id, case_id, title, body, CAST(tsv AS text), CAST(terms AS text) "
            "FROM search_pg "
            + where.format(col="item_id") + " ORDER BY item_id"))]


def found(workspace, query: str, case_id: int | None = None, limit: int = 50) -> list[int]:
    with workspace.transaction() as s:
        return [h.item_id for h in search(s, query, case_id, limit=limit)]


def reindex(workspace, case_id: int | None = None, **kwargs: Any) -> ReindexReport:
    with workspace.transaction() as s:
        return rebuild_search_index(s, case_id, **kwargs)


def add_document(s, case_id: int, title: str, body: str, **meta: str) -> int:
    ingested = Ingested(text=body, mime_type="text/plain", title=title, **meta)
    return store_document(s, case_id, body.encode("utf-8"), ingested).document_id


def populate(s, case_id: int, tag: str) -> dict[str, int]:
    """One item of every kind, text through every path that indexes (create, update, import);
    every title and text carries ``tag`` so cases can be told apart."""
    org = items.create_item(s, case_id, "organization", f"Harbor Police {tag}",
                            org_kind="law enforcement agency", aliases=[f"HPD{tag}"])
    person = items.create_item(s, case_id, "person", f"Nadia Ferreira {tag}",
                               role="Lieutenant", affiliation_id=org.id,
                               notes=f"runs the harbor patrol {tag}")
    place = items.create_item(s, case_id, "place", f"Harbor Bridge {tag}",
                              notes=f"near the old mill {tag}")
    event = items.create_item(s, case_id, "event", f"Council hearing {tag}", date="2018-02-23",
                              description=f"hearing on the Łódź sister-city budget {tag}")
    claim = items.create_item(s, case_id, "claim", f"Budget cut {tag}",
                              statement=f"The patrol budget was cut by a third {tag}",
                              attributed_to_text="a council aide")
    question = items.create_item(s, case_id, "question", f"Who signed the memo {tag}?",
                                 answer=f"the deputy chief {tag}")
    doc = add_document(s, case_id, f"Quarterly audit {tag}",
                       f"The quarterly audit of the harbor fund, O’Brien wrote. {tag} "
                       "Overtime doubled in the second half.",
                       author="Ann O'Brien", outlet="Harbor Ledger")
    items.update_item(s, doc, notes=f"obtained from a clerk {tag}")
    memo = add_document(s, case_id, f"Memo {tag}", f"A memo on e-mail retention {tag}.")
    return {"org": org.id, "person": person.id, "place": place.id, "event": event.id,
            "claim": claim.id, "question": question.id, "doc": doc, "memo": memo}


@pytest.fixture
def two_cases(workspace) -> tuple[int, dict[str, int], int, dict[str, int]]:
    with workspace.transaction() as s:
        a = cases.create_case(s, "Harbor story").id
        b = cases.create_case(s, "Other story").id
        ids_a = populate(s, a, "alpha")
        ids_b = populate(s, b, "beta")
    return a, ids_a, b, ids_b


# --- damage and repair -----------------------------------------------------------------------


def test_damaged_index_is_rebuilt_and_the_report_counts_what_was_wrong(
    workspace, two_cases
) -> None:
    a, ids, _b, _ids_b = two_cases
    with workspace.transaction() as s:
        items.delete_item(s, ids["claim"])  # the normal path: its rows go with it
    drop_index_row(workspace, ids["doc"])
    add_orphan_row(workspace, ids["claim"], a, "Old mill gate alpha")  # a deleted item's row
    add_orphan_row(workspace, 99_999, a, "Phantom mill alpha")  # an id that never existed
    set_stale_title(workspace, ids["person"], "Nadia Smith alpha")

    # Search is wrong: the document is missing, the person is found by her old name only, and
    # the orphans (with "mill" in their titles, so ranked above the place's notes) take the
    # only place of a one-hit search.
    assert found(workspace, "quarterly audit alpha") == []
    assert found(workspace, "Ferreira alpha") == []
    assert found(workspace, "Smith") == [ids["person"]]
    assert found(workspace, "mill alpha", limit=1) == []

    report = reindex(workspace)

    with workspace.transaction() as s:
        n_items = s.scalar(select(func.count()).select_from(Item))
    assert report == ReindexReport(case_id=None, items=n_items, missing=1, orphans=2, stale=1,
                                   integrity_ok=True if _is_sqlite(workspace) else None)
    assert report.summary().startswith(f"reindexed {n_items} items (1 was missing from the "
                                       "index, 2 orphan rows removed, 1 was stale")
    assert found(workspace, "quarterly audit alpha") == [ids["doc"]]
    assert found(workspace, "Ferreira alpha") == [ids["person"]]
    assert found(workspace, "Smith") == []
    assert found(workspace, "mill alpha", limit=1) == [ids["place"]]
    assert found(workspace, "gate") == found(workspace, "Phantom") == []
    assert index_snapshot(workspace, [ids["claim"], 99_999]) == []
    # The document's snippet text (the copy of author/outlet/notes, and documents.text) is back.
    with workspace.transaction() as s:
        [hit] = search(s, "clerk alpha")
    assert hit.item_id == ids["doc"] and "[clerk]" in hit.snippet

    again = reindex(workspace)
    assert (again.missing, again.orphans, again.stale) == (0, 0, 0)


def test_reindex_of_one_case_leaves_the_other_cases_rows_alone(workspace, two_cases) -> None:
    a, ids_a, b, ids_b = two_cases
    drop_index_row(workspace, ids_a["doc"])
    drop_index_row(workspace, ids_b["doc"])
    set_stale_title(workspace, ids_b["person"], "Nadia Smith beta")
    add_orphan_row(workspace, 99_999, b, "Phantom beta")
    b_rows = index_snapshot(workspace, list(ids_b.values()))

    report = reindex(workspace, a)

    with workspace.transaction() as s:
        n_a = s.scalar(select(func.count()).select_from(Item).where(Item.case_id == a))
    assert (report.case_id, report.items, report.missing, report.stale) == (a, n_a, 1, 0)
    assert report.orphans == 1  # orphans belong to no case: removed by any rebuild
    assert index_snapshot(workspace, [99_999]) == []
    assert found(workspace, "quarterly audit", a) == [ids_a["doc"]]
    # Case B is exactly as damaged as before.
    assert index_snapshot(workspace, list(ids_b.values())) == b_rows
    assert found(workspace, "quarterly audit", b) == []
    assert found(workspace, "Smith") == [ids_b["person"]]

    report_b = reindex(workspace, b)
    assert (report_b.missing, report_b.stale, report_b.orphans) == (1, 1, 0)
    assert set(found(workspace, "quarterly audit")) == {ids_a["doc"], ids_b["doc"]}
    assert found(workspace, "Smith") == []
    assert found(workspace, "Ferreira beta") == [ids_b["person"]]


QUERIES = [
    "harbor", "Ferreira", "lodz", '"patrol budget"', "quarter*", "brien", "O'Brien", "e-mail",
    "HPDalpha", "deputy chief", "clerk", "aide", "overtime -beta", "harbor OR memo",
]


def _results(workspace, case_id: int | None) -> list[list[tuple[Any, ...]]]:
    out = []
    with workspace.transaction() as s:
        for q in QUERIES:
            out.append([(h.item_id, h.case_id, h.kind, h.title, h.snippet)
                        for h in search(s, q, case_id)])
    return out


def test_reindex_of_a_healthy_workspace_changes_nothing(workspace, two_cases) -> None:
    a, _ids_a, _b, _ids_b = two_cases
    before_all, before_a = _results(workspace, None), _results(workspace, a)
    assert all(before_all) and all(before_a)  # the queries do find things
    rows = index_snapshot(workspace)
    seen: list[tuple[int, int]] = []

    report = reindex(workspace, batch_size=3, progress=lambda done, total: seen.append(
        (done, total)))

    with workspace.transaction() as s:
        n_items = s.scalar(select(func.count()).select_from(Item))
    assert (report.items, report.missing, report.orphans, report.stale) == (n_items, 0, 0, 0)
    assert report.integrity_ok is (True if _is_sqlite(workspace) else None)
    assert report.problems == 0
    assert "nothing was missing, orphaned or stale" in report.summary()
    # Exactly what the normal path indexed, row for row, so every search answers the same.
    assert index_snapshot(workspace) == rows
    assert _results(workspace, None) == before_all
    assert _results(workspace, a) == before_a
    assert seen == [(min(n, n_items), n_items) for n in range(3, n_items + 3, 3)]
    assert reindex(workspace, a).problems == 0


def test_texts_are_loaded_a_batch_at_a_time(workspace, case_id) -> None:
    with workspace.transaction() as s:
        for n in range(7):
            add_document(s, case_id, f"Doc {n}", f"text number {n} of the batch test")
    alive: list[int] = []
    with workspace.transaction() as s:
        def count_documents(_done: int, _total: int) -> None:
            alive.append(sum(isinstance(o, Document) for o in s.identity_map.values()))

        report = rebuild_search_index(s, case_id, count_documents, batch_size=2)
    assert report.items == 7 and len(alive) == 4
    assert max(alive) <= 2


@pytest.mark.parametrize("whole", [True, False])
def test_rebuild_is_one_transaction_and_is_logged(workspace, two_cases, whole) -> None:
    a, ids_a, _b, _ids_b = two_cases
    drop_index_row(workspace, ids_a["doc"])
    rows = index_snapshot(workspace)
    with pytest.raises(RuntimeError), workspace.transaction() as s:
        rebuild_search_index(s, None if whole else a)
        raise RuntimeError("the caller fails after the rebuild")
    assert index_snapshot(workspace) == rows  # rolled back with the caller's transaction
    assert found(workspace, "quarterly audit alpha") == []
    assert found(workspace, "Ferreira alpha") == [ids_a["person"]]
    report = reindex(workspace, a)
    with workspace.transaction() as s:
        log = s.scalars(select(ChangeLog).where(ChangeLog.action == "search.reindex")).all()
    assert [(entry.case_id, entry.data) for entry in log] == [(a, report.as_json())]
    assert log[0].summary == report.summary()


def test_unknown_case_and_bad_batch_size_are_refused(workspace, case_id) -> None:
    with pytest.raises(NotFoundError), workspace.transaction() as s:
        rebuild_search_index(s, case_id + 1000)
    with pytest.raises(ValueError), workspace.transaction() as s:
        rebuild_search_index(s, case_id, batch_size=0)


@pytest.mark.parametrize("scope", ["workspace", "case"])
def test_sqlite_fts5_index_that_fails_its_integrity_check_is_rebuilt(
    sqlite_workspace, scope
) -> None:
    ws = sqlite_workspace
    with ws.transaction() as s:
        a = cases.create_case(s, "Harbor story").id
        ids = populate(s, a, "alpha")
    # The FTS5 table's stored content no longer matches its full-text index.
    with _raw(ws) as run:
        run("UPDATE search_fts_content SET c0 = 'unrelated words' WHERE id = :i",
            {"i": ids["person"]})
    with pytest.raises(sqlite3.DatabaseError, match="malformed"), closing(
        sqlite3.connect(ws.engine.url.database)
    ) as conn:
        conn.execute("INSERT INTO search_fts(search_fts) VALUES('integrity-check')")

    report = reindex(ws, None if scope == "workspace" else a)

    assert report.integrity_ok is False and report.problems == 1
    assert "failed SQLite's integrity check" in report.summary()
    assert reindex(ws).integrity_ok is True
    assert found(ws, "Ferreira") == [ids["person"]]
    assert found(ws, "unrelated") == []


def test_summary_line() -> None:
    report = ReindexReport(None, 1234, missing=3, orphans=2, stale=0, integrity_ok=None)
    assert report.summary() == ("reindexed 1234 items (3 were missing from the index, "
                                "2 orphan rows removed)")
    one = ReindexReport(7, 1, missing=1, orphans=1, stale=1, integrity_ok=True)
    assert one.summary() == ("reindexed 1 item (1 was missing from the index, 1 orphan row "
                             "removed, 1 was stale)")
    assert one.as_json() == {"case_id": 7, "items": 1, "missing": 1, "orphans": 1, "stale": 1,
                             "integrity_ok": True}
