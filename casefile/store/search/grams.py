"""Scripts written without spaces between words, and Hangul: what counts as such a character,
and how a run of them is folded and indexed.

Scripts written without spaces between words (Han, kana, Thai, Lao, Khmer, Myanmar) and Hangul
(spaced, but 예산 is a word of 예산을 and 예산안은) are cut differently (:data:`GRAM_BLOCKS`,
revision 0007): their characters are folded one for one (:func:`_fold_gram`: NFKC, marks and
Hangul syllables kept), and a run of them gives its pairs of adjacent characters and its last
character alone (:func:`gram_tokens`: 記者会見 → ``記者 者会 会見 見``). A typed word of them is
the phrase of its pairs (:func:`casefile.store.search.query.query_tokens`), so it is found
anywhere inside a run, and a one-character word is a prefix query (a pair starting with it, or a
run's last character); followed by another word in a phrase, the run must end there (its last
character is part of the phrase). Other letters next to such a run are a word of their own
(``NHK`` in ``NHKの``). :func:`casefile.store.search.query.phrase_units` gives the typed words
back from the tokens, for highlighting (:mod:`casefile.store.search.snippets`) and locating
(:mod:`casefile.store.textfind`). Texts without such characters get exactly the tokens they got
before.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

#: Blocks of the scripts whose words are found *inside* runs of letters (:func:`gram_tokens`):
#: Han, kana and the CJK marks (Chinese, Japanese), Hangul (Korean: spaced, but a word is
#: found inside a longer eojeol, 예산 in 예산을), Thai, Lao, Khmer and Myanmar (no spaces).
#: Only letters, marks and digits of these blocks count (categories L*, M*, N*): their
#: punctuation (。, 、, ・, ฯ...) separates words as any other.
GRAM_BLOCKS: tuple[tuple[int, int], ...] = (
    (0x0E00, 0x0EFF),  # Thai, Lao
    (0x1000, 0x109F),  # Myanmar
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x1780, 0x17FF),  # Khmer
    (0x3005, 0x3007),  # 々 〆 〇
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3130, 0x318F),  # Hangul compatibility Jamo
    (0x31F0, 0x31FF),  # Katakana phonetic extensions
    (0x3400, 0x4DBF),  # CJK Unified Ideographs Extension A
    (0x4E00, 0x9FFF),  # CJK Unified Ideographs
    (0xA960, 0xA97F),  # Hangul Jamo Extended-A
    (0xAC00, 0xD7FF),  # Hangul Syllables, Jamo Extended-B
    (0xF900, 0xFAFF),  # CJK Compatibility Ideographs
    (0xFF66, 0xFF9F),  # half-width Katakana
    (0x20000, 0x3134F),  # CJK Unified Ideographs Extensions B-H
)


@cache
def gram_class() -> str:
    """The body of a regex character class (no brackets) of the characters of
    :data:`GRAM_BLOCKS` that are letters, marks or digits, as ranges."""
    ranges: list[tuple[int, int]] = []
    for lo, hi in GRAM_BLOCKS:
        for cp in range(lo, hi + 1):
            if unicodedata.category(chr(cp))[0] in "LMN":
                if ranges and ranges[-1][1] == cp - 1:
                    ranges[-1] = (ranges[-1][0], cp)
                else:
                    ranges.append((cp, cp))
    return "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in ranges)


@cache
def gram_run() -> re.Pattern[str]:
    """A run of characters of :func:`gram_class`."""
    return re.compile(f"[{gram_class()}]+")


@cache
def gram_block() -> re.Pattern[str]:
    """A character of :data:`GRAM_BLOCKS` (of any category): a quick test of whether a text
    may hold :func:`gram_class` characters (about 5 times faster than that class, whose
    ranges are many)."""
    return re.compile("[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in GRAM_BLOCKS) + "]")


@cache
def _gram_or_word() -> re.Pattern[str]:
    """A run of :func:`gram_class` characters (group 1), or a run of the other letters and
    digits (group 2): what :func:`tokens` cuts a text into when it holds such characters."""
    g = gram_class()
    return re.compile(f"([{g}]+)|([^\\W_{g}]+)")


_IS_GRAM: dict[str, bool] = {}


def is_gram(c: str) -> bool:
    """True when the character ``c`` is of :func:`gram_class` (ASCII never is)."""
    if c.isascii():
        return False
    found = _IS_GRAM.get(c)
    if found is None:
        found = gram_run().fullmatch(c) is not None
        if len(_IS_GRAM) < 100_000:
            _IS_GRAM[c] = found
    return found


_GRAM_FOLD: dict[str, str] = {}


def _fold_gram(run: str) -> str:
    """A run of :func:`gram_class` characters folded character by character, one character
    each: the NFKC form when it is one character (half-width ｶ → カ, compatibility ideographs,
    Hangul compatibility Jamo), else the NFC form when that is one character, else the
    character itself. Marks are kept (Thai vowels and tone marks, the kana voicing marks) and
    Hangul syllables stay whole (NFKD, which :func:`fold` applies to other scripts, would cut
    them into Jamo and drop the marks)."""
    out = []
    for c in run:
        f = _GRAM_FOLD.get(c)
        if f is None:
            f = unicodedata.normalize("NFKC", c)
            if len(f) != 1:
                f = unicodedata.normalize("NFC", c)
                f = f if len(f) == 1 else c
            _GRAM_FOLD[c] = f
        out.append(f)
    return "".join(out)


def gram_tokens(run: str, *, closed: bool = True) -> list[str]:
    """The index tokens of one folded run of :func:`gram_class` characters: each pair of
    adjacent characters in order (記者会見 → 記者 者会 会見), then its last character alone
    (見), which marks the end of the run; a one-character run is that character.

    So a word of ``n >= 2`` such characters is the phrase of its ``n - 1`` pairs, found
    anywhere inside a run, and a one-character word is found as the prefix of a token (a pair
    starting with it, or a run's last character). ``closed=False`` (the last word of a query
    phrase, which a longer run in the text may continue) leaves out the last character.
    """
    if len(run) == 1:
        return [run]
    pairs = [run[i:i + 2] for i in range(len(run) - 1)]
    return pairs + [run[-1]] if closed else pairs

