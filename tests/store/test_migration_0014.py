"""Revision 0014 (the index of pending mentions) upgrades a 0013 workspace holding suggestions:
the Suggestions list is the same before and after, and on SQLite the list's grouping reads
the new index (its names without variants from the index alone, never the table)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from sqlalchemy import text

from casefile.services import decisions
from casefile.services.suggestion_list import FOLLOWUP_KIND_MAP, SUGGESTION_KINDS
from casefile.store import workspace as wsmod
from casefile.store.items import QUESTION_KINDS
from casefile.store.mention_groups import _grouped_sql, _variant
from tests.store.old_rows import upgrade_to

TEXT = "Nadia Ferreira met the Harbor Police Department. The vote was held on 3 March."
MENTIONS = [
    # kind, name, start, end, role, detail
    ("person", "Nadia Ferreira", 0, 14, "clerk", None),
    ("organization", "Harbor Police Department", 23, 47, None, None),
    ("event", "The vote was held on 3 March.", 49, 78, None, '{"date": "2024-03-03"}'),
    ("person", "Nadia Ferreira", 0, 5, None, None),
]


def _fill_0013(url: str) -> None:
    engine = wsmod.make_engine(url)
    try:
        upgrade_to(engine, "0013")
        with engine.begin() as conn:
            t = {"t": datetime(2024, 1, 1)}
            conn.execute(text("INSERT INTO cases (id, title, created, updated) "
                              "VALUES (1, 'Harbor', :t, :t)"), t)
            conn.execute(text(
                "INSERT INTO items (id, case_id, kind, title, confidential, created, updated, "
                "version) VALUES (10, 1, 'document', 'Minutes', false, :t, :t, 1)"), t)
            conn.execute(text(
                "INSERT INTO documents (id, doc_kind, status, text, mime_type, import_notes, meta) "
                "VALUES (10, 'article', 'obtained', :text, 'text/plain', '[]', '{}')"),
                {"text": TEXT})
            for kind, name, start, end, role, detail in MENTIONS:
                conn.execute(text(
                    "INSERT INTO mentions (case_id, document_id, kind, name, start, \"end\", "
                    "text, role, status, detail, created) VALUES (1, 10, :kind, :name, "
                    ":start, :end, :text, :role, 'suggested', :detail, :t)"),
                    {"kind": kind, "name": name, "start": start, "end": end,
                     "text": TEXT[start:end], "role": role, "detail": detail} | t)
    finally:
        engine.dispose()


def _listed(url: str) -> list[tuple[str, str, str, int, str | None, tuple[int, ...]]]:
    ws = wsmod.open_workspace(db_url=url, migrate=False)
    try:
        with ws.transaction(write=False) as s:
            return [(e.kind, e.name, e.variant, e.mentions, e.role, e.mention_ids)
                    for es in decisions.list_suggestions(s, 1).by_kind.values() for e in es]
    finally:
        ws.close()


def test_0013_workspace_with_suggestions_upgrades_and_lists_them_alike(tmp_path: Path) -> None:
    url = wsmod.sqlite_url(tmp_path / "ws")
    _fill_0013(url)
    before = _listed(url)
    assert before == [("person", "Nadia Ferreira", "", 2, "clerk", (1, 4)),
                      ("organization", "Harbor Police Department", "", 1, None, (2,)),
                      ("event", "The vote was held on 3 March.", "2024-03-03", 1, None, (3,))]
    ws = wsmod.open_workspace(db_url=url)
    try:
        assert ws.backup_path is not None and "rev0013" in ws.backup_path.name
        assert wsmod.current_revision(ws.engine) == wsmod.head_revision()
        with ws.engine.connect() as conn:
            indexes = {r[1] for r in conn.execute(text("PRAGMA index_list(mentions)"))}
            assert "ix_mentions_pending" in indexes
            sql = _grouped_sql("sqlite", _variant("sqlite", QUESTION_KINDS, FOLLOWUP_KIND_MAP),
                               False, SUGGESTION_KINDS)
            plan = [r[3] for r in conn.execute(text(f"EXPLAIN QUERY PLAN {sql}"),
                                               {"case_id": 1})]
    finally:
        ws.close()
    assert _listed(url) == before
    # the names without variants and each one's first mention: read from the index alone;
    # the kinds with variants from SQLite's partial index of them (revision 0015)
    searches = [p for p in plan if p.startswith(("SCAN", "SEARCH"))]
    assert searches == [
        "SEARCH mentions USING COVERING INDEX ix_mentions_pending (case_id=? AND status=? "
        "AND kind=?)",
        "SEARCH mentions USING INDEX ix_mentions_variants (case_id=? AND kind=?)"], plan
    assert not [p for p in plan if "TEMP B-TREE" in p], plan  # read in the indexes' order


def test_downgrade_to_0013_drops_the_index_and_keeps_the_mentions(tmp_path: Path) -> None:
    url = wsmod.sqlite_url(tmp_path / "ws")
    _fill_0013(url)
    wsmod.open_workspace(db_url=url).close()
    engine = wsmod.make_engine(url)
    try:
        upgrade_to(engine, "0013", down=True)
        with engine.connect() as conn:
            indexes = {r[1] for r in conn.execute(text("PRAGMA index_list(mentions)"))}
            assert "ix_mentions_pending" not in indexes
            assert conn.execute(text("SELECT count(*) FROM mentions")).scalar() == len(MENTIONS)
    finally:
        engine.dispose()
    wsmod.open_workspace(db_url=url).close()
