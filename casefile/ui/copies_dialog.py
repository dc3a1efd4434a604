"""Case ▸ Copies of one story…: the clusters of documents that share an origin
(:func:`casefile.services.duplicates.case_duplicates`), so the reporter sees that five
syndicated copies are one source. A row per cluster ("5 copies of one AP story", why), its
documents under it; activating a document shows it in the Documents section. Reads only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from casefile.services.duplicates import CopyCluster, case_duplicates
from casefile.ui.dialogs import DialogHolder, stack_with_close

if TYPE_CHECKING:
    from casefile.ui.shell import WindowShell

#: The item data role holding a document row's id.
DOC_ROLE = Qt.ItemDataRole.UserRole + 1


class CopiesDialog(QDialog):
    """The clusters of copies of one case; ``document_activated(id)`` when a document row is
    double-clicked or Enter is pressed on it."""

    document_activated = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Copies of one story")
        self.resize(640, 420)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Cluster / document", "Why"])
        self.tree.setColumnWidth(0, 380)
        self.tree.itemActivated.connect(self._activated)
        stack_with_close(self, self.summary, self.tree)

    def set_clusters(self, case_title: str, clusters: list[CopyCluster]) -> None:
        """Show ``clusters`` of the case ``case_title``."""
        self.tree.clear()
        if not clusters:
            self.summary.setText(f"No copies in “{case_title}”: every document is its own "
                                 "source.")
            return
        copies = sum(len(c.document_ids) for c in clusters)
        self.summary.setText(
            f"{copies} documents of “{case_title}” are copies of {len(clusters)} "
            f"stor{'y' if len(clusters) == 1 else 'ies'}; a claim's corroboration counts each "
            "cluster once.")
        for c in clusters:
            top = QTreeWidgetItem([c.label, "; ".join(c.reasons)])
            for doc_id, title in zip(c.document_ids, c.titles, strict=True):
                child = QTreeWidgetItem([title, ""])
                child.setData(0, DOC_ROLE, doc_id)
                top.addChild(child)
            self.tree.addTopLevelItem(top)
            top.setExpanded(True)

    def _activated(self, item: QTreeWidgetItem, _column: int) -> None:
        doc_id = item.data(0, DOC_ROLE)
        if doc_id is not None:
            self.document_activated.emit(int(doc_id))


class CopiesController(DialogHolder[CopiesDialog]):
    """Case ▸ Copies of one story… of ``window``."""

    def __init__(self, window: WindowShell) -> None:
        self.window = window
        super().__init__()

    def prompt(self) -> CopiesDialog | None:
        """Open the dialog on the open case (window-modal, not blocking); None when no case
        is open."""
        window = self.window
        case_id = window.case_id
        if case_id is None:
            return None
        clusters = window.runner.read(lambda s: case_duplicates(s, case_id))

        def make() -> CopiesDialog:
            dialog = CopiesDialog(window.qt_window())
            dialog.document_activated.connect(lambda i: window.select_item(i, "document"))
            return dialog

        return self.open_dialog(
            make, lambda dialog: dialog.set_clusters(window.case_title(), clusters))
