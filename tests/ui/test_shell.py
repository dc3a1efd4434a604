"""The window as a shell: the operation runner's per-call failure handling, and the
controllers reached through the window's public interface."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDialog

from casefile.errors import ValidationError
from casefile.services import cases
from tests.ui.helpers import make_case

pytestmark = pytest.mark.gui


def _refuse(_session):
    raise ValidationError("a case needs a title")


def test_on_failed_gets_the_message_and_no_box_opens(make_window, ui_workspace, qtbot):
    window = make_window(make_case(ui_workspace))
    said: list[str] = []
    with qtbot.assertNotEmitted(window.runner.operation_failed):
        out = window.runner.run(_refuse, change=None, on_failed=said.append)
    assert not out.ok and said == ["a case needs a title"]
    assert not window.messages


def test_the_error_box_is_parented_to_the_widget_that_started_the_call(make_window,
                                                                      ui_workspace, qtbot):
    window = make_window(make_case(ui_workspace))
    dialog = QDialog(window)
    dialog.show()
    with qtbot.waitSignal(window.runner.operation_failed):
        window.runner.apply(lambda s: cases.create_case(s, ""), parent=dialog)
    assert [box.parent() for box in window.messages] == [dialog]
    assert window.messages[0].text() == "a case needs a title"
    assert window.runner.failure_parent is None  # only while the failure is announced
    window.runner.run(_refuse, change=None)  # no parent: the window's own box
    assert window.messages[1].parent() is window


def test_a_background_job_failure_goes_to_its_callback(make_window, ui_workspace, qtbot):
    window = make_window(make_case(ui_workspace))
    said: list[str] = []
    with qtbot.waitSignal(window.runner.job_finished, timeout=5000) as finished:
        window.runner.start(lambda s, job: _refuse(s), label="refused", change=None,
                            progress=False, on_failed=said.append)
    assert finished.args[0].outcome == "failed" and said == ["a case needs a title"]
    assert not window.messages
