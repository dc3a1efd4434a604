"""Finding the names of a watch list in a text, written the ways reporters meet them.

ARCHITECTURE.md, "The watch list". A :class:`Matcher` is compiled once from a list of names
and then reads any number of texts; reading a text costs about the same whatever the list's
length, so a list of a thousand names adds little to an import: the text is cut into words in
C and checked for a word every variant of some name holds (a person's family name, an
organization's longest word); most texts end there. Only the words within :data:`REACH`
characters of such a word are then read one by one, each start of a variant looked up in a
trie of word keys.

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
  A title before a name on the list is dropped from it when two words remain ("Dr. Jane
  Smith"), never a given name that is also a word of a longer title ("Grace Smith"); a name on
  the list written "Last, First" is read as "First Last".
- A family name after a title goes to the people of the list the text names in full
  (anywhere in it), else to each person of the list with that family name.
- A text's words are split at apostrophes, so "Smith's" is "Smith"; every word of a match
  but particles ("de", "van", "of") and titles is capitalized in the text (or its script has
  no case), so "the white house" is not "White House".

A name the list spells in another script ("Владимир Зеленский", from a Russian-language
export) is also found where a Latin text spells it its own way ("Volodymyr Zelenskiy"): its
variants are kept in consonant skeletons too, and a Latin text whose words' skeletons hold a
family name's is read along them (capitalized words only; initials and names of too few
consonants are left out of this reading, as skeletons they would match too much).

Initials alone ("J.S.") and a family name alone ("Smith") are not matched: on a list of a
thousand names they would match most texts.

Pure functions over text: no database, no Qt.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Container, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import accumulate
from typing import TypeVar

#: A word of a text: letters and digits (so apostrophes, hyphens and periods split words).
WORD = re.compile(r"[^\W_]+")
#: A text split into what is between words and the words: ``[gap, word, gap, word, ..., gap]``.
_SPLIT = re.compile(r"([^\W_]+)")

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

#: Titles written shortened, the only ones a period may follow before the family name ("Sen.
#: Smith"; "the inspector. Smith" is two sentences).
ABBREVIATED = frozenset({
    "mr", "mrs", "ms", "mx", "dr", "prof", "sen", "rep", "gov", "gen", "col", "lt", "capt",
    "cpt", "maj", "sgt", "det", "supt", "insp", "rev", "cllr", "adm", "mme", "amb", "fr",
    "hon", "rt", "pvt", "sra", "dott", "hr", "atty", "pres", "cmdr", "cdr", "brig", "msgr"})
#: Words of longer titles ("Her Grace", "Field Marshal", "Rear Admiral", "Managing Director")
#: that are no title alone, some of them given names ("Grace Smith").
TITLE_PARTS = frozenset({
    "grace", "her", "his", "most", "much", "right", "field", "rear", "grand", "royal", "noble",
    "company", "associate", "managing", "honor", "honour", "honored", "honoured", "excellency",
    "majesty", "higness", "worshipful"})

#: Generational and degree suffixes dropped from a person's name ("John Smith Jr.").
SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv", "phd", "md", "esq", "qc", "kc", "mp"})

#: Legal forms written in full and short, either way ("Company" and "Co.").
LEGAL_SHORT = {"company": "co", "corporation": "corp", "incorporated": "inc", "limited": "ltd",
               "co": "company", "corp": "corporation", "inc": "incorporated", "ltd": "limited"}
#: Legal forms dropped from an organization's name for one more variant.
LEGAL_FORMS = frozenset({
    "inc", "corp", "co", "ltd", "llc", "llp", "lp",
    "plc", "gmbh", "ag", "sa", "sas", "sarl", "srl", "spa", "bv", "nv", "oy", "ab", "as",
    "pty", "pte", "ooo", "oao", "zao", "pao", "jsc", "ojsc", "cjsc", "kg", "se"})

_K = TypeVar("_K", str, bytes)
_WILD = "?"  # a trie edge taking any one-letter word (a middle initial)
_SKELETON_MARK = "~"
#: Characters read on each side of a word every variant of a name holds (longer than the
#: longest name a list is expected to hold around that word).
REACH = 120


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

    def longest(self, first: int, step: Callable[[_Node, int, int], _Node | None]
                ) -> tuple[int, set[int]] | None:
        """The longest name along the trie from this node, read from word ``first`` on: its
        last word and its refs, or None. ``step(node, first, j)`` is the node word ``j``
        leads to from ``node``, None where the name cannot go on."""
        node, best, j = self, None, first
        while (after := step(node, first, j)) is not None:
            node = after
            if node.refs:
                best = (j, node.refs)
            j += 1
        return best


class Matcher:
    """A compiled list (module docstring). ``Matcher(names)``; :meth:`find` per text."""

    def __init__(self, names: Iterable[Name]) -> None:
        self._root = _Node()
        self._comma_root = _Node()  # "Last, First" variants: a comma after the family name
        self._surnames: dict[str, set[int]] = {}  # a title then this key: these names
        self._honorifics = honorifics()
        self._lower = set(PARTICLES)  # keys a name of the list writes in lower case
        # variants in Latin keys, kept to add their skeletons the first time a text has a
        # word of another script: (ref, keys, words of the family name in a reversed one)
        self._pending: list[tuple[int, tuple[str, ...], int]] | None = []
        # one word of each variant (its longest): a text without any has no match
        self._anchor_keys: set[str] = set()
        # for each anchor, the words of each variant holding it (a text needs all of one)
        self._needs: dict[bytes, set[frozenset[bytes]]] = {}
        self._needs_str: dict[str, set[frozenset[str]]] = {}
        # names spelled in another script, read in Latin text by their consonant skeletons:
        # a trie of skeleton keys and the skeleton every variant holds (module docstring)
        self._foreign_root = _Node()
        self._foreign_anchors: set[str] = set()
        self.size = 0
        for name in names:
            self.size += 1
            for spelling in name.spellings:
                self._add_spelling(name.ref, spelling, name.kind)
        self._starts = frozenset(self._root.next) | frozenset(self._comma_root.next)
        self._anchors = frozenset(self._anchor_keys) | frozenset(self._surnames)
        self._openers = self._starts | self._honorifics
        self._title_words = self._honorifics - TITLE_PARTS
        self._anchors_ascii = frozenset(k.encode() for k in self._anchors if k.isascii())
        self._titles_str = frozenset(k for k in self._title_words if k.isascii())
        self._titles = frozenset(k.encode() for k in self._titles_str)
        self._titled_keys = frozenset(k.encode() for k in self._surnames)

    # -- building -------------------------------------------------------------------------

    def _insert(self, keys: Sequence[str], ref: int, tail: int = 0) -> None:
        """A variant; ``tail`` > 0: a reversed one whose first ``tail`` words (the family
        name) are followed by a comma in the text."""
        node = self._comma_root if tail else self._root
        for key in keys:
            node = node.next.setdefault(key, _Node())
            tail -= 1
            if tail == 0:
                node.comma_after = True
        node.refs.add(ref)

    def _add_spelling(self, ref: int, spelling: str, kind: str) -> None:
        if not meaningful(spelling):  # "!!!", "X": never matched (a list from before the rule)
            return
        if kind != "organization":
            spelling = unreversed(spelling)
        keys = name_keys(spelling)
        self._lower.update(word_key(w) for w in WORD.findall(spelling) if w[0].islower())
        # a title before a name is dropped ("Dr. Jane Smith", "Rear Admiral Jane Smith"), never
        # a given name that is also a word of a title ("Grace Smith")
        while len(keys) > 2 and (keys[0] in OFFICES or (
                keys[0] in self._honorifics and keys[1] in self._honorifics)):
            keys = keys[1:]
        if not keys:
            return
        if len(keys) == 2 and keys[0] in OFFICES and kind != "organization":
            # "Sen. Smith" on the list: as written, or the family name after any title
            self._insert(keys, ref)
            self._anchor(keys, keys[1])
            if len(keys[1]) > 1:
                self._surnames.setdefault(keys[1], set()).add(ref)
            return
        person = kind == "person" or (kind == "name" and _looks_personal(keys))
        org = kind == "organization" or (kind == "name" and not person)
        variants: dict[tuple[str, ...], int] = {tuple(keys): 0}
        if org:
            bare = keys[1:] if keys[0] == "the" and len(keys) > 1 else keys
            variants[tuple(bare)] = 0
            if len(bare) > 1 and bare[-1] in LEGAL_SHORT:  # "Company" written "Co."
                variants[(*bare[:-1], LEGAL_SHORT[bare[-1]])] = 0
            while len(bare) > 1 and bare[-1] in LEGAL_FORMS:
                bare = bare[:-1]
                variants[tuple(bare)] = 0
        if person:
            while len(keys) > 2 and keys[-1] in SUFFIXES:
                keys = keys[:-1]
                variants[tuple(keys)] = 0
            self._person_variants(ref, keys, variants)
        family = self._family_name(keys) if person else None
        foreign = not all(_latin(w) for w in WORD.findall(spelling))
        for variant, tail in variants.items():
            self._insert(variant, ref, tail)
            self._anchor(variant, family or max(variant, key=len))
            if self._pending is not None and (not tail or len(variant[tail]) > 1):
                self._pending.append((ref, variant, tail))
            if foreign and not tail:
                self._add_foreign(ref, variant, family)

    def _anchor(self, variant: Sequence[str], anchor: str) -> None:
        """``anchor``, a word of ``variant``, is what a text is first checked for."""
        self._anchor_keys.add(anchor)
        words = frozenset(k for k in variant if k != _WILD)
        self._needs_str.setdefault(anchor, set()).add(words)
        self._needs.setdefault(anchor.encode(), set()).add(frozenset(k.encode() for k in words))

    def _add_foreign(self, ref: int, variant: Sequence[str], family: str | None) -> None:
        """A variant of a name spelled in another script, in skeleton keys, for Latin texts
        that spell it their own way ("Зеленский": "Zelensky", "Zelenskiy", "Selenskyj")."""
        # initials and short words are left out: as skeletons they match too much ("N.
        # Modi" would be "New Media")
        if any(len(k) < 2 for k in variant):
            return
        bones = [_skeleton_key(k) for k in variant]
        if not all(bones) or max(len(b) for b in bones) < 4 or sum(len(b) for b in bones) < 6:
            return
        node = self._foreign_root
        for key in bones:
            node = node.next.setdefault(key, _Node())
        node.refs.add(ref)
        anchor = _skeleton_key(family) if family else max(bones, key=len)
        if anchor and anchor != _WILD:
            self._foreign_anchors.add(anchor)

    def _find_foreign(self, text: str, vocabulary: Iterable[str]) -> list[Match]:
        """The names spelled in another script, in ``text`` (whose distinct lower-case words
        are ``vocabulary``) written in Latin letters: capitalized words read by their
        consonant skeletons, along the skeleton trie; the longest variant at each start."""
        if self._foreign_anchors.isdisjoint(_skeleton_key(w) for w in vocabulary
                                            if w.isascii()):
            return []
        words = WORD.findall(text)
        keys = [_skeleton_key(w.lower()) if w.isascii() else "" for w in words]
        found: list[tuple[int, int, int]] = []

        def step(node: _Node, _first: int, j: int) -> _Node | None:
            """Capitalized words, by their skeletons."""
            return node.next.get(keys[j]) if j < len(words) and words[j][0].isupper() else None

        for i in range(len(words)):
            if not keys[i] or not words[i][0].isupper():
                continue
            best = self._foreign_root.longest(i, step)
            if best is not None:
                found.extend((ref, i, best[0]) for ref in best[1])
        return _matches(text, _SPLIT.split(text), found) if found else []

    @staticmethod
    def _family_name(keys: Sequence[str]) -> str | None:
        """The key every variant of a person's name holds (the last word), None for a name
        of one word."""
        return keys[-1] if len(keys) > 1 else None

    def _person_variants(self, ref: int, keys: list[str],
                         variants: dict[tuple[str, ...], int]) -> None:
        if len(keys) < 2:
            return
        first, middles, last = keys[0], keys[1:-1], keys[-1]
        # "van Gogh", "de la Cruz": particles before the family name go with it
        cut = len(middles)
        while cut and len(middles[cut - 1]) > 1 and middles[cut - 1] in PARTICLES:
            cut -= 1
        names, tail = middles[:cut], (*middles[cut:], last)
        initials = tuple(m[0] for m in names)
        for variant in ((first, *tail), (first, _WILD, *tail), (first[0], *tail),
                        (first[0], *initials, *tail), (first[0], *names, *tail)):
            variants[variant] = 0
        if len(tail) == 1 and len(last) > 1:
            self._surnames.setdefault(last, set()).add(ref)
        # "Last, First [Middle]" and "Last, F.": the comma is checked in the text
        for rest in ((first, *names), (first,), (first[0],), (first[0], *initials)):
            variants[(*tail, *rest)] = len(tail)

    def _add_skeletons(self) -> None:
        """The variants in consonant skeletons (for words of other scripts), added once."""
        for ref, variant, tail in self._pending or ():
            bones = [_skeleton_key(k) for k in variant]
            if all(bones) and sum(len(b) for b in bones) >= 5:
                self._insert(bones, ref, tail)
                self._anchor(bones, max(bones, key=len))
        self._pending = None
        self._starts = frozenset(self._root.next) | frozenset(self._comma_root.next)
        self._anchors = frozenset(self._anchor_keys) | frozenset(self._surnames)
        self._openers = self._starts | self._honorifics

    # -- reading --------------------------------------------------------------------------

    def find(self, text: str, words: AbstractSet[str] | None = None) -> list[Match]:
        """Every name of the list in ``text``: for each place a name starts, its longest
        variant there; a match inside a longer match of the same name is dropped. In text
        order. Costs one pass over the text's words; a text in ASCII (the common case) is
        keyed and checked for the list's words in C, and most texts end there. A name the
        list spells in another script is also found written in Latin letters, its way or
        another (by consonant skeletons), when the list holds such names.

        ``words``, when given, are the text's distinct words in lower-case ASCII (its search
        index words): the text is then not cut again to see which of the list's words it
        holds. Extra words only cost time; every word of the text must be there."""
        found = self._find_exact(text, words)
        if not self._foreign_anchors or not text:
            return found
        vocabulary = words if words is not None else set(WORD.findall(text.lower()))
        seen = {(m.ref, m.start, m.end) for m in found}
        extra = [m for m in self._find_foreign(text, vocabulary)
                 if (m.ref, m.start, m.end) not in seen
                 and not any(f.ref == m.ref and f.start <= m.start and m.end <= f.end
                             for f in found)]
        if not extra:
            return found
        return sorted([*found, *extra], key=lambda m: (m.start, -m.end, m.ref))

    def _find_exact(self, text: str, words: AbstractSet[str] | None) -> list[Match]:
        """:meth:`find` without the skeleton reading of names spelled in another script."""
        if not self.size or not text:
            return []
        # first, mostly in C: without a word every variant holds (a family name, an
        # organization's longest word) no name can be there; most texts end here
        if words is not None:
            present = self._anchors & words
            if not present:
                return []
            return self._around(text, self._needed(present, words, self._needs_str,
                                                   self._titles_str, self._surnames))
        plain, odd = _vocabulary(text)
        others = {word_key(w) for w in odd}
        if self._pending is not None and any(k[:1] == _SKELETON_MARK for k in others):
            self._add_skeletons()
        vocabulary = set(plain)
        found = self._anchors_ascii & vocabulary
        if not self._anchors.isdisjoint(others):
            return self._read(text)
        if not found:
            return []
        vocabulary.update(k.encode() for k in others)
        return self._around(text, [a.decode() for a in self._needed(
            found, vocabulary, self._needs, self._titles, self._titled_keys)])

    @staticmethod
    def _needed(present: AbstractSet[_K], vocabulary: AbstractSet[_K],
                needs: Mapping[_K, set[frozenset[_K]]], titles: AbstractSet[_K],
                titled_keys: Container[_K]) -> set[_K]:
        """The ``present`` anchors with every word of one of their variants in the text's
        ``vocabulary``, or a family name with a title somewhere in it ("Sen. Smith")."""
        titled = not titles.isdisjoint(vocabulary)
        return {a for a in present if (titled and a in titled_keys)
                or any(n <= vocabulary for n in needs.get(a, ()))}

    def _around(self, text: str, anchors: Collection[str]) -> list[Match]:
        """:meth:`_read` of the stretches of ``text`` within :data:`REACH` characters of
        the anchors' occurrences (cut between words), merged where they overlap; all of
        ``text`` when an anchor is not written as such (a word folded to it: "Müller" for
        "muller")."""
        if not anchors:
            return []
        spans = sorted(_occurrences(text, list(anchors)))
        if len({text[a:b].lower() for a, b in spans}) < len(anchors):
            return self._read(text)
        out: list[Match] = []
        titled: list[tuple[AbstractSet[int], Match]] = []  # resolved over the whole text
        end = -1
        for a, b in spans:
            if a <= end:
                continue
            start = max(0, a - REACH)
            while start > 0 and text[start - 1].isalnum():
                start -= 1
            end = min(len(text), b + REACH)
            while end < len(text) and text[end].isalnum():
                end += 1
            for later in spans:  # take in the anchors whose stretch overlaps this one
                if end >= later[0] - REACH and later[1] > b:
                    end = min(len(text), max(end, later[1] + REACH))
                    while end < len(text) and text[end].isalnum():
                        end += 1
            pending: list[tuple[AbstractSet[int], Match]] = []
            out += [Match(m.ref, m.start + start, m.end + start, m.variant)
                    for m in self._read(text[start:end], pending)]
            titled += [(refs, Match(m.ref, m.start + start, m.end + start, m.variant))
                       for refs, m in pending]
        if titled:
            out += _resolve_titled(titled, {m.ref for m in out})
            out.sort(key=lambda m: (m.start, -m.end, m.ref))
        return out

    def _read(self, text: str,
              pending: list[tuple[AbstractSet[int], Match]] | None = None) -> list[Match]:
        """The names in ``text``, word by word (:meth:`find`). ``pending``, when given,
        takes the family names after a title (with the names they may be) instead of
        resolving them here: the caller resolves them over the whole text."""
        # a word's key is the word in lower case unless it has a letter outside ASCII
        keys = WORD.findall(text.lower())
        odd = [w for w in set(keys) if not w.isascii()] if not text.isascii() else []
        if odd:
            keyed = {w: word_key(w) for w in odd}
            if self._pending is not None and any(k[:1] == _SKELETON_MARK
                                                 for k in keyed.values()):
                self._add_skeletons()
            keys = [keyed.get(w, w) for w in keys]
        if self._anchors.isdisjoint(keys):
            return []
        words = WORD.findall(text)
        if len(words) != len(keys):  # lower case cut a word differently (rare letters)
            keys = [word_key(w) for w in words]
        openers, honor, lower = self._openers, self._honorifics, self._lower
        at = [i for i, k in enumerate(keys) if k in openers]
        if not at:
            return []
        gaps = _Gaps(text)
        found: list[tuple[int, int, int]] = []  # (ref, first word, last word)
        titled: list[tuple[set[int], int]] = []  # (refs of a family name, the title's word)
        n = len(words)

        def step(node: _Node, first: int, j: int) -> _Node | None:
            """After the first word, only words a name is written with (capitalized, an
            honorific, a particle of the list); a one-letter word may be an initial; a comma
            where the variant has one (reversed order)."""
            if j >= n:
                return None
            word, here = words[j], keys[j]
            if j > first and here not in honor and not _capital_ok(word, here, lower):
                return None
            after = node.next.get(here)
            if after is None and len(word) == 1:
                after = node.next.get(_WILD)
            if after is None or (node.comma_after and "," not in gaps.before(j)):
                return None
            return after

        for i in at:
            key = keys[i]
            capital = _capital_ok(words[i], key, lower)
            for root in (self._root, self._comma_root) if capital else ():
                best = root.longest(i, step)
                if best is not None:
                    found.extend((ref, i, best[0]) for ref in best[1])
            if key in self._title_words and (capital or key in OFFICES) and i + 1 < n:
                refs = self._titled(words, keys, gaps, i)
                if refs:
                    titled.append((refs, i))
        if titled and pending is not None:
            pending += [(refs, m) for refs, i in titled
                        for m in _matches(text, gaps.parts(), [(min(refs), i, i + 1)])]
        elif titled:  # "Sen. Smith": the Smith of the list the text names in full, else each
            named = {ref for ref, _a, _b in found}
            for refs, i in titled:
                found.extend((ref, i, i + 1) for ref in (refs & named or refs))
        return _matches(text, gaps.parts(), found) if found else []

    def _titled(self, words: list[str], keys: list[str], gaps: _Gaps, i: int) -> set[int]:
        """The names whose family name stands right after a title at word ``i`` ("Sen.
        Smith"); none when it is the first name of someone else ("Sen. Smith Jones"), across
        punctuation ("president," Smith) or a sentence's end ("the inspector. Smith")."""
        refs = self._surnames.get(keys[i + 1])
        if not refs or words[i + 1][0].islower():
            return set()
        gap = gaps.before(i + 1)
        if gap.strip(" .") or "\n" in gap or ("." in gap and keys[i] not in ABBREVIATED):
            return set()
        if i + 2 < len(words) and gaps.before(i + 2) == " " and words[i + 2][0].isupper():
            return set()
        return refs


class _Gaps:
    """What stands between a text's words, cut (:data:`_SPLIT`) only when first asked."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._parts: list[str] | None = None

    def parts(self) -> list[str]:
        """``[gap, word, gap, word, ..., gap]``."""
        if self._parts is None:
            self._parts = _SPLIT.split(self._text)
        return self._parts

    def before(self, j: int) -> str:
        """The text between word ``j - 1`` and word ``j``."""
        return self.parts()[2 * j]


def _resolve_titled(titled: Iterable[tuple[AbstractSet[int], Match]],
                    named: AbstractSet[int]) -> list[Match]:
    """Family names after a title (each with the names of the list it may be): the ones the
    text ``named`` in full, else each of them."""
    out = []
    for refs, m in titled:
        out += [Match(ref, m.start, m.end, m.variant) for ref in sorted(refs & named or refs)]
    return out


def _matches(text: str, parts: list[str], found: list[tuple[int, int, int]]) -> list[Match]:
    """Matches from ``(ref, first word, last word)`` (``parts`` as :data:`_SPLIT` cuts the
    text), those inside another of the same ref left out, in text order."""
    starts = list(accumulate(map(len, parts), initial=0))  # word k: starts[2k+1]..starts[2k+2]
    by_ref: dict[int, set[tuple[int, int]]] = {}
    for ref, a, b in found:
        by_ref.setdefault(ref, set()).add((a, b))
    out = []
    for ref, runs in by_ref.items():
        for a, b in runs:
            if len(runs) > 1 and any(c <= a and b <= d and (c, d) != (a, b) for c, d in runs):
                continue
            start, end = starts[2 * a + 1], starts[2 * b + 2]
            out.append(Match(ref, start, end, text[start:end]))
    out.sort(key=lambda m: (m.start, -m.end, m.ref))
    return out


#: Bytes to words: ASCII letters in lower case and digits kept, bytes of other characters
#: (UTF-8) kept, every other byte a space.
_BYTE_WORDS = bytes(c + 32 if 65 <= c <= 90 else c if 97 <= c <= 122 or 48 <= c <= 57
                    or c >= 128 else 32 for c in range(256))


def _occurrences(text: str, words: Sequence[str]) -> list[tuple[int, int]]:
    """Where the ASCII ``words`` (lower case) stand in ``text`` as whole words, in any case:
    ``(start, end)`` pairs."""
    low = text.lower()
    if len(low) != len(text):  # a letter whose lower case is longer: by pattern
        return [m.span() for w in words for m in re.finditer(
            r"(?<![^\W_])" + re.escape(w) + r"(?![^\W_])", text, re.IGNORECASE)]
    out = []
    size = len(low)
    for word in words:
        at = low.find(word)
        while at >= 0:
            end = at + len(word)
            if (at == 0 or not low[at - 1].isalnum()) and (end == size
                                                           or not low[end].isalnum()):
                out.append((at, end))
            at = low.find(word, end)
    return out


def _vocabulary(text: str) -> tuple[list[bytes], list[str]]:
    """The text's words, cut in C: those of ASCII letters and digits in lower case (as
    bytes, repeats kept), and the words holding other characters, as written."""
    if text.isascii():
        return text.encode().translate(_BYTE_WORDS).split(), []
    for mark in _MARKS:  # punctuation outside ASCII written against words
        if mark in text:
            text = text.replace(mark, " ")
    cut = text.encode("utf-8", "replace").translate(_BYTE_WORDS)
    if not _HIGH_BYTE.search(cut):
        return cut.split(), []
    odd = [w for piece in _ODD_PIECE.findall(cut)
           for w in WORD.findall(piece.decode("utf-8", "replace"))]
    return cut.split(), odd


_MARKS = ("\u201c", "\u201d", "\u2018", "\u2019", "\u2014", "\u2013", "\u2026", "\xa0",
          "\u00ab", "\u00bb")
_HIGH_BYTE = re.compile(rb"[\x80-\xff]")
_ODD_PIECE = re.compile(rb"[^ ]*[\x80-\xff][^ ]*")


#: A word of two or more letters: what a name must hold to be watched.
_LETTERS = re.compile(r"[^\W\d_]{2,}")


def meaningful(name: str) -> bool:
    """Whether ``name`` holds a word of two or more letters (not "!!!", ".", "X", "42")."""
    return _LETTERS.search(name) is not None


def same_name_key(name: str) -> str:
    """What two spellings of one name share once diacritics, case, punctuation and spacing
    are set aside ("José Álvarez Núñez" and "jose alvarez nunez")."""
    return " ".join(WORD.findall(_fold_marks(name).casefold()))


def unreversed(name: str) -> str:
    """A name written "Last, First [Middle]" in the usual order ("Kejriwal, Arvind" ->
    "Arvind Kejriwal"); a generational suffix after a second comma stays last ("Smith, John,
    Jr." -> "John Smith Jr."). Any other name as it is."""
    parts = [p.strip() for p in name.split(",")]
    suffix = ""
    if len(parts) == 3 and word_key(parts[2].rstrip(".")) in SUFFIXES:
        suffix = " " + parts.pop()
    if len(parts) != 2 or not all(WORD.search(p) for p in parts):
        return name
    if word_key(parts[1].rstrip(".")) in SUFFIXES:  # "John Smith, Jr."
        return name
    return f"{parts[1]} {parts[0]}{suffix}"


def _capital_ok(word: str, key: str, lower: frozenset[str] | set[str] = PARTICLES) -> bool:
    """A name's word as written: not in lower case (a script without case passes), unless
    it is one of ``lower`` (particles, words the list writes in lower case)."""
    return not word[0].islower() or key in lower


@lru_cache(maxsize=2**16)
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
