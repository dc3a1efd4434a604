"""Benchmark: a section of 100,000 people in the main window.

Builds (once) a workspace whose case holds N people (default 100,000; bulk-inserted for speed,
with a few evidence links), then measures, in the real window:

* open: constructing the window on that case, showing it, until the first rows are painted;
* jump to last row: Ctrl+End in the section table until the last row is current and painted;
* scroll: 40 PageDown presses from the top (max time per press);
* filter: typing a filter that matches 1 row, applied;
* sort: clicking the Role column header.

Usage::

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/bench_gui.py [--items N] [--workspace DIR]

Prints one line per measurement, in milliseconds.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def build(folder: Path, n: int) -> int:
    """Create the workspace with one case of ``n`` people; returns the case id."""
    from sqlalchemy import insert, select

    from casefile.services import cases
    from casefile.store import Case, Item, Person
    from casefile.store.workspace import open_workspace

    ws = open_workspace(folder)
    try:
        with ws.transaction() as s:
            existing = s.scalar(select(Case.id).where(Case.title == f"Bench {n}"))
            if existing is not None:
                return int(existing)
            case_id = cases.create_case(s, f"Bench {n}").id
        first = 1_000_000
        roles = ["Deputy", "Sergeant", "Teacher", "Student", "Parent", "Spokesperson"]
        with ws.transaction() as s:
            s.execute(insert(Item.__table__), [
                {"id": first + i, "case_id": case_id, "kind": "person",
                 "title": f"Person {i:06d}", "confidential": False, "version": 1,
                 "created": __import__("datetime").datetime(2024, 1, 1),
                 "updated": __import__("datetime").datetime(2024, 1, 1)}
                for i in range(n)
            ])
            s.execute(insert(Person.__table__), [
                {"id": first + i, "aliases": [], "role": roles[i % len(roles)]}
                for i in range(n)
            ])
        return case_id
    finally:
        ws.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--workspace", type=Path)
    args = parser.parse_args(argv)

    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtTest import QTest

    from casefile.store.workspace import open_workspace
    from casefile.ui.app import ensure_application
    from casefile.ui.main_window import MainWindow

    folder = args.workspace or Path(tempfile.gettempdir()) / f"casefile-bench-{args.items}"
    t = time.perf_counter()
    case_id = build(folder, args.items)
    print(f"workspace ready ({folder}): {(time.perf_counter() - t) * 1000:.0f} ms")

    app = ensure_application()
    settings_dir = tempfile.mkdtemp(prefix="casefile-bench-settings-")
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, settings_dir)
    ws = open_workspace(folder)
    try:
        t = time.perf_counter()
        window = MainWindow(ws, case_id=case_id, suggest_after_import=False)
        window.resize(1280, 800)
        window.show()
        window.items.table.viewport().repaint()
        app.processEvents()
        open_ms = (time.perf_counter() - t) * 1000
        model = window.section_model
        assert model is not None
        print(f"open section of {model.total} items: {open_ms:.0f} ms "
              f"({model.loaded} rows fetched)")

        window.items.table.setFocus()
        t = time.perf_counter()
        QTest.keyClick(window.items.table, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
        window.items.table.viewport().repaint()
        app.processEvents()
        jump_ms = (time.perf_counter() - t) * 1000
        last = window.items.table.currentIndex().row()
        print(f"jump to last row (Ctrl+End): {jump_ms:.0f} ms (row {last + 1} of "
              f"{window.items.proxy.rowCount()})")
        assert last == args.items - 1, last

        QTest.keyClick(window.items.table, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
        worst = 0.0
        for _ in range(40):
            t = time.perf_counter()
            QTest.keyClick(window.items.table, Qt.Key.Key_PageDown)
            window.items.table.viewport().repaint()
            app.processEvents()
            worst = max(worst, (time.perf_counter() - t) * 1000)
        print(f"scroll: 40 × PageDown, slowest {worst:.1f} ms")

        t = time.perf_counter()
        window.items.filter_edit.setText("person 099998")
        window._apply_filter()
        app.processEvents()
        print(f"filter to {window.items.proxy.rowCount()} row: "
              f"{(time.perf_counter() - t) * 1000:.0f} ms")
        window.items.filter_edit.setText("")
        window._apply_filter()

        t = time.perf_counter()
        window.items.table.sortByColumn(1, Qt.SortOrder.DescendingOrder)
        app.processEvents()
        print(f"sort by role: {(time.perf_counter() - t) * 1000:.0f} ms")
        window.close()
    finally:
        ws.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
