"""Text in every script for the PDF brief: a font per run, Arabic shaped, right-to-left ordered.

reportlab draws each string in one font, left to right, one glyph per character. So for the
brief (see :mod:`casefile.export.brief`):

* **Fonts per run.** :meth:`TextRuns.markup` escapes a line of user text for Paragraph markup
  and wraps each run of characters the main font (DejaVu Sans) lacks in ``<font name=…>`` of the
  first fallback font that has them (:class:`casefile.export.fonts.FallbackFonts`: Chinese,
  Japanese, Korean, emoji). A character the regular face has but a bold or italic face lacks
  (DejaVu Sans Oblique has no Arabic) is set in the regular face. Latin text takes a fast path:
  an ASCII line, or one whose every character all four faces have, is only escaped.
* **Missing characters.** A character no font has is printed as U+FFFD ``�`` and recorded in
  :attr:`TextRuns.missing` with the words around it, for the brief's note; invisible format
  characters (zero-width joiner, variation selectors, bidi marks) are dropped without a note.
* **Arabic shaping** (``arabic-reshaper``): letters become their joined presentation forms
  (initial, medial, final, lam-alef), with only the ligatures the main font has. Their ToUnicode
  entries map them back to the base letters (:class:`casefile.export.fonts.ExtractableTTFont`),
  so the PDF's text extracts as typed.
* **Right-to-left order** (``python-bidi``, the Unicode Bidirectional Algorithm): a paragraph is
  broken into lines in logical order, then each line is reordered for display when it is drawn
  (:func:`visual_lines`), so a Hebrew or Arabic passage longer than a line reads right to left
  on every line and the lines follow each other top to bottom. A paragraph whose first letter
  is right-to-left (a Hebrew name, an Arabic quote) is laid out right to left and aligned
  right (:func:`rtl_base`); any other is left to right. A line is reordered as a whole
  (:func:`bidi_order`, the Unicode Bidirectional Algorithm over the line's text), each
  character keeping its run's style (font, bold, colour).

``pdftotext`` reads the visual order back into logical order itself (it detects right-to-left
words), so a name comes out of the PDF as it was typed.

Offsets are Python str indices. Nothing here imports Qt; reportlab, python-bidi and
arabic-reshaper are imported by the brief only.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

from casefile.export.fonts import ExtractableTTFont, FallbackFonts, RegisteredFonts, font_chars


def escape(text: str) -> str:
    """``text`` with ``&``, ``<`` and ``>`` written as entities, for reportlab's paragraph
    markup: what ``xml.sax.saxutils.escape`` does, without importing it (it loads urllib and
    http.client, a sizeable part of a ``casefile brief`` command's start)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


__all__ = [
    "REPLACEMENT",
    "TextRuns",
    "active_runs",
    "escape",
    "has_rtl",
    "markup",
    "rtl_base",
    "using_runs",
    "bidi_order",
    "visual_lines",
]

#: Printed in place of a character no font has.
REPLACEMENT = "\ufffd"

#: Right-to-left scripts: Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic, Arabic
#: supplements and presentation forms.
_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
_ARABIC = re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff]")
_Style = TypeVar("_Style")

#: How many characters either side of a missing one the note quotes.
CONTEXT_CHARS = 18


def has_rtl(text: str) -> bool:
    """True when ``text`` holds a Hebrew, Arabic or other right-to-left letter."""
    return not text.isascii() and _RTL.search(text) is not None


def _invisible(char: str) -> bool:
    """Format characters and variation selectors: nothing to draw, nothing to report."""
    code = ord(char)
    return (
        unicodedata.category(char) == "Cf"
        or 0xFE00 <= code <= 0xFE0F
        or 0xE0100 <= code <= 0xE01EF
    )


@dataclass
class TextRuns:
    """Splits user text into runs by font for one brief; collects what could not be printed.

    ``missing`` maps each character no font has to the words around its first occurrence
    (with the character itself shown as ``�``), in the order they were met.
    """

    fonts: RegisteredFonts
    fallbacks: FallbackFonts
    missing: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        faces = [font_chars(name) for name in (self.fonts.regular, self.fonts.bold,
                                                self.fonts.italic, self.fonts.bold_italic)]
        self._regular_chars = faces[0]
        #: Characters every face has: text made only of these needs no markup.
        self._all_faces = frozenset.intersection(*faces)
        self._plain: str | None = None
        self._reshaper: Any = None
        self._font_of: dict[str, str | None] = {}

    # -- fonts -------------------------------------------------------------------------------

    def _plain_font(self) -> str:
        """A family in which all four styles are the main font's regular face (registered on
        first use), for characters only the regular face has."""
        if self._plain is None:
            from reportlab.lib.fonts import addMapping
            from reportlab.pdfbase import pdfmetrics

            name = self.fonts.regular + "-Plain"
            if name not in pdfmetrics.getRegisteredFontNames():
                pdfmetrics.registerFont(ExtractableTTFont(name, str(self.fonts.files.regular)))
                for bold in (0, 1):
                    for italic in (0, 1):
                        addMapping(name, bold, italic, name)
            self._plain = name
        return self._plain

    def font_of(self, char: str) -> str | None:
        """The font to set ``char`` in: ``""`` for the paragraph's own font, a reportlab font
        name, or None when no font has it."""
        if char in self._all_faces:
            return ""
        if char in self._font_of:
            return self._font_of[char]
        in_regular = char in self._regular_chars
        font = self._plain_font() if in_regular else self.fallbacks.font_for(char)
        self._font_of[char] = font
        return font

    # -- Arabic ------------------------------------------------------------------------------

    def shape(self, text: str) -> str:
        """Arabic letters of ``text`` in their joined presentation forms (logical order kept);
        ligatures only where the main font has them; diacritics kept."""
        if self._reshaper is None:
            import arabic_reshaper

            try:
                config = arabic_reshaper.config_for_true_type_font(
                    str(self.fonts.files.regular), arabic_reshaper.ENABLE_ALL_LIGATURES)
            except Exception:  # noqa: BLE001 - fontTools missing or the file unreadable
                config = {"support_ligatures": False}
            config["delete_harakat"] = False
            self._reshaper = arabic_reshaper.ArabicReshaper(configuration=config)
        return str(self._reshaper.reshape(text))

    # -- markup ------------------------------------------------------------------------------

    def runs(self, line: str, *, record: bool = True) -> list[tuple[str, str]]:
        """``line`` (one line of user text, cleaned) as ``(font, text)`` runs in logical order:
        font ``""`` is the paragraph's own; Arabic is shaped; a character no font has becomes
        :data:`REPLACEMENT` (recorded in :attr:`missing` when ``record``)."""
        if _ARABIC.search(line):
            line = self.shape(line)
        out: list[tuple[str, str]] = []
        current: str = ""
        buffer: list[str] = []
        for i, char in enumerate(line):
            font = self.font_of(char)
            if font is None:
                if _invisible(char):
                    continue
                if record and char not in self.missing:
                    self.missing[char] = self._context(line, i)
                char, font = REPLACEMENT, self.font_of(REPLACEMENT) or ""
            elif char == " " and current:
                font = current  # a space stays in the run it is in
            if font != current and buffer:
                out.append((current, "".join(buffer)))
                buffer = []
            current = font
            buffer.append(char)
        if buffer:
            out.append((current, "".join(buffer)))
        return out

    def markup(self, line: str) -> str:
        """One line of user text as escaped Paragraph markup, runs in fallback fonts wrapped in
        ``<font name="…">``. Latin text (every character in all four faces of the main font)
        is only escaped."""
        if line.isascii() or (self._all_faces.issuperset(line) and not _ARABIC.search(line)):
            return escape(line)
        parts = []
        for font, text in self.runs(line):
            if font:
                parts.append(f'<font name="{font}">{escape(text)}</font>')
            else:
                parts.append(escape(text))
        return "".join(parts)

    def _context(self, line: str, i: int) -> str:
        start, end = max(0, i - CONTEXT_CHARS), min(len(line), i + CONTEXT_CHARS + 1)
        words = line[start:end]
        shown = "".join(c if self.font_of(c) is not None else REPLACEMENT
                        for c in words if not (self.font_of(c) is None and _invisible(c)))
        return ("…" if start else "") + " ".join(shown.split()) + ("…" if end < len(line) else "")

    def missing_note(self) -> str:
        """Markup of the note on characters that could not be printed ("" when none)."""
        if not self.missing:
            return ""
        items = []
        for char, context in self.missing.items():
            name = unicodedata.name(char, "unnamed character").lower()
            shown = "".join(self.markup(part) for part in [context])
            items.append(f"U+{ord(char):04X} ({escape(name)}) in “{shown}”")
        count = len(self.missing)
        noun = "character" if count == 1 else "characters"
        return (f"<b>{count} {noun} could not be printed</b> (no font on this computer has "
                f"them; each is shown as “{REPLACEMENT}”): " + "; ".join(items) + ".")

    # -- one-line drawing (page headers) ----------------------------------------------------

    def visual_runs(self, text: str, base_font: str) -> list[tuple[str, str]]:
        """One line drawn directly on the canvas as ``(font, text)`` runs in display order
        (left to right): run fonts resolved (``base_font`` for the line's own), right-to-left
        text reordered."""
        runs = [(font or base_font, piece) for font, piece in self.runs(text, record=False)]
        return bidi_order(runs, rtl_base(text))

    def fit_visual_runs(
        self, text: str, base_font: str, size: float, width: float
    ) -> list[tuple[str, str]]:
        """:meth:`visual_runs` of ``text`` (whitespace collapsed) shortened with an ellipsis
        so it is at most ``width`` points wide at ``size`` points."""
        from reportlab.pdfbase.pdfmetrics import stringWidth

        def measured(shown: str) -> tuple[float, list[tuple[str, str]]]:
            runs = self.visual_runs(shown, base_font)
            return sum(stringWidth(t, f, size) for f, t in runs), runs

        text = " ".join(text.split())
        total, runs = measured(text)
        if total <= width:
            return runs
        lo, hi = 0, min(len(text), 400)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if measured(text[:mid].rstrip() + "…")[0] <= width:
                lo = mid
            else:
                hi = mid - 1
        return measured(text[:lo].rstrip() + "…")[1]


# --------------------------------------------------------------------------------------------
# The brief's active TextRuns (set while its story is built)

_ACTIVE: ContextVar[TextRuns | None] = ContextVar("casefile_brief_runs", default=None)


@contextmanager
def using_runs(runs: TextRuns) -> Iterator[TextRuns]:
    """Make ``runs`` the one :func:`markup` uses, for the ``with`` block."""
    token = _ACTIVE.set(runs)
    try:
        yield runs
    finally:
        _ACTIVE.reset(token)


def active_runs() -> TextRuns | None:
    """The TextRuns set by :func:`using_runs`, or None outside one."""
    return _ACTIVE.get()


def markup(line: str) -> str:
    """:meth:`TextRuns.markup` of the active TextRuns; plain escaping outside one."""
    runs = _ACTIVE.get()
    return escape(line) if runs is None else runs.markup(line)


# --------------------------------------------------------------------------------------------
# Right-to-left display order of a broken paragraph


def rtl_base(text: str) -> bool:
    """True when the first letter of ``text`` with a direction is right-to-left (Hebrew,
    Arabic...): the paragraph is then laid out right to left (Unicode rules P2, P3)."""
    if not has_rtl(text):
        return False
    from bidi import get_base_level

    return int(get_base_level(text)) == 1


def bidi_order(
    runs: list[tuple[_Style, str]], base_rtl: bool = False
) -> list[tuple[_Style, str]]:
    """One line's ``(style, text)`` runs (logical order) in display order, left to right.

    The Unicode Bidirectional Algorithm (python-bidi's reference implementation, rules X1–X10,
    W1–W7, N1–N2, I1–I2, L1–L2 and L4 mirroring) runs over the whole line, the paragraph level
    given by ``base_rtl``; each character keeps its run's style, so a run is cut where the
    reordering separates its characters."""
    text = "".join(t for _style, t in runs)
    if not has_rtl(text):
        return runs
    from bidi import algorithm as uba

    storage = uba.get_empty_storage()
    storage["base_level"] = 1 if base_rtl else 0
    storage["base_dir"] = "R" if base_rtl else "L"
    uba.get_embedding_levels(text, storage)
    owners = [i for i, (_style, t) in enumerate(runs) for _char in t]
    for char, owner in zip(storage["chars"], owners, strict=True):
        char["run"] = owner
    uba.explicit_embed_and_overrides(storage)
    uba.resolve_weak_types(storage)
    uba.resolve_neutral_types(storage, False)
    uba.resolve_implicit_levels(storage, False)
    uba.reorder_resolved_levels(storage, False)
    uba.apply_mirroring(storage, False)
    pieces: list[tuple[int, list[str]]] = []
    for char in storage["chars"]:
        if pieces and pieces[-1][0] == char["run"]:
            pieces[-1][1].append(char["ch"])
        else:
            pieces.append((char["run"], [char["ch"]]))
    return [(runs[owner][0], "".join(chars)) for owner, chars in pieces]


def visual_lines(bl_para: Any, base_rtl: bool = False) -> Any:
    """A copy of a wrapped Paragraph's ``blPara`` whose lines are in display order (see the
    module doc), in a right-to-left paragraph when ``base_rtl``; ``bl_para`` itself is left as
    is (it is what splitting a paragraph reuses)."""
    from copy import copy

    new = copy(bl_para)
    if bl_para.kind == 0:  # one font: lines are (extra space, [words])
        lines = []
        for line in bl_para.lines:
            extra, words = line[0], line[1]
            text = " ".join(words)
            if has_rtl(text):
                shown = "".join(t for _run, t in bidi_order([(0, text)], base_rtl))
                words = shown.split(" ")
            lines.append((extra, words, *line[2:]))
        new.lines = lines
        return new
    lines = []
    for line in bl_para.lines:
        frags = [f for f in line.words]
        texts = [getattr(f, "text", "") for f in frags]
        if not any(has_rtl(t) for t in texts) or any(hasattr(f, "cbDefn") for f in frags):
            lines.append(line)
            continue
        ordered = bidi_order(list(zip(range(len(frags)), texts, strict=True)), base_rtl)
        words = [frags[i].clone(text=text) for i, text in ordered]
        line = copy(line)
        line.words = words
        lines.append(line)
    new.lines = lines
    return new
