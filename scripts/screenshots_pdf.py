"""Screenshots of the PDF page view, quick open and the folder-import summary (not a test).

Builds the demo case in a fresh temp workspace, imports a generated three-page incident report
(PDF) and a small mixed folder through the window, and saves, from the whole X screen (so the
popups are in the picture):

* ``pdf-viewer.png`` – the report's text beside its rendered pages, a passage on page 3 opened
  from the evidence panel (page 3 framed, the passage boxed on the page);
* ``quick-open.png`` – the Ctrl+K popup with "rey" typed: items by name, then documents by text;
* ``quick-open-text.png`` – the popup finding documents by a word of their text;
* ``folder-summary.png`` – the summary after importing a folder with good and bad files.

Run it under a real X server::

    xvfb-run -s "-screen 0 1280x800x24" .venv/bin/python scripts/screenshots_pdf.py OUT_DIR
"""

from __future__ import annotations

import io
import sys
import time

from shots import demo_workspace, let_go, out_folder

REPORT = [
    ("Harlan County Sheriff's Office — Incident Report 24-0611",
     ["Location: Alder Creek bridge, County Road 9, Millbrook. Reporting officer: Deputy Alan "
      "Reyes. Date of incident: June 11. Time of first call: 4:52 a.m.",
      "At approximately 4:52 a.m. dispatch received the first call from the Riverside trailer "
      "park reporting water entering homes. Deputy Reyes and a second deputy were sent to the "
      "Alder Creek bridge to close the road."]),
    ("Narrative (continued)",
     ["Millbrook Fire Department crews arrived at 5:20 a.m. and began water rescues from the "
      "south bank. The deputies kept their vehicles on the bridge approach.",
      "The radio log records that a sergeant told units to hold the bridge and not to enter "
      "moving water. The order was not changed until 5:31 a.m."]),
    ("Findings",
     ["The two deputies remained at the bridge for nearly forty minutes without entering the "
      "trailer park while residents called for help.",
      "The internal review is due on July 2. The county will answer the records request for "
      "the radio logs and body-camera footage then."]),
]


def report_pdf() -> bytes:
    """A three-page incident report, with wrapped paragraphs (reportlab platypus)."""
    from reportlab.lib.pagesizes import LETTER
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer

    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=LETTER, title="Incident Report 18-0214",
                            author="Broward County Sheriff's Office")
    styles = getSampleStyleSheet()
    story: list[object] = []
    for n, (heading, paragraphs) in enumerate(REPORT):
        if n:
            story.append(PageBreak())
        story.append(Paragraph(heading, styles["Heading2"]))
        for text in paragraphs:
            story.append(Paragraph(text, styles["BodyText"]))
            story.append(Spacer(1, 8))
    doc.build(story)
    return buffer.getvalue()


def main(argv: list[str]) -> int:
    out = out_folder(argv, "/tmp/casefile-shots")

    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication, QFileDialog

    from casefile.services.passages import add_passage_by_quote
    from casefile.services.views import item_choices
    from casefile.ui.app import ensure_application
    from casefile.ui.main_window import MainWindow

    app = ensure_application()
    ws, case_id, tmp = demo_workspace()
    window = MainWindow(ws, case_id=case_id, suggest_after_import=False)
    window.resize(1280, 800)
    window.move(0, 0)
    window.show()

    def settle(seconds: float = 0.4) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            app.processEvents()
            QApplication.sendPostedEvents()
            time.sleep(0.01)

    def wait(job: object) -> None:
        while not job.done:  # type: ignore[attr-defined]
            settle(0.05)

    def shot(name: str) -> None:
        settle()
        path = out / name
        QGuiApplication.primaryScreen().grabWindow(0).save(str(path))
        print(path)

    # 1. the PDF report, a passage on page 3 linked to Peterson, opened from the evidence panel
    pdf = tmp / "incident-report-18-0214.pdf"
    pdf.write_bytes(report_pdf())
    QFileDialog.getOpenFileNames = staticmethod(lambda *a, **k: ([str(pdf)], ""))
    window.import_action.trigger()
    wait(window.last_job)
    (doc_id,) = [d for d in window.documents.viewers]
    with ws.transaction() as s:
        reyes = next(c.id for c in item_choices(s, case_id, ("person",))
                        if "Reyes" in c.title)
        passage = add_passage_by_quote(
            s, doc_id, "remained at the bridge for nearly forty minutes without entering the "
            "trailer park")
        start, end = passage.start, passage.end
    window.items.link_span(reyes, doc_id, start, end, "supports")
    window.documents.close(doc_id)
    window.select_item(reyes, "person")
    settle()
    for index in window.evidence.panel.link_indexes():
        view = window.evidence.panel.model.evidence_at(index)
        if view is not None and view.document_id == doc_id:
            window.evidence.panel.activate(index)
            break
    settle(1.0)
    shot("pdf-viewer.png")

    # 2. quick open
    window.items.show_section("person")
    settle()
    dialog = window.quick_open.show()
    dialog.edit.setText("rey")
    dialog.refresh()
    shot("quick-open.png")
    dialog.edit.setText("radio")
    dialog.refresh()
    shot("quick-open-text.png")
    dialog.hide()

    # 3. folder import summary
    folder = tmp / "records-request"
    (folder / "emails").mkdir(parents=True)
    (folder / "county-statement.txt").write_text(
        "County statement\n\nThe county declined to comment on the radio logs.",
        encoding="utf-8")
    (folder / "statement-copy.txt").write_text(
        "County statement\n\nThe county declined to comment on the radio logs.",
        encoding="utf-8")
    (folder / "incident-report.pdf").write_bytes(pdf.read_bytes())
    (folder / "scan-of-fax.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(60))
    (folder / "cut-download.pdf").write_bytes(report_pdf()[:1500])
    (folder / "emails" / "press-office.txt").write_text(
        "Press office reply\n\nThe review is due on July 2.", encoding="utf-8")
    QFileDialog.getExistingDirectory = staticmethod(lambda *a, **k: str(folder))
    job = window.folder_import.prompt()
    wait(job)
    settle(0.6)
    shot("folder-summary.png")
    if window.folder_import.summary is not None:
        window.folder_import.summary.accept()

    let_go(window, ws)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
