"""The Suggestions panel in a narrow dock: names stretch and elide, no horizontal scrollbar,
events read "DATE — short cue" (tester's report on the Parkland article)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDockWidget

from casefile.ui.suggestions import CONTEXT_COLUMN, event_cue
from tests.ui.test_suggestions_panel import open_panel, suggested_parkland

ARTICLE = Path("/work/shared/samples/parkland-coral-springs-article.txt")


def test_event_cue_drops_openers_and_stays_short():
    assert event_cue("Likewise, an internal email from Coral Springs Police Chief Tony "
                     "Pustizzi two days after") == "An internal email from Coral Springs Police…"
    assert event_cue("As Patterico wrote earlier today:") == "Patterico wrote earlier today"
    assert event_cue("When") == "When"


def test_parkland_suggestions_fit_the_dock(make_window, ui_workspace, qtbot):
    if not ARTICLE.exists():
        pytest.skip("sample article not available")
    cid, _doc = suggested_parkland(ui_workspace, ARTICLE)
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


CLAIMS_STORY = (
    "Senator Rosalind Okafor-Lund questioned the harbor warden for an hour on Tuesday about the "
    "night the pier collapsed. \"The warden should have been fired the week the pier went into "
    "the water and nobody has answered for it since,\" she said. Harbor Police Chief Nadia "
    "Ferreira said the review of the collapse would be released within a week, that the divers "
    "had found two more cracked pilings under the northern half of the pier on Monday, and that "
    "the city engineer had been told about the cracks in a letter sent in the spring of the "
    "year before. Officer Tom Becker did not respond to a request for comment. "
    "Mayor Ivo Brandt said the city would pay for the repairs.")


def _claim_text(panel, index) -> str:
    """What the list draws for the claim row ``index`` (its delegate's text at its width)."""
    from PySide6.QtWidgets import QStyleOptionViewItem

    option = QStyleOptionViewItem()
    option.initFrom(panel.tree)
    option.rect = panel.tree.visualRect(index)
    panel.tree.itemDelegate().initStyleOption(option, index)
    return option.text


@pytest.fixture
def claims_panel(make_window, ui_workspace):
    from tests.ui.test_suggestions_panel import suggested_case

    cid, _doc = suggested_case(ui_workspace, CLAIMS_STORY)
    window = make_window(cid)
    window.resize(1008, 600)  # a first window on a 1024×640 screen (its frame allowed for)
    panel = open_panel(window)
    QApplication.processEvents()
    return window, panel


def test_at_1024_px_a_claims_speaker_reads_whole_and_details_keep_their_width(claims_panel):
    from casefile.ui.suggestions import DETAILS_COLUMN, DETAILS_MIN_WIDTH

    window, panel = claims_panel
    claims = [i for i in panel.model.entry_indexes() if panel.model.entry(i).kind == "claim"]
    quoted = [i for i in claims if panel.model.entry(i).name.startswith('"The warden')]
    assert len(quoted) == 1
    panel.tree.scrollTo(quoted[0])
    QApplication.processEvents()
    shown = _claim_text(panel, quoted[0])
    # the speaker whole, then as much of the sentence as the column holds
    assert shown.startswith("Rosalind Okafor-Lund")
    assert shown == "Rosalind Okafor-Lund" or shown.startswith('Rosalind Okafor-Lund: "')
    # a decided claim keeps its mark, the speaker still whole
    panel.model.set_decided([panel.model.entry(quoted[0]).key], "accept")
    assert _claim_text(panel, quoted[0]).startswith("✓ Rosalind Okafor-Lund")
    panel.model.set_decided([panel.model.entry(quoted[0]).key], None)
    # the preview says who, whole, whatever the row's width
    panel.tree.setCurrentIndex(quoted[0])
    assert "said by <b>Rosalind Okafor-Lund</b>" in panel.context_label.text()
    # the Details column is there at this width, and widens with the dock
    header = panel.tree.header()
    assert not panel.tree.isColumnHidden(DETAILS_COLUMN)
    narrow = header.sectionSize(DETAILS_COLUMN)
    assert narrow >= DETAILS_MIN_WIDTH
    assert sum(header.sectionSize(c) for c in range(3)) <= panel.tree.viewport().width() + 1
    dock = window.findChild(QDockWidget, "suggestions_dock")
    window.resizeDocks([dock], [dock.width() + 200], Qt.Orientation.Horizontal)
    QApplication.processEvents()
    assert header.sectionSize(DETAILS_COLUMN) > narrow
    assert not panel.tree.horizontalScrollBar().isVisible()


def test_rows_stay_under_the_pointer_when_the_preview_gets_longer_or_shorter(claims_panel,
                                                                              qtbot):
    _window, panel = claims_panel
    tree = panel.tree
    for scrolled in (0, tree.verticalScrollBar().maximum()):  # at the top, and at the bottom
        tree.verticalScrollBar().setValue(scrolled)
        QApplication.processEvents()
        shown = [i for i in panel.model.entry_indexes()
                 if tree.viewport().rect().contains(tree.visualRect(i))]
        by_length = sorted(shown, key=lambda i: len(panel.model.entry(i).snippet))
        short, long_ = by_length[0], by_length[-1]
        assert len(panel.model.entry(long_).snippet) > 2 * len(panel.model.entry(short).snippet)
        tops = {}
        for index in (short, long_, short, long_):  # clicked in turn, as with the mouse
            qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton,
                             pos=tree.visualRect(index).center())
            QApplication.processEvents()
            assert tree.currentIndex() == index
            now = [tree.visualRect(i).top() for i in (short, long_)]
            assert tops.setdefault("rows", now) == now  # neither row moved
            assert tops.setdefault("height", tree.viewport().height()) == (
                tree.viewport().height())
