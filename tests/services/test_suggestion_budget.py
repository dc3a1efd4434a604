"""A document too long for suggestions: nothing is sent to the extractor, the reporter is told
why (in the result, the message and the document's own notes), and shorter documents of the
same batch get their suggestions as before."""

from __future__ import annotations

from typing import Any

import pytest

from casefile.ingest import budget, ingest_bytes
from casefile.services import documents
from casefile.services.suggest_pool import suggest_in_background
from casefile.services.suggestions import suggest_for_document
from casefile.store import Document

MEMO = "Harbor Authority director Lena Ortiz resigned on Monday, the city said.\n"


class _RulesOnly:
    """A pool stand-in that extracts in this process and counts what it was sent."""

    def __init__(self) -> None:
        self.sent: list[int] = []

    def submit(self, text: str, *args: Any) -> Any:
        from concurrent.futures import Future

        from casefile.services.suggest_pool import extract_job

        self.sent.append(len(text))
        future: Future[dict[str, Any]] = Future()
        future.set_result(extract_job(text, *args[:3], "rules", None))
        return future


def _store(workspace: Any, case_id: int, text: str, name: str) -> int:
    raw = text.encode()
    with workspace.transaction() as s:
        return documents.store_document(s, case_id, raw, ingest_bytes(raw, name)).document_id


def test_a_long_document_is_not_sent_to_the_extractor_and_says_why(
        workspace: Any, case_id: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget, "MAX_SUGGEST_CHARS", 5_000)
    short = _store(workspace, case_id, MEMO, "memo.txt")
    long = _store(workspace, case_id, MEMO * 100, "dump.txt")
    pool = _RulesOnly()
    done = suggest_in_background(workspace.transaction, [short, long],
                                 pool=pool, mode="rules")  # type: ignore[arg-type]
    assert pool.sent == [len(MEMO)]
    note = ("suggestions skipped: the text is 7,200 characters, above the 5,000 limit; run "
            "`casefile extract` on parts")
    by_id = {r.document_id: r for r in done.value}
    assert by_id[long].skipped == note and by_id[long].counts == {}
    assert by_id[short].skipped is None and by_id[short].counts
    assert done.message.endswith(f"; skipped in 1 document: {note}.")
    with workspace.transaction() as s:
        assert s.get(Document, long).import_notes[-1] == note
        assert note not in s.get(Document, short).import_notes
    with workspace.transaction() as s:  # run again: the note is not added twice
        assert suggest_for_document(s, long, mode="rules").skipped == note
    with workspace.transaction() as s:
        assert s.get(Document, long).import_notes.count(note) == 1
