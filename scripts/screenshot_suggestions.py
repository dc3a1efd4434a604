"""Screenshot of the Suggestions panel with claims, for looking at (not a test).

Imports one article (a text file; with its published date) into a new case in a fresh temp
workspace, finds suggestions (the language model when installed, else rules), opens the window
sized to the screen as on a first run, brings the Suggestions dock forward, selects the first
claim and saves the window to OUT.png. Run it under a real X server at the screen size wanted::

    xvfb-run -a -s "-screen 0 1024x640x24" .venv/bin/python scripts/screenshot_suggestions.py \\
        ARTICLE.txt 2019-11-19 OUT.png
"""

from __future__ import annotations

import sys
from pathlib import Path

from shots import let_go, temp_workspace


def main(argv: list[str]) -> int:
    article, published, out = Path(argv[0]), argv[1], Path(argv[2])

    from PySide6.QtWidgets import QApplication, QDockWidget

    from casefile.ingest import ingest_bytes
    from casefile.services import cases, documents
    from casefile.services.suggestions import suggest_for_document
    from casefile.ui.app import ensure_application
    from casefile.ui.main_window import MainWindow
    from casefile.ui.window_state import fit_to_screen

    app = ensure_application()
    ws = temp_workspace()
    raw = article.read_bytes()
    with ws.transaction() as s:
        case_id = cases.create_case(s, "Claims").id
        doc_id = documents.store_document(s, case_id, raw, ingest_bytes(raw, article.name),
                                          published=published).document_id
    with ws.transaction() as s:
        suggest_for_document(s, doc_id)
    window = MainWindow(ws, case_id=case_id, suggest_after_import=False)
    fit_to_screen(window, app.primaryScreen().availableGeometry())
    window.show()
    dock = window.findChild(QDockWidget, "suggestions_dock")
    assert dock is not None
    dock.show()
    dock.raise_()
    panel = window.suggestions_panel
    for _ in range(10):
        app.processEvents()
    claims = panel.model.group_index("claim")
    if claims.isValid():
        panel.tree.scrollTo(claims, panel.tree.ScrollHint.PositionAtTop)
        panel.tree.setCurrentIndex(panel.model.index(1, 0, claims))
    for _ in range(10):
        app.processEvents()
        QApplication.sendPostedEvents()
    window.grab().save(str(out))
    print(out, window.width(), window.height(), "dock", dock.width())
    let_go(window, ws)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
