"""Casefile: an offline case-file organizer for reporters (see DESIGN.md)."""

__version__ = "0.1.0"
