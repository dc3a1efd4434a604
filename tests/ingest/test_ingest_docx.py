"""Word .docx: reading order, tracked changes, content controls, headers apart, comments."""

from __future__ import annotations

import copy
import io
import zipfile

import docx
import pytest
from docx.oxml.ns import qn
from docx.oxml.parser import OxmlElement

from casefile.errors import IngestError
from casefile.ingest import ingest_bytes
from tests.e2e.make_files import docx_run as _run

DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def _save(document: docx.document.Document) -> bytes:
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def _tracked(tag: str, text: str) -> OxmlElement:
    """A w:ins or w:del revision holding one run (deleted runs hold w:delText)."""
    change = OxmlElement(tag)
    change.set(qn("w:id"), "1")
    change.set(qn("w:author"), "Editor")
    run = _run(text)
    if tag == "w:del":
        t = run[0]
        deleted = OxmlElement("w:delText")
        deleted.text = t.text
        run.replace(t, deleted)
    change.append(run)
    return change


def _sample() -> docx.document.Document:
    document = docx.Document()
    document.core_properties.author = "Records Unit"
    document.add_heading("Use of force review", level=1)
    document.add_paragraph("First paragraph before the table.")
    table = document.add_table(rows=2, cols=2)
    for r, row in enumerate([("Name", "Rank"), ("Scot Peterson", "Deputy")]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    document.add_paragraph("Paragraph after the table.")
    section = document.sections[0]
    section.header.paragraphs[0].text = "CONFIDENTIAL DRAFT"
    section.footer.paragraphs[0].text = "Page footer text"
    return document


def test_body_and_tables_in_reading_order_with_headers_apart() -> None:
    doc = ingest_bytes(_save(_sample()), "review.docx")
    assert doc.mime_type == DOCX_MIME
    assert doc.title == "Use of force review"
    assert doc.author == "Records Unit"
    body_end = doc.extra["body_end"]
    assert isinstance(body_end, int)
    body = doc.text[:body_end]
    assert body == (
        "Use of force review\nFirst paragraph before the table.\nName | Rank\n"
        "Scot Peterson | Deputy\nParagraph after the table."
    )
    assert "CONFIDENTIAL DRAFT" not in body
    assert doc.text[body_end:] == (
        "\n\n[Page headers]\nCONFIDENTIAL DRAFT\n\n[Page footers]\nPage footer text"
    )
    assert doc.extra["headers"] == ["CONFIDENTIAL DRAFT"]
    assert doc.extra["footers"] == ["Page footer text"]


def test_tracked_insertion_kept_and_deletion_left_out() -> None:
    document = docx.Document()
    paragraph = document.add_paragraph("The sheriff said ")
    paragraph._p.append(_tracked("w:ins", "three deputies "))
    paragraph._p.append(_tracked("w:del", "nobody "))
    paragraph._p.append(_run("waited outside."))
    doc = ingest_bytes(_save(document), "tracked.docx")
    assert doc.text == "The sheriff said three deputies waited outside."


def test_content_controls_block_and_inline_are_kept() -> None:
    document = docx.Document()
    inline = document.add_paragraph("Case number: ")
    sdt = OxmlElement("w:sdt")
    content = OxmlElement("w:sdtContent")
    content.append(_run("18-0214"))
    sdt.append(content)
    inline._p.append(sdt)
    block = OxmlElement("w:sdt")
    block_content = OxmlElement("w:sdtContent")
    holder = document.add_paragraph("Text inside a block content control.")
    block_content.append(copy.deepcopy(holder._p))
    holder._p.getparent().replace(holder._p, block)
    block.append(block_content)
    doc = ingest_bytes(_save(document), "controls.docx")
    assert doc.text == "Case number: 18-0214\nText inside a block content control."


def _commented() -> bytes:
    document = docx.Document()
    paragraph = document.add_paragraph("Deputies arrived at ")
    anchored = paragraph.add_run("14:23")
    paragraph.add_run(".")
    document.add_comment(anchored, text="Check against the CAD log.", author="Maria Lopez")
    return _save(document)


def test_comments_become_notes_and_a_section_after_the_body() -> None:
    doc = ingest_bytes(_commented(), "commented.docx")
    assert doc.text == ("Deputies arrived at 14:23.\n\n[Comments]\n"
                        "Maria Lopez on \u201c14:23\u201d: Check against the CAD log.")
    assert doc.extra["body_end"] == len("Deputies arrived at 14:23.")
    assert doc.notes == ["Comment by Maria Lopez on \u201c14:23\u201d: Check against the CAD log."]


def test_a_reviewer_comment_is_found_by_search(sqlite_workspace, tmp_path) -> None:
    from casefile.services.cases import create_case
    from casefile.services.documents import import_file
    from casefile.store.search import search

    path = tmp_path / "commented.docx"
    path.write_bytes(_commented())
    with sqlite_workspace.transaction() as s:
        case = create_case(s, "Comments")
        s.flush()
        case_id = case.id
        doc_id = import_file(s, case_id, path).document_id
    with sqlite_workspace.transaction() as s:
        assert [hit.item_id for hit in search(s, "CAD log", case_id)] == [doc_id]


def test_docx_named_pdf_is_read_as_word() -> None:
    doc = ingest_bytes(_save(_sample()), "scan.pdf")
    assert doc.mime_type == DOCX_MIME
    assert "Scot Peterson | Deputy" in doc.text


def test_damaged_docx_is_refused_clearly() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types")
        archive.writestr("word/document.xml", "<w:document><unclosed")
    with pytest.raises(IngestError, match=r"^broken\.docx is damaged and cannot be read"):
        ingest_bytes(buffer.getvalue(), "broken.docx")


def test_empty_docx_is_refused() -> None:
    with pytest.raises(IngestError, match=r"^blank\.docx has no text$"):
        ingest_bytes(_save(docx.Document()), "blank.docx")


def test_password_protected_office_file_says_so() -> None:
    fake = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 64 + "EncryptionInfo".encode("utf-16-le")
    with pytest.raises(IngestError, match=r"^locked\.docx is password-protected"):
        ingest_bytes(fake, "locked.docx")


def test_truncated_docx_is_called_damaged_not_binary() -> None:
    data = _save(_sample())
    with pytest.raises(IngestError, match=r"^cut\.docx is damaged and cannot be read$"):
        ingest_bytes(data[: len(data) // 2], "cut.docx")
