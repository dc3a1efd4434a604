"""FollowTheMoney in the window: File ▸ Export case as ▸ FollowTheMoney writes the case's
entities in the background; File ▸ Import from ▸ FollowTheMoney imports them into another case
as one undoable command."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtWidgets import QDialog, QFileDialog

from casefile.services import cases, items
from tests.ui.helpers import make_case


def _navigator_counts(window) -> dict[str, str]:
    nav = window.picker.navigator
    return {nav.item(i).text().split(" (")[0]: nav.item(i).text() for i in range(nav.count())}


def test_export_then_import_into_another_case_then_undo(make_window, ui_workspace, qtbot,
                                                       tmp_path: Path, monkeypatch):
    cid = make_case(ui_workspace)
    with ui_workspace.transaction() as s:
        org = items.create_item(s, cid, "organization", "Urząd Miasta Łódź",
                                org_kind="government body")
        items.create_item(s, cid, "person", "Łucja Wróbel", role="rzeczniczka",
                          affiliation_id=org.id)
        target = cases.create_case(s, "Handed over").id
    window = make_window(cid)
    out = tmp_path / "export"  # no suffix given: .ftm.json is added

    monkeypatch.setattr(QFileDialog, "exec", lambda self: QDialog.DialogCode.Accepted)
    monkeypatch.setattr(QFileDialog, "selectedFiles", lambda self: [str(out)])
    assert window.export_ftm_action.isEnabled()
    window.export_ftm_action.trigger()
    qtbot.waitUntil(lambda: window.last_job is not None and window.last_job.done, timeout=15000)
    assert window.last_job.outcome == "succeeded"
    written = tmp_path / "export.ftm.json"
    schemata = sorted(json.loads(line)["schema"] for line in written.read_text("utf-8")
                      .splitlines())
    assert schemata == ["Employment", "Person", "PublicBody"]

    window.open_case(target)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(written), ""))
    window.import_ftm_action.trigger()
    qtbot.waitUntil(lambda: _navigator_counts(window).get("People") == "People (1)",
                    timeout=10000)
    assert _navigator_counts(window)["Organizations"] == "Organizations (1)"
    assert "Import 3 entities" in window.undo_stack.undoText()
    with ui_workspace.transaction() as s:
        person = items.find_item(s, target, "Łucja Wróbel", "person")
        assert person.affiliation is not None
        assert person.affiliation.title == "Urząd Miasta Łódź"
    window.undo_stack.undo()
    qtbot.waitUntil(lambda: _navigator_counts(window).get("People") == "People (0)",
                    timeout=10000)


def test_without_followthemoney_the_menu_says_how_to_install_it_before_any_dialog(
        make_window, ui_workspace, monkeypatch):
    from casefile.services import ftm_export

    window = make_window(make_case(ui_workspace))
    monkeypatch.setattr(ftm_export, "followthemoney_installed", lambda: False)
    opened: list[str] = []
    monkeypatch.setattr(QFileDialog, "exec", lambda self: opened.append("save") or 0)
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        lambda *a, **k: (opened.append("open"), ("", ""))[1])
    window.export_ftm_action.trigger()
    window.import_ftm_action.trigger()
    assert opened == []
    assert len(window.messages) == 2
    assert "pip install 'casefile[ftm]'" in window.messages[0].text()
