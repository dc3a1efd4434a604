"""OCR after an import in the window: in the background with progress and Cancel in
the status line; the scan's passage is boxed on its words in the page pane."""

from __future__ import annotations

import os
from pathlib import Path

from casefile.services.passages import add_passage_by_quote
from casefile.store import Document
from tests.e2e.make_files import scan_line_box, scan_png
from tests.ui.helpers import import_through_window, make_case

LINES = ["Harbor commission, minutes of March 2021", "The inspector reported the pier unsafe",
         "and asked that it be closed at once."]


def _window_and_scan(make_window, ui_workspace, tmp_path: Path, ocr_after_import: bool):
    """A window on a new case "Harbor" (OCR after an import as asked) and a scan of
    :data:`LINES` written to ``minutes.png``, not yet imported; (case id, window, scan)."""
    cid = make_case(ui_workspace, "Harbor")
    window = make_window(cid, ocr_after_import=ocr_after_import)
    path = tmp_path / "minutes.png"
    path.write_bytes(scan_png(LINES))
    return cid, window, path


def test_an_imported_png_is_read_in_the_background_and_its_passage_boxed_on_its_words(
        make_window, ui_workspace, qtbot, monkeypatch, tmp_path):
    cid, window, path = _window_and_scan(make_window, ui_workspace, tmp_path, True)
    import_through_window(window, qtbot, monkeypatch, path)
    job = window.ocr.last_job
    assert job is not None and job.cancellable
    assert window.status_line.cancel_button.isVisible()
    qtbot.waitUntil(lambda: job.done, timeout=60000)
    assert job.outcome == "succeeded"
    assert not window.status_line.cancel_button.isVisible()
    (doc_id, viewer), = window.documents.viewers.items()
    assert "The inspector reported the pier unsafe" in viewer.text  # the view refreshed
    with ui_workspace.transaction() as s:
        passage = add_passage_by_quote(s, doc_id, "inspector reported")
        span = (passage.start, passage.end)
    pane = viewer.side_pane
    assert "page 1 by OCR (RapidOCR, " in pane.info.text()  # one short line over the page
    assert pane.mark_span(*span) == 1
    (box,) = pane.page_boxes(1)
    x0, y0, x1, y1 = scan_line_box(LINES, 1)
    width = x1 - x0
    # the words' own place on the line: after "The ", before " the pier unsafe"
    assert y0 - 0.01 < box.top() < box.bottom() < y1 + 0.01
    assert x0 + 0.08 * width < box.left() < x0 + 0.2 * width
    assert x0 + 0.45 * width < box.right() < x0 + 0.65 * width
    shots = os.environ.get("CASEFILE_SCREENSHOTS")
    if shots:
        qtbot.waitUntil(lambda: 1 in pane.rendered_pages(), timeout=5000)
        window.grab().save(str(Path(shots) / "ocr-passage-boxed.png"))


def test_cancelling_ocr_in_the_status_line_leaves_the_document_as_it_was(
        make_window, ui_workspace, qtbot, monkeypatch, tmp_path):
    cid, window, path = _window_and_scan(make_window, ui_workspace, tmp_path, True)
    import casefile.services.ocr as ocr_service

    real = ocr_service.ocr_document

    def cancel_first(*args, **kwargs):  # the reporter presses Cancel as OCR starts
        window.status_line.cancel_jobs()
        return real(*args, **kwargs)

    monkeypatch.setattr(ocr_service, "ocr_document", cancel_first)
    import_through_window(window, qtbot, monkeypatch, path)
    job = window.ocr.last_job
    qtbot.waitUntil(lambda: job.done, timeout=60000)
    assert job.outcome == "cancelled"
    (doc_id, viewer), = window.documents.viewers.items()
    with ui_workspace.transaction() as s:
        doc = s.get(Document, doc_id)
        assert doc.text == "" and "ocr" not in doc.meta
        assert not any("from OCR (" in n for n in doc.import_notes)
    assert viewer.text == ""
    assert "OCR cancelled" in window.statusBar().currentMessage()


def test_a_scan_whose_ocr_never_ran_is_named_on_opening_and_read_from_the_case_menu(
        make_window, ui_workspace, qtbot, monkeypatch, tmp_path):
    """A scan left unread (OCR off, cancelled, or the window ended mid-run) is not forgotten:
    opening the case says it waits, and Case ▸ Read scans waiting for OCR reads it."""
    cid, window, path = _window_and_scan(make_window, ui_workspace, tmp_path, False)
    import_through_window(window, qtbot, monkeypatch, path)
    assert window.ocr.last_job is None
    window.open_case(cid)
    assert ("1 scanned document waits for OCR: Case ▸ Read scans waiting for OCR"
            in window.statusBar().currentMessage())
    (action,) = [a for a in window.case_menu.actions if "waiting for &OCR" in a.text()]
    assert action.isEnabled()
    action.trigger()
    job = window.ocr.last_job
    assert job is not None
    qtbot.waitUntil(lambda: job.done, timeout=60000)
    assert job.outcome == "succeeded"
    (doc_id,) = job.result.changes.documents
    with ui_workspace.transaction() as s:
        text = s.get(Document, doc_id).text
    assert "The inspector reported the pier unsafe" in text
    assert window.ocr.waiting_in_case(cid) == []
    action.trigger()
    assert "No scanned document of this case waits for OCR." in window.statusBar().currentMessage()
