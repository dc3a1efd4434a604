"""Zip containers and e-mails read within limits, on small files built here: what a reporter
sees when a Word file or an e-mail is hostile (one sentence naming the reason, or a note), and
that ordinary files still come in. The gigabyte-sized bombs run in a child process with a
memory limit in tests/e2e/test_hostile_containers.py."""

from __future__ import annotations

import io
import random
import zipfile
from email.message import EmailMessage

import pytest

from casefile.errors import IngestError
from casefile.ingest import ingest_bytes
from casefile.ingest.limits import (
    MAX_EMAIL_ATTACHMENTS,
    MiB,
    check_zip,
    shared_budget,
)
from casefile.ingest.mail import reads_as_binary
from tests.e2e.make_files import docx_bytes
from tests.e2e.zip_bombs import Member, write_zip


def _rebuilt(data: bytes, replace: dict[str, Member]) -> bytes:
    """The zip ``data`` with the members named in ``replace`` swapped for those given."""
    real = zipfile.ZipFile(io.BytesIO(data))
    members = [replace.get(i.filename) or Member.of(i.filename, real.read(i))
               for i in real.infolist()]
    out = io.BytesIO()
    write_zip(members, out)
    return out.getvalue()


def test_an_ordinary_word_file_passes_the_checks_and_imports() -> None:
    data = docx_bytes(["Port director Sam Reed signed the memo on May 2."])
    check_zip(data, "memo.docx")
    assert "Sam Reed" in ingest_bytes(data, "memo.docx").text


def test_a_part_that_expands_too_many_times_is_refused_by_its_ratio() -> None:
    body = Member.repeated("word/document.xml", b"<w:document>", b" " * MiB, 4,
                           b"</w:document>")
    data = _rebuilt(docx_bytes(["x"]), {"word/document.xml": body})
    with pytest.raises(IngestError) as caught:
        ingest_bytes(data, "memo.docx")
    message = str(caught.value)
    assert message.startswith("memo.docx was not imported: word/document.xml inside it would "
                              "expand ")
    assert message.endswith("(a zip bomb?)") and "\n" not in message


def test_a_part_whose_declared_size_lies_is_refused_as_damaged() -> None:
    real = Member.repeated("word/document.xml", b"<w:document>", b" " * MiB, 8,
                           b"</w:document>")
    real.size = 1000  # the directory says 1 KB; the data expands to 8 MB
    data = _rebuilt(docx_bytes(["x"]), {"word/document.xml": real})
    with pytest.raises(IngestError, match=r"^memo\.docx is damaged and cannot be read$"):
        ingest_bytes(data, "memo.docx")


def test_too_many_members_are_refused_with_the_count() -> None:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as zf:
        for n in range(12):
            zf.writestr(f"part{n}.xml", "<a/>")
    with pytest.raises(IngestError, match=r"holds 12 files inside, more than the 10 allowed"):
        check_zip(data.getvalue(), "many.docx", max_members=10)


def test_one_budget_is_shared_by_everything_inside_one_file() -> None:
    noise = random.Random(1).randbytes(MiB)  # does not compress: no ratio check applies
    member = Member.repeated("word/document.xml", b"<w:document>", noise, 1, b"</w:document>")
    data = _rebuilt(docx_bytes(["x"]), {"word/document.xml": member})
    check_zip(data, "one.docx")
    expanded = sum(i.file_size for i in zipfile.ZipFile(io.BytesIO(data)).infolist())
    assert MiB < expanded < 2 * MiB
    with shared_budget(total=expanded * 5 // 2) as budget:  # room for two and a half
        check_zip(data, "first.docx")
        check_zip(data, "second.docx")
        with pytest.raises(IngestError, match=r"^third\.docx was not imported: it would expand "
                                              r"to more than \d\.\d MB \(a zip bomb\?\)$"):
            check_zip(data, "third.docx")
    assert budget.left == expanded // 2


def test_random_bytes_read_as_8_bit_text_are_binary_but_prose_is_not() -> None:
    rng = random.Random(3)
    for _ in range(20):
        raw = bytes(rng.choice([b for b in range(32, 256) if b != 127]) for _ in range(200))
        assert reads_as_binary(raw, raw.decode("cp1252", errors="replace"))
    latin = "Le maire de Saint-Étienne, José Müller, a démissionné à Noël.".encode("latin-1")
    assert not reads_as_binary(latin, latin.decode("latin-1"))
    emoji = "Bravo 🎉🎉🎉 à toute l’équipe ✔✔".encode()
    assert not reads_as_binary(emoji, emoji.decode())


def _message() -> EmailMessage:
    message = EmailMessage()
    message["From"] = "Lena Ortiz <lena@example.org>"
    message["To"] = "desk@example.org"
    message["Subject"] = "Files"
    message["Date"] = "Mon, 3 Mar 2025 09:00:00 +0000"
    return message


def test_a_binary_part_is_never_stored_as_text() -> None:
    message = _message()
    message.set_content("Here are the files.")
    rng = random.Random(7)
    noise = bytes(rng.choice([b for b in range(32, 256) if b != 127]) for _ in range(300))
    message.add_attachment(noise, maintype="application", subtype="octet-stream")
    message.add_attachment(noise, maintype="text", subtype="plain", filename="noise.txt")
    message.add_attachment(b"Minutes of the harbor board, May 2.\n",
                           maintype="application", subtype="octet-stream",
                           filename="minutes.txt")
    doc = ingest_bytes(message.as_bytes(), "files.eml")
    assert [child.filename for child in doc.attachments] == ["minutes.txt"]
    assert "Attachment attachment-1.bin was not imported: attachment-1.bin is not text " \
           "(application/octet-stream)" in doc.notes
    assert "Attachment noise.txt was not imported: noise.txt is not text (binary content)" \
        in doc.notes


def test_a_text_body_of_random_bytes_is_left_out_with_a_note() -> None:
    rng = random.Random(11)
    noise = bytes(rng.choice([b for b in range(32, 256) if b != 127]) for _ in range(400))
    raw = (b"From: a@example.org\r\nTo: b@example.org\r\nSubject: Noise\r\n"
           b"Content-Type: text/plain; charset=iso-8859-1\r\n"
           b"Content-Transfer-Encoding: 8bit\r\n\r\n" + noise.replace(b"\r", b"").replace(
               b"\n", b"") + b"\r\n")
    doc = ingest_bytes(raw, "noise.eml")
    assert doc.text == "From: a@example.org\nTo: b@example.org\nSubject: Noise"
    assert "Message text (text/plain) is not text (binary content) and was left out" \
        in doc.notes


def test_attachments_over_the_cap_are_listed_not_imported() -> None:
    message = _message()
    message.set_content("Many notes.")
    for n in range(MAX_EMAIL_ATTACHMENTS + 3):
        message.add_attachment(f"Note {n} on the harbor audit.\n", filename=f"note-{n}.txt")
    doc = ingest_bytes(message.as_bytes(), "notes.eml")
    assert len(doc.attachments) == MAX_EMAIL_ATTACHMENTS
    assert len(doc.extra["attachments"]) == MAX_EMAIL_ATTACHMENTS + 3  # type: ignore[arg-type]
    assert (f"The message has more than {MAX_EMAIL_ATTACHMENTS} attachments; only the first "
            f"{MAX_EMAIL_ATTACHMENTS} were imported (all are listed)") in doc.notes


def test_an_ordinary_attached_word_file_still_imports() -> None:
    message = _message()
    message.set_content("The memo is attached.")
    message.add_attachment(docx_bytes(["The director resigned on Monday."]),
                           maintype="application",
                           subtype="vnd.openxmlformats-officedocument.wordprocessingml.document",
                           filename="memo.docx")
    doc = ingest_bytes(message.as_bytes(), "memo.eml")
    assert [c.filename for c in doc.attachments] == ["memo.docx"]
    assert "The director resigned on Monday." in doc.attachments[0].text


def test_random_bytes_of_a_fuzzer_never_escape_as_another_error() -> None:
    rng = random.Random(5)
    good = docx_bytes(["A line."])
    for _ in range(30):
        data = bytearray(good)
        for _ in range(5):
            data[rng.randrange(len(data))] = rng.randrange(256)
        try:
            check_zip(bytes(data), "fuzzed.docx")
        except IngestError as exc:
            assert str(exc).startswith("fuzzed.docx ")


def test_a_word_file_whose_entities_expand_into_one_another_is_named_an_xml_bomb() -> None:
    data = docx_bytes(["Port director Sam Reed signed the memo."])
    xml = zipfile.ZipFile(io.BytesIO(data)).read("word/document.xml").decode()
    levels = ['<!ENTITY e0 "laugh">'] + [
        f'<!ENTITY e{k} "{f"&e{k - 1};" * 10}">' for k in range(1, 10)]
    head, _, rest = xml.partition("?>")
    bomb = (f"{head}?><!DOCTYPE w:document [{''.join(levels)}]>{rest}").replace(
        "Sam Reed signed", "Sam Reed &e9; signed")
    data = _rebuilt(data, {"word/document.xml": Member.of("word/document.xml", bomb.encode())})
    with pytest.raises(IngestError, match=r"^memo\.docx defines XML entities that expand into "
                                          r"one another \(an 'XML bomb'"):
        ingest_bytes(data, "memo.docx")
