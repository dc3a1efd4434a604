"""Snippets: the few lines of a hit's text around an early match, with the matched words
highlighted.

The query's words are found in the text as it is, with the same offsets, by a regex whose
letters are classes of every character folding to them (:func:`_matcher`); words of CJK,
Hangul, Thai... are found inside longer runs of such characters (:func:`_gram_matcher`). A
snippet is made for each returned hit only (about 0.01-0.04 ms of Python per 3 KB hit), from
the item's indexed body followed by its document text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache, lru_cache

from casefile.store.search.folding import _TOKEN, _one_char_table, fold
from casefile.store.search.grams import gram_class, is_gram
from casefile.store.search.query import Phrase, has_gram, phrase_units

#: Snippet markers around each highlighted word in :attr:`SearchHit.snippet`.
MARK_OPEN = "["
MARK_CLOSE = "]"
SNIPPET_CHARS = 240


@cache
def _same_fold() -> dict[str, str]:
    """For each character ``c``, the other characters ``x`` (U+0000 to U+1FFFF) whose
    :func:`fold_same_length` is ``c`` (``l`` -> ``Lł Ł``...): built once, ~0.1 s."""
    table = _one_char_table()
    groups: dict[str, list[str]] = {}
    for cp in range(0x20000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        x = chr(cp)
        folded = (table.get(cp, x) if cp >= 0x80 else x).lower()
        if len(folded) == 1 and folded != x:
            groups.setdefault(folded, []).append(x)
    return {c: "".join(xs) for c, xs in groups.items()}


def _char_class(c: str) -> str:
    others = _same_fold().get(c)
    return re.escape(c) if not others else "[" + re.escape(c) + re.escape(others) + "]"


@lru_cache(maxsize=256)
def _matcher(phrases: tuple[Phrase, ...], min_chars: int = 0,
             gram_aware: bool = False) -> re.Pattern[str] | None:
    """A regex finding the phrases' words in the original text, or None. With ``min_chars``,
    only the words of at least that many characters, if the phrases have any.

    Words of CJK, Hangul, Thai... (:func:`phrase_units`) are found anywhere, inside longer
    runs of those characters, and the other words may then touch them (``NHK`` in ``NHKの``):
    a phrase with such words, or ``gram_aware``, gives :func:`_gram_matcher`.

    Each letter of a (folded) query word is a class of every character that
    :func:`fold_same_length` maps to it (``[lLłŁĺ...]``), so the text is searched as it is, with
    the same str offsets, without lower-casing or folding it first. A match is a whole word
    (a ``prefix*`` word may go on): not preceded or followed by a letter or digit.

    Shape, for speed: the pattern starts with one class, the union of the words' first
    letters, so that ``re`` skips ahead with that character set instead of trying the
    alternatives at every position (CPython's ``re._compiler._get_charset_prefix`` uses a
    leading class, not an alternation of classes); the word-start check and the choice of
    word follow as look-behinds: ``[fFnN...](?<![^\\W_].)(?:(?<=[fF...])erreira|...)``.
    About 2.5x faster than an alternation for queries of several words.
    """
    if gram_aware or any(has_gram(p) for p in phrases):
        return _gram_matcher(phrases, min_chars)
    words: dict[str, bool] = {}
    for p in phrases:
        for i, w in enumerate(p.words):
            is_prefix = p.prefix and i == len(p.words) - 1
            words[w] = words.get(w, False) or is_prefix
    words = {w: star for w, star in words.items() if len(w) >= min_chars} or words
    if not words:
        return None
    alts = sorted(words, key=len, reverse=True)
    firsts = dict.fromkeys(w[0] for w in alts)
    union = "".join(re.escape(c) + re.escape(_same_fold().get(c, "")) for c in firsts)

    def rest(w: str) -> str:
        which = "" if len(firsts) == 1 else f"(?<={_char_class(w[0])})"
        return which + "".join(_char_class(c) for c in w[1:]) + (r"[^\W_]*" if words[w] else "")

    return re.compile(rf"[{union}](?<![^\W_].)(?:{'|'.join(rest(w) for w in alts)})(?![^\W_])")


def _gram_matcher(phrases: tuple[Phrase, ...], min_chars: int) -> re.Pattern[str] | None:
    """:func:`_matcher` for phrases that may hold words of :func:`gram_class` characters, or
    for a text that holds such characters: those words are matched anywhere (each character a
    class of the characters folding to it, as the other words' letters), the longest first;
    the other words as whole words where a letter or digit *of another script* neither
    precedes nor follows them."""
    words: dict[str, bool] = {}
    grams: set[str] = set()
    for p in phrases:
        units = phrase_units(p.words)
        for i, u in enumerate(units):
            if u.gram:
                grams.add(u.text)
            else:
                is_prefix = p.prefix and i == len(units) - 1
                words[u.text] = words.get(u.text, False) or is_prefix
    long_words = {w: star for w, star in words.items() if len(w) >= min_chars}
    words = long_words if (long_words or grams) else words
    if not words and not grams:
        return None
    letter = f"[^\\W_{gram_class()}]"
    alts = [rf"(?<!{letter}){''.join(_char_class(c) for c in w)}"
            + (f"{letter}*" if words[w] else "") + f"(?!{letter})"
            for w in sorted(words, key=len, reverse=True)]
    alts += ["".join(_char_class(c) for c in g) for g in sorted(grams, key=len, reverse=True)]
    return re.compile("|".join(alts))


def _squash(value: str) -> str:
    """``value`` with each run of whitespace (``str.isspace``) made one space, as
    ``re.sub(r"\\s+", " ", value)`` does, but with ``str.split`` (C, about 3x faster here)."""
    if "  " not in value and value.isprintable():  # no whitespace but single " "
        return value
    core = " ".join(value.split())
    if not core:
        return " "
    return ((" " if value[0].isspace() else "") + core
            + (" " if value[-1].isspace() else ""))


#: Query words shorter than this many characters do not place a snippet (when the query has
#: longer ones): a short word is found inside many other words, and a lone "O" (of O'Brien)
#: or "to" (of "nothing to hide") tells the reader little.
CENTRE_MIN_CHARS = 4


@lru_cache(maxsize=256)
def _probes(phrases: tuple[Phrase, ...], query: str = "") -> tuple[str, ...]:
    """What :func:`make_snippet` looks for first: each query word of CENTRE_MIN_CHARS
    characters or more without its first letter, in lower case, as typed in ``query``
    (``ódź`` for ``Łódź``) and folded (``odz``), so one ``str.find`` finds it written with or
    without a capital (``Ferreira``, ``ferreira``: ``erreira``)."""
    words = {w for p in phrases for w in p.words}
    typed = [t.lower() for t in _TOKEN.findall(query) if fold(t) in words]
    return tuple(dict.fromkeys(w[1:] for w in [*typed, *words] if len(w) >= CENTRE_MIN_CHARS))


def _early_match(body: str, centre: re.Pattern[str],
                 probes: Sequence[str]) -> re.Match[str] | None:
    """The match the snippet is centred on: the earliest place where a probe
    (:func:`_probes`) is found with ``str.find`` one character after the start of a match of
    ``centre`` (checked with ``centre.match`` there); when no probe is, the first match of
    ``centre`` in any form (``centre.search``: accented, in capitals...), or None.

    ``centre`` alone would scan the text at 5-15 ns a character (CPython's ``re``, stopping
    at every first letter of a query word); ``str.find`` takes about 0.8 ns. So a word
    written in an unusual form *before* a usual one is highlighted only if it falls in the
    snippet, which then shows the first usual one.
    """
    best: re.Match[str] | None = None
    for probe in probes:
        end = len(body) if best is None else best.start()
        i = body.find(probe, 1, end)
        while i > 0:
            found = centre.match(body, i - 1)
            if found is not None:
                best = found
                break
            i = body.find(probe, i + 1, end)
    return best if best is not None else centre.search(body)


def make_snippet(
    body: str, matcher: re.Pattern[str] | None, probes: Sequence[str] = (),
    centre: re.Pattern[str] | None = None,
) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The snippet text of ``body`` around an early match, and the highlighted spans in it.

    Returns ``(text, spans)``: ``text`` is at most ~SNIPPET_CHARS characters of ``body`` with
    runs of whitespace made single spaces and ``…`` where it was cut; ``spans`` are
    ``(start, end)`` str offsets of every match of ``matcher`` in ``text`` (:func:`_matcher`).
    The window is placed around the match of ``centre`` (default: ``matcher``) that
    :func:`_early_match` finds with ``probes``; with no probes, around its first match; when
    ``centre`` has none, around the first match of ``matcher``; with no match at all, at the
    start.
    """
    if not body:
        return "", ()
    first = None if matcher is None else _early_match(body, centre or matcher, probes)
    if (first is None and centre is not None and matcher is not None
            and centre.pattern != matcher.pattern):  # not the same scan twice
        first = matcher.search(body)  # only short words in the text ("IBM OR harbor")
    if first is None:
        start = 0
    else:
        start = max(0, first.start() - SNIPPET_CHARS // 3)
        if start:
            space = body.find(" ", start, first.start())
            start = space + 1 if space >= 0 else start
    end = min(len(body), start + SNIPPET_CHARS)
    if end < len(body):
        space = body.rfind(" ", max(start + 1, (first.end() if first else start)), end)
        end = space if space > 0 else end
    # Squashing whitespace changes no word, so the matches are found in the squashed window.
    window = _squash(body[start:end])
    lead = "…" if start else ""
    tail = "…" if end < len(body) else ""
    if not lead:
        window = window.lstrip(" ")
    if not tail:
        window = window.rstrip(" ")
    spans = [m.span() for m in matcher.finditer(window)] if matcher else []
    # a window cut inside a word: a match at its start is not a word start in the body
    if (spans and lead and not spans[0][0] and body[start - 1].isalnum()
            and not is_gram(body[start - 1]) and not is_gram(window[0])):
        del spans[0]
    if lead:
        spans = [(a + 1, b + 1) for a, b in spans]
    return lead + window + tail, tuple(spans)


def mark(snippet_text: str, spans: Sequence[tuple[int, int]]) -> str:
    """``snippet_text`` with each span wrapped in MARK_OPEN / MARK_CLOSE."""
    out: list[str] = []
    cursor = 0
    for a, b in spans:
        out += [snippet_text[cursor:a], MARK_OPEN, snippet_text[a:b], MARK_CLOSE]
        cursor = b
    out.append(snippet_text[cursor:])
    return "".join(out)
