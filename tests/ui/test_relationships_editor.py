"""The editor's Relationships list: a person's affiliation shows as "employed by", and
relationships are added and removed through the editor's buttons."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog

from casefile.services import items
from casefile.services.relationships import list_relationships
from casefile.ui.relationships import RelationshipDialog
from tests.ui.helpers import make_case, window_editing

SHERIFF = "Harlan County Sheriff's Office"
BOARD = "Harlan County Board"


def test_relationships_listed_added_and_removed(make_window, ui_workspace, qtbot, monkeypatch):
    cid = make_case(ui_workspace)
    with ui_workspace.transaction() as s:
        org = items.create_item(s, cid, "organization", SHERIFF).id
        board = items.create_item(s, cid, "organization", BOARD).id
        pid = items.create_item(s, cid, "person", "Dale Ruck", role="Deputy",
                                affiliation_id=org).id
    window = window_editing(make_window, cid, pid, "person")
    panel = window.items.editor.relationships
    assert panel is not None and panel.isVisible()
    assert panel.labels() == [f"employed by → {SHERIFF}"]

    def fake_exec(dialog: RelationshipDialog) -> int:
        dialog.kind_box.setCurrentText("reports to")
        dialog.target_box.setCurrentText(f"{BOARD} (organization)")
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(RelationshipDialog, "exec", fake_exec)
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    assert sorted(panel.labels()) == sorted(
        [f"employed by → {SHERIFF}", f"reports to → {BOARD}"])
    with ui_workspace.transaction() as s:
        assert {(r.kind, r.other_id) for r in list_relationships(s, pid)} == {
            ("employed by", org), ("reports to", board)}

    row = panel.labels().index(f"reports to → {BOARD}")
    panel.list.setCurrentRow(row)
    assert panel.remove_button.isEnabled()
    qtbot.mouseClick(panel.remove_button, Qt.MouseButton.LeftButton)
    assert panel.labels() == [f"employed by → {SHERIFF}"]
    with ui_workspace.transaction() as s:
        assert [r.kind for r in list_relationships(s, pid)] == ["employed by"]

    # the organization lists the person the other way
    assert window.select_item(org, "organization")
    QApplication.processEvents()
    assert panel.labels() == ["employed by ← Dale Ruck"]
