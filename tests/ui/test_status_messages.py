"""The status line as a reporter reads it: a long message is cut with "…" before the counts on
its right (it ran under them), whole in the tooltip; "Create a case to begin" goes once a case
is open."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QStatusBar

from casefile.services import cases
from casefile.ui.main_window import NO_CASE_MESSAGE
from tests.ui.helpers import make_case


def _window(make_window, ui_workspace, width: int, height: int):
    """A window on a new case, resized to ``width`` x ``height`` px and laid out."""
    window = make_window(make_case(ui_workspace))
    window.resize(width, height)
    QApplication.processEvents()
    return window


def _ends_before_the_counts(window, shown: str) -> bool:
    """``shown``, painted in the status bar, ends left of the counts label."""
    bar, counts = window.statusBar(), window.status_line.counts_label
    return bar.fontMetrics().horizontalAdvance(shown) < counts.mapTo(bar, counts.rect()
                                                                     .topLeft()).x()


def test_a_long_message_is_cut_before_the_counts_and_whole_in_the_tooltip(make_window,
                                                                         ui_workspace):
    window = _window(make_window, ui_workspace, 1024, 640)
    message = ("Added person “Harbor pilot”, affiliated with the existing organization "
               "“Port Authority of the North Shore”, with 5 mentions as evidence in 3 documents")
    window.notify(message, 0)
    bar = window.statusBar()
    shown = QStatusBar.currentMessage(bar)  # what is painted
    assert shown.endswith("…") and message.startswith(shown[:-1])
    assert _ends_before_the_counts(window, shown)
    assert bar.currentMessage() == message and bar.toolTip() == message
    window.notify("Saved", 0)
    assert QStatusBar.currentMessage(bar) == "Saved" and bar.toolTip() == ""


def test_create_a_case_to_begin_goes_once_a_case_is_open(make_window, ui_workspace):
    window = make_window(None)
    assert window.statusBar().currentMessage() == NO_CASE_MESSAGE
    with ui_workspace.transaction() as s:
        case_id = int(cases.create_case(s, "Pier inquiry").id)
    window.open_case(case_id)
    assert window.statusBar().currentMessage() == ""


def test_a_message_is_cut_again_when_the_window_grows(make_window, ui_workspace):
    """A message shown while the window was narrow (or not shown yet: the start-up one read
    "1 follow-up…" at 1024 px) fits the new width after a resize."""
    window = _window(make_window, ui_workspace, 700, 600)
    message = ("1 follow-up is overdue and 2 are due this week: see Follow-ups ▸ Overdue, "
               "or press Ctrl+U to see them")
    window.notify(message, 0)
    bar = window.statusBar()
    narrow = QStatusBar.currentMessage(bar)
    window.resize(1366, 700)
    QApplication.processEvents()
    wide = QStatusBar.currentMessage(bar)
    assert len(wide) > len(narrow) and bar.currentMessage() == message


def test_a_message_is_cut_again_when_the_counts_grow(make_window, ui_workspace):
    """The counts on the right change after a message is shown (a case opens, an import adds
    documents): the message is cut again so it never runs under them."""
    from casefile.services.views import CaseStatus

    window = _window(make_window, ui_workspace, 1024, 640)
    window.status_line.show_status(None)
    message = ("1 follow-up is overdue: see Follow-ups ▸ Overdue (Ctrl+U). · 0 of 1 documents "
               "reviewed (0 relevant, 0 not relevant); 1 unread")
    window.notify(message, 0)
    counts = {"person": 12345, "document": 67890}
    window.status_line.show_status(CaseStatus(counts=counts, due_this_week=3, overdue=1))
    QApplication.processEvents()
    bar = window.statusBar()
    shown = QStatusBar.currentMessage(bar)
    assert shown.endswith("…")
    assert _ends_before_the_counts(window, shown)


def _fits(window) -> bool:
    """The painted message ends before the first widget of the status line shown (Qt paints
    it from x = 6 and clips it 2 px before that widget)."""
    from PySide6.QtCore import QPoint

    bar, line = window.statusBar(), window.status_line
    shown = QStatusBar.currentMessage(bar)
    first = min(w.mapTo(bar, QPoint(0, 0)).x()
                for w in (line.job_bar, line.cancel_button, line.counts_label, line.due_label,
                          line.workspace_label) if w.isVisible())
    return 6 + bar.fontMetrics().horizontalAdvance(shown) <= first - 2


def test_a_message_is_cut_before_the_busy_bar_of_a_quiet_job(make_window, ui_workspace, qtbot):
    """A quiet job (suggestions after an import) shows its busy bar left of the counts: the
    message on screen is cut again so that its end is not hidden under the bar."""
    import threading

    window = _window(make_window, ui_workspace, 1024, 640)
    bar = window.statusBar()
    message = ("0 of 1 documents reviewed (0 relevant, 0 not relevant); 1 unread · 1 document "
               "never read for suggestions: Case ▸ Suggest for documents never read")
    window.notify(message, 0)
    assert _fits(window)
    release = threading.Event()
    window.runner.start(lambda s, job: release.wait(20), label="Suggesting", change=None,
                        progress=False)
    qtbot.waitUntil(lambda: window.status_line.job_bar.isVisible(), timeout=5000)
    QApplication.processEvents()
    assert QStatusBar.currentMessage(bar).endswith("…") and _fits(window)
    release.set()
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=5000)
    QApplication.processEvents()
    assert _fits(window)
