"""File ▸ Quit while a background job runs asks first: "Keep working" leaves the window and the
job as they are; "Stop and quit" cancels the job and closes the window."""

from __future__ import annotations

import threading

from PySide6.QtWidgets import QMessageBox

from tests.ui.helpers import make_case


def test_quit_while_a_job_runs_asks_and_keeps_working_unless_told(make_window, ui_workspace,
                                                                 qtbot, monkeypatch):
    window = make_window(make_case(ui_workspace))
    release = threading.Event()

    def work(_session, job):
        while not release.wait(0.02):
            job.check()  # raises Cancelled once the job is cancelled

    job = window.runner.start(work, label="Finding names and dates…", change=None,
                              parent=window)
    asked: list[str] = []

    def press(text: str):
        def exec_(box: QMessageBox) -> int:
            asked.append(box.text())
            (button,) = [b for b in box.buttons() if b.text() == text]
            button.click()
            return 0
        return exec_

    monkeypatch.setattr(QMessageBox, "exec", press("Keep working"))
    assert window.quit_requested() is False
    assert window.isVisible() and not job.done and not job.cancelled
    assert "Finding names and dates…" in asked[0]

    monkeypatch.setattr(QMessageBox, "exec", press("Stop and quit"))
    assert window.quit_requested() is True
    qtbot.waitUntil(lambda: job.done, timeout=10000)
    assert job.outcome == "cancelled" and not window.isVisible()


def test_quit_with_nothing_running_closes_at_once(make_window, ui_workspace, monkeypatch):
    window = make_window(make_case(ui_workspace))
    monkeypatch.setattr(QMessageBox, "exec", lambda box: (_ for _ in ()).throw(
        AssertionError("asked with nothing running")))
    assert window.quit_requested() is True and not window.isVisible()
