"""A workbook export holds any text a document can hold: the control characters a worksheet
cell cannot store are turned into something it can, instead of failing the export."""

from __future__ import annotations

from pathlib import Path

from openpyxl import load_workbook

from casefile.export.sheets import write_xlsx
from casefile.services.sheets import Table


def test_control_characters_in_text_do_not_stop_the_workbook(tmp_path: Path) -> None:
    table = Table(name="Passages", columns=["quote", "document"], rows=[
        ["Council minutes\x0bsection one: the budget was approved.", "minutes\x0c2.txt"],
        ["bell\x07 and escape \x1b[31mred\x1b[0m", "tab\there\nand a new line"],
    ])
    target = write_xlsx([table], tmp_path / "case.xlsx")
    sheet = load_workbook(target)["Passages"]
    assert sheet["A2"].value == "Council minutes\nsection one: the budget was approved."
    assert sheet["B2"].value == "minutes\n2.txt"
    assert sheet["A3"].value == "bell\ufffd and escape \ufffd[31mred\ufffd[0m"
    assert sheet["B3"].value == "tab\there\nand a new line"
