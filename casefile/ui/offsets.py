"""Python str offsets <-> Qt text positions (UTF-16 code units).

Services store spans as Python str indices (one per code point); QTextDocument and QTextCursor
count UTF-16 code units, so every character outside the Basic Multilingual Plane (emoji such
as 👮, many CJK extension characters) counts twice in Qt. Converting at the viewer boundary
keeps highlights and selections on the right words after such a character.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


class OffsetMap:
    """Converts between the two offset systems for one text.

    Building the map scans the text once (a regular expression, so a 5 MB text takes a few
    milliseconds); each conversion is a binary search. Offsets beyond the text are clamped.
    """

    def __init__(self, text: str) -> None:
        self.length = len(text)
        self._astral = [m.start() for m in _ASTRAL.finditer(text)]
        # UTF-16 position just after each astral character (two units each)
        self._qt_after = [p + k + 2 for k, p in enumerate(self._astral)]
        self.qt_length = self.length + len(self._astral)

    def to_qt(self, offset: int) -> int:
        """The Qt position of Python str offset ``offset``."""
        offset = max(0, min(offset, self.length))
        return offset + bisect_left(self._astral, offset)

    def to_python(self, position: int, *, round_up: bool = False) -> int:
        """The Python str offset of Qt position ``position``.

        A position inside a surrogate pair (which a user cannot normally select) is moved to
        the start of the character, or past its end with ``round_up``.
        """
        position = max(0, min(position, self.qt_length))
        full = bisect_right(self._qt_after, position)  # astral characters wholly before
        inside = full < len(self._qt_after) and self._qt_after[full] - 1 == position
        offset = position - full
        if inside:
            offset = self._astral[full] + (1 if round_up else 0)
        return offset
