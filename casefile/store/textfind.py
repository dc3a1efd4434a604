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
``e mail`` and ``email``. A word of Chinese, Japanese, Korean, Thai... is found inside a longer
run of such characters (``예산`` in ``예산을``, ``知事`` in ``県知事は``), as the index finds it
(:func:`casefile.store.search.gram_tokens`).

Offsets are Python str indices into the original text (not UTF-16 units: an emoji counts one).
Nothing here touches the database.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache, partial
from typing import Any

from casefile.store.search import (
    MAX_TOKEN_CHARS,
    Phrase,
    ascii_view,
    fold,
    gram_class,
    has_gram,
    is_gram,
    parse_query,
    phrase_units,
)

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
    :meth:`FoldedText.spans`).

    A word of CJK, Hangul, Thai... characters (:func:`~casefile.store.search.phrase_units`;
    indexed as pairs of characters, :func:`~casefile.store.search.gram_tokens`) is found
    inside a longer run of them; followed by another word of the phrase, it ends that run.
    Other words are letters and digits of other scripts, so ``NHK`` is a word of ``NHKの``:
    a word's end is where no such letter or digit follows, and a separator between such a
    word and a run of CJK... characters may be empty."""
    g = gram_class()
    letter = f"[^\\W_{g}]"
    if not has_gram(phrase):
        body = r"[\W_]+".join(re.escape(w) for w in phrase.words)
        tail = f"{letter}*" if phrase.prefix else ""
        return re.compile(body + tail + f"(?!{letter})")
    sep = f"(?:_|[^\\w{g}])"
    units = phrase_units(phrase.words)
    parts: list[str] = []
    for k, u in enumerate(units):
        if k:
            parts.append(f"{sep}*" if u.gram != units[k - 1].gram else f"{sep}+")
        parts.append(re.escape(u.text))
        if u.gram and u.closed:
            parts.append(f"(?![{g}])")
    if not units[-1].gram:
        parts.append((f"{letter}*" if phrase.prefix else "") + f"(?!{letter})")
    return re.compile("".join(parts))


def _starts_word(folded: str, start: int, phrase: Phrase) -> bool:
    """True when a match of ``phrase`` at ``folded[start]`` is where its first word starts:
    a word of CJK, Hangul, Thai... characters anywhere, another word not right after a letter
    or digit of another script."""
    if not start:
        return True
    before = folded[start - 1]
    if not before.isalnum() or is_gram(before):
        return True
    return is_gram(phrase.words[0][0])


def _prefix_ok(phrase: Phrase, matched: str) -> bool:
    """A ``prefix*`` phrase's match ends in an indexed word (MAX_TOKEN_CHARS), unless its last
    word is CJK, Hangul, Thai... (those are found inside runs of any length)."""
    if not phrase.prefix or is_gram(phrase.words[-1][0]):
        return True
    return _last_word_ok(matched)


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
        return [self._span(a, b) for a, b in _folded_matches(self.folded, phrase)]

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


#: :func:`first_match` looks at this many characters of a text first, then FIRST_SPAN_GROWTH
#: times more each round, until the first match is sure (see there).
FIRST_SPAN_CHUNK = 16_384
FIRST_SPAN_GROWTH = 8


@lru_cache(maxsize=1)
def _word_run() -> re.Pattern[str]:
    """A run of CJK, Hangul, Thai... characters (marks included), or of other letters and
    digits: each word of a phrase lies inside one such run (:func:`first_match`)."""
    g = gram_class()
    return re.compile(f"[{g}]+|[^\\W_{g}]+")


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


def _folded_matches(folded: str, phrase: Phrase) -> Iterator[tuple[int, int]]:
    """The matches of ``phrase`` in ``folded``, in order, as folded ``(start, end)`` offsets,
    with the rules of :meth:`FoldedText.phrase_spans` (a match starts a word; a prefix's last
    word is no longer than the index keeps)."""
    if not phrase.words:
        return
    for m in _kept_matches(phrase_pattern(phrase), folded,
                           lambda m: _starts_word(folded, m.start(), phrase)
                           and _prefix_ok(phrase, m.group())):
        yield m.start(), m.end()


def _kept_matches(pattern: re.Pattern[Any], text: Any, keep: Callable[[re.Match[Any]], bool]
                  ) -> Iterator[re.Match[Any]]:
    """The matches of ``pattern`` in ``text`` (str or bytes) that ``keep`` accepts, in order,
    not overlapping; after a match refused (inside a word, too long a prefix) the search goes
    on one character after its start."""
    pos = 0
    while (m := pattern.search(text, pos)) is not None:
        if keep(m):
            yield m
            pos = m.end()
        else:
            pos = m.start() + 1


def _first_of_phrase(folded: str, phrase: Phrase) -> tuple[int, int] | None:
    """The folded ``(start, end)`` of the first match of ``phrase`` in ``folded``, with the
    rules of :meth:`FoldedText.phrase_spans` (its first span, before mapping)."""
    return next(_folded_matches(folded, phrase), None)


def first_match(text: str, phrases: Sequence[Phrase]) -> tuple[int, int] | None:
    """The first match in ``text`` of any of ``phrases`` (a parsed query's positive phrases,
    :meth:`~casefile.store.search.Query.phrases`) as ``(start, end)`` str offsets, or None:
    the first span :meth:`FoldedText.spans` gives for the whole text (the earliest start,
    then the longest).

    Only as much of the text is looked at as it takes: FIRST_SPAN_CHUNK characters, then
    FIRST_SPAN_GROWTH times more each round, until the first match found in that piece is sure
    to be the first of the whole text: it ends before the piece does, and at least one more
    word than the longest phrase has starts in the piece at or after it (a phrase of ``k``
    words touches at most ``k`` runs of letters/digits, :func:`_word_run`, a run of CJK...
    characters being one run, so a match starting earlier, which was not found because it
    runs past the piece's end, cannot exist). A piece whose every
    character folds to one character, searched for ASCII words, is searched as bytes, not
    folded (:func:`_ascii_first`; news text in Latin script: a few microseconds per KB);
    another is folded (runs of non-ASCII characters folded whole, from a cache) and only the
    ends of the match are mapped back to the original offsets.
    """
    unique = tuple(dict.fromkeys(p for p in phrases if p.words))
    if not unique or not text:
        return None
    most = max(len(p.words) for p in unique)
    n = FIRST_SPAN_CHUNK
    while True:
        whole = n >= len(text)
        piece = text if whole else text[:n]
        found = _ascii_first(piece, unique, most)
        if found is None:
            qf = _QuickFold(piece)
            first = _first_in(qf, unique)
            found = (None if first is None else first[0],
                     first is not None and first[1][1] < len(qf.folded)
                     and _has_runs(qf.folded, first[1][0], most + 1))
        span, inside = found
        if whole or (span is not None and inside):
            return span
        n *= FIRST_SPAN_GROWTH


_ASCII_WORD = re.compile(r"[a-z0-9]+")
_BYTES_RUN = re.compile(rb"[A-Za-z0-9]+")


@lru_cache(maxsize=256)
def _bytes_pattern(phrase: Phrase) -> re.Pattern[bytes] | None:
    """:func:`phrase_pattern` for the ASCII bytes of a text, or None when a word of
    ``phrase`` is not all ASCII letters and digits."""
    if not all(_ASCII_WORD.fullmatch(w) for w in phrase.words):
        return None
    body = rb"[\W_]+".join(w.encode() for w in phrase.words)
    return re.compile(body + (rb"[A-Za-z0-9]*" if phrase.prefix else b"") + rb"(?![A-Za-z0-9])")


_SIMPLE: dict[str, int] = {}


def _simple_byte(c: str) -> int:
    """For a non-ASCII character: the byte standing for it in :func:`_ascii_first`'s bytes
    (its fold when that is one ASCII letter or digit, ``?`` when it folds to one character
    that is not a letter or digit: a curly quote, a dash), or -1 (any other fold)."""
    b = _SIMPLE.get(c)
    if b is None:
        f = _fold_char(c)
        b = -1 if len(f) != 1 else ord(f) if f.isascii() and f.isalnum() else (
            -1 if f.isalnum() else 63)
        if len(_SIMPLE) < 100_000:
            _SIMPLE[c] = b
    return b


def _bytes_match_ok(buf: bytes | bytearray, phrase: Phrase, m: re.Match[bytes]) -> bool:
    """In :func:`_ascii_first`'s bytes: the match starts a word, and a prefix's last word is
    no longer than the index keeps."""
    a = m.start()
    return not (a and buf[a - 1:a].isalnum()) and (
        not phrase.prefix or _last_word_ok(bytes(m.group()).decode()))


def _ascii_first(text: str, phrases: tuple[Phrase, ...], most: int
                 ) -> tuple[tuple[int, int] | None, bool] | None:
    """:func:`_first_in` without folding the text, when every phrase is ASCII letters and
    digits and every non-ASCII character of the text folds to one character: then the text
    as bytes, one per character (so offsets are the text's), ASCII lower-cased, each
    non-ASCII character replaced by its fold if that is an ASCII letter or digit, else by
    ``?``, has the same words and separators as the folded text, and :func:`_bytes_pattern`
    finds the same first match there. Returns ``(span or None, sure)`` (``sure``: the match
    ends before the text and ``most + 1`` runs of letters/digits start at or after it), or
    None when the text or a phrase is not like that."""
    patterns = [_bytes_pattern(p) for p in phrases]
    if any(pat is None for pat in patterns):
        return None
    enc = text.encode("ascii", "replace")
    buf: bytes | bytearray = enc.lower()
    if not text.isascii():
        buf = bytearray(buf)
        find, simple = enc.find, _SIMPLE
        i = find(63)  # "?"
        while i >= 0:
            c = text[i]
            b = simple.get(c)
            if b is None:
                b = 63 if c == "?" else _simple_byte(c)
            if b != 63:
                if b < 0:
                    return None
                buf[i] = b
            i = find(63, i + 1)
    best: tuple[int, int] | None = None
    for pat, phrase in zip(patterns, phrases, strict=True):
        assert pat is not None
        m = next(_kept_matches(pat, buf, partial(_bytes_match_ok, buf, phrase)), None)
        if m is not None and (best is None or (m.start(), -m.end()) < (best[0], -best[1])):
            best = (m.start(), m.end())
    if best is None:
        return None, False
    return best, best[1] < len(buf) and any(
        k >= most for k, _ in enumerate(_BYTES_RUN.finditer(buf, best[0])))


def _first_in(qf: _QuickFold, phrases: tuple[Phrase, ...]
              ) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """``(original span, folded span)`` of the first match of any of ``phrases`` in ``qf``
    (by original start, then the longest), or None."""
    best: tuple[tuple[int, int], tuple[int, int]] | None = None
    for phrase in phrases:
        m = _first_of_phrase(qf.folded, phrase)
        if m is None:
            continue
        span = qf.span(*m)
        if best is None or (span[0], -span[1]) < (best[0][0], -best[0][1]):
            best = (span, m)
    return best


def _has_runs(folded: str, start: int, count: int) -> bool:
    """True when at least ``count`` runs of letters/digits start in ``folded[start:]``."""
    return any(k + 1 >= count for k, _ in enumerate(_word_run().finditer(folded, start)))


def first_span(text: str, query: str) -> tuple[int, int] | None:
    """The first match of ``query`` in ``text`` (str offsets), or None; see :func:`find_spans`.

    The text is folded from its start in growing pieces (:func:`first_match`), so a match
    near the start of a 5 MB text is found without folding all of it. To locate one query in
    many texts, parse it once and call :func:`first_match`.
    """
    return first_match(text, parse_query(query).phrases())
