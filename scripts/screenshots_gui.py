"""Screenshots of the real window on the sample case, for looking at (not a test).

Builds the demo case in a fresh temp workspace, opens the window at 1280×800 and saves:

* ``people-evidence.png`` – the People section, a person selected, the evidence panel filled;
* ``document-viewer.png`` – the sample article with its passages highlighted by relation;
* ``followups.png`` – the follow-ups view (overdue in the warning colour), a follow-up's
  details (whom to ask, history) below;
* ``timeline.png`` – the Timeline tab, an event selected (its evidence in the panel);
* ``claims.png`` – the Claims tab, the disputed claim's attribution chain and override;
* ``graph.png`` – the Graph tab beside the Evidence dock: Find, Fit and Export in reach.

Run it under a real X server::

    xvfb-run -s "-screen 0 1280x800x24" .venv/bin/python scripts/screenshots_gui.py OUT_DIR

``--dark`` first gives the application a dark palette, as a dark desktop theme would (the
window itself never forces a theme), to check that text and highlights stay readable.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from shots import demo_workspace


def _dark_palette() -> object:
    from PySide6.QtGui import QColor, QPalette

    p = QPalette()
    role = QPalette.ColorRole
    for r, c in ((role.Window, "#2b2b2b"), (role.WindowText, "#e6e6e6"), (role.Base, "#1e1e1e"),
                 (role.AlternateBase, "#262626"), (role.Text, "#e6e6e6"),
                 (role.Button, "#353535"), (role.ButtonText, "#e6e6e6"),
                 (role.Highlight, "#2f65ca"), (role.HighlightedText, "#ffffff"),
                 (role.ToolTipBase, "#353535"), (role.ToolTipText, "#e6e6e6"),
                 (role.PlaceholderText, "#8a8a8a")):
        p.setColor(r, QColor(c))
    return p


def main(argv: list[str]) -> int:
    dark = "--dark" in argv
    argv = [a for a in argv if a != "--dark"]
    out = Path(argv[0] if argv else "screenshots")
    out.mkdir(parents=True, exist_ok=True)

    from PySide6.QtWidgets import QApplication

    from casefile.services import views
    from casefile.ui.app import ensure_application
    from casefile.ui.main_window import MainWindow

    app = ensure_application()
    if dark:
        app.setStyle("Fusion")
        app.setPalette(_dark_palette())
    ws, case_id, _tmp = demo_workspace()
    window = MainWindow(ws, case_id=case_id, suggest_after_import=False)
    window.resize(1280, 800)
    window.show()

    def settle() -> None:
        for _ in range(5):
            app.processEvents()
            QApplication.sendPostedEvents()

    def shot(name: str) -> None:
        settle()
        path = out / name
        window.grab().save(str(path))
        print(path)

    # people, with the most-cited person selected
    window.items.show_section("person")
    best = max(range(window.items.proxy.rowCount()),
               key=lambda r: int(window.items.proxy.index(r, 3).data() or 0))
    window.items.table.selectRow(best)
    shot("people-evidence.png")

    # the article, at the first passage
    with ws.transaction() as s:
        doc_id = views.item_rows(s, case_id, "document")[0].id
        first = views.document_view(s, doc_id).passages[0]
    viewer = window.open_document(doc_id)
    assert viewer is not None
    viewer.select_span(first.start, first.end)
    viewer.text_view.moveCursor(viewer.text_view.textCursor().MoveOperation.Start)
    shot("document-viewer.png")

    window.show_followups()
    if window.followups_model.rowCount() > 1:  # a row below the overdue one, so its colour shows
        window.followups_view.table.selectRow(1)
    shot("followups.png")

    views6 = window.case_views
    window.tabs.setCurrentWidget(views6.timeline)
    events = views6.timeline.events
    approximate = next((e for e in events if e.approximate), events[0] if events else None)
    if approximate is not None:
        views6.timeline.select_event(approximate.id)
    shot("timeline.png")

    window.tabs.setCurrentWidget(views6.claims)
    if views6.claims.model.rowCount():
        views6.claims.table.selectRow(0)
    shot("claims.png")

    window.tabs.setCurrentWidget(views6.graph_tab)
    graph = views6.graph
    for _ in range(600):  # its layout is computed on a worker thread (at most 30 s)
        settle()
        if graph.graph is not None and not graph.loading:
            break
        time.sleep(0.05)
    shot("graph.png")
    window.close()
    ws.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
