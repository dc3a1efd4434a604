"""The Follow-ups view: named views (overdue, due this week, waiting on others, answered...),
status changes dated by the window's clock, answering with the passage or document that
answered, and whom to ask with their contact details.

The table is the window's :class:`~casefile.ui.models.FollowupsModel`; which rows it holds is
:meth:`FollowupsPage.current_view` (the window's loader asks). Changes are undoable commands
over the service actions of ``casefile.services.followup_actions`` run through the
OperationRunner, so the page, like every
view, refreshes from ``case_changed``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from PySide6.QtCore import QDate, QModelIndex, Qt, Signal, Slot
from PySide6.QtGui import QFont, QFontMetrics, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)
from sqlalchemy.orm import Session

from casefile.errors import CasefileError
from casefile.services import followup_actions, questions, views
from casefile.services.changes import Changes
from casefile.services.questions import FollowUp
from casefile.services.views import ItemChoice, PassageMark
from casefile.store.items import QUESTION_STATUSES
from casefile.ui.dialogs import ComboDelegate
from casefile.ui.models import STATUS_COLUMN, FollowupsModel, due_phrase
from casefile.ui.operations import OperationRunner, Outcome
from casefile.ui.tables import set_up_row_table, table_over_details
from casefile.ui.undo import ActionCommand
from casefile.ui.widgets import row_at_left, wrapped_label

#: (view name for ``questions.followup_view``, button label), in button order.
FOLLOWUP_VIEW_LABELS = (
    ("open", "Open"),
    ("overdue", "Overdue"),
    ("week", "Due this week"),
    ("waiting", "Waiting on others"),
    ("answered", "Answered"),
    ("all", "All"),
)
VIEW_HEADINGS = {
    "open": "Open and waiting follow-ups, overdue and soonest first",
    "overdue": "Overdue: open or waiting, due before {today}",
    "week": "Due this week: {today} to {week}",
    "waiting": "Waiting on others: asked, the answer is up to them",
    "answered": "Answered, latest answer first",
    "all": "Every follow-up, answered and dropped included",
}
COUNTED_VIEWS = ("overdue", "week", "waiting", "answered")


# -- commands -------------------------------------------------------------------------------


class StatusCommand(ActionCommand):
    """Move a follow-up to another status through ``followup_actions.set_status``, the change
    dated ``on`` (the window's today); undo moves it back (recording that change too)."""

    def __init__(self, runner: OperationRunner, case_id: int, question_id: int, before: str,
                 after: str, on: date) -> None:
        super().__init__(runner, case_id, f"Mark {after}")
        self.question_id, self.before, self.after, self.on = question_id, before, after, on

    def _first(self) -> Outcome[Changes]:
        return self.runner.apply(
            lambda s: followup_actions.set_status(s, self.question_id, self.after, on=self.on),
            label=self.text())


@dataclass(frozen=True)
class AnswerSpan:
    """A span of a document (Python str offsets) that answered: made a passage if needed."""

    document_id: int
    start: int
    end: int


class AnswerCommand(ActionCommand):
    """Answer a follow-up (``followup_actions.answer``) with the text, the day and what
    answered it: a passage, a document or a span of a document (made a passage). Undo puts
    back the status and answer fields as they were; ``passage_id`` is the answering passage
    after the first run."""

    def __init__(self, runner: OperationRunner, case_id: int, question_id: int, answer: str,
                 on: date, *, passage_id: int | None = None, document_id: int | None = None,
                 span: AnswerSpan | None = None) -> None:
        super().__init__(runner, case_id, "Answer follow-up")
        self.question_id, self.answer, self.on = question_id, answer, on
        self.passage_id, self.document_id, self.span = passage_id, document_id, span

    def _first(self) -> Outcome[Changes]:
        sp = self.span
        return self.runner.apply(
            lambda s: followup_actions.answer(
                s, self.question_id, self.answer, on=self.on, passage_id=self.passage_id,
                document_id=self.document_id,
                span=(sp.document_id, sp.start, sp.end) if sp is not None else None),
            label=self.text())

    def _took(self, changes: Changes) -> None:
        if self.span is not None and isinstance(changes.value, int):
            self.passage_id = changes.value


# -- answer dialog ----------------------------------------------------------------------------


class AnswerDialog(QDialog):
    """Write the answer and choose what answered it.

    With ``followups`` the reporter first picks which follow-up this answers (answering from a
    document's selection; ``quote`` then is the selected text, the source). Otherwise the
    source is picked from ``documents``: "no source", a whole document, or one of its passages
    (``passages_of(document_id)``). OK is enabled once there is an answer (and a follow-up).
    """

    def __init__(
        self, *, today: date, question: str | None = None,
        followups: Sequence[FollowUp] | None = None, quote: str | None = None,
        documents: Sequence[ItemChoice] = (),
        passages_of: Callable[[int], Sequence[PassageMark]] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Answer follow-up")
        self._passages_of = passages_of or (lambda _d: ())
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.followup_box: QComboBox | None = None
        if followups is not None:
            self.followup_box = QComboBox()
            self.followup_box.setObjectName("answer_followup_box")
            self.followup_box.addItem("Choose the follow-up this answers…", None)
            for f in followups:
                due = f" (due {f.due})" if f.due else ""
                self.followup_box.addItem(f"{f.text}{due}", f.id)
            self.followup_box.currentIndexChanged.connect(lambda _i: self._check())
            form.addRow("Follow-up:", self.followup_box)
        elif question:
            label = wrapped_label(question)
            bold = label.font()
            bold.setBold(True)
            label.setFont(bold)
            layout.addWidget(label)
        self.answer_edit = QPlainTextEdit()
        self.answer_edit.setObjectName("answer_edit")
        self.answer_edit.setPlaceholderText("What the answer was, in a sentence or two")
        self.answer_edit.setTabChangesFocus(True)
        self.answer_edit.setMaximumHeight(90)
        self.answer_edit.textChanged.connect(self._check)
        form.addRow("Answer:", self.answer_edit)
        self.date_edit = QDateEdit(QDate(today.year, today.month, today.day))
        self.date_edit.setCalendarPopup(True)
        self.date_edit.setDisplayFormat("yyyy-MM-dd")
        form.addRow("Answered on:", self.date_edit)
        self.document_box: QComboBox | None = None
        self.passage_list: QListWidget | None = None
        if quote is not None:
            shown = " ".join(quote.split())
            shown = shown if len(shown) <= 300 else shown[:297] + "\u2026"
            source = wrapped_label(f"\u201c{shown}\u201d")
            form.addRow("Answered by:", source)
        else:
            self.document_box = QComboBox()
            self.document_box.setObjectName("answer_document_box")
            self.document_box.addItem("\u2014 no document \u2014", None)
            for d in documents:
                self.document_box.addItem(d.title, d.id)
            self.document_box.currentIndexChanged.connect(self._on_document_changed)
            self.passage_list = QListWidget()
            self.passage_list.setObjectName("answer_passage_list")
            self.passage_list.setWordWrap(True)
            self.passage_list.setMinimumHeight(120)
            form.addRow("Answered by:", self.document_box)
            form.addRow("Passage:", self.passage_list)
        layout.addLayout(form)
        self.problem = QLabel()
        self.problem.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.problem)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Mark answered")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self._on_document_changed(0)
        self._check()
        self.resize(560, self.sizeHint().height())

    @Slot(int)
    def _on_document_changed(self, _index: int) -> None:
        if self.passage_list is None or self.document_box is None:
            return
        self.passage_list.clear()
        doc_id = self.document_box.currentData()
        if doc_id is None:
            self.passage_list.setEnabled(False)
            return
        self.passage_list.setEnabled(True)
        whole = QListWidgetItem("The whole document")
        whole.setData(Qt.ItemDataRole.UserRole, None)
        self.passage_list.addItem(whole)
        for mark in self._passages_of(int(doc_id)):
            text = " ".join(mark.quote.split())
            entry = QListWidgetItem(f"\u201c{text if len(text) <= 200 else text[:197] + '…'}\u201d")
            entry.setData(Qt.ItemDataRole.UserRole, mark.passage_id)
            entry.setToolTip(mark.quote)
            self.passage_list.addItem(entry)
        self.passage_list.setCurrentRow(0)

    def _check(self) -> None:
        problems = []
        if self.followup_box is not None and self.followup_box.currentData() is None:
            problems.append("choose the follow-up")
        if not self.answer_text():
            problems.append("write the answer")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not problems)
        self.problem.setText(("To mark it answered: " + " and ".join(problems) + ".")
                             if problems else "")

    def answer_text(self) -> str:
        """The answer as typed, trimmed."""
        return self.answer_edit.toPlainText().strip()

    def answered_on(self) -> date:
        """The day of the answer."""
        d = self.date_edit.date()
        return date(d.year(), d.month(), d.day())

    def chosen_followup_id(self) -> int | None:
        """The follow-up chosen (answering from a selection), or None."""
        if self.followup_box is None:
            return None
        value = self.followup_box.currentData()
        return int(value) if value is not None else None

    def chosen_document_id(self) -> int | None:
        """The document chosen as the source (whole document or one of its passages)."""
        if self.document_box is None:
            return None
        value = self.document_box.currentData()
        return int(value) if value is not None else None

    def chosen_passage_id(self) -> int | None:
        """The passage chosen as the source, or None (whole document or no source)."""
        if self.passage_list is None or self.passage_list.currentItem() is None:
            return None
        value = self.passage_list.currentItem().data(Qt.ItemDataRole.UserRole)
        return int(value) if value is not None else None


# -- the page -----------------------------------------------------------------------------------


def _selectable(label: QLabel) -> QLabel:
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class FollowupsPage(QWidget):
    """The Follow-ups tab: view buttons with counts, the table (status editable in place), and
    the selected follow-up's details (whom to ask and how to reach them, history, answer) with
    buttons to mark it waiting, answer, drop or reopen it.

    ``clock()`` is the window's today (tests set it). Signals: ``item_activated(question_id)``
    (double-click, "Edit"), ``view_changed(name)``, ``source_requested(document_id,
    passage_id or -1)`` to open what answered.
    """

    item_activated = Signal(int)
    view_changed = Signal(str)
    source_requested = Signal(int, int)

    def __init__(self, model: FollowupsModel, runner: OperationRunner, undo_stack: QUndoStack,
                 clock: Callable[[], date], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.runner = runner
        self.undo_stack = undo_stack
        self.clock = clock
        self.case_id: int | None = None
        self.view = "open"
        self.last_dialog: AnswerDialog | None = None
        self._shown: FollowUp | None = None

        self.heading = QLabel()
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.view_buttons: dict[str, QToolButton] = {}
        self.view_group = QButtonGroup(self)
        self.view_group.setExclusive(True)
        bar = QHBoxLayout()
        bar.setSpacing(4)
        for name, label in FOLLOWUP_VIEW_LABELS:
            button = QToolButton()
            button.setObjectName(f"view_{name}")
            button.setText(label)
            button.setCheckable(True)
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            button.clicked.connect(lambda _c=False, n=name: self.set_view(n))
            self.view_group.addButton(button)
            self.view_buttons[name] = button
            bar.addWidget(button)
        self.view_buttons["open"].setChecked(True)
        bar.addStretch(1)
        # The check box shares the heading's row, and the heading wraps: the view buttons alone
        # set the page's minimum width, so the window fits a 1280-pixel screen with its docks.
        self.show_closed = QCheckBox("Show answered and dropped")
        self.show_closed.toggled.connect(self._on_show_closed_toggled)

        self.table = QTableView()
        self.table.setObjectName("followups_table")
        self.table.setModel(model)
        set_up_row_table(self.table, QAbstractItemView.SelectionMode.SingleSelection,
                         edit_triggers=QAbstractItemView.EditTrigger.SelectedClicked
                         | QAbstractItemView.EditTrigger.DoubleClicked
                         | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.table.setItemDelegateForColumn(STATUS_COLUMN,
                                            ComboDelegate(QUESTION_STATUSES, self.table))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        bold = QFont(self.font())
        bold.setBold(True)
        when = QFontMetrics(bold).horizontalAdvance("10 days overdue") + 16
        for column, width in ((0, 92), (1, when), (3, 112), (4, 84), (5, 150)):
            self.table.setColumnWidth(column, width)
        self.table.doubleClicked.connect(self._on_double_clicked)
        self.table.selectionModel().currentRowChanged.connect(self._on_row_changed)
        model.modelReset.connect(self._on_model_reset)

        # details of the selected follow-up
        self.detail_title = _selectable(QLabel())
        font = self.detail_title.font()
        font.setBold(True)
        self.detail_title.setFont(font)
        self.detail_facts = _selectable(QLabel())
        self.detail_ask = _selectable(QLabel())
        self.detail_ask.setObjectName("detail_ask")
        self.detail_history = _selectable(QLabel())
        self.detail_answer = _selectable(QLabel())
        self.waiting_button = QPushButton("Mark waiting (asked)")
        self.answer_button = QPushButton("Answer\u2026")
        self.drop_button = QPushButton("Drop")
        self.reopen_button = QPushButton("Reopen")
        self.source_button = QPushButton("Open answer source")
        self.edit_button = QPushButton("Edit question")
        self.waiting_button.clicked.connect(lambda: self._change_shown("waiting"))
        self.drop_button.clicked.connect(lambda: self._change_shown("dropped"))
        self.reopen_button.clicked.connect(lambda: self._change_shown("open"))
        self.answer_button.clicked.connect(self.prompt_answer)
        self.source_button.clicked.connect(self._on_source_clicked)
        self.edit_button.clicked.connect(
            lambda: self.item_activated.emit(self._shown.id) if self._shown else None)
        # two rows of three: the row of six set the page's minimum width (549 px), which
        # squeezed the docks beside it on a 1024-pixel screen
        buttons = QVBoxLayout()
        for row in ((self.waiting_button, self.answer_button, self.drop_button),
                    (self.reopen_button, self.source_button, self.edit_button)):
            buttons.addLayout(row_at_left(*row))
        self.details = QFrame()
        self.details.setObjectName("followup_details")
        details_layout = QVBoxLayout(self.details)
        details_layout.setContentsMargins(4, 6, 4, 4)
        for w in (self.detail_title, self.detail_facts, self.detail_ask, self.detail_history,
                  self.detail_answer):
            details_layout.addWidget(w)
        details_layout.addLayout(buttons)
        details_layout.addStretch(1)
        self.splitter = table_over_details(self.table, self.details, (3, 2), (380, 260))

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        self.heading.setWordWrap(True)
        heading_row = QHBoxLayout()
        heading_row.addWidget(self.heading, 1)
        heading_row.addWidget(self.show_closed, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(bar)
        layout.addLayout(heading_row)
        layout.addWidget(self.splitter, 1)
        self._update_heading()
        self.show_details(None)

    # -- views ------------------------------------------------------------------------------

    def set_case(self, case_id: int | None) -> None:
        """The case whose follow-ups are shown (the window reloads the model)."""
        self.case_id = case_id
        self.show_details(None)

    def current_view(self) -> str:
        """The ``questions.followup_view`` name the table shows ("open" becomes "all" while
        answered and dropped ones are shown)."""
        if self.view == "open" and self.show_closed.isChecked():
            return "all"
        return self.view

    def load(self) -> list[FollowUp]:
        """The rows of the current view (what the window's model loader returns)."""
        if self.case_id is None:
            return []
        case_id, view, today = self.case_id, self.current_view(), self.clock()
        return self.runner.read(lambda s: questions.followup_view(s, case_id, view,
                                                                  today=today))

    def set_view(self, name: str) -> None:
        """Show one of the named views (FOLLOWUP_VIEW_LABELS)."""
        if name not in self.view_buttons:
            raise ValueError(f"unknown follow-up view {name!r}")
        self.view = name
        self.view_buttons[name].setChecked(True)
        self.show_closed.blockSignals(True)
        self.show_closed.setChecked(name == "all")
        self.show_closed.blockSignals(False)
        self.show_closed.setVisible(name in ("open", "all"))
        self._update_heading()
        self.model.reload()
        self.view_changed.emit(name)

    @Slot(bool)
    def _on_show_closed_toggled(self, checked: bool) -> None:
        if self.view in ("open", "all"):
            self.view = "all" if checked else "open"
            self.view_buttons[self.view].setChecked(True)
            self._update_heading()
            self.model.reload()

    def view_counts(self) -> dict[str, int]:
        """How many follow-ups each counted view holds today."""
        if self.case_id is None:
            return {}
        case_id, today = self.case_id, self.clock()
        return self.runner.read(lambda s: questions.followup_view_counts(
            s, case_id, COUNTED_VIEWS, today=today))

    def _update_heading(self) -> None:
        today = self.clock()
        week = date.fromordinal(today.toordinal() + questions.WEEK_DAYS)
        heading = VIEW_HEADINGS[self.current_view()].format(today=today.isoformat(),
                                                            week=week.isoformat())
        self.heading.setText(f"{heading}  \u00b7  today {today:%a %d %b %Y}")
        counts = self.view_counts()
        for name, label in FOLLOWUP_VIEW_LABELS:
            n = counts.get(name)
            self.view_buttons[name].setText(f"{label} ({n})" if n is not None else label)

    @Slot()
    def _on_model_reset(self) -> None:
        self._update_heading()
        shown = self._shown.id if self._shown else None
        row = self.model.row_of_id(shown) if shown is not None else -1
        if row >= 0:
            self.table.selectRow(row)
            self.show_details(self.model.row_at(row))
        elif self.model.rowCount():
            self.table.selectRow(0)
        else:
            self.show_details(None)

    # -- details ----------------------------------------------------------------------------------

    @Slot(QModelIndex, QModelIndex)
    def _on_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.show_details(self.model.row_at(current.row()) if current.isValid() else None)

    def selected_followup(self) -> FollowUp | None:
        """The follow-up whose details are shown."""
        return self._shown

    def show_details(self, f: FollowUp | None) -> None:
        """Show one follow-up's details (None: a hint)."""
        self._shown = f
        for b in (self.waiting_button, self.answer_button, self.drop_button,
                  self.reopen_button, self.source_button, self.edit_button):
            b.setVisible(f is not None)
        if f is None:
            self.detail_title.setText("Select a follow-up to see whom to ask, its history and "
                                      "its answer.")
            for w in (self.detail_facts, self.detail_ask, self.detail_history,
                      self.detail_answer):
                w.setText("")
                w.setVisible(False)
            return
        for w in (self.detail_facts, self.detail_ask, self.detail_history):
            w.setVisible(True)
        self.detail_title.setText(f.text)
        facts = [f.kind.capitalize(), f.status + (f" since {f.status_since}"
                                                  if f.status_since else "")]
        if f.due:
            facts.append(f"due {f.due} ({due_phrase(f.days_left)})"
                         if f.status in questions.OPEN_STATUSES else f"was due {f.due}")
        else:
            facts.append("no due date")
        self.detail_facts.setText("  \u00b7  ".join(facts))
        self.detail_ask.setText(self._ask_text(f))
        try:
            history = self.runner.read(lambda s: questions.status_history(s, f.id))
        except CasefileError:
            history = []
        self.detail_history.setText("History: " + "  \u2192  ".join(
            f"{h.status} ({h.on})" + (f": {h.note}" if h.note else "") for h in history))
        answer = ""
        if f.status == "answered" or f.answer:
            answer = "Answer" + (f" ({f.answered_on})" if f.answered_on else "") + ": " + (
                f.answer or "(no text)")
            src = f.answered_by
            if src is not None:
                quoted = f"\u201c{' '.join(src.quote.split())}\u201d \u2014 " if src.quote else ""
                answer += f"\nAnswered by: {quoted}{src.document_title}"
        self.detail_answer.setText(answer)
        self.detail_answer.setVisible(bool(answer))
        open_now = f.status in questions.OPEN_STATUSES
        self.waiting_button.setVisible(f.status == "open")
        self.answer_button.setVisible(True)
        self.answer_button.setText("Answer\u2026" if f.status != "answered"
                                   else "Change answer\u2026")
        self.drop_button.setVisible(open_now)
        self.reopen_button.setVisible(not open_now)
        self.source_button.setVisible(f.answered_by is not None)

    def _ask_text(self, f: FollowUp) -> str:
        if f.ask_id is None:
            return "Ask: nobody chosen yet (pick whom to ask in the question's editor)"
        ask_id = f.ask_id

        def read(s: Session) -> tuple[dict[str, Any], str | None]:
            values = views.item_fields(s, ask_id).values
            aff = values.get("affiliation_id")
            return values, (views.item_fields(s, aff).values["title"] if aff else None)

        try:
            values, affiliation = self.runner.read(read)
        except CasefileError:
            return f"Ask: {f.ask or '?'}"
        details = [p for p in (values.get("role"), affiliation, values.get("org_kind")) if p]
        text = f"Ask: {values['title']}" + (f" ({', '.join(details)})" if details else "")
        contact = (values.get("contact") or "").strip()
        if contact:
            text += "\nContact: " + "  \u00b7  ".join(
                line.strip() for line in contact.splitlines() if line.strip())
        elif "contact" in values:
            text += "\nContact: no details yet (add them in the person's editor)"
        return text

    # -- actions ------------------------------------------------------------------------------

    def change_status(self, question_id: int, status: str) -> bool:
        """Move a follow-up to ``status`` (undoable), dated today by the window's clock."""
        if self.case_id is None:
            return False
        try:
            before = self.runner.read(
                lambda s: views.item_fields(s, question_id).values["status"])
        except CasefileError:
            return False
        if before == status:
            return True
        command = StatusCommand(self.runner, self.case_id, question_id, before, status,
                                self.clock())
        self.undo_stack.push(command)
        return not command.failed

    def _change_shown(self, status: str) -> None:
        if self._shown is not None:
            self.change_status(self._shown.id, status)

    def answer(self, question_id: int, answer: str, *, on: date | None = None,
               passage_id: int | None = None, document_id: int | None = None,
               span: AnswerSpan | None = None) -> bool:
        """Mark a follow-up answered (undoable) with what answered it; True on success."""
        if self.case_id is None:
            return False
        command = AnswerCommand(self.runner, self.case_id, question_id, answer,
                                on or self.clock(), passage_id=passage_id,
                                document_id=document_id, span=span)
        self.undo_stack.push(command)
        return not command.failed

    def _documents(self) -> list[ItemChoice]:
        if self.case_id is None:
            return []
        case_id = self.case_id
        return self.runner.read(lambda s: views.item_choices(s, case_id, ("document",)))

    def _passages_of(self, document_id: int) -> tuple[PassageMark, ...]:
        try:
            return self.runner.read(lambda s: views.document_view(s, document_id).passages)
        except CasefileError:
            return ()

    def prompt_answer(self) -> AnswerDialog | None:
        """"Answer…": a dialog for the answer and its source (a document or one of its
        passages), opened window-modal; returns it (tests accept it)."""
        f = self._shown
        if f is None:
            return None
        dialog = AnswerDialog(today=self.clock(), question=f.text, documents=self._documents(),
                              passages_of=self._passages_of, parent=self)
        if f.answer:
            dialog.answer_edit.setPlainText(f.answer)
        if f.answered_by is not None and dialog.document_box is not None:
            dialog.document_box.setCurrentIndex(
                max(dialog.document_box.findData(f.answered_by.document_id), 0))
            if f.answered_by.passage_id is not None and dialog.passage_list is not None:
                for row in range(dialog.passage_list.count()):
                    entry = dialog.passage_list.item(row)
                    if entry.data(Qt.ItemDataRole.UserRole) == f.answered_by.passage_id:
                        dialog.passage_list.setCurrentRow(row)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        question_id = f.id

        def accepted() -> None:
            passage_id = dialog.chosen_passage_id()
            self.answer(question_id, dialog.answer_text(), on=dialog.answered_on(),
                        passage_id=passage_id,
                        document_id=None if passage_id is not None
                        else dialog.chosen_document_id())

        dialog.accepted.connect(accepted)
        dialog.finished.connect(lambda _r: setattr(self, "last_dialog", None))
        self.last_dialog = dialog
        dialog.open()
        return dialog

    def prompt_answer_from_span(self, document_id: int, start: int, end: int, quote: str
                                ) -> AnswerDialog | None:
        """"Answers follow-up…" on a document's selection: choose the follow-up and write the
        answer; the selection becomes the answering passage."""
        if self.case_id is None:
            return None
        case_id, today = self.case_id, self.clock()
        waiting = self.runner.read(lambda s: questions.followups(s, case_id, today=today))
        dialog = AnswerDialog(today=today, followups=waiting, quote=quote, parent=self.window())
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def accepted() -> None:
            qid = dialog.chosen_followup_id()
            if qid is not None:
                self.answer(qid, dialog.answer_text(), on=dialog.answered_on(),
                            span=AnswerSpan(document_id, start, end))

        dialog.accepted.connect(accepted)
        dialog.finished.connect(lambda _r: setattr(self, "last_dialog", None))
        self.last_dialog = dialog
        dialog.open()
        return dialog

    @Slot()
    def _on_source_clicked(self) -> None:
        f = self._shown
        if f is not None and f.answered_by is not None:
            src = f.answered_by
            self.source_requested.emit(src.document_id,
                                       src.passage_id if src.passage_id is not None else -1)

    @Slot(QModelIndex)
    def _on_double_clicked(self, index: QModelIndex) -> None:
        if index.isValid() and index.column() != STATUS_COLUMN:
            self.item_activated.emit(int(self.model.row_at(index.row()).id))
