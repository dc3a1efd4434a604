"""Find a search query's matches in one text, folded the way the search index folds.

:func:`casefile.store.search.search` says *which* items match; this module says *where* in a
text they match, so a hit can open its document at the match and the viewer's find bar can
count and highlight matches with the same rules (module docstring of
:mod:`casefile.store.search`): the text is folded by :func:`~casefile.store.search.fold`
(accents and case removed, ``ł→l``, ``ß→ss``...) and cut into runs of letters and digits; a
query phrase matches consecutive runs, whatever separates them (spaces, a newline,
punctuation, a curly or straight apostrophe), and a ``prefix*`` phrase's last word matches any
run starting with it. So ``Lodz`` finds ``Łódź``, ``O'Brien`` finds ``O’Brien``, ``"harbor
police"`` finds ``Harbor  Police`` and ``harbor\\npolice``, ``e-mail`` finds ``e-mail``,
``e mail`` and ``email``.

Offsets are Python str indices into the original text (not UTF-16 units: an emoji counts one).
Nothing here touches the database.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from functools import lru_cache

from casefile.store.search import MAX_TOKEN_CHARS, Phrase, ascii_view, fold, parse_query

__all__ = ["FoldedText", "find_spans", "first_match", "first_span", "phrase_pattern"]

_FOLD_CACHE: dict[str, str] = {}


def _fold_char(c: str) -> str:
    folded = _FOLD_CACHE.get(c)
    if folded is None:
        folded = fold(c)
        if len(_FOLD_CACHE) < 100_000:
            _FOLD_CACHE[c] = folded
    return folded


@lru_cache(maxsize=256)
def phrase_pattern(phrase: Phrase) -> re.Pattern[str]:
    """The regex finding ``phrase`` in *folded* text: its words in order, separated by one or
    more characters that are not letters or digits, the last one followed by any letters or
    digits when ``phrase.prefix``. It does not check that the match starts a word (see
    :meth:`FoldedText.spans`)."""
    parts = [re.escape(w) for w in phrase.words]
    body = r"[\W_]+".join(parts)
    tail = r"[^\W_]*" if phrase.prefix else ""
    return re.compile(body + tail + r"(?![^\W_])")


class FoldedText:
    """A text folded once (the viewer's find bar searches the same text at every keystroke),
    with a map from folded positions back to the original text's str offsets.

    ``text`` is the original; ``folded`` is ``fold(text)`` character by character (ASCII is
    lower-cased; a character may fold to several, ``ß→ss``, or to none, a combining accent).
    Folding costs one pass over the text (a few milliseconds per MB of mostly ASCII text).
    """

    def __init__(self, text: str) -> None:
        self.text = text
        # Segments: folded position _fpos[k] maps to original offset _opos[k], and the
        # positions after it map linearly up to the next segment.
        self._fpos: list[int] = [0]
        self._opos: list[int] = [0]
        if text.isascii():
            self.folded = text.lower()
            return
        lowered, runs = ascii_view(text)
        pieces: list[str] = []
        fp = 0  # folded position of the next character
        linear = True  # the last segment still maps the next character linearly
        last = 0

        def ascii_run(start: int, end: int) -> None:
            nonlocal fp, linear
            if start >= end:
                return
            if not linear or self._opos[-1] + (fp - self._fpos[-1]) != start:
                self._fpos.append(fp)
                self._opos.append(start)
                linear = True
            pieces.append(lowered[start:end])
            fp += end - start

        for run_start, run_end in runs:
            ascii_run(last, run_start)
            for i in range(run_start, run_end):
                f = _fold_char(text[i])
                if len(f) == 1:
                    if not linear or self._opos[-1] + (fp - self._fpos[-1]) != i:
                        self._fpos.append(fp)
                        self._opos.append(i)
                        linear = True
                    pieces.append(f)
                    fp += 1
                elif f:  # several folded characters all stand for text[i]
                    for t in range(len(f)):
                        self._fpos.append(fp + t)
                        self._opos.append(i)
                    pieces.append(f)
                    fp += len(f)
                    linear = False
            last = run_end
        ascii_run(last, len(text))
        self.folded = "".join(pieces)

    def original(self, position: int) -> int:
        """The str offset in ``text`` of the character that folded into ``folded[position]``
        (``len(text)`` for ``position == len(folded)``)."""
        if position >= len(self.folded):
            return len(self.text)
        k = bisect_right(self._fpos, position) - 1
        return self._opos[k] + (position - self._fpos[k])

    def _span(self, start: int, end: int) -> tuple[int, int]:
        """Original ``(start, end)`` of ``folded[start:end]``: the end takes in characters that
        fold to nothing right after it (a decomposed accent on the last letter)."""
        a = self.original(start)
        b = max(self.original(end), self.original(end - 1) + 1)
        return a, b

    def phrase_spans(self, phrase: Phrase) -> list[tuple[int, int]]:
        """Every match of one phrase, in text order, as original ``(start, end)`` offsets.

        A match starts a word (the folded character before it is not a letter or digit); with
        ``phrase.prefix`` the matched last word is at most MAX_TOKEN_CHARS long, as the index
        keeps no longer word."""
        if not phrase.words:
            return []
        pattern = phrase_pattern(phrase)
        folded = self.folded
        out: list[tuple[int, int]] = []
        pos = 0
        while True:
            m = pattern.search(folded, pos)
            if m is None:
                return out
            s = m.start()
            if s and folded[s - 1].isalnum():  # inside a word: try again one further on
                pos = s + 1
                continue
            if phrase.prefix and not _last_word_ok(m.group()):
                pos = s + 1
                continue
            out.append(self._span(s, m.end()))
            pos = m.end()

    def spans(self, query: str) -> list[tuple[int, int]]:
        """Every match of ``query``'s positive phrases (search syntax; exclusions and OR/AND
        only choose items, they do not change where the words are), sorted, without overlaps:
        where two matches overlap the one starting first (then the longer) is kept."""
        parsed = parse_query(query)
        found: list[tuple[int, int]] = []
        for phrase in dict.fromkeys(parsed.phrases()):
            found += self.phrase_spans(phrase)
        found.sort(key=lambda s: (s[0], -s[1]))
        out: list[tuple[int, int]] = []
        for a, b in found:
            if not out or a >= out[-1][1]:
                out.append((a, b))
        return out


def _last_word_ok(matched: str) -> bool:
    """True when the last run of letters/digits of a prefix match is short enough to be
    indexed (MAX_TOKEN_CHARS)."""
    m = re.search(r"[^\W_]+$", matched)
    return m is not None and len(m.group()) <= MAX_TOKEN_CHARS


def find_spans(text: str, query: str) -> list[tuple[int, int]]:
    """Every match of ``query`` in ``text`` as sorted, non-overlapping ``(start, end)`` Python
    str offsets (see the module docstring for the rules and :meth:`FoldedText.spans`).

    A query with nothing to look for (blank, only exclusions, only punctuation) gives ``[]``.
    Never raises. To search one text for several queries, fold it once with
    :class:`FoldedText`.
    """
    if not parse_query(query).phrases():
        return []
    return FoldedText(text).spans(query)


#: :func:`first_span` folds this many characters first, then eight times more each round.
FIRST_SPAN_CHUNK = 65_536
#: ... and keeps a match found in a prefix only when it ends this far before the cut.
FIRST_SPAN_MARGIN = 4_096

_RUN_FOLDS: dict[str, str] = {}


def _fold_run_chars(run: str) -> str:
    """A run of non-ASCII characters folded character by character, as :class:`FoldedText`
    folds it (cached: the same runs, curly quotes and accented names, recur)."""
    folded = _RUN_FOLDS.get(run)
    if folded is None:
        folded = "".join(_fold_char(c) for c in run)
        if len(_RUN_FOLDS) < 50_000 and len(run) < 32:
            _RUN_FOLDS[run] = folded
    return folded


class _QuickFold:
    """``FoldedText(text).folded`` and its :meth:`FoldedText.original` map, made with one
    piece per run of non-ASCII characters instead of a segment per character: the map is
    worked out character by character only inside the run that holds the asked position.
    For :func:`first_match`, which maps two positions; same results as :class:`FoldedText`."""

    def __init__(self, text: str) -> None:
        self.text = text
        # per run of non-ASCII characters: folded start, original start, folded and
        # original lengths; folded starts strictly increase (runs are apart)
        self._runs: list[tuple[int, int, int, int]] = []
        self._starts: list[int] = []
        if text.isascii():
            self.folded = text.lower()
            return
        lowered, runs = ascii_view(text)
        pieces: list[str] = []
        fp = last = 0
        for a, b in runs:
            pieces.append(lowered[last:a])
            fp += a - last
            f = _fold_run_chars(text[a:b])
            self._runs.append((fp, a, len(f), b - a))
            self._starts.append(fp)
            pieces.append(f)
            fp += len(f)
            last = b
        pieces.append(lowered[last:])
        self.folded = "".join(pieces)

    def original(self, position: int) -> int:
        """As :meth:`FoldedText.original`."""
        if position >= len(self.folded):
            return len(self.text)
        k = bisect_right(self._starts, position) - 1
        if k < 0:
            return position
        fstart, ostart, flen, olen = self._runs[k]
        if position >= fstart + flen:  # in the ASCII after run k
            return ostart + olen + position - fstart - flen
        local = position - fstart
        seen = 0
        for j in range(olen):
            seen += len(_fold_char(self.text[ostart + j]))
            if local < seen:
                return ostart + j
        raise AssertionError("a position inside a run maps into it")  # pragma: no cover

    def span(self, start: int, end: int) -> tuple[int, int]:
        """As :meth:`FoldedText._span`."""
        return self.original(start), max(self.original(end), self.original(end - 1) + 1)


def _first_of_phrase(folded: str, phrase: Phrase) -> tuple[int, int] | None:
    """The folded ``(start, end)`` of the first match of ``phrase`` in ``folded``, with the
    rules of :meth:`FoldedText.phrase_spans` (its first span, before mapping)."""
    if not phrase.words:
        return None
    pattern = phrase_pattern(phrase)
    pos = 0
    while True:
        m = pattern.search(folded, pos)
        if m is None:
            return None
        s = m.start()
        if (s and folded[s - 1].isalnum()) or (phrase.prefix and not _last_word_ok(m.group())):
            pos = s + 1
            continue
        return s, m.end()


def first_match(text: str, phrases: Sequence[Phrase]) -> tuple[int, int] | None:
    """The first match in ``text`` of any of ``phrases`` (a parsed query's positive phrases,
    :meth:`~casefile.store.search.Query.phrases`) as ``(start, end)`` str offsets, or None:
    the first span :meth:`FoldedText.spans` would give (the earliest start, then the longest).

    Costs one fold of the text (a few microseconds per KB of mostly ASCII text: the runs of
    non-ASCII characters are folded whole, from a cache) and one regex search per phrase; only
    the two ends of the match are mapped back to the original offsets. A long text is folded
    from its start in growing pieces as :func:`first_span` says.
    """
    unique = tuple(dict.fromkeys(p for p in phrases if p.words))
    if not unique or not text:
        return None

    def first(piece: str) -> tuple[int, int] | None:
        qf = _QuickFold(piece)
        found = [qf.span(*m) for m in (_first_of_phrase(qf.folded, p) for p in unique) if m]
        return min(found, key=lambda s: (s[0], -s[1])) if found else None

    n = FIRST_SPAN_CHUNK
    while n < len(text):
        span = first(text[:n])
        if span is not None and span[1] <= n - FIRST_SPAN_MARGIN:
            return span
        n *= 8
    return first(text)


def first_span(text: str, query: str) -> tuple[int, int] | None:
    """The first match of ``query`` in ``text`` (str offsets), or None; see :func:`find_spans`.

    A long text is folded from its start in growing pieces (FIRST_SPAN_CHUNK characters, then
    eight times more...) until a match ends FIRST_SPAN_MARGIN characters before the piece's
    end, so a match near the start of a 5 MB text is found without folding all of it (only
    a match spanning more than FIRST_SPAN_MARGIN characters, its words thousands of punctuation
    characters apart, that crosses a piece's end could be passed over for a later one).
    To locate one query in many texts, parse it once and call :func:`first_match`.
    """
    return first_match(text, parse_query(query).phrases())
