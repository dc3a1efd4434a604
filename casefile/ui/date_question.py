"""The question an import asks when a file carries no published date.

Relative dates in a source ("to be released in about a week", "last Tuesday") only become due
dates and event dates against the day the source was published, so an import of a file that
carries none asks for it: one question for a batch, prefilled with the date found in the text or
metadata when there is one, else the file's modification date. Unticking "Use this date for
all N files without one" makes it ask again for each of the other files in turn (the window's
:class:`casefile.ui.importing.ImportController` does the asking).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)


class PublishedDateDialog(QDialog):
    """Ask for the published date of ``names`` (the files of an import that carry none).

    ``suggested`` prefills the date field; ``source`` says where it came from ("found in the
    text", "the file's modification date"). With more than one file a "Use this date for all
    N files without one" box (ticked) is shown; unticked, the answer is the first file's only
    and each other file gets its own question. ``position`` ``(n, total)`` marks one of those
    ("File 2 of 7"). :meth:`published` is the chosen date; :meth:`for_all` says whether it
    applies to every file. Rejecting the dialog cancels the import (nothing is stored); "No
    date" imports without one.
    """

    NO_DATE = 2

    def __init__(self, names: Sequence[str], suggested: date, source: str,
                 parent: QWidget | None = None, *,
                 position: tuple[int, int] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Published date")
        self.setObjectName("published_date_dialog")
        names = list(names)
        first = names[0] if names else "this document"
        if len(names) > 1:
            lead = (f"{len(names)} files carry no published date, starting with “{first}”.")
        elif position is not None:
            lead = f"File {position[0]} of {position[1]}: “{first}” carries no published date."
        else:
            lead = f"“{first}” carries no published date."
        text = QLabel(
            f"{lead} When was it published? Dates such as “in about a week” are counted from "
            f"this day.\nSuggested: {source}.")
        text.setObjectName("published_date_text")
        self.text = text
        text.setWordWrap(True)
        # a plain ISO field like every date field of the editor: typed over as a whole (a
        # sectioned date editor turned a typed "2018-02-23" into 2018-12-02)
        self.date_edit = QLineEdit(suggested.isoformat())
        self.date_edit.setObjectName("published_date_edit")
        self.date_edit.setPlaceholderText("YYYY-MM-DD")
        self.date_edit.selectAll()
        self.problem = QLabel()
        self.problem.setObjectName("published_date_problem")
        self.all_box = QCheckBox(f"Use this date for all {len(names)} files without one")
        self.all_box.setChecked(True)
        self.all_box.setToolTip("Untick to be asked for each file in turn, each with its own "
                                "modification date suggested")
        self._several = len(names) > 1
        self.all_box.setVisible(self._several)
        others = ("the other file is asked next" if len(names) == 2 else
                  f"the other {len(names) - 1} files are asked one by one next")
        self.each_hint = QLabel(f"This date is for “{first}”; {others}.")
        self.each_hint.setObjectName("published_date_each_hint")
        self.each_hint.setWordWrap(True)
        self.each_hint.setVisible(False)
        self.all_box.toggled.connect(self._on_all_toggled)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        self.no_date_button = buttons.addButton("No date",
                                                QDialogButtonBox.ButtonRole.ActionRole)
        self.no_date_button.clicked.connect(lambda: self.done(self.NO_DATE))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.date_edit.textChanged.connect(self._on_text_changed)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addWidget(self.date_edit)
        layout.addWidget(self.problem)
        layout.addWidget(self.all_box)
        layout.addWidget(self.each_hint)
        layout.addWidget(buttons)
        self.setMinimumWidth(440)
        self.date_edit.setFocus()

    def _on_all_toggled(self, ticked: bool) -> None:
        self.each_hint.setVisible(self._several and not ticked)
        self.adjustSize()  # room for the hint, not squeezing the question

    def _parsed(self) -> date | None:
        try:
            return date.fromisoformat(self.date_edit.text().strip())
        except ValueError:
            return None

    def _on_text_changed(self, _text: str) -> None:
        ok = self._parsed() is not None
        self.ok_button.setEnabled(ok)
        self.problem.setText("" if ok else "Write the date as YYYY-MM-DD, e.g. 2018-02-23.")

    def published(self) -> date:
        """The date in the field (OK is enabled only while it is a valid ISO date)."""
        parsed = self._parsed()
        if parsed is None:
            raise ValueError(f"not a date: {self.date_edit.text()!r}")
        return parsed

    def set_published(self, value: date) -> None:
        """Put ``value`` in the date field (for scripts and tests)."""
        self.date_edit.setText(value.isoformat())

    def for_all(self) -> bool:
        """True when the date applies to every file of the batch that carries none."""
        # not all_box.isVisible(): once the dialog is closed (when its answer is read) no
        # child is visible, and an unticked box read as "for all"
        return self.all_box.isChecked() or not self._several
