"""Lay out a case as a PDF brief (reportlab platypus).

The brief is a newsroom memo on US Letter paper: a title page (case, date generated, the
"CONFIDENTIAL — contains unpublished reporting" warning and whether confidential material is
included), then the summary, open questions and follow-ups, people, organizations, places, the
timeline, claims and the sources list. Quotes are printed verbatim between curly quotes and cite
their source as ``[n]`` (``[n], p. N`` with a page), where ``n`` is :attr:`SourceEntry.number`.
Every page but the first carries the case title in its header; every page has ``Page N of M``
in its footer.

Safety rules for user text (names, quotes, notes...), which may contain anything:

* Every user string goes through :func:`_text` (XML-escaped, control characters dropped, lone
  surrogates replaced) before it meets Paragraph markup; markup is only ever assembled from
  escaped parts and constants of this module. So ``<``, ``>``, ``&`` and quotes print as typed.
* Long text is cut into chunks of at most :data:`CHUNK_CHARS` characters, each its own
  Paragraph, and words longer than a line are broken (``splitLongWords``); no user content goes
  into a Table or other unsplittable flowable, so nothing is taller than a page and platypus
  never raises ``LayoutError``.

This module never touches Qt or the database: it takes a :class:`BriefData`, which the services
build (already filtered for confidentiality).
"""

from __future__ import annotations

import functools
import io
import os
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, BinaryIO
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.platypus import (
    Flowable,
    HRFlowable,
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from casefile.export.brief_data import (
    BriefData,
    EntityEntry,
    EventEntry,
    MentionEntry,
    QuestionEntry,
    QuoteEntry,
)
from casefile.export.errors import ExportError
from casefile.export.fonts import RegisteredFonts, fallback_fonts, register_fonts
from casefile.export.pdf_check import (
    ProtectedStringFoundError,
    check_written_pdf,
    find_protected,
)
from casefile.export.profiles import DEFAULT_PROFILE, PROFILES, ExportProfile
from casefile.export.textruns import (
    TextRuns,
    active_runs,
    has_rtl,
    markup,
    rtl_base,
    using_runs,
    visual_lines,
)
from casefile.quoting import self_quoted

__all__ = ["CHUNK_CHARS", "PAGE_SIZE", "format_event_date", "render_brief", "sort_questions"]

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

    def __init__(self, text: str | None, *args: Any, **kwargs: Any) -> None:
        super().__init__(text, *args, **kwargs)
        # Right-to-left text is reordered line by line when drawn (casefile.export.textruns).
        if text is not None and text.isascii():
            return
        source = "".join(getattr(f, "text", "") for f in self.frags)
        self._rtl = has_rtl(source)
        if self._rtl and rtl_base(source):
            style: Any = self.__dict__["style"]
            self._rtl_style = ParagraphStyle("rtl", style, alignment=TA_RIGHT)

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


def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 document"``, ``"2 documents"``, ``"0 documents"`` (``many``: an irregular plural,
    e.g. ``plural(2, "person", "people")``)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def _citations(sources: Sequence[QuoteEntry]) -> str:
    """Citation markup for passages that are an entry's own text (`` [1], [2], p. 2``), each
    source and page once."""
    seen: list[QuoteEntry] = []
    for q in sources:
        if all((q.source_number, q.page) != (s.source_number, s.page) for s in seen):
            seen.append(q)
    return (" " + ", ".join(_citation(q) for q in seen)) if seen else ""


def _mentioned(entry: MentionEntry, styles: _Styles) -> list[Flowable]:
    """One line for an item's bare-name mentions in one source: how many, and the words around
    the first."""
    cite = _citation(QuoteEntry("", entry.source_number, page=entry.page))
    times = "once" if entry.count == 1 else f"{entry.count} times"
    line = f"<i>mentioned {times}</i> in {cite}"
    if _present(entry.context):
        line += f": “{_text(entry.context)}”"
    return [_Paragraph(line, styles.quote)]


def _citation(quote: QuoteEntry) -> str:
    cite = f"[{int(quote.source_number)}]"
    if quote.page is not None:
        cite += f", p. {int(quote.page)}"
    return f'<font color="#1f3a5f">{cite}</font>'



def _quote(
    quote: QuoteEntry,
    style: ParagraphStyle,
    cont_style: ParagraphStyle,
    note_style: ParagraphStyle,
) -> list[Flowable]:
    """A quote verbatim in curly quotes with its citation, chunked when long.

    A passage that is itself a whole quotation (starts and ends with quotation marks) is printed
    as it is, without a second pair of marks around it.
    """
    body = _clean(quote.text).strip()
    opening, closing = ("", "") if self_quoted(body) else ("“", "”")  # casefile.quoting
    pieces = _chunks(body)
    prefix = ""
    relation = _clean(quote.relation).strip()
    if relation and relation not in ("supports",):
        prefix = f"<i>{escape(relation)}:</i> "
    if quote.confidential:
        prefix = '<font color="#b3261e"><b>[confidential]</b></font> ' + prefix
    out: list[Flowable] = []
    last = len(pieces) - 1
    for i, piece in enumerate(pieces):
        markup = _text(piece, keep_newlines=True)
        if i == 0:
            markup = prefix + opening + markup
        if i == last:
            markup = markup + closing + " " + _citation(quote)
        out.append(_Paragraph(markup, style if i == 0 else cont_style))
    if _present(quote.note):
        out.extend(_paragraphs("Note: " + _clean(quote.note), note_style))
    return out


def _quotes(
    quotes: Sequence[QuoteEntry], styles: _Styles, *, timeline: bool = False
) -> list[Flowable]:
    if timeline:
        style, cont, note = styles.timeline_quote, styles.timeline_quote_cont, styles.timeline_note
    else:
        style, cont, note = styles.quote, styles.quote_cont, styles.quote_note
    out: list[Flowable] = []
    for quote in quotes:
        out.extend(_quote(quote, style, cont, note))
    return out


def _section(title: str, styles: _Styles) -> list[Flowable]:
    rule = HRFlowable(width="100%", thickness=0.8, color=RULE, spaceBefore=1, spaceAfter=6)
    return [_Paragraph(escape(title), styles.h1), rule]


def _empty(message: str, styles: _Styles) -> list[Flowable]:
    return [_Paragraph(escape(message), styles.muted)]


def _confidential_tag(flag: bool) -> str:
    return ' <font color="#b3261e" size="8">[CONFIDENTIAL]</font>' if flag else ""


def _meta_line(parts: Sequence[tuple[str, str | None]]) -> str:
    """``Label: value · Label: value`` from the parts whose value is present (escaped)."""
    shown = [
        f"<b>{escape(label)}:</b> {_text(value)}" if label else _text(value)
        for label, value in parts
        if value is not None and _present(value)
    ]
    return " · ".join(shown)


# --------------------------------------------------------------------------------------------
# Sections


def key_counts(data: BriefData) -> list[tuple[int, str]]:
    """The cover page's counts, ``(number, label)``, each label in the right number."""
    overdue = sum(1 for q in data.questions if q.overdue)

    def counted(n: int, word: str, many: str | None = None) -> tuple[int, str]:
        return n, plural(n, word, many).split(" ", 1)[1]

    return [
        counted(len(data.people), "person", "people"),
        counted(len(data.organizations), "organization"),
        counted(len(data.sources), "document"),
        counted(len(data.events), "event"),
        counted(len(data.claims), "claim"),
        counted(len(data.questions), "open follow-up"),
        (overdue, "overdue"),
    ]


def _counts_table(data: BriefData, styles: _Styles) -> Table:
    counts = key_counts(data)
    numbers = [_Paragraph(str(value), styles.count) for value, _label in counts]
    labels = [_Paragraph(escape(label), styles.count_label) for _value, label in counts]
    width = (PAGE_SIZE[0] - 2 * MARGIN_X) / len(counts)
    table = Table([numbers, labels], colWidths=[width] * len(counts))
    commands: list[tuple[Any, ...]] = [
        ("FONTNAME", (0, 0), (-1, -1), styles.body.fontName),
        ("LINEABOVE", (0, 0), (-1, 0), 0.8, RULE),
        ("LINEBELOW", (0, 1), (-1, 1), 0.8, RULE),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, 0), 8),
        ("BOTTOMPADDING", (0, 1), (-1, 1), 8),
        ("LEFTPADDING", (0, 0), (-1, -1), 2),
        ("RIGHTPADDING", (0, 0), (-1, -1), 2),
    ]
    table.setStyle(TableStyle(commands))
    return table


def _profile_of(data: BriefData) -> ExportProfile:
    """The export profile the brief's data was made under (its handling mark)."""
    return PROFILES.get(data.profile) or PROFILES[DEFAULT_PROFILE]


def _title_page(data: BriefData, styles: _Styles) -> list[Flowable]:
    """The cover: title, confidentiality, the key counts, the case summary, contents. The
    summary is printed here only (a long one flows on to the next pages)."""
    marking = _profile_of(data)
    overdue = sum(1 for q in data.questions if q.overdue)
    contents = [
        ("Open questions and follow-ups",
         f"{len(data.questions)}, {overdue} overdue" if overdue else str(len(data.questions))),
        ("People", str(len(data.people))),
        ("Organizations", str(len(data.organizations))),
        ("Places", str(len(data.places))),
        ("Timeline", plural(len(data.events), "event")),
        ("Claims", str(len(data.claims))),
        ("Sources", plural(len(data.sources), "document")),
    ]
    if data.cover_note:
        inclusion = _text(data.cover_note)
    elif data.includes_confidential:
        inclusion = (
            '<font color="#b3261e"><b>Confidential items and sources are INCLUDED in this '
            "brief.</b></font> Handle it as you would the source material itself."
        )
    else:
        inclusion = (
            "Confidential items and sources are <b>left out</b> of this brief "
            "(export with confidential material included to print them)."
        )
    summary = _paragraphs(data.summary, styles.cover_summary) or _empty(
        "No summary written yet.", styles)
    story: list[Flowable] = [
        Spacer(1, 0.5 * inch),
        _Paragraph("CASE BRIEF", styles.kicker),
        *_paragraphs(data.case_title or "Untitled case", styles.title),
        _Paragraph(f"Generated {_text(data.generated)} by Casefile", styles.title_meta),
        *([_Paragraph(
            escape(marking.marking)
            + f'<br/><font size="9.5" color="#1b1b1b">{escape(marking.marking_detail)}</font>',
            styles.banner,
        )] if marking.marking else []),
        _counts_table(data, styles),
        Spacer(1, 0.1 * inch),
        _Paragraph("Summary", styles.h2),
        *summary,
        Spacer(1, 0.1 * inch),
        _Paragraph(inclusion, styles.meta),
        _Paragraph("Contents", styles.h2),
    ]
    for name, count in contents:
        suffix = f' <font color="#5a5f66">({escape(count)})</font>' if count else ""
        story.append(_Paragraph(escape(name) + suffix, styles.contents, bulletText="•"))
    story.append(PageBreak())
    return story


def _figure(drawing: Any, caption: str, styles: _Styles) -> list[Flowable]:
    """A drawing with its caption under it, to be kept together by the caller's section
    (:func:`_compose`). Not a KeepTogether of its own: one nested in another measures as
    endless, which sent every section with a figure to a new page, the page before it left
    two-thirds empty."""
    return [drawing, _Paragraph(escape(caption), styles.meta), Spacer(1, 6)]


class _FitTogether(KeepTogether):
    """A KeepTogether holding one figure that is drawn smaller where it is, rather than moved
    to the next page, when at least ``min_height`` points of it fit in the room left on this
    one. ``make(height)`` draws the figure into at most ``height`` points (None: cannot)."""

    def __init__(self, flowables: list[Flowable], figure: Flowable,
                 make: Callable[[float], Flowable | None], min_height: float) -> None:
        super().__init__(flowables)
        self._figure = figure
        self._make = make
        self._min_height = min_height

    def split(self, aW: float, aH: float) -> list[Flowable]:  # noqa: N803 - reportlab's names
        self.wrap(aW, aH)
        if aH < self._H and self._figure in self._content:
            room = aH - (self._H - self._figure.height) - 2
            if room >= self._min_height:
                smaller = self._make(room)
                if smaller is not None and smaller.height <= room:
                    return [smaller if f is self._figure else f for f in self._content]
        return super().split(aW, aH)


def _questions(data: BriefData, styles: _Styles) -> list[Flowable]:
    from casefile.export.figures import status_drawing

    heading = _section("Open questions and follow-ups", styles)
    chart = status_drawing(data.followup_statuses, PAGE_SIZE[0] - 2 * MARGIN_X,
                           styles.fonts.regular)
    if chart is not None:
        heading = heading + _figure(chart, "Questions and follow-ups by status.", styles)
    if not data.questions:
        return heading + _empty("No open questions.", styles)
    entries: list[list[Flowable]] = []
    for q in sort_questions(data.questions):
        head = []
        if q.overdue:
            head.append('<font color="#b3261e"><b>OVERDUE</b></font>')
        head.append(f"<b>due {_text(q.due)}</b>" if _present(q.due) else "<b>no due date</b>")
        for value in (q.kind, q.status):
            if _present(value):
                head.append(_text(value))
        block: list[Flowable] = [
            _Paragraph(" · ".join(head) + _confidential_tag(q.confidential), styles.item)
        ]
        block.extend(_paragraphs(q.text, styles.body, suffix=_citations(q.text_sources)))
        if _present(q.ask):
            block.append(_Paragraph(_meta_line([("Ask", q.ask)]), styles.meta))
        block.extend(_quotes(q.quotes, styles))
        entries.append(block)
    return _compose(heading, entries)


def _entity(entity: EntityEntry, styles: _Styles, generic_kind: str) -> list[Flowable]:
    block: list[Flowable] = _paragraphs(entity.name or "(unnamed)", styles.h2)
    if block and entity.confidential:
        block.append(_Paragraph(_confidential_tag(True).strip(), styles.meta))
    kind = entity.kind if entity.kind and entity.kind != generic_kind else None
    meta = _meta_line([("Type", kind), ("Role", entity.role), ("Affiliation", entity.affiliation)])
    if meta:
        block.append(_Paragraph(meta, styles.meta))
    aliases = [a for a in entity.aliases if _present(a)]
    if aliases:
        block.append(_Paragraph(_meta_line([("Also known as", "; ".join(aliases))]), styles.meta))
    block.extend(_paragraphs(entity.notes, styles.body))
    block.extend(_quotes(entity.quotes, styles))
    for entry in entity.mentioned:
        block.extend(_mentioned(entry, styles))
    if entity.withheld:
        n = entity.withheld
        block.append(_Paragraph(f"{n} mention{'s' if n != 1 else ''} left out of this export "
                                "(where a source is named).", styles.meta))
    elif not entity.quotes and not entity.mentioned:
        block.append(_Paragraph("No evidence linked yet.", styles.meta))
    return block


def _entities(
    title: str, entries: Sequence[EntityEntry], empty: str, generic: str, styles: _Styles
) -> list[Flowable]:
    heading = _section(title, styles)
    if not entries:
        return heading + _empty(empty, styles)
    return _compose(heading, [_entity(entity, styles, generic) for entity in entries])


def _timeline(data: BriefData, styles: _Styles) -> list[Flowable]:
    from casefile.export.figures import timeline_drawing

    heading = _section("Timeline", styles)
    if not data.events:
        return heading + _empty("No events on the timeline.", styles)
    figure = timeline_drawing(data.events, PAGE_SIZE[0] - 2 * MARGIN_X, styles.fonts.regular,
                              runs=active_runs())
    if figure is not None:
        heading = heading + _figure(
            figure, "The dated events, first to last (hollow: date approximate).", styles)
    entries: list[list[Flowable]] = []
    for event in sorted(data.events, key=_event_sort_key):
        when = format_event_date(event.date, event.precision, event.end)
        cites = _citations(event.text_sources)
        tag = _confidential_tag(event.confidential)
        description: str | None = event.description
        if _title_is_description(event):
            # The title is the description cut short: print the sentence once, whole.
            block: list[Flowable] = [_Paragraph(_text(event.description) + cites + tag,
                                               styles.timeline, bulletText=when)]
            description = None
        else:
            title = _text(event.title) or "(untitled event)"
            block = [_Paragraph(f"<b>{title}</b>" + ("" if _present(description) else cites)
                               + tag, styles.timeline, bulletText=when)]
        meta = _meta_line([("Place", event.place)])
        if meta:
            block.append(_Paragraph(meta, styles.timeline_meta))
        block.extend(_paragraphs(description, styles.timeline_meta, suffix=cites))
        block.extend(_quotes(event.quotes, styles, timeline=True))
        entries.append(block)
    return _compose(heading, entries)


def _network(data: BriefData, styles: _Styles) -> list[Flowable]:
    """The relationship graph as a figure (nothing when the case has no graph)."""
    from casefile.export.figures import graph_drawing

    if data.graph is None or not data.graph.nodes:
        return []
    width = PAGE_SIZE[0] - 2 * MARGIN_X
    runs = active_runs()

    def make(height: float) -> Any:
        return graph_drawing(graph, width, styles.fonts.regular, max_height=height, runs=runs)

    graph = data.graph
    drawing = make(PAGE_SIZE[1] - MARGIN_TOP - MARGIN_BOTTOM - 2.2 * inch)
    if drawing is None:
        return []
    n, m = len(data.graph.nodes), len(data.graph.edges)
    total = max(data.graph.total_nodes, n)
    shown = plural(n, "item") if total == n else f"The {n} best-connected of {total} items"
    caption = (f"{shown} and {plural(m, 'connection')}: typed relationships dark, "
               "quoted together light, quoted in a document dotted.")
    # on a page with room for at least 45% of it (and 3 inches), the graph is drawn there
    min_height = min(drawing.height, max(3.0 * inch, 0.45 * drawing.height))
    return [_FitTogether([*_section("Relationship graph", styles),
                          *_figure(drawing, caption, styles)], drawing, make, min_height)]


def _title_is_description(event: EventEntry) -> bool:
    """True when an event's title is its description, whole or cut short with "…"."""
    title = " ".join(_clean(event.title).split())
    text = " ".join(_clean(event.description).split())
    if not text or not title:
        return False
    return title == text or (title.endswith("…") and text.startswith(title[:-1].rstrip()))


def _claims(data: BriefData, styles: _Styles) -> list[Flowable]:
    heading = _section("Claims", styles)
    if not data.claims:
        return heading + _empty("No claims recorded.", styles)
    entries: list[list[Flowable]] = []
    for claim in data.claims:
        status = _clean(claim.status).strip() or "unverified"
        colour = _STATUS_COLOURS.get(status.lower(), "#5a5f66")
        head = f'<font color="{colour}"><b>{escape(status.upper())}</b></font>'
        block: list[Flowable] = [
            _Paragraph(head + _confidential_tag(claim.confidential), styles.item)
        ]
        block.extend(_paragraphs(claim.statement, styles.body,
                                 suffix=_citations(claim.text_sources)))
        chain = _meta_line([("Attributed to", claim.attributed_to), ("via", claim.via)])
        if chain:
            block.append(_Paragraph(chain, styles.meta))
        if _present(claim.status_reason):
            evidence_says = (
                f" (the evidence alone: {_text(claim.computed_status)})"
                if _present(claim.computed_status) and claim.computed_status != claim.status
                else ""
            )
            block.append(_Paragraph(
                f"<b>Status set by the reporter:</b> {_text(claim.status_reason)}{evidence_says}",
                styles.meta,
            ))
        if _present(claim.evidence):
            block.append(_Paragraph(_meta_line([("Evidence", claim.evidence)]), styles.meta))
        block.extend(_quotes(claim.quotes, styles))
        entries.append(block)
    return _compose(heading, entries)


def _sources(data: BriefData, styles: _Styles) -> list[Flowable]:
    heading = _section("Sources", styles)
    if not data.sources:
        return heading + _empty("No source documents.", styles)
    entries: list[list[Flowable]] = []
    for src in sorted(data.sources, key=lambda s: s.number):
        block: list[Flowable] = []
        title = _chunks(_clean(src.title).strip() or "(untitled document)")
        block.append(
            _Paragraph(
                f"<b>{_text(title[0])}</b>" + _confidential_tag(src.confidential),
                styles.source,
                bulletText=f"[{int(src.number)}]",
            )
        )
        block.extend(_Paragraph(f"<b>{_text(t)}</b>", styles.source) for t in title[1:])
        meta = _meta_line(
            [
                ("", src.kind),
                ("Outlet", src.outlet),
                ("Author", src.author),
                ("Published", src.published),
                ("Status", src.status),
            ]
        )
        if meta:
            block.append(_Paragraph(meta, styles.source_meta))
        if _present(src.url) and not (src.capture and src.url and src.url in src.capture):
            block.append(_Paragraph(_meta_line([("URL", src.url)]), styles.source_meta))
        if _present(src.capture):
            block.append(_Paragraph(_meta_line([("Web capture", src.capture)]),
                                    styles.source_meta))
        block.append(_Paragraph(f"<b>SHA-256:</b> {_text(src.sha256)}", styles.hash))
        entries.append(block)
    return _compose(heading, entries)


def _keep_head(block: list[Flowable], head: int = 3) -> list[Flowable]:
    """Keep the first ``head`` flowables of an entry together (no heading alone at a page foot).

    Only the head is kept together and it holds at most ``head`` chunk-sized paragraphs (plus
    a section heading), so it always fits on a page; the rest flows freely.
    """
    if len(block) <= 1:
        return block
    return [KeepTogether(block[:head]), *block[head:]]


def _compose(heading: list[Flowable], entries: list[list[Flowable]]) -> list[Flowable]:
    """A section: its heading kept with the head of its first entry, then the other entries."""
    story: list[Flowable] = []
    for i, block in enumerate(entries):
        if i == 0:
            story.extend(_keep_head(heading + block, head=len(heading) + 3))
        else:
            story.extend(_keep_head(block))
    return story


def _story(data: BriefData, styles: _Styles) -> list[Flowable]:
    return [
        *_title_page(data, styles),
        *_questions(data, styles),
        *_entities("People", data.people, "No people recorded.", "person", styles),
        *_entities(
            "Organizations",
            data.organizations,
            "No organizations recorded.",
            "organization",
            styles,
        ),
        *_entities("Places", data.places, "No places recorded.", "place", styles),
        *_network(data, styles),
        *_timeline(data, styles),
        *_claims(data, styles),
        *_sources(data, styles),
    ]


# --------------------------------------------------------------------------------------------
# Page furniture


def _fit(text: str, font: str, size: float, width: float) -> str:
    """``text`` on one line, shortened with an ellipsis to at most ``width`` points."""
    text = " ".join(_clean(text).split())
    if stringWidth(text, font, size) <= width:
        return text
    lo, hi = 0, min(len(text), 400)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if stringWidth(text[:mid].rstrip() + "…", font, size) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


class _NumberedCanvas(rl_canvas.Canvas):
    """Canvas that holds pages back until the end so each footer can say ``Page N of M``."""

    def __init__(self, *args: Any, fonts: RegisteredFonts, footer: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._brief_fonts = fonts
        self._brief_footer = footer
        self._held_pages: list[dict[str, Any]] = []

    def showPage(self) -> None:  # noqa: N802 - reportlab's name
        self._held_pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        total = len(self._held_pages)
        for state in self._held_pages:
            self.__dict__.update(state)
            self._draw_footer(total)
            super().showPage()
        super().save()

    def _draw_footer(self, total: int) -> None:
        width, _height = PAGE_SIZE
        y = MARGIN_BOTTOM - 0.45 * inch
        self.saveState()
        self.setStrokeColor(RULE)
        self.setLineWidth(0.5)
        self.line(MARGIN_X, y + 11, width - MARGIN_X, y + 11)
        self.setFillColor(MUTED)
        self.setFont(self._brief_fonts.regular, 7.5)
        label = f"Page {self._pageNumber} of {total}"
        label_width = stringWidth(label, self._brief_fonts.regular, 7.5)
        room = width - 2 * MARGIN_X - label_width - 18
        self.drawString(MARGIN_X, y, _fit(self._brief_footer, self._brief_fonts.regular, 7.5, room))
        self.drawRightString(width - MARGIN_X, y, label)
        self.restoreState()


def _draw_header(
    fonts: RegisteredFonts, title: str, runs: TextRuns, tag: str = "CONFIDENTIAL",
) -> Callable[[Any, Any], None]:
    def draw(canv: Any, _doc: Any) -> None:
        width, height = PAGE_SIZE
        y = height - MARGIN_TOP + 0.4 * inch
        canv.saveState()
        canv.setFont(fonts.bold, 7.5)
        canv.setFillColor(ALERT)
        canv.drawRightString(width - MARGIN_X, y, tag)
        tag_width = stringWidth(tag, fonts.bold, 7.5)
        canv.setFont(fonts.regular, 8.5)
        canv.setFillColor(MUTED)
        room = width - 2 * MARGIN_X - tag_width - 18
        x = MARGIN_X
        for font, piece in runs.fit_visual_runs(title, fonts.regular, 8.5, room):
            canv.setFont(font, 8.5)
            canv.drawString(x, y, piece)
            x += stringWidth(piece, font, 8.5)
        canv.setStrokeColor(RULE)
        canv.setLineWidth(0.5)
        canv.line(MARGIN_X, y - 6, width - MARGIN_X, y - 6)
        canv.restoreState()

    return draw


def _no_header(_canv: Any, _doc: Any) -> None:
    return None


# --------------------------------------------------------------------------------------------
# Entry point


def render_brief(
    data: BriefData,
    out: Path | BinaryIO,
    *,
    progress: ProgressCallback | None = None,
    protected: Iterable[str] = (),
) -> None:
    """Write the PDF brief of ``data`` to ``out`` (a file path or a binary file object).

    The page is US Letter with 1 inch side margins; text is set in an embedded Unicode TrueType
    font (see :mod:`casefile.export.fonts`), so any text prints exactly as typed. ``data`` must
    already be filtered for confidentiality; ``data.includes_confidential`` only changes what the
    title page says.

    A path is written through a temporary file in the same folder and renamed into place, so a
    failed export never leaves a half-written PDF behind; on POSIX the new file is readable by
    its owner only (mode 0600, :func:`casefile.export.files.write_private`), as it holds unpublished
    reporting. A file object is written to as is and not closed.

    Metadata: the document information carries the case title, the
    confidentiality line as subject, "Casefile" as creator and producer, and dates; no author,
    user name, path or machine name (reportlab's own producer string is replaced too).

    Self-check: when ``protected`` strings are given (names of withheld people, contact
    details...), the finished PDF is re-read (:func:`casefile.export.pdf_check.find_protected`:
    page text, bookmarks, metadata, annotations) before it is put in place; if one is found,
    nothing is written to ``out`` (a path's temporary file is deleted; a file object receives no
    byte) and :class:`~casefile.export.pdf_check.ProtectedStringFoundError` names the string
    and the place.

    ``progress(done, total)``, if given, is called as the layout advances: ``total`` is a fixed
    number of layout steps, ``done`` never decreases and reaches ``total`` on the last call, made
    once the PDF is complete. It runs on the caller's thread.

    Raises:
        FontNotFoundError: no usable Unicode font on this machine.
        ExportError: the output path cannot be written (folder missing, no permission, ...).
        ProtectedStringFoundError: the self-check found a protected string (an ExportError).
    """
    protected = list(protected)
    fonts = register_fonts()
    styles = _Styles(fonts)
    runs = TextRuns(fonts, fallback_fonts())
    with using_runs(runs):
        story = _story(data, styles)
    note = runs.missing_note()
    if note:  # on the cover, before its page break
        at = next((i for i, f in enumerate(story) if isinstance(f, PageBreak)), len(story))
        story.insert(at, _Paragraph(note, styles.meta))
    total = len(story)
    reported = -1

    def report(done: int) -> None:
        nonlocal reported
        done = max(0, min(done, total))
        if progress is not None and done > reported:
            reported = done
            progress(done, total)

    def on_layout(kind: str, value: int) -> None:
        if kind == "PROGRESS":
            report(min(value, total - 1))

    title = " ".join(_clean(data.case_title).split()) or "Untitled case"
    footer = f"Casefile brief · generated {' '.join(_clean(data.generated).split())}"
    marking = _profile_of(data).marking
    if marking:
        footer += f" · {marking}"
    canvasmaker = functools.partial(_NumberedCanvas, fonts=fonts, footer=footer)

    def build(target: str | BinaryIO) -> None:
        doc = SimpleDocTemplate(
            target,
            pagesize=PAGE_SIZE,
            leftMargin=MARGIN_X,
            rightMargin=MARGIN_X,
            topMargin=MARGIN_TOP,
            bottomMargin=MARGIN_BOTTOM,
            title=title,
            author="",
            subject=marking or "Case brief",
            creator=PRODUCER,
            producer=PRODUCER,
            keywords="",
            initialFontName=fonts.regular,  # else the canvas starts each page in Helvetica
        )
        doc.setProgressCallBack(on_layout)
        doc.build(
            story,
            onFirstPage=_no_header,
            onLaterPages=_draw_header(fonts, title, runs,
                                      marking.split(" — ")[0] if marking else ""),
            canvasmaker=canvasmaker,
        )

    report(0)
    if isinstance(out, (str, os.PathLike)):
        _build_to_path(Path(out), build, lambda tmp: check_written_pdf(tmp, protected))
    elif protected:
        buffer = io.BytesIO()
        build(buffer)
        found = find_protected(buffer.getvalue(), protected)
        if found is not None:
            raise ProtectedStringFoundError(found.text, found.place)
        out.write(buffer.getvalue())
    else:
        build(out)
    report(total)


def _build_to_path(
    path: Path, build: Callable[[str], None], check: Callable[[Path], None]
) -> None:
    from casefile.export.files import write_private

    folder = path.parent
    if not folder.is_dir():
        raise ExportError(f"cannot write the brief to {path}: the folder {folder} does not exist")

    def write(tmp: Path) -> None:
        build(str(tmp))
        check(tmp)

    try:
        write_private(path, write, make_folder=False)
    except OSError as exc:
        raise ExportError(f"cannot write the brief to {path}: {exc.strerror or exc}") from exc
