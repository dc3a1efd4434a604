"""The left column of the window: the case picker, "New case…", and the section navigator
(People (3), …, Follow-ups (2))."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from casefile.ui.models import SECTION_TITLES

FOLLOWUPS_KEY = "followups"


class CaseNavigator(QWidget):
    """Case picker and section list. Widgets: ``case_box``, ``new_case_button``,
    ``navigator`` (each entry's UserRole is an item kind or :data:`FOLLOWUPS_KEY`).

    Signals: ``case_chosen(case_id)`` when the reporter picks another case;
    ``section_chosen(key)`` when they pick a section (a kind, or "followups").
    """

    case_chosen = Signal(int)
    section_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.case_box = QComboBox()
        self.case_box.setObjectName("case_box")
        self.case_box.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.case_box.setMinimumContentsLength(12)
        self.case_box.activated.connect(self._on_case_box_activated)
        self.new_case_button = QPushButton("New case…")
        self.navigator = QListWidget()
        self.navigator.setObjectName("navigator")
        for key, title in [*SECTION_TITLES.items(), (FOLLOWUPS_KEY, "Follow-ups")]:
            entry = QListWidgetItem(title)
            entry.setData(Qt.ItemDataRole.UserRole, key)
            self.navigator.addItem(entry)
        self.navigator.currentItemChanged.connect(self._on_navigator_changed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 0, 6)
        layout.addWidget(QLabel("Case"))
        layout.addWidget(self.case_box)
        layout.addWidget(self.new_case_button)
        layout.addSpacing(6)
        layout.addWidget(self.navigator, 1)
        self.setMinimumWidth(128)

    def set_cases(self, titles: Sequence[tuple[int, str]], current: int | None) -> None:
        """List the cases ``(id, title)``; ``current`` stays selected."""
        self.case_box.blockSignals(True)
        self.case_box.clear()
        for case_id, title in titles:
            self.case_box.addItem(title, case_id)
            self.case_box.setItemData(self.case_box.count() - 1, title,
                                      Qt.ItemDataRole.ToolTipRole)
        # The list opens wide enough for whole titles (two cases may share a long beginning),
        # at most about the width of a laptop's half screen.
        metrics = self.case_box.view().fontMetrics()
        widest = max((metrics.horizontalAdvance(title) for _id, title in titles), default=0)
        self.case_box.view().setMinimumWidth(min(widest + 32, 640))
        self.case_box.blockSignals(False)
        if current is not None:
            self.select_case(current)

    def case_ids(self) -> list[int]:
        """The listed cases' ids, in order."""
        return [self.case_box.itemData(i) for i in range(self.case_box.count())]

    def select_case(self, case_id: int) -> None:
        """Show ``case_id`` as the current case (no signal)."""
        self.case_box.setCurrentIndex(max(self.case_box.findData(case_id), 0))
        self.case_box.setToolTip(self.case_box.currentText())

    def mark(self, key: str) -> None:
        """Highlight a section's entry without announcing it."""
        for row in range(self.navigator.count()):
            if self.navigator.item(row).data(Qt.ItemDataRole.UserRole) == key:
                self.navigator.blockSignals(True)
                self.navigator.setCurrentRow(row)
                self.navigator.blockSignals(False)

    def set_counts(self, counts: Mapping[str, int] | None, open_followups: int = 0) -> None:
        """Show each section's count ("People (3)"); None shows the bare titles."""
        for row in range(self.navigator.count()):
            entry = self.navigator.item(row)
            key = entry.data(Qt.ItemDataRole.UserRole)
            title = SECTION_TITLES.get(key, "Follow-ups")
            if counts is None:
                entry.setText(title)
            elif key == FOLLOWUPS_KEY:
                entry.setText(f"{title} ({open_followups})")
            else:
                entry.setText(f"{title} ({counts.get(key, 0)})")

    @Slot(int)
    def _on_case_box_activated(self, index: int) -> None:
        case_id = self.case_box.itemData(index)
        if case_id is not None:
            self.case_chosen.emit(int(case_id))

    @Slot(QListWidgetItem, QListWidgetItem)
    def _on_navigator_changed(self, current: QListWidgetItem | None, _previous: Any) -> None:
        if current is not None:
            self.section_chosen.emit(str(current.data(Qt.ItemDataRole.UserRole)))
