"""How Casefile shows a passage in quotation marks, on screen, in undo labels and in the brief.

A passage the reporter marked often is itself a quotation ("“I understand that…,” the sheriff
said"): it then gets no second pair of marks around it (seen as ““I understand…”” before).
No Qt here; the window, the services and the brief use the same rule.
"""

from __future__ import annotations

#: Marks that open a quotation: straight and curly double and single quotes, guillemets, „.
OPENING_MARKS = "\"“«‘'„"
#: Marks that close one.
CLOSING_MARKS = "\"”»’'"


def self_quoted(text: str) -> bool:
    """True when ``text`` begins with an opening and ends with a closing quotation mark."""
    return len(text) >= 2 and text[0] in OPENING_MARKS and text[-1] in CLOSING_MARKS


def quoted(text: str, limit: int | None = None) -> str:
    """``text`` on one line (runs of white space as one space) in curly quotes, cut to at most
    ``limit`` characters with "…" (None: whole). Text that already begins with an opening
    quotation mark is not wrapped again; when it is cut, a closing "”" follows the "…".
    Empty text gives ""."""
    short = " ".join(text.split())
    if not short:
        return ""
    cut = False
    if limit is not None and len(short) > limit:
        short, cut = short[:max(limit - 1, 1)].rstrip() + "…", True
    if short[0] in OPENING_MARKS:
        return short + "”" if cut else short
    return f"“{short}”"
