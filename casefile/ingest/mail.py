"""Email: one message (.eml) or a mailbox (.mbox), read with the standard ``email`` package.

The document text of a message is a short header block (From, To, Cc, Date, Subject,
Attachments), a blank line, then the body: text/plain preferred over HTML in alternatives,
HTML turned into text, the signature part of a signed message left out. Attachments, and
attached messages, are read by the same importer and returned as ``Ingested.attachments``,
each with its ``original`` bytes. A mailbox yields one child per message and an index as text.

Hostile messages are read within limits (:mod:`casefile.ingest.limits`): at most
``MAX_EMAIL_PARTS`` MIME parts and ``MAX_EMAIL_ATTACHMENTS`` attachments (the rest are left out
with a note naming the limit), one expansion budget shared by all the zip containers attached,
and no part that is not text is ever stored as text: a part typed as something else (e.g.
application/octet-stream) that no reader recognises and that is not plainly UTF-8 text, or a
text part whose bytes only decode by guessing an 8-bit encoding into something that does not
read like text, is left out with a note.
"""

from __future__ import annotations

import codecs
import mimetypes
import re
import unicodedata
from collections.abc import Callable
from datetime import datetime
from email import policy
from email.header import decode_header
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import getaddresses, parsedate_to_datetime
from pathlib import PurePath

from casefile.errors import IngestError
from casefile.ingest.detect import EMAIL, MARKDOWN, MBOX, PLAIN, detect_type
from casefile.ingest.html import html_to_text
from casefile.ingest.limits import MAX_EMAIL_ATTACHMENTS, MAX_EMAIL_PARTS, shared_budget
from casefile.ingest.text import decode_text, encoding_label, guess_decode, normalise_newlines
from casefile.ingest.types import Ingested

ChildReader = Callable[[bytes, str], Ingested]

_SIGNATURE_TYPES = {
    "application/pgp-signature", "application/pkcs7-signature",
    "application/x-pkcs7-signature", "application/pgp-keys",
}
_ADDRESS_HEADERS = ("From", "To", "Cc", "Reply-To", "Sender")
_SURROGATES = re.compile(r"[\udc80-\udcff]")
_BOUNDARY = re.compile(r"""boundary\s*=\s*(?:"([^"]+)"|([^\s;"]+))""", re.IGNORECASE)


def _from_raw_bytes(value: str, header: str, notes: list[str]) -> str:
    """A header holding raw 8-bit bytes (not RFC 2047 encoded): read them as UTF-8 if they are,
    else guess (Latin-1 / Windows-1252 for Western text) and say so."""
    if not _SURROGATES.search(value):
        return value
    raw = value.encode("ascii", errors="surrogateescape")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        text, codec = guess_decode(raw)
        notes.append(f"Raw 8-bit bytes in the {header} header; read as {encoding_label(codec)}")
        return text


def _decode_words(value: str, header: str, notes: list[str]) -> str:
    """Decode RFC 2047 encoded words, with a stated fallback for unknown or wrong charsets."""
    if "=?" not in value:
        return value
    pieces: list[str] = []
    try:
        chunks = decode_header(value)
    except Exception:  # malformed encoded words: keep the header as it is
        return value
    for chunk, charset in chunks:
        if isinstance(chunk, str):
            pieces.append(chunk)
            continue
        if charset in (None, "unknown-8bit"):
            pieces.append(chunk.decode("ascii", errors="replace"))
            continue
        try:
            pieces.append(chunk.decode(charset))
            continue
        except LookupError:
            problem = f"unknown charset {charset!r}"
        except UnicodeDecodeError:
            problem = f"charset {charset!r} does not fit the bytes"
        try:
            text, codec = chunk.decode("utf-8"), "utf_8"
        except UnicodeDecodeError:
            text, codec = guess_decode(chunk)
        notes.append(f"{header} header: {problem}; decoded as {encoding_label(codec)}")
        pieces.append(text)
    return "".join(pieces)


def _header(message: Message, name: str, notes: list[str]) -> str | None:
    """The header's value as readable text (None if absent), from its raw form."""
    for key, value in message.raw_items():
        if key.lower() == name.lower():
            text = _from_raw_bytes(str(value), name, notes)
            text = _decode_words(text, name, notes)
            text = " ".join(text.split())
            return text or None
    return None


def _addresses(value: str | None) -> list[tuple[str, str]]:
    if not value:
        return []
    return [(name, addr) for name, addr in getaddresses([value]) if name or addr]


def _format_address(name: str, addr: str) -> str:
    if name and addr:
        return f"{name} <{addr}>"
    return name or addr


def _iso_date(value: str | None, notes: list[str]) -> tuple[str | None, str | None]:
    """(ISO 8601 date-time, ISO date) of an RFC 5322 Date header, or (None, None)."""
    if not value:
        return None, None
    try:
        moment: datetime = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        # not RFC 5322 ("2024-03-01 09:12", "Friday, March 1, 2024 9:12 AM", as some
        # programs write it): read as a person would
        import dateparser

        found = None
        try:
            found = dateparser.parse(value, languages=["en"],
                                     settings={"REQUIRE_PARTS": ["day", "month", "year"]})
        except Exception:  # noqa: BLE001 - dateparser raises many kinds on odd input
            found = None
        if found is None:
            notes.append(f"The Date header could not be read: {value!r}")
            return None, None
        notes.append(f"The Date header is not in the e-mail standard's form; read as "
                     f"{found.isoformat(sep=' ')}: {value!r}")
        moment = found
    return moment.isoformat(), moment.date().isoformat()


def _declared_latin1(charset: str | None) -> bool:
    if not charset:
        return False
    try:
        return codecs.lookup(charset).name == "iso8859-1"
    except LookupError:
        return False


#: File name endings that say an attachment is text whatever its content type.
_TEXT_NAMES = (".txt", ".text", ".md", ".markdown", ".csv", ".tsv", ".log", ".json", ".xml",
               ".ics", ".vcf", ".eml", ".htm", ".html")
#: Most notes about parts left out as not text; the rest are counted in one more note.
_MAX_BINARY_NOTES = 10


def reads_as_binary(raw: bytes, text: str) -> bool:
    """True when ``text``, decoded from ``raw``, is really binary data.

    Judged on the first 64 Ki characters: more than 2% control characters (other than tab,
    newlines, form feed and escape, as in :func:`casefile.ingest.detect.looks_binary`) or
    U+FFFD; or, for bytes that are not valid UTF-8 (decoded by a declared or guessed 8-bit
    charset, which turns any bytes into characters), when charset-normalizer finds no encoding
    in which they read as text (its mess detector refuses random bytes from a few dozen on,
    and accepts real text in any 8-bit code page).
    """
    sample = text[:65536]
    if not sample:
        return False
    controls = sum(1 for ch in sample if ch == "\ufffd" or (
        ch not in "\t\n\r\f\x1b" and unicodedata.category(ch) == "Cc"))
    if controls > 0.02 * len(sample):
        return True
    head = raw[:262144]
    try:
        head.decode("utf-8")
        return False
    except UnicodeDecodeError as exc:
        if exc.start >= len(head) - 4 and len(raw) > len(head):
            return False  # only a character cut at the sample's end
    from charset_normalizer import from_bytes

    return from_bytes(raw[:65536]).best() is None


def _plainly_text(raw: bytes) -> bool:
    """True when ``raw`` is text without guessing: UTF-8 (ASCII included, a byte order mark
    allowed) holding letters, not binary by :func:`reads_as_binary`."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return False
    return any(ch.isalpha() for ch in text[:4096]) and not reads_as_binary(raw, text)


def _part_text(part: Message, notes: list[str]) -> str:
    """Decoded text of a text/* leaf, HTML turned into text; "" if it has none."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes) or not payload:
        return ""
    charset = part.get_content_charset()
    if _declared_latin1(charset):
        # Mail clients label Windows-1252 text as ISO-8859-1; read it the way browsers do.
        charset = "cp1252" if not re.search(rb"[\x81\x8d\x8f\x90\x9d]", payload) else charset
    label = f"Message text ({part.get_content_type()})"
    try:
        text, part_notes = decode_text(payload, label, declared=charset)
    except IngestError:
        notes.append(f"{label} is not text and was left out")
        return ""
    if reads_as_binary(payload, text):
        notes.append(f"{label} is not text (binary content) and was left out")
        return ""
    notes.extend(f"{label}: {note}" for note in part_notes)
    text = normalise_newlines(text)
    if part.get_content_subtype() == "html":
        text = html_to_text(text)
    return text.strip()


class _Reader:
    """Walks one message, collecting body text, attachments and notes."""

    def __init__(self, read_child: ChildReader, filename: str) -> None:
        self.read_child = read_child
        self.filename = filename
        self.body: list[str] = []
        self.attachments: list[Ingested] = []
        self.listed: list[dict[str, object]] = []
        self.notes: list[str] = []
        self.skipped_images: list[str] = []
        self.binary_notes: list[str] = []
        self.parts = 0
        self.over_attachments = False

    def walk(self, part: Message) -> None:
        ctype = part.get_content_type()
        if part.is_multipart() and ctype not in ("message/rfc822", "message/global"):
            # a container holds no content of its own: only content parts count against the
            # limit (its nesting is bounded by the parser, which refuses hundreds of levels)
            self._multipart(part)
            return
        self.parts += 1
        if self.parts > MAX_EMAIL_PARTS:
            if self.parts == MAX_EMAIL_PARTS + 1:
                self.notes.append(f"The message has more than {MAX_EMAIL_PARTS} parts; only "
                                  f"the first {MAX_EMAIL_PARTS} were read")
            return
        if ctype in ("message/rfc822", "message/global"):
            self._attach(part)
        elif ctype in _SIGNATURE_TYPES:
            return
        elif (
            part.get_content_maintype() == "text"
            and part.get_content_subtype() in ("plain", "html")
            and part.get_content_disposition() != "attachment"
            and not self._filename(part)
        ):
            text = _part_text(part, self.notes)
            if text:
                self.body.append(text)
        else:
            self._attach(part)

    def _multipart(self, part: Message) -> None:
        children = list(part.iter_parts())  # type: ignore[attr-defined]
        subtype = part.get_content_subtype()
        if subtype == "alternative" and children:
            rank = {"text/plain": 0, "text/html": 2}

            def score(child: Message) -> int:
                if child.is_multipart():
                    return 1
                return rank.get(child.get_content_type(), 3)

            self.walk(min(children, key=score))
        elif subtype == "signed" and children:
            self.walk(children[0])
            self.notes.append("Signed message: the signature was not checked")
        elif subtype == "encrypted":
            self.notes.append("The message is encrypted; its content cannot be read")
        else:
            for child in children:
                self.walk(child)

    def _filename(self, part: Message) -> str | None:
        try:
            name = part.get_filename()
        except Exception:
            name = None
        if name:
            notes: list[str] = []
            name = _decode_words(_from_raw_bytes(name, "attachment name", notes), "name", notes)
            self.notes.extend(notes)
            return PurePath(name.replace("\\", "/")).name or None
        return None

    def _attach(self, part: Message) -> None:
        ctype = part.get_content_type()
        number = len(self.listed) + 1
        if ctype in ("message/rfc822", "message/global"):
            inner = part.get_payload()
            inner_msg = inner[0] if isinstance(inner, list) and inner else None
            payload = inner_msg.as_bytes() if isinstance(inner_msg, Message) else None
            name = self._filename(part) or f"attached-message-{number}.eml"
        else:
            raw = part.get_payload(decode=True)
            payload = raw if isinstance(raw, bytes) else None
            extension = mimetypes.guess_extension(ctype) or ".bin"
            name = self._filename(part) or f"attachment-{number}{extension}"
        entry: dict[str, object] = {"filename": name, "content_type": ctype, "imported": False}
        self.listed.append(entry)
        if not payload:
            self.notes.append(f"Attachment {name} is empty")
            return
        entry["size"] = len(payload)
        found = detect_type(payload, name)
        if found.startswith("image/"):
            # images (logos, signatures) are listed, not made documents of their own
            self.skipped_images.append(name)
            return
        if len(self.attachments) >= MAX_EMAIL_ATTACHMENTS:
            if not self.over_attachments:
                self.over_attachments = True
                self.notes.append(f"The message has more than {MAX_EMAIL_ATTACHMENTS} "
                                  f"attachments; only the first {MAX_EMAIL_ATTACHMENTS} were "
                                  "imported (all are listed)")
            return
        said_text = (part.get_content_maintype() in ("text", "message")
                     or name.lower().endswith(_TEXT_NAMES))
        if found in (PLAIN, MARKDOWN) and not said_text and not _plainly_text(payload):
            # typed as something else, no reader knows the bytes, and they are text only
            # if an 8-bit encoding is guessed: not text
            self.binary_notes.append(f"Attachment {name} was not imported: {name} is not "
                                     f"text ({ctype})")
            return
        try:
            child = self.read_child(payload, name)
        except IngestError as exc:
            if " is an image " in str(exc):
                self.skipped_images.append(name)
            elif " is not text " in str(exc):
                self.binary_notes.append(f"Attachment {name} was not imported: {exc}")
            else:
                reason = str(exc).removeprefix(f"{name} was not imported: ")
                self.notes.append(f"Attachment {name} was not imported: {reason}")
            return
        if found in (PLAIN, MARKDOWN) and reads_as_binary(payload, child.text):
            self.binary_notes.append(f"Attachment {name} was not imported: {name} is not "
                                     "text (binary content)")
            return
        child.original = payload
        entry["imported"] = True
        self.attachments.append(child)


def _repair_boundary(message: EmailMessage, notes: list[str]) -> EmailMessage:
    """A multipart message whose boundary the parser missed (e.g. folded onto the next header
    line without a ";"): re-parse with the boundary found in the raw Content-Type."""
    if message.get_content_maintype() != "multipart" or message.is_multipart():
        return message
    raw_type = next(
        (str(v) for k, v in message.raw_items() if k.lower() == "content-type"), ""
    )
    found = _BOUNDARY.search(raw_type)
    body = message.get_payload()
    if not found or not isinstance(body, str):
        notes.append("The message claims to have several parts but gives no boundary; "
                     "its body is kept as text")
        return message
    boundary = found.group(1) or found.group(2)
    subtype = message.get_content_subtype().split()[0].strip(";") or "mixed"
    head = f'Content-Type: multipart/{subtype}; boundary="{boundary}"\n\n'
    repaired = BytesParser(policy=policy.default).parsebytes(
        (head + body).encode("utf-8", errors="surrogateescape")
    )
    if not repaired.is_multipart():
        return message
    notes.append("The message's multipart header was malformed and was repaired")
    return repaired


def ingest_email(data: bytes, filename: str, read_child: ChildReader) -> Ingested:
    """Read one RFC 5322 message.

    Metadata: ``title`` = Subject, ``author`` = the sender's name (or address), ``published`` =
    the Date header's day (ISO 8601); ``extra`` holds ``from``, ``to``, ``cc`` (lists of
    "Name <address>"), ``date`` (ISO 8601 date-time with offset), ``subject``, ``message_id``,
    ``people`` (name, address, role: from/to/cc, for suggestions) and ``attachments`` (filename,
    content type, size, imported). Header bytes that are not ASCII, unknown or wrong charsets are
    decoded with a stated fallback and a note. ``read_child(bytes, name)`` reads attachments.

    Raises IngestError only when the data has neither headers nor text.
    """
    try:
        message = BytesParser(policy=policy.default).parsebytes(data)
    except RecursionError:
        raise IngestError(f"{filename} nests parts within parts too deeply to be read (hundreds "
                          "of levels; no mail program writes that)") from None
    except Exception as exc:  # the parser is lenient; this is belt and braces
        raise IngestError(f"{filename} is not a readable email ({type(exc).__name__})") from None
    notes: list[str] = []
    headers = {name: _header(message, name, notes)
               for name in ("From", "To", "Cc", "Date", "Subject", "Message-ID")}
    reader = _Reader(read_child, filename)
    try:
        with shared_budget():
            reader.walk(_repair_boundary(message, notes))
    except RecursionError:
        notes.append("The message is nested too deeply; part of it was left out")
    notes.extend(reader.notes)
    notes.extend(reader.binary_notes[:_MAX_BINARY_NOTES])
    if len(reader.binary_notes) > _MAX_BINARY_NOTES:
        notes.append(f"{len(reader.binary_notes) - _MAX_BINARY_NOTES} more parts that are "
                     "not text were left out")
    if reader.skipped_images:
        notes.append(f"Images attached, not imported (no text): {', '.join(reader.skipped_images)}")

    senders = _addresses(headers["From"])
    date_time, day = _iso_date(headers["Date"], notes)
    people = [
        {"name": name, "address": addr, "role": role}
        for role, value in (("from", headers["From"]), ("to", headers["To"]),
                            ("cc", headers["Cc"]))
        for name, addr in _addresses(value)
    ]
    lines = [f"{name}: {headers[name]}" for name in ("From", "To", "Cc", "Date", "Subject")
             if headers[name]]
    if reader.listed:
        lines.append("Attachments: " + ", ".join(str(e["filename"]) for e in reader.listed))
    body = "\n\n".join(reader.body)
    text = "\n".join(lines) + ("\n\n" + body if body else "")
    if not text.strip():
        raise IngestError(f"{filename} has no headers and no text")
    if not body:
        notes.append("The message has no readable body text")
    extra: dict[str, object] = {
        "from": [_format_address(n, a) for n, a in senders],
        "to": [_format_address(n, a) for n, a in _addresses(headers["To"])],
        "cc": [_format_address(n, a) for n, a in _addresses(headers["Cc"])],
        "subject": headers["Subject"],
        "date": date_time,
        "message_id": headers["Message-ID"],
        "people": people,
        "attachments": reader.listed,
        "body_start": len(text) - len(body) if body else len(text),
    }
    return Ingested(
        text=text,
        mime_type=EMAIL,
        title=headers["Subject"],
        author=(senders[0][0] or senders[0][1]) if senders else None,
        published=day,
        kind="email",
        notes=notes,
        attachments=reader.attachments,
        extra=extra,
        filename=filename,
    )


_FROM_LINE = re.compile(rb"From \S")
_HEADER_LINE = re.compile(rb"[\x21-\x39\x3b-\x7e]+:")
_QUOTED_FROM = re.compile(rb"^>(>*From )", re.MULTILINE)


def split_mbox(data: bytes) -> list[bytes]:
    """The messages of a Unix mailbox, each without its ``From_`` line, body lines unquoted.

    A ``From_`` line (RFC 4155) is a line beginning "From " at the start of the file or after
    an empty line, whose next line is a header field ("Name: value"). A body line beginning
    "From " that some writer left unquoted is therefore kept in its message, where Python's
    ``mailbox.mbox`` (which splits at every "From " line) would start a new message there.
    Quoting is undone the mboxrd way: one ">" is removed from each line matching
    ``^>+From ``. Python's ``mailbox`` writes mboxo (it quotes "From " as ">From "), which this
    reads back exactly; a body line that was ">From " before an mboxo writer saved it cannot
    be told apart and loses its ">" too (the convention mutt and Thunderbird read with).
    Line endings are kept as written. Returns [] when no message is found.
    """
    lines = data.splitlines(keepends=True)
    starts = [
        number for number, line in enumerate(lines)
        if _FROM_LINE.match(line)
        and (number == 0 or not lines[number - 1].strip())
        and (number + 1 < len(lines) and _HEADER_LINE.match(lines[number + 1]))
    ]
    if not starts and lines and _FROM_LINE.match(lines[0]):
        starts = [0]  # one message whose first line is not a header: read it anyway
    messages = []
    for position, first in enumerate(starts):
        end = starts[position + 1] if position + 1 < len(starts) else len(lines)
        body = b"".join(lines[first + 1:end])
        if position + 1 < len(starts):  # the empty line before the next From_ line
            body = body[:-2] if body.endswith(b"\r\n") else body[:-1]
        messages.append(_QUOTED_FROM.sub(rb"\1", body))
    return messages


def ingest_mbox(data: bytes, filename: str, read_child: ChildReader) -> Ingested:
    """Read a Unix mailbox (split by :func:`split_mbox`): each message becomes a child (in
    ``attachments``, read by :func:`ingest_email`, ``original`` = its bytes); the text is an
    index, one line per message ("n. date — sender — subject"). Raises IngestError when no
    message can be read."""
    stem = PurePath(filename).stem or filename
    raw_messages = split_mbox(data)
    children: list[Ingested] = []
    notes: list[str] = []
    index: list[str] = []
    for number, raw in enumerate(raw_messages, 1):  # each message has its own budget
        name = f"{stem}-{number:04d}.eml"
        try:
            child = ingest_email(raw, name, read_child)
        except IngestError as exc:
            notes.append(f"Message {number} was not imported: {exc}")
            continue
        child.original = raw
        children.append(child)
        extra = child.extra
        sender = ", ".join(str(s) for s in extra.get("from", []))  # type: ignore[attr-defined]
        index.append(f"{number}. {child.published or 'no date'} \u2014 {sender or 'unknown sender'}"
                     f" \u2014 {child.title or '(no subject)'}")
    if not children:
        raise IngestError(f"{filename} holds no readable messages")
    days = [child.published for child in children if child.published]
    return Ingested(
        text="\n".join(index),
        mime_type=MBOX,
        # the mailbox is dated by its first message when every message has a Date of its own
        published=min(days) if len(days) == len(children) else None,
        title=f"{stem} ({len(children)} message{'s' if len(children) != 1 else ''})",
        kind="email",
        notes=notes,
        attachments=children,
        extra={"messages": len(children)},
        filename=filename,
    )
