"""Quick open's finder: items by part of their name, documents by a word of their text."""

from __future__ import annotations

from casefile.ingest import ingest_bytes
from casefile.services import documents, items
from casefile.services.quick_open import quick_open


def _doc(s, case_id: int, text: str, name: str) -> int:
    raw = text.encode()
    return documents.store_document(s, case_id, raw, ingest_bytes(raw, name)).document_id


def test_partial_names_and_words_of_the_text(workspace, case_id) -> None:
    with workspace.transaction() as s:
        peterson = items.create_item(s, case_id, "person", "Scot Peterson").id
        pete = items.create_item(s, case_id, "person", "Pete Buttigieg").id
        bso = items.create_item(s, case_id, "organization", "Broward Sheriff's Office").id
        memo = _doc(s, case_id, "Radio memo\n\nThe logs show the deputies waited by the stairwell.",
                    "memo.txt")
    with workspace.transaction() as s:
        # anywhere in the title, case-insensitive; titles starting with it first
        assert [h.item_id for h in quick_open(s, case_id, "pete")] == [pete, peterson]
        assert [h.item_id for h in quick_open(s, case_id, "ETERS")] == [peterson]
        assert [h.item_id for h in quick_open(s, case_id, "sheriff's")] == [bso]
        assert [h.item_id for h in quick_open(s, case_id, "broward office")] == [bso]
        # a word of a document's text (a prefix is enough), with its snippet
        (hit,) = quick_open(s, case_id, "stairw")
        assert (hit.item_id, hit.kind, hit.source) == (memo, "document", "text")
        assert "stairwell" in hit.snippet and hit.match == "stairwell"
        assert quick_open(s, case_id, "   ") == []
        assert quick_open(s, case_id, "100%_") == []  # LIKE wildcards are plain characters
        assert len(quick_open(s, case_id, "e", limit=2)) == 2
