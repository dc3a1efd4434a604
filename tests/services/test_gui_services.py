"""Services added for the desktop app: section rows, document views, link_span and undo."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from casefile.errors import ConflictError
from casefile.ingest import ingest_bytes
from casefile.services import cases, documents, editing, evidence, items, questions, views
from casefile.store import EvidenceLink, Item, Passage
from casefile.store.workspace import open_workspace

TEXT = "Deputy Scot Peterson stayed outside. The Broward Sheriff's Office said so."


@pytest.fixture
def ws(tmp_path):
    w = open_workspace(tmp_path / "ws")
    yield w
    w.close()


def _doc(s, case_id: int, text: str = TEXT) -> int:
    raw = text.encode()
    return documents.store_document(s, case_id, raw, ingest_bytes(raw, "a.txt")).document_id


def test_item_rows_pages_by_title_with_columns(ws):
    with ws.transaction() as s:
        cid = cases.create_case(s, "C").id
        org = items.create_item(s, cid, "organization", "Broward Sheriff's Office")
        for name in ("zed", "Anna", "bob"):
            items.create_item(s, cid, "person", name, role="Deputy", affiliation_id=org.id)
    with ws.transaction() as s:
        assert views.count_items(s, cid, "person") == 3
        rows = views.item_rows(s, cid, "person", limit=2)
        assert [r.title for r in rows] == ["Anna", "bob"]
        assert rows[0].cells == ("Anna", "Deputy", "Broward Sheriff's Office", 0)
        rest = views.item_rows(s, cid, "person", offset=2)
        assert [r.title for r in rest] == ["zed"]


def test_every_section_row_matches_its_headers(ws):
    with ws.transaction() as s:
        cid = cases.create_case(s, "C").id
        _doc(s, cid)
        for kind in ("person", "organization", "place", "event", "claim"):
            items.create_item(s, cid, kind, f"a {kind}")
        questions.create_question(s, cid, "Who?", due=date.today())
    with ws.transaction() as s:
        for kind, headers in views.SECTION_COLUMNS.items():
            rows = views.item_rows(s, cid, kind)
            assert len(rows) == 1, kind
            assert len(rows[0].cells) == len(headers), kind


def test_link_span_reuses_passage_and_unlink_span_leaves_nothing(ws):
    with ws.transaction() as s:
        cid = cases.create_case(s, "C").id
        doc_id = _doc(s, cid)
        pid = items.create_item(s, cid, "person", "Scot Peterson").id
        qid = questions.create_question(s, cid, "Did he go in?").id
    start = TEXT.index("Scot Peterson")
    with ws.transaction() as s:
        a = editing.link_span(s, pid, doc_id, start, start + 13, relation="mentions")
        b = editing.link_span(s, qid, doc_id, start, start + 13, relation="context")
    assert a.passage_created and not b.passage_created and a.passage_id == b.passage_id
    with ws.transaction() as s:
        view = views.document_view(s, doc_id)
        assert [(p.start, p.end) for p in view.passages] == [(start, start + 13)]
        assert {lk.relation for lk in view.passages[0].links} == {"mentions", "context"}
        editing.unlink_span(s, b.link_id)
    with ws.transaction() as s:
        assert s.get(Passage, a.passage_id) is not None  # still used by the person's link
        editing.unlink_span(s, a.link_id)
    with ws.transaction() as s:
        assert s.get(Passage, a.passage_id) is None
        assert s.query(EvidenceLink).count() == 0


def test_delete_then_restore_brings_item_links_and_references_back(ws):
    with ws.transaction() as s:
        cid = cases.create_case(s, "C").id
        doc_id = _doc(s, cid)
        org = items.create_item(s, cid, "organization", "BSO", aliases=["Broward Sheriff"])
        person = items.create_item(s, cid, "person", "Scot Peterson", affiliation_id=org.id)
        span = editing.link_span(s, org.id, doc_id, TEXT.index("Broward"), len(TEXT) - 9)
        org_id, person_id = org.id, person.id
    with ws.transaction() as s:
        snap = editing.snapshot_item(s, org_id)
        items.delete_item(s, org_id)
    with ws.transaction() as s:
        assert s.get(Item, person_id).affiliation_id is None
        assert s.get(EvidenceLink, span.link_id) is None
        restored = editing.restore_item(s, snap)
        assert restored.id == org_id
    with ws.transaction() as s:
        assert s.get(Item, org_id).aliases == ["Broward Sheriff"]
        assert s.get(Item, person_id).affiliation_id == org_id
        assert [e.link_id for e in evidence.evidence_for(s, org_id)] == [span.link_id]
        with pytest.raises(ConflictError):
            editing.restore_item(s, snap)


def test_delete_then_restore_a_document_brings_its_passages_back(ws):
    with ws.transaction() as s:
        cid = cases.create_case(s, "C").id
        doc_id = _doc(s, cid)
        pid = items.create_item(s, cid, "person", "Scot Peterson").id
        span = editing.link_span(s, pid, doc_id, 7, 20)
    with ws.transaction() as s:
        snap = editing.snapshot_item(s, doc_id)
        items.delete_item(s, doc_id)
    with ws.transaction() as s:
        assert evidence.evidence_for(s, pid) == []
        editing.restore_item(s, snap)
    with ws.transaction() as s:
        (ev,) = evidence.evidence_for(s, pid)
        assert ev.quote == "Scot Peterson" and ev.passage_id == span.passage_id


def test_case_status_counts_due_this_week_and_overdue(ws):
    today = date(2024, 5, 6)
    with ws.transaction() as s:
        cid = cases.create_case(s, "C").id
        questions.create_question(s, cid, "late", due=today - timedelta(days=2))
        questions.create_question(s, cid, "soon", due=today + timedelta(days=6))
        questions.create_question(s, cid, "later", due=today + timedelta(days=30))
        questions.create_question(s, cid, "done", due=today, status="answered")
    with ws.transaction() as s:
        st = views.case_status(s, cid, today=today)
    assert (st.due_this_week, st.overdue, st.counts["question"]) == (2, 1, 4)


def test_snapshot_and_restore_link_keeps_ids_and_brings_the_passage_back(ws):
    with ws.transaction() as s:
        cid = cases.create_case(s, "C").id
        doc_id = _doc(s, cid)
        pid = items.create_item(s, cid, "person", "Scot Peterson").id
        span = editing.link_span(s, pid, doc_id, 7, 20, relation="supports")
    with ws.transaction() as s:
        snap = editing.snapshot_link(s, span.link_id)
        editing.unlink_span(s, span.link_id)
    with ws.transaction() as s:
        assert s.get(Passage, span.passage_id) is None
        editing.restore_link(s, snap)
    with ws.transaction() as s:
        (ev,) = evidence.evidence_for(s, pid)
        assert (ev.link_id, ev.passage_id, ev.quote) == (span.link_id, span.passage_id,
                                                          "Scot Peterson")
        with pytest.raises(ConflictError):
            editing.restore_link(s, snap)


def test_item_fields_gives_plain_editable_values(ws):
    with ws.transaction() as s:
        cid = cases.create_case(s, "C").id
        qid = questions.create_question(s, cid, "Who?", due="2024-05-01").id
    with ws.transaction() as s:
        f = views.item_fields(s, qid)
    assert f.kind == "question" and f.values["due"] == date(2024, 5, 1)
    assert f.values["status"] == "open" and f.values["title"] == "Who?"
