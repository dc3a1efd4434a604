"""The Suggestions panel says which documents got no suggestions for their language, and what
would read them; the document keeps its language."""

from __future__ import annotations

import pytest

from casefile.services.suggestions import suggest_for_document, unread_language_notes
from casefile.store import Document
from tests.ui.helpers import add_text_document, make_case
from tests.ui.test_suggestions_panel import open_panel

pytestmark = pytest.mark.gui

# An invented Korean news text: a fire outside city hall, the mayor, a report due in a week.
KOREAN = ("경찰은 시청 앞 화재 이후 조사를 시작했다. 김민수 시장은 화요일 기자들에게 보고서가 "
          "일주일 후에 공개될 것이라고 말했다. 시의회는 다음 주에 회의를 연다.")
ENGLISH = ("Harbor Police Chief Nadia Ferreira said Tuesday that the review of the crash is "
           "expected to be released within a week.")


def test_panel_names_the_language_it_cannot_read_and_the_pipeline_that_would(
        make_window, ui_workspace):
    cid = make_case(ui_workspace, "Harbor fire")
    korean = add_text_document(ui_workspace, cid, KOREAN, "korean.txt", published="2024-03-08")
    english = add_text_document(ui_workspace, cid, ENGLISH, "story.txt", published="2024-03-08")
    with ui_workspace.transaction() as s:
        for doc_id in (korean, english):
            suggest_for_document(s, doc_id, mode="rules")
    with ui_workspace.transaction(write=False) as s:
        [note] = unread_language_notes(s, cid)
        ko, en = s.get(Document, korean), s.get(Document, english)
        assert ko is not None and en is not None
        assert note == f"“{ko.title}”: {ko.import_notes[-1]}"  # which document it is
        assert (ko.meta["language"], en.meta["language"]) == ("ko", "en")
    assert "Korean" in note and "ko_core_news_sm" in note
    window = make_window(cid)
    panel = open_panel(window)
    status = panel.status_label.text()
    assert note in status
    assert [e.name for e in panel.waiting_entries() if e.kind == "person"] == ["Nadia Ferreira"]
