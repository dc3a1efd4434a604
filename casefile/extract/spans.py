"""``SpanSet``: the text regions already taken, for overlap checks in O(log n).

Extraction keeps candidates in priority order and drops any that overlaps a region already
taken; scanning a list of regions for every candidate made that quadratic in the length of the
text. A ``SpanSet`` keeps the regions merged into disjoint intervals, sorted by start, and answers
``overlaps`` with one binary search.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator


class SpanSet:
    """A set of half-open ``[start, end)`` str-offset regions.

    Spans that overlap or touch are merged as they are added, so the structure holds disjoint
    intervals sorted by start; ``overlaps`` answers exactly as a scan of every span added would
    (``start < e and s < end`` for some added ``(s, e)``). Empty spans (``end <= start``) are
    ignored: they overlap nothing. ``add`` is O(log n) plus the intervals it merges (amortised
    O(log n) search, O(n) list insertion in the worst case — a C memmove); ``overlaps`` is
    O(log n).
    """

    __slots__ = ("_starts", "_ends")

    def __init__(self, spans: Iterable[tuple[int, int]] = ()) -> None:
        self._starts: list[int] = []
        self._ends: list[int] = []
        for s, e in spans:
            self.add(s, e)

    def add(self, start: int, end: int) -> None:
        """Add the region ``[start, end)``, merging it with the regions it overlaps or touches."""
        if end <= start:
            return
        starts, ends = self._starts, self._ends
        # intervals i with ends[i] >= start and starts[i] <= end touch or overlap the new one;
        # they are consecutive: from the first whose end >= start to the last whose start <= end
        lo = bisect_left(ends, start)
        hi = bisect_right(starts, end)
        if lo < hi:
            start = min(start, starts[lo])
            end = max(end, ends[hi - 1])
        starts[lo:hi] = [start]
        ends[lo:hi] = [end]

    def overlaps(self, start: int, end: int) -> bool:
        """True if ``[start, end)`` shares at least one offset with a region added (touching,
        ``end == s`` or ``start == e``, is no overlap; an empty span overlaps nothing)."""
        if end <= start:
            return False
        # the first interval ending after start; it overlaps if it starts before end
        i = bisect_right(self._ends, start)
        return i < len(self._starts) and self._starts[i] < end

    def __len__(self) -> int:
        """The number of disjoint intervals held (after merging)."""
        return len(self._starts)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        """The disjoint intervals, as ``(start, end)`` pairs in order."""
        return iter(zip(self._starts, self._ends, strict=True))

    def __repr__(self) -> str:
        return f"SpanSet({list(self)!r})"
