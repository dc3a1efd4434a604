"""A PDF page's text as a reporter reads it: columns apart, running headers last, hyphenated
line breaks joined, and each stored character tied to PDFium's character on the page.

The text of a page is a list of :class:`Line`; each character keeps the PDFium character index
it came from (``-1`` for a character made here, such as a line break), so the page view can box
a passage on the page whatever was reordered or removed. :func:`char_runs` packs those indexes
into runs for storage (``Ingested.extra["pdf_char_runs"]``), :func:`pdfium_ranges` reads them
back for a span of stored text.

Rules, each where it comes from:

* **Columns** (:func:`column_order`): PDFium gives text in content-stream order, which for two
  columns set side by side is line 1 of the left column, then line 1 of the right, and so on.
  When PDFium's text rectangles show two runs on the same line far apart (a gap wider than three
  line heights, on at least two lines of the page), pdfminer.six's layout analysis (``LAParams``
  defaults) groups the page into text boxes in reading order, and the page is stored box by box,
  each box's lines in order. Other pages keep PDFium's order unchanged.
* **Running headers and footers** (:func:`move_running_lines`): one of the first two or last
  two lines of a page, in the top or bottom :data:`RUNNING_MARGIN` of the page, whose text,
  digits aside, is the same on at least two pages and on half the pages or more (and like no
  other line of its page, which would make it a line of a form or a list), is moved
  after the page's body (kept and searchable, out of the flow of
  a quote that runs from one page into the next).
* **Hyphenated line ends** (:func:`join_hyphenated`): "protec-⏎tion" becomes "protection"
  when the part after the break starts with a lower-case letter, unless the document holds the
  hyphenated form elsewhere and not the joined one, or the parts are a usual compound (first
  part in :data:`COMPOUND_FIRST`, or second in :data:`COMPOUND_SECOND`: "well-known",
  "self-defense", "long-term"), which keep their hyphen. A break before a capital, a digit or a
  dash standing alone stays as it is.
* **Trust** (:func:`doubts`): counts what is likely a misread character: private-use
  characters (except one standing alone, a bullet from a symbol font), replacement
  characters, controls and pdfminer's ``(cid:N)`` (hard signs); rare ideographs (CJK extension
  A and beyond, compatibility ideographs), spacing modifier letters and words of an impossible
  shape (case flipping inside a word twice or more, ``\\ ~ ^ | { } < >`` between letters)
  (soft signs). A page whose signs reach :data:`DOUBT_RATIO` of its characters is read again
  with pdfminer.six: when both engines read the same characters and there is no hard sign,
  PDFium's text stays (the rare characters are on the page); else the reading with fewer signs
  is kept, and the page needs OCR when that one too reaches the ratio.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

#: PDFium's mark for a hyphen that breaks a word at a line end (the lines are run together).
SOFT_HYPHENS = "\ufffe\x02"
_DROPPED = re.compile(r"[\x00\x01\x03-\x08\x0b\x0e-\x1f]")
_LINE_END = re.compile(r"\r\n|\r|\n")

#: First parts that make a compound kept with its hyphen across a line break.
COMPOUND_FIRST = frozenset({
    "well", "self", "ill", "all", "half", "ex", "long", "short", "high", "low", "full",
    "cross", "so", "far", "much", "near", "part", "first", "second", "third", "one", "two",
    "three", "four", "five", "anti", "pro", "non", "co", "post", "pre", "vice", "mid",
})
#: Second parts that make a compound kept with its hyphen across a line break.
COMPOUND_SECOND = frozenset({
    "based", "known", "like", "free", "related", "term", "year", "old", "up", "down", "off",
    "out", "time", "wide", "run", "level", "owned", "led", "backed", "made", "style", "born",
    "minded", "friendly", "funded", "elect", "in", "law", "laws", "president", "general",
})


@dataclass
class Line:
    """One line of page text: its characters and, for each, PDFium's character index."""

    chars: list[str] = field(default_factory=list)
    index: list[int] = field(default_factory=list)
    #: where the line sits, as a fraction of the page's height from its top (None: unknown)
    depth: float | None = None

    @property
    def text(self) -> str:
        return "".join(self.chars)

    def add(self, char: str, index: int) -> None:
        self.chars.append(char)
        self.index.append(index)

    def strip(self) -> Line:
        """The line without surrounding whitespace."""
        start, end = 0, len(self.chars)
        while start < end and self.chars[start].isspace():
            start += 1
        while end > start and self.chars[end - 1].isspace():
            end -= 1
        return Line(self.chars[start:end], self.index[start:end], self.depth)


def place_lines(lines: Iterable[Line], top_of: Callable[[int], float | None],
                height: float) -> None:
    """Set each line's ``depth`` from ``top_of(pdfium_index)`` (the top of a character, in PDF
    points from the page's bottom) of its first placed character; ``height`` in points."""
    for line in lines:
        for char, position in zip(line.chars, line.index, strict=True):
            if position >= 0 and not char.isspace():
                top = top_of(position)
                if top is not None:
                    line.depth = min(1.0, max(0.0, 1 - top / max(height, 1.0)))
                    break


def pdfium_lines(raw: str) -> list[Line]:
    """PDFium's page text (``textpage.get_text_range()``, character i = PDFium char index i)
    split into lines; CR LF, CR and LF end a line, control characters are dropped, and PDFium's
    soft-hyphen marks are kept for :func:`join_hyphenated`."""
    lines = []
    start = 0
    for found in (*_LINE_END.finditer(raw), None):
        end = found.start() if found is not None else len(raw)
        segment = raw[start:end]
        if _DROPPED.search(segment):
            kept = [n for n, c in enumerate(segment) if not _DROPPED.match(c)]
            lines.append(Line([segment[n] for n in kept], [start + n for n in kept]))
        else:
            lines.append(Line(list(segment), list(range(start, end))))
        if found is not None:
            start = found.end()
    return lines


def page_text(lines: Sequence[Line]) -> tuple[str, list[int]]:
    """(text, PDFium index per character) of ``lines`` joined by line breaks; a soft-hyphen
    mark still there becomes "-" (a hyphen printed on the page)."""
    chars: list[str] = []
    index: list[int] = []
    for number, line in enumerate(lines):
        if number:
            chars.append("\n")
            index.append(-1)
        chars.extend("-" if c in SOFT_HYPHENS else c for c in line.chars)
        index.extend(line.index)
    return "".join(chars), index


def char_runs(index: Sequence[int]) -> list[list[int]]:
    """Pack per-character PDFium indexes into runs ``[start, pdfium_index, length]``: the
    characters ``start .. start+length-1`` of the page's stored text are PDFium characters
    ``pdfium_index ..`` in turn. Characters without one (-1) are in no run."""
    runs: list[list[int]] = []
    position, count = 0, len(index)
    while position < count:
        value = index[position]
        if value < 0:
            position += 1
            continue
        length = 1
        # jump ahead while the indexes stay consecutive (most of a line at once)
        step = 64
        while step:
            end = position + length + step
            if end <= count and index[end - 1] == value + length + step - 1 and \
                    index[position + length:end] == list(range(value + length, value + length
                                                               + step)):
                length += step
            else:
                step //= 2
        runs.append([position, value, length])
        position += length
    return runs


def pdfium_ranges(runs: Iterable[Sequence[int]], start: int, end: int) -> list[tuple[int, int]]:
    """PDFium character ranges ``(first index, count)`` holding the page's stored characters
    ``start <= i < end`` (page-local str offsets), in stored order, for ``count_rects``."""
    ranges: list[tuple[int, int]] = []
    for run_start, first, length in runs:
        lo, hi = max(start, run_start), min(end, run_start + length)
        if lo < hi:
            ranges.append((first + lo - run_start, hi - lo))
    return ranges


# -- columns ------------------------------------------------------------------------------------

def has_side_by_side_runs(rects: Sequence[tuple[float, float, float, float]]) -> bool:
    """True when at least two lines of PDFium's text rectangles ``(left, bottom, right, top)``
    hold two runs far apart (a gap over three line heights): a page set in columns."""
    found = 0
    ordered = sorted(rects, key=lambda r: (-r[3], r[0]))
    for number, (left, bottom, right, top) in enumerate(ordered):
        height = max(top - bottom, 1.0)
        for other in ordered[number + 1:]:
            o_left, o_bottom, o_right, o_top = other
            if o_top < bottom:
                break
            overlap = min(top, o_top) - max(bottom, o_bottom)
            if overlap < 0.5 * min(height, o_top - o_bottom):
                continue
            gap = max(o_left - right, left - o_right)
            if gap > 3 * height:
                found += 1
                break
        if found >= 2:
            return True
    return False


def column_order(lines: list[Line], boxes: Sequence[tuple[float, float, float, float]],
                 char_box: dict[int, tuple[float, float, float, float]]) -> list[Line] | None:
    """The page's lines regrouped by ``boxes`` (pdfminer.six text boxes ``(x0, y0, x1, y1)``
    in reading order): each box's part of each line, in box order, as a line of its own.
    ``char_box`` gives PDFium's box of a character index. Returns None when no line holds text
    of two boxes (PDFium's order is already a reading order)."""
    def box_of(position: int) -> int | None:
        bbox = char_box.get(position)
        if bbox is None or bbox[2] <= bbox[0]:
            return None
        x, y = (bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2
        for number, (x0, y0, x1, y1) in enumerate(boxes):
            if x0 - 1 <= x <= x1 + 1 and y0 - 1 <= y <= y1 + 1:
                return number
        return None

    owners: list[list[int | None]] = []
    mixed = False
    for line in lines:
        owner: list[int | None] = []
        current: int | None = None
        for char, position in zip(line.chars, line.index, strict=True):
            found = None if char.isspace() else box_of(position)
            if found is not None:
                current = found
            owner.append(found if found is not None else current)
        first = next((o for o in owner if o is not None), None)  # leading spaces
        owner = [first if o is None else o for o in owner]
        if len({o for o in owner if o is not None}) > 1:
            mixed = True
        owners.append(owner)
    if not mixed:
        return None
    order = [*range(len(boxes)), None]
    result: list[Line] = []
    for box in order:
        for line, owner in zip(lines, owners, strict=True):
            part = Line([c for c, o in zip(line.chars, owner, strict=True) if o == box],
                        [i for i, o in zip(line.index, owner, strict=True) if o == box])
            part = part.strip()
            if part.chars:
                result.append(part)
    return result


# -- running headers and footers ----------------------------------------------------------------

#: Share of the page's height, at its top and at its bottom, where running lines are looked for.
RUNNING_MARGIN = 0.07


def _running_key(line: Line) -> str:
    return re.sub(r"\d+", "#", " ".join(line.text.split())).casefold()


def move_running_lines(pages: list[list[Line]]) -> list[int]:
    """Move running headers and footers after each page's body (in place; rule in the module
    docstring). Returns the 1-based pages that had one."""
    if len(pages) < 2:
        return []

    def candidates(lines: list[Line]) -> list[int]:
        filled = [n for n, line in enumerate(lines) if line.text.strip()]
        if len(filled) < 3:
            return []
        keys = Counter(_running_key(lines[n]) for n in filled)
        return sorted(n for n in set(filled[:2] + filled[-2:])
                      if (depth := lines[n].depth) is not None
                      and not RUNNING_MARGIN < depth < 1 - RUNNING_MARGIN
                      and keys[_running_key(lines[n])] == 1)

    counts: Counter[str] = Counter()
    for lines in pages:
        counts.update({_running_key(lines[n]) for n in candidates(lines)
                       if len(lines[n].text.strip()) <= 100})
    needed = max(2, (len(pages) + 1) // 2)
    running = {key for key, count in counts.items() if count >= needed and key.strip("# ")}
    moved: list[int] = []
    for number, lines in enumerate(pages, 1):
        picked = [n for n in candidates(lines) if _running_key(lines[n]) in running]
        if not picked:
            continue
        body = [line for n, line in enumerate(lines) if n not in picked]
        while body and not body[-1].text.strip():
            body.pop()
        lines[:] = [*body, Line(), *(lines[n] for n in picked)]
        moved.append(number)
    return moved


# -- hyphenated line ends -----------------------------------------------------------------------

_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


def vocabulary(texts: Iterable[str]) -> tuple[set[str], set[str]]:
    """(words, hyphenated words) of ``texts``, lower-cased, for :func:`join_hyphenated`;
    PDFium's soft-hyphen marks (breaks, not spellings) separate words here."""
    words: set[str] = set()
    hyphenated: set[str] = set()
    for text in texts:
        text = re.sub(f"[{SOFT_HYPHENS}]", " ", text)
        for found in _WORD.finditer(text.lower()):
            token = found.group()
            (hyphenated if "-" in token else words).add(token)
            words.update(token.split("-"))
    return words, hyphenated


def should_join(before: str, after: str, words: set[str], hyphenated: set[str]) -> bool:
    """Whether "before-⏎after" (the word parts on each side of a hyphen at a line end) is one
    word broken by hyphenation (rule in the module docstring)."""
    if not before or not after or not after[0].islower():
        return False
    joined, compound = (before + after).lower(), f"{before}-{after}".lower()
    if joined in words:
        return True
    if compound in hyphenated:
        return False
    return before.lower() not in COMPOUND_FIRST and after.lower() not in COMPOUND_SECOND


def _tail_word(chars: Sequence[str], end: int) -> str:
    start = end
    while start > 0 and chars[start - 1].isalpha():
        start -= 1
    return "".join(chars[start:end])


def _head_word(chars: Sequence[str], start: int) -> str:
    end = start
    while end < len(chars) and chars[end].isalpha():
        end += 1
    return "".join(chars[start:end])


def join_hyphenated(lines: list[Line], words: set[str], hyphenated: set[str]) -> int:
    """Join words hyphenated at a line end, in place: PDFium's soft-hyphen marks inside a line
    and a "-" ending a line before the next line's word. Returns how many were joined."""
    joined = 0
    for line in lines:
        for position in range(len(line.chars) - 1, -1, -1):
            if line.chars[position] not in SOFT_HYPHENS:
                continue
            if should_join(_tail_word(line.chars, position), _head_word(line.chars, position + 1),
                           words, hyphenated):
                del line.chars[position], line.index[position]
                joined += 1
            else:
                line.chars[position] = "-"
    number = 0
    while number < len(lines) - 1:
        line, following = lines[number], lines[number + 1]
        end = len(line.chars)
        while end and line.chars[end - 1] == " ":
            end -= 1
        lead = 0
        while lead < len(following.chars) and following.chars[lead] == " ":
            lead += 1
        if (end >= 2 and line.chars[end - 1] == "-" and line.chars[end - 2].isalpha()
                and should_join(_tail_word(line.chars, end - 1),
                                _head_word(following.chars, lead), words, hyphenated)):
            merged = Line(line.chars[:end - 1] + following.chars[lead:],
                          line.index[:end - 1] + following.index[lead:])
            lines[number:number + 2] = [merged]
            joined += 1
            continue
        number += 1
    return joined


# -- trust --------------------------------------------------------------------------------------

_CID = re.compile(r"\(cid:\d+\)")
_ODD_INSIDE = re.compile(r"[^\W\d_][\\~^|{}<>][^\W\d_]")
_CASE_FLIP = re.compile(r"[^\W\d_](?<![A-Z])[A-Z]")
# tokens worth a word-shape test: a case flip or an odd sign between letters somewhere in them
_SHAPE_SUSPECT = re.compile(r"\S*(?:[^\W\d_][A-Z]|[^\W\d_][\\~^|{}<>][^\W\d_])\S*")
_LONE_SYMBOL = re.compile(r"(?<!\S)[\ue000-\uf8ff](?!\S)")
_USUAL_MODIFIERS = set("\u02bc\u02c6\u02dc\u02b9\u02bb")


def _rare(char: str) -> bool:
    code = ord(char)
    return (0x3400 <= code <= 0x4DBF or 0x20000 <= code <= 0x3FFFF or 0xF900 <= code <= 0xFAFF
            or (0x02B0 <= code <= 0x02FF and char not in _USUAL_MODIFIERS))


@dataclass(frozen=True)
class Doubts:
    """Signs that a page's text was misread: ``hard`` (never right in a text), ``soft``
    (right in some texts), out of ``visible`` non-space characters."""

    hard: int
    soft: int
    visible: int

    @property
    def ratio(self) -> float:
        """Share of suspect characters (0.0 .. 1.0+)."""
        return (self.hard + self.soft) / max(1, self.visible)


def doubts(text: str) -> Doubts:
    """Count the signs of a misread text (rule in the module docstring)."""
    hard = soft = visible = 0
    cids = _CID.findall(text)
    hard += sum(len(c) for c in cids)
    counts = Counter(_CID.sub("", text))
    for char, number in counts.items():
        if char.isspace():
            continue
        visible += number
        if char.isascii() and char.isprintable():
            continue
        category = unicodedata.category(char)
        if category in ("Co", "Cn", "Cs", "Cc") or char == "\ufffd":
            hard += number
        elif _rare(char):
            soft += number
    visible += sum(len(c) for c in cids)
    hard -= len(_LONE_SYMBOL.findall(text))  # a bullet or a box drawn from a symbol font
    for token in _SHAPE_SUSPECT.findall(text):
        if len(_CASE_FLIP.findall(token)) >= 2 or _ODD_INSIDE.search(token):
            soft += len(token)
    return Doubts(hard, soft, visible)


#: A page whose share of suspect characters reaches this is not taken as it reads.
DOUBT_RATIO = 0.05


def credible(found: Doubts) -> bool:
    """True when a page's text shows too few signs of a misreading to doubt it."""
    return found.ratio < DOUBT_RATIO


def same_reading(a: str, b: str) -> bool:
    """True when two engines read the same characters (whitespace aside)."""
    return "".join(a.split()) == "".join(b.split())


__all__ = [
    "COMPOUND_FIRST", "COMPOUND_SECOND", "DOUBT_RATIO", "RUNNING_MARGIN", "Doubts", "Line",
    "char_runs", "column_order", "credible", "doubts", "has_side_by_side_runs",
    "join_hyphenated", "move_running_lines", "page_text", "pdfium_lines", "pdfium_ranges",
    "place_lines", "same_reading", "should_join", "vocabulary",
]
