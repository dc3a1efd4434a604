"""A title another case has is refused in the New case dialog itself, before it closes: the
reason shows under the title and what was typed stays, to be changed."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog

from casefile.services import cases
from casefile.store import Case
from casefile.ui.dialogs import NewCaseDialog


def test_a_duplicate_title_is_refused_before_ok_closes_the_dialog(
        make_window, ui_workspace, monkeypatch) -> None:
    with ui_workspace.transaction() as s:
        cases.create_case(s, "Harbor contracts")
    window = make_window()
    seen: dict[str, object] = {}

    def exec_(dialog: NewCaseDialog) -> int:
        dialog.show()
        dialog.title_edit.setText("Harbor contracts")
        dialog.summary_edit.setPlainText("Who won the dredging contracts, and why.")
        dialog.ok_button.click()
        seen["open"] = dialog.isVisible() and dialog.result() != QDialog.DialogCode.Accepted
        seen["problem"] = dialog.problem.text() if dialog.problem.isVisible() else ""
        seen["kept"] = (dialog.title(), dialog.summary())
        dialog.title_edit.setText("Harbor contracts 2026")
        seen["cleared"] = not dialog.problem.isVisible()
        dialog.ok_button.click()
        return dialog.result()

    monkeypatch.setattr(NewCaseDialog, "exec", exec_)
    window.new_case_action.trigger()
    assert seen["open"] is True
    assert seen["problem"] == ("A case titled 'Harbor contracts' already exists: choose another "
                               "title.")
    assert seen["kept"] == ("Harbor contracts", "Who won the dredging contracts, and why.")
    assert seen["cleared"] is True
    assert window.picker.case_box.currentText() == "Harbor contracts 2026"
    with ui_workspace.transaction() as s:
        assert s.get(Case, window.case_id).summary == "Who won the dredging contracts, and why."
