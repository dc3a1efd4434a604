"""The bundle's ``add-to-menu.sh`` writes a desktop entry whose Exec and Icon name this folder
exactly, whatever characters its path holds (a reporter's folder may be "Apps & tools")."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from scripts.build_bundle import ADD_TO_MENU, DESKTOP_ENTRY


def _unescape_string(value: str) -> str:
    """The desktop entry format's string escapes (``\\\\``, ``\\s``...)."""
    table = {"\\": "\\", "s": " ", "n": "\n", "t": "\t", "r": "\r"}
    return re.sub(r"\\(.)", lambda m: table.get(m.group(1), "\\" + m.group(1)), value)


def _exec_program(value: str) -> str:
    """The program an Exec value runs: string escapes, then one quoted argument."""
    text = _unescape_string(value)
    assert text.startswith('"') and text.endswith('"'), text
    return re.sub(r"\\(.)", r"\1", text[1:-1]).replace("%%", "%")


@pytest.mark.parametrize("name", ["plain", "Apps & tools", "pipe|dir", 'q"u`o$te\\back%20'])
def test_the_entry_names_this_folder_exactly(tmp_path: Path, name: str) -> None:
    folder = tmp_path / name / "Casefile"
    folder.mkdir(parents=True)
    (folder / "casefile.desktop").write_text(DESKTOP_ENTRY.format(exec="casefile",
                                                                  icon="casefile"))
    script = folder / "add-to-menu.sh"
    script.write_text(ADD_TO_MENU)
    data = tmp_path / "data"
    run = subprocess.run(["sh", str(script)], capture_output=True, text=True,
                         env={"PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(data)})
    assert run.returncode == 0, run.stderr
    lines = (data / "applications" / "casefile.desktop").read_text().splitlines()
    fields = dict(line.split("=", 1) for line in lines if "=" in line)
    assert _exec_program(fields["Exec"]) == str(folder / "casefile")
    assert _unescape_string(fields["Icon"]) == str(folder / "casefile.png")
    assert fields["Name"] == "Casefile" and lines[0] == "[Desktop Entry]"
