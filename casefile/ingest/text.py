"""Plain text and Markdown: decoding bytes to str, newlines, titles.

Markdown is kept exactly as written (no markup is stripped): Markdown is meant to be read as it
is, and keeping the characters the reporter sees in their editor means a quote copied from the
file is found in the document's text. Only the title is taken from the first ``# heading``.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from pathlib import PurePath

from casefile.errors import IngestError
from casefile.ingest.detect import (
    MARKDOWN,
    PLAIN,
    UTF32_BOMS,
    looks_binary,
    unicode_without_bom,
)
from casefile.ingest.types import Ingested

# Human names for the encodings we may report in a note (Python codec name -> label).
_LABELS = {
    "utf_8": "UTF-8",
    "utf_16": "UTF-16",
    "utf_32": "UTF-32",
    "latin_1": "Latin-1 (ISO-8859-1)",
    "cp1252": "Windows-1252 (Western European)",
    "cp1250": "Windows-1250 (Central European)",
    "cp1251": "Windows-1251 (Cyrillic)",
    "cp1253": "Windows-1253 (Greek)",
    "cp1254": "Windows-1254 (Turkish)",
    "cp1255": "Windows-1255 (Hebrew)",
    "cp1256": "Windows-1256 (Arabic)",
    "cp1257": "Windows-1257 (Baltic)",
    "koi8_r": "KOI8-R (Cyrillic)",
    "koi8_u": "KOI8-U (Cyrillic)",
    "iso8859_2": "ISO-8859-2 (Central European)",
    "iso8859_5": "ISO-8859-5 (Cyrillic)",
    "iso8859_7": "ISO-8859-7 (Greek)",
    "iso8859_15": "ISO-8859-15 (Western European)",
    "mac_cyrillic": "Mac Cyrillic",
    "cp949": "CP949 / EUC-KR (Korean)",
    "euc_kr": "EUC-KR (Korean)",
    "johab": "Johab (Korean)",
    "shift_jis": "Shift JIS (Japanese)",
    "cp932": "CP932 / Shift JIS (Japanese)",
    "euc_jp": "EUC-JP (Japanese)",
    "iso2022_jp": "ISO-2022-JP (Japanese)",
    "gb2312": "GB2312 (Simplified Chinese)",
    "gbk": "GBK (Simplified Chinese)",
    "gb18030": "GB18030 (Chinese)",
    "big5": "Big5 (Traditional Chinese)",
    "big5hkscs": "Big5-HKSCS (Traditional Chinese)",
    "cp874": "Windows-874 (Thai)",
    "tis_620": "TIS-620 (Thai)",
}

# Encodings that charset-normalizer is trusted on (non-Latin scripts, where a wrong Western guess
# would garble every letter). For Latin-script text its guesses between the many single-byte
# Latin code pages are unreliable on short texts, so there we prefer Windows-1252, the fallback
# web browsers use for unlabelled Western text (WHATWG Encoding Standard, "windows-1252").
_NON_LATIN = {
    "cp1251", "cp1253", "cp1255", "cp1256", "koi8_r", "koi8_u", "iso8859_5", "iso8859_6",
    "iso8859_7", "iso8859_8", "mac_cyrillic", "mac_greek", "cp866", "cp855", "ptcp154",
    "cp949", "euc_kr", "johab", "shift_jis", "cp932", "euc_jp", "euc_jis_2004",
    "shift_jis_2004", "iso2022_jp", "iso2022_kr", "gb2312", "gbk", "gb18030", "hz", "big5",
    "big5hkscs", "cp950", "cp874", "tis_620", "iso8859_11",
}

# Characters that legitimately sit inside a word in Western text (apostrophes, dashes, dots).
_MIDWORD_OK = set("\u2019\u2018\u2013\u2014\u00b7\u00ad")

_TITLE_MAX = 120


def encoding_label(codec: str) -> str:
    """Human name of a Python codec (``"latin_1"`` -> ``"Latin-1 (ISO-8859-1)"``)."""
    try:
        name = codecs.lookup(codec).name.replace("-", "_")
    except LookupError:
        return codec
    aliases = {"iso8859_1": "latin_1", "euc_kr": "euc_kr", "ks_c_5601_1987": "cp949"}
    name = aliases.get(name, name)
    return _LABELS.get(name, codec)


def _midword_symbols(text: str) -> int:
    """Count non-ASCII non-letters squeezed between two letters ("Wa³êsa"): signs of a wrong
    single-byte code page."""
    count = 0
    for i in range(1, len(text) - 1):
        ch = text[i]
        if ord(ch) < 0x80 or ch in _MIDWORD_OK:
            continue
        if unicodedata.category(ch)[0] in "LM":
            continue
        if text[i - 1].isalpha() and text[i + 1].isalpha():
            count += 1
    return count


def _western(data: bytes) -> tuple[str, str] | None:
    """Decode as Latin-1 when no byte needs Windows-1252, else as Windows-1252 if it can."""
    if not any(0x80 <= byte <= 0x9F for byte in data):
        return data.decode("latin_1"), "latin_1"
    try:
        return data.decode("cp1252"), "cp1252"
    except UnicodeDecodeError:
        return None


def guess_decode(data: bytes) -> tuple[str, str]:
    """Decode bytes that are not UTF-8: return (text, codec name).

    charset-normalizer is asked first; its answer is taken for non-Latin scripts (Cyrillic,
    Greek, Korean, Chinese, Japanese...) when it recognised a language. Otherwise Western text is
    assumed: Latin-1 (or Windows-1252 when bytes 0x80-0x9F occur), unless that leaves symbols
    inside words and charset-normalizer's guess does not (Central European text). Last resort:
    Latin-1, which decodes any bytes.
    """
    from charset_normalizer import from_bytes  # loads with the first file that is not UTF-8

    matches = from_bytes(data)
    best = matches.best()
    if best is not None and best.encoding in _NON_LATIN and best.coherence > 0:
        return str(best), best.encoding
    western = _western(data)
    if western is not None and _midword_symbols(western[0]) == 0:
        return western
    if best is not None:
        guess = str(best)
        if _midword_symbols(guess) == 0:
            return guess, best.encoding
    if western is not None:
        return western
    return data.decode("latin_1"), "latin_1"


def decode_text(
    data: bytes, filename: str, declared: str | None = None
) -> tuple[str, list[str]]:
    """Decode text bytes to str; return (text, notes).

    Order: a byte order mark (UTF-8, UTF-32, UTF-16); then UTF-16 or UTF-32 without one, told
    by the pattern of its zero bytes (:func:`casefile.ingest.detect.unicode_without_bom`,
    noted); then ``declared`` (a charset named by the file,
    e.g. an email part or an HTML meta tag) if it is known and decodes without error; then
    strict UTF-8; then :func:`guess_decode`. Every step after the first two that succeed
    silently adds one note saying which encoding was assumed and why. Newlines are not touched.

    Raises IngestError if the bytes are binary (see ``detect.looks_binary``).
    """
    notes: list[str] = []
    if data.startswith(codecs.BOM_UTF8):
        return data[3:].decode("utf-8", errors="replace"), notes
    for bom, codec in UTF32_BOMS:
        if data.startswith(bom):
            return data[len(bom):].decode(codec, errors="replace"), notes
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16", errors="replace"), notes
    found = unicode_without_bom(data)
    if found is not None:
        size, order = found[4:6], "little" if found.endswith("le") else "big"
        return data.decode(found, errors="replace"), [
            f"No byte-order mark; read as UTF-{size} ({order}-endian), which the pattern of "
            "its zero bytes shows"]
    if looks_binary(data):
        raise IngestError(f"{filename} is not text (binary content)")
    if declared:
        try:
            return data.decode(declared), notes
        except LookupError:
            problem = f"Declared charset {declared!r} is unknown"
        except UnicodeDecodeError:
            problem = f"Declared charset {declared!r} does not fit the bytes"
        try:
            return data.decode("utf-8"), [*notes, f"{problem}; decoded as UTF-8"]
        except UnicodeDecodeError:
            pass
        text, codec = guess_decode(data)
        return text, [f"{problem}; decoded as {encoding_label(codec)}"]
    try:
        return data.decode("utf-8"), notes
    except UnicodeDecodeError:
        pass
    text, codec = guess_decode(data)
    notes.append(f"Not valid UTF-8; decoded as {encoding_label(codec)}")
    return text, notes


def normalise_newlines(text: str) -> str:
    """Turn CRLF and lone CR into LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def first_line_title(text: str, filename: str) -> str:
    """The first non-empty line if it is short (at most 120 characters) and holds a letter or
    a digit, else the file stem (a data file's "{" is no title)."""
    for line in text.split("\n"):
        line = line.strip()
        if line:
            if len(line) <= _TITLE_MAX and any(c.isalnum() for c in line):
                return line
            break
    return PurePath(filename).stem or filename


def _require_text(text: str, filename: str, had_bytes: bool) -> None:
    if not had_bytes:
        raise IngestError(f"{filename} is empty")
    if not text.strip():
        raise IngestError(f"{filename} has no text (only whitespace)")


def ingest_plain(data: bytes, filename: str) -> Ingested:
    """Read a plain text file.

    Returns an Ingested with ``mime_type="text/plain"``, newlines normalised to ``\\n``, title
    from :func:`first_line_title` and a note when the encoding had to be guessed.
    Raises IngestError for empty, whitespace-only or binary data.
    """
    text, notes = decode_text(data, filename)
    text = normalise_newlines(text)
    _require_text(text, filename, bool(data))
    return Ingested(
        text=text,
        mime_type=PLAIN,
        title=first_line_title(text, filename),
        notes=notes,
        filename=filename,
    )


_ATX_H1 = re.compile(r"^ {0,3}#[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$", re.MULTILINE)
_SETEXT_H1 = re.compile(r"^ {0,3}(\S.*?)[ \t]*\n {0,3}=+[ \t]*$", re.MULTILINE)
_FRONT_MATTER = re.compile(r"\A---\n(.*?)\n(?:---|\.\.\.)\n", re.DOTALL)
_FRONT_TITLE = re.compile(r"^title:[ \t]*(.+?)[ \t]*$", re.MULTILINE | re.IGNORECASE)


def markdown_title(text: str) -> str | None:
    """Title of a Markdown text: ``title:`` in YAML front matter, else the first level-1
    heading (``# Title`` or ``Title`` underlined with ``===``, CommonMark 4.2/4.3), else None."""
    front = _FRONT_MATTER.match(text)
    if front:
        found = _FRONT_TITLE.search(front.group(1))
        if found:
            return found.group(1).strip().strip("\"'") or None
    candidates = [m for m in (_ATX_H1.search(text), _SETEXT_H1.search(text)) if m]
    if not candidates:
        return None
    first = min(candidates, key=lambda m: m.start())
    return first.group(1).strip() or None


def ingest_markdown(data: bytes, filename: str) -> Ingested:
    """Read a Markdown file, keeping its text as written (see the module docstring).

    Title: :func:`markdown_title`, else as for plain text. Raises IngestError like
    :func:`ingest_plain`.
    """
    result = ingest_plain(data, filename)
    result.mime_type = MARKDOWN
    result.title = markdown_title(result.text) or result.title
    return result
