"""OCR after the import: scanned pages filled, offsets kept exact, cancel stores
nothing, the document's note names the engine and the confidence."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from casefile.ingest import ingest_bytes
from casefile.services import cases, documents
from casefile.services.ocr import OcrCancelled, ocr_document
from casefile.services.passages import add_passage_by_quote
from casefile.services.waiting import pending_ocr
from casefile.store import Document, Passage, search
from tests.e2e.make_files import mixed_pdf, scan_pdf

SCANNED = ["Exhibit seven: the ferry logbook", "was signed by the harbormaster."]
MIXED = ["First page typed: the council met on Monday.", SCANNED,
         "Third page typed: the vote was postponed."]


def _store(ws, case_id: int, data: bytes, name: str) -> int:
    with ws.transaction() as s:
        return documents.store_document(s, case_id, data, ingest_bytes(data, name)).document_id


def test_a_scanned_page_between_typed_pages_is_filled_and_later_passages_still_quote_exactly(
        workspace, case_id) -> None:
    doc_id = _store(workspace, case_id, mixed_pdf(MIXED), "mixed.pdf")
    with workspace.transaction() as s:
        assert [p.pages for p in pending_ocr(s, case_id)] == [(2,)]
        later = add_passage_by_quote(s, doc_id, "the vote was postponed").id
        earlier = add_passage_by_quote(s, doc_id, "the council met").id

    ch = ocr_document(workspace.transaction, doc_id)

    assert ch.documents == {doc_id} and ch.value.pages == [2]
    with workspace.transaction() as s:
        doc = s.get(Document, doc_id)
        quotes = {p.id: (doc.text[p.start:p.end], p.quote, p.page) for p in s.scalars(
            select(Passage).where(Passage.document_id == doc_id))}
        assert quotes[later] == ("the vote was postponed", "the vote was postponed", 3)
        assert quotes[earlier] == ("the council met", "the council met", 1)
        page_two = doc.text[doc.page_starts[1]:doc.page_starts[2]]
        assert "ferry logbook" in page_two and "harbormaster" in page_two
        assert doc.text[doc.page_starts[2]:].startswith("Third page typed")
        assert doc.page_at(doc.text.index("harbormaster")) == 2
        assert pending_ocr(s, case_id) == []
        words = doc.meta["ocr_words"]["2"]
        local = page_two.index("logbook")
        assert any(w[0] == local and w[1] == local + len("logbook") for w in words)
        assert [h.item_id for h in search.search(s, "harbormaster", case_id)] == [doc_id]
        note = doc.import_notes[-1]
        assert note.startswith("Text of page 2 from OCR (RapidOCR ")
        assert "mean confidence 9" in note  # e.g. "mean confidence 98%"


def test_cancel_during_ocr_leaves_the_document_as_it_was(sqlite_workspace) -> None:
    ws = sqlite_workspace
    with ws.transaction() as s:
        case_id = cases.create_case(s, "Scans").id
    doc_id = _store(ws, case_id, scan_pdf([["Page one of the scan"], ["Page two of it"]]),
                    "scan.pdf")
    with ws.transaction() as s:
        before = s.get(Document, doc_id)
        kept = (before.text, list(before.page_starts), dict(before.meta),
                list(before.import_notes))
    seen: list[int] = []
    with pytest.raises(OcrCancelled):
        ocr_document(ws.transaction, doc_id, progress=lambda done, total: seen.append(done),
                     cancelled=lambda: len(seen) > 1)  # after the first page is read
    assert seen == [0, 1]
    with ws.transaction() as s:
        after = s.get(Document, doc_id)
        assert (after.text, after.page_starts, after.meta, after.import_notes) == kept
        assert [p.pages for p in pending_ocr(s, case_id)] == [(1, 2)]
        assert search.search(s, "page", case_id) == []
