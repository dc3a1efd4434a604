"""Fixtures of the service tests."""

from __future__ import annotations

import pytest

from casefile.ingest import ingest_bytes
from casefile.services import documents
from casefile.services.demo import build_demo
from casefile.services.suggestions import suggest_for_document
from tests.conftest import ARTICLE, new_sqlite_workspace


@pytest.fixture
def demo(workspace) -> int:
    """The demo case built in the test's workspace; its id."""
    with workspace.transaction() as s:
        return build_demo(s)[0]


@pytest.fixture
def other_workspace(sqlite_template, tmp_path):
    """A second, empty SQLite workspace (the folder ``other`` of the test's temp folder), to
    take in what a test exports from ``workspace``; closed after the test."""
    ws = new_sqlite_workspace(sqlite_template, tmp_path / "other")
    yield ws
    ws.close()


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


def import_with_suggestions(ws, case_id: int, path=ARTICLE, published: str = "2018-02-23"):
    """Import ``path`` as ``casefile import`` does (a batch of one), read it and store its
    suggestions (the default model); returns the document's id."""
    from casefile.services import batch
    from casefile.services.suggestions import extract_for_document

    done = batch.import_paths(ws.transaction, case_id, [path], published=published)
    doc = done.outcomes[0].result.document_id
    with ws.transaction() as s:
        found = extract_for_document(s, doc)
    with ws.transaction() as s:
        suggest_for_document(s, doc, extracted=found)
    return doc
