"""The Claims view: every claim with its status (coloured), who said it, through what, and how
many independent sources support or contradict it; below, the selected claim's attribution
chain (claim ← who said it ← via which outlet or document ← passages), the status the evidence
gives next to a reporter's override, and the override itself, which needs a reason.

Statuses come from ``casefile.services.claims`` (``claims_overview``); overrides go through
the service action ``claim_actions.set_override`` as undoable commands run by the
OperationRunner. The view reloads from ``case_changed`` only.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    Signal,
    Slot,
)
from PySide6.QtGui import QColor, QFont, QFontMetrics, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from casefile.errors import CasefileError
from casefile.services import claim_actions, claims, evidence
from casefile.services.changes import Changes
from casefile.services.claims import ClaimRow
from casefile.store.items import CLAIM_STATUSES
from casefile.ui.evidence_model import relation_colour
from casefile.ui.models import ID_ROLE, is_dark_palette
from casefile.ui.operations import CaseChange, OperationRunner, Outcome
from casefile.ui.tables import set_up_row_table, table_over_details
from casefile.ui.undo import ActionCommand
from casefile.ui.widgets import wrapped_label

Index = QModelIndex | QPersistentModelIndex
DISPLAY = Qt.ItemDataRole.DisplayRole
CLAIM_HEADERS = ("Claim", "Status", "Attributed to", "Via", "For", "Against")
"""Columns; "For" counts independent origins of supporting evidence, "Against" the
contradicting passages."""
HEADER_TIPS = (None, "Status: from the evidence, or set by hand with a reason",
               "Who said it", "The outlet or document it came through",
               "Independent sources supporting it (one outlet, author or republished text "
               "counts once)", "Passages contradicting it")
STATUS_COL = 1

_STATUS_RGB = {
    "unverified": (128, 128, 128),
    "single-source": (210, 153, 34),
    "corroborated": (46, 160, 67),
    "disputed": (218, 84, 51),
    "false": (160, 30, 60),
}


def status_colour(status: str, *, background: bool = False) -> QColor:
    """The colour of a claim status: a readable text colour, or a translucent cell tint."""
    r, g, b = _STATUS_RGB.get(status, (128, 128, 128))
    if background:
        return QColor(r, g, b, 80 if is_dark_palette() else 55)
    colour = QColor(r, g, b)
    return colour.lighter(140) if is_dark_palette() else colour.darker(115)


def status_text(row: ClaimRow) -> str:
    """The Status cell: the status shown, marked when set by hand."""
    a = row.assessment
    return f"{a.status} (by hand)" if a.overridden else a.status


class ClaimsModel(QAbstractTableModel):
    """The claims of a case as :class:`ClaimRow` values (see ``claims.claims_overview``)."""

    headers = CLAIM_HEADERS

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[ClaimRow] = []

    def set_rows(self, rows: list[ClaimRow]) -> None:
        """Show these rows."""
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def row_at(self, row: int) -> ClaimRow:
        """The ClaimRow at ``row``."""
        return self._rows[row]

    def row_of_id(self, claim_id: int) -> int:
        """The row of a claim, or -1."""
        return next((n for n, r in enumerate(self._rows) if r.id == claim_id), -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.headers)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.headers):
            if role == DISPLAY:
                return self.headers[section]
            if role == Qt.ItemDataRole.ToolTipRole:
                return HEADER_TIPS[section]
        return None

    def cell(self, row: ClaimRow, column: int) -> Any:
        """The plain value of a cell."""
        a, chain = row.assessment, row.chain
        if column == 0:
            return row.statement
        if column == 1:
            return status_text(row)
        if column == 2:
            return chain.attributed_to or "\u2014"
        if column == 3:
            return chain.via or "\u2014"
        if column == 4:
            return len(a.origins)
        return a.contradicting

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self._rows)):
            return None
        row = self._rows[index.row()]
        column = index.column()
        if role == DISPLAY:
            return str(self.cell(row, column))
        if role == ID_ROLE:
            return row.id
        a = row.assessment
        if column == STATUS_COL:
            if role == Qt.ItemDataRole.BackgroundRole:
                return status_colour(a.status, background=True)
            if role == Qt.ItemDataRole.ForegroundRole:
                return status_colour(a.status)
            if role == Qt.ItemDataRole.FontRole:
                font = QFont()
                font.setBold(True)
                font.setItalic(a.overridden)
                return font
            if role == Qt.ItemDataRole.ToolTipRole:
                tip = a.explanation
                if a.overridden:
                    tip = f"Set by hand: {a.reason}\nThe evidence gives {tip}"
                return tip
        if role == Qt.ItemDataRole.TextAlignmentRole and column >= 4:
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == 0:
                return row.statement
            if column == 4:
                return (f"{a.supporting} supporting link{'s' if a.supporting != 1 else ''} from "
                        f"{len(a.origins)} independent origin"
                        f"{'s' if len(a.origins) != 1 else ''}"
                        + (": " + "; ".join(o.label for o in a.origins) if a.origins else ""))
            if column == 5:
                return f"{a.contradicting} contradicting link{'s' if a.contradicting != 1 else ''}"
        return None


class _WrapDelegate(QStyledItemDelegate):
    """Rows of the chain tree wrap to the tree's width (quotes are long)."""

    def __init__(self, tree: QTreeWidget) -> None:
        super().__init__(tree)
        self.tree = tree

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        base = super().sizeHint(option, index)
        depth, parent = 0, index.parent()
        while parent.isValid():
            depth, parent = depth + 1, parent.parent()
        width = self.tree.viewport().width() - self.tree.indentation() * (depth + 1) - 16
        rect = QFontMetrics(option.font).boundingRect(
            QRect(0, 0, max(width, 80), 100_000), int(Qt.TextFlag.TextWordWrap),
            str(index.data() or ""))
        return QSize(base.width(), max(base.height(), rect.height() + 6))


class OverrideCommand(ActionCommand):
    """Set a claim's status by hand for a reason (``status`` None: clear the override) through
    ``claim_actions.set_override``; undo puts back the override that was there, or clears it
    (the service reads it; ``before`` is what the window showed)."""

    def __init__(self, runner: OperationRunner, case_id: int, claim_id: int,
                 status: str | None, reason: str | None,
                 before: tuple[str, str] | None) -> None:
        super().__init__(runner, case_id,
                         f"Set claim {status}" if status else "Clear claim override")
        self.claim_id, self.status, self.reason, self.before = claim_id, status, reason, before

    def _first(self) -> Outcome[Changes]:
        return self.runner.apply(
            lambda s: claim_actions.set_override(s, self.claim_id, self.status,
                                                 self.reason or ""),
            label=self.text())


class ClaimsView(QWidget):
    """The Claims tab: the claims table over the selected claim's chain and override.

    Signals: ``claim_selected(claim_id)`` when the current row changes; ``claim_activated(
    claim_id)`` on double-click or "Edit claim"; ``passage_activated(document_id, start,
    end)`` on double-click of a passage of the chain (-1, -1: the whole document).
    """

    claim_selected = Signal(int)
    claim_activated = Signal(int)
    passage_activated = Signal(int, int, int)

    def __init__(self, runner: OperationRunner, undo_stack: QUndoStack,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.undo_stack = undo_stack
        self.case_id: int | None = None
        self.model = ClaimsModel(self)
        self._spans: dict[int, tuple[int, int]] = {}

        self.heading = QLabel("Claims")
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.table = QTableView()
        self.table.setObjectName("claims_table")
        self.table.setModel(self.model)
        set_up_row_table(self.table, QAbstractItemView.SelectionMode.SingleSelection)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        metrics = self.fontMetrics()
        widths = (None, metrics.horizontalAdvance("corroborated (by hand)") + 24, 125, 125,
                  metrics.horizontalAdvance("For") + 34,
                  metrics.horizontalAdvance("Against") + 30)
        for column, width in enumerate(widths):
            if width is not None:
                self.table.setColumnWidth(column, width)
        self.table.selectionModel().currentRowChanged.connect(self._on_row_changed)
        self.table.doubleClicked.connect(self._on_double_clicked)

        # details
        self.statement = wrapped_label()
        bold = self.statement.font()
        bold.setBold(True)
        self.statement.setFont(bold)
        self.status_label = wrapped_label(name="claim_status_label", rich=True)
        self.computed_label = wrapped_label(name="claim_computed_label")
        self.chain_tree = QTreeWidget()
        self.chain_tree.setObjectName("chain_tree")
        self.chain_tree.setHeaderHidden(True)
        self.chain_tree.setWordWrap(True)
        self.chain_tree.setUniformRowHeights(False)
        self.chain_tree.setMinimumHeight(140)
        self.chain_tree.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.chain_tree.setItemDelegate(_WrapDelegate(self.chain_tree))
        self.chain_tree.header().setStretchLastSection(True)
        self.chain_tree.itemDoubleClicked.connect(self._on_chain_double_clicked)

        self.override_box = QComboBox()
        self.override_box.setObjectName("override_status_box")
        self.override_box.addItems(list(CLAIM_STATUSES))
        self.reason_edit = QLineEdit()
        self.reason_edit.setObjectName("override_reason_edit")
        self.reason_edit.setPlaceholderText("Why? (required; kept with the claim and printed "
                                            "in the brief)")
        self.reason_edit.textChanged.connect(self._check_override)
        self.override_button = QPushButton("Set status")
        self.override_button.clicked.connect(self.apply_override)
        self.clear_button = QPushButton("Follow the evidence again")
        self.clear_button.clicked.connect(self.clear_override)
        self.override_problem = QLabel()
        self.override_problem.setTextFormat(Qt.TextFormat.PlainText)
        self.edit_button = QPushButton("Edit claim")
        self.edit_button.clicked.connect(
            lambda: self.claim_activated.emit(self.current_claim_id())
            if self.current_claim_id() is not None else None)
        override = QGroupBox("Override the status")
        row = QHBoxLayout()
        row.addWidget(self.override_box)
        row.addWidget(self.reason_edit, 1)
        row.addWidget(self.override_button)
        row2 = QHBoxLayout()
        row2.addWidget(self.override_problem, 1)
        row2.addWidget(self.clear_button)
        row2.addWidget(self.edit_button)
        override_layout = QVBoxLayout(override)
        override_layout.addLayout(row)
        override_layout.addLayout(row2)
        self.override_group = override

        self.details = QWidget()
        details_layout = QVBoxLayout(self.details)
        details_layout.setContentsMargins(4, 6, 4, 4)
        details_layout.addWidget(self.statement)
        details_layout.addWidget(self.status_label)
        details_layout.addWidget(self.computed_label)
        chain_label = QLabel("Attribution chain (double-click a passage to open it):")
        details_layout.addWidget(chain_label)
        details_layout.addWidget(self.chain_tree, 1)
        details_layout.addWidget(override)
        self.splitter = table_over_details(self.table, self.details, (2, 3), (230, 430))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.heading)
        layout.addWidget(self.splitter, 1)
        self.runner.case_changed.connect(self._on_case_changed)
        self.show_claim(None)

    # -- data -------------------------------------------------------------------------------

    def set_case(self, case_id: int | None) -> None:
        """Show a case's claims (None: none)."""
        self.case_id = case_id
        self.reload()
        if self.model.rowCount():
            self.table.selectRow(0)

    def reload(self) -> None:
        """Read the claims again, keeping the selected one."""
        current = self.current_claim_id()
        rows: list[ClaimRow] = []
        if self.case_id is not None:
            case_id = self.case_id
            try:
                rows = self.runner.read(lambda s: claims.claims_overview(s, case_id))
            except CasefileError:
                rows = []
        self.model.set_rows(rows)
        counts: dict[str, int] = {}
        for r in rows:
            counts[r.assessment.status] = counts.get(r.assessment.status, 0) + 1
        summary = ", ".join(f"{n} {s}" for s, n in sorted(
            counts.items(), key=lambda kv: CLAIM_STATUSES.index(kv[0])
            if kv[0] in CLAIM_STATUSES else 9))
        self.heading.setText(f"Claims: {len(rows)}" + (f" ({summary})" if summary else ""))
        row = self.model.row_of_id(current) if current is not None else -1
        if row >= 0:
            self.table.selectRow(row)
            self.show_claim(self.model.row_at(row))
        else:
            self.show_claim(None)

    @Slot(object)
    def _on_case_changed(self, ch: CaseChange) -> None:
        if ch.case_id is None or ch.case_id != self.case_id:
            return
        if (ch.touches("claim") or ch.touches("person") or ch.touches("organization")
                or ch.touches("document") or ch.evidence or ch.structural):
            self.reload()

    def current_claim_id(self) -> int | None:
        """The id of the selected claim, or None."""
        index = self.table.currentIndex()
        if not index.isValid():
            return None
        return self.model.row_at(index.row()).id

    def select_claim(self, claim_id: int) -> bool:
        """Select a claim's row; True if it is listed."""
        row = self.model.row_of_id(claim_id)
        if row < 0:
            return False
        self.table.selectRow(row)
        return True

    # -- details ----------------------------------------------------------------------------

    @Slot(QModelIndex, QModelIndex)
    def _on_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        row = self.model.row_at(current.row()) if current.isValid() else None
        self.show_claim(row)
        if row is not None:
            self.claim_selected.emit(row.id)

    def show_claim(self, row: ClaimRow | None) -> None:
        """Show a claim's status, chain and override (None: a hint)."""
        self.chain_tree.clear()
        self._spans = {}
        self.override_group.setEnabled(row is not None)
        if row is None:
            self.statement.setText("Select a claim to see who said it, through what, and "
                                   "what the evidence says.")
            self.status_label.setText("")
            self.computed_label.setText("")
            self.reason_edit.clear()
            self._check_override()
            return
        a, chain = row.assessment, row.chain
        self.statement.setText(f"\u201c{row.statement}\u201d")
        colour = status_colour(a.status).name()
        if a.overridden:
            self.status_label.setText(
                f'Status: <b style="color:{colour}">{a.status}</b>, set by hand. '
                f"Reason: <i>{_html(a.reason or '')}</i>")
            self.computed_label.setText(f"The evidence alone gives {a.explanation}.")
        else:
            self.status_label.setText(
                f'Status: <b style="color:{colour}">{a.status}</b>, from the evidence.')
            self.computed_label.setText(f"Why: {a.explanation}.")
        try:
            views = self.runner.read(lambda s: evidence.evidence_for(s, row.id))
        except CasefileError:
            views = []
        self._spans = {v.passage_id: (v.start, v.end) for v in views
                       if v.passage_id is not None and v.start is not None
                       and v.end is not None}
        root = QTreeWidgetItem([f"Claim: \u201c{_short(row.statement, 160)}\u201d"])
        who = chain.attributed_to or "no one named"
        kind = {"person": "person", "organization": "organization",
                "unnamed": "unnamed sources",
                "named": "not in the case"}.get(chain.attributed_kind or "", "")
        if kind and kind in who:
            kind = ""  # "unnamed Coral Springs sources" says it already
        said = QTreeWidgetItem([f"said by: {who}" + (f" ({kind})" if kind else "")])
        root.addChild(said)
        parent = said
        if chain.via:
            via = QTreeWidgetItem([f"via: {chain.via}"
                                   + (f" ({chain.via_kind})" if chain.via_kind else "")])
            said.addChild(via)
            parent = via
        if not chain.passages:
            parent.addChild(QTreeWidgetItem(["no passages linked yet"]))
        for link in chain.passages:
            source = link.document_title + (f", {link.outlet}" if link.outlet else "")
            text = (f"{link.relation}: \u201c{_short(link.quote, 220)}\u201d \u2014 {source}"
                    if link.quote else f"{link.relation}: the whole document \u2014 {source}")
            entry = QTreeWidgetItem([text])
            entry.setData(0, Qt.ItemDataRole.UserRole, (link.document_id, link.passage_id))
            entry.setForeground(0, relation_colour(link.relation, opaque=True).darker(
                100 if is_dark_palette() else 125))
            entry.setToolTip(0, link.quote or link.document_title)
            parent.addChild(entry)
        if a.origins:
            origins = QTreeWidgetItem([f"independent origins of the support: {len(a.origins)}"])
            for o in a.origins:
                why = f" (joined: {', '.join(o.joined_by)})" if o.joined_by else ""
                n = len(o.document_ids)
                origins.addChild(QTreeWidgetItem(
                    [f"{o.label}: {n} document{'s' if n != 1 else ''}{why}"]))
            root.addChild(origins)
        self.chain_tree.addTopLevelItem(root)
        self.chain_tree.expandAll()
        self.override_box.setCurrentText(a.status)
        self.reason_edit.setText(a.reason or "")
        self.clear_button.setEnabled(a.overridden)
        self._check_override()

    def _check_override(self) -> None:
        has_reason = bool(self.reason_edit.text().strip())
        self.override_button.setEnabled(has_reason and self.current_claim_id() is not None)
        self.override_problem.setText(
            "" if has_reason else "A reason is required to set the status by hand.")

    # -- actions ------------------------------------------------------------------------------

    def apply_override(self) -> bool:
        """Set the selected claim's status to the chosen one for the reason typed (undoable).
        Without a reason nothing is changed and the reporter is told why."""
        claim_id = self.current_claim_id()
        if claim_id is None or self.case_id is None:
            return False
        reason = self.reason_edit.text().strip()
        if not reason:
            self.override_problem.setText("A reason is required to set the status by hand.")
            self.reason_edit.setFocus(Qt.FocusReason.OtherFocusReason)
            return False
        row = self.model.row_at(self.model.row_of_id(claim_id))
        a = row.assessment
        before = (a.status, a.reason) if a.overridden and a.reason else None
        command = OverrideCommand(self.runner, self.case_id, claim_id,
                                  self.override_box.currentText(), reason, before)
        self.undo_stack.push(command)
        return not command.failed

    def clear_override(self) -> bool:
        """Drop the selected claim's override: its status follows the evidence again."""
        claim_id = self.current_claim_id()
        if claim_id is None or self.case_id is None:
            return False
        a = self.model.row_at(self.model.row_of_id(claim_id)).assessment
        if not a.overridden:
            return False
        command = OverrideCommand(self.runner, self.case_id, claim_id, None, None,
                                  (a.status, a.reason or ""))
        self.undo_stack.push(command)
        return not command.failed

    @Slot(QModelIndex)
    def _on_double_clicked(self, index: QModelIndex) -> None:
        if index.isValid():
            self.claim_activated.emit(self.model.row_at(index.row()).id)

    @Slot(QTreeWidgetItem, int)
    def _on_chain_double_clicked(self, entry: QTreeWidgetItem, _column: int) -> None:
        data = entry.data(0, Qt.ItemDataRole.UserRole)
        if not data:
            return
        document_id, passage_id = data
        start, end = self._spans.get(passage_id, (-1, -1)) if passage_id else (-1, -1)
        self.passage_activated.emit(int(document_id), int(start), int(end))


def _short(text: str | None, n: int) -> str:
    flat = " ".join((text or "").split())
    return flat if len(flat) <= n else flat[:n - 1] + "\u2026"


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
