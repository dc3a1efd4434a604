"""The brief's cover: the summary and the key counts, each count in the right number."""

from __future__ import annotations

from pathlib import Path

from casefile.export.brief import render_brief
from casefile.export.brief_data import (
    BriefData,
    EntityEntry,
    EventEntry,
    QuestionEntry,
    SourceEntry,
)
from tests.export.conftest import flat, pdftotext_text, pypdf_pages


def _data(people: int, sources: int, events: int) -> BriefData:
    return BriefData(
        case_title="Harbor audit", generated="2024-03-01",
        summary="Who signed off on the harbor dredging contract, and why twice the estimate?",
        people=[EntityEntry(f"Person {i}", "person") for i in range(people)],
        sources=[SourceEntry(i + 1, f"Doc {i}", "ab" * 32) for i in range(sources)],
        events=[EventEntry(f"Meeting {i}", "2024-02-0" + str(i + 1)) for i in range(events)],
        questions=[QuestionEntry("Ask the port director", "question", "open", due="2024-02-01",
                                 overdue=True)],
    )


def test_one_and_many_are_counted_right(tmp_path: Path) -> None:
    one, many = tmp_path / "one.pdf", tmp_path / "many.pdf"
    render_brief(_data(1, 1, 1), one)
    render_brief(_data(2, 2, 2), many)
    cover_one = flat(pypdf_pages(one)[0])
    cover_many = flat(pypdf_pages(many)[0])
    for phrase in ("person", "document", "event", "Sources (1 document)", "Timeline (1 event)"):
        assert phrase in cover_one
    for phrase in ("people", "documents", "events", "Sources (2 documents)",
                   "Timeline (2 events)"):
        assert phrase in cover_many
    text = flat(pdftotext_text(one))
    assert "1 documents" not in text and "1 events" not in text


def test_the_summary_is_on_the_cover_only(tmp_path: Path) -> None:
    pdf = tmp_path / "brief.pdf"
    data = _data(1, 1, 1)
    render_brief(data, pdf)
    pages = [flat(p) for p in pypdf_pages(pdf)]
    assert data.summary is not None
    assert data.summary in pages[0]
    assert sum(page.count(data.summary) for page in pages) == 1
    assert "1 overdue" in pages[0]
