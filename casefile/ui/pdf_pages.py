"""A PDF's pages beside its extracted text in the document viewer.

PySide6 Essentials has no QtPdf, so pages are rendered with pypdfium2 (already used to read the
text) into QImages: lazily, only the pages in or near the visible part of the scroll area, at the
pane's width (and the screen's pixel ratio). The page widgets are lazy too: every page has its
place in the scroll area from the start (so the scroll bar, the page count and jumping to a page
work at once), but a :class:`PageWidget` is made only for the pages in or near view and dropped
when they scroll far away, so a 300-page PDF opens with a handful of widgets, not 300 (making
and showing 300 held the window's event loop ~40 ms on the turn that ends an import;
ARCHITECTURE.md, "Import: the document first, suggestions after").

A passage carries its page: selecting a passage (or any text) in the viewer scrolls the page
pane to that page, frames it and, where PDFium can place the characters, paints the passage's
boxes on the page. Scanned pages without a text layer are still shown (they are images). An
encrypted PDF needs its password again to be shown: the window keeps the passwords given during
this session; otherwise the pane offers "Enter password…".

PDFium is not thread-safe and imports run on worker threads, so every call into it holds
:data:`casefile.services.page_geometry.PDFIUM_LOCK`; the pane never waits for it on the GUI
thread (a page whose turn comes while an import holds the lock is rendered a moment later).
Where a passage sits on a page comes from :mod:`casefile.services.page_geometry`.
"""

from __future__ import annotations

import bisect
import contextlib
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QRectF, QSize, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from casefile.services import page_geometry
from casefile.services.originals import Original
from casefile.services.page_geometry import PDFIUM_LOCK
from casefile.ui.widgets import debounce_timer, wrapped_label

if TYPE_CHECKING:
    from typing import Protocol

    from casefile.ui.shell import WindowShell

    class PagesWindow(WindowShell, Protocol):
        """The window as the pages pane sees it: the shell, and the PDF passwords given this
        session (by sha256)."""

        pdf_passwords: dict[str, str]

log = logging.getLogger(__name__)

#: pypdfium2 bitmap modes (rendered with ``rev_byteorder=True``) -> QImage formats.
_QIMAGE_FORMATS = {
    "RGB": QImage.Format.Format_RGB888,
    "RGBX": QImage.Format.Format_RGBX8888,
    "RGBA": QImage.Format.Format_RGBA8888,
    "L": QImage.Format.Format_Grayscale8,
    "BGR": QImage.Format.Format_BGR888,
}
_MARGIN = 12
_SPACING = 14
_CACHE_PAGES = 24  # rendered pages kept; the farthest from view are dropped first


def bitmap_to_qimage(bitmap: pdfium.PdfBitmap) -> QImage:
    """A deep copy of a pypdfium2 bitmap as a QImage (no Pillow or numpy).

    The QImage is built over the bitmap's own buffer with its stride, then copied, so it stays
    valid after the bitmap is closed.
    """
    fmt = _QIMAGE_FORMATS.get(bitmap.mode)
    if fmt is None:
        raise ValueError(f"unexpected bitmap mode {bitmap.mode!r}")
    view = QImage(bitmap.buffer, bitmap.width, bitmap.height, bitmap.stride, fmt)
    return view.copy()


def render_page(document: pdfium.PdfDocument, index: int, scale: float) -> QImage:
    """Render page ``index`` (0-based) at ``scale`` pixels per PDF point (hold PDFIUM_LOCK)."""
    page = document[index]
    try:
        bitmap = page.render(scale=scale, may_draw_forms=True, rev_byteorder=True)
        try:
            return bitmap_to_qimage(bitmap)
        finally:
            bitmap.close()
    finally:
        page.close()


@dataclass
class _PageState:
    number: int  # 1-based
    size: tuple[float, float]  # PDF points, rotation applied
    image: QImage | None = None
    scale: float = 0.0  # scale the image was rendered at
    boxes: list[QRectF] = field(default_factory=list)
    marked: bool = False


class PageWidget(QWidget):
    """One page: the rendered image (a grey sheet until rendered), its number below it, and a
    frame plus passage boxes when marked."""

    clicked = Signal(int)

    def __init__(self, state: _PageState, count: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.count = count
        self.page_size = QSize(1, 1)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip(f"Page {state.number}: click to show its text")

    @property
    def caption_height(self) -> int:
        """Height of the page-number line under the page."""
        return self.fontMetrics().height() + 6

    def place(self, rect: QRect) -> None:
        """Take the page's place in the pane: ``rect`` (container pixels, caption below)."""
        self.page_size = QSize(rect.width(), rect.height() - self.caption_height)
        self.setFixedSize(rect.size())
        self.move(rect.topLeft())

    def page_rect(self) -> QRect:
        """Where the page itself is drawn, in this widget's coordinates."""
        return QRect(QPoint(0, 0), self.page_size)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        rect = self.page_rect()
        image = self.state.image
        if image is not None:
            painter.drawImage(rect, image)
        else:
            painter.fillRect(rect, QColor(236, 236, 236))
            painter.setPen(QColor(120, 120, 120))
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, f"Page {self.state.number}…")
        highlight = self.palette().color(QPalette.ColorRole.Highlight)
        if self.state.boxes:
            fill = QColor(255, 200, 0, 90)
            painter.setPen(QPen(QColor(230, 150, 0), 1))
            for box in self.state.boxes:
                painter.fillRect(self._to_pixels(box), fill)
                painter.drawRect(self._to_pixels(box))
        if self.state.marked:
            painter.setPen(QPen(highlight, 3))
            painter.drawRect(rect.adjusted(1, 1, -2, -2))
        else:
            painter.setPen(QPen(QColor(0, 0, 0, 60), 1))
            painter.drawRect(rect.adjusted(0, 0, -1, -1))
        caption = QRect(0, rect.bottom() + 1, rect.width(), self.caption_height)
        painter.setPen(highlight if self.state.marked else
                       self.palette().color(QPalette.ColorRole.WindowText))
        painter.drawText(caption, Qt.AlignmentFlag.AlignCenter,
                         f"Page {self.state.number} of {self.count}")
        painter.end()

    def _to_pixels(self, box: QRectF) -> QRectF:
        w, h = self.page_size.width(), self.page_size.height()
        return QRectF(box.x() * w, box.y() * h, box.width() * w, box.height() * h)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit(self.state.number)
        super().mousePressEvent(event)


class PdfPagesView(QWidget):
    """The pages pane: a scroll area of :class:`PageWidget`, made and rendered lazily (only
    near the view), fit to width.

    Signals: ``page_clicked(page)`` (1-based) when the reporter clicks a page;
    ``password_requested()`` when "Enter password…" is pressed on a locked PDF.
    """

    page_clicked = Signal(int)
    password_requested = Signal()
    # The pane's scroll area. The name hides QWidget.scroll(dx, dy), which nothing here calls;
    # it is kept because tests/ui read ``pane.scroll``.
    scroll: QScrollArea  # type: ignore[assignment]  # attribute deliberately hides a method

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pdf_pages")
        self.original: Original | None = None
        self.text = ""
        self.zoom = 1.0  # multiplier over "fit width"
        self._document: pdfium.PdfDocument | None = None
        self._pages: list[_PageState] = []
        #: the page widgets that exist: only the pages in or near view, by page (1-based)
        self._widgets: dict[int, PageWidget] = {}
        #: each page's place in the container (page and caption), and where each place ends
        self._rects: list[QRect] = []
        self._bottoms: list[int] = []
        self._target: tuple[int, QRectF | None] | None = None  # page to bring into view
        self._layout_width = 0
        self.renders = 0  # pages rendered so far (tests and logging)
        self.damaged = False  # PDFium could not open the file at all

        self.info = wrapped_label()
        self.info.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.zoom_out = QToolButton()
        self.zoom_out.setText("−")
        self.zoom_out.setToolTip("Smaller pages")
        self.zoom_out.clicked.connect(lambda: self.set_zoom(self.zoom / 1.25))
        self.zoom_fit = QToolButton()
        self.zoom_fit.setText("Fit")
        self.zoom_fit.setToolTip("Pages as wide as the pane")
        self.zoom_fit.clicked.connect(lambda: self.set_zoom(1.0))
        self.zoom_in = QToolButton()
        self.zoom_in.setText("+")
        self.zoom_in.setToolTip("Larger pages")
        self.zoom_in.clicked.connect(lambda: self.set_zoom(self.zoom * 1.25))
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.info, 1)
        for button in (self.zoom_out, self.zoom_fit, self.zoom_in):
            top.addWidget(button)

        self.locked = QWidget()
        locked_layout = QVBoxLayout(self.locked)
        self.locked_label = QLabel("This PDF is encrypted: its pages are shown once the "
                                   "password is given.")
        self.locked_label.setWordWrap(True)
        self.password_button = QPushButton("Enter password…")
        self.password_button.clicked.connect(self.password_requested)
        locked_layout.addStretch(1)
        locked_layout.addWidget(self.locked_label)
        locked_layout.addWidget(self.password_button, 0, Qt.AlignmentFlag.AlignHCenter)
        locked_layout.addStretch(2)
        self.locked.setVisible(False)

        self.container = QWidget()
        self.container.setObjectName("pdf_pages_container")
        self.container.setBackgroundRole(QPalette.ColorRole.Mid)
        self.container.setAutoFillBackground(True)
        self.scroll = QScrollArea()
        self.scroll.setWidget(self.container)
        self.scroll.setWidgetResizable(False)  # sized by the pages' places (_relayout)
        self.scroll.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.scroll.verticalScrollBar().valueChanged.connect(self._on_scrolled)
        self.scroll.viewport().installEventFilter(self)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.locked, 1)
        layout.addWidget(self.scroll, 1)

        self._render_timer = debounce_timer(self, 15, self.render_visible)
        self._layout_timer = debounce_timer(self, 40, self._relayout)

    # -- opening ----------------------------------------------------------------------------

    def set_original(self, original: Original, text: str, password: str | None = None) -> bool:
        """Show ``original``'s pages (``text`` is the document's extracted text, to place
        passages). Returns False when the PDF needs a password (or a different one): the pane
        then offers "Enter password…"; call :meth:`unlock`."""
        self.close_document()
        self.original = original
        self.text = text
        self.damaged = False
        if not self._open(password):
            self._show_locked(True)
            return False
        return True

    def update_original(self, original: Original, text: str) -> None:
        """Take a newer reading of the same original (its text filled by OCR, say): the
        pages stay open, passages are placed with the new offsets and word boxes."""
        self.original = original
        self.text = text
        self._update_info()

    def unlock(self, password: str) -> bool:
        """Try ``password`` on a locked PDF; True when the pages are now shown."""
        if self._document is not None:
            return True
        ok = self._open(password)
        self._show_locked(not ok)
        return ok

    @property
    def is_locked(self) -> bool:
        """True while the PDF waits for its password."""
        return self._document is None and self.original is not None and not self.damaged

    def _open(self, password: str | None) -> bool:
        assert self.original is not None
        # an image is shown as a one-page-per-frame PDF made in memory
        data = page_geometry.viewable_pdf(self.original.data, is_image=self.original.is_image)
        with PDFIUM_LOCK:
            try:
                document = pdfium.PdfDocument(data, password=password)
            except pdfium.PdfiumError as exc:
                if exc.err_code == pdfium_c.FPDF_ERR_PASSWORD:
                    return False
                self.damaged = True
                self._show_locked(False)
                self.info.setText("The pages cannot be shown: PDFium cannot read this file "
                                  "(the extracted text is all there is).")
                return True
            sizes = [document.get_page_size(i) for i in range(len(document))]
        self._document = document
        self._pages = [_PageState(n + 1, (float(w), float(h))) for n, (w, h) in enumerate(sizes)]
        self._build_pages()
        self._show_locked(False)
        return True

    def _show_locked(self, locked: bool) -> None:
        self.locked.setVisible(locked)
        self.scroll.setVisible(not locked)
        for button in (self.zoom_out, self.zoom_fit, self.zoom_in):
            button.setEnabled(not locked)
        if locked:
            self.info.setText("Encrypted PDF")
        elif not self.damaged:
            self._update_info()

    def _update_info(self) -> None:
        if self.original is None:
            return
        n = len(self._pages)
        parts = [f"{n} page{'s' if n != 1 else ''}"]
        for note in self.original.notes:
            ocr = re.match(r"Text of (.+?) from OCR \((\S+).*?\), .*?(\d+%)", note)
            if ocr:  # one short line ("page 1 by OCR (RapidOCR, 99%)"); the note is the tooltip
                parts.append(f"{ocr.group(1)} by OCR ({ocr.group(2)}, {ocr.group(3)})")
            elif "text layer" in note or note.startswith("Damaged"):
                parts.append(note)
        self.info.setText(" · ".join(parts))
        self.info.setToolTip("\n".join(self.original.notes))

    def release(self) -> None:
        """Close the PDFium document (pure Python: safe after the widget is deleted)."""
        document, self._document = self._document, None
        if document is not None:
            with PDFIUM_LOCK, contextlib.suppress(Exception):
                document.close()

    def close_document(self) -> None:
        """Let go of the PDF and its rendered pages."""
        self.release()
        for widget in self._widgets.values():
            widget.setParent(None)
            widget.deleteLater()
        self._widgets = {}
        self._pages = []
        self._rects, self._bottoms = [], []

    def _build_pages(self) -> None:
        self._layout_width = 0
        self._relayout()

    def page_widget(self, page: int) -> PageWidget | None:
        """The widget showing ``page`` (1-based); None while the page is far from view."""
        return self._widgets.get(page)

    def _sync_widgets(self) -> None:
        """Make the widgets of the pages within a screen of the view, drop those more than
        two screens away."""
        if not self._rects:
            return
        near = self.visible_pages(margin=1.0)
        keep = set(self.visible_pages(margin=2.0))
        for page in [p for p in self._widgets if p not in keep]:
            widget = self._widgets.pop(page)
            widget.setParent(None)
            widget.deleteLater()
        for page in near:
            if page not in self._widgets:
                widget = PageWidget(self._pages[page - 1], len(self._pages), self.container)
                widget.clicked.connect(self.page_clicked)
                widget.place(self._rects[page - 1])
                widget.show()
                self._widgets[page] = widget

    def _on_scrolled(self, _value: int) -> None:
        self._sync_widgets()
        self._schedule_render()

    def _update_page(self, page: int) -> None:
        widget = self._widgets.get(page)
        if widget is not None:
            widget.update()

    # -- geometry ---------------------------------------------------------------------------

    @property
    def page_count(self) -> int:
        """Number of pages of the open PDF (0 while locked)."""
        return len(self._pages)

    def set_zoom(self, zoom: float) -> None:
        """Page width as a multiple of the pane's width (1.0 = fit width)."""
        self.zoom = max(0.25, min(zoom, 4.0))
        keep = self.current_page()
        self._layout_width = 0
        self._relayout()
        if keep:
            self._target = (keep, None)
            self._scroll_to_target()

    def _caption_height(self) -> int:
        """A page's caption line, as :attr:`PageWidget.caption_height` (same font)."""
        return self.container.fontMetrics().height() + 6

    def _available_width(self) -> int:
        return max(120, self.scroll.viewport().width() - 2 * _MARGIN)

    def _scale(self) -> float:
        """Pixels per PDF point: the widest page fits the pane, times the zoom."""
        widest = max((s.size[0] for s in self._pages), default=612.0)
        return self._available_width() / widest * self.zoom

    def _relayout(self) -> None:
        if not self._pages:
            return
        width = self._available_width()
        if width == self._layout_width:
            return
        self._layout_width = width
        bar = self.scroll.verticalScrollBar()
        # the page at the top of the view stays there, at its new size
        anchor = None
        if self._rects and self._target is None:  # the first page not above the view
            anchor = min(bisect.bisect_right(self._bottoms, bar.value()), len(self._rects) - 1)
            place = self._rects[anchor]
            within = (bar.value() - place.top()) / max(1, place.height())
        scale = self._scale()
        caption = self._caption_height()
        sizes = [(max(1, round(w * scale)), max(1, round(h * scale)))
                 for w, h in (state.size for state in self._pages)]
        viewport = self.scroll.viewport()
        full_width = max(viewport.width(), max(w for w, _h in sizes) + 2 * _MARGIN)
        y = _MARGIN
        self._rects, self._bottoms = [], []
        for w, h in sizes:
            self._rects.append(QRect((full_width - w) // 2, y, w, h + caption))
            y += h + caption
            self._bottoms.append(y)
            y += _SPACING
        self.container.setFixedSize(full_width, max(viewport.height(), y - _SPACING + _MARGIN))
        for page, widget in self._widgets.items():
            widget.place(self._rects[page - 1])
        if anchor is not None:
            place = self._rects[anchor]
            bar.setValue(place.top() + round(within * place.height()))
        self._sync_widgets()
        self._scroll_to_target()
        self._schedule_render()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.scroll.viewport() and event.type() == QEvent.Type.Resize:
            self._layout_timer.start()
        return super().eventFilter(watched, event)

    def showEvent(self, event: object) -> None:
        super().showEvent(event)  # type: ignore[arg-type]
        self._layout_width = 0
        self._layout_timer.start()

    # -- rendering --------------------------------------------------------------------------

    def _schedule_render(self) -> None:
        self._render_timer.start()

    def visible_pages(self, *, margin: float = 0.0) -> list[int]:
        """Pages (1-based) intersecting the viewport, grown by ``margin`` viewports."""
        height = self.scroll.viewport().height()
        extra = int(height * margin)
        return self._pages_between(self.scroll.verticalScrollBar().value() - extra,
                                   self.scroll.verticalScrollBar().value() + height + extra)

    def _pages_between(self, top: int, bottom: int) -> list[int]:
        """Pages (1-based) whose place overlaps container rows ``top`` to ``bottom``."""
        pages = []
        index = bisect.bisect_right(self._bottoms, top)
        while index < len(self._rects) and self._rects[index].top() < bottom:
            index += 1
            pages.append(index)
        return pages

    def current_page(self) -> int | None:
        """The page taking most of the viewport (None without pages)."""
        if not self._rects:
            return None
        top = self.scroll.verticalScrollBar().value()
        bottom = top + self.scroll.viewport().height()
        shown = self._pages_between(top, bottom) or [1]
        return max(shown, key=lambda page: min(bottom, self._bottoms[page - 1])
                   - max(top, self._rects[page - 1].top()))

    @Slot()
    def render_visible(self) -> None:
        """Render the pages in (or half a screen around) the viewport that are not rendered at
        the current scale; try again shortly when an import holds PDFium."""
        if self._document is None or not self.isVisible():
            return
        scale = self._scale() * self.devicePixelRatioF()
        wanted = [n for n in self.visible_pages(margin=0.5)
                  if abs(self._pages[n - 1].scale - scale) > 1e-3]
        if not wanted:
            return
        if not PDFIUM_LOCK.acquire(blocking=False):
            QTimer.singleShot(100, self._schedule_render)
            return
        try:
            for n in wanted:
                state = self._pages[n - 1]
                try:
                    image = render_page(self._document, n - 1, scale)
                except (pdfium.PdfiumError, ValueError) as exc:
                    log.warning("page %d not rendered: %s", n, exc)
                    state.scale = scale  # do not retry in a loop
                    continue
                image.setDevicePixelRatio(self.devicePixelRatioF())
                state.image, state.scale = image, scale
                self.renders += 1
                self._update_page(n)
        finally:
            PDFIUM_LOCK.release()
        self._drop_far_pages()

    def _drop_far_pages(self) -> None:
        rendered = [s for s in self._pages if s.image is not None]
        if len(rendered) <= _CACHE_PAGES:
            return
        here = self.current_page() or 1
        rendered.sort(key=lambda s: abs(s.number - here), reverse=True)
        for state in rendered[: len(rendered) - _CACHE_PAGES]:
            state.image, state.scale = None, 0.0

    def page_image(self, page: int) -> QImage | None:
        """The rendered image of ``page`` (1-based), None while not rendered."""
        return self._pages[page - 1].image if 0 < page <= len(self._pages) else None

    def rendered_pages(self) -> list[int]:
        """Pages (1-based) that currently have an image."""
        return [s.number for s in self._pages if s.image is not None]

    # -- marking passages ---------------------------------------------------------------------

    def marked_pages(self) -> list[int]:
        """Pages currently framed as holding the marked passage."""
        return [s.number for s in self._pages if s.marked]

    def page_boxes(self, page: int) -> list[QRectF]:
        """The passage boxes painted on ``page`` (fractions of the page)."""
        return list(self._pages[page - 1].boxes) if 0 < page <= len(self._pages) else []

    def clear_mark(self) -> None:
        """Remove the frame and boxes from every page."""
        for state in self._pages:
            if state.marked or state.boxes:
                state.marked, state.boxes = False, []
                self._update_page(state.number)

    def mark_span(self, start: int, end: int) -> int | None:
        """Frame the page(s) holding ``text[start:end]`` (Python str offsets), paint the span's
        boxes where PDFium can place them, and scroll the first page into view. Returns the
        first page, or None when the document has no pages to show."""
        original = self.original
        if original is None or not self._pages or not original.page_starts or end <= start:
            return None
        first = original.page_at(start) or 1
        last = max(first, original.page_at(max(start, end - 1)) or first)
        self.clear_mark()
        first_box: QRectF | None = None
        for page in range(first, min(last, len(self._pages)) + 1):
            state = self._pages[page - 1]
            state.marked = True
            page_start, page_end = original.page_span(page, len(self.text))
            page_text = self.text[page_start:page_end]
            if page < len(original.page_starts):  # the separator belongs to no page
                page_text = page_text.rstrip("\n")
            local_start = max(start, page_start) - page_start
            local_end = min(end, page_start + len(page_text)) - page_start
            words = original.ocr_words.get(page)
            if words is not None:  # text from OCR: the words' boxes
                state.boxes = [QRectF(*box) for box in
                               page_geometry.ocr_span_boxes(words, local_start, local_end)]
            elif local_end > local_start and self._document is not None and \
                    PDFIUM_LOCK.acquire(timeout=0.5):
                try:
                    runs = (original.char_runs[page - 1]
                            if page <= len(original.char_runs) else None)
                    state.boxes = [QRectF(*box) for box in page_geometry.span_boxes(
                        self._document, page - 1, page_text, local_start, local_end, runs)]
                except pdfium.PdfiumError:
                    state.boxes = []
                finally:
                    PDFIUM_LOCK.release()
            if first_box is None and state.boxes:
                first_box = state.boxes[0]
            self._update_page(page)
        if first > len(self._pages):
            return None
        self._target = (first, first_box)
        self._scroll_to_target()
        return first

    def show_page(self, page: int) -> None:
        """Scroll ``page`` (1-based) to the top of the pane."""
        if 0 < page <= len(self._pages):
            self._target = (page, None)
            self._scroll_to_target()

    def _scroll_to_target(self) -> None:
        if self._target is None or not self._rects or self._layout_width == 0:
            return  # not laid out yet: _relayout comes back here
        page, box = self._target
        place = self._rects[page - 1]
        bar = self.scroll.verticalScrollBar()
        y = place.top() - _MARGIN // 2
        if box is not None:  # bring the passage to the upper third of the pane
            box_y = place.top() + int(box.y() * (place.height() - self._caption_height()))
            y = max(y, box_y - self.scroll.viewport().height() // 3)
            y = min(y, box_y)
        bar.setValue(max(0, min(y, bar.maximum())))
        self._schedule_render()
        QTimer.singleShot(0, self._clear_target_if_reached)

    def _clear_target_if_reached(self) -> None:
        if self._target is not None and self._target[0] in self.visible_pages():
            self._target = None


def attach_pdf_pages(
    viewer: QWidget, original: Original, *, password: str | None,
    ask_password: Callable[[bool], str | None],
    remember_password: Callable[[str], None],
) -> PdfPagesView | None:
    """Add a pages pane to a :class:`~casefile.ui.viewer.DocumentViewer` showing a PDF.

    ``password`` is tried first (a password given at import); ``ask_password(wrong)`` prompts
    the reporter when "Enter password…" is pressed; ``remember_password`` keeps a password that
    worked for the rest of the session. Selecting text or a passage in the viewer marks it on
    its page; clicking a page scrolls the text to that page. Returns the pane (None when the
    original is neither a PDF nor an image).
    """
    from casefile.ui.viewer import DocumentViewer

    assert isinstance(viewer, DocumentViewer)
    if not original.has_pages:
        return None
    pane = PdfPagesView()
    pane.set_original(original, viewer.text, password)
    viewer.add_side_pane(pane)

    def on_password_requested() -> None:
        wrong = False
        while pane.is_locked:
            given = ask_password(wrong)
            if given is None:
                return
            if pane.unlock(given):
                remember_password(given)
                _follow_selection()
                return
            wrong = True

    def _follow_selection() -> None:
        if pane.is_locked:
            return
        span = viewer.selected_span()
        if span is None:
            mark = viewer.passage_at(viewer.cursor_offset())
            span = (mark.start, mark.end) if mark is not None else None
        if span is not None:
            pane.mark_span(*span)

    def on_page_clicked(page: int) -> None:
        if original.page_starts and page <= len(original.page_starts):
            viewer.show_offset(original.page_starts[page - 1])

    follow = debounce_timer(pane, 60, _follow_selection)
    viewer.text_view.selectionChanged.connect(follow.start)
    viewer.text_view.cursorPositionChanged.connect(follow.start)
    pane.password_requested.connect(on_password_requested)
    pane.page_clicked.connect(on_page_clicked)
    viewer.destroyed.connect(lambda *_: pane.release())
    return pane


def install_pdf_pages(window: PagesWindow, viewer: QWidget, document_id: int, *,
                      original: Original | None = None) -> PdfPagesView | None:
    """The window's hook: read the document's original through ``window.runner`` (unless
    given, read ahead) and, for a PDF, add the pages pane to ``viewer``. Passwords given
    during the session (at import or in the pane) are kept in ``window.pdf_passwords`` by
    sha256."""
    from casefile.errors import CasefileError
    from casefile.services.originals import document_original
    from casefile.ui.passwords import ask_pdf_password

    runner = window.runner
    passwords = window.pdf_passwords
    if original is None:
        try:
            original = runner.read(lambda s: document_original(s, document_id))
        except CasefileError:
            return None
    if not original.has_pages:
        return None
    key = original.sha256 or ""
    name = original.filename or original.title

    def remember(password: str) -> None:
        passwords[key] = password

    return attach_pdf_pages(
        viewer, original, password=passwords.get(key),
        ask_password=lambda wrong: ask_pdf_password(window.qt_window(), name, wrong=wrong),
        remember_password=remember)
