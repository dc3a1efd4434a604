"""A case with many suggestions opens without waiting for its list: the Suggestions panel reads
it on a worker thread (ARCHITECTURE.md, "The window": cold start and responsiveness), says so
meanwhile, then shows the same rows a read on the GUI thread shows; a read made stale by a
change of case is dropped; a row's context is made when it is shown, not for every row."""

from __future__ import annotations

import threading
import time

from PySide6.QtCore import QTimer

from casefile.services import decisions
from casefile.services.suggestions import suggest_for_document
from casefile.ui.suggestions import loading
from tests.ui.helpers import add_text_document, make_case
from tests.ui.test_suggestions_panel import STORY, click_row, open_panel, rows


def suggested_case(ws, title: str, text: str) -> int:
    """A case holding one document whose suggestions are stored (rules mode)."""
    cid = make_case(ws, title)
    doc_id = add_text_document(ws, cid, text, "story.txt", published="2024-03-08")
    with ws.transaction() as s:
        suggest_for_document(s, doc_id, mode="rules")
    return cid


def gaps_while(qtbot, until, timeout_ms: int = 10_000) -> list[float]:
    """The gaps (ms) between the ticks of a 10 ms timer while waiting for ``until()``."""
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start()
    try:
        qtbot.waitUntil(until, timeout=timeout_ms)
    finally:
        timer.stop()
    return [(b - a) * 1000 for a, b in zip(ticks, ticks[1:], strict=False)]


def test_a_big_case_is_listed_from_a_worker_thread(make_window, ui_workspace, qtbot,
                                                   monkeypatch) -> None:
    cid = suggested_case(ui_workspace, "Harbor crash", STORY)
    other = suggested_case(ui_workspace, "Other crash", STORY.replace("Ferreira", "Okafor"))
    with ui_workspace.transaction() as s:
        want = decisions.list_suggestions(s, cid)
    monkeypatch.setattr(loading, "BACKGROUND_MENTIONS", 1)  # every case counts as big
    window = make_window(other)
    panel = open_panel(window)
    qtbot.waitUntil(lambda: not panel.is_loading)
    assert ("person", "Nadia Okafor") in rows(panel)

    window.open_case(cid)
    # the case is open and the window answers before its list is read
    assert window.case_id == cid and panel.is_loading
    assert panel.listing is None and rows(panel) == []
    assert panel.status_label.text() == "Reading the suggestions…"
    gaps = gaps_while(qtbot, lambda: not panel.is_loading)
    print(f"event-loop gaps while the list was read: max {max(gaps, default=0):.0f} ms")
    assert panel.loader.worker_threads
    assert threading.get_ident() not in panel.loader.worker_threads
    assert panel.listing == want
    assert rows(panel) == [(e.kind, e.name) for es in want.by_kind.values() for e in es]
    assert panel.current_entry() is not None  # the first row selected, as before


def test_a_read_for_a_case_left_meanwhile_is_dropped(make_window, ui_workspace, qtbot,
                                                     monkeypatch) -> None:
    first = suggested_case(ui_workspace, "Harbor crash", STORY)
    second = suggested_case(ui_workspace, "Other crash", STORY.replace("Ferreira", "Okafor"))
    monkeypatch.setattr(loading, "BACKGROUND_MENTIONS", 1)
    window = make_window(None)
    panel = open_panel(window)
    window.open_case(first)
    window.open_case(second)  # before the first read arrived
    qtbot.waitUntil(lambda: not panel.is_loading)
    qtbot.wait(50)  # the first read's answer, if it comes late, must change nothing
    assert ("person", "Nadia Okafor") in rows(panel)
    assert ("person", "Nadia Ferreira") not in rows(panel)


def test_a_rows_context_is_made_when_the_row_is_shown(make_window, ui_workspace, qtbot,
                                                     monkeypatch) -> None:
    from casefile.services import suggestion_list

    made: list[tuple[int, int]] = []
    real = suggestion_list.context_snippet

    def counted(text: str, start: int, end: int, **kw: int) -> tuple[str, tuple[int, int]]:
        made.append((start, end))
        return real(text, start, end, **kw)

    monkeypatch.setattr(suggestion_list, "context_snippet", counted)
    cid = suggested_case(ui_workspace, "Harbor crash", STORY)
    window = make_window(cid)
    panel = open_panel(window)
    qtbot.waitUntil(lambda: not panel.is_loading)
    assert len(rows(panel)) == 10
    # the first row is selected and its preview shown: its context alone was made
    assert len(made) == 1
    assert "Harbor Police Chief <b>Nadia Ferreira</b> said Tuesday" in (
        panel.context_label.text())
    click_row(qtbot, panel, "person", "Tom Becker")
    assert "whether Officer <b>Tom Becker</b> had been" in panel.context_label.text()
    assert 1 < len(made) < 10
