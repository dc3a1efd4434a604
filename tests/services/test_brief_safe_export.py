"""Safe exports of the brief: neutral metadata, and the self-check that refuses a PDF
holding a withheld name or contact detail, deleting the file and naming the string and place."""

from __future__ import annotations

import io
import re
import socket
from datetime import date
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import StreamObject

from casefile.errors import CasefileError
from casefile.export import brief as brief_renderer
from casefile.export.pdf_check import ProtectedStringFoundError, find_protected
from casefile.ingest.types import Ingested
from casefile.services import brief, cases, documents, evidence, items, passages

BODY = ("Deputy Quill Ashbury said the gate was locked. Call him on (954) 555-0187 or write "
        "to qashbury@example.org. Harlan Voss, the county clerk, declined to comment.")


def _case(workspace, case_id: int) -> None:
    """A confidential source whose name, surname, alias and contact details sit in a passage
    quoted as evidence for a person who is not confidential."""
    with workspace.transaction() as s:
        doc = documents.store_document(
            s, case_id, BODY.encode(), Ingested(text=BODY, mime_type="text/plain",
                                                title="Notes from the gate"),
            filename="gate.txt", published="2024-02-01",
        )
        items.create_item(s, case_id, "person", "Quill Ashbury", confidential=True,
                          aliases=["the gatekeeper"],
                          contact="cell (954) 555-0187, qashbury@example.org")
        clerk = items.create_item(s, case_id, "person", "Harlan Voss", role="County clerk")
        p = passages.add_passage(s, doc.document_id, 0, len(BODY))
        evidence.link_evidence(s, clerk.id, passage_id=p.id)
        items.create_item(s, case_id, "question", "Ask the gatekeeper about Ashbury's keys",
                          question_kind="call back")



def _briefed_case(workspace, case_id: int, folder: Path) -> Path:
    """:func:`_case`, and its brief exported to ``folder``/brief.pdf (returned)."""
    _case(workspace, case_id)
    out = folder / "brief.pdf"
    with workspace.transaction() as s:
        brief.export_brief(s, case_id, out, today=date(2024, 3, 1))
    return out

def _readable_bytes(pdf: Path) -> bytes:
    """The file's bytes outside streams, plus every stream decoded except embedded font
    programs (binary glyph data, where any short string turns up by chance)."""
    raw = pdf.read_bytes()
    out = [re.sub(rb"stream\r?\n.*?endstream", b"", raw, flags=re.DOTALL)]
    reader = PdfReader(str(pdf))
    for number in range(1, int(reader.trailer["/Size"])):
        obj = reader.get_object(number)
        if isinstance(obj, StreamObject) and "/Length1" not in obj:
            out.append(obj.get_data())
    return b"\n".join(out)


def _every_text(pdf: Path) -> str:
    reader = PdfReader(str(pdf))
    parts = [page.extract_text() or "" for page in reader.pages]
    parts += [f"{k}={v}" for k, v in (reader.metadata or {}).items()]
    parts += [str(o) for o in reader.outline]
    return "\n".join(parts)


def test_metadata_names_no_user_path_or_machine(
    workspace, case_id, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("USER", "zqvuserx")
    monkeypatch.setenv("LOGNAME", "zqvuserx")
    folder = tmp_path / "Zqvfolder-private"  # a brief saved in a folder that names someone
    folder.mkdir()
    out = _briefed_case(workspace, case_id, folder)
    raw = _readable_bytes(out)
    reader = PdfReader(str(out))
    meta = {k: str(v) for k, v in (reader.metadata or {}).items()}
    assert meta["/Title"] == "Test case"
    assert meta["/Producer"] == meta["/Creator"] == "Casefile"
    assert meta.get("/Author", "") == ""
    assert "ReportLab" not in meta["/Producer"]
    host = socket.gethostname()
    for secret in ("zqvuserx", "Zqvfolder", host, str(tmp_path)):
        assert secret.encode() not in raw, secret
        assert all(secret not in v for v in meta.values()), (secret, meta)
    assert "/Metadata" not in reader.trailer["/Root"]  # no XMP stream to hide anything in


def test_withheld_source_leaves_no_trace_and_the_check_passes(
    workspace, case_id, tmp_path: Path
) -> None:
    out = _briefed_case(workspace, case_id, tmp_path)
    text = _every_text(out)
    assert "Harlan Voss" in text and "declined to comment" in text
    assert "[withheld]" in text
    for secret in ("Ashbury", "Quill", "gatekeeper", "555-0187", "qashbury@example.org"):
        assert secret.casefold() not in text.casefold(), secret


def test_a_leak_deletes_the_file_and_names_the_string_and_place(
    workspace, case_id, tmp_path: Path
) -> None:
    # The case title is printed as it is (title page, every header, metadata Title): a case
    # named after its confidential source would give the source away.
    _case(workspace, case_id)
    with workspace.transaction() as s:
        cases.get_case(s, case_id).title = "Ashbury and the locked gate"
    folder = tmp_path / "out"
    folder.mkdir()
    out = folder / "brief.pdf"
    with workspace.transaction() as s, pytest.raises(ProtectedStringFoundError) as caught:
        brief.export_brief(s, case_id, out, today=date(2024, 3, 1))
    assert isinstance(caught.value, CasefileError)  # one line in the CLI and the window
    assert caught.value.found == "Ashbury" and caught.value.place == "text of page 1"
    assert "'Ashbury'" in str(caught.value) and "text of page 1" in str(caught.value)
    assert list(folder.iterdir()) == []  # no brief, no temporary file


def test_an_earlier_brief_at_the_path_is_not_replaced_by_a_leaking_one(
    workspace, case_id, tmp_path: Path
) -> None:
    out = _briefed_case(workspace, case_id, tmp_path)
    before = out.read_bytes()
    with workspace.transaction() as s:
        cases.get_case(s, case_id).title = "Calls to (954) 555-0187"
    with workspace.transaction() as s, pytest.raises(ProtectedStringFoundError) as caught:
        brief.export_brief(s, case_id, out, today=date(2024, 3, 1))
    assert caught.value.found == "(954) 555-0187"
    assert out.read_bytes() == before


def test_a_renderer_that_prints_a_withheld_alias_is_caught_in_the_bookmarks(
    workspace, case_id, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A later change to the renderer that put a withheld alias into a bookmark: refused too.
    _case(workspace, case_id)
    real_canvas = brief_renderer._NumberedCanvas

    class Leaky(real_canvas):  # type: ignore[misc, valid-type]
        def showPage(self) -> None:  # noqa: N802 - reportlab's name
            if self.getPageNumber() == 1:
                self.bookmarkPage("leak")
                self.addOutlineEntry("The Gatekeeper", "leak", level=0)
            super().showPage()

    monkeypatch.setattr(brief_renderer, "_NumberedCanvas", Leaky)
    out = tmp_path / "brief.pdf"
    with workspace.transaction() as s, pytest.raises(ProtectedStringFoundError) as caught:
        brief.export_brief(s, case_id, out, today=date(2024, 3, 1))
    assert (caught.value.found, caught.value.place) == ("the gatekeeper", "bookmark")
    assert not out.exists()


def test_a_file_object_receives_nothing_when_the_check_fails(
    workspace, case_id
) -> None:
    _case(workspace, case_id)
    with workspace.transaction() as s:
        cases.get_case(s, case_id).title = "Quill Ashbury"
    buffer = io.BytesIO()
    with workspace.transaction() as s, pytest.raises(ProtectedStringFoundError) as caught:
        brief.export_brief(s, case_id, buffer, today=date(2024, 3, 1))
    assert caught.value.found == "Quill Ashbury"
    assert buffer.getvalue() == b""


def test_matching_is_whole_words_across_line_breaks_and_apostrophes(tmp_path: Path) -> None:
    from casefile.export.brief_data import BriefData

    out = tmp_path / "b.pdf"
    brief_renderer.render_brief(
        BriefData(case_title="Annual O\u2019Neil review", generated="2024-03-01",
                  summary="Annually reviewed."),
        out,
    )
    assert find_protected(out, ["Ann"]) is None  # not a word of "Annual"
    found = find_protected(out, ["o'neil"])
    assert found is not None and found.place == "text of page 1"
    meta = find_protected(out, ["review"])
    assert meta is not None and meta.place == "text of page 1"
