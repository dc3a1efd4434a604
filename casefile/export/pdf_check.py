"""Re-read a written PDF and look for strings it must not contain (the brief's self-check).

ARCHITECTURE.md, "Exports protect confidential sources": after writing, an export re-reads its
own PDF and searches it for every protected string (the names and aliases of withheld items,
contact details); one found means the export is refused. This module is the re-read: it does
not know what is protected, the caller passes the strings.

Where it looks (each with the place named in the message):

* the text of every page, as a PDF reader extracts it (pypdfium2, the engine the window's PDF
  viewer uses) -- "text of page N";
* the outline (bookmarks) -- "bookmark";
* every entry of the document information dictionary -- "metadata Title", "metadata Author"...;
* the XMP metadata stream, if any -- "XMP metadata";
* the annotations of every page (contents, title, link target) -- "annotation on page N".

Page text holding Hebrew or Arabic is searched twice: as extracted, and with the words of each
right-to-left phrase put back in reading order (:func:`rtl_words_in_logical_order`).

Matching (:func:`normalize`) ignores case, Unicode compatibility forms (ligatures, full-width
letters: NFKC), curly vs straight apostrophes, soft hyphens and runs of whitespace (a name broken
across two lines still matches); a string only matches as whole words (``Ann`` is not found in
``Annual``), the rule the brief's redaction follows (:mod:`casefile.services.brief`).

This module never imports Qt; pypdfium2 and pdfminer.six load when a check runs.
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from casefile.export.errors import ExportError

_SPACES = re.compile(r"\s+")


class ProtectedStringFoundError(ExportError):
    """A written export contains a protected string; the file has been deleted (``deleted``
    False: the check ran before writing, and nothing was written).

    ``found`` is the string as the caller gave it, ``place`` where it was (e.g. "text of page
    3", "bookmark", "metadata Title").
    """

    def __init__(self, found: str, place: str, *, deleted: bool = True) -> None:
        self.found = found
        self.place = place
        super().__init__(
            f"export refused: the protected string {found!r} was found in the {place}; "
            + ("the file was deleted" if deleted else "nothing was written")
        )


@dataclass(frozen=True)
class Finding:
    """One protected string found: the string as given and the place it was found."""

    text: str
    place: str


def normalize(text: str) -> str:
    """``text`` folded for comparison: NFKC, casefolded, diacritics of Latin letters dropped
    ("Renée" reads "renee"), curly apostrophes straight, soft hyphens dropped, every run of
    whitespace one space, stripped."""
    text = unicodedata.normalize("NFKC", text).replace("\u00ad", "")
    text = text.replace("\u2019", "'").replace("\u2018", "'").casefold()
    if not text.isascii():
        text = _LATIN_MARKS.sub("", unicodedata.normalize("NFKD", text))
        text = unicodedata.normalize("NFC", text)
    return _SPACES.sub(" ", text).strip()


#: A combining diacritic right after a Latin letter (what :func:`normalize` drops).
_LATIN_MARKS = re.compile(r"(?<=[a-z])[\u0300-\u036f]+")


class Protected(str):
    """A protected string that may stand inside some names without counting: ``unless`` holds
    names the export shows that contain it as a word ("Ibarra" is protected, "Linda Ibarra" is
    a shown person's name). Behaves as the plain string everywhere else."""

    unless: tuple[str, ...]

    def __new__(cls, value: str, unless: Iterable[str] = ()) -> Protected:
        obj = super().__new__(cls, value)
        obj.unless = tuple(unless)
        return obj


def pdf_places(pdf: Path | bytes) -> Iterator[tuple[str, str]]:
    """Every piece of text a reader of ``pdf`` (a path or the file's bytes) can see, as
    ``(place, text)`` pairs in the order: the text of each page, then metadata, XMP, bookmarks
    and the annotations of each page.

    Raises:
        ExportError: the file cannot be read as a PDF.
    """
    data = pdf.read_bytes() if isinstance(pdf, Path) else pdf
    yield from _page_texts(data)
    yield from _structure(data)


def _structure(data: bytes) -> Iterator[tuple[str, str]]:
    """Metadata, XMP, outline and annotations, read with pdfminer.six."""
    from pdfminer.pdfdocument import PDFDocument, PDFNoOutlines
    from pdfminer.pdfpage import PDFPage
    from pdfminer.pdfparser import PDFParser
    from pdfminer.pdftypes import PDFStream, resolve1

    try:
        doc = PDFDocument(PDFParser(io.BytesIO(data)))
    except Exception as exc:  # pdfminer raises many kinds on a broken file
        raise ExportError(f"cannot re-read the written PDF: {exc}") from exc
    for info in doc.info:
        for key, value in info.items():
            text = _as_text(resolve1(value))
            if text:
                yield f"metadata {key}", text
    meta = resolve1(doc.catalog.get("Metadata"))
    if isinstance(meta, PDFStream):
        yield "XMP metadata", meta.get_data().decode("utf-8", "replace")
    try:
        for _level, title, *_rest in doc.get_outlines():
            if title:
                yield "bookmark", _as_text(title)
    except PDFNoOutlines:
        pass
    for number, page in enumerate(PDFPage.create_pages(doc), start=1):
        for annot in resolve1(page.annots) or []:
            annot = resolve1(annot)
            if not isinstance(annot, dict):
                continue
            parts = [_as_text(resolve1(annot.get(k))) for k in ("Contents", "T", "TU", "NM")]
            action = resolve1(annot.get("A"))
            if isinstance(action, dict):
                parts += [_as_text(resolve1(action.get(k))) for k in ("URI", "F", "D")]
            text = " | ".join(p for p in parts if p)
            if text:
                yield f"annotation on page {number}", text


def _page_texts(data: bytes) -> Iterator[tuple[str, str]]:
    """The text of each page as pdfium extracts it."""
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise ExportError(f"cannot re-read the written PDF: {exc}") from exc
    try:
        for index in range(len(pdf)):
            page = pdf[index]
            textpage = page.get_textpage()
            try:
                yield f"text of page {index + 1}", textpage.get_text_range()
            finally:
                textpage.close()
                page.close()
    finally:
        pdf.close()


def _as_text(value: object) -> str:
    """A PDF string, name or number as text (PDF strings decoded: UTF-16 with BOM, else
    PDFDocEncoding, as pdfminer decodes them)."""
    from pdfminer.psparser import PSLiteral
    from pdfminer.utils import decode_text

    if value is None:
        return ""
    if isinstance(value, bytes):
        return decode_text(value)
    if isinstance(value, PSLiteral):
        return str(value.name)
    if isinstance(value, str | int | float):
        return str(value)
    return ""


def _patterns(protected: Iterable[str]) -> list[tuple[str, re.Pattern[str]]]:
    """A whole-word regex of each protected string as :func:`normalize` folds it (an
    underscore separates words, as in a file name "notes_Name_2026.txt"); for a
    :class:`Protected`, not where it stands inside one of its ``unless`` names."""
    out: list[tuple[str, re.Pattern[str]]] = []
    for text in dict.fromkeys(protected):
        folded = normalize(text)
        if not folded:
            continue
        around = ""
        for name in getattr(text, "unless", ()):  # not where the whole name stands
            whole = normalize(name)
            at = whole.find(folded)
            if at < 0:
                continue
            before, after = whole[:at], whole[at + len(folded):]
            behind = f"(?<={re.escape(before)})" if before else ""
            around += f"(?!{behind}{re.escape(folded + after)}(?![^\\W_]))"
        out.append((text, re.compile(
            rf"(?<![^\W_]){around}{re.escape(folded)}(?![^\W_])")))
    return out


def find_in_places(
    places: Iterable[tuple[str, str]], protected: Iterable[str],
) -> Finding | None:
    """The first protected string found in ``places`` (``(place, text)`` pairs, in order; the
    strings in the order given), matched as :func:`normalize` and whole words; None when none
    is there. Any export can call it with the texts of its own file (the brief's PDF through
    :func:`find_protected`, the calendar's entries through ``casefile.export.ics.ics_places``)."""
    patterns = _patterns(protected)
    if not patterns:
        return None
    for place, text in places:
        readings = [text]
        if _RTL.search(text):
            readings.append(rtl_words_in_logical_order(text))
        for reading in readings:
            folded = normalize(reading)
            for original, pattern in patterns:
                if pattern.search(folded):
                    return Finding(original, place)
    return None


def find_protected(pdf: Path | bytes, protected: Iterable[str]) -> Finding | None:
    """The first protected string found in ``pdf`` (places in :func:`pdf_places` order, then
    strings in the order given), or None when it holds none of them."""
    protected = list(protected)
    if not protected:
        return None
    return find_in_places(pdf_places(pdf), protected)


_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")


def rtl_words_in_logical_order(text: str) -> str:
    """``text`` with each run of consecutive right-to-left words (Hebrew, Arabic) on a line put
    back in reading order. The brief draws right-to-left text in display order
    (:mod:`casefile.export.textruns`); pdfium gives each word's letters back in logical order
    but leaves the words of a right-to-left phrase inside a left-to-right line right to left
    (``Name: בן־גוריון דוד``), so a withheld name would not match without this reading."""
    lines = []
    for line in text.split("\n"):
        words = line.split(" ")
        out: list[str] = []
        group: list[str] = []
        for word in words:
            if _RTL.search(word):
                group.append(word)
                continue
            out.extend(reversed(group))
            group = []
            out.append(word)
        out.extend(reversed(group))
        lines.append(" ".join(out))
    return "\n".join(lines)


def check_written_pdf(path: Path, protected: Iterable[str]) -> None:
    """Re-read the PDF at ``path``; if it holds a protected string, delete the file and raise.

    Raises:
        ProtectedStringFoundError: a protected string was found (the file is gone).
        ExportError: the file cannot be read back as a PDF (the file is gone too).
    """
    try:
        found = find_protected(path, protected)
    except ExportError:
        path.unlink(missing_ok=True)
        raise
    if found is not None:
        path.unlink(missing_ok=True)
        raise ProtectedStringFoundError(found.text, found.place)
