"""Asking the reporter for a PDF's password (import and page view share the prompt)."""

from __future__ import annotations

from PySide6.QtWidgets import QInputDialog, QLineEdit, QWidget


def ask_pdf_password(parent: QWidget | None, filename: str, *, wrong: bool) -> str | None:
    """Ask for the password of ``filename`` (echo mode Password); None when cancelled.

    With ``wrong`` the prompt first says the last password was wrong. An empty answer counts
    as cancelling (an empty user password opens silently, so it cannot be the one needed).
    """
    if wrong:
        label = f"The password for {filename} is wrong. Try again:"
    else:
        label = f"{filename} is encrypted. Password to open it:"
    text, ok = QInputDialog.getText(parent, "Password needed", label,
                                    QLineEdit.EchoMode.Password, "")
    if not ok or not text:
        return None
    return text
