"""Full-text search backend: SQLite FTS5 or PostgreSQL tsvector, behind a few functions.

Services call :func:`index_item` after a change and :func:`unindex_item` before a delete, in the
same transaction as the change; :func:`search` answers a user's free-text query.

One normalisation, in Python, for both engines
----------------------------------------------
Both engines index the *same* tokens, made here by :func:`tokens`: the text is folded by
:func:`fold` (Unicode NFKD, combining marks removed, a few letters without a decomposition
mapped — ``ł→l``, ``ø→o``, ``đ→d``, ``ß→ss``, ``æ→ae`` ... — then ``str.casefold``), and cut into
runs of letters and digits (``[^\\W_]+``); everything else separates words, so the straight and
the curly apostrophe, hyphens, colons, dots and ``+`` all split words. Tokens longer than
:data:`MAX_TOKEN_CHARS` are not indexed. So ``Łódź`` finds ``Lodz`` and ``LODZ`` (and the other
way round), ``O'Brien`` finds ``O’Brien``, ``e-mail`` finds ``e mail`` and ``email``.

Scripts written without spaces between words (Han, kana, Thai, Lao, Khmer, Myanmar) and Hangul
(spaced, but 예산 is a word of 예산을 and 예산안은) are cut differently (:data:`GRAM_BLOCKS`,
revision 0007): their characters are folded one for one (:func:`_fold_gram`: NFKC, marks and
Hangul syllables kept), and a run of them gives its pairs of adjacent characters and its last
character alone (:func:`gram_tokens`: 記者会見 → ``記者 者会 会見 見``). A typed word of them is
the phrase of its pairs (:func:`query_tokens`), so it is found anywhere inside a run, and a
one-character word is a prefix query (a pair starting with it, or a run's last character);
followed by another word in a phrase, the run must end there (its last character is part of
the phrase). Other letters next to such a run are a word of their own (``NHK`` in ``NHKの``).
:func:`phrase_units` gives the typed words back from the tokens, for highlighting
(:func:`_gram_matcher`) and locating (:mod:`casefile.store.textfind`). Texts without such
characters get exactly the tokens they got before.

- SQLite: ``search_fts`` is an FTS5 table (rowid = item id) over the folded tokens joined by
  spaces, with FTS5's ``ascii`` tokenizer, which then only splits at the spaces
  (sqlite.org/fts5.html, "Tokenizers": non-ASCII characters are token characters, ASCII ones
  are lower-cased). ``search_fts_docs`` holds each item's title and its indexed text *besides*
  a document's extracted text (notes, author, outlet...; short); snippets take the document text
  from ``documents.text`` (revision 0004: the index kept a full second copy before). A trigger
  deletes an item's ``search_fts`` row with the item (also through a case's cascade).
  ``search_fts_vocab`` (revision 0006) lists every word ever indexed, so that a ``prefix*``
  query is sent to FTS5 as the OR of its words (:func:`prefix_words`, :func:`fts5_query`).
- PostgreSQL: ``search_pg.tsv`` is a ``tsvector`` built here as a literal (lexemes with positions;
  the title's positions carry weight A), so PostgreSQL's own parser and dictionaries, which differ
  from SQLite's and depend on the server locale, never see the text (postgresql.org/docs/15/
  datatype-textsearch.html). Its limits apply: positions above 16383 are stored as 16383 and a
  lexeme keeps at most 256 positions, so in the rare documents longer than ~16,000 words a
  phrase of three words or more far down the text can be missed on PostgreSQL; a run of CJK,
  Hangul, Thai... characters takes about one position a character, so there it is a word of four
  characters or more (three pairs) beyond the first ~16,000 characters of such text.
  ``search_pg.terms`` (revision 0005, :func:`terms_literal`) is a second, positionless vector
  with a GIN index: the words, every pair of adjacent words (``_harbor_police``) and an id-window
  lexeme (``_w97``). Matching is done there (:func:`terms_tsquery`): a two-word phrase is one
  lexeme, so the index answers it alone, and only phrases of three words or more are checked
  against ``tsv``'s positions, row by row. ``tsv`` is otherwise read for ranking only.
  ``search_pg.body`` likewise holds the text besides a document's ``documents.text``.

Ranking and cost
----------------
When a query matches fewer than :data:`RANK_WINDOW` items (in the searched case), hits are
ranked by relevance: FTS5 ``bm25`` / ``ts_rank``, the title weighing TITLE_WEIGHT. When it
matches more, ranking would cost per match (FTS5's bm25 counts all matches of each phrase for its
IDF and reads every matching row's sizes and positions, sqlite.org/fts5.html 5.1.1), so the hits
are the newest matching items (by id, so by import order), the same on both engines whatever the
size of the workspace. On SQLite the matches are counted up to RANK_WINDOW (among the newest ids
first, which guesses the answer), then either the newest ``limit`` are read, or, for fewer, one
FTS5 pass reads every match with its bm25 score and they are sorted in Python: a ranked query
is matched once, not counted by one pass and ranked by another (:func:`_sqlite_ids`; a phrase
costs about as much to match as to rank). On PostgreSQL the matches are counted up to
RANK_WINDOW from the GIN index, and the newest are found in the newest id window, then 8, 64
windows (:func:`search_ids`); the search statements run with ``enable_seqscan`` and
``enable_indexscan`` off for their transaction (docs/15/runtime-config-query.html), because
otherwise the planner walks the primary key newest first and reads each row's vector from TOAST
(8 us a row: 0.9 s for a phrase in 1,246 of 100,000 documents).
The hits' rows (items, the body copy, documents.text) are read for the returned ids only, and
snippets made for them only (about 0.01-0.04 ms of Python per 3 KB hit). The statements
run through the driver (:mod:`casefile.store.reader`).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import pairwise

from sqlalchemy import text
from sqlalchemy.orm import Session

from casefile.store.reader import Reader, Run, session_reader

#: Table names Alembic autogenerate must ignore (FTS5 table, its shadow tables, the snippet text
#: table, and the PostgreSQL search table).
SEARCH_TABLE_PREFIXES = ("search_fts", "search_pg")

#: Longer runs of letters/digits (hashes, base64) are not indexed or searched; runs of CJK,
#: Hangul, Thai... are indexed as pairs of characters whatever their length (:func:`gram_tokens`).
MAX_TOKEN_CHARS = 64
#: At most this many terms (AND groups) and exclusions of a query are used.
MAX_TERMS = 32
#: PostgreSQL tsvector limits (docs/15/datatype-textsearch.html): highest position, positions
#: per lexeme; and a cap on a vector's size, under the 1 MB the type allows.
PG_MAX_POS = 16383
PG_MAX_POSITIONS_PER_LEXEME = 256
PG_MAX_VECTOR_BYTES = 900_000
#: Ranking weights of the title and body columns (FTS5 bm25 column weights; tsvector A/D).
TITLE_WEIGHT = 10.0
#: Snippet markers around each highlighted word in :attr:`SearchHit.snippet`.
MARK_OPEN = "["
MARK_CLOSE = "]"
SNIPPET_CHARS = 240
#: A query matching at least this many items is shown newest first, not ranked by relevance
#: (module docstring, "Ranking and cost"): FTS5's bm25 counts every match of every phrase (for
#: its IDF) and reads each matching row's sizes and positions, so a word in most of 100,000
#: documents took 0.1-0.9 s to rank.
RANK_WINDOW = 2000

_TOKEN = re.compile(r"[^\W_]+")
_ASCII_TOKEN = re.compile(r"[A-Za-z0-9]+")
# Letters that NFKD does not decompose but a reader treats as a base letter plus a mark.
_SPECIAL = {
    "ł": "l", "Ł": "l", "ø": "o", "Ø": "o", "đ": "d", "Đ": "d", "ħ": "h", "Ħ": "h",
    "ı": "i", "ŀ": "l", "Ŀ": "l", "ŧ": "t", "Ŧ": "t", "ð": "d", "Ð": "d", "þ": "th",
    "Þ": "th", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ß": "ss", "ẞ": "ss",
}
_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‟": '"', "«": '"', "»": '"'})


@cache
def _fold_table() -> dict[int, str | None]:
    """Translate table of :func:`fold`: combining marks dropped, special letters mapped."""
    table: dict[int, str | None] = {ord(k): v for k, v in _SPECIAL.items()}
    for cp in range(0x300, 0x20000):
        if unicodedata.category(chr(cp)) == "Mn":
            table[cp] = None
    return table


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


def token_text(*values: str) -> str:
    """The :func:`tokens` of ``values``, in order, joined by single spaces (what the SQLite
    index is given), built piece by piece: a list of every token of a 60 MB text would take
    about 700 MB, this string 60 MB."""
    parts: list[str] = []
    for value in values:
        pieces = _chunks(value, TOKEN_CHUNK_CHARS) if len(value) > TOKEN_CHUNK_CHARS else [value]
        for piece in pieces:
            found = _piece_tokens(piece)
            if found:
                parts.append(" ".join(found))
    return " ".join(parts)


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


# --- scripts written without spaces ----------------------------------------------------------

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


def _mixed_tokens(folded: str) -> list[str]:
    """:func:`tokens` of a folded text holding :func:`gram_class` characters."""
    out: list[str] = []
    for gram, word in _gram_or_word().findall(folded):
        if gram:
            out += gram_tokens(gram)
        elif len(word) <= MAX_TOKEN_CHARS:
            out.append(word)
    return out


@dataclass(frozen=True)
class Unit:
    """One word of a query phrase as it is looked for in a text (:func:`phrase_units`):
    ``text`` folded; ``gram`` when it is a run of :func:`gram_class` characters, found inside
    longer runs; ``closed`` when such a run must end where the text's run ends (it is
    followed by another word of the phrase)."""

    text: str
    gram: bool = False
    closed: bool = True


@lru_cache(maxsize=1024)
def phrase_units(words: tuple[str, ...]) -> tuple[Unit, ...]:
    """The words of a phrase (its index tokens, :func:`parse_query`) back as the words the
    user typed: a chain of overlapping pairs is one run (記者 者会 会見 → 記者会見), closed by
    its last character alone when it has one; other tokens are words. The inverse of
    :func:`query_tokens`."""
    units: list[Unit] = []
    i, n = 0, len(words)
    while i < n:
        w = words[i]
        if not is_gram(w[0]):
            units.append(Unit(w))
            i += 1
            continue
        if len(w) == 1:
            units.append(Unit(w, True, i < n - 1))
            i += 1
            continue
        run, i = w, i + 1
        while i < n and len(words[i]) == 2 and words[i][0] == run[-1] and is_gram(words[i][0]):
            run += words[i][1]
            i += 1
        closed = i < n and words[i] == run[-1]
        units.append(Unit(run, True, closed))
        i += closed
    return tuple(units)


def has_gram(phrase: Phrase) -> bool:
    """True when a word of ``phrase`` is a run of :func:`gram_class` characters."""
    return any(is_gram(w[0]) for w in phrase.words)


def query_tokens(raw: str) -> tuple[tuple[str, ...], bool]:
    """The tokens of one typed term (a word, or a quoted phrase) and whether its last token is
    to be matched as a prefix because it is one :func:`gram_class` character (港: any token
    starting with it, see :func:`gram_tokens`). Words of other scripts are :func:`tokens`; a
    run of :func:`gram_class` characters is its pairs, closed by its last character when
    another word follows it in the term."""
    folded = fold(raw)
    if folded.isascii() or gram_block().search(folded) is None:
        return tuple(tokens(raw)), False
    found = [(g, w) for g, w in _gram_or_word().findall(folded)
             if g or len(w) <= MAX_TOKEN_CHARS]
    out: list[str] = []
    for k, (gram, word) in enumerate(found):
        if gram:
            out += gram_tokens(gram, closed=k < len(found) - 1)
        else:
            out.append(word)
    last_gram = bool(found) and bool(found[-1][0]) and len(found[-1][0]) == 1
    return tuple(out), last_gram


def phrase_text(phrase: Phrase) -> str:
    """A phrase as the user reads it: its words (:func:`phrase_units`) joined by spaces."""
    if not has_gram(phrase):
        return " ".join(phrase.words)
    return " ".join(u.text for u in phrase_units(phrase.words))


# --- queries ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Phrase:
    """Consecutive tokens; ``prefix`` makes the last one match any word starting with it."""

    words: tuple[str, ...]
    prefix: bool = False


@dataclass
class Query:
    """A parsed query: every group must match (AND), a group is alternatives (OR); ``exclude``
    phrases must not match."""

    groups: list[list[Phrase]] = field(default_factory=list)
    exclude: list[Phrase] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        """True when there is nothing to look for (no terms, or only exclusions)."""
        return not self.groups

    def phrases(self) -> list[Phrase]:
        """All positive phrases (for highlighting)."""
        return [p for g in self.groups for p in g]


_CHUNK = re.compile(r'(-?)"([^"]*)"(\*?)|(\S+)')


def _term(raw: str, *, quoted: bool, star: bool) -> list[Phrase]:
    """The alternatives for one typed term (empty when it has no letters or digits)."""
    words, one_gram = query_tokens(raw)
    prefix = (star or (not quoted and raw.endswith("*"))) and bool(words)
    if prefix and len(words[-1]) < 2:
        prefix = False  # "a*" would match a large part of the vocabulary
    if not words:
        return []
    alternatives = [Phrase(words, prefix or one_gram)]
    if not quoted and len(words) > 1 and not one_gram and not is_gram(words[0][0]):
        core = raw.rstrip("*").strip(".,;:!?()[]{}")
        if re.fullmatch(r"[^\W_]+(?:['’ʼ‘\-‐‑][^\W_]+)+", core):
            joined = "".join(words)
            if len(joined) <= MAX_TOKEN_CHARS:
                alternatives.append(Phrase((joined,), prefix))
    return alternatives


def parse_query(query: str) -> Query:
    """Turn what the user typed into a :class:`Query` (never raises; see module docstring)."""
    typed = query.translate(_QUOTES)
    if typed.count('"') % 2:
        last = typed.rfind('"')
        typed = typed[:last] + " " + typed[last + 1:]
    items: list[tuple[bool, list[Phrase]] | str] = []
    for m in _CHUNK.finditer(typed):
        if m.group(4) is not None:
            raw = m.group(4)
            if raw in ("OR", "AND"):
                items.append(raw)
                continue
            negative = raw.startswith("-") and len(raw) > 1
            alts = _term(raw[1:] if negative else raw, quoted=False, star=False)
        else:
            negative = m.group(1) == "-"
            alts = _term(m.group(2), quoted=True, star=m.group(3) == "*")
        if alts:
            items.append((negative, alts))
    parsed = Query()
    pending_or = False
    for i, entry in enumerate(items):
        if isinstance(entry, str):
            prev_ok = i > 0 and not isinstance(items[i - 1], str) and not items[i - 1][0]
            nxt = items[i + 1] if i + 1 < len(items) else None
            next_ok = nxt is not None and not isinstance(nxt, str) and not nxt[0]
            if entry == "OR" and prev_ok and next_ok:
                pending_or = True
            elif not (prev_ok and next_ok):  # a lone AND/OR is a word
                parsed.groups.append([Phrase((entry.lower(),))])
            continue
        negative, alts = entry
        if negative:
            parsed.exclude.extend(alts)
        elif pending_or and parsed.groups:
            parsed.groups[-1].extend(alts)
        else:
            parsed.groups.append(list(alts))
        pending_or = False
    parsed.groups = parsed.groups[:MAX_TERMS]
    parsed.exclude = parsed.exclude[:MAX_TERMS]
    return parsed


def query_terms(query: str) -> list[str]:
    """The positive phrases of ``query`` as space-joined folded words (for display and tests)."""
    return [phrase_text(p) for p in parse_query(query).phrases()]


def fts5_query(parsed: Query, words: Mapping[str, Sequence[str]] | None = None) -> str:
    """The FTS5 MATCH expression for a parsed query (sqlite.org/fts5.html, "Full-text Query
    Syntax"): each phrase a quoted string, ``*`` after it for a prefix, AND/OR/NOT with
    parentheses. Tokens hold only letters and digits, so no quoting problems arise.

    ``words`` (optional) maps the last word of a ``prefix*`` phrase to the indexed words that
    start with it (:func:`prefix_words`); such a phrase is written as an OR of the whole
    phrases (``audit*`` -> ``("audit" OR "auditor")``), which matches the same rows. Why: FTS5
    answers a prefix query without a prefix index by merging the doclists of every matching
    word in full before returning a row (28 ms for ``audit*`` in 98,000 of 100,000 documents,
    whatever the LIMIT), while an OR reads its doclists lazily and stops at the LIMIT (2.4 ms).
    """

    def phrase(p: Phrase) -> str:
        found = words.get(p.words[-1]) if (p.prefix and words) else None
        if found:
            head = " ".join(p.words[:-1])
            return "(" + " OR ".join(
                '"' + (head + " " if head else "") + w + '"' for w in found) + ")"
        return '"' + " ".join(p.words) + '"' + ("*" if p.prefix else "")

    expr = " AND ".join("(" + " OR ".join(phrase(p) for p in g) + ")" for g in parsed.groups)
    for p in parsed.exclude:
        expr = f"({expr}) NOT {phrase(p)}"
    return expr



#: A ``prefix*`` word is written out as its indexed words (:func:`fts5_query`) when it has at
#: most this many; a shorter prefix (``p*``) stays a prefix query.
MAX_PREFIX_WORDS = 32
_VOCAB_SQL = ("SELECT term FROM search_fts_vocab WHERE term >= :p AND term < :hi "
              "ORDER BY term LIMIT :n")


def prefix_words(run: Run, parsed: Query) -> dict[str, list[str]]:
    """SQLite: for the last word of each ``prefix*`` phrase, the indexed words starting with it
    (from ``search_fts_vocab``, every word ever indexed), when there are 1 to MAX_PREFIX_WORDS
    of them; see :func:`fts5_query`. ``run(sql, params)`` returns rows."""
    found: dict[str, list[str]] = {}
    for p in parsed.phrases() + parsed.exclude:
        w = p.words[-1] if p.prefix else ""
        if not w or w in found:
            continue
        rows = run(_VOCAB_SQL, {"p": w, "hi": w + "\U0010ffff", "n": MAX_PREFIX_WORDS + 1})
        if 0 < len(rows) <= MAX_PREFIX_WORDS:
            found[w] = [str(r[0]) for r in rows]
    return found


def tsquery(parsed: Query) -> str:
    """The PostgreSQL ``tsquery`` literal for a parsed query (docs/15/datatype-textsearch.html,
    8.11.2): ``'a' <-> 'b'`` phrases, ``:*`` prefix, ``&``, ``|``, ``!``."""

    def phrase(p: Phrase) -> str:
        parts = [f"'{w}'" for w in p.words]
        if p.prefix:
            parts[-1] += ":*"
        return "(" + " <-> ".join(parts) + ")"

    expr = " & ".join("(" + " | ".join(phrase(p) for p in g) + ")" for g in parsed.groups)
    for p in parsed.exclude:
        expr += f" & !{phrase(p)}"
    return expr


def terms_tsquery(parsed: Query) -> tuple[str, bool]:
    """The PostgreSQL ``tsquery`` over ``search_pg.terms`` (see :func:`terms_literal`) for a
    parsed query, and whether it is exact.

    A one-word phrase is its word, a two-word phrase its :func:`pair_lexeme` ``_a_b`` (``:*`` on the
    last one for a prefix), so these match exactly, from the GIN index alone. A longer phrase
    becomes the AND of its pairs, which every document with the phrase matches but some without it
    do too: the result is then not exact (``False``) and the caller must also check the positional
    ``tsv @@`` :func:`tsquery`. An exclusion of a longer phrase is left to that check. Returns
    ``("", True)`` for an empty query.
    """
    exact = True

    def phrase(p: Phrase) -> str:
        nonlocal exact
        words = p.words
        if len(words) == 1:
            parts = [f"'{words[0]}'"]
        else:
            parts = [f"'{pair_lexeme(a, b)}'" for a, b in pairwise(words)]
            exact = exact and len(words) == 2
        if p.prefix:
            parts[-1] += ":*"
        return "(" + " & ".join(parts) + ")"

    expr = " & ".join("(" + " | ".join(phrase(p) for p in g) + ")" for g in parsed.groups)
    for p in parsed.exclude:
        if len(p.words) <= 2:
            expr += f" & !{phrase(p)}"
        else:
            exact = False
    return expr, exact


# --- index -----------------------------------------------------------------------------------


def _is_sqlite(session: Session) -> bool:
    return session.get_bind().dialect.name == "sqlite"


def forget_deleted_words(session: Session) -> None:
    """Take the words of deleted items out of the SQLite index for good (emptying the Trash).

    FTS5 keeps a deleted row's words in its index segments, marked deleted, until the segments
    are merged, and ``search_fts_vocab`` keeps every word ever indexed: both would still hold a
    deleted source's name in the file. This merges the segments (FTS5 ``optimize``) and drops
    the vocabulary words no item has any more; with ``secure_delete`` (every connection,
    :mod:`casefile.store.workspace`) the freed pages are zeroed. Costs a rewrite of the index
    (a few seconds for a large workspace). PostgreSQL: nothing (its ``VACUUM`` reclaims rows)."""
    if not _is_sqlite(session):
        return
    session.execute(text("INSERT INTO search_fts(search_fts) VALUES ('optimize')"))
    session.execute(text("CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_fts_terms "
                         "USING fts5vocab(main, search_fts, row)"))
    session.execute(text("DELETE FROM search_fts_vocab WHERE term NOT IN "
                         "(SELECT term FROM temp.search_fts_terms)"))


def tsvector_literal(title: str, body: str) -> str:
    """The ``tsvector`` literal of an item: title tokens at positions 1.. with weight A, body
    tokens after a one-position gap (so a phrase never spans title and body, as in FTS5's
    separate columns). Positions are clamped to PG_MAX_POS, at most 256 kept per lexeme, and
    lexemes beyond PG_MAX_VECTOR_BYTES are left out."""
    positions: dict[str, list[str]] = {}
    size = 0
    pos = 0
    for part, weight in ((title, "A"), (body, "")):
        for tok in tokens(part):
            pos = min(pos + 1, PG_MAX_POS)
            seen = positions.get(tok)
            if seen is None:
                size += len(tok.encode()) + 8
                if size > PG_MAX_VECTOR_BYTES:
                    continue
                positions[tok] = [f"{pos}{weight}"]
            elif len(seen) < PG_MAX_POSITIONS_PER_LEXEME and pos < PG_MAX_POS:
                seen.append(f"{pos}{weight}")
                size += 2
        pos = min(pos + 1, PG_MAX_POS)
    return " ".join(f"'{tok}':{','.join(p)}" for tok, p in positions.items())


#: Ids per id-window lexeme in ``search_pg.terms`` (:func:`terms_literal`).
WINDOW_IDS = 1024


def pair_lexeme(first: str, second: str) -> str:
    """The lexeme of two adjacent tokens (``_harbor_police``): it starts with ``_``, which no
    token does, so a word's prefix query (``'th':*``) never runs over the far more numerous
    pairs, and it holds a second ``_``, which a :func:`window_lexeme` does not."""
    return f"_{first}_{second}"


def window_lexeme(item_id: int) -> str:
    """The lexeme naming the id window of ``item_id`` (``_w<item_id // WINDOW_IDS>``): it starts
    with ``_``, which no word or pair lexeme does."""
    return f"_w{item_id // WINDOW_IDS}"


def indexed_text(body: str | None, doc_text: str | None) -> str:
    """An item's indexed body followed by its document text (a newline between), as the
    PostgreSQL vectors and the snippets see it."""
    return body + "\n" + doc_text if body and doc_text else body or doc_text or ""


def terms_literal(item_id: int, title: str, body: str) -> str:
    """The positionless ``tsvector`` literal of ``search_pg.terms`` for an item (PostgreSQL).

    Lexemes: every token of ``title`` and ``body`` (:func:`tokens`), every pair of adjacent
    tokens within the title or within the body (:func:`pair_lexeme`, ``_harbor_police``: tokens
    never hold ``_``), and the item's :func:`window_lexeme`. Why: PostgreSQL checks a phrase
    (``<->``) against the positions of every candidate row, and a newest-first scan reads each
    row's vector from TOAST (about 8 us a row, so up to 0.9 s at 100,000 documents); a pair
    lexeme makes a two-word phrase one GIN entry, and the window lexeme lets the GIN index find
    the newest matches without reading rows (:func:`search_statements`). Words come first and
    pairs stop at PG_MAX_VECTOR_BYTES, so in a document of several MB a pair may be missing
    (the words are still found).
    """
    seen: dict[str, None] = {window_lexeme(item_id): None}
    parts = [tokens(title), tokens(body)]
    for toks in parts:
        seen.update(dict.fromkeys(toks))
    size = sum(len(t) + 8 for t in seen)
    for toks in parts:
        for a, b in pairwise(toks):
            pair = pair_lexeme(a, b)
            if pair not in seen:
                size += len(pair) + 8
                if size > PG_MAX_VECTOR_BYTES:
                    break
                seen[pair] = None
    return " ".join(f"'{lex}'" for lex in seen)


@dataclass(frozen=True)
class IndexRow:
    """What is indexed for one item: ``body`` is its text besides the title (notes, aliases...)
    and ``text``, for a document, its extracted text (``documents.text``), indexed after the body
    but not copied: snippets read it from ``documents``."""

    item_id: int
    case_id: int
    title: str
    body: str = ""
    text: str = ""


def _index_params(row: IndexRow, sqlite: bool) -> dict[str, object]:
    title, body, doc_text = row.title or "", row.body or "", row.text or ""
    params: dict[str, object] = {"i": row.item_id, "c": row.case_id, "t": title, "b": body}
    if sqlite:
        params["ft"] = token_text(title)
        params["fb"] = token_text(body, doc_text)
    else:
        full = indexed_text(body, doc_text)
        params["v"] = tsvector_literal(title, full)
        params["w"] = terms_literal(row.item_id, title, full)
    return params


_SQLITE_INSERT = (
    "INSERT INTO search_fts (rowid, title, body) VALUES (:i, :ft, :fb)",
    "INSERT INTO search_fts_docs (item_id, case_id, title, body) VALUES (:i, :c, :t, :b)",
)
#: Every word ever indexed on SQLite, for :func:`prefix_words` (revision 0006). Words of
#: deleted or edited items stay: a word no row holds any more only adds a term that matches
#: nothing to a query.
_SQLITE_VOCAB = ("INSERT OR IGNORE INTO search_fts_vocab (term) "
                 "SELECT value FROM json_each(:words)")
_PG_UPSERT = (
    "INSERT INTO search_pg (item_id, case_id, title, body, tsv, terms) "
    "VALUES (:i, :c, :t, :b, CAST(:v AS tsvector), CAST(:w AS tsvector)) "
    "ON CONFLICT (item_id) DO UPDATE "
    "SET case_id = EXCLUDED.case_id, title = EXCLUDED.title, body = EXCLUDED.body, "
    "tsv = EXCLUDED.tsv, terms = EXCLUDED.terms"
)


def index_item(
    session: Session, item_id: int, case_id: int, title: str, body: str, *,
    text: str = "", new: bool = False,
) -> None:
    """(Re)index one item: its title, ``body`` and (for a document) ``text`` replace what was
    indexed before (see :class:`IndexRow`). ``new=True`` says the item was never indexed (just
    inserted), which saves the deletes of the old rows.

    Runs in the caller's transaction, so the index changes with the data. The search tables keep
    a copy of ``title`` and ``body`` (short) but not of ``text``.
    """
    index_rows(session, [IndexRow(item_id, case_id, title, body, text)], new=new)


def index_rows(session: Session, rows: Sequence[IndexRow], *, new: bool = False) -> None:
    """Index many items at once (one ``executemany`` per table); same rules as
    :func:`index_item`. Used by imports and to rebuild the index."""
    if not rows:
        return
    sqlite = _is_sqlite(session)
    params = [_index_params(r, sqlite) for r in rows]
    conn = session.connection()
    if sqlite:
        if not new:
            for r in rows:
                unindex_item(session, r.item_id)
        for sql in _SQLITE_INSERT:
            conn.execute(text(sql), params)
        words: set[str] = set()
        for p in params:
            words.update(_words(str(p["ft"])), _words(str(p["fb"])))
        conn.execute(text(_SQLITE_VOCAB), {"words": json.dumps(sorted(words))})
    else:
        conn.execute(text(_PG_UPSERT), params)


def unindex_item(session: Session, item_id: int) -> None:
    """Remove an item from the index (no error if it was not indexed). Deleting the item does
    it too (an SQLite trigger, a PostgreSQL foreign key; revision 0004)."""
    if _is_sqlite(session):
        session.execute(text("DELETE FROM search_fts WHERE rowid = :i"), {"i": item_id})
        session.execute(text("DELETE FROM search_fts_docs WHERE item_id = :i"), {"i": item_id})
    else:
        session.execute(text("DELETE FROM search_pg WHERE item_id = :i"), {"i": item_id})


# --- search ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SearchHit:
    """One result: the item, its snippet (see module docstring for the markers) and, in
    ``highlights``, the ``(start, end)`` spans of matched words in ``text``;
    ``document_text``, a document's whole text (None for other kinds), read with the hit."""

    item_id: int
    case_id: int
    kind: str
    title: str
    text: str = ""
    highlights: tuple[tuple[int, int], ...] = ()
    document_text: str | None = field(default=None, repr=False)

    @property
    def snippet(self) -> str:
        """``text`` with each highlighted span between MARK_OPEN and MARK_CLOSE."""
        return mark(self.text, self.highlights)


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


@dataclass(frozen=True)
class SearchSQL:
    """The statements :func:`search` runs (``:name`` parameters, see :func:`search_statements`).

    - ``newest``: the ids of the newest matches, newest first. SQLite: the newest ``:window``
      (RANK_WINDOW, or ``:limit`` if more), which also tells whether there are RANK_WINDOW
      matches. PostgreSQL: the newest ``:limit`` matching ``:tqw``, the terms query narrowed to
      some id windows (:func:`search_ids`).
    - ``ranked``: the best ``:limit`` matches by ``bm25`` (FTS5, title weighing TITLE_WEIGHT,
      sqlite.org/fts5.html 5.1.1) or ``ts_rank`` (PostgreSQL, docs/15/textsearch-controls.html
      12.3.3); run only when there are fewer than RANK_WINDOW matches.
    - ``rows``: id, case id, kind, title, indexed body copy and document text of the items whose
      ids are formatted into ``{ids}``.
    - PostgreSQL only (None on SQLite): ``count``, the number of matches up to ``:window``;
      ``begin``, one row (the planner settings ``enable_seqscan`` and ``enable_indexscan`` as they
      were, the highest indexed item id), which also turns those two settings off for the
      transaction (read first, in a subquery, then set) so that the GIN index answers every search
      statement (otherwise the planner may choose a scan in id order that reads each row's vector
      from TOAST, up to 0.9 s at 100,000 documents); ``end``, which puts back the values ``begin``
      read (``:seqscan``, ``:indexscan``, ``:jit``). JIT is off meanwhile too: a plan that
      must scan anyway (a team member's search, whose row-level policies keep the GIN index
      out: ``@@`` is not leakproof) costs 10^10 with those settings off, and compiling it took
      about 0.25 s a statement.
    - SQLite only: ``prefixes``, the parsed query when it has ``prefix*`` phrases, whose
      words :func:`search_ids` looks up (:func:`prefix_words`) to write ``:q`` out; ``top``,
      the highest item id; ``sample``, the number of matches above the id ``:cut``, up to
      ``:window``; ``rest``, the number at or below ``:cut``, up to ``:rest``; ``scored``, the
      newest ``:window`` matches with their ``bm25`` score (one pass that both tells whether
      there are RANK_WINDOW matches and ranks them when there are fewer).
    """

    newest: str
    ranked: str
    rows: str
    params: dict[str, object]
    count: str | None = None
    begin: str | None = None
    end: str | None = None
    prefixes: Query | None = None
    top: str | None = None
    sample: str | None = None
    rest: str | None = None
    scored: str | None = None


_PG_ROWS = (
    "SELECT i.id, i.case_id, i.kind, i.title, s.body, doc.text FROM items i "
    "LEFT JOIN search_pg s ON s.item_id = i.id "
    "LEFT JOIN documents doc ON doc.id = i.id WHERE i.id IN ({ids})"
)


def search_statements(dialect: str, parsed: Query, case_id: int | None) -> SearchSQL:
    """The SQL of a search on ``dialect`` ("sqlite" or "postgresql"); see :class:`SearchSQL`.

    A case filter joins ``items`` (SQLite) or uses ``search_pg.case_id`` (PostgreSQL). On
    PostgreSQL the matching is done by ``search_pg.terms`` (:func:`terms_tsquery`, ``:tq``),
    plus the positional ``tsv`` (:func:`tsquery`, ``:q``) for phrases of three words or more.
    """
    params: dict[str, object] = {"window": RANK_WINDOW}
    if case_id is not None:
        params["case_id"] = case_id
    if dialect == "sqlite":
        params["q"] = fts5_query(parsed)
        case_join = ("" if case_id is None else
                     "CROSS JOIN items ci ON ci.id = search_fts.rowid AND ci.case_id = :case_id ")
        matches = f"FROM search_fts {case_join}WHERE search_fts MATCH :q "
        bm25 = f"bm25(search_fts, {TITLE_WEIGHT}, 1.0)"
        newest = "ORDER BY search_fts.rowid DESC LIMIT :window"
        return SearchSQL(
            newest=f"SELECT search_fts.rowid {matches}{newest}",
            ranked=f"SELECT search_fts.rowid {matches}"
                   f"ORDER BY {bm25}, search_fts.rowid LIMIT :limit",
            top="SELECT max(id) FROM items",
            sample=f"SELECT count(*) FROM (SELECT 1 {matches}AND search_fts.rowid > :cut "
                   "LIMIT :window)",
            rest=f"SELECT count(*) FROM (SELECT 1 {matches}AND search_fts.rowid <= :cut "
                 "LIMIT :rest)",
            scored=f"SELECT search_fts.rowid, {bm25} {matches}{newest}",
            rows="SELECT i.id, i.case_id, i.kind, i.title, d.body, doc.text FROM items i "
                 "LEFT JOIN search_fts_docs d ON d.item_id = i.id "
                 "LEFT JOIN documents doc ON doc.id = i.id WHERE i.id IN ({ids})",
            params=params,
            prefixes=parsed if any(p.prefix for p in [*parsed.phrases(), *parsed.exclude])
            else None,
        )
    params["q"] = tsquery(parsed)
    params["tq"], exact = terms_tsquery(parsed)
    rest = ("" if exact else "AND s.tsv @@ CAST(:q AS tsquery) ") + (
        "" if case_id is None else "AND s.case_id = :case_id ")
    matches = f"FROM search_pg s WHERE s.terms @@ CAST(:tq AS tsquery) {rest}"
    return SearchSQL(
        newest=f"SELECT s.item_id FROM search_pg s WHERE s.terms @@ CAST(:tqw AS tsquery) "
               f"{rest}ORDER BY s.item_id DESC LIMIT :limit",
        ranked=f"SELECT s.item_id {matches}"
               "ORDER BY ts_rank(s.tsv, CAST(:q AS tsquery)) DESC, s.item_id LIMIT :limit",
        rows=_PG_ROWS,
        params=params,
        count=f"SELECT count(*) FROM (SELECT 1 {matches}LIMIT :window) m",
        begin="SELECT b.seqscan, b.indexscan, b.top, b.jit, "
              "set_config('enable_seqscan', 'off', true), "
              "set_config('enable_indexscan', 'off', true), set_config('jit', 'off', true) "
              "FROM (SELECT current_setting('enable_seqscan') AS seqscan, "
              "current_setting('enable_indexscan') AS indexscan, "
              "(SELECT max(item_id) FROM search_pg) AS top, "
              "current_setting('jit') AS jit OFFSET 0) b",
        end="SELECT set_config('enable_seqscan', :seqscan, true), "
            "set_config('enable_indexscan', :indexscan, true), set_config('jit', :jit, true)",
    )


#: The newest-first search on PostgreSQL looks in the newest id window, then in 8 times as
#: many, and so on; beyond this many windows, in all.
MAX_WINDOWS = 64


def search_ids(run: Run, stmts: SearchSQL, limit: int) -> list[int]:
    """The ids of the hits, best first, running ``stmts`` with ``run(sql, params)`` (which
    returns the rows): the newest ``limit`` when the query matches RANK_WINDOW items or more,
    else every match ranked by relevance.

    On PostgreSQL the newest are looked for in the newest id window (:data:`WINDOW_IDS` ids,
    a lexeme of ``search_pg.terms``), then in the newest 8, 64... windows until ``limit`` are
    found (the newest ``limit`` of a run of windows ending at the newest are the newest of
    all), so the GIN index returns a few thousand rows, not every match of a common word.
    """
    params = {**stmts.params, "limit": limit, "window": max(RANK_WINDOW, limit)}
    if stmts.count is None or stmts.begin is None or stmts.end is None:
        if stmts.prefixes is not None:
            words = prefix_words(run, stmts.prefixes)
            if words:
                params["q"] = fts5_query(stmts.prefixes, words)
        return _sqlite_ids(run, stmts, params, limit)
    seqscan, indexscan, top, jit = run(stmts.begin, params)[0][:4]
    # No try/finally: after an error the transaction is aborted, and its rollback puts the
    # settings back (set_config(..., true) is transaction-local).
    ids = _pg_ids(run, stmts, params, int(top or 0) // WINDOW_IDS, limit)
    run(stmts.end, {"seqscan": seqscan, "indexscan": indexscan, "jit": jit})
    return ids


#: SQLite: before a search matches everything, it looks at the newest 1/RANK_SAMPLE_SHARE of
#: the ids (at least RANK_SAMPLE_MIN ids) to guess whether the query matches RANK_WINDOW items
#: or more (:func:`_sqlite_ids`).
RANK_SAMPLE_SHARE = 16
RANK_SAMPLE_MIN = 1024


def _sqlite_ids(run: Run, stmts: SearchSQL, params: dict[str, object],
                limit: int) -> list[int]:
    """:func:`search_ids` on SQLite: the matching runs once in the usual cases.

    A query matching fewer than RANK_WINDOW items is ranked by the ``scored`` statement,
    which reads the newest RANK_WINDOW matches with their bm25 score: if it finds fewer, that
    was every match, and they are sorted here as ``ranked`` would sort them (bm25, then id;
    the same float scores). That pass computes bm25 for each match, which a query matching
    many more items than RANK_WINDOW should not pay (bm25 counts all matches of each phrase
    for its IDF), so the matches among the newest ids are counted first (``sample``: the
    newest 1/RANK_SAMPLE_SHARE of the ids), and that count, scaled up, chooses: under
    RANK_WINDOW, the ``scored`` pass; else the matches below the sample are counted too
    (``rest``) up to RANK_WINDOW, and with RANK_WINDOW the hits are the newest ``limit``
    (``newest``, which stops there); only a query whose guess was wrong, with fewer matches
    after all, is ranked by a second pass (``ranked``). A workspace with fewer ids than
    RANK_WINDOW is ranked at once (``ranked``). The answer is the same whichever way.
    """
    assert stmts.top and stmts.sample and stmts.rest and stmts.scored
    top = int(run(stmts.top, {})[0][0] or 0)
    if top < RANK_WINDOW:  # fewer items than RANK_WINDOW: always ranked
        return [int(r[0]) for r in run(stmts.ranked, params)]
    cut = top - max(top // RANK_SAMPLE_SHARE, RANK_SAMPLE_MIN)
    if cut > 0:
        found = int(run(stmts.sample, {**params, "cut": cut, "window": RANK_WINDOW})[0][0])
        # RANK_WINDOW matches or more in the sample, or likely so in all
        if found >= RANK_WINDOW or found * top >= RANK_WINDOW * (top - cut):
            if found < RANK_WINDOW:
                found += int(run(stmts.rest, {**params, "cut": cut,
                                              "rest": RANK_WINDOW - found})[0][0])
            if found >= RANK_WINDOW:
                return [int(r[0]) for r in run(stmts.newest, {**params, "window": limit})]
            return [int(r[0]) for r in run(stmts.ranked, params)]
    scored = run(stmts.scored, params)
    if len(scored) >= RANK_WINDOW:
        return [int(r[0]) for r in scored[:limit]]
    ranked = sorted((float(r[1]), int(r[0])) for r in scored)
    return [i for _score, i in ranked[:limit]]


def _pg_ids(run: Run, stmts: SearchSQL, params: dict[str, object], last: int,
            limit: int) -> list[int]:
    """:func:`search_ids` on PostgreSQL once the planner settings are made; ``last`` is the
    newest id window."""
    assert stmts.count is not None
    if int(run(stmts.count, params)[0][0]) < RANK_WINDOW:
        return [int(r[0]) for r in run(stmts.ranked, params)]
    span = 1
    while True:
        first = last - span + 1
        if first <= 0 or span > MAX_WINDOWS:
            tqw = str(params["tq"])
        else:
            windows = " | ".join(f"'{window_lexeme(k * WINDOW_IDS)}'"
                                 for k in range(last, first - 1, -1))
            tqw = f"({params['tq']}) & ({windows})"
        ids = [int(r[0]) for r in run(stmts.newest, {**params, "tqw": tqw})]
        if len(ids) >= limit or tqw == params["tq"]:
            return ids
        span *= 8


def search(
    source: Session | Reader, query: str, case_id: int | None = None, limit: int = 50, *,
    parsed: Query | None = None,
) -> list[SearchHit]:
    """Items whose title or text match ``query`` (syntax: module docstring), best first.

    ``source`` is a session (the statements then run on its connection, in its transaction,
    through the driver: :func:`~casefile.store.reader.session_reader`) or a
    :class:`~casefile.store.reader.Reader` (``Workspace.reading()``, no session: about
    0.5 ms less a search).

    Order: when the query matches fewer than :data:`RANK_WINDOW` items, by relevance (FTS5
    ``bm25`` on SQLite, ``ts_rank`` on PostgreSQL, the title weighing more; the two engines
    return the same set of items, not always in the same order); when it matches more, newest
    first (module docstring, "Ranking and cost"). Returns an empty list for a query with
    nothing to look for. Deleted items are never returned. ``limit`` caps the number of hits
    (at least 1). Snippets (module docstring) are made for the returned hits only, from the
    item's indexed body followed by its document text. ``parsed``: ``parse_query(query)``,
    when the caller has it already.
    """
    if parsed is None:
        parsed = parse_query(query)
    if parsed.empty:
        return []
    reader = session_reader(source) if isinstance(source, Session) else source
    run = reader.run
    stmts = search_statements(reader.dialect, parsed, case_id)
    ids = search_ids(run, stmts, max(1, int(limit)))
    if not ids:
        return []
    rows = {r[0]: r for r in run(stmts.rows.format(ids=",".join(map(str, ids))), {})}
    phrases = tuple(parsed.phrases())
    matcher, probes = _matcher(phrases), _probes(phrases, query)
    centre = _matcher(phrases, CENTRE_MIN_CHARS)
    hits: list[SearchHit] = []
    for item_id in ids:
        row = rows.get(item_id)
        if row is None:
            continue
        _id, hit_case, kind, title, body, doc_text = row
        full = indexed_text(body, doc_text)
        plain, spans = make_snippet(full, matcher, probes, centre)
        if not spans and not full.isascii() and gram_block().search(full) is not None:
            # a word touching CJK, Hangul, Thai... characters (NHK in NHKの)
            gram = _matcher(phrases, 0, True)
            plain, spans = make_snippet(full, gram, (), _matcher(phrases, CENTRE_MIN_CHARS, True))
        hits.append(SearchHit(item_id, hit_case, kind, title, plain, spans, doc_text))
    return hits
