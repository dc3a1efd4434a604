"""The item editor: the selected item's fields, saved automatically (no save button).

Edits are collected per field and sent, after a short pause in typing (``AUTOSAVE_MS``), as one
``changes_ready`` signal; the window turns it into an undoable ``update_item`` call that carries
the version the editor loaded (optimistic locking). Dates are typed as YYYY-MM-DD and checked
here, so one bad date does not hold back the other fields.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from typing import Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from casefile.services.views import ItemChoice, ItemFields
from casefile.store.items import (
    CLAIM_STATUSES,
    DATE_PRECISIONS,
    DOCUMENT_KINDS,
    DOCUMENT_STATUSES,
    ORGANIZATION_KINDS,
    QUESTION_KINDS,
    QUESTION_STATUSES,
)
from casefile.ui.operations import OperationRunner
from casefile.ui.relationships import RELATED_KINDS, RelationshipsPanel
from casefile.ui.widgets import debounce_timer, wrapped_label

AUTOSAVE_MS = 700

TITLE_LABELS = {"person": "Name", "organization": "Name", "place": "Name", "question": "Question"}

#: field -> (label, widget type, choices or referenced kinds). Types: line, text, date, choice,
#: editable-choice, ref, aliases, lines (a list, one entry a line), check.
FIELD_SPECS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "aliases": ("Also known as", "aliases", ()),
    "role": ("Role / title", "line", ()),
    "affiliation_id": ("Affiliation", "ref", ("organization",)),
    "contact": ("Contact", "text", ()),
    "identifying_phrases": ("Identifying phrases", "lines", ()),
    "org_kind": ("Kind", "editable-choice", ORGANIZATION_KINDS),
    "jurisdiction": ("Jurisdiction", "line", ()),
    "parent_id": ("Part of", "ref", ("organization",)),
    "doc_kind": ("Kind", "choice", DOCUMENT_KINDS),
    "author": ("Author", "line", ()),
    "outlet": ("Outlet", "line", ()),
    "url": ("URL", "line", ()),
    "published": ("Published", "date", ()),
    "retrieved": ("Retrieved", "date", ()),
    "document.status": ("Status", "choice", DOCUMENT_STATUSES),
    "date": ("Date", "date", ()),
    "precision": ("Precision", "choice", DATE_PRECISIONS),
    "end": ("Until", "date", ()),
    "place_id": ("Place", "ref", ("place",)),
    "description": ("Description", "text", ()),
    "statement": ("Statement", "text", ()),
    "claim.status": ("Status", "choice", CLAIM_STATUSES),
    "status_reason": ("Why", "line", ()),
    "attributed_to_id": ("Said by", "ref", ("person", "organization")),
    "attributed_to_text": ("Said by (text)", "line", ()),
    "via_id": ("Via", "ref", ("document", "organization")),
    "question_kind": ("Kind", "choice", QUESTION_KINDS),
    "question.status": ("Status", "choice", QUESTION_STATUSES),
    "due": ("Due", "date", ()),
    "ask_id": ("Ask", "ref", ("person", "organization")),
    "answer": ("Answer", "text", ()),
    "answered_at": ("Answered on", "date", ()),
    "notes": ("Notes", "text", ()),
    "confidential": ("Confidential source (left out of exports)", "check", ()),
}
HIDDEN_FIELDS = {"answered_by_passage_id", "answered_by_document_id"}
#: Fields shown only while the item is flagged confidential (what exports withhold with it).
CONFIDENTIAL_ONLY_FIELDS = {"identifying_phrases"}


def field_spec(kind: str, name: str) -> tuple[str, str, tuple[str, ...]]:
    """The (label, widget type, choices) of a field of an item kind."""
    if name == "title":
        return (TITLE_LABELS.get(kind, "Title"), "line", ())
    return FIELD_SPECS.get(f"{kind}.{name}") or FIELD_SPECS[name]


#: The most characters of an item's title the editor's heading shows.
HEADING_CHARS = 300


class ItemEditor(QWidget):
    """Edits one item. ``load()`` shows it; edits come out as ``changes_ready(item_id, kind,
    before, after, version)`` (dicts of field -> value, ``version`` as loaded).

    ``choices_provider(kinds)`` lists the items a reference field can point to. Given a
    ``runner``, people and organizations also show their relationships (``relationships``).
    """

    changes_ready = Signal(int, str, dict, dict, int)

    def __init__(self, choices_provider: Callable[[tuple[str, ...]], list[ItemChoice]],
                 parent: QWidget | None = None, runner: OperationRunner | None = None,
                 undo_stack: QUndoStack | None = None) -> None:
        super().__init__(parent)
        self._choices_provider = choices_provider
        self.fields: ItemFields | None = None
        self.widgets: dict[str, QWidget] = {}
        self._dirty: set[str] = set()
        self._loading = False
        self._problem = ""
        self.timer = debounce_timer(self, AUTOSAVE_MS, self.flush)

        self.heading = QLabel("Select an item to see and edit it.")
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        font = self.heading.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.heading.setFont(font)
        # A long title wraps instead of setting the form's width (no horizontal scrollbar).
        self.heading.setWordWrap(True)
        self.heading.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.state = wrapped_label()
        self.form_host = QWidget()
        self.form = QFormLayout(self.form_host)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.form.setContentsMargins(0, 0, 0, 0)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.heading)
        layout.addWidget(self.form_host)
        self.relationships: RelationshipsPanel | None = None
        if runner is not None:
            self.relationships = RelationshipsPanel(runner, choices_provider,
                                                    undo_stack=undo_stack)
            self.relationships.hide()
            layout.addWidget(self.relationships)
        layout.addWidget(self.state)
        layout.addStretch(1)

    def _set_heading(self, kind: str, title: object) -> None:
        """"Person · NAME" over the form, on at most a few lines: a title over
        :data:`HEADING_CHARS` is cut with "…", a word too long for a line may break anywhere
        (it ran past the pane's edge); the whole title in the tooltip."""
        whole = str(title or "")
        shown = whole if len(whole) <= HEADING_CHARS else whole[:HEADING_CHARS - 1] + "…"
        shown = " ".join(
            "\u200b".join(word[i:i + 24] for i in range(0, len(word), 24)) if len(word) > 24
            else word for word in shown.split(" "))
        self.heading.setText(f"{kind.capitalize()} · {shown}")
        self.heading.setToolTip(whole if shown != whole else "")

    # -- loading ----------------------------------------------------------------------------

    @property
    def item_id(self) -> int | None:
        """The id of the item shown, or None."""
        return self.fields.id if self.fields else None

    @property
    def dirty(self) -> bool:
        """True while edits wait for the autosave."""
        return bool(self._dirty)

    def clear(self) -> None:
        """Show nothing (no item selected); pending edits are saved first."""
        self.flush()
        self.fields = None
        self._rebuild(None)
        if self.relationships is not None:
            self.relationships.load(None)
            self.relationships.hide()
        self.heading.setText("Select an item to see and edit it.")
        self.state.setText("")

    def load(self, fields: ItemFields) -> None:
        """Show an item's fields. Pending edits of the previous item are saved first."""
        if self.fields is not None and self.fields.id != fields.id:
            self.flush()
        rebuild = self.fields is None or self.fields.kind != fields.kind
        self.fields = fields
        self._dirty.clear()
        if rebuild:
            self._rebuild(fields.kind)
        self._loading = True
        try:
            for name, widget in self.widgets.items():
                self._set_value(widget, name, fields.values.get(name))
        finally:
            self._loading = False
        self._set_heading(fields.kind, fields.values.get("title"))
        self._show_confidential_fields()
        self.state.setText("")
        if self.relationships is not None:
            related = fields.kind in RELATED_KINDS
            self.relationships.load(fields.id if related else None, fields.case_id,
                                    str(fields.values.get("title") or ""))
            self.relationships.setVisible(related)

    def mark_saved(self, item_id: int, version: int | None, values: dict[str, Any]) -> None:
        """Record that ``values`` were saved (new ``version``) so later edits compare to them."""
        if self.fields is None or self.fields.id != item_id:
            return
        merged = {**self.fields.values, **values}
        self.fields = ItemFields(self.fields.id, self.fields.case_id, self.fields.kind,
                                 version if version is not None else self.fields.version, merged)
        self._set_heading(self.fields.kind, merged.get("title"))
        self.state.setText(" ".join(p for p in ("Saved.", self._problem) if p))

    def _rebuild(self, kind: str | None) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        self.widgets = {}
        if kind is None or self.fields is None:
            return
        names = [n for n in self.fields.values if n not in ("notes", "confidential")]
        names += [n for n in ("notes", "confidential") if n in self.fields.values]
        for name in names:
            if name in HIDDEN_FIELDS:
                continue
            label, wtype, extra = field_spec(kind, name)
            widget = self._make_widget(name, wtype, extra)
            self.widgets[name] = widget
            if wtype == "check":
                self.form.addRow("", widget)
            else:
                self.form.addRow(label + ":", widget)
        if self.isVisible():  # show now, not at the next event loop turn, so focus can go there
            for widget in self.widgets.values():
                widget.show()

    def _make_widget(self, name: str, wtype: str, extra: tuple[str, ...]) -> QWidget:
        w: QWidget
        if wtype in ("line", "aliases", "date"):
            edit = QLineEdit()
            if wtype == "date":
                edit.setPlaceholderText("YYYY-MM-DD")
                edit.setMaximumWidth(160)
            if wtype == "aliases":
                edit.setPlaceholderText("other names, separated by commas")
            edit.textEdited.connect(lambda _t, n=name: self._on_field_edited(n))
            w = edit
        elif wtype == "lines":
            text = QPlainTextEdit()
            text.setTabChangesFocus(True)
            text.setMinimumHeight(54)
            text.setMaximumHeight(90)
            text.setPlaceholderText("one a line, e.g. the clerk who signed the contract: "
                                    "withheld from exports with the name")
            text.textChanged.connect(lambda n=name: self._on_field_edited(n))
            w = text
        elif wtype == "text":
            text = QPlainTextEdit()
            text.setTabChangesFocus(True)
            text.setMinimumHeight(54)
            text.setMaximumHeight(110 if name in ("notes", "statement", "answer") else 72)
            text.textChanged.connect(lambda n=name: self._on_field_edited(n))
            w = text
        elif wtype in ("choice", "editable-choice"):
            box = QComboBox()
            box.setEditable(wtype == "editable-choice")
            if wtype == "editable-choice":
                box.addItem("")
            box.addItems(list(extra))
            box.currentTextChanged.connect(lambda _t, n=name: self._on_field_edited(n))
            w = box
        elif wtype == "ref":
            box = QComboBox()
            box.setProperty("ref_kinds", list(extra))
            # Grows with the form (a long organization name stays readable) but never asks
            # for the longest choice's width.
            box.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            box.setMinimumContentsLength(18)
            box.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            box.currentIndexChanged.connect(lambda _i, n=name: self._on_field_edited(n))
            w = box
        else:
            check = QCheckBox(field_spec("", name)[0] if name in FIELD_SPECS else name)
            check.toggled.connect(lambda _c, n=name: self._on_field_edited(n))
            w = check
        w.setObjectName(f"field_{name}")
        return w

    def _set_value(self, widget: QWidget, name: str, value: Any) -> None:
        if isinstance(widget, QLineEdit):
            if isinstance(value, list):
                widget.setText(", ".join(value))
            elif isinstance(value, date):
                widget.setText(value.isoformat())
            else:
                widget.setText("" if value is None else str(value))
            widget.setStyleSheet("")
            widget.setToolTip("")
        elif isinstance(widget, QPlainTextEdit):
            shown = "\n".join(value) if isinstance(value, list) else (value or "")
            if widget.toPlainText() != shown:
                widget.setPlainText(shown)
        elif isinstance(widget, QCheckBox):
            widget.setChecked(bool(value))
        elif isinstance(widget, QComboBox) and widget.property("ref_kinds") is not None:
            self._fill_ref(widget, value)
        elif isinstance(widget, QComboBox):
            text = "" if value is None else str(value)
            if widget.isEditable():
                widget.setCurrentText(text)
            else:
                widget.setCurrentIndex(max(widget.findText(text), 0))

    def _fill_ref(self, widget: QComboBox, value: Any) -> None:
        kinds = tuple(widget.property("ref_kinds"))
        widget.clear()
        widget.addItem("—", None)
        own = self.fields.id if self.fields else None
        for choice in self._choices_provider(kinds):
            if choice.id != own:
                label = choice.title if len(kinds) == 1 else f"{choice.title} ({choice.kind})"
                widget.addItem(label, choice.id)
                widget.setItemData(widget.count() - 1, label, Qt.ItemDataRole.ToolTipRole)
        n = widget.findData(value) if value is not None else 0
        widget.setCurrentIndex(max(n, 0))
        widget.setToolTip(widget.currentText() if widget.currentIndex() > 0 else "")

    def refresh_choices(self) -> None:
        """Refill the reference fields' choices (items were created, renamed or deleted),
        keeping each field's current value; nothing is marked edited."""
        was_loading = self._loading
        self._loading = True
        try:
            for widget in self.widgets.values():
                if isinstance(widget, QComboBox) and widget.property("ref_kinds") is not None:
                    self._fill_ref(widget, widget.currentData())
        finally:
            self._loading = was_loading

    def value_of(self, name: str) -> Any:
        """The value a field's widget holds now (as the service expects it).

        Raises ValueError for a date that is not YYYY-MM-DD.
        """
        widget = self.widgets[name]
        wtype = field_spec(self.fields.kind if self.fields else "", name)[1]
        if isinstance(widget, QLineEdit):
            text = widget.text().strip()
            if wtype == "aliases":
                return [a.strip() for a in text.split(",") if a.strip()]
            if wtype == "date":
                return date.fromisoformat(text) if text else None
            return text or (None if name != "title" else "")
        if isinstance(widget, QPlainTextEdit):
            if wtype == "lines":
                return [line.strip() for line in widget.toPlainText().splitlines()
                        if line.strip()]
            return widget.toPlainText() or None
        if isinstance(widget, QCheckBox):
            return widget.isChecked()
        assert isinstance(widget, QComboBox)
        if widget.property("ref_kinds") is not None:
            return widget.currentData()
        return widget.currentText() or None

    # -- autosave -----------------------------------------------------------------------------

    def _show_confidential_fields(self) -> None:
        """Show the fields of :data:`CONFIDENTIAL_ONLY_FIELDS` only while the Confidential box
        is ticked (a person's identifying phrases matter only when exports hide them)."""
        check = self.widgets.get("confidential")
        secret = isinstance(check, QCheckBox) and check.isChecked()
        for name in CONFIDENTIAL_ONLY_FIELDS & set(self.widgets):
            self.form.setRowVisible(self.widgets[name], secret)

    def _on_field_edited(self, name: str) -> None:
        if name == "confidential":
            self._show_confidential_fields()
        if self._loading or self.fields is None:
            return
        self._dirty.add(name)
        self.state.setText("Editing…")
        self.timer.start()

    def _date_problem(self, name: str) -> str:
        """Why the date typed in field ``name`` is not saved, one sentence: "Due must be
        YYYY-MM-DD, e.g. 2018-02-23." or "Due 2026-02-30 is not a day of the calendar."."""
        assert self.fields is not None
        label = field_spec(self.fields.kind, name)[0]
        widget = self.widgets[name]
        typed = widget.text().strip() if isinstance(widget, QLineEdit) else ""
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", typed):
            return f"{label} {typed} is not a day of the calendar."
        return f"{label} must be YYYY-MM-DD, e.g. 2018-02-23."

    @Slot()
    def flush(self) -> None:
        """Send pending edits now (``changes_ready``); bad dates stay marked and unsent."""
        self.timer.stop()
        if not self._dirty or self.fields is None:
            return
        before: dict[str, Any] = {}
        after: dict[str, Any] = {}
        problems: list[str] = []
        bad: set[str] = set()
        for name in sorted(self._dirty):
            widget = self.widgets[name]
            try:
                value = self.value_of(name)
            except ValueError:
                bad.add(name)
                problems.append(self._date_problem(name))
                widget.setStyleSheet("QLineEdit { border: 1px solid #d1242f; }")
                widget.setToolTip(problems[-1])
                continue
            if isinstance(widget, QLineEdit):
                widget.setStyleSheet("")
                widget.setToolTip("")
            old = self.fields.values.get(name)
            if value != old and not (value in (None, "", []) and old in (None, "", [])):
                before[name], after[name] = old, value
        self._dirty = bad
        self._problem = ""
        if problems:
            self._problem = "Not saved: " + " ".join(problems)
            self.state.setText(self._problem)
        if after:
            self.changes_ready.emit(self.fields.id, self.fields.kind, before, after,
                                    self.fields.version)
