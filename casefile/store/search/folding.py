"""One normalisation, in Python, for both engines: folding text and cutting it into tokens.

Both engines index the *same* tokens, made here by :func:`tokens`: the text is folded by
:func:`fold` (Unicode NFKD, combining marks removed, a few letters without a decomposition
mapped — ``ł→l``, ``ø→o``, ``đ→d``, ``ß→ss``, ``æ→ae`` ... — then ``str.casefold``), and cut into
runs of letters and digits (``[^\\W_]+``); everything else separates words, so the straight and
the curly apostrophe, hyphens, colons, dots and ``+`` all split words. Tokens longer than
:data:`MAX_TOKEN_CHARS` are not indexed. So ``Łódź`` finds ``Lodz`` and ``LODZ`` (and the other
way round), ``O'Brien`` finds ``O’Brien``, ``e-mail`` finds ``e mail`` and ``email``. Runs of
CJK, Hangul, Thai... characters are folded and cut as :mod:`casefile.store.search.grams` says.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from functools import cache

from casefile.store.search.grams import _fold_gram, _gram_or_word, gram_block, gram_run, gram_tokens

#: Longer runs of letters/digits (hashes, base64) are not indexed or searched; runs of CJK,
#: Hangul, Thai... are indexed as pairs of characters whatever their length (:func:`gram_tokens`).
MAX_TOKEN_CHARS = 64

_TOKEN = re.compile(r"[^\W_]+")
_ASCII_TOKEN = re.compile(r"[A-Za-z0-9]+")
# Letters that NFKD does not decompose but a reader treats as a base letter plus a mark.
_SPECIAL = {
    "ł": "l", "Ł": "l", "ø": "o", "Ø": "o", "đ": "d", "Đ": "d", "ħ": "h", "Ħ": "h",
    "ı": "i", "ŀ": "l", "Ŀ": "l", "ŧ": "t", "Ŧ": "t", "ð": "d", "Ð": "d", "þ": "th",
    "Þ": "th", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ß": "ss", "ẞ": "ss",
}


class _FoldTable(dict[int, "str | None"]):
    """Translate table of :func:`fold`: combining marks (category Mn, U+0300 to U+1FFFF)
    dropped, special letters mapped, every other character itself. Filled as ``str.translate``
    asks for characters: building it whole read about 130,000 code points (60 ms at the start
    of every process that folds a word outside ASCII)."""

    def __missing__(self, cp: int) -> str | None:
        found = None if 0x300 <= cp < 0x20000 and unicodedata.category(chr(cp)) == "Mn" \
            else chr(cp)
        self[cp] = found
        return found


@cache
def _fold_table() -> dict[int, str | None]:
    """The :class:`_FoldTable` (one per process)."""
    return _FoldTable({ord(k): v for k, v in _SPECIAL.items()})


def ascii_view(value: str) -> tuple[str, list[tuple[int, int]]]:
    """``(lowered, runs)`` of a str that may hold non-ASCII characters: ``lowered`` is
    ``value`` with ASCII letters lower-cased and each non-ASCII character replaced by ``?``
    (same length, so the same offsets); ``runs`` are the ``(start, end)`` str offsets of the
    runs of non-ASCII characters, in order.

    Made with ``str.encode("ascii", "replace")`` (one ``?`` per character), ``bytes.lower``
    and ``bytes.find``, all C loops: a regex scan for ``[^\\x00-\\x7f]+`` costs about 15 ns per
    character of a text that is not pure ASCII (45 us per 3 KB article), this about 1/10 of it.
    """
    enc = value.encode("ascii", "replace")
    runs: list[tuple[int, int]] = []
    find = enc.find
    n = len(value)
    i = find(63)  # "?"
    while i >= 0:
        if value[i] == "?":
            i = find(63, i + 1)
            continue
        j = i + 1
        while j < n and enc[j] == 63 and value[j] != "?":
            j += 1
        runs.append((i, j))
        i = find(63, j)
    return enc.lower().decode("ascii"), runs


def _fold_pieces(value: str, fold_run: Callable[[str], str]) -> str:
    """``value`` with ASCII lower-cased and each non-ASCII run replaced by ``fold_run(run)``."""
    lowered, runs = ascii_view(value)
    pieces: list[str] = []
    last = 0
    for start, end in runs:
        pieces.append(lowered[last:start])
        pieces.append(fold_run(value[start:end]))
        last = end
    pieces.append(lowered[last:])
    return "".join(pieces)


_RUN_CACHE: dict[str, str] = {}


def _fold_run(run: str) -> str:
    folded = _RUN_CACHE.get(run)
    if folded is None:  # the same few runs (curly quotes, accented names) recur in a text
        if gram_block().search(run) is None:
            folded = _fold_plain(run)
        else:  # CJK, Hangul, Thai...: folded apart (_fold_gram), the rest as usual
            pieces: list[str] = []
            last = 0
            for m in gram_run().finditer(run):
                pieces += [_fold_plain(run[last:m.start()]), _fold_gram(m.group())]
                last = m.end()
            pieces.append(_fold_plain(run[last:]))
            folded = "".join(pieces)
        if len(_RUN_CACHE) < 50_000 and len(run) < 32:
            _RUN_CACHE[run] = folded
    return folded


def _fold_plain(run: str) -> str:
    return unicodedata.normalize("NFKD", run).translate(_fold_table()).casefold()


def fold(value: str) -> str:
    """Fold text for matching: NFKD, drop combining marks, map ł/ø/ß/æ..., casefold; runs of
    CJK, Hangul, Thai... (:func:`gram_class`) one character for one (:func:`_fold_gram`).

    Only the runs of non-ASCII characters (:func:`ascii_view`) go through Unicode
    normalisation (news text is mostly ASCII, and ``str.translate`` with a dict is slow per
    character). Offsets are not kept.
    """
    if value.isascii():
        return value.lower()
    return _fold_pieces(value, _fold_run)


def _chunks(value: str, size: int) -> Iterable[str]:
    """``value`` cut into pieces of about ``size`` characters, each cut just after an ASCII
    whitespace character (or anywhere, in a piece without one), so no cut falls inside a run
    of letters/digits or a run of non-ASCII characters and ``fold``/``_TOKEN`` give the same
    result piece by piece as on the whole."""
    start = 0
    n = len(value)
    while start < n:
        end = start + size
        if end >= n:
            yield value[start:]
            return
        cut = max(value.rfind("\n", start, end), value.rfind(" ", start, end))
        end = cut + 1 if cut > start else end
        if cut <= start:  # no space in the piece: cut at the next one (or keep the rest whole)
            m = _WHITE.search(value, end)
            end = m.end() if m else n
        yield value[start:end]
        start = end


_WHITE = re.compile(r"\s")
#: :func:`tokens` folds and cuts this many characters at a time: each regex call holds the GIL,
#: and between pieces other threads (the window's event loop during a background import) run.
TOKEN_CHUNK_CHARS = 16_384


def tokens(value: str) -> list[str]:
    """The index tokens of ``value``: folded runs of letters/digits of at most MAX_TOKEN_CHARS;
    a run of CJK, Hangul, Thai... characters (:func:`gram_class`) gives its pairs of adjacent
    characters and its last character instead (:func:`gram_tokens`, any length).

    Long texts are folded and tokenised in pieces of about :data:`TOKEN_CHUNK_CHARS` characters
    cut at whitespace (same tokens as in one go): one ``re.findall`` over a 5 MB text held the
    GIL for about a second and froze the window during a background import.
    """
    if len(value) <= TOKEN_CHUNK_CHARS:
        return _piece_tokens(value)
    out: list[str] = []
    for piece in _chunks(value, TOKEN_CHUNK_CHARS):
        out += _piece_tokens(piece)
    return out


def token_text(*values: str, words: set[bytes] | None = None) -> str:
    """The :func:`tokens` of ``values``, in order, joined by single spaces (what the SQLite
    index is given), built piece by piece: a list of every token of a 60 MB text would take
    about 700 MB, this string 60 MB. ``words``, when given, gets the distinct tokens (UTF-8
    bytes) added, from the pieces as they are cut (not by cutting the result again)."""
    parts: list[str] = []
    for value in values:
        pieces = _chunks(value, TOKEN_CHUNK_CHARS) if len(value) > TOKEN_CHUNK_CHARS else [value]
        for piece in pieces:
            joined = _piece_text(piece, words)
            if joined:
                parts.append(joined)
    return " ".join(parts)


#: bytes.translate table: ASCII letters and digits kept, every other byte a space.
_WORD_BYTES = bytes(c if chr(c).isascii() and chr(c).isalnum() else 32 for c in range(256))
_WORDY: dict[str, bool] = {}


def _wordy(char: str) -> bool:
    """Whether a character is part of a word (``[^\\W_]``), remembered per character."""
    found = _WORDY.get(char)
    if found is None:
        found = _WORDY[char] = _TOKEN.fullmatch(char) is not None
    return found


def _piece_text(value: str, words: set[bytes] | None = None) -> str:
    """``" ".join(_piece_tokens(value))`` (its distinct tokens added to ``words``), made with
    C loops when the folded text's words are
    all ASCII (news text once folded: what is left outside ASCII is punctuation such as curly
    quotes and dashes): non-ASCII characters become ``?``, every byte but letters and digits a space
    (``bytes.translate``), then ``split`` and ``join``; a regex per token costs about three
    times as much. Any other text goes the :func:`_piece_tokens` way."""
    folded = fold(value)
    if folded.isascii():
        raw = folded.encode("ascii")
    else:
        raw = folded.encode("ascii", "replace")
        find = raw.find
        at = find(63)  # "?": a character outside ASCII (or a question mark)
        while at >= 0:
            if folded[at] != "?" and _wordy(folded[at]):
                found = _piece_tokens(value)
                if words is not None:
                    words.update(t.encode("utf-8") for t in found)
                return " ".join(found)
            at = find(63, at + 1)
    cut = raw.translate(_WORD_BYTES).split()
    # the longest word by its length (a C loop; a regex for a run of 65 letters or digits
    # costs four times as much)
    if cut and max(map(len, cut)) > MAX_TOKEN_CHARS:
        cut = [w for w in cut if len(w) <= MAX_TOKEN_CHARS]
    if words is not None:
        words.update(cut)
    return b" ".join(cut).decode("ascii")


def _words(joined: str) -> set[str]:
    """The distinct words of a :func:`token_text` string, split a piece at a time."""
    words: set[str] = set()
    for piece in _chunks(joined, 1024**2):
        words.update(piece.split())
    return words


def _piece_tokens(value: str) -> list[str]:
    folded = fold(value)
    # On ASCII text [A-Za-z0-9] is the same set as [^\W_], and much faster to match.
    if folded.isascii():
        pattern = _ASCII_TOKEN
    elif gram_block().search(folded) is not None:
        return _mixed_tokens(folded)
    else:
        pattern = _TOKEN
    found: list[str] = pattern.findall(folded)
    if found and max(map(len, found)) > MAX_TOKEN_CHARS:  # (the check runs at C speed)
        found = [t for t in found if len(t) <= MAX_TOKEN_CHARS]
    return found


@cache
def _one_char_table() -> dict[int, str]:
    """Per-character fold for characters whose fold is one character (offsets are kept)."""
    table: dict[int, str] = {}
    ranges: Iterable[int] = (
        *range(0x80, 0x2000), *range(0x2100, 0x2200), *range(0xFB00, 0xFB50),
        *range(0xFF00, 0xFFF0),
    )
    for cp in ranges:
        folded = fold(chr(cp))
        if len(folded) == 1 and folded != chr(cp):
            table[cp] = folded
    return table


_SAME_CACHE: dict[str, str] = {}


def _fold_run_same(run: str) -> str:
    folded = _SAME_CACHE.get(run)
    if folded is None:
        folded = run.translate(_one_char_table()).lower()
        if len(_SAME_CACHE) < 50_000 and len(run) < 32:
            _SAME_CACHE[run] = folded
    return folded


def fold_same_length(value: str) -> str:
    """``value`` folded character by character, same length, so offsets line up (snippets).

    Characters whose fold is longer (``ß``, ``æ``, ligatures) are kept as they are.
    """
    if value.isascii():
        return value.lower()
    return _fold_pieces(value, _fold_run_same)



def _mixed_tokens(folded: str) -> list[str]:
    """:func:`tokens` of a folded text holding :func:`gram_class` characters."""
    out: list[str] = []
    for gram, word in _gram_or_word().findall(folded):
        if gram:
            out += gram_tokens(gram)
        elif len(word) <= MAX_TOKEN_CHARS:
            out.append(word)
    return out
