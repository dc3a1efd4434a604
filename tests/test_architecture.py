"""The core never imports Qt (DESIGN.md, Architecture): only casefile/ui may."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "casefile"
QT_PREFIXES = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "casefile.ui")


def qt_imports(source: str) -> list[str]:
    """Names of Qt (or casefile.ui) modules imported anywhere in ``source``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith(QT_PREFIXES)]
        elif (isinstance(node, ast.ImportFrom) and node.module and node.level == 0
              and node.module.startswith(QT_PREFIXES)):
            found.append(node.module)
    return found


def test_scanner_sees_qt_imports_in_any_form() -> None:
    assert qt_imports("import PySide6") == ["PySide6"]
    assert qt_imports("def f():\n    from PySide6.QtCore import Qt\n") == ["PySide6.QtCore"]
    assert qt_imports("from casefile.ui.app import run_app") == ["casefile.ui.app"]
    assert qt_imports("import sqlalchemy\nfrom casefile.store import Item") == []


CORE_FILES = sorted(
    p for p in PACKAGE.rglob("*.py")
    if "ui" not in p.relative_to(PACKAGE).parts and p.name != "cli.py"
)


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_module_does_not_import_qt(path: Path) -> None:
    assert qt_imports(path.read_text(encoding="utf-8")) == []


def test_cli_imports_the_gui_only_inside_the_gui_command() -> None:
    tree = ast.parse((PACKAGE / "cli.py").read_text(encoding="utf-8"))
    top_level = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    assert all(not qt_imports(ast.unparse(n)) for n in top_level)
    assert len(CORE_FILES) > 20  # the scan really covers the core
