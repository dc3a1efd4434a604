"""How a saved web page's capture reads for a person: one line for the document's header in
the window and for its source entry in the brief. Plain values only (no Qt, no ingest
libraries), so the window's startup does not load the readers of web archives.

The capture itself is recorded at import by :mod:`casefile.ingest.webarchive`
(``Document.meta["capture"]``).
"""

from __future__ import annotations

from typing import Any


def capture_line(capture: dict[str, Any] | None) -> str | None:
    """The capture for a person, one line: "Saved from URL on 2026-12-02 10:00 UTC (MHTML),
    page SHA-256 abc…", or None when ``capture`` (a :func:`capture_record`) is missing."""
    if not isinstance(capture, dict):
        return None
    parts = []
    if capture.get("url"):
        parts.append(f"Saved from {capture['url']}")
    when = capture.get("captured")
    if when:
        parts.append(f"on {str(when).replace('T', ' ').replace('Z', ' UTC')}".rstrip())
    if capture.get("format"):
        parts.append(f"({capture['format']})")
    line = " ".join(parts) or "Saved web page"
    if capture.get("sha256"):
        line += f", page SHA-256 {capture['sha256']}"
    return line
