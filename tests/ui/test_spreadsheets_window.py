"""Spreadsheets in the window: people imported from a CSV through the column-mapping dialog
(undoable), and the case written as an Excel workbook from File ▸ Export case as."""

from __future__ import annotations

from pathlib import Path

from openpyxl import load_workbook
from PySide6.QtWidgets import QComboBox, QDialog, QFileDialog

from casefile.ui.spreadsheets import ColumnMappingDialog
from tests.ui.helpers import make_case


def _navigator_counts(window) -> dict[str, str]:
    nav = window.picker.navigator
    return {nav.item(i).text().split(" (")[0]: nav.item(i).text() for i in range(nav.count())}


def test_people_from_a_spreadsheet_with_a_corrected_mapping_then_undo(
        make_window, ui_workspace, qtbot, tmp_path: Path, monkeypatch):
    cid = make_case(ui_workspace)
    window = make_window(cid)
    table = tmp_path / "sources.csv"
    table.write_text("Who,Works for,Comment\n"
                     "Łucja Wróbel,Urząd Miasta Łódź,met at the hearing\n"
                     "Jan Nowak,,\n", encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(table), ""))
    seen: dict[str, object] = {}

    def choose(dialog: ColumnMappingDialog) -> int:
        seen["guessed"] = dialog.mapping()
        seen["preview"] = dialog.preview.item(0, 0).text()
        # "Who" is not a header word Casefile knows: the reporter picks it as the name.
        dialog.boxes["title"].setCurrentIndex(dialog.boxes["title"].findData("Who"))
        dialog.boxes["notes"].setCurrentIndex(dialog.boxes["notes"].findData("Comment"))
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(ColumnMappingDialog, "exec", choose)
    window.import_table_action.trigger()
    assert seen == {"guessed": {"affiliation": "Works for", "notes": "Comment"},
                    "preview": "Łucja Wróbel"}
    qtbot.waitUntil(lambda: _navigator_counts(window).get("People") == "People (2)",
                    timeout=5000)
    assert _navigator_counts(window)["Organizations"] == "Organizations (1)"
    assert "Import 2 rows" in window.undo_stack.undoText()
    window.undo_stack.undo()
    qtbot.waitUntil(lambda: _navigator_counts(window).get("People") == "People (0)",
                    timeout=5000)
    window.undo_stack.redo()
    qtbot.waitUntil(lambda: _navigator_counts(window).get("People") == "People (2)",
                    timeout=5000)


def test_case_exported_as_a_workbook_from_the_menu(make_window, ui_workspace, qtbot,
                                                   tmp_path: Path, monkeypatch):
    cid = make_case(ui_workspace)
    window = make_window(cid)
    out = tmp_path / "export.xlsx"

    def accept(dialog: QFileDialog) -> int:
        dialog.selectFile(str(out))
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(QFileDialog, "exec", accept)
    monkeypatch.setattr(QFileDialog, "selectedFiles", lambda self: [str(out)])
    window.export_xlsx_action.trigger()
    qtbot.waitUntil(lambda: window.last_job is not None and window.last_job.done, timeout=10000)
    assert window.last_job.outcome == "succeeded"
    assert load_workbook(out).sheetnames[0] == "people"


def _people_names(path: Path) -> list[str]:
    sheet = load_workbook(path)["people"]
    header = [c.value for c in sheet[1]]
    column = header.index("name")
    return sorted(str(row[column]) for row in sheet.iter_rows(min_row=2, values_only=True))


def test_the_workbook_is_written_for_whom_the_dialog_says(make_window, ui_workspace, qtbot,
                                                          tmp_path: Path, monkeypatch):
    """The dialog's "For:" box is the export profile: editor (the default) leaves the
    confidential source out, legal review shows a pseudonym, internal the name."""
    from casefile.services import items

    cid = make_case(ui_workspace)
    with ui_workspace.transaction() as s:
        items.create_item(s, cid, "person", "Harbor master")
        items.create_item(s, cid, "person", "Dock whistleblower", confidential=True)
    window = make_window(cid)
    seen: dict[str, list[str]] = {}
    for choice in (None, "legal", "internal"):
        out = tmp_path / f"{choice or 'default'}.xlsx"

        def accept(dialog: QFileDialog, out: Path = out, choice: str | None = choice) -> int:
            box = dialog.findChild(QComboBox, "exportProfile")
            seen.setdefault("offered", [box.itemData(i) for i in range(box.count())])
            if choice is not None:
                box.setCurrentIndex(box.findData(choice))
            dialog.selectFile(str(out))
            return QDialog.DialogCode.Accepted

        monkeypatch.setattr(QFileDialog, "exec", accept)
        monkeypatch.setattr(QFileDialog, "selectedFiles", lambda self, out=out: [str(out)])
        window.export_xlsx_action.trigger()
        qtbot.waitUntil(lambda: window.last_job is not None and window.last_job.done,
                        timeout=10000)
        assert window.last_job.outcome == "succeeded"
        seen[choice or "default"] = _people_names(out)
        said = window.statusBar().currentMessage()
        assert said == f"Workbook ({choice or 'editor'}) written to {out}", said
    assert seen["offered"] == ["editor", "internal", "legal", "public"]
    assert seen["default"] == ["Harbor master"]
    assert seen["legal"] == ["Harbor master", "Source A"]
    assert seen["internal"] == ["Dock whistleblower", "Harbor master"]
