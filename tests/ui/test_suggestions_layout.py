"""The Suggestions panel in a narrow dock: names stretch and elide, no horizontal scrollbar,
events read "DATE — short cue" (tester's report on the Parkland article)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from casefile.services.suggestions import suggest_for_document
from casefile.ui.suggestions_panel import CONTEXT_COLUMN, event_cue
from tests.ui.helpers import add_text_document, make_case
from tests.ui.test_suggestions_panel import open_panel

ARTICLE = Path("/work/shared/samples/parkland-coral-springs-article.txt")


def test_event_cue_drops_openers_and_stays_short():
    assert event_cue("Likewise, an internal email from Coral Springs Police Chief Tony "
                     "Pustizzi two days after") == "An internal email from Coral Springs Police…"
    assert event_cue("As Patterico wrote earlier today:") == "Patterico wrote earlier today"
    assert event_cue("When") == "When"


def test_parkland_suggestions_fit_the_dock(make_window, ui_workspace, qtbot):
    if not ARTICLE.exists():
        pytest.skip("sample article not available")
    cid = make_case(ui_workspace, "Parkland")
    doc = add_text_document(ui_workspace, cid, ARTICLE.read_text(encoding="utf-8"),
                            ARTICLE.name, published="2018-02-23")
    with ui_workspace.transaction() as s:
        suggest_for_document(s, doc, mode="rules")
    window = make_window(cid)
    window.resize(1280, 800)
    panel = open_panel(window)
    panel.reload()
    QApplication.processEvents()
    tree = panel.tree
    assert tree.isColumnHidden(CONTEXT_COLUMN)
    assert not tree.horizontalScrollBar().isVisible()
    header = tree.header()
    visible = sum(header.sectionSize(c) for c in range(3))
    assert visible <= tree.viewport().width() + 1
    assert header.sectionSize(0) >= header.sectionSize(2)  # the name gets the room
    events = [i for i in panel.model.entry_indexes() if panel.model.entry(i).kind == "event"]
    assert events
    labels = [i.data() for i in events]
    assert "2018-02-14 — Coral Springs police officers arrived at Marjory…" in labels
    for index, label in zip(events, labels, strict=True):
        entry = panel.model.entry(index)
        date, cue = label.split(" — ", 1)
        assert date == entry.detail["date"] and 0 < len(cue) <= 80
