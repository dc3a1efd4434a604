"""PDF pages beside the text in the document viewer, and encrypted PDFs imported from the
window."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter
from PySide6.QtWidgets import QFileDialog, QInputDialog

from casefile.services.page_geometry import cleaned_with_indexes
from casefile.services.passages import add_passage_by_quote
from casefile.store import Blob, Document, Passage
from casefile.ui.pdf_pages import PdfPagesView
from tests.e2e.make_files import pdf_bytes
from tests.ui.conftest import SAMPLES
from tests.ui.helpers import answer_date_questions, import_through_window, make_case

PAGES = [
    "Page one: the sheriff arrived at 9:10.\nHe spoke to the press.",
    "Page two: deputies stayed outside the building.",
    "Page three: the report is due on March 2.\nThe county will answer then.",
]
AES_256 = SAMPLES / "real" / "aes-256-r6.pdf"  # user password "usersecret" (SOURCES.md)




def _pane(viewer) -> PdfPagesView:
    pane = viewer.side_pane
    assert isinstance(pane, PdfPagesView)
    return pane


def _window_with_pages_imported(make_window, ui_workspace, qtbot, monkeypatch, path: Path):
    """A window on a new case into which the PDF of :data:`PAGES`, written to ``path``, was
    imported with File ▸ Import documents…; (window, the finished import job)."""
    window = make_window(make_case(ui_workspace))
    path.write_bytes(pdf_bytes(PAGES))
    return window, import_through_window(window, qtbot, monkeypatch, path)


def _encrypted(data: bytes, password: str) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.encrypt(password, algorithm="AES-256")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_cleaning_keeps_the_pdfium_index_of_each_character():
    text, index = cleaned_with_indexes("ab\r\ncd\x02e\x01f\rg")
    assert text == "ab\ncd-ef\ng"
    assert index == [0, 1, 2, 4, 5, 6, 7, 9, 10, 11]


def test_a_three_page_pdf_imported_through_the_window_shows_three_pages(
        make_window, ui_workspace, qtbot, tmp_path, monkeypatch):
    window, job = _window_with_pages_imported(make_window, ui_workspace, qtbot, monkeypatch,
                                              tmp_path / "incident-report.pdf")
    assert job.outcome == "succeeded"
    (doc_id,) = window.documents.viewers
    viewer = window.documents.viewers[doc_id]
    assert window.tabs.currentWidget() is viewer
    pane = _pane(viewer)
    assert pane.isVisible() and pane.page_count == 3
    assert "3 pages" in pane.info.text()
    # the pane is beside the text, both readable
    assert viewer.text_view.width() > 200 and pane.width() > 200
    # every page gets a real image once scrolled to (lazily: first the visible ones)
    qtbot.waitUntil(lambda: 1 in pane.rendered_pages(), timeout=5000)
    for page in (1, 2, 3):
        pane.show_page(page)
        qtbot.waitUntil(lambda p=page: p in pane.rendered_pages(), timeout=5000)
    images = [pane.page_image(n) for n in (1, 2, 3)]
    assert all(img is not None and not img.isNull() for img in images)
    ratio = images[0].height() / images[0].width()
    assert ratio == pytest.approx(842 / 595, rel=0.02)  # A4 portrait
    # a rendered page is a white sheet with dark text on it, not a blank or black box
    img = images[2]
    corner = img.pixelColor(2, 2)
    assert corner.red() > 240 and corner.green() > 240 and corner.blue() > 240
    inked = sum(1 for x in range(img.width()) for y in range(img.height() // 4)
                if img.pixelColor(x, y).lightness() < 160)
    assert inked > 40
    assert img.width() >= 200  # rendered at the pane's width, not a thumbnail
    # page numbers are drawn under each page
    widget = pane.page_widget(3)
    assert widget is not None
    assert widget.count == 3 and widget.state.number == 3


def test_activating_a_passage_on_page_three_scrolls_the_pages_to_page_three(
        make_window, ui_workspace, qtbot, tmp_path, monkeypatch):
    window, _job = _window_with_pages_imported(make_window, ui_workspace, qtbot, monkeypatch,
                                               tmp_path / "report.pdf")
    (doc_id,) = window.documents.viewers
    person = window.items.create_item("person", "County press officer")
    with ui_workspace.transaction() as s:
        passage = add_passage_by_quote(s, doc_id, "the report is due on March 2")
        assert passage.page == 3
    window.items.link_span(person, doc_id, passage.start, passage.end, "supports")
    window.documents.close(doc_id)

    window.select_item(person, "person")
    (index,) = window.evidence.panel.link_indexes()
    window.evidence.panel.activate(index)  # what a double-click does
    viewer = window.documents.viewers[doc_id]
    pane = _pane(viewer)
    assert viewer.selected_text() == "the report is due on March 2"
    qtbot.waitUntil(lambda: pane.marked_pages() == [3], timeout=5000)
    qtbot.waitUntil(lambda: pane.current_page() == 3, timeout=5000)
    assert 3 in pane.visible_pages()
    qtbot.waitUntil(lambda: 3 in pane.rendered_pages(), timeout=5000)
    # PDFium placed the passage exactly: one line box near the top of page 3, starting after
    # "Page three: " (the line starts 72 pt from the left of a 595 pt page, at y = 780 pt)
    (box,) = pane.page_boxes(3)
    assert 0.2 < box.left() < 0.3 and 0.04 < box.top() < 0.08 and 0.2 < box.width() < 0.4

    # selecting text on page one in the viewer follows it back to page one
    cursor = viewer.text_view.document().find("sheriff arrived")
    viewer.text_view.setTextCursor(cursor)
    qtbot.waitUntil(lambda: pane.marked_pages() == [1], timeout=5000)
    qtbot.waitUntil(lambda: pane.current_page() == 1, timeout=5000)
    # clicking page three shows that page's text
    pane.page_clicked.emit(3)
    assert viewer.cursor_offset() == viewer.text.index("Page three")


def test_scanned_pdf_without_text_layer_is_still_viewable(
        make_window, ui_workspace, qtbot, monkeypatch):
    cid = make_case(ui_workspace)
    window = make_window(cid)
    import_through_window(window, qtbot, monkeypatch, SAMPLES / "real" / "pdf-with-jbig2.pdf")
    (viewer,) = window.documents.viewers.values()
    pane = _pane(viewer)
    assert "no text layer" in pane.info.text()
    qtbot.waitUntil(lambda: pane.rendered_pages() == [1], timeout=5000)
    image = pane.page_image(1)
    assert image is not None and not image.isNull()
    # the scan itself is painted (dark pixels), not an empty sheet
    dark = sum(1 for x in range(0, image.width(), 3) for y in range(0, image.height(), 3)
               if image.pixelColor(x, y).lightness() < 128)
    assert dark > 50


def _answers(monkeypatch, answers: list[tuple[str, bool]]) -> list[str]:
    """Patch QInputDialog.getText to give ``answers`` in turn; returns the prompts shown."""
    prompts: list[str] = []

    def fake(parent, title, label, echo=None, text=""):
        from PySide6.QtWidgets import QLineEdit
        assert echo == QLineEdit.EchoMode.Password
        prompts.append(label)
        return answers.pop(0)

    monkeypatch.setattr(QInputDialog, "getText", fake)
    return prompts


def test_encrypted_pdf_asks_for_its_password_and_imports(
        make_window, ui_workspace, qtbot, monkeypatch):
    cid = make_case(ui_workspace)
    window = make_window(cid)
    prompts = _answers(monkeypatch, [("wrong-guess", True), ("usersecret", True)])
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(AES_256)], ""))
    answer_date_questions(monkeypatch)
    window.import_action.trigger()
    qtbot.waitUntil(lambda: bool(window.documents.viewers), timeout=30000)
    assert prompts == ["aes-256-r6.pdf is encrypted. Password to open it:",
                       "The password for aes-256-r6.pdf is wrong. Try again:"]
    with ui_workspace.transaction() as s:
        (doc,) = s.query(Document).all()
        assert s.get(Blob, doc.sha256).data == AES_256.read_bytes()
        assert "Encrypted: opened with the password given" in doc.import_notes
    # the pages open with the password given at import, without asking again
    (viewer,) = window.documents.viewers.values()
    pane = _pane(viewer)
    assert not pane.is_locked and pane.page_count >= 1
    qtbot.waitUntil(lambda: 1 in pane.rendered_pages(), timeout=5000)


def test_wrong_password_then_cancel_leaves_nothing_stored(
        make_window, ui_workspace, qtbot, tmp_path, monkeypatch):
    cid = make_case(ui_workspace)
    window = make_window(cid)
    path = tmp_path / "sealed.pdf"
    path.write_bytes(_encrypted(pdf_bytes(PAGES), "s3cret"))
    prompts = _answers(monkeypatch, [("guess", True), ("", False)])
    job = import_through_window(window, qtbot, monkeypatch, path)
    qtbot.waitUntil(lambda: len(prompts) == 2 and window.last_job.done, timeout=30000)
    assert job.outcome == "cancelled" and window.last_job.outcome == "cancelled"
    assert "wrong" in prompts[1]
    assert "needs its password" in window.statusBar().currentMessage()
    assert not window.documents.viewers and not window.messages  # no error box, nothing opened
    with ui_workspace.transaction() as s:
        assert s.query(Document).count() == 0
        assert s.query(Blob).count() == 0
        assert s.query(Passage).count() == 0


def test_pages_of_an_encrypted_pdf_ask_for_the_password_in_a_new_session(
        make_window, ui_workspace, qtbot, monkeypatch):
    cid = make_case(ui_workspace)
    window = make_window(cid)
    _answers(monkeypatch, [("usersecret", True)])
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(AES_256)], ""))
    answer_date_questions(monkeypatch)
    window.import_action.trigger()
    qtbot.waitUntil(lambda: bool(window.documents.viewers), timeout=30000)
    (doc_id,) = window.documents.viewers
    window.documents.close(doc_id)
    window.pdf_passwords.clear()  # as after a restart
    viewer = window.open_document(doc_id)
    pane = _pane(viewer)
    assert pane.is_locked and pane.locked.isVisible() and not pane.scroll.isVisible()
    prompts = _answers(monkeypatch, [("nope", True), ("usersecret", True)])
    pane.password_button.click()
    assert len(prompts) == 2 and "wrong" in prompts[1]
    assert not pane.is_locked and pane.scroll.isVisible()
    qtbot.waitUntil(lambda: 1 in pane.rendered_pages(), timeout=5000)
    assert window.pdf_passwords  # kept for the rest of the session


def test_a_long_pdf_shows_every_page_but_makes_widgets_only_near_the_view(qtbot):
    """A 120-page PDF: the pane says 120 pages and its scroll area holds them all, yet only
    the pages near the view have widgets (a long PDF opens without making one per page);
    jumping to a page or marking a passage on it builds, renders and frames that page, and
    the pages left far behind let go of their widgets."""
    from casefile.services.originals import Original

    pages = [f"Page {n}: the commission heard witness number {n}." for n in range(1, 121)]
    text = "\n\n".join(pages)
    starts = tuple(sum(len(p) + 2 for p in pages[:n]) for n in range(len(pages)))
    original = Original(1, "Transcript", "transcript.pdf", "application/pdf", "0" * 64,
                        pdf_bytes(pages), starts, ())
    pane = PdfPagesView()
    qtbot.addWidget(pane)
    pane.resize(420, 600)
    pane.show()
    qtbot.waitExposed(pane)
    assert pane.set_original(original, text)
    assert pane.page_count == 120 and "120 pages" in pane.info.text()
    qtbot.waitUntil(lambda: 1 in pane.rendered_pages(), timeout=5000)
    made = [p for p in range(1, 121) if pane.page_widget(p) is not None]
    assert 1 in made and len(made) < 10
    # the scroll area is as tall as all 120 pages: the last one can be scrolled to
    bar = pane.scroll.verticalScrollBar()
    assert bar.maximum() > 100 * pane.scroll.viewport().height() // 2

    pane.show_page(100)
    qtbot.waitUntil(lambda: pane.current_page() == 100, timeout=5000)
    qtbot.waitUntil(lambda: 100 in pane.rendered_pages(), timeout=5000)
    widget = pane.page_widget(100)
    assert widget is not None and widget.isVisible() and widget.state.number == 100
    assert widget.count == 120
    assert pane.page_widget(1) is None  # far behind: let go

    start = text.index("witness number 90.")
    assert pane.mark_span(start, start + len("witness number 90")) == 90
    assert pane.marked_pages() == [90]
    qtbot.waitUntil(lambda: pane.current_page() == 90, timeout=5000)
    qtbot.waitUntil(lambda: 90 in pane.rendered_pages(), timeout=5000)
    marked = pane.page_widget(90)
    assert marked is not None and marked.state.marked and pane.page_boxes(90)
    pane.close_document()
