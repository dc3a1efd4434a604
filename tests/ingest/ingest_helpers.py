"""Helpers for ingest tests: where the shared samples are, and a PDF maker."""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

SAMPLES = Path(__file__).resolve().parents[3] / "shared" / "samples"
REAL = SAMPLES / "real"


def make_pdf(pages: list[str], *, title: str | None = None, **canvas_args: object) -> bytes:
    """A PDF with one page per string (lines split on newlines), made with reportlab."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4, **canvas_args)  # type: ignore[arg-type]
    if title:
        pdf.setTitle(title)
    for page in pages:
        y = 780.0
        for line in page.split("\n"):
            pdf.drawString(72, y, line)
            y -= 16
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()
