"""The Case menu of the main window: Rename case…, Edit case summary…, Members…, Copies of one
story…, Delete case….

Rename and summary are undoable commands over one service call each
(:func:`casefile.services.case_actions.rename`, :func:`~.case_actions.edit_summary`).
Delete case asks first, because the window's undo history ends with the case, then moves the
case to the Trash (:func:`casefile.services.trash.delete_case`), from where File ▸ Trash…
brings it back; the window then shows another case. Members… lists who may read or change
the case of a team workspace and lets its owners manage them (:mod:`casefile.ui.members_dialog`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QInputDialog, QLineEdit, QMenu, QMessageBox, QWidget

from casefile.services import case_actions, cases, trash
from casefile.ui.copies_dialog import CopiesController
from casefile.ui.dialogs import NewCaseDialog
from casefile.ui.members_dialog import MembersController
from casefile.ui.operations import change
from casefile.ui.shell import WindowShell
from casefile.ui.undo import push_case_action

if TYPE_CHECKING:
    from casefile.ui.shell import WindowShell


def prompt_new_case(window: WindowShell) -> int | None:
    """File ▸ New case…: ask for a title and a summary (:class:`NewCaseDialog`) and create the
    case (:func:`create_case`); returns its id (None when cancelled or refused)."""
    def refusal(title: str) -> str | None:
        return window.runner.read(lambda s: cases.title_refusal(s, title))

    title, summary = "", None
    while True:
        answer = NewCaseDialog.ask(window.qt_window(), refusal, title, summary)
        if answer is None:
            return None
        case_id = create_case(window, *answer)
        if case_id is not None:
            return case_id
        # refused after all (a case another writer made meanwhile): ask again, as typed
        title, summary = answer


def create_case(window: WindowShell, title: str, summary: str | None = None) -> int | None:
    """Create a case and open it in ``window``; returns its id (None when the title is
    refused)."""
    out = window.runner.run(
        lambda s: cases.create_case(s, title, summary).id,
        change=lambda cid: change(cid, cases=True, label="new case"), label="creating a case")
    if out.ok and out.value is not None:
        window.open_case(out.value)
        return out.value
    return None


def ask_title(parent: QWidget | None, current: str) -> str | None:
    """Ask for a case's new title (prefilled with ``current``); None when cancelled or
    unchanged."""
    text, ok = QInputDialog.getText(parent, "Rename case", "New title:",
                                    QLineEdit.EchoMode.Normal, current)
    text = text.strip()
    return text if ok and text and text != current else None


def ask_summary(parent: QWidget | None, title: str, current: str | None) -> str | None:
    """Ask for a case's summary (prefilled); the text typed ("" clears it), None when
    cancelled."""
    text, ok = QInputDialog.getMultiLineText(parent, "Edit case summary",
                                             f"What “{title}” is about:", current or "")
    return text if ok else None


def confirm_delete_case(parent: QWidget | None, title: str) -> bool:
    """Ask before moving case ``title`` to the Trash; True to go ahead."""
    answer = QMessageBox.question(
        parent, "Delete case",
        f"Move the case “{title}” and everything in it to the Trash?\n\n"
        "Its documents, evidence and notes are kept in the Trash until it is emptied: "
        "File ▸ Trash… brings the case back as it is now. Undo (Ctrl+Z) cannot.",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Cancel)
    return answer == QMessageBox.StandardButton.Yes


class CaseMenu:
    """The Case menu of ``window``. Actions:
    ``rename_action``, ``summary_action``, ``members_action``, ``copies_action``,
    ``delete_action`` (``actions``: all five); ``members`` runs the members dialog, ``copies``
    the copies dialog (:mod:`casefile.ui.copies_dialog`)."""

    def __init__(self, window: WindowShell, menu: QMenu) -> None:
        self.window = window
        self.members = MembersController(window)
        self.rename_action = menu.addAction("&Rename case…", self.prompt_rename)
        self.summary_action = menu.addAction("Edit case &summary…", self.prompt_summary)
        self.members_action = menu.addAction("&Members…", self.members.prompt)
        self.members_action.setStatusTip("who may read or change this case (team workspaces "
                                         "on PostgreSQL)")
        self.copies = CopiesController(window)
        self.copies_action = menu.addAction("&Copies of one story…", self.copies.prompt)
        self.copies_action.setStatusTip("documents that share an origin (syndicated copies, one "
                                        "wire's stories): each counts once as a source")
        menu.addSeparator()
        self.delete_action = menu.addAction("&Delete case…", self.prompt_delete)
        self.actions: tuple[Any, ...] = (
            self.rename_action, self.summary_action, self.members_action, self.copies_action,
            self.delete_action)

    def prompt_rename(self) -> bool:
        """Case ▸ Rename case…: ask for the title and rename (undoable). True when renamed."""
        if self.window.case_id is None:
            return False
        title = ask_title(self.window.qt_window(), self.window.case_title())
        return self.rename(title) if title is not None else False

    def rename(self, title: str) -> bool:
        """Rename the open case to ``title`` as one undoable step; True when done (a refusal,
        e.g. a title in use, is shown)."""
        return push_case_action(
            self.window, f"Rename case “{self.window.case_title()}”",
            lambda s, case_id: case_actions.rename(s, case_id, title))

    def prompt_summary(self) -> bool:
        """Case ▸ Edit case summary…: ask for the summary and save it (undoable)."""
        case_id = self.window.case_id
        if case_id is None:
            return False
        current = self.window.runner.read(lambda s: cases.get_case(s, case_id).summary)
        text = ask_summary(self.window.qt_window(), self.window.case_title(), current)
        if text is None or (text.strip() or None) == current:
            return False
        return self.edit_summary(text)

    def edit_summary(self, summary: str) -> bool:
        """Set the open case's summary ("" clears it) as one undoable step; True when done."""
        return push_case_action(
            self.window, "Edit case summary",
            lambda s, case_id: case_actions.edit_summary(s, case_id, summary))

    def prompt_delete(self) -> bool:
        """Case ▸ Delete case…: confirm, then move the open case to the Trash."""
        if self.window.case_id is None:
            return False
        if not confirm_delete_case(self.window.qt_window(), self.window.case_title()):
            return False
        return self.delete()

    def delete(self) -> bool:
        """Move the open case to the Trash (no question asked: :meth:`prompt_delete` asks);
        the window then shows another case. True when done."""
        window = self.window
        case_id = window.case_id
        if case_id is None:
            return False
        window.flush_edits()
        out = window.runner.apply(lambda s: trash.delete_case(s, case_id),
                                  label=f"deleting case “{window.case_title()}”")
        if out.ok and out.value is not None:
            window.notify(out.value.message, 10000)
        return out.ok


def install_case_menu(window: WindowShell, menu: QMenu) -> CaseMenu:
    """Fill ``menu`` (the window's Case menu); returns the controller."""
    return CaseMenu(window, menu)
