"""Errors raised while exporting a case (PDF brief and other formats)."""

from __future__ import annotations

from casefile.errors import CasefileError


class ExportError(CasefileError):
    """An export cannot be written (no usable font, output file not writable...)."""


class FontNotFoundError(ExportError):
    """No Unicode TrueType font usable for the PDF brief was found on this machine."""
