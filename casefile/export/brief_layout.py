"""The brief's page and type: page size and margins, colours, paragraph styles, and user text
turned into safe Paragraph markup (see the safety rules in :mod:`casefile.export.brief`).

Never touches Qt or the database.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import (
    Flowable,
    Paragraph,
)

from casefile.export import para_markup
from casefile.export.brief_data import (
    EventEntry,
    QuestionEntry,
)
from casefile.export.fonts import RegisteredFonts
from casefile.export.textruns import (
    has_rtl,
    markup,
    rtl_base,
    visual_lines,
)

ProgressCallback = Callable[[int, int], None]

#: US Letter, in points (1/72 inch).
PAGE_SIZE = LETTER
MARGIN_X = 1.0 * inch
MARGIN_TOP = 1.0 * inch
MARGIN_BOTTOM = 0.9 * inch

#: Longest run of user text put into one Paragraph; longer text continues in the next one.
CHUNK_CHARS = 2500

CONFIDENTIAL_LINE = "CONFIDENTIAL — contains unpublished reporting"
#: Creator and producer written into the PDF metadata: the program, no version, no user.
PRODUCER = "Casefile"

INK = colors.HexColor("#1b1b1b")
MUTED = colors.HexColor("#5a5f66")
ACCENT = colors.HexColor("#1f3a5f")
RULE = colors.HexColor("#c9ced6")
ALERT = colors.HexColor("#b3261e")
ALERT_BG = colors.HexColor("#fbeceb")
QUOTE_BAR = colors.HexColor("#8aa1bf")

# Colours are constants of this module, never user text, so they are safe in markup.
_STATUS_COLOURS = {
    "corroborated": "#2e7d32",
    "single-source": "#a15c00",
    "unverified": "#5a5f66",
    "disputed": "#c05600",
    "false": "#b3261e",
}

_CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SURROGATES = re.compile(r"[\ud800-\udfff]")
_SENTENCE_END = re.compile(r"[.!?…][\"”’)\]]*[ \n]")
_ISO_DATE = re.compile(r"^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?")


class _Paragraph(Paragraph):
    """A Paragraph that breaks its lines once per width: platypus wraps a paragraph again at
    the same width (a KeepTogether measures its content, then the frame places each piece), and
    line breaking is most of the layout's time. The lines only depend on the width (a split
    that drops them makes the next wrap break them again)."""

    _wrapped: tuple[float, int, float, float] | None = None
    _rtl = False
    _rtl_style: ParagraphStyle | None = None

    def __init__(self, text: str | None, style: Any = None, bulletText: Any = None,  # noqa: N803
                 frags: Any = None, **kwargs: Any) -> None:
        if frags is None and text is not None and style is not None:
            # the brief's own markup, read without reportlab's HTML parser (same fragments)
            parsed = para_markup.parse(text, style)
            if parsed is not None:
                text, frags = parsed
        super().__init__(text, style, bulletText, frags, **kwargs)
        # Right-to-left text is reordered line by line when drawn (casefile.export.textruns).
        if text is not None and text.isascii():
            return
        source = "".join(getattr(f, "text", "") for f in self.frags)
        self._rtl = has_rtl(source)
        if self._rtl and rtl_base(source):
            self._rtl_style = ParagraphStyle("rtl", self.__dict__["style"], alignment=TA_RIGHT)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        key = (availWidth, id(self.frags))
        cached = self._wrapped
        if cached is not None and cached[:2] == key and "blPara" in self.__dict__:
            return cached[2], cached[3]
        width, height = super().wrap(availWidth, availHeight)
        self._wrapped = (availWidth, id(self.frags), width, height)
        return width, height

    def drawPara(self, debug: int = 0) -> None:  # noqa: N802 - reportlab's name
        if not self._rtl:
            super().drawPara(debug)
            return
        logical: Any = self.__dict__["blPara"]
        style: Any = self.__dict__["style"]
        self.blPara = visual_lines(logical, self._rtl_style is not None)
        self.style = self._rtl_style or style
        try:
            super().drawPara(debug)
        finally:
            self.blPara, self.style = logical, style


# --------------------------------------------------------------------------------------------
# Text helpers: user text -> safe markup


def _clean(value: object) -> str:
    """User value as printable text: str(), CRLF -> LF, tabs -> space, no control characters."""
    text = "" if value is None else str(value)
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    text = _CONTROL_CHARS.sub("", text)
    return _SURROGATES.sub("\ufffd", text)


def _text(value: object, *, keep_newlines: bool = False) -> str:
    """Escape a user value for Paragraph markup (``&``, ``<``, ``>``); newlines become
    ``<br/>`` when ``keep_newlines`` else spaces. While a brief is built, runs the main font
    lacks are wrapped in ``<font name=…>`` of a fallback font (:mod:`casefile.export.textruns`)."""
    text = _clean(value)
    if not keep_newlines:
        return markup(" ".join(text.split("\n")))
    return "<br/>".join(markup(line) for line in text.split("\n"))


def _chunks(text: str, limit: int = CHUNK_CHARS) -> list[str]:
    """Cut ``text`` into pieces of at most ``limit`` characters.

    A cut prefers, in the second half of the window: a line end, then the end of a sentence,
    then any space; the whitespace it falls on is dropped (the pieces become separate
    paragraphs, so a cut reads like a paragraph break). A piece without whitespace (one
    enormous word) is cut hard and loses nothing.
    """
    pieces: list[str] = []
    rest = text
    while len(rest) > limit:
        window = rest[: limit + 1]
        floor = limit // 2
        cut = window.rfind("\n")
        if cut < floor:
            ends = [m.end() - 1 for m in _SENTENCE_END.finditer(window, floor)]
            cut = ends[-1] if ends else -1
        if cut < floor:
            cut = window.rfind(" ")
        if cut >= floor:
            pieces.append(rest[:cut])
            rest = rest[cut + 1 :]
        else:
            pieces.append(rest[:limit])
            rest = rest[limit:]
    pieces.append(rest)
    return pieces


def _present(value: str | None) -> bool:
    return value is not None and _clean(value).strip() != ""


# --------------------------------------------------------------------------------------------
# Ordering and formatting rules


def sort_questions(questions: Iterable[QuestionEntry]) -> list[QuestionEntry]:
    """Order follow-ups for the brief: overdue first, then by due date, undated last.

    Ties keep their given order (the sort is stable). Dates compare as ISO 8601 strings.
    """
    return sorted(questions, key=lambda q: (not q.overdue, not q.due, q.due or ""))


def format_event_date(date: str | None, precision: str = "day", end: str | None = None) -> str:
    """Show an event date at the precision it is known.

    ``day``/``exact`` print the date as given (``2018-02-14``); ``month`` prints ``2018-02``;
    ``year`` prints ``2018``; ``approximate`` prefixes ``~ `` (``~ 2018-02``). An ``end`` date
    is appended as ``… – end``, at the same precision (``2016-09 – 2017-11``). No date gives
    ``undated``.
    """
    if not date or not _clean(date).strip():
        return "undated"
    shown = _at_precision(date, precision)
    if precision == "approximate":
        shown = "~ " + shown
    if end and _clean(end).strip():
        shown += " – " + _at_precision(end, precision)
    return shown


def _at_precision(value: str, precision: str) -> str:
    shown = _clean(value).strip()
    match = _ISO_DATE.match(shown)
    if match and precision == "month" and match.group(2):
        return f"{match.group(1)}-{match.group(2)}"
    if match and precision == "year":
        return match.group(1)
    return shown


def _event_sort_key(event: EventEntry) -> tuple[bool, str]:
    return (not event.date, _clean(event.date or ""))


# --------------------------------------------------------------------------------------------
# Styles


class _Styles:
    """Paragraph styles of the brief, all in the registered Unicode family."""

    def __init__(self, fonts: RegisteredFonts) -> None:
        regular, bold = fonts.regular, fonts.bold
        self.fonts = fonts
        base = ParagraphStyle(
            "body",
            fontName=regular,
            bulletFontName=regular,
            fontSize=10,
            leading=14,
            textColor=INK,
            alignment=TA_LEFT,
            splitLongWords=1,
            spaceAfter=3,
        )
        self.body = base
        self.meta = ParagraphStyle("meta", base, fontSize=8.8, leading=12, textColor=MUTED)
        self.muted = ParagraphStyle("muted", base, textColor=MUTED, fontName=fonts.italic)
        self.h1 = ParagraphStyle(
            "h1",
            base,
            fontName=bold,
            fontSize=15,
            leading=19,
            textColor=ACCENT,
            spaceBefore=16,
            spaceAfter=2,
            keepWithNext=1,
        )
        self.h2 = ParagraphStyle(
            "h2",
            base,
            fontName=bold,
            fontSize=11.5,
            leading=15,
            spaceBefore=10,
            spaceAfter=1,
            keepWithNext=1,
        )
        self.quote = ParagraphStyle(
            "quote",
            base,
            fontSize=9.5,
            leading=13.5,
            leftIndent=18,
            spaceBefore=2,
            spaceAfter=3,
        )
        self.quote_cont = ParagraphStyle("quote_cont", self.quote, spaceBefore=0, spaceAfter=0)
        self.quote_note = ParagraphStyle(
            "quote_note", self.meta, leftIndent=18, fontName=fonts.italic, spaceAfter=4
        )
        self.item = ParagraphStyle("item", base, spaceBefore=8, spaceAfter=1)
        self.timeline = ParagraphStyle(
            "timeline",
            base,
            leftIndent=1.25 * inch,
            bulletIndent=0,
            bulletFontName=bold,
            bulletFontSize=9.5,
            spaceBefore=8,
            spaceAfter=1,
        )
        self.timeline_meta = ParagraphStyle("timeline_meta", self.meta, leftIndent=1.25 * inch)
        self.timeline_quote = ParagraphStyle(
            "timeline_quote", self.quote, leftIndent=1.25 * inch + 12
        )
        self.timeline_quote_cont = ParagraphStyle(
            "timeline_quote_cont", self.timeline_quote, spaceBefore=0, spaceAfter=0
        )
        self.timeline_note = ParagraphStyle(
            "timeline_note", self.quote_note, leftIndent=1.25 * inch + 12
        )
        self.source = ParagraphStyle(
            "source", base, leftIndent=30, bulletIndent=0, bulletFontName=bold, spaceBefore=8
        )
        self.source_meta = ParagraphStyle("source_meta", self.meta, leftIndent=30, spaceAfter=0)
        self.hash = ParagraphStyle(
            "hash", self.meta, leftIndent=30, fontSize=8, leading=11, spaceAfter=2
        )
        self.kicker = ParagraphStyle(
            "kicker", base, fontName=bold, fontSize=10, leading=14, textColor=ACCENT
        )
        self.title = ParagraphStyle(
            "title", base, fontName=bold, fontSize=26, leading=32, spaceBefore=6, spaceAfter=10
        )
        self.title_meta = ParagraphStyle("title_meta", base, fontSize=11, leading=16)
        self.banner = ParagraphStyle(
            "banner",
            base,
            fontName=bold,
            fontSize=12,
            leading=16,
            textColor=ALERT,
            backColor=ALERT_BG,
            borderColor=ALERT,
            borderWidth=1,
            borderPadding=(8, 10, 8, 10),
            spaceBefore=26,
            spaceAfter=26,
        )
        self.cover_summary = ParagraphStyle("cover_summary", base, fontSize=11, leading=15.5)
        self.count = ParagraphStyle("count", base, fontName=bold, fontSize=20, leading=24,
                                    textColor=ACCENT, spaceAfter=0)
        self.count_label = ParagraphStyle("count_label", self.meta, fontSize=8.5, leading=10.5,
                                          spaceAfter=0)
        self.contents = ParagraphStyle(
            "contents", base, leftIndent=14, bulletIndent=0, spaceAfter=2
        )


# --------------------------------------------------------------------------------------------
# Building blocks


def _paragraphs(
    text: str | None, style: ParagraphStyle, cont_style: ParagraphStyle | None = None,
    *, suffix: str = "",
) -> list[Flowable]:
    """User text as one or more Paragraphs: blank lines start paragraphs, long ones are chunked.

    ``suffix`` is markup put after the last piece (e.g. citations)."""
    cleaned = _clean(text).strip()
    if not cleaned:
        return []
    pieces: list[tuple[str, ParagraphStyle]] = []
    for block in re.split(r"\n\s*\n", cleaned):
        for i, piece in enumerate(_chunks(block.strip())):
            use = cont_style if (i and cont_style is not None) else style
            pieces.append((_text(piece, keep_newlines=True), use))
    last = len(pieces) - 1
    return [_Paragraph(markup + (suffix if i == last else ""), use)
            for i, (markup, use) in enumerate(pieces)]
