"""Word .docx: body text in reading order, then headers, footers and footnotes apart.

python-docx opens the package and parses its XML; the text is read from that XML tree because
python-docx's paragraph text leaves out tracked insertions (``w:ins``) and content controls
(``w:sdt``), which a reporter needs (ECMA-376 Part 1, 17.13.5.18 and 17.5.2).

Layout of ``Ingested.text``: the body (one line per paragraph, one line per table row with
cells separated by `` | ``), then, when present, sections headed ``[Page headers]``,
``[Page footers]``, ``[Footnotes]`` and ``[Comments]``, each after a blank line, so that all of
them are searchable while the body's offsets stay those of the body alone. ``extra["body_end"]``
is the offset where the body ends; ``extra["headers"]``/``["footers"]`` hold the same texts as
lists. Deleted text (``w:del``) is left out. A reviewer comment is one line of the
``[Comments]`` section, "NAME on “anchored text”: comment", and also a note
("Comment by NAME on …").
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from pathlib import PurePath

import docx
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.exceptions import PackageNotFoundError
from docx.oxml.parser import parse_xml
from lxml import etree

from casefile.errors import IngestError
from casefile.ingest.detect import DOCX
from casefile.ingest.limits import check_zip
from casefile.ingest.types import Ingested

_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
_TITLE_MAX = 120
_CELL_SEPARATOR = " | "


def _w(tag: str) -> str:
    return f"{{{_W}}}{tag}"


# Inline elements whose content is not text of the document as it now reads.
_SKIP_INLINE = {
    _w("del"), _w("moveFrom"), _w("rPr"), _w("pPr"), _w("instrText"), _w("delInstrText"),
    f"{{{_MC}}}Fallback",
}
_SKIP_BLOCK = {_w("sectPr"), _w("del"), _w("moveFrom"), _w("tblPr"), _w("tblGrid")}
_BREAKS = {_w("br"): "\n", _w("cr"): "\n", _w("tab"): "\t", _w("noBreakHyphen"): "-"}


class _Walker:
    """Turns WordprocessingML block content into lines, recording comment anchors."""

    def __init__(self) -> None:
        self.open_comments: set[str] = set()
        self.anchors: dict[str, list[str]] = {}

    def blocks(self, container: etree._Element) -> list[str]:
        lines: list[str] = []
        for child in container:
            tag = child.tag
            if not isinstance(tag, str) or tag in _SKIP_BLOCK:
                continue
            if tag == _w("p"):
                lines.extend(self.paragraph(child))
            elif tag == _w("tbl"):
                lines.extend(self.table(child))
            else:  # w:sdt, w:sdtContent, w:customXml, w:ins around blocks, ...
                lines.extend(self.blocks(child))
        return lines

    def paragraph(self, element: etree._Element) -> list[str]:
        pieces: list[str] = []
        boxes: list[str] = []
        self._inline(element, pieces, boxes)
        return ["".join(pieces), *boxes]

    def _inline(self, element: etree._Element, pieces: list[str], boxes: list[str]) -> None:
        for child in element:
            tag = child.tag
            if not isinstance(tag, str) or tag in _SKIP_INLINE:
                continue
            if tag == _w("t"):
                text = child.text or ""
                pieces.append(text)
                for comment_id in self.open_comments:
                    self.anchors.setdefault(comment_id, []).append(text)
            elif tag in _BREAKS:
                pieces.append(_BREAKS[tag])
            elif tag == _w("commentRangeStart"):
                self.open_comments.add(child.get(_w("id"), ""))
            elif tag == _w("commentRangeEnd"):
                self.open_comments.discard(child.get(_w("id"), ""))
            elif tag == _w("txbxContent"):  # a text box: its paragraphs follow this one
                boxes.extend(line for line in self.blocks(child) if line.strip())
            else:  # runs, w:ins, w:sdt/w:sdtContent, hyperlinks, fields, smart tags...
                self._inline(child, pieces, boxes)

    def table(self, element: etree._Element) -> list[str]:
        lines: list[str] = []
        for row in self._children(element, _w("tr")):
            cells = []
            for cell in self._children(row, _w("tc")):
                text = " ".join(line.strip() for line in self.blocks(cell) if line.strip())
                cells.append(text)
            if any(cells):
                lines.append(_CELL_SEPARATOR.join(cells).strip())
        return lines

    def _children(self, element: etree._Element, tag: str) -> list[etree._Element]:
        """Direct children with ``tag``, also those wrapped in content controls."""
        found = []
        for child in element:
            if child.tag == tag:
                found.append(child)
            elif child.tag in (_w("sdt"), _w("sdtContent"), _w("customXml")):
                found.extend(self._children(child, tag))
        return found


def _squeeze(lines: list[str]) -> str:
    text = "\n".join(line.rstrip() for line in lines)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n")


def _related_roots(document: docx.document.Document, reltype: str) -> list[etree._Element]:
    roots = []
    seen = set()
    for rel in document.part.rels.values():
        if rel.is_external or rel.reltype != reltype:
            continue
        part = rel.target_part
        if part.partname in seen:
            continue
        seen.add(part.partname)
        roots.append(parse_xml(part.blob))
    return roots


def _comments(document: docx.document.Document, walker: _Walker) -> list[str]:
    """Each reviewer comment as "NAME on “anchored text”: comment" (document order)."""
    notes = []
    for root in _related_roots(document, RT.COMMENTS):
        for comment in root.iter(_w("comment")):
            body = " ".join(line.strip() for line in _Walker().blocks(comment) if line.strip())
            author = comment.get(_w("author")) or "unknown author"
            anchor = " ".join("".join(walker.anchors.get(comment.get(_w("id"), ""), [])).split())
            where = f" on \u201c{anchor}\u201d" if anchor else ""
            notes.append(f"{author}{where}: {body}")
    return notes


def _footnotes(document: docx.document.Document) -> list[str]:
    lines: list[str] = []
    for reltype, tag in ((RT.FOOTNOTES, "footnote"), (RT.ENDNOTES, "endnote")):
        for root in _related_roots(document, reltype):
            for note in root.iter(_w(tag)):
                if note.get(_w("type")) in ("separator", "continuationSeparator",
                                            "continuationNotice"):
                    continue
                text = " ".join(line.strip() for line in _Walker().blocks(note) if line.strip())
                if text:
                    lines.append(text)
    return lines


def _title(document: docx.document.Document, body: str, filename: str) -> str:
    title = (document.core_properties.title or "").strip()
    if title:
        return title
    for paragraph in document.element.body.iter(_w("p")):
        style = paragraph.find(f"{_w('pPr')}/{_w('pStyle')}")
        if style is not None and style.get(_w("val")) in ("Title", "Heading1"):
            text = " ".join("".join(_Walker().paragraph(paragraph)).split())
            if text:
                return text
    for line in body.split("\n"):
        if line.strip():
            return line.strip() if len(line.strip()) <= _TITLE_MAX else PurePath(filename).stem
    return PurePath(filename).stem or filename


#: How much of each XML part :func:`declares_entities` reads: a document type declaration
#: comes before the root element, at the top of the part.
_PROLOGUE_BYTES = 64 * 1024


def declares_entities(data: bytes) -> bool:
    """Whether an XML part of the package ``data`` (a zip, already checked by
    :func:`casefile.ingest.limits.check_zip`) declares a document type with entities at its
    top. Office Open XML forbids them; a part that has them was made to attack a reader."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            for info in package.infolist():
                if not info.filename.endswith((".xml", ".rels")):
                    continue
                with package.open(info) as part:
                    top = part.read(_PROLOGUE_BYTES).upper()
                if b"<!DOCTYPE" in top and b"<!ENTITY" in top:
                    return True
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError):
        return False
    return False


def ingest_docx(data: bytes, filename: str) -> Ingested:
    """Read a Word .docx file (layout of the text in the module docstring).

    Metadata: ``title`` from the document properties, else the first Title/Heading 1
    paragraph, else the first short line; ``author`` from the properties; ``extra`` holds
    ``created``/``modified`` (ISO 8601), ``headers``, ``footers`` and ``body_end``.
    Raises IngestError for a damaged package, one that would expand too much (see
    :func:`casefile.ingest.limits.check_zip`) or a document without any text.
    """
    check_zip(data, filename)
    try:
        document = docx.Document(io.BytesIO(data))
        walker = _Walker()
        body = _squeeze(walker.blocks(document.element.body))
        headers = [t for t in (_squeeze(_Walker().blocks(r))
                               for r in _related_roots(document, RT.HEADER)) if t]
        footers = [t for t in (_squeeze(_Walker().blocks(r))
                               for r in _related_roots(document, RT.FOOTER)) if t]
        footnotes = _footnotes(document)
        comments = _comments(document, walker)
        title = _title(document, body, filename)
        props = document.core_properties
        author = (props.author or "").strip() or None
        dates = {"created": props.created, "modified": props.modified}
    except (PackageNotFoundError, zipfile.BadZipFile, zlib.error, KeyError, ValueError,
            EOFError, OSError, etree.XMLSyntaxError) as exc:
        if isinstance(exc, etree.XMLSyntaxError) and declares_entities(data):
            raise IngestError(
                f"{filename} defines XML entities that expand into one another (an "
                "'XML bomb'; Word never writes entity definitions); it was not read") from exc
        raise IngestError(f"{filename} is damaged and cannot be read") from exc
    headers = list(dict.fromkeys(headers))
    footers = list(dict.fromkeys(footers))
    sections = [body]
    for label, texts in (("[Page headers]", headers), ("[Page footers]", footers),
                         ("[Footnotes]", footnotes), ("[Comments]", comments)):
        if texts:
            sections.append(label + "\n" + "\n".join(texts))
    text = "\n\n".join(section for section in sections if section)
    if not text.strip():
        raise IngestError(f"{filename} has no text")
    result = Ingested(
        text=text,
        mime_type=DOCX,
        title=title,
        author=author,
        kind="report",
        notes=[f"Comment by {comment}" for comment in comments],
        filename=filename,
    )
    result.extra.update(body_end=len(body), headers=headers, footers=footers)
    for key, value in dates.items():
        if value is not None:
            result.extra[key] = value.isoformat()
    return result


__all__ = ["ingest_docx"]
