"""Helpers shared by the store tests."""

from __future__ import annotations

from casefile.ingest.types import Ingested
from casefile.services.documents import store_document


def add_documents(ws, case_id: int, texts: dict[str, str]) -> dict[str, int]:
    """Import each ``title: text`` as a plain-text document, in one transaction; their ids."""
    ids = {}
    with ws.transaction() as s:
        for title, body in texts.items():
            ing = Ingested(text=body, mime_type="text/plain", title=title)
            ids[title] = store_document(s, case_id, body.encode(), ing).document_id
    return ids
