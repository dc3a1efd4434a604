"""Answering File ▸ New case… in tests: the real NewCaseDialog, filled in and accepted."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog

from casefile.ui.dialogs import NewCaseDialog


def answer_new_case(monkeypatch, title: str, summary: str = "") -> list[NewCaseDialog]:
    """Make the next New case dialogs type ``title`` and ``summary`` and press OK (only when
    OK is enabled, as a reporter could); returns the dialogs shown."""
    shown: list[NewCaseDialog] = []

    def exec_(dialog: NewCaseDialog) -> int:
        shown.append(dialog)
        dialog.title_edit.setText(title)
        dialog.summary_edit.setPlainText(summary)
        if not dialog.ok_button.isEnabled():
            return QDialog.DialogCode.Rejected
        dialog.ok_button.click()
        return dialog.result()

    monkeypatch.setattr(NewCaseDialog, "exec", exec_)
    return shown
