"""Files the tests make themselves: PDFs, emails, Word files, web pages, and broken ones.

Everything is deterministic (seeded), so a failing test fails the same way again. ``mixed_folder``
writes a folder of good and bad files of every kind and returns what each file should give.
"""

from __future__ import annotations

import io
import random
import zipfile
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import docx
from docx.oxml.ns import qn
from docx.oxml.parser import OxmlElement
from reportlab.pdfgen import canvas

from tests.ingest.ingest_helpers import make_pdf

CYRILLIC = ("Полиция округа Броуард начала расследование после стрельбы в школе. "
            "Шериф заявил журналистам, что отчёт будет готов через неделю.")
KOREAN = ("경찰은 학교 총격 사건 이후 조사를 시작했다. 보안관은 기자들에게 보고서가 "
          "일주일 후에 준비될 것이라고 말했다.")


def pdf_bytes(pages: list[str], *, title: str | None = None) -> bytes:
    """A PDF with one page per string (lines split on newlines), made with reportlab, the
    same bytes on every run."""
    return make_pdf(pages, title=title, invariant=True)



def write_encrypted_pdf(path: Path, password: str = "secret") -> None:
    """Write a one-page PDF encrypted with ``password`` to ``path``."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for page in PdfReader(io.BytesIO(pdf_bytes(["Sealed memo about the audit."]))).pages:
        writer.add_page(page)
    writer.encrypt(password)
    with path.open("wb") as out:
        writer.write(out)

def truncated_pdf(pages: list[str]) -> bytes:
    """The first half of a real PDF: what an interrupted download leaves."""
    data = pdf_bytes(pages)
    return data[: len(data) // 2]


def email_bytes(body: str, *, subject: str = "Records request",
                attachment: tuple[str, bytes] | None = None, message_id: str = "<a1@example.org>"
                ) -> bytes:
    """An RFC 5322 message from a press officer, optionally with one attached file."""
    message = EmailMessage(policy=policy.default)
    message["From"] = "Dana Whitfield <dwhitfield@example.org>"
    message["To"] = "Desk <desk@example.org>"
    message["Date"] = "Fri, 23 Feb 2018 16:05:00 -0500"
    message["Subject"] = subject
    message["Message-ID"] = message_id
    message.set_content(body)
    if attachment is not None:
        name, data = attachment
        maintype, subtype = ("application", "pdf") if name.endswith(".pdf") else (
            "application", "octet-stream")
        message.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return message.as_bytes()


def unknown_charset_email() -> bytes:
    """A message whose declared charset no decoder knows (the bytes are really Latin-1)."""
    return (
        b"From: a@example.org\nTo: b@example.org\nSubject: =?x-klingon?q?caf=E9_ferm=E9?=\n"
        b"MIME-Version: 1.0\nContent-Type: text/plain; charset=x-klingon\n"
        b"Content-Transfer-Encoding: 8bit\n\nLe caf\xe9 de la gare \xe9tait ferm\xe9 "
        b"depuis f\xe9vrier.\n"
    )


def latin1_header_email() -> bytes:
    """A message with raw Latin-1 bytes in Subject and body and no MIME declaration at all."""
    return (
        "From: José Núñez <jose@example.org>\nTo: b@example.org\n"
        "Subject: Réunion à la mairie de Saint-Étienne\n"
        "Date: Fri, 23 Feb 2018 10:00:00 -0500\n\n"
        "Le maire a démissionné à Noël; la réunion est reportée.\n"
    ).encode("latin-1")


def docx_run(text: str) -> Any:
    run = OxmlElement("w:r")
    t = OxmlElement("w:t")
    t.text = text
    t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    run.append(t)
    return run


def docx_bytes(paragraphs: list[str], *, inserted: str | None = None) -> bytes:
    """A Word file; with ``inserted``, the last paragraph ends with that text as a tracked
    insertion (w:ins by "Editor") that nobody has accepted yet."""
    document = docx.Document()
    for text in paragraphs:
        paragraph = document.add_paragraph(text)
    if inserted is not None:
        change = OxmlElement("w:ins")
        change.set(qn("w:id"), "1")
        change.set(qn("w:author"), "Editor")
        change.set(qn("w:date"), "2018-02-23T10:00:00Z")
        change.append(docx_run(inserted))
        paragraph._p.append(change)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def html_page(text: str, *, title: str | None = None) -> str:
    """A small article page with no charset declared anywhere."""
    head = f"<head><title>{title}</title></head>" if title else ""
    return f"<html>{head}<body><article><p>{text}</p></article></body></html>"


def png_bytes() -> bytes:
    """The start of a PNG image (an image is refused: there is no text to import)."""
    return b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(40)


def zip_bytes() -> bytes:
    """A ZIP archive holding one text file (refused: unpack it first)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("inside.txt", "text inside an archive")
    return buffer.getvalue()


def _sentence(rng: random.Random, n: int) -> str:
    people = ["Lena Ortiz", "Sam Reed", "Ada Kowalski", "Omar Haddad", "Rita Blum"]
    places = ["the harbor office", "City Hall", "the port authority", "the county jail"]
    verbs = ["met with", "wrote to", "called", "audited", "questioned"]
    who, verb, whom, where = (rng.choice(people), rng.choice(verbs), rng.choice(people),
                              rng.choice(places))
    return (f"Record {n}: {who} {verb} {whom} at {where} on March {rng.randint(1, 28)}, "
            f"invoice {rng.randint(1000, 9999)}.")


def mixed_folder(root: Path, seed: int = 5) -> dict[str, str]:
    """Write 200 visible files (and a few hidden ones) under ``root``.

    Returns ``{relative path: expected status}`` for the 200 visible files, where the status is
    "imported", "already there" or "failed". Duplicates live in ``zz-duplicates/`` so that, in
    the import's order, each comes after its original. Hidden files are not in the result: the
    import must skip them.
    """
    rng = random.Random(seed)
    expected: dict[str, str] = {}
    originals: list[tuple[str, bytes]] = []

    def put(rel: str, data: bytes, status: str) -> None:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        expected[rel] = status
        if status == "imported":
            originals.append((rel, data))

    n = 0

    def text(count: int = 3) -> str:
        nonlocal n
        n += 1
        return " ".join(_sentence(rng, n * 10 + i) for i in range(count))

    for i in range(40):
        put(f"notes/note-{i:03}.txt", (text() + "\n").encode(), "imported")
    for i in range(10):
        put(f"notes/memo-{i:03}.md", f"# Memo {i}\n\n{text()}\n".encode(), "imported")
    for i in range(20):
        put(f"web/page-{i:03}.html", html_page(text(), title=f"Page {i}").encode(), "imported")
    for i in range(20):
        put(f"reports/report-{i:03}.pdf", pdf_bytes([text(1), text(1)]), "imported")
    for i in range(15):
        attachment = (f"scan-{i}.pdf", pdf_bytes([text(1)])) if i < 5 else None
        put(f"mail/message-{i:03}.eml",
            email_bytes(text(), subject=f"Invoices {i}", attachment=attachment,
                        message_id=f"<m{i}@example.org>"), "imported")
    for i in range(15):
        put(f"word/draft-{i:03}.docx", docx_bytes([text(), text(1)]), "imported")
    for i in range(15):
        put(f"bad/empty-{i:03}.txt", b"", "failed")
    for i in range(15):
        name = ("noise-{:03}.txt", "noise-{:03}.pdf", "noise-{:03}.bin")[i % 3].format(i)
        put(f"bad/{name}", rng.randbytes(2048) + b"\x00\x01\x02", "failed")
    for i in range(15):
        put(f"bad/cut-{i:03}.pdf", truncated_pdf([text(1), text(1)]), "failed")
    for i in range(5):
        put(f"bad/photo-{i:03}.png", png_bytes(), "failed")
    for i in range(5):
        put(f"bad/blank-{i:03}.html",
            b"<html><head><title>x</title></head><body><script>var a=1;</script></body></html>",
            "failed")
    for i, (rel, data) in enumerate(rng.sample(originals, 25)):
        put(f"zz-duplicates/copy-{i:03}{Path(rel).suffix}", data, "already there")
    assert len(expected) == 200
    (root / ".DS_Store").write_bytes(b"\x00\x00\x00\x01Bud1")
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("[core]\n\tbare = false\n")
    (root / "word" / "~$draft-000.docx").write_bytes(b"\x0cEditor")
    return expected


#: A sans-serif font every Debian has (fonts-dejavu-core), for scans drawn with Pillow.
SCAN_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def scan_image(lines: list[str], *, dpi: int = 150, size_pt: float = 12.0) -> Any:
    """A letter-size page "scanned" at ``dpi``: ``lines`` of black text drawn with DejaVu Sans
    (``size_pt`` points) from one inch in, 1.6 lines apart, on a white greyscale image (a
    Pillow Image)."""
    from PIL import Image, ImageDraw, ImageFont

    width, height = int(8.5 * dpi), int(11 * dpi)
    image = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(str(SCAN_FONT), round(size_pt * dpi / 72))
    y = dpi
    for line in lines:
        draw.text((dpi, y), line, font=font, fill=0)
        y += round(size_pt * 1.6 * dpi / 72)
    return image


def scan_line_box(lines: list[str], index: int, *, dpi: int = 150,
                  size_pt: float = 12.0) -> tuple[float, float, float, float]:
    """Where line ``index`` of :func:`scan_image` is drawn: ``(x0, y0, x1, y1)`` as fractions
    of the page (top-left origin), from Pillow's own measure of the text."""
    from PIL import ImageFont

    font = ImageFont.truetype(str(SCAN_FONT), round(size_pt * dpi / 72))
    y = dpi + index * round(size_pt * 1.6 * dpi / 72)
    left, top, right, bottom = font.getbbox(lines[index])
    width, height = int(8.5 * dpi), int(11 * dpi)
    return ((dpi + left) / width, (y + top) / height, (dpi + right) / width,
            (y + bottom) / height)


def scan_png(lines: list[str], *, dpi: int = 150) -> bytes:
    """:func:`scan_image` as PNG bytes."""
    buffer = io.BytesIO()
    scan_image(lines, dpi=dpi).save(buffer, "PNG", dpi=(dpi, dpi))
    return buffer.getvalue()


def scan_pdf(pages: list[list[str]], *, dpi: int = 150) -> bytes:
    """An image-only PDF: one :func:`scan_image` page per list of lines (no text layer)."""
    images = [scan_image(lines, dpi=dpi) for lines in pages]
    buffer = io.BytesIO()
    images[0].save(buffer, "PDF", resolution=dpi, save_all=True, append_images=images[1:])
    return buffer.getvalue()


def mixed_pdf(pages: list[str | list[str]], *, dpi: int = 150) -> bytes:
    """A PDF of text pages (a str: drawn as text, as :func:`pdf_bytes`) and scanned pages (a
    list of lines: an image of them filling the letter-size page, no text layer)."""
    from reportlab.lib.pagesizes import letter
    from reportlab.lib.utils import ImageReader

    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=letter, invariant=True)
    for page in pages:
        if isinstance(page, str):
            y = 720.0
            for line in page.split("\n"):
                pdf.drawString(72, y, line)
                y -= 16
        else:
            pdf.drawImage(ImageReader(scan_image(page, dpi=dpi)), 0, 0, *letter)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()
