"""The question an import asks when a file carries no published date (issue 14, "Dates").

Relative dates in a source ("to be released in about a week", "last Tuesday") only become due
dates and event dates against the day the source was published, so an import of a file that
carries none asks for it: one question for a batch, prefilled with the date found in the text or
metadata when there is one, else the file's modification date.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from PySide6.QtCore import QDate
from PySide6.QtWidgets import (
    QCheckBox,
    QDateEdit,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QVBoxLayout,
    QWidget,
)


class PublishedDateDialog(QDialog):
    """Ask for the published date of ``names`` (the files of an import that carry none).

    ``suggested`` prefills the date field; ``source`` says where it came from ("found in the
    text", "the file's modification date"). With more than one file a "Use this date for every
    file without one" box (ticked) is shown. :meth:`published` is the chosen date;
    :meth:`for_all` says whether it applies to every file. Rejecting the dialog cancels the
    import (nothing is stored); "No date" imports without one.
    """

    NO_DATE = 2

    def __init__(self, names: Sequence[str], suggested: date, source: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Published date")
        self.setObjectName("published_date_dialog")
        names = list(names)
        first = names[0] if names else "this document"
        if len(names) > 1:
            lead = (f"{len(names)} files carry no published date, starting with “{first}”.")
        else:
            lead = f"“{first}” carries no published date."
        text = QLabel(
            f"{lead} When was it published? Dates such as “in about a week” are counted from "
            f"this day.\nSuggested: {source}.")
        text.setWordWrap(True)
        self.date_edit = QDateEdit(QDate(suggested.year, suggested.month, suggested.day))
        self.date_edit.setObjectName("published_date_edit")
        self.date_edit.setCalendarPopup(True)
        self.date_edit.setDisplayFormat("yyyy-MM-dd")
        self.all_box = QCheckBox(f"Use this date for all {len(names)} files without one")
        self.all_box.setChecked(True)
        self.all_box.setVisible(len(names) > 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        self.no_date_button = buttons.addButton("No date",
                                                QDialogButtonBox.ButtonRole.ActionRole)
        self.no_date_button.clicked.connect(lambda: self.done(self.NO_DATE))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addWidget(self.date_edit)
        layout.addWidget(self.all_box)
        layout.addWidget(buttons)
        self.date_edit.setFocus()

    def published(self) -> date:
        """The date in the field."""
        d = self.date_edit.date()
        return date(d.year(), d.month(), d.day())

    def set_published(self, value: date) -> None:
        """Put ``value`` in the date field (for scripts and tests)."""
        self.date_edit.setDate(QDate(value.year, value.month, value.day))

    def for_all(self) -> bool:
        """True when the date applies to every file of the batch that carries none."""
        return self.all_box.isChecked() or not self.all_box.isVisible()
