"""The query language: what the user typed, parsed into a :class:`Query`, and that query
written for each engine.

Syntax (:func:`parse_query`, which never raises): words must all match (AND), ``"an exact
phrase"`` must match word for word, ``prefix*`` matches any word starting with ``prefix`` (two
characters at least), ``-word`` or ``-"a phrase"`` must not match, ``a OR b`` matches either (a
lone ``OR`` or ``AND`` is a word). Words are folded and cut as the index is
(:mod:`casefile.store.search.folding`), so a hyphenated or apostrophised word (``e-mail``,
``O'Brien``) is its words side by side, or those words joined (``email``). A word of CJK,
Hangul, Thai... characters is the phrase of its pairs of characters
(:mod:`casefile.store.search.grams`). At most :data:`MAX_TERMS` terms and exclusions are used.

The parsed query is written for FTS5 (:func:`fts5_query`, with :func:`prefix_words` from the
vocabulary) and for PostgreSQL (:func:`terms_tsquery` over ``search_pg.terms``, :func:`tsquery`
over the positional ``tsv``; tables: :mod:`casefile.store.search.index`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise

from casefile.store.reader import Run
from casefile.store.search.folding import MAX_TOKEN_CHARS, fold, tokens
from casefile.store.search.grams import _gram_or_word, gram_block, gram_tokens, is_gram
from casefile.store.search.index import pair_lexeme

#: At most this many terms (AND groups) and exclusions of a query are used.
MAX_TERMS = 32
_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‟": '"', "«": '"', "»": '"'})


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
