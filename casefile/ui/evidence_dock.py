"""The Evidence dock: the passages that back the item selected in any view, and the link
actions on them (open the passage, unlink, change the relation), run through the Items
controller as undoable commands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Slot

from casefile.errors import CasefileError
from casefile.services import evidence, views
from casefile.ui.docks import make_dock
from casefile.ui.items import ItemsController
from casefile.ui.operations import CaseChange
from casefile.ui.panels import EvidencePanel

if TYPE_CHECKING:
    from casefile.ui.shell import WindowShell


class EvidenceDock(QObject):
    """Adds the ``panel`` (EvidencePanel) in a right-hand ``dock`` ("evidence_dock") of the
    window; :meth:`show_item` shows one item's evidence."""

    def __init__(self, window: WindowShell, items: ItemsController) -> None:
        super().__init__(window.qt_window())
        self.window = window
        self.items = items
        self.panel = EvidencePanel()
        self.panel.passage_activated.connect(window.open_passage)
        self.panel.unlink_requested.connect(self._on_unlink_requested)
        self.panel.relation_change_requested.connect(self._on_relation_change_requested)
        self.dock = make_dock(window.qt_window(), "Evidence", "evidence_dock", self.panel)
        window.qt_window().resizeDocks([self.dock], [350], Qt.Orientation.Horizontal)

    @Slot(object)
    def show_item(self, item_id: int | None) -> None:
        """Show an item's evidence (None, or a vanished item: empty)."""
        if item_id is None:
            self.panel.show_evidence(None, "", [])
            return
        try:
            title, groups = self.window.runner.read(
                lambda s: (views.item_fields(s, item_id).values["title"],
                           evidence.evidence_groups(s, item_id)))
        except CasefileError:
            self.panel.show_evidence(None, "", [])
            return
        self.panel.show_evidence(item_id, title, groups)

    def show_views(self, heading: str, views: list[evidence.EvidenceView]) -> None:
        """Show evidence rows that are no one item's, under ``heading`` (e.g. an edge of the
        graph: the passages that connect two items)."""
        self.panel.show_evidence(None, "", views, heading=heading)

    def on_case_changed(self, ch: CaseChange, current: int | None) -> None:
        """Show again what changed; ``current`` is the item selected in the table."""
        shown = self.panel.item_id
        if shown is not None and (ch.evidence or shown in ch.updated or shown in ch.deleted
                                  or ch.structural):
            # the item on show stays on show (e.g. the one just linked from a document)
            if shown not in ch.deleted:
                self.show_item(shown)
            else:
                self.show_item(current if current is not None and current not in ch.deleted
                               else None)
        elif shown is None and current is not None:
            self.show_item(current)

    @Slot(int)
    def _on_unlink_requested(self, link_id: int) -> None:
        item_id = self.panel.item_id
        if item_id is not None:
            self.items.unlink(link_id, item_id)

    @Slot(int, str)
    def _on_relation_change_requested(self, link_id: int, relation: str) -> None:
        item_id = self.panel.item_id
        if item_id is None:
            return
        old = next((v.relation for v in self.panel.model.evidence.links
                    if v.link_id == link_id), None)
        if old is not None:
            self.items.change_relation(link_id, item_id, old, relation)
