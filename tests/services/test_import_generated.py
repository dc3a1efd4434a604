"""Importing files we make ourselves: pages, attachments, charsets, tracked changes, scripts."""

from __future__ import annotations

from pathlib import Path

import pytest

from casefile.errors import IngestError
from casefile.services.batch import import_paths, iter_import_files
from casefile.services.documents import import_file
from casefile.services.passages import add_passage_by_quote
from casefile.store import Blob, Document
from casefile.store.search import search
from tests.e2e.make_files import (
    CYRILLIC,
    KOREAN,
    docx_bytes,
    email_bytes,
    html_page,
    latin1_header_email,
    pdf_bytes,
    truncated_pdf,
    unknown_charset_email,
)


def _import(workspace, case_id: int, path: Path, data: bytes) -> Document:
    path.write_bytes(data)
    with workspace.transaction() as s:
        doc_id = import_file(s, case_id, path).document_id
    with workspace.transaction() as s:
        doc = s.get(Document, doc_id)
        assert doc is not None
        s.expunge(doc)
        return doc


def _found(workspace, case_id: int, query: str) -> list[int]:
    with workspace.transaction() as s:
        return [h.item_id for h in search(s, query, case_id)]


def test_passages_quoted_from_a_three_page_pdf_get_pages_1_2_3(
    workspace, case_id: int, tmp_path: Path
) -> None:
    pages = ["Page one: the sheriff arrived at 9:10.",
             "Page two: deputies stayed outside the building.",
             "Page three: the report is due on March 2."]
    doc = _import(workspace, case_id, tmp_path / "report.pdf", pdf_bytes(pages))
    assert doc.page_starts is not None and len(doc.page_starts) == 3
    with workspace.transaction() as s:
        got = [add_passage_by_quote(s, doc.id, quote).page for quote in (
            "the report is due on March 2", "the sheriff arrived at 9:10",
            "deputies stayed outside the building")]
    assert got == [3, 1, 2]


def test_words_of_a_pdf_attached_to_an_email_are_found_in_the_case(
    workspace, case_id: int, tmp_path: Path
) -> None:
    mail = email_bytes("The records office sent the report, attached.",
                       attachment=("incident.pdf", pdf_bytes(["Incident 18-0214",
                                                              "Deputy Quarrington waited."])))
    parent = _import(workspace, case_id, tmp_path / "mail.eml", mail)
    with workspace.transaction() as s:
        [child] = s.query(Document).filter(Document.parent_id == parent.id).all()
        blob = s.get(Blob, child.sha256)
        assert blob is not None and blob.data.startswith(b"%PDF-")
        child_id = child.id
    assert "Quarrington" not in parent.text
    assert _found(workspace, case_id, "Quarrington waited") == [child_id]


@pytest.mark.parametrize(("data", "readable", "note"), [
    (unknown_charset_email(), "Le café de la gare était fermé depuis février.",
     "Declared charset 'x-klingon' is unknown; decoded as Latin-1"),
    (latin1_header_email(), "Le maire a démissionné à Noël; la réunion est reportée.",
     "Raw 8-bit bytes in the Subject header; read as Latin-1"),
], ids=["unknown-charset", "raw-latin1"])
def test_email_in_a_wrong_or_unknown_charset_imports_readable_with_a_note(
    workspace, case_id: int, tmp_path: Path, data: bytes, readable: str, note: str
) -> None:
    doc = _import(workspace, case_id, tmp_path / "message.eml", data)
    assert readable in doc.text
    assert "\ufffd" not in doc.text + doc.title and "Ã" not in doc.text + doc.title
    assert any(note in n for n in doc.import_notes), doc.import_notes
    assert _found(workspace, case_id, readable.split()[2]) == [doc.id]


def test_latin1_subject_becomes_the_title(workspace, case_id: int, tmp_path: Path) -> None:
    doc = _import(workspace, case_id, tmp_path / "m.eml", latin1_header_email())
    assert doc.title == "Réunion à la mairie de Saint-Étienne"
    assert doc.author == "José Núñez"


def test_words_of_a_tracked_insertion_are_in_the_text_and_found(
    workspace, case_id: int, tmp_path: Path
) -> None:
    data = docx_bytes(["Draft statement of the port authority.", "The director said "],
                      inserted="the audit found missing invoices")
    doc = _import(workspace, case_id, tmp_path / "statement.docx", data)
    assert "The director said the audit found missing invoices" in doc.text
    assert _found(workspace, case_id, '"audit found missing invoices"') == [doc.id]


@pytest.mark.parametrize(("text", "encoding", "query"), [
    (CYRILLIC, "cp1251", "расследование"),
    (KOREAN, "euc-kr", "보안관은"),
], ids=["cyrillic-cp1251", "korean-euc-kr"])
def test_page_without_charset_in_a_non_latin_script_is_intact_and_found(
    workspace, case_id: int, tmp_path: Path, text: str, encoding: str, query: str
) -> None:
    doc = _import(workspace, case_id, tmp_path / "page.html", html_page(text).encode(encoding))
    assert text in doc.text
    assert doc.import_notes  # says which encoding was assumed
    assert _found(workspace, case_id, query) == [doc.id]


def test_truncated_pdf_is_refused_and_nothing_is_stored(
    workspace, case_id: int, tmp_path: Path
) -> None:
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(truncated_pdf(["one", "two", "three"]))
    with pytest.raises(IngestError, match=r"^cut\.pdf is truncated"), workspace.transaction() as s:
        import_file(s, case_id, cut)
    result = import_paths(workspace.transaction, case_id, [cut])
    assert [(o.status, o.error) for o in result.outcomes] == [
        ("failed", "cut.pdf is truncated (the file ends too early) and cannot be read")]
    with workspace.transaction() as s:
        assert s.query(Document).count() == 0 and s.query(Blob).count() == 0


def test_batch_reports_each_file_progress_and_stops_when_cancelled(
    workspace, case_id: int, tmp_path: Path
) -> None:
    folder = tmp_path / "in"
    (folder / "B-sub").mkdir(parents=True)
    (folder / ".cache").mkdir()
    (folder / "b.txt").write_text("Second note about the harbor.")
    (folder / "A.txt").write_text("First note about the harbor.")
    (folder / "B-sub" / "c.txt").write_text("Third note about the harbor.")
    (folder / "B-sub" / "empty.txt").write_bytes(b"")
    (folder / ".cache" / "x.txt").write_text("hidden")
    (folder / "~$draft.docx").write_bytes(b"lock")
    order = [p.relative_to(folder).as_posix() for p in iter_import_files([folder, folder])]
    assert order == ["A.txt", "b.txt", "B-sub/c.txt", "B-sub/empty.txt"]

    seen: list[tuple[int, int, str | None]] = []
    result = import_paths(workspace.transaction, case_id, [folder],
                          progress=lambda d, t, p: seen.append((d, t, p.name if p else None)))
    assert [o.status for o in result.outcomes] == ["imported"] * 3 + ["failed"]
    assert seen == [(0, 4, "A.txt"), (1, 4, "b.txt"), (2, 4, "c.txt"), (3, 4, "empty.txt"),
                    (4, 4, None)]
    assert result.summary() == "3 imported, 0 already there, 1 failed"

    (folder / "d.txt").write_text("Fourth note about the harbor.")
    calls = iter(range(100))
    again = import_paths(workspace.transaction, case_id, [folder],
                         cancelled=lambda: next(calls) >= 2)
    assert again.cancelled and [o.status for o in again.outcomes] == ["already there"] * 2
    assert again.summary() == "0 imported, 2 already there, 0 failed; cancelled, 3 not imported"
    with workspace.transaction() as s:
        assert s.query(Document).count() == 3  # d.txt was never reached


def test_a_title_taken_from_a_file_name_with_a_line_break_stays_on_one_line(
        workspace, case_id: int, tmp_path: Path) -> None:
    path = tmp_path / "Budget\nnotes\tdraft.txt"  # a name only a script would give
    path.write_text("x" * 200 + "\n\nThe council met on Monday.\n", encoding="utf-8")
    with workspace.transaction() as s:
        doc_id = import_file(s, case_id, path).document_id
        doc = s.get(Document, doc_id)
        assert doc is not None and doc.title == "Budget notes draft"
