"""Fixtures of the service tests."""

from __future__ import annotations

import pytest

from casefile.ingest import ingest_bytes
from casefile.services import documents
from casefile.services.suggestions import suggest_for_document
from tests.conftest import ARTICLE


@pytest.fixture
def parkland(workspace, case_id) -> tuple[int, int]:
    """The Parkland article imported with published 2018-02-23 and its suggestions stored
    (rules mode, so no language model is needed); (case id, document id)."""
    raw = ARTICLE.read_bytes()
    with workspace.transaction() as s:
        doc_id = documents.store_document(s, case_id, raw, ingest_bytes(raw, ARTICLE.name),
                                          published="2018-02-23").document_id
    with workspace.transaction() as s:
        suggest_for_document(s, doc_id, mode="rules")
    return case_id, doc_id
