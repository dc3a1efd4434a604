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
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, BinaryIO

from reportlab.lib.units import inch
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.platypus import PageBreak, SimpleDocTemplate

from casefile.export.brief_data import BriefData
from casefile.export.brief_layout import (
    ALERT,
    CHUNK_CHARS,
    MARGIN_BOTTOM,
    MARGIN_TOP,
    MARGIN_X,
    MUTED,
    PAGE_SIZE,
    PRODUCER,
    RULE,
    ProgressCallback,
    _clean,
    _Paragraph,
    _Styles,
    format_event_date,
    sort_questions,
)

# names that tests and the benchmark import from here, kept importable (ARCHITECTURE.md,
# "Packages of one module a job")
from casefile.export.brief_layout import CONFIDENTIAL_LINE as CONFIDENTIAL_LINE
from casefile.export.brief_layout import _chunks as _chunks
from casefile.export.brief_sections import _profile_of, _story
from casefile.export.errors import ExportError
from casefile.export.fonts import RegisteredFonts, fallback_fonts, register_fonts
from casefile.export.pdf_check import (
    ProtectedStringFoundError,
    check_written_pdf,
    find_protected,
)
from casefile.export.textruns import TextRuns, using_runs

__all__ = ["CHUNK_CHARS", "CONFIDENTIAL_LINE", "PAGE_SIZE", "format_event_date", "render_brief",
           "sort_questions"]


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
