"""Screenshots of the triage views on the sample case, for looking at (not a test); and the
graph exported to PNG through the window's Export path, opened again and checked.

Builds the demo case in a fresh temp workspace, watches its people and organizations, marks
some documents' reading states, imports invented articles (a wire story and two syndicated
copies of it, and a memo naming a watched person "Last, First") through the window's own
import, then saves, with the window at the screen's size:

* ``watch-hits.png`` – the Watch list after that import: "N new documents mention names on
  your watch list", the names, the hits table (name, variant found, document, passage);
* ``documents-reading.png`` – the Documents section with its Reading column and state filter;
* ``copies.png`` – Case ▸ Copies of one story… with the wire story's cluster;
* ``graph.png`` – the Graph tab beside the Evidence dock (Find, Fit and Export in reach);
* ``graph-export.png`` – the graph as Export ▸ As PNG writes it (its file dialog answered by
  the script); the script loads it with QImage and says its size and how much is not white.

Run it under a real X server at the screen size wanted::

    xvfb-run -a -s "-screen 0 1366x768x24" .venv/bin/python scripts/screenshots_watch.py OUT
"""

from __future__ import annotations

import sys
import time

from shots import demo_workspace, out_folder

WIRE = ("{head}\n\nHARBOR CITY (AP) — The port authority approved a dredging contract worth "
        "$40 million on Tuesday after a closed meeting, records show. Inspectors had warned "
        "that the channel walls were failing and that the contractor had missed two "
        "deadlines.\n\nThe board voted 5-2. Two members said they had not seen the "
        "inspection reports before the vote. The contractor did not answer calls.\n\n"
        "Residents near the quay said the night work had kept them awake for weeks.\n\n{foot}")


def main(argv: list[str]) -> int:
    out = out_folder(argv, "screenshots")

    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QApplication, QFileDialog

    from casefile.services import reading, views, watch_list
    from casefile.ui.app import ensure_application
    from casefile.ui.main_window import MainWindow
    from casefile.ui.window_state import fit_to_screen

    app = ensure_application()
    ws, case_id, tmp = demo_workspace()
    with ws.transaction() as s:
        watch_list.add_names(s, watch_list.names_from_case(s, case_id), case_id, source="case")
        person = watch_list.names_from_case(s, case_id)[0].name
        docs = [r.id for r in views.item_rows(s, case_id, "document")]
    with ws.transaction() as s:
        if docs:
            reading.mark_documents(s, docs[:1], "relevant")
        if len(docs) > 1:
            reading.mark_documents(s, docs[1:2], "read")
    first, *rest = person.split()
    files = tmp / "incoming"
    files.mkdir()
    (files / "wire.txt").write_text(WIRE.format(head="Port approves dredging deal",
                                                foot="Copyright AP."), encoding="utf-8")
    (files / "herald.txt").write_text(WIRE.format(
        head="Harbor Herald — Local news\nDredging deal approved behind closed doors",
        foot="Subscribe to the Harbor Herald for more local news."), encoding="utf-8")
    (files / "courier.txt").write_text(WIRE.format(
        head="Coastal Courier\nPort board backs dredging contract",
        foot="The Coastal Courier contributed to this report."), encoding="utf-8")
    (files / "memo.txt").write_text(
        f"Memo to the desk, 3 March 2021.\n\nThe flood records were signed by "
        f"{' '.join(rest) or first}, {first} on the second page. Ask for the missing pages.\n",
        encoding="utf-8")

    window = MainWindow(ws, case_id=case_id, suggest_after_import=False,
                        ocr_after_import=False, auto_backup=False)
    fit_to_screen(window, app.primaryScreen().availableGeometry())
    window.show()

    def settle(rounds: int = 10) -> None:
        for _ in range(rounds):
            app.processEvents()
            QApplication.sendPostedEvents()

    def shot(name: str, whole_screen: bool = False) -> None:
        settle()
        path = out / name
        image = (app.primaryScreen().grabWindow(0) if whole_screen else window.grab())
        image.save(str(path))
        print(path)

    job = window.folder_import.start(sorted(files.iterdir()), guess_dates=False)
    for _ in range(600):
        settle(2)
        if job is not None and job.done:
            break
        time.sleep(0.05)
    for _ in range(100):
        settle(2)
        if window.watch_list.dialog is not None and window.watch_list.dialog.isVisible():
            break
        time.sleep(0.05)
    summary = window.folder_import.summary
    if summary is not None:
        summary.close()
    dialog = window.watch_list.dialog
    if dialog is not None:
        dialog.resize(1000, 600)
        dialog.move(window.x() + 180, window.y() + 80)
        dialog.raise_()
    shot("watch-hits.png", whole_screen=True)
    if dialog is not None:
        dialog.close()

    window.items.show_section("document")
    table, model = window.items.table, window.items.table.model()
    reading_column = next((c for c in range(model.columnCount())
                           if model.headerData(c, Qt.Orientation.Horizontal) == "Reading"), 0)
    for column in range(1, model.columnCount()):  # narrow the others so Reading shows
        if column != reading_column:
            table.setColumnWidth(column, 90)
    table.selectRow(0)
    table.scrollTo(model.index(0, reading_column))
    shot("documents-reading.png")

    copies = window.case_menu.copies.prompt()
    if copies is not None:
        copies.resize(900, 420)
        copies.move(window.x() + 200, window.y() + 120)
        for _ in range(100):
            settle(2)
            if copies.isVisible():
                break
    shot("copies.png", whole_screen=True)
    if copies is not None:
        copies.close()

    views6 = window.case_views
    window.tabs.setCurrentWidget(views6.graph_tab)
    window.evidence.dock.show()
    graph = views6.graph
    for _ in range(600):  # its layout is computed on a worker thread
        settle(2)
        if graph.graph is not None and not graph.loading:
            break
        time.sleep(0.05)
    shot("graph.png")

    target = out / "graph-export.png"
    original = QFileDialog.getSaveFileName
    QFileDialog.getSaveFileName = staticmethod(  # type: ignore[method-assign]
        lambda *_a, **_k: (str(target), "PNG images (*.png)"))
    try:
        written = graph.prompt_export("png")
    finally:
        QFileDialog.getSaveFileName = original  # type: ignore[method-assign]
    image = QImage(str(target))
    step = max(1, image.width() // 200)
    samples = [image.pixelColor(x, y).name() for x in range(0, image.width(), step)
               for y in range(0, image.height(), step)]
    ink = sum(1 for c in samples if c != "#ffffff") / max(1, len(samples))
    print(f"{written}: {image.width()}x{image.height()}, loads: {not image.isNull()}, "
          f"not white: {ink:.1%} of {len(samples)} sampled pixels, "
          f"{len(set(samples))} colours")
    window.close()
    ws.close()
    return 0 if written is not None and not image.isNull() and ink > 0.01 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
