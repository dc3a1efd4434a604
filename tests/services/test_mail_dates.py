"""An e-mail that says when it was sent is never asked for a published date: its Date header
in the standard's form or another common one, and a mailbox whose messages all have one (each
message keeping its own date when the mailbox is imported)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from sqlalchemy import select

from casefile.services import documents
from casefile.services.undated import files_without_date
from casefile.store import Document


def _mail(date_header: str, subject: str = "Fees") -> bytes:
    return (f"From: Ana Ruiz <ana@example.org>\r\nTo: desk@example.org\r\nSubject: {subject}\r\n"
            f"Date: {date_header}\r\nMessage-ID: <{subject}@example.org>\r\n\r\n"
            "The fees rose again on Tuesday, the harbour office said.\r\n").encode()


def test_e_mails_with_a_date_header_are_not_asked(workspace, case_id, tmp_path: Path) -> None:
    files = {
        "standard.eml": _mail("Wed, 2 Dec 2026 10:15:00 +0100"),
        "iso.eml": _mail("2026-11-30 08:05:00"),
        "written.eml": _mail("Friday, November 27, 2026 9:12 AM"),
        "undated.eml": (b"From: ana@example.org\r\nTo: desk@example.org\r\nSubject: No date"
                        b"\r\n\r\nThe fees rose.\r\n"),
        "box.mbox": b"".join(b"From ana@example.org Mon Nov 30 08:00:00 2026\n" + _mail(d, s)
                             + b"\n" for d, s in (("Mon, 30 Nov 2026 08:00:00 +0000", "one"),
                                                  ("Tue, 1 Dec 2026 09:00:00 +0000", "two"))),
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    with workspace.transaction() as s:
        asked = files_without_date(s, case_id, [tmp_path / n for n in files])
    assert [p.name for p in asked] == ["undated.eml"]
    with workspace.transaction() as s:  # a date given for the mailbox does not re-date its mail
        documents.import_file(s, case_id, tmp_path / "box.mbox", published="2020-01-01")
    with workspace.transaction() as s:
        days = {d.title: d.published for d in s.scalars(select(Document).where(
            Document.case_id == case_id, Document.parent_id.is_not(None)))}
    assert days == {"one": date(2026, 11, 30), "two": date(2026, 12, 1)}
