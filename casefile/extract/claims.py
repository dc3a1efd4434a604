"""Claims: sentences that report what someone says is so, with who said it and via whom.

Shape of each claim: {"text", "start", "end", "attributed_to", "via", "status"}: text is the
sentence (str offsets start/end), attributed_to the person or organisation named as the source,
or a plain description of unnamed sources ("unnamed sources", "unnamed <modifier> sources"
when the text says whose sources they are); via the news outlet it came through; status
"single-source" when attributed, else "unverified".

Unnamed sources win over a named speaker when the sentence itself is attributed to them:
"…, <modifier> sources tell <Outlet>", "sources told <Outlet>", "according to <modifier>
sources", "sources in <Place> said". The modifier is the words right before "sources" (a
place, an agency, "police", "senior administration"), without counts, determiners or
"anonymous"-like words; the outlet is the name right after "tell"/"told".
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Any

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


_ACCORDING_TO = re.compile(r"\b[Aa]ccording[ ]to[ ](?:the[ ])?")


def _according_to(sent: str, start: int,
                  inside: Sequence[tuple[int, int, str, str]]) -> str | None:
    """The name of the entity right after "according to" in ``sent`` (which starts at
    ``start`` in the text), or None."""
    for match in _ACCORDING_TO.finditer(sent):
        at = start + match.end()
        named = next((x for x in inside if x[0] == at), None)
        if named is not None:
            return named[2]
    return None


def _right_before(at: int, inside: Sequence[tuple[int, int, str, str]]) -> str | None:
    """The name of the entity (any kind, news outlets too) that ends right before offset
    ``at`` (one space between), or None."""
    return next((x[2] for x in inside if at - 2 <= x[1] <= at), None)


def find_claims(text: str, sentences: list[tuple[int, int]],
                entities: Sequence[tuple[int, int, str, str]]) -> list[dict[str, Any]]:
    """Claims in attributed sentences.

    ``entities`` are (start, end, name, kind) of the suggested people and organisations, kind
    "person", "organization" or "news outlet". A sentence attributed to unnamed sources (see
    the module docstring) gets ``attributed_to`` "unnamed <modifier> sources" (a plain
    string, never an entity) and ``via`` the outlet named after "tell"/"told" (its entity's
    name when it is one, else the words as written), else the sentence's news outlet. A
    sentence whose only cue is a hedge ("reportedly", "allegedly") names no speaker (the person
    in it is who the report is about); a lead-in sentence (:func:`is_lead_in`) is no claim.
    """
    out: list[dict[str, Any]] = []
    # entity indexes by start, to take a sentence's entities without scanning them all
    order = sorted(range(len(entities)), key=lambda i: entities[i][0])
    starts = [entities[i][0] for i in order]
    for s, e in sentences:
        sent = text[s:e]
        cue = _CUE.search(sent) or _SOURCES_SAY.search(sent)  # "sources say …" too
        if not cue or sent.rstrip().endswith("?") or len(sent) < 25 or is_lead_in(sent):
            continue
        cues = [c.group() for c in _CUE.finditer(sent)]
        hedged = bool(cues) and all(_HEDGE.match(c) for c in cues)
        inside = [entities[i] for i in sorted(order[bisect_left(starts, s):bisect_right(starts, e)])
                  if entities[i][1] <= e]
        via = next((x[2] for x in inside if x[3] == "news outlet"), None)
        speakers = [x for x in inside if x[3] in {"person", "organization"}]
        attributed: str | None = None
        unnamed = _unnamed_attribution(sent)
        if unnamed is not None:
            attributed, outlet = unnamed
            if outlet is not None:
                a, b = s + outlet[0], s + outlet[1]
                named = next((x for x in inside if a <= x[0] < b), None)
                via = named[2] if named is not None else text[a:b].rstrip(".")
        elif (source := _according_to(sent, s, inside)) is not None:
            attributed = source  # "According to CNN, …": the outlet (or person) named there
        elif hedged:  # "X reportedly did Y": not X's words, nor the witnesses'
            pass
        elif (subject := _right_before(s + cue.start(), inside)) is not None:
            attributed = subject  # "CNN describes …", "the mayor said": the name before the verb
        elif speakers:
            cue_at = s + cue.start()
            attributed = min(speakers, key=lambda x: abs(x[0] - cue_at))[2]
        elif _UNNAMED.search(sent):
            attributed = UNNAMED_SOURCES
        out.append({"text": sent, "start": s, "end": e, "attributed_to": attributed, "via": via,
                    "status": "single-source" if attributed or via else "unverified"})
    return out
