"""Text helpers: apostrophe folding, name-word patterns, sentence spans.

All offsets are Python str indices into the text given. ``fold`` keeps the length of the text,
so offsets found in the folded text are valid in the original.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from casefile.extract.lexicon import ABBREVIATIONS

_FOLD = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u00a0": " ",
                       "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2011": "-"})


def fold(text: str) -> str:
    """Return ``text`` with curly apostrophes/quotes, no-break spaces and dashes made ASCII.

    The result has exactly the same length, so offsets carry over unchanged.
    """
    return text.translate(_FOLD)


def norm_key(name: str) -> str:
    """Comparison key of a name: folded apostrophes, case-folded, single spaces, no leading
    "the", no possessive ending, no surrounding punctuation."""
    s = re.sub(r"\s+", " ", fold(name)).strip().casefold()
    s = re.sub(r"^the ", "", s)
    s = re.sub(r"'s?$", "", s)
    return s.strip(" .,;:'\"")


def strip_accents(s: str) -> str:
    """``s`` without combining accents (used only for comparison keys)."""
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))


def _char_class(pred: str) -> str:
    chars = [chr(c) for c in range(0x41, 0x530) if getattr(chr(c), pred)() and chr(c).isalpha()]
    return "".join(re.escape(c) for c in chars)


UPPER = _char_class("isupper")
LOWER = _char_class("islower")

# A capitalised word: "Mercer", "O'Brien", "Smith-Jones", "Łucja", "McDonald". A possessive
# "'s" is not part of it.
CAPWORD = rf"[{UPPER}][^\W_]*(?:-[^\W\d_]+|'(?=[{UPPER}])[^\W\d_]+)*"
INITIAL = rf"[{UPPER}]\."


def is_cap(word: str) -> bool:
    """True if ``word`` starts with an upper-case letter."""
    return bool(word) and word[0].isupper()


_SENT_END = re.compile(r"[.!?]+[\"')\]]*(?=\s)|\n\s*\n|\n(?=\s*[\[\-*•])")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Split ``text`` into sentences; return (start, end) offsets with whitespace trimmed.

    A period after a known abbreviation ("Sen.", "Feb.", "U.S.") or a single initial ("K.")
    does not end a sentence unless a blank line follows.
    """
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SENT_END.finditer(text):
        if m.group().startswith("."):
            before = re.search(r"([\w.']+)$", text[start:m.start()])
            word = before.group(1).lower() if before else ""
            if word.rstrip(".") in ABBREVIATIONS or re.fullmatch(r"[^\W\d_]", word):
                continue
            nxt = re.match(r"\s*(\S)", text[m.end():])
            if nxt and nxt.group(1).islower():
                continue
        end = m.end()
        spans.append((start, end))
        start = end
    spans.append((start, len(text)))
    out = []
    for s, e in spans:
        seg = text[s:e]
        ls = len(seg) - len(seg.lstrip())
        rs = len(seg.rstrip())
        if rs > ls:
            out.append((s + ls, s + rs))
    return out


def sentence_index(spans: list[tuple[int, int]], offset: int) -> int:
    """Index of the sentence holding ``offset`` (the last one starting at or before it)."""
    lo, hi = 0, len(spans) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if spans[mid][0] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo


def words(span_text: str) -> Iterator[re.Match[str]]:
    """Word-like tokens of a text (letters/digits with inner apostrophes, hyphens, periods)."""
    return re.finditer(r"[^\W_]+(?:[.'\-][^\W_]+)*\.?", span_text)
