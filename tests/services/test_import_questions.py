"""The one import function's questions, answered by a plain callable (as a script would): the
password of an encrypted PDF imported on its own, asked until right, and the date question,
with each file read once."""

from __future__ import annotations

from datetime import date
from io import BytesIO
from pathlib import Path

from casefile.ingest import pool
from casefile.services import imports
from casefile.services.prompts import DateAnswer, DateQuestion, PasswordQuestion, Question
from casefile.store import Document
from tests.e2e.make_files import pdf_bytes


def _sealed(path: Path, password: str) -> Path:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for page in PdfReader(BytesIO(pdf_bytes(["Sealed memo about the audit."]))).pages:
        writer.add_page(page)
    writer.encrypt(password)
    with path.open("wb") as out:
        writer.write(out)
    return path


def test_an_encrypted_pdf_is_asked_for_until_its_password_opens_it(workspace, case_id,
                                                                    tmp_path: Path) -> None:
    sealed = _sealed(tmp_path / "memo.pdf", "s3cret")
    asked: list[Question] = []
    answers = iter(["guess", "s3cret"])

    def ask(question):
        asked.append(question)
        if isinstance(question, PasswordQuestion):
            return next(answers)
        return DateAnswer(date(2021, 4, 5))

    done = imports.import_documents(workspace.transaction, case_id, [sealed], ask=ask)
    assert asked[:2] == [PasswordQuestion(sealed, wrong=False), PasswordQuestion(sealed, True)]
    assert done.count("imported") == 1 and not done.cancelled
    with workspace.transaction() as s:
        (doc,) = s.query(Document).all()
        assert "Sealed memo" in doc.text


def test_declining_the_password_stores_nothing(workspace, case_id, tmp_path: Path) -> None:
    sealed = _sealed(tmp_path / "memo.pdf", "s3cret")
    done = imports.import_documents(workspace.transaction, case_id, [sealed],
                                    ask=lambda question: None)
    assert done.cancelled and not done.outcomes
    with workspace.transaction() as s:
        assert s.query(Document).count() == 0


def test_one_undated_file_is_asked_about_and_read_once(workspace, case_id, tmp_path: Path,
                                                       monkeypatch) -> None:
    note = tmp_path / "tip.txt"
    note.write_text("A tip about the harbor audit, with no date.", encoding="utf-8")
    reads: list[str] = []
    real = pool.read_one

    def counted(data, filename, password):
        reads.append(filename)
        return real(data, filename, password)

    monkeypatch.setattr(pool, "read_one", counted)
    asked: list[Question] = []

    def ask(question):
        asked.append(question)
        return DateAnswer(date(2019, 3, 4))

    done = imports.import_documents(workspace.transaction, case_id, [note], ask=ask, workers=0)
    ((question,),) = [[q for q in asked if isinstance(q, DateQuestion)]]
    assert question.files == (note,) and question.position is None
    assert done.count("imported") == 1
    assert reads == ["tip.txt"]  # the date check's parse is the one stored
    with workspace.transaction() as s:
        (doc,) = s.query(Document).all()
        assert doc.published == date(2019, 3, 4)
        assert "Published date given at import: 2019-03-04" in doc.import_notes
