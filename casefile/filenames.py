"""File names as they can be printed and stored, whatever bytes they are made of.

On POSIX a file name is bytes; Python keeps each byte that is not UTF-8 as a lone surrogate
(``b'caf\\xe9.txt'`` -> ``'caf\\udce9.txt'``), which cannot be printed, stored in SQLite or shown
in the window. Pure: no Qt, no database; the window, the services, the readers and the command
line share it.
"""

from __future__ import annotations

import re
import unicodedata

_ESCAPED = re.compile("[\udc80-\udcff]+")


def _decoded(run: re.Match[str]) -> str:
    raw = run.group().encode("utf-8", "surrogateescape")
    try:
        guess = raw.decode("cp1252")
    except UnicodeDecodeError:
        return "\ufffd" * len(raw)
    if all("\u00c0" <= char <= "\u017f" and unicodedata.category(char)[0] == "L"
           for char in guess):
        return guess
    return "\ufffd" * len(raw)


def printable_name(name: str) -> str:
    """A file name (or path) as it can be printed and stored: each run of bytes that are not
    UTF-8 (kept by Python as lone surrogates, ``'caf\\udce9.txt'``) is decoded as
    Windows-1252 when that yields Latin letters, U+00C0..U+017F (``'café.txt'``: names made
    on older Windows or Latin-1 systems), else each of its bytes becomes U+FFFD
    (``'caf\\ufffd.txt'``). Other names are returned unchanged."""
    return _ESCAPED.sub(_decoded, name)


def name_note(name: str) -> str | None:
    """A note for a file whose name is not UTF-8: its bytes, and the name shown instead; None
    for other names."""
    shown = printable_name(name)
    if shown == name:
        return None
    raw = name.encode("utf-8", "surrogateescape")
    return (f"The file name is not valid UTF-8 ({raw!r}); it is shown as {shown}")
