"""A document's original bytes, read back for the viewer (services.originals)."""

from __future__ import annotations

from pathlib import Path

import pytest

from casefile.errors import NotFoundError
from casefile.ingest import ingest_bytes
from casefile.services import documents
from casefile.services.documents import import_file, sha256_hex
from casefile.services.originals import document_original
from casefile.services.passages import add_passage_by_quote
from casefile.store import Document
from tests.e2e.make_files import pdf_bytes

PAGES = ["Page one: the sheriff arrived.", "Page two: deputies waited.", "Page three: due soon."]


def test_a_pdf_original_comes_back_byte_for_byte_with_its_pages(
    workspace, case_id: int, tmp_path: Path
) -> None:
    data = pdf_bytes(PAGES)
    path = tmp_path / "report.pdf"
    path.write_bytes(data)
    with workspace.transaction() as s:
        doc_id = import_file(s, case_id, path).document_id
    with workspace.transaction() as s:
        original = document_original(s, doc_id)
        passage = add_passage_by_quote(s, doc_id, "deputies waited")
        text = s.get(Document, doc_id).text
    assert original.data == data and original.sha256 == sha256_hex(data)
    assert original.is_pdf and original.page_count == 3
    assert original.filename == "report.pdf"
    # the page rule agrees with the page stored on the passage
    assert original.page_at(passage.start) == passage.page == 2
    start, end = original.page_span(3, len(text))
    assert "Page three" in text[start:end] and "Page two" not in text[start:end]


def test_a_text_document_is_not_a_pdf_and_a_missing_one_is_refused(workspace, case_id) -> None:
    raw = b"Plain notes."
    with workspace.transaction() as s:
        doc_id = documents.store_document(s, case_id, raw, ingest_bytes(raw, "n.txt")).document_id
    with workspace.transaction() as s:
        original = document_original(s, doc_id)
        assert original.data == raw and not original.is_pdf
        assert original.page_count == 0 and original.page_at(3) is None
        with pytest.raises(NotFoundError):
            document_original(s, doc_id + 999)
