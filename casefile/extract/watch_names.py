"""Finding the names of a watch list in a text, written the ways reporters meet them.

ARCHITECTURE.md, "The watch list". A :class:`Matcher` is compiled once from a list of names
and then reads any number of texts; reading a text costs about the same whatever the list's
length (one pass over the text's words, one dictionary lookup per word that can start a
name), so a list of a thousand names adds little to an import.

How a name is found:

- Every word of the list and of the text becomes a *key*: Latin script folded to lower-case
  ASCII (so a name typed "Muller" finds "Müller" and the other way round); a word in another
  script (Cyrillic, Greek, Arabic, Hebrew...) transliterated to ASCII with rigour (when the
  ``ftm`` extra is installed; else only its diacritics are dropped), then reduced to a
  consonant skeleton that both spellings share ("Трамп" and "Trump"), marked so it never
  meets a Latin word's key.
- Each name gives its *variants*, sequences of keys: the name; for a person, without the
  middle names, "Last, First [Middle]" (a comma must follow the family name), initials
  ("J. Smith", "J. R. Smith", "Smith, J."), a middle initial the list does not have
  ("Donald J. Trump"), and a title before the family name ("Sen. Smith", "President
  Smith"); for an organization, without "The" and without its legal form ("Inc.", "Ltd").
  Titles and honorifics before a name on the list are dropped from it.
- A text's words are split at apostrophes, so "Smith's" is "Smith"; every word of a match
  but particles ("de", "van", "of") and titles is capitalized in the text (or its script has
  no case), so "the white house" is not "White House".

Initials alone ("J.S.") and a family name alone ("Smith") are not matched: on a list of a
thousand names they would match most texts.

Pure functions over text: no database, no Qt.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

#: A word of a text: letters and digits (so apostrophes, hyphens and periods split words).
WORD = re.compile(r"[^\W_]+")

#: Words inside names that are written in lower case ("Ludwig van Beethoven", "Bank of
#: America").
PARTICLES = frozenset({
    "de", "da", "das", "do", "dos", "del", "della", "di", "du", "la", "le", "van", "von", "der",
    "den", "ter", "ten", "bin", "bint", "ibn", "al", "el", "y", "e", "of", "the", "and", "for",
    "on", "in", "at", "st", "a", "an", "und", "et"})

#: Titles written before a person's family name ("Sen. Smith") that may be in lower case
#: ("former president Smith"); rigour's list of honorifics adds the formal ones.
OFFICES = frozenset({
    "mr", "mrs", "ms", "miss", "mx", "dr", "prof", "professor", "sir", "dame", "lord", "lady",
    "sen", "senator", "rep", "representative", "gov", "governor", "president", "mayor",
    "judge", "justice", "gen", "general", "col", "colonel", "lt", "lieutenant", "capt",
    "captain", "cpt", "maj", "major", "sgt", "sergeant", "officer", "detective", "det",
    "deputy", "sheriff", "chief", "commissioner", "superintendent", "supt", "inspector",
    "insp", "rev", "reverend", "father", "rabbi", "imam", "sheikh", "minister", "secretary",
    "chancellor", "premier", "ambassador", "congressman", "congresswoman", "councilman",
    "councilwoman", "councillor", "cllr", "assemblyman", "assemblywoman", "attorney",
    "prosecutor", "king", "queen", "prince", "princess", "bishop", "pope", "coach",
    "chairman", "chairwoman", "speaker", "director", "trooper", "agent", "adm", "admiral",
    "herr", "frau", "mme", "monsieur", "madame"})

#: Generational and degree suffixes dropped from a person's name ("John Smith Jr.").
SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv", "phd", "md", "esq", "qc", "kc", "mp"})

#: Legal forms dropped from an organization's name for one more variant.
LEGAL_FORMS = frozenset({
    "inc", "corp", "co", "ltd", "llc", "llp", "lp",
    "plc", "gmbh", "ag", "sa", "sas", "sarl", "srl", "spa", "bv", "nv", "oy", "ab", "as",
    "pty", "pte", "ooo", "oao", "zao", "pao", "jsc", "ojsc", "cjsc", "kg", "se"})

_WILD = "?"  # a trie edge taking any one-letter word (a middle initial)
_SKELETON_MARK = "~"


def _fold_marks(text: str) -> str:
    """Diacritics dropped (NFKD, combining marks removed): the fallback transliteration."""
    return "".join(c for c in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(c))


@lru_cache(maxsize=1)
def _transliterator() -> Callable[[str], str]:
    """rigour's transliteration to ASCII (Latin diacritics, Cyrillic, Greek, Arabic... with
    ICU); without it (the ``ftm`` extra not installed) only diacritics are dropped."""
    try:
        from rigour.text.translit import ascii_text
    except ImportError:  # pragma: no cover - the extra is installed where tests run
        return _fold_marks
    return ascii_text


@lru_cache(maxsize=1)
def honorifics() -> frozenset[str]:
    """Keys of the titles written before a name: :data:`OFFICES` and rigour's person
    prefixes (each word of them), when rigour is installed."""
    words = set(OFFICES)
    try:
        from rigour._core import person_name_prefixes_list
    except ImportError:  # pragma: no cover
        return frozenset(words)
    for prefix in person_name_prefixes_list():
        for w in WORD.findall(prefix.lower()):
            if len(w) > 1 and w not in ("the", "of", "ex", "count", "private", "chair"):
                words.add(_fold_marks(w))
    return frozenset(words)


def _latin(word: str) -> bool:
    return word.isascii() or all(ord(c) < 0x250 or unicodedata.combining(c) for c in word)


_SKELETON_STEPS = (("sch", "s"), ("sh", "s"), ("zh", "j"), ("dzh", "j"), ("ph", "f"),
                   ("th", "t"), ("kh", "h"), ("tsh", "k"), ("tch", "k"), ("ts", "k"),
                   ("tz", "k"), ("cz", "k"), ("ch", "k"), ("ck", "k"), ("c", "k"),
                   ("q", "k"), ("x", "ks"), ("w", ""))
_VOWELS = re.compile(r"[aeiouyjh]")
_DOUBLES = re.compile(r"(.)\1+")


def skeleton(ascii_word: str) -> str:
    """The consonant skeleton of an ASCII word: what a Latin spelling and a transliteration
    back from another script share ("mitchell" and "mittshell" -> "mkl"; "mohammed" and
    "mhmd" -> "md"). Digraphs to one letter, vowels (and h, j, w, y) dropped, doubled
    letters once."""
    s = ascii_word.lower()
    for old, new in _SKELETON_STEPS:
        s = s.replace(old, new)
    return _DOUBLES.sub(r"\1", _VOWELS.sub("", s))


@lru_cache(maxsize=2**16)
def word_key(word: str) -> str:
    """The key of one word (module docstring): a Latin word lower-case ASCII; another
    script's word ``~`` and its consonant skeleton; '' when nothing is left."""
    if _latin(word):
        folded = word.lower() if word.isascii() else _transliterator()(word).lower()
        return "".join(c for c in folded if c.isalnum())
    ascii_word = "".join(c for c in _transliterator()(word).lower() if c.isalnum())
    if not ascii_word.isascii() or not ascii_word:
        return ""
    bones = skeleton(ascii_word)
    return _SKELETON_MARK + bones if bones else ""


def name_keys(name: str) -> list[str]:
    """The keys of a name's words, in order, as a text's words would give them (a name in
    another script is transliterated and its words keyed as Latin ones)."""
    out = []
    for w in WORD.findall(name):
        key = word_key(w)
        if key.startswith(_SKELETON_MARK):
            key = "".join(c for c in _transliterator()(w).lower() if c.isalnum())
        if key:
            out.append(key)
    return out


@dataclass(frozen=True)
class Name:
    """One name of a list: ``ref`` is what a match reports (e.g. its row id), ``spellings``
    the name and its aliases, ``kind`` ``"person"``, ``"organization"`` or ``"name"``
    (neither known: a person's variants are made when it looks like one)."""

    ref: int
    spellings: tuple[str, ...]
    kind: str = "name"


@dataclass(frozen=True)
class Match:
    """A name found: ``ref`` of the :class:`Name`, ``text[start:end]`` the words as written
    (``variant``)."""

    ref: int
    start: int
    end: int
    variant: str


@dataclass
class _Node:
    next: dict[str, _Node] = field(default_factory=dict)
    refs: set[int] = field(default_factory=set)
    comma_after: bool = False  # the edge into the next word needs a comma (reversed order)


class Matcher:
    """A compiled list (module docstring). ``Matcher(names)``; :meth:`find` per text."""

    def __init__(self, names: Iterable[Name]) -> None:
        self._root = _Node()
        self._comma_root = _Node()  # "Last, First" variants: a comma after the first word
        self._surnames: dict[str, set[int]] = {}  # a title then this key: these names
        self._honorifics = honorifics()
        self._lower = set(PARTICLES)  # keys a name of the list writes in lower case
        self.size = 0
        for name in names:
            self.size += 1
            for spelling in name.spellings:
                self._add_spelling(name.ref, spelling, name.kind)
        self._starts = frozenset(self._root.next) | frozenset(self._comma_root.next)

    # -- building -------------------------------------------------------------------------

    def _insert(self, keys: Sequence[str], ref: int, root: _Node | None = None) -> None:
        if not keys or all(k == _WILD for k in keys):
            return
        node = root or self._root
        for key in keys:
            node = node.next.setdefault(key, _Node())
        node.refs.add(ref)

    def _add_spelling(self, ref: int, spelling: str, kind: str) -> None:
        keys = name_keys(spelling)
        self._lower.update(word_key(w) for w in WORD.findall(spelling) if w[0].islower())
        while keys and keys[0] in self._honorifics and len(keys) > 1:
            keys = keys[1:]
        if not keys:
            return
        person = kind == "person" or (kind == "name" and _looks_personal(keys))
        org = kind == "organization" or (kind == "name" and not person)
        variants = [keys]
        if org:
            bare = keys[1:] if keys[0] == "the" and len(keys) > 1 else keys
            variants.append(bare)
            while len(bare) > 1 and bare[-1] in LEGAL_FORMS:
                bare = bare[:-1]
                variants.append(bare)
        if person:
            while len(keys) > 2 and keys[-1] in SUFFIXES:
                keys = keys[:-1]
                variants.append(keys)
            self._person_variants(ref, keys, variants)
        for variant in variants:
            self._insert(variant, ref)
            bones = [_skeleton_key(k) for k in variant]
            if all(bones) and sum(len(b) for b in bones) >= 5:
                self._insert(bones, ref)

    def _person_variants(self, ref: int, keys: list[str], variants: list[list[str]]) -> None:
        if len(keys) < 2:
            return
        first, middles, last = keys[0], keys[1:-1], keys[-1]
        # "van Gogh", "de la Cruz": particles before the family name go with it
        cut = len(middles)
        while cut and len(middles[cut - 1]) > 1 and middles[cut - 1] in PARTICLES:
            cut -= 1
        names, tail = middles[:cut], [*middles[cut:], last]
        variants.append([first, *tail])
        variants.append([first, _WILD, *tail])
        variants.append([first[0], *tail])
        variants.append([first[0], *(m[0] for m in names), *tail])
        variants.append([first[0], *names, *tail])
        if len(tail) == 1 and len(last) > 1:
            self._surnames.setdefault(last, set()).add(ref)
        # "Last, First [Middle]" and "Last, F.": the comma is checked in the text
        for rest in ([first, *names], [first], [first[0]], [first[0], *(m[0] for m in names)]):
            self._insert_reversed(tail, rest, ref)
            bones = [_skeleton_key(k) for k in (*tail, *rest)]
            if len(rest[0]) > 1 and all(bones):
                self._insert_reversed(bones[:len(tail)], bones[len(tail):], ref)

    def _insert_reversed(self, tail: Sequence[str], rest: Sequence[str], ref: int) -> None:
        """``tail`` (the family name), a comma, then ``rest``: in the comma trie."""
        self._insert([*tail, *rest], ref, self._comma_root)
        node = self._comma_root
        for key in tail:
            node = node.next[key]
        node.comma_after = True

    # -- reading --------------------------------------------------------------------------

    def find(self, text: str) -> list[Match]:
        """Every name of the list in ``text``: for each place a name starts, its longest
        variant there; a match inside a longer match of the same name is dropped. In text
        order. Costs one pass over the text's words."""
        if not self.size or not text:
            return []
        words = WORD.findall(text)
        keys = [word_key(w) for w in words]
        starts = self._starts
        honor = self._honorifics
        lower = self._lower
        at = [i for i, k in enumerate(keys) if k in starts or k in honor]
        if not at:
            return []
        spans: list[tuple[int, int]] | None = None
        found: list[tuple[int, int, int]] = []  # (ref, first word, last word)
        n = len(words)
        for i in at:
            capital = _capital_ok(words[i], keys[i], lower)
            for root in (self._root, self._comma_root) if capital else ():
                node: _Node | None = root
                best: tuple[int, set[int]] | None = None
                j = i
                while node is not None and j < n:
                    key = keys[j]
                    if j > i and key not in honor and not _capital_ok(words[j], key, lower):
                        break
                    step = node.next.get(key)
                    if step is None and len(words[j]) == 1:
                        step = node.next.get(_WILD)
                    if step is None:
                        break
                    if node.comma_after:
                        if spans is None:
                            spans = [m.span() for m in WORD.finditer(text)]
                        if "," not in text[spans[j - 1][1]:spans[j][0]]:
                            break
                    node = step
                    if node.refs:
                        best = (j, node.refs)
                    j += 1
                if best is not None:
                    found.extend((ref, i, best[0]) for ref in best[1])
            if (keys[i] in honor and (capital or keys[i] in OFFICES) and i + 1 < n
                    and keys[i + 1] in self._surnames and not words[i + 1][0].islower()):
                # "Sen. Smith", not "Sen. Smith Jones" (a first name) nor "president," Smith
                if spans is None:
                    spans = [m.span() for m in WORD.finditer(text)]
                gap = text[spans[i][1]:spans[i + 1][0]]
                then = words[i + 2] if i + 2 < n else ""
                if (gap.strip(" .") == "" and "\n" not in gap
                        and not (then and then[0].isupper()
                                 and text[spans[i + 1][1]:spans[i + 2][0]] == " ")):
                    found.extend((ref, i, i + 1) for ref in self._surnames[keys[i + 1]])
        if not found:
            return []
        if spans is None:
            spans = [m.span() for m in WORD.finditer(text)]
        return _matches(text, spans, found)


def _matches(text: str, spans: list[tuple[int, int]],
             found: list[tuple[int, int, int]]) -> list[Match]:
    """Matches from ``(ref, first word, last word)``, those inside another of the same ref
    left out, in text order."""
    by_ref: dict[int, list[tuple[int, int]]] = {}
    for ref, a, b in found:
        by_ref.setdefault(ref, []).append((a, b))
    out = []
    for ref, runs in by_ref.items():
        for a, b in set(runs):
            if any(c <= a and b <= d and (c, d) != (a, b) for c, d in runs):
                continue
            start, end = spans[a][0], spans[b][1]
            out.append(Match(ref, start, end, text[start:end]))
    out.sort(key=lambda m: (m.start, -m.end, m.ref))
    return out


def _capital_ok(word: str, key: str, lower: frozenset[str] | set[str] = PARTICLES) -> bool:
    """A name's word as written: not in lower case (a script without case passes), unless
    it is one of ``lower`` (particles, words the list writes in lower case)."""
    return not word[0].islower() or key in lower


def _skeleton_key(key: str) -> str:
    if key == _WILD:
        return _WILD
    bones = skeleton(key)
    return _SKELETON_MARK + bones if bones else ""


def _looks_personal(keys: Sequence[str]) -> bool:
    """A name of unknown kind is taken as a person's when it has two to four words and none
    is a legal form or an organization's word."""
    return 2 <= len(keys) <= 4 and not any(k in LEGAL_FORMS or k in _ORG_WORDS for k in keys)


_ORG_WORDS = frozenset({
    "bank", "ministry", "department", "agency", "office", "university", "college", "school",
    "council", "committee", "commission", "association", "party", "police", "group",
    "foundation", "institute", "court", "news", "times", "post", "press", "club", "church",
    "union", "federation", "authority", "board", "bureau", "service", "services", "house",
    "fund", "trust", "society", "center", "centre", "hospital", "county", "city", "state",
    "national", "international", "holdings", "partners", "capital", "industries", "media"})
