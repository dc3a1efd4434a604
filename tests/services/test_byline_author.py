"""Accepting the person a story's byline names fills in the document's Author and Outlet (when
they are empty), and undoing the accept empties them again."""

from __future__ import annotations

from sqlalchemy import select

from casefile.ingest import ingest_bytes
from casefile.services import decisions, documents
from casefile.services.changes import run_step
from casefile.services.suggestions import suggest_for_document
from casefile.store import Document, Mention

STORY = """Harbour fees rise for the third time this year

By Maria Lopez
The Coastal Ledger

The port authority raised mooring fees by twelve percent on Tuesday, the third increase this
year. Harbour master Daniel Price said the money would pay for dredging the north basin.
"""


def test_accepting_the_byline_fills_author_and_outlet(workspace, case_id) -> None:
    data = STORY.encode()
    with workspace.transaction() as s:
        doc_id = documents.store_document(s, case_id, data, ingest_bytes(data, "fees.txt"),
                                          published="2026-03-03").document_id
    with workspace.transaction() as s:
        suggest_for_document(s, doc_id, mode="rules")
    with workspace.transaction() as s:
        byline = s.scalars(select(Mention).where(Mention.document_id == doc_id,
                                                 Mention.role == "Author")).first()
        assert byline is not None and byline.name == "Maria Lopez"
        outlet = byline.affiliation
        doc = s.get(Document, doc_id)
        assert (doc.author, doc.outlet) == (None, None)
    with workspace.transaction() as s:
        done = decisions.accept(s, case_id, "person", "Maria Lopez")
    assert doc_id in done.updated
    with workspace.transaction() as s:
        doc = s.get(Document, doc_id)
        assert doc.author == "Maria Lopez"
        assert doc.outlet == outlet and outlet  # the outlet the byline credits
    with workspace.transaction() as s:
        run_step(s, done.undo)
    with workspace.transaction() as s:
        doc = s.get(Document, doc_id)
        assert (doc.author, doc.outlet) == (None, None)
