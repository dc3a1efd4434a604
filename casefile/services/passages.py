"""Passages: spans of a document's text marked by the reporter, by offsets or by quoting."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from casefile.errors import ValidationError
from casefile.services import lookup
from casefile.services.audit import log_change
from casefile.store import Document, EvidenceLink, Passage

#: Typographic quotes and apostrophes that count as equal to their straight forms when a quote
#: is looked up. Each maps one character to one character, so offsets are unchanged.
_QUOTE_FOLD = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    "\u00ab": '"', "\u00bb": '"',
}


def replace_chars(text: str, table: dict[str, str]) -> str:
    """``text`` with each character that is a key of ``table`` replaced by its value (no value
    holding a key): what ``str.translate`` does, in a few scans of the text (``translate``
    with a table looks every character of a non-ASCII text up one by one, about 0.1 µs
    each)."""
    if text.isascii() and all(not k.isascii() for k in table):
        return text
    for old, new in table.items():
        if old in text:
            text = text.replace(old, new)
    return text


def fold_quotes(text: str) -> str:
    """``text`` with curly quotes and apostrophes made straight; same length, same offsets."""
    return replace_chars(text, _QUOTE_FOLD)


def _document(session: Session, document_id: int) -> Document:
    doc = lookup.row(session, Document, document_id, f"no document with id {document_id}")
    return doc


def source_document(session: Session, case_id: int, passage_id: int | None,
                    document_id: int | None, role: str = "") -> int | None:
    """The document a source given as a passage or a whole document stands in (a passage's
    own document; None when neither is given), checked to belong to case ``case_id``.

    ``role`` names the source in the refusal ("answering": "the answering passage belongs to
    another case"). Raises NotFoundError for an unknown passage or document, ValidationError
    for one of another case.
    """
    what = f"{role} " if role else ""
    if passage_id is not None:
        passage = lookup.row(session, Passage, passage_id, f"no passage with id {passage_id}")
        if passage.case_id != case_id:
            raise ValidationError(f"the {what}passage belongs to another case")
        return passage.document_id
    if document_id is not None and _document(session, document_id).case_id != case_id:
        raise ValidationError(f"the {what}document belongs to another case")
    return document_id


def add_passage(
    session: Session, document_id: int, start: int, end: int, note: str | None = None
) -> Passage:
    """Mark ``document.text[start:end]`` (Python str offsets) as a passage.

    The quoted text is snapshotted and the page computed for paged documents. Raises
    ValidationError for an empty or out-of-range span.
    """
    doc = _document(session, document_id)
    if not (0 <= start < end <= len(doc.text)):
        raise ValidationError(
            f"passage span {start}..{end} is outside the document's text (0..{len(doc.text)})"
        )
    passage = Passage(
        case_id=doc.case_id, document_id=doc.id, start=start, end=end,
        page=doc.page_at(start), quote=doc.text[start:end], note=note,
    )
    session.add(passage)
    session.flush()
    log_change(session, "passage.create", case_id=doc.case_id, item_id=doc.id,
               summary=passage.quote[:200], data={"passage_id": passage.id})
    return passage


def find_quote(text: str, quote: str, occurrence: int = 1) -> tuple[int, int]:
    """Locate ``quote`` in ``text``; curly and straight quotes match each other.

    Returns ``(start, end)`` Python str offsets of the ``occurrence``-th match (1-based).
    Raises ValidationError if the quote is empty or not found that many times.
    """
    needle = fold_quotes(quote.strip())
    if not needle:
        raise ValidationError("the quote is empty")
    haystack = fold_quotes(text)
    pos = -1
    for _ in range(max(occurrence, 1)):
        pos = haystack.find(needle, pos + 1)
        if pos < 0:
            shown = quote.strip()
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            raise ValidationError(f"the quote {shown!r} is not in the document")
    return pos, pos + len(needle)


def add_passage_by_quote(
    session: Session, document_id: int, quote: str, *, occurrence: int = 1,
    note: str | None = None,
) -> Passage:
    """Mark the passage whose text is ``quote`` (its ``occurrence``-th appearance).

    The stored quote is the document's own text, so typographic quotes survive even when the
    reporter typed straight ones. Raises ValidationError if the quote is not found.
    """
    doc = _document(session, document_id)
    start, end = find_quote(doc.text, quote, occurrence)
    return add_passage(session, document_id, start, end, note)


def delete_passage(session: Session, passage_id: int) -> None:
    """Delete a passage and the evidence links that use it."""
    passage = lookup.row(session, Passage, passage_id, f"no passage with id {passage_id}")
    log_change(session, "passage.delete", case_id=passage.case_id, item_id=passage.document_id,
               summary=passage.quote[:200], data={"passage_id": passage.id})
    linked = list(session.scalars(
        select(EvidenceLink.item_id).where(EvidenceLink.passage_id == passage_id)))
    session.delete(passage)
    session.flush()
    if linked:  # claims supported or contradicted by it get their status again
        from casefile.services.claims import refresh_claims_of

        refresh_claims_of(session, linked)
