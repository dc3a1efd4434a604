"""Case ▸ Members… of the main window: who may read or change the open case of a team workspace
(PostgreSQL), and, for its owners, adding a database user with a role, changing a role and
removing a member.

:class:`MembersDialog` only shows the members and says what was asked; :class:`MembersController`
runs :func:`casefile.services.team.add_member` / :func:`~casefile.services.team.remove_member`
through the window's runner (one service call each; a refusal, such as a reader trying, is the
server's one sentence in a warning). On a SQLite workspace (single-user) the menu entry says so
instead of opening the dialog.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QTableWidgetItem,
    QWidget,
)

from casefile.services import team
from casefile.services.team import Member
from casefile.store.teams import ROLES, is_team
from casefile.ui.dialogs import DialogHolder, ListingDialog

if TYPE_CHECKING:
    from casefile.ui.shell import WindowShell


class MembersDialog(ListingDialog):
    """The members of one case (User, Role, Added by), and for an owner a user field, a role
    and Add / change role, Remove. Signals: ``add_requested(user, role)``,
    ``remove_requested(user)``."""

    add_requested = Signal(str, str)
    remove_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, "Case members", ("Database user", "Role", "Added by"),
                         name="members_table")
        self.members: list[Member] = []
        self.table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        row = QHBoxLayout()
        self.user_edit = QLineEdit()
        self.user_edit.setPlaceholderText("database user")
        self.role_box = QComboBox()
        self.role_box.addItems(list(ROLES))
        self.add_button = QPushButton("&Add / change role")
        self.remove_button = QPushButton("&Remove")
        for widget in (self.user_edit, self.role_box, self.add_button, self.remove_button):
            row.addWidget(widget)
        self.body.addLayout(row)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        self.body.addWidget(buttons)
        self.add_button.clicked.connect(self._on_add)
        self.remove_button.clicked.connect(self._on_remove)
        self.user_edit.returnPressed.connect(self._on_add)
        self.user_edit.textChanged.connect(lambda _t: self._update_buttons())
        self.table.itemSelectionChanged.connect(self._on_selected)
        self.can_manage = False
        self.resize(520, 320)

    def set_members(self, title: str, members: list[Member], my_role: str | None) -> None:
        """Show the members of case ``title``; ``my_role`` (the user's own: owner, editor,
        reader) decides whether adding and removing are offered."""
        self.members = list(members)
        self.can_manage = my_role == "owner"
        self.intro.setText(
            f"Who may read (reader), change (editor) or also manage (owner) “{title}”. "
            "PostgreSQL itself enforces it." + ("" if self.can_manage else
                                                " Only an owner of the case changes this list."))
        self.table.setRowCount(len(members))
        for r, m in enumerate(members):
            for c, value in enumerate((m.user, m.role, m.added_by)):
                self.table.setItem(r, c, QTableWidgetItem(value))
        for widget in (self.user_edit, self.role_box):
            widget.setEnabled(self.can_manage)
        self._update_buttons()

    def chosen(self) -> Member | None:
        """The selected member (None: none)."""
        rows = self.table.selectionModel().selectedRows()
        return self.members[rows[0].row()] if rows else None

    def _on_selected(self) -> None:
        member = self.chosen()
        if member is not None and self.can_manage:
            self.user_edit.setText(member.user)
            self.role_box.setCurrentText(member.role)
        self._update_buttons()

    def _update_buttons(self) -> None:
        self.add_button.setEnabled(self.can_manage and bool(self.user_edit.text().strip()))
        self.remove_button.setEnabled(self.can_manage and self.chosen() is not None)

    def _on_add(self) -> None:
        user = self.user_edit.text().strip()
        if self.can_manage and user:
            self.add_requested.emit(user, self.role_box.currentText())

    def _on_remove(self) -> None:
        member = self.chosen()
        if self.can_manage and member is not None:
            self.remove_requested.emit(member.user)


class MembersController(DialogHolder[MembersDialog]):
    """Case ▸ Members… of ``window``. ``dialog``
    is the dialog while it is open."""

    def __init__(self, window: WindowShell) -> None:
        self.window = window
        super().__init__()

    def prompt(self) -> MembersDialog | None:
        """Open the members dialog of the open case (window-modal, not blocking); returns it,
        or None (no case open, or a SQLite workspace: said in the window)."""
        window = self.window
        if window.case_id is None:
            return None
        if not is_team(window.workspace.engine):
            window.report_error(str(team.NotATeamWorkspaceError()))
            return None

        def make() -> MembersDialog:
            dialog = MembersDialog(window.qt_window())
            dialog.add_requested.connect(self.add)
            dialog.remove_requested.connect(self.remove)
            return dialog

        return self.open_dialog(make, lambda _dialog: self.reload())

    def reload(self) -> None:
        """List the open case's members again in the open dialog."""
        case_id = self.window.case_id
        if self.dialog is None or case_id is None:
            return
        members, mine = self.window.runner.read(
            lambda s: (team.list_members(s, case_id), team.my_role(s, case_id)))
        self.dialog.set_members(self.window.case_title(), members, mine)

    def add(self, user: str, role: str) -> bool:
        """Make ``user`` a member of the open case with ``role`` (or change their role); True
        when done (a refusal is shown)."""
        case_id = self.window.case_id
        if case_id is None:
            return False
        out = self.window.runner.apply(lambda s: team.add_member(s, case_id, user, role),
                                       label=f"adding {user}", parent=self.dialog)
        return self._done(out)

    def remove(self, user: str) -> bool:
        """Take ``user`` out of the open case; True when done (a refusal is shown)."""
        case_id = self.window.case_id
        if case_id is None:
            return False
        out = self.window.runner.apply(lambda s: team.remove_member(s, case_id, user),
                                       label=f"removing {user}", parent=self.dialog)
        return self._done(out)

    def _done(self, out: Any) -> bool:
        self.reload()
        if out.ok and out.value is not None:
            self.window.notify(out.value.message, 10000)
        return bool(out.ok)
