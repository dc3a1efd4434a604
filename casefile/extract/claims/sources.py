"""Unnamed sources and the words that make a sentence a claim.

A sentence attributed to unnamed sources ("<modifier> sources told <outlet>", "according to
<modifier> sources") is theirs whatever else it names; the modifier is the words right before
"sources" (a place, an agency, "police"), without counts, determiners or "anonymous"-like words;
the outlet is the name right after "tell"/"told". Hedges and lead-in sentences are read here too.
"""

from __future__ import annotations

import re

_CUE = re.compile(
    r"\b(?:according[ ]to|said|says|told|tells|tell|reported(?:ly)?|alleged(?:ly)?|claimed|"
    r"claims|stated|testified|confirmed|wrote|describes|described)\b", re.I)
_UNNAMED = re.compile(r"\b(?:sources|a[ ]source|officials|people[ ]familiar|witnesses)\b", re.I)

#: The attribution of a claim to sources the text does not name or describe.
UNNAMED_SOURCES = "unnamed sources"

_WORD = r"[A-Za-z][\w'.&-]*"
_NAME_RUN = r"[A-Z][\w'.&-]*(?:[ ](?:of[ ]|the[ ]|&[ ])?[A-Z][\w'.&-]*)*"
_SOURCE = r"\b(?P<src>[Ss]ources?)"
_WHERE = rf"(?:[ ](?:in|from|at|within|inside)[ ](?:the[ ])?(?P<where>{_NAME_RUN}))?"
_ABOUT = r"(?:[ ](?:close[ ]to|familiar[ ]with|with[ ]knowledge[ ]of)(?:[ ][\w'-]+){1,5}?)?"
_TOLD = r"tell|tells|told|telling"
_SAID = (r"say|says|said|confirm|confirms|confirmed|describe|describes|described|report|"
         r"reported|indicate|indicated|add|added|claim|claimed|insist|insisted|allege|alleged")
# "<modifier> sources tell CNN", "sources told the Herald", "sources said", "sources in X say"
_SOURCES_SAY = re.compile(
    rf"{_SOURCE}{_WHERE}{_ABOUT},?[ ](?P<verb>{_TOLD}|{_SAID})\b"
    rf"(?:[ ](?:to[ ])?(?:the[ ])?(?P<outlet>{_NAME_RUN}))?")
# "according to <modifier> sources" ("X said, citing sources" stays X's: X is named)
_ACCORDING = re.compile(rf"\b[Aa]ccording[ ]to[ ](?:{_WORD}[ ]){{0,5}}?{_SOURCE}{_WHERE}")

#: Words before "sources" that are not part of whose sources they are.
_NOT_MODIFIER_WORDS = """
a an the some several many multiple numerous various two three four five six seven eight nine
ten dozen dozens other another these those its his her their our my your both all few no
anonymous unnamed unidentified confidential unspecified such more most
and or but nor of to from by with in on at for as that which who whose than
according citing quoting say says said tell tells told cite cites quote quotes
is are was were be been has have had do does did will would could should may might
"""
_NOT_MODIFIER = frozenset(_NOT_MODIFIER_WORDS.split())


def _modifier(sent: str, end: int) -> str:
    """The words right before ``sent[end:]`` (the word "sources") that say whose sources they
    are: at most four words, back to punctuation, a word of _NOT_MODIFIER or a lowercase verb
    or adverb form ("-ing", "-ed", "-ly")."""
    words: list[str] = []
    while len(words) < 4:
        m = re.search(rf"(?<![\w'.&-])({_WORD})[ ]$", sent[:end])
        if m is None:
            break
        w = m.group(1)
        if w.lower() in _NOT_MODIFIER or (w[:1].islower() and re.search(r"(?:ing|ed|ly)$", w)):
            break
        words.insert(0, w)
        end = m.start(1)
    return " ".join(words)


def _described(modifier: str, source_word: str) -> str:
    """ "unnamed <modifier> sources" (or "unnamed sources"; "source" when one is meant)."""
    return " ".join(x for x in ("unnamed", modifier, source_word.lower()) if x)


def _unnamed_attribution(sent: str) -> tuple[str, tuple[int, int] | None] | None:
    """``(attributed_to, (start, end) of the outlet in sent or None)`` when the sentence is
    attributed to unnamed sources, else None."""
    found: tuple[str, tuple[int, int] | None] | None = None
    for m in _SOURCES_SAY.finditer(sent):
        who = " ".join(x for x in (_modifier(sent, m.start("src")), m.group("where")) if x)
        told = m.group("verb") in _TOLD.split("|") and m.group("outlet") is not None
        found = (_described(who, m.group("src")), m.span("outlet") if told else None)
        if told:
            return found
    if found is not None:
        return found
    according = _ACCORDING.search(sent)
    if according is not None:
        who = " ".join(x for x in (_modifier(sent, according.start("src")),
                                   according.group("where")) if x)
        return _described(who, according.group("src")), None
    return None


#: Hedges: "X reportedly confronted Y" reports what X did, not what X said.
_HEDGE = re.compile(r"^(?:reportedly|allegedly)$", re.I)
#: At most this many words in a sentence that only introduces what follows.
LEAD_IN_WORDS = 12


def is_lead_in(sentence: str) -> bool:
    """True for a short sentence that only introduces the passage after it and says nothing
    itself ("As the columnist wrote earlier today:", "The statement said:"): it ends with a
    colon and has at most :data:`LEAD_IN_WORDS` words. Neither a claim nor an event."""
    stripped = sentence.rstrip()
    return stripped.endswith(":") and len(stripped.split()) <= LEAD_IN_WORDS
