"""Email: headers as metadata, body choice, charsets and their fallbacks, attachments, mbox."""

from __future__ import annotations

import mailbox
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from ingest_helpers import make_pdf

from casefile.errors import IngestError
from casefile.ingest import ingest_bytes


def _message(**headers: str) -> EmailMessage:
    message = EmailMessage(policy=policy.default)
    defaults = {
        "From": "Maria Lopez <mlopez@example.org>",
        "To": "Desk <desk@example.org>, Sam Ray <sam@example.org>",
        "Cc": "Editor <editor@example.org>",
        "Date": "Fri, 23 Feb 2018 16:05:00 -0500",
        "Subject": "Coral Springs report",
        "Message-ID": "<abc123@example.org>",
    }
    for name, value in {**defaults, **headers}.items():
        message[name] = value
    return message


def test_headers_become_metadata_and_a_readable_header_block() -> None:
    message = _message()
    message.set_content("The report will be ready in about a week.\n")
    doc = ingest_bytes(message.as_bytes(), "report.eml")
    assert doc.mime_type == "message/rfc822"
    assert doc.kind == "email"
    assert doc.title == "Coral Springs report"
    assert doc.author == "Maria Lopez"
    assert doc.published == "2018-02-23"
    assert doc.extra["date"] == "2018-02-23T16:05:00-05:00"
    assert doc.extra["from"] == ["Maria Lopez <mlopez@example.org>"]
    assert doc.extra["to"] == ["Desk <desk@example.org>", "Sam Ray <sam@example.org>"]
    assert doc.extra["cc"] == ["Editor <editor@example.org>"]
    assert doc.extra["message_id"] == "<abc123@example.org>"
    assert {"name": "Sam Ray", "address": "sam@example.org", "role": "to"} in doc.extra["people"]
    assert doc.text.startswith("From: Maria Lopez <mlopez@example.org>\n")
    assert doc.text.endswith("\n\nThe report will be ready in about a week.")
    assert doc.notes == []


def test_plain_text_is_preferred_over_html_and_html_alone_becomes_text() -> None:
    message = _message()
    message.set_content("Plain version of the note.")
    message.add_alternative("<html><body><p>HTML <b>version</b></p></body></html>",
                            subtype="html")
    doc = ingest_bytes(message.as_bytes(), "alt.eml")
    assert "Plain version of the note." in doc.text
    assert "HTML version" not in doc.text

    html_only = _message()
    html_only.set_content("<html><body><p>Only <i>HTML</i> here</p><p>Second para</p>"
                          "<script>x()</script></body></html>", subtype="html")
    doc = ingest_bytes(html_only.as_bytes(), "html.eml")
    assert "Only HTML here\n\nSecond para" in doc.text
    assert "<p>" not in doc.text and "x()" not in doc.text


def test_pdf_attachment_becomes_searchable_text() -> None:
    message = _message()
    message.set_content("Attached is the incident report.")
    pdf = make_pdf(["Incident 18-0214\nDeputy Peterson remained outside."])
    message.add_attachment(pdf, maintype="application", subtype="pdf",
                           filename="incident.pdf")
    doc = ingest_bytes(message.as_bytes(), "with-pdf.eml")
    assert "Attachments: incident.pdf" in doc.text
    assert len(doc.attachments) == 1
    child = doc.attachments[0]
    assert child.mime_type == "application/pdf"
    assert child.filename == "incident.pdf"
    assert "Deputy Peterson remained outside." in child.text
    assert child.original == pdf
    assert child.page_starts == [0]


def test_unreadable_attachment_is_noted_not_fatal() -> None:
    message = _message()
    message.set_content("See the scan and the data.")
    message.add_attachment(b"\x89PNG\r\n\x1a\n" + b"\x00" * 50, maintype="image",
                           subtype="png", filename="logo.png")
    message.add_attachment(bytes(range(256)) * 4, maintype="application",
                           subtype="octet-stream", filename="dump.bin")
    doc = ingest_bytes(message.as_bytes(), "mixed.eml")
    assert "See the scan and the data." in doc.text
    assert doc.attachments == []
    assert "Images attached, not imported (no text): logo.png" in doc.notes
    assert "Attachment dump.bin was not imported: dump.bin is not text (binary content)" \
        in doc.notes


def test_unknown_charset_is_decoded_with_a_stated_fallback() -> None:
    raw = (
        b"From: a@example.org\nTo: b@example.org\nSubject: =?x-klingon?q?caf=E9?=\n"
        b"MIME-Version: 1.0\nContent-Type: text/plain; charset=x-klingon\n"
        b"Content-Transfer-Encoding: 8bit\n\nLe caf\xe9 \xe9tait ferm\xe9.\n"
    )
    doc = ingest_bytes(raw, "unknown.eml")
    assert "Le caf\u00e9 \u00e9tait ferm\u00e9." in doc.text
    assert doc.title == "caf\u00e9"
    assert "Message text (text/plain): Declared charset 'x-klingon' is unknown; decoded as " \
        "Latin-1 (ISO-8859-1)" in doc.notes
    assert any(note.startswith("Subject header: unknown charset 'x-klingon'")
               for note in doc.notes)


def test_raw_latin1_bytes_in_subject_and_body_are_read_sensibly() -> None:
    raw = (
        "From: Jos\u00e9 N\u00fa\u00f1ez <jose@example.org>\nTo: b@example.org\n"
        "Subject: R\u00e9union \u00e0 la mairie\nDate: Fri, 23 Feb 2018 10:00:00 -0500\n\n"
        "Le caf\u00e9 \u00e9tait ferm\u00e9.\n"
    ).encode("latin-1")
    doc = ingest_bytes(raw, "latin1.eml")
    assert doc.title == "R\u00e9union \u00e0 la mairie"
    assert doc.author == "Jos\u00e9 N\u00fa\u00f1ez"
    assert "Le caf\u00e9 \u00e9tait ferm\u00e9." in doc.text
    assert "Raw 8-bit bytes in the Subject header; read as Latin-1 (ISO-8859-1)" in doc.notes
    assert any("Not valid UTF-8; decoded as Latin-1" in note for note in doc.notes)


def test_declared_charset_that_does_not_fit_is_noted() -> None:
    raw = (
        b"From: a@example.org\nSubject: wrong\nMIME-Version: 1.0\n"
        b"Content-Type: text/plain; charset=us-ascii\nContent-Transfer-Encoding: 8bit\n\n"
        + "Ni\u00f1o \u2014 \u201cquoted\u201d".encode()
    )
    doc = ingest_bytes(raw, "wrong.eml")
    assert "Ni\u00f1o \u2014 \u201cquoted\u201d" in doc.text
    assert any("Declared charset 'us-ascii' does not fit the bytes; decoded as UTF-8" in note
               for note in doc.notes)


def test_attached_message_is_a_child_email() -> None:
    inner = _message(Subject="Original tip")
    inner.set_content("The tip itself.")
    outer = _message(Subject="Fwd: Original tip")
    outer.set_content("Forwarding this.")
    outer.add_attachment(inner)
    doc = ingest_bytes(outer.as_bytes(), "fwd.eml")
    assert [child.title for child in doc.attachments] == ["Original tip"]
    assert "The tip itself." in doc.attachments[0].text
    assert "The tip itself." not in doc.text


def test_mbox_gives_one_child_per_message_and_an_index(tmp_path: Path) -> None:
    first = _message(Subject="First")
    first.set_content("From the first line of the body.\nMore.")
    second = _message(Subject="Second", From="Other <other@example.org>")
    second.set_content("Second body.")
    box = mailbox.mbox(tmp_path / "inbox.mbox")
    for message in (first, second):
        box.add(message)
    box.close()
    doc = ingest_bytes((tmp_path / "inbox.mbox").read_bytes(), "inbox.mbox")
    assert doc.mime_type == "application/mbox"
    assert doc.title == "inbox (2 messages)"
    assert [child.title for child in doc.attachments] == ["First", "Second"]
    assert "the first line of the body." in doc.attachments[0].text
    assert "Second body." in doc.attachments[1].text
    assert doc.attachments[1].author == "Other"
    assert doc.attachments[1].original is not None
    index_line = "2. 2018-02-23 \u2014 Other <other@example.org> \u2014 Second"
    assert doc.text.splitlines()[1] == index_line


MBOX_WITH_FROM_LINES = (
    b"From alice@example.org Fri Feb 23 10:00:00 2018\n"
    b"From: Alice <alice@example.org>\n"
    b"To: desk@example.org\n"
    b"Subject: Timeline\n"
    b"Date: Fri, 23 Feb 2018 10:00:00 +0000\n"
    b"\n"
    b"Here is the order of events.\n"
    b"\n"
    b"From the first call to the last, nine minutes passed.\n"
    b">From the dispatcher: units on scene.\n"
    b">>From a quoted reply.\n"
    b"\n"
    b"From bob@example.org Fri Feb 23 11:00:00 2018\n"
    b"From: Bob <bob@example.org>\n"
    b"Subject: Re: Timeline\n"
    b"Date: Fri, 23 Feb 2018 11:00:00 +0000\n"
    b"\n"
    b"Thanks.\n"
)


def test_mbox_keeps_from_body_lines_and_unquotes_them() -> None:
    doc = ingest_bytes(MBOX_WITH_FROM_LINES, "timeline.mbox")
    assert [child.title for child in doc.attachments] == ["Timeline", "Re: Timeline"]
    assert doc.notes == []
    body = doc.attachments[0].text
    # an unquoted "From " line after a blank line stays in its message
    assert "\nFrom the first call to the last, nine minutes passed.\n" in body
    # mboxrd quoting undone: one ">" removed
    assert "\nFrom the dispatcher: units on scene.\n" in body
    assert "\n>From a quoted reply." in body
    assert doc.attachments[1].text.endswith("Thanks.")


def test_mbox_written_by_python_reads_back_as_written(tmp_path: Path) -> None:
    message = _message(Subject="Quoted")
    message.set_content("Intro.\nFrom here on, the log.\n>From a reply.\nEnd.")
    box = mailbox.mbox(tmp_path / "out.mbox")
    box.add(message)
    box.close()
    assert b"\n>From here on" in (tmp_path / "out.mbox").read_bytes()
    doc = ingest_bytes((tmp_path / "out.mbox").read_bytes(), "out.mbox")
    assert "Intro.\nFrom here on, the log.\n" in doc.attachments[0].text


def _nested(depth: int) -> bytes:
    """A message whose text sits inside ``depth`` multipart containers, one in the other."""
    inner = "Content-Type: text/plain\n\nThe dredging contract was signed early.\n"
    for level in range(depth):
        mark = f"=_level{level}_="
        inner = (f'Content-Type: multipart/mixed; boundary="{mark}"\n\n--{mark}\n{inner}\n'
                 f"--{mark}--\n")
    return f"From: a@example.org\nSubject: nested\nMIME-Version: 1.0\n{inner}".encode()


def test_text_inside_two_hundred_nested_containers_is_read() -> None:
    doc = ingest_bytes(_nested(250), "nested.eml")
    assert "dredging contract was signed" in doc.text
    assert not any("parts" in note for note in doc.notes)


def test_a_message_nested_thousands_deep_is_refused_naming_the_nesting() -> None:
    with pytest.raises(IngestError) as refused:
        ingest_bytes(_nested(3000), "nested.eml")
    assert str(refused.value).startswith("nested.eml nests parts within parts too deeply")
    assert "RecursionError" not in str(refused.value)
