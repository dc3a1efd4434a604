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

from casefile.extract import lexicon as lx

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




# --- who said it -------------------------------------------------------------------------
# See ARCHITECTURE.md ("Claims and their speakers"). A sentence's speaker is, in order: unnamed
# sources it is attributed to; the subject of a speech verb outside quotation marks (a name, a
# pronoun or a description resolved from the text before it, or an unnamed group); the source
# after "according to"; for a sentence inside a quotation with no attribution of its own, the
# attribution of the sentence that closes the quotation or of the lead-in that opens it.

_SPEECH = (r"said|says|say|saying|adding|arguing|warning|noting|telling|accusing|claiming|"
           r"insisting|explaining|urging|told|tells|tell|telling|added|adds|explained|explains|"
           r"noted|notes|argued|argues|warned|warns|urged|urges|insisted|insists|"
           r"acknowledged|acknowledges|asserted|asserts|announced|announces|stressed|stresses|"
           r"reiterated|reiterates|estimated|estimates|projected|projects|recounted|tweeted|"
           r"tweets|wrote|writes|reported|reports|confirmed|confirms|claimed|claims|alleged|"
           r"alleges|allege|testified|stated|states|denied|denies|deny|predicted|predicts|"
           r"cautioned|complained|conceded|concluded|recalled|pledged|promised|vowed|"
           r"contended|contends|countered|replied|responded|maintained|maintains|described|"
           r"describes|accused|accuses|criticized|criticised|welcomed|touted|cheered|"
           r"blasted|assured|recommends|recommended|suggested|suggests|believes|believe|"
           r"fear|fears|worry|worries|agree|agrees|found|showed|shows|called|calls|cited|cites|"
           r"argue|warn|note|insist|contend|maintain|estimate|acknowledge|admit|admits|admitted|"
           r"concede|concedes|claim|pointed[ ]out|points[ ]out|point[ ]out")
#: Verbs that attribute only with "that" after them ("found that"): alone they report events.
_NEEDS_THAT_WORDS = """found showed shows believe believes fear fears worry worries agree agrees
suggested suggests called calls cited cites predicted predicts concluded"""
_NEEDS_THAT = frozenset(_NEEDS_THAT_WORDS.split())
_SPEECH_RE = re.compile(rf"\b(?:{_SPEECH})\b")
#: Words between a subject and its verb ("he later said", "the agency has long argued").
_BETWEEN_ONE = re.compile(
    r"[ ,]+(?:also|later|previously|again|then|has|have|had|would|will|could|did|does|do|"
    r"twice|however|"
    r"since|now|already|just|never|always|"
    r"once|repeatedly|recently|publicly|privately|often|still|long|further|earlier|first|"
    r"initially|separately|[a-z]+ly|on[ ](?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|"
    r"Sunday)|(?:on|this|last)[ ](?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|"
    r"week|month|year|morning|night|evening|afternoon)|in[ ]a[ ]statement|at[ ]the[ ]time)$")


def _without_between(pre: str) -> str:
    """``pre`` without the words between a subject and its verb at its end (see
    :data:`_BETWEEN_ONE`; a comma after them too: "<group>, however,"), one unit at a time
    from a short tail (an end-anchored pattern over the whole text would take quadratic
    time)."""
    cut = pre[:-1] if pre.endswith(",") else pre
    found = False
    while True:
        unit = _BETWEEN_ONE.search(cut, max(0, len(cut) - 40))
        if unit is None:
            return cut if found else pre
        cut, found = cut[:unit.start()], True
_PRONOUN = re.compile(r"(?:^|[\s,\"(])(?P<p>[Hh]e|[Ss]he|[Ii]t|[Tt]hey)$")
#: Singular nouns that describe a named person of the text ("the governor said").
_PERSON_NOUNS_WORDS = """
governor senator president spokesman spokeswoman spokesperson lawyer attorney professor
official chief director minister secretary mayor judge prosecutor economist analyst researcher
scientist doctor physician ceo executive chairman chairwoman founder administrator commissioner
representative congressman congresswoman leader officer sheriff author writer reporter editor
manager premier ambassador envoy diplomat coach star singer actor actress king queen prince
princess candidate lawmaker legislator adviser advisor aide expert superintendent detective
captain lieutenant sergeant deputy investigator owner head man woman boss counsel
"""
_PERSON_NOUNS = frozenset(_PERSON_NOUNS_WORDS.split())
#: Singular nouns that describe a named organisation of the text ("the company said").
_ORG_NOUNS_WORDS = """
company firm agency utility ministry department office group organization organisation union
association commission council board committee bank university college school hospital party
campaign government court network airline automaker startup retailer label league club team
body institute center centre service police publisher newspaper broadcaster developer maker
manufacturer giant lender insurer carrier operator platform charity foundation nonprofit
coalition alliance administration regulator watchdog authority prosecutors' district
brokerage exchange bureau embassy studio magazine chain fund
"""
_ORG_NOUNS = frozenset(_ORG_NOUNS_WORDS.split())
#: Plural nouns for sources the text does not name ("analysts say", "prosecutors alleged").
_GROUP_NOUNS_WORDS = """
officials experts analysts prosecutors investigators critics economists researchers scientists
doctors physicians lawmakers legislators executives residents witnesses authorities observers
advocates activists sources insiders aides advisers advisors diplomats leaders members
organizers organisers police people protesters opponents supporters historians teachers
senators representatives businesses companies forecasters others brokerages economists
providers groups unions
"""
_GROUP_NOUNS = frozenset(_GROUP_NOUNS_WORDS.split())
_DETERMINERS = r"(?:[Tt]he|[Aa]n?|[Hh]is|[Hh]er|[Ii]ts|[Tt]heir|[Oo]ne|[Tt]his|[Tt]hat)"
_DESCRIPTION = re.compile(
    rf"(?:^|[\s,\"(]){_DETERMINERS}[ ](?P<mods>(?:[\w'-]+[ ]){{0,3}}?)(?P<noun>[a-z][\w'-]*)$")
#: A body named by its owner: "<Name>'s <modifiers> <noun>", "his <noun>".
_OWNED = re.compile(
    r"(?:^|[\s,\"(])(?P<owner>[Hh]is|[Hh]er|[A-Z][\w.&-]*(?:[ ][A-Z][\w.&-]*){0,3}'s)[ ]"
    r"(?P<mods>(?:[a-z][\w-]*[ ]){0,3}?)(?P<noun>[a-z][\w-]*)$")
_GROUP_HEAD = (
    r"(?:^|[\s,\"(])(?P<g>(?:(?:[Ss]ome|[Mm]any|[Mm]ost|[Oo]ther|[Ss]everal|[Tt]wo|[Tt]hree|"
    r"[Ff]ederal|[Ss]tate|[Ll]ocal|[Ss]enior|[Tt]he|[A-Z][\w.&'-]*|[a-z]+(?:-based)?)[ ]){0,4}"
    r"(?P<noun>[A-Za-z][a-z]+)")
_GROUP_WHERE = (r"[ ](?:familiar|close)[ ](?:with|to)(?:[ ][\w'-]+){1,4}?|"
                r"[ ](?:on|in|at|from|across|around)(?:[ ][\w'-]+){1,3}?")
#: "<group>", "<group> familiar with …", "<group> across <place>" right before a verb; the
#: second form reads the words after the noun as where the group is ("across the region").
_GROUP = re.compile(rf"{_GROUP_HEAD}(?:{_GROUP_WHERE})?)$")
_GROUP_AT = re.compile(rf"{_GROUP_HEAD}(?:{_GROUP_WHERE}))$")
#: Capitalised words joined to a name by "for"/"of"/"on" ("Regional Director for <name>").
_TITLE_OF = re.compile(r"(?<![\w.&'-])(?:[Tt]he[ ])?"
                       r"(?P<t>[A-Z][\w.&'-]*(?:[ ][A-Z][\w.&'-]*){0,5})[ ]"
                       r"(?P<j>for|of|on)[ ](?:the[ ])?$")
#: A name of at most three capitalised words the suggestions missed, right before a verb.
_BARE = re.compile(r"(?:^|[\"(]|[ ]{2}|,)[ ]*(?P<n>(?:[A-Z][a-z][\w'-]*[ ]){0,2}"
                   r"[A-Z][a-z][\w'-]*)$")
#: "… a statement that said": the words are those of whoever issued the statement.
_RECORD_THAT = re.compile(r"\b(?:a|an|the|its|his|her|their)[ ](?:[a-z-]+[ ]){0,2}(?:statement|"
                          r"post|letter|release|memo|email|message|tweet|filing)[ ](?:that|which)$")
#: A relative clause between a group and its verb ("analysts who studied it say").
_GROUP_WHO = re.compile(r"[ ]who[ ][^,;:]{1,60}$")
#: The longest run of words read for a group before its verb (characters).
GROUP_REACH = 120


def _group_at_end(pre: str) -> re.Match[str] | None:
    """The unnamed group (:data:`_GROUP_NOUNS`) that ``pre`` ends with ("city officials",
    "executives across the region"), read from its last :data:`GROUP_REACH` characters only
    (end-anchored patterns over longer text take quadratic time); group "g" ends ``pre``."""
    tail = pre[-GROUP_REACH:]
    if len(pre) > GROUP_REACH:
        tail = tail[tail.find(" ") + 1:]
    for pattern in (_GROUP, _GROUP_AT):
        got = pattern.search(tail)
        if got and got.group("noun").lower() in _GROUP_NOUNS:
            return got
    return None
#: Capitalised words that start a sentence but name no one ("The", "This", "But").
_NOT_NAMES_WORDS = """
The This That These Those It Its He She They We I You His Her Their Our My Your A An And But
Or So Yet Then Also Some Many Most Other Officials Experts Analysts Critics Sources Police
Prosecutors Authorities Investigators Researchers Scientists Doctors People Residents Witnesses
Others Both
Each All Several Few No None One Two Three Four Five In On At For From With By As If When While
After Before Later Earlier Meanwhile However Still Yesterday Today Monday Tuesday Wednesday
Thursday Friday Saturday Sunday Reports Report Data Studies Study Records Documents Polls
"""
_NOT_NAMES = frozenset(_NOT_NAMES_WORDS.split())


def _gender_of_people(blanked: str, sentences: list[tuple[int, int]],
                      persons: Sequence[tuple[int, int, str, str]]) -> dict[str, str]:
    """``{name: "m" | "f"}`` for people whose pronouns the text shows: "Mr."/"Ms."/"Mrs."
    right before a mention, else he/him/his against she/her in the sentences where that person
    is the only one named (and the sentence after, when it names nobody). People the text gives
    no sign for are left out."""
    votes: dict[str, list[int]] = {}
    for s, _e, name, _k in persons:
        title = re.search(r"\b(Mr|Ms|Mrs|Miss)\.?[ ]$", blanked[max(0, s - 6):s])
        if title:
            votes.setdefault(name, [0, 0])[0 if title.group(1) == "Mr" else 1] += 3
    starts = [p[0] for p in persons]
    for i, (s, e) in enumerate(sentences):
        here = persons[bisect_left(starts, s):bisect_right(starts, e)]
        named = {p[2] for p in here}
        if len(named) != 1:
            continue
        (name,) = named
        # from the name on: a pronoun before it means someone else ("a man said he would
        # hurt <name>")
        chunk = blanked[here[0][0]:e]
        if i + 1 < len(sentences):
            ns, ne = sentences[i + 1]
            if bisect_left(starts, ns) == bisect_right(starts, ne):
                # the sentence after, but not its "he said": that is what is to be resolved
                chunk += " " + re.sub(rf"\b(?:he|she)[ ]+(?:{_SPEECH})\b", " ",
                                      blanked[ns:ne], flags=re.I)
        v = votes.setdefault(name, [0, 0])
        v[0] += len(re.findall(r"\b(?:he|him|his|himself)\b", chunk, re.I))
        v[1] += len(re.findall(r"\b(?:she|her|hers|herself)\b", chunk, re.I))
    out = {}
    for name, (m, f) in votes.items():
        if m > 2 * f:
            out[name] = "m"
        elif f > 2 * m:
            out[name] = "f"
    return out


#: A quotation: from a '"' to the next one in its paragraph (or the paragraph's end).
_QUOTATION = re.compile(r'"[^"\n]*(?:"|(?=\n)|$)')


#: Phrases with a speech verb that report no one's words ("That said, …"): read as blank.
_IDIOMS = re.compile(r"\b(?:[Tt]hat[ ]said,|[Hh]aving[ ]said[ ]that\b|[Nn]eedless[ ]to[ ]say\b)")


def _quotations(ft: str) -> tuple[bytearray, str]:
    """``(mask, blanked)``: mask[i] is 1 where ``ft[i]`` lies inside a double quotation (its
    quote marks too); blanked is ``ft`` with those characters made spaces (offsets kept)."""
    mask = bytearray(len(ft))
    parts: list[str] = []
    at = 0
    for m in _QUOTATION.finditer(ft):
        mask[m.start():m.end()] = b"\x01" * (m.end() - m.start())
        parts += [ft[at:m.start()], " " * (m.end() - m.start())]
        at = m.end()
    parts.append(ft[at:])
    return mask, "".join(parts)


_ACCORDING_TO = re.compile(r"\b[Aa]ccording[ ]to[ ](?:[Tt]he[ ])?")
#: "(a report) in the <Name>", "(a survey) by <Name>": whose record it is.
_RECORD_OF = re.compile(r"[ ](?:in|by|from|of)[ ](?:the[ ])?(?P<n>[A-Z][\w.&'-]*"
                        r"(?:[ ][A-Z][\w.&'-]*)*)")
#: The words after "according to" that name an unnamed document or record ("court records").
_ACCORDING_WORDS = re.compile(r"(?:(?:a|an|the|his|her|its|their)[ ])?(?:\d{4}[ ])?"
                              r"(?P<w>[a-z][\w'-]*(?:[ ][a-z][\w'-]*){0,3}?)"
                              r"(?=[ ]*(?:[,.;]|$|[ ](?:in|from|on|at|by|for|of|that|which|"
                              r"[a-z]+ed)\b))")


#: How many characters before a speech verb are read for its subject.
SUBJECT_REACH = 300
#: How far back (characters) a description ("the governor") looks for the one it means.
DESCRIBED_REACH = 20_000


def _untagged_mentions(ft: str, entities: Sequence[tuple[int, int, str, str]]
                       ) -> list[tuple[int, int, str, str]]:
    """Mentions the name finder left out: every other place where a form it tagged elsewhere
    (a capitalised run of at least two words, or one word of four or more letters that is not
    a common sentence opener) is written as a whole word, outside the mentions it has. A
    company named in one sentence and left untagged in the one before is still the company a
    later "the company said" means. One pass over the text whatever the number of forms."""
    forms: dict[str, tuple[str, str]] = {}
    for s, e, name, kind in entities:
        form = ft[s:e]
        if not form[:1].isupper() or form in _NOT_NAMES or (
                " " not in form and len(form) < 4):
            continue
        forms.setdefault(form, (name, kind))
    # a person's surname alone, when no other person of the text has it
    owners: dict[str, set[str]] = {}
    for _s, _e, name, kind in entities:
        if kind == "person" and " " in name:
            owners.setdefault(name.split()[-1], set()).add(name)
    for last, names in owners.items():
        if len(names) == 1 and len(last) >= 4 and last[:1].isupper() and last[1:].islower() \
                and last not in _NOT_NAMES:
            forms.setdefault(last, (next(iter(names)), "person"))
    if not forms:
        return []
    taken = bytearray(len(ft) + 1)
    for s, e, _n, _k in entities:
        taken[s:e] = b"\x01" * (e - s)
    pattern = re.compile(r"(?<![\w'.&-])(?:" + "|".join(
        re.escape(f) for f in sorted(forms, key=len, reverse=True)) + r")(?![\w&-]|'\w|\.\w)")
    out = []
    for m in pattern.finditer(ft):
        if not any(taken[m.start():m.end()]):
            name, kind = forms[m.group()]
            out.append((m.start(), m.end(), name, kind))
    return out


class _Reader:
    """What the text says about its people and organisations, for finding who said what.

    ``entities`` are (start, end, name, kind) with kind "person", "organization" or "news
    outlet"; offsets into ``ft``."""

    def __init__(self, ft: str, sentences: list[tuple[int, int]],
                 entities: Sequence[tuple[int, int, str, str]]) -> None:
        self.ft = ft
        self.sentences = sentences
        # a pronoun taken for a surname ("He" of a name ending in "He") is no mention here
        kept = [x for x in entities
                if ft[x[0]:x[1]].lower() not in {"he", "she", "it", "they", "i"}]
        self.ents = sorted(kept + _untagged_mentions(ft, kept))
        self.starts = [x[0] for x in self.ents]
        self.by_end: dict[int, tuple[int, int, str, str]] = {}
        for x in self.ents:
            self.by_end.setdefault(x[1], x)
        self.mask, blanked = _quotations(ft)
        self.blanked = _IDIOMS.sub(lambda m: " " * len(m.group()), blanked)
        persons = [x for x in self.ents if x[3] == "person"]
        self.gender = _gender_of_people(self.blanked, sentences, persons)
        # the person of each surname (the first named), the names of bodies
        self.by_surname: dict[str, str] = {}
        for x in persons:
            self.by_surname.setdefault(x[2].split()[-1], x[2])
        self.org_names = sorted({x[2] for x in self.ents if x[3] == "organization"})
        self.speaker_of: dict[int, tuple[str, str]] = {}  # sentence index -> (name, kind)

    def inside(self, s: int, e: int) -> list[tuple[int, int, str, str]]:
        return [x for x in self.ents[bisect_left(self.starts, s):bisect_right(self.starts, e)]
                if x[1] <= e]

    def ending_at(self, at: int) -> tuple[int, int, str, str] | None:
        """The entity whose mention ends at ``at`` (or one character before: "Name.")."""
        got = self.by_end.get(at)
        if got is None and at > 0 and self.ft[at - 1] == ".":
            got = self.by_end.get(at - 1)
        return got

    def recent(self, i: int, pos: int, kinds: set[str], gender: str | None = None,
               back: int = 4) -> str | None:
        """The person or organisation a pronoun or description at ``pos`` (in sentence ``i``)
        means: going back sentence by sentence (at most ``back``), the speaker found for that
        sentence when it is of the kind, else its first mention of that kind outside
        quotations (the subject, usually); for people only those of ``gender`` or of unknown
        gender."""
        def fits(name: str, kind: str) -> bool:
            if kind not in kinds:
                return False
            return gender is None or kind != "person" or self.gender.get(name) in (None, gender)
        for j in range(i, max(-1, i - back - 1), -1):
            s, e = self.sentences[j]
            if j < i and j in self.speaker_of and fits(*self.speaker_of[j]):
                return self.speaker_of[j][0]
            for x in self.inside(s, min(e, pos) if j == i else e):
                if not self.mask[x[0]] and fits(x[2], x[3]):
                    return x[2]
        return None

    def named_with(self, i: int, pos: int, word: str) -> str | None:
        """The organisation named before ``pos`` (within :data:`DESCRIBED_REACH`) whose name
        has ``word`` (a plural noun: "the scientists" for "Scientists for <cause>"), the latest."""
        lo = bisect_left(self.starts, pos - DESCRIBED_REACH)
        for x in reversed(self.ents[lo:bisect_left(self.starts, pos)]):
            if x[3] == "organization" and word in x[2].lower().split():
                return x[2]
        return None

    def described(self, i: int, pos: int, noun: str, kind: str) -> str | None:
        """The entity that "the <noun>" at ``pos`` means: the most recent one before it whose
        name or surrounding words ("Gov. <name>", "<name>, the agency's director") have the
        noun, else the most recent one of the kind near it (:meth:`recent`)."""
        kinds = {"person"} if kind == "person" else {"organization"}
        titles = {k.rstrip(".") for k, v in lx.TITLES.items() if noun in v.lower().split()}
        titles.add(noun)
        pattern = re.compile(r"\b(?:" + "|".join(re.escape(t) for t in titles) + r")\b", re.I)
        mentions: dict[str, int] = {}
        fitting: dict[str, int] = {}
        lo = bisect_left(self.starts, pos - DESCRIBED_REACH)
        for x in self.ents[lo:bisect_left(self.starts, pos)]:
            if x[3] not in kinds or x[1] > pos:
                continue
            mentions[x[2]] = mentions.get(x[2], 0) + 1
            near = self.ft[max(0, x[0] - 30):x[0]] + " " + self.ft[x[1]:x[1] + 60].split(".")[0]
            if pattern.search(x[2]) or pattern.search(near):
                fitting[x[2]] = x[0]
        if kind != "person":
            # the body the sentences just before are about, unless another there fits better
            latest = self.recent(i, pos, kinds, back=2)
            since = self.sentences[max(0, i - 2)][0]
            if latest is not None and (latest in fitting or not any(
                    at >= since for at in fitting.values())):
                return latest
        if fitting:  # the one the text names most, then the latest
            return max(fitting, key=lambda n: (mentions[n], fitting[n]))
        gender = "f" if noun in {"woman", "spokeswoman", "chairwoman", "congresswoman",
                                 "actress", "queen", "princess"} else (
            "m" if noun in {"man", "spokesman", "chairman", "congressman", "king", "prince"}
            else None)
        return self.recent(i, pos, kinds, gender)


_CLAUSE = re.compile(r"[^,;:\"]*")


def _subject_after(rd: _Reader, s: int, sent: str, m: re.Match[str]) -> str | None:
    """The speaker written after the verb in '"…," said <name>' or "…, reports <outlet>"
    (never after "told": the name there is who heard it)."""
    if m.group() in {"told", "tells", "tell", "telling"}:
        return None
    before = sent[:m.start()].rstrip()
    if not (before.endswith((",", '"')) or not before):
        return None
    clause = _CLAUSE.match(sent, m.end())
    end = s + (clause.end() if clause else m.end())
    for x in rd.inside(s + m.end(), end):
        gap = rd.ft[s + m.end():x[0]]
        if re.fullmatch(r"[ ]+(?:(?:[A-Z][\w.'&-]*|the|[a-z]+)[ ]+){0,4}", gap) and \
                not re.search(r"\b(?:that|he|she|it|they|to)\b", gap):
            people = [y for y in rd.inside(x[0], end) if y[3] == "person"]
            who = people[0] if people else x
            # the name ends the clause ("said <name>, …"): not "said <name>'s death was …"
            if re.match(r"[ ]*(?:[,;:.)(]|$)", rd.ft[who[1]:end + 1]):
                return who[2]
            return None
    return None


def _subject_before(rd: _Reader, i: int, s: int, out: str, m: re.Match[str]
                    ) -> tuple[str, str] | None:
    """``(speaker, kind)`` of the subject written before the verb ``m`` of sentence ``i``
    (``out`` is the sentence with quotations blanked): a name, a name before an appositive
    ("<name>, a professor at <org>, said"), a pronoun, a description or an unnamed group; kind
    "person", "organization", "news outlet" or "unnamed" ("" speaker: a group that names no
    one, "they said"). None if no subject is written there."""
    # only the words right before the verb matter: at most SUBJECT_REACH characters of them
    # (end-anchored patterns over a whole long sentence would take quadratic time)
    whole, start = out, s
    cut = max(0, m.start() - SUBJECT_REACH)
    s, out = s + cut, out[cut:]
    pre = out[:m.start() - cut].rstrip()
    if m.group().endswith("ing"):
        progressive = _PROGRESSIVE.search(pre)
        if progressive:  # "<group> are urging …": as "<group> urge …"
            pre = pre[:progressive.start()]
        else:
            with_ = re.search(r"(?:^|[ ,])with[ ](?=[^,]{1,60}$)", pre)
            if with_ and _group_at_end(pre[with_.end():]) is not None:
                # "…, with experts warning that …"
                s, pre = s + with_.end(), pre[with_.end():]
            else:  # "<name> defended …, saying …"
                return _sentence_subject(rd, i, start, whole)
    elif re.search(r"(?:^|[ ,])(?:but|and)$", pre) or _RECORD_THAT.search(
            pre, max(0, len(pre) - 60)):
        # "<name> … but said …", "<name> issued a statement that said …"
        return _sentence_subject(rd, i, start, whole)
    pre = _without_between(pre)
    pre = pre.rstrip()
    at = s + len(pre)
    named = rd.ending_at(at)
    if named is not None:
        if named[3] != "person":  # "<person> of the <org> said": the person
            of = re.search(r"[ ]of[ ](?:the[ ])?$", rd.ft[max(0, named[0] - 9):named[0]])
            person = rd.ending_at(named[0] - len(of.group())) if of else None
            if person is not None and person[3] == "person":
                return person[2], "person"
        title = _TITLE_OF.search(rd.ft, max(0, named[0] - 80), named[0])
        if title is not None and title.group("t").split()[0] not in _NOT_NAMES and \
                rd.ending_at(title.end("t")) is None:
            # "the <Title> for <Name> said": the whole name as written, not its last part
            return f"{title.group('t')} {title.group('j')} {rd.ft[named[0]:named[1]]}", \
                "organization"
        return named[2], named[3]
    if pre.endswith(","):  # "<name>, <appositive>, said"
        lead = _leading(rd, start, whole)
        if lead is not None and lead[3] == "person" and lead[1] < at and \
                rd.ft.startswith(",", lead[1]):
            return lead[2], lead[3]  # "<name>, <role> at <org>, <what the org is>, said"
        comma = pre[:-1].rfind(",")
        app = pre[comma + 1:-1].split()
        if comma > 0 and (len(app) <= 15 or app[0] in {"who", "which", "whose"}):
            named = rd.ending_at(s + len(pre[:comma].rstrip()))
            if named is not None:
                return named[2], named[3]
        named = rd.ending_at(s + len(pre) - 1)
        if comma > 0 and named is not None and not pre[comma + 1:named[0] - s].strip():
            return named[2], named[3]  # "the firm that runs the port, <Name>, says"
        return None
    pron = _PRONOUN.search(pre)
    if pron:
        p = pron.group("p").lower()
        if p == "they":
            # a body the sentence before spoke for ("<body> have denied it. '…,' they said")
            last = rd.speaker_of.get(i - 1)
            if last is not None and last[1] == "organization" and i > 0:
                return last
            return "", "unnamed"
        if p == "it":
            who = rd.recent(i, at, {"organization"})
            return (who, "organization") if who else None
        who = rd.recent(i, at, {"person"}, "m" if p == "he" else "f")
        return (who, "person") if who else None
    clause = _GROUP_WHO.search(pre, max(0, len(pre) - GROUP_REACH))
    if clause is not None:  # "<group> who studied it say"
        pre = pre[:clause.start()]
        at = s + len(pre)
    group = _group_at_end(pre)
    if group is not None:
        words = group.group("g").split()
        if words[0].lower() == "the" and len(words) == 2:
            # "the scientists said" after "<Scientists for …>" was named: that body
            body = rd.named_with(i, at - len(group.group("g")), words[1].lower())
            if body is not None:
                return body, "organization"
        if words[0].lower() in {"the", "some", "many", "most", "other", "several"}:
            words = words[1:]
        if words and not rd.inside(at - len(group.group("g")), at):
            return "unnamed " + " ".join(w if w.isupper() else w.lower() for w in words), \
                "unnamed"
    bare = _BARE.search(pre, max(0, len(pre) - GROUP_REACH))
    if bare and bare.group("n").split()[0] not in _NOT_NAMES and not bare.group("n").endswith(
            "'s"):  # "<Name>'s note": a possessive is no speaker
        # a name the suggestions missed, right before the verb ('…," <Surname> said')
        words = bare.group("n").split()
        while len(words) > 1 and (words[0].lower() in _PERSON_NOUNS or words[0].lower() in
                                  _ORG_NOUNS or words[0].lower().rstrip(".") in lx.TITLES):
            words = words[1:]  # "Developer <Name> said", "Director <Name> said"
        bodies = [n for n in rd.org_names if n == " ".join(words)]
        if bodies:
            return bodies[0], "organization"
        return rd.by_surname.get(words[-1], " ".join(words)), "person"
    owned = _OWNED.search(pre)
    if owned and owned.group("noun") in _ORG_NOUNS:
        # "<owner>'s foreign ministry said", "his office said": that body, named by its owner
        body = (owned.group("mods") + owned.group("noun")).strip()
        owner = owned.group("owner").removesuffix("'s")
        if owner.lower() in {"his", "her"}:
            who = rd.recent(i, s + owned.start("owner"), {"person"},
                            "m" if owner.lower() == "his" else "f")
            return (f"{who}'s {body}", "organization") if who else None
        named = rd.ending_at(s + owned.start("owner") + len(owner))
        return f"{named[2] if named else owner}'s {body}", "organization"
    desc = _DESCRIPTION.search(pre)
    if desc and desc.group("noun").lower() in _ORG_NOUNS and re.search(
            r"(?:^|[ ])[A-Z]", desc.group("mods")):
        # "the Dutch finance ministry said": the body as written, unless a name has it
        words = (desc.group("mods") + desc.group("noun")).strip()
        bodies = [n for n in rd.org_names if words.lower() in n.lower()]
        return (bodies[-1] if bodies else words), "organization"
    if desc:
        noun = desc.group("noun").lower()
        if noun in _PERSON_NOUNS:
            who = rd.described(i, at, noun, "person")
            return (who, "person") if who else None
        if noun in _ORG_NOUNS:
            who = rd.described(i, at, noun, "organization")
            return (who, "organization") if who else None
    lead = _leading(rd, start, whole)
    if lead is not None and lead[3] == "person" and lead[1] < at and \
            rd.ft.startswith(",", lead[1]):
        return lead[2], lead[3]  # '"…," <name>, <role> at <body> told <outlet>'
    return None


_LEAD = re.compile(r"\s*(?:(?:But|And|Yet|So|Still|Meanwhile|Later|However|Then),?[ ])?"
                   r"(?:(?:[a-z]+[ ]){0,3}(?:week|month|year|day|night|morning|evening|"
                   r"Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday),[ ])?")


def _leading(rd: _Reader, s: int, out: str) -> tuple[int, int, str, str] | None:
    """The entity that starts the sentence at ``s`` (``out`` its text, quotations blanked)
    after at most a conjunction and a few title words ("But Foreign Minister <name> …")."""
    lead = _LEAD.match(out)
    at = lead.end() if lead else 0
    for x in rd.inside(s + at, s + at + 60):
        gap = rd.ft[s + at:x[0]]
        if re.fullmatch(r"(?:[A-Z][\w.'&-]*[ ]|[a-z]+[ ](?=[A-Z])){0,4}", gap):
            return x
        break
    return None


def _sentence_subject(rd: _Reader, i: int, s: int, out: str) -> tuple[str, str] | None:
    """``(speaker, kind)`` of the subject that starts sentence ``i``: a name after at most a
    few title words ("Foreign Minister <name> …"), or a pronoun resolved as in
    :func:`_subject_before`."""
    x = _leading(rd, s, out)
    if x is not None:
        return x[2], x[3]
    lead = _LEAD.match(out)
    at = lead.end() if lead else 0
    subject = re.match(r"(?P<p>He|She|It)\b", out[at:]) or _SUBJECT_WORDS.match(out, at)
    if subject:  # read as "<pronoun> said", "<the words before the verb> said"
        said = out[:at + len(subject.group("p"))] + " said"
        verb = _SPEECH_RE.search(said, len(said) - 4)
        return _subject_before(rd, i, s, said, verb) if verb else None
    return None


#: A sentence's first words up to its verb ("The utilities commission" is frustrated …).
_SUBJECT_WORDS = re.compile(
    r"(?P<p>(?:[A-Za-z][\w'-]*[ ]){0,4}?[A-Za-z][\w'-]*)[ ](?=(?:has|have|had|is|are|was|were|"
    r"will|would|could|can|also|[a-z]{3,}ed)\b)")
#: What follows a speech verb in the progressive when it reports words: "that", a quotation,
#: whom it is said to ("urging the board to …").
_SPOKEN_TO = re.compile(r"[ ]+(?:that|the|a|an|us|them|him|her|it|[A-Z]|[,:]|[ ]{2})")
#: "are urging", "were warning": a speech verb in the progressive.
_PROGRESSIVE = re.compile(r"[ ](?:is|are|was|were|been)$")


_THAT = re.compile(r"[ ]+that\b")
#: Speech verbs that are nouns too ("the estimate", "a first claim").
_NOUN_TOO = frozenset({"estimate", "claim", "note", "report", "estimates", "claims", "notes",
                       "reports"})
#: A determiner right before, or before one word that is no plural noun ("the analysts
#: estimate" keeps its verb).
_AFTER_DETERMINER = re.compile(
    r"\b(?:[Aa]n?|[Tt]he|[Tt]his|[Tt]hat|[Ii]ts|[Hh]is|[Hh]er|[Tt]heir|[Oo]ur|[Mm]y|[Yy]our)"
    r"[ ](?:[a-z][\w-]*[^s\W][ ])?$")
_CALLED_FOR = re.compile(r"[ ]+(?:for|on|off|in|out|up)\b")
#: "called the audit a whitewash": a judgement, not a phone call ("called police a day later").
_CALLED_IT = re.compile(r"[ ](?:it|him|her|them|this|that|the[ ][\w' -]{1,40}?)[ ](?:a|an)[ ]"
                        r"(?!(?:day|week|month|year|few|couple|minute|hour|second|time)\b)")
#: A group written after its verb ("…, say experts.", "…, said local officials").
_GROUP_AFTER = re.compile(r"[ ](?P<g>(?:[a-z]+[ ]){0,2}(?P<noun>[a-z]+))[ ]*(?:[.,;]|$)")


def _speech_subject(rd: _Reader, i: int) -> tuple[str, str] | None:
    """``(speaker, kind)`` from the first speech verb outside quotations of sentence ``i`` whose
    subject is written (see :func:`_subject_before`, :func:`_subject_after`), else None."""
    s, e = rd.sentences[i]
    sent = rd.ft[s:e]
    out = rd.blanked[s:e]
    for m in _SPEECH_RE.finditer(out):
        if m.group() in _NEEDS_THAT and not _THAT.match(out, m.end()) and not (
                m.group() in {"called", "calls"} and (sent.find('"', m.end()) >= 0 or
                                                    _CALLED_IT.match(out, m.end()))
                and not _CALLED_FOR.match(sent, m.end())):
            continue  # "found that", and "called it "…"": not "found", "called for"
        if m.group() in _NOUN_TOO and _AFTER_DETERMINER.search(out, 0, m.start()):
            continue  # "a first estimate", "the claim": nouns
        if m.group().endswith("ing") and _PROGRESSIVE.search(out[:m.start()].rstrip()) and \
                not _SPOKEN_TO.match(out, m.end()):
            continue  # "the account <body> is giving now": no words of theirs follow
        if not m.group().endswith("ing") and _PASSIVE.search(
                out[max(0, m.start() - 40):m.start()]):
            continue  # passive: "was accused", "were reported"; "to tell": no one said it
        after = _subject_after(rd, s, sent, m)
        if after is not None:
            kind = next((x[3] for x in rd.inside(s, e) if x[2] == after), "person")
            return after, kind
        group = _GROUP_AFTER.match(out, m.end())
        if group is not None and group.group("noun").lower() in _GROUP_NOUNS and \
                out[:m.start()].rstrip().endswith(","):
            # "…, say experts.": the group after the verb
            return "unnamed " + group.group("g").lower(), "unnamed"
        got = _subject_before(rd, i, s, out, m)
        if got is not None:
            return got
    return None


def _according_to(rd: _Reader, i: int, s: int, out: str) -> str | None:
    """The source named after "according to" (outside quotations): its entity's name, or the
    plain words of a record or document ("court records")."""
    for match in _ACCORDING_TO.finditer(out):
        at = s + match.end()
        named = next((x for x in rd.inside(at, at + 60) if x[0] <= at + 12), None)
        if named is not None and re.fullmatch(r"(?:[a-z]+[ ]){0,2}", rd.ft[at:named[0]]):
            owned = rd.inside(named[1] + 3, named[1] + 60)
            if rd.ft.startswith("'s ", named[1]) and owned and owned[0][0] == named[1] + 3:
                return owned[0][2]  # "according to <outlet>'s <column>"
            return named[2]
        words = _ACCORDING_WORDS.match(out, match.end())
        if words is not None:
            noun = words.group("w")
            if noun in _ORG_NOUNS or noun in _PERSON_NOUNS:  # "according to the company"
                return rd.described(i, s + match.start(), noun, "person" if noun in
                                    _PERSON_NOUNS else "organization") or noun
            whose = _RECORD_OF.match(out, words.end())
            if whose is not None:  # "according to a report in the <paper>": the paper's
                at = s + whose.start("n")
                named = next((x for x in rd.inside(at, at + 60) if x[0] == at), None)
                return named[2] if named is not None else whose.group("n")
            return noun
    return None


def _quote_speaker(rd: _Reader, i: int, found: dict[int, tuple[str, str] | None]
                   ) -> tuple[str, str] | None:
    """The speaker of a sentence that is all or part of a quotation with no attribution of its
    own: the attribution of the sentence that closes the quotation ('…," she said.'), else of
    the lead-in that opens it ("<name> said:")."""
    s, e = rd.sentences[i]
    if not any(rd.mask[s:e]):
        return None
    # forward: the quotation goes on into the next sentences of the paragraph
    j = i
    while rd.mask[rd.sentences[j][1] - 1] and j + 1 < len(rd.sentences) and j - i < 8:
        ns, _ne = rd.sentences[j + 1]
        if "\n" in rd.ft[rd.sentences[j][1]:ns] or not rd.mask[ns]:
            break
        j += 1
        got = found.get(j) if j in found else _speech_subject(rd, j)
        if got is not None:
            return got
    if j == i and rd.mask[e - 1] and e < len(rd.ft) and rd.ft[e - 1] != '"':
        return None
    # backward: a lead-in ending with a colon, or the quotation began in earlier sentences
    k = i
    while k > 0 and k - i > -8:
        ps, pe = rd.sentences[k - 1]
        if rd.ft[pe - 1] == ":" or (rd.mask[rd.sentences[k][0]] and rd.mask[pe - 1]
                                   and rd.ft[rd.sentences[k][0]] != '"'):
            got = found.get(k - 1)
            if got is not None or rd.ft[pe - 1] == ":":
                return got
            k -= 1
            continue
        break
    return None


#: A verb form after these is passive ("was reported", "were confirmed") or an infinitive.
_PASSIVE = re.compile(r"\b(?:was|were|is|are|been|be|being|to)[ ]+(?:[a-z]+ly[ ]+)?$")


def find_claims(text: str, sentences: list[tuple[int, int]],
                entities: Sequence[tuple[int, int, str, str]]) -> list[dict[str, Any]]:
    """Claims in attributed sentences.

    ``entities`` are (start, end, name, kind) of the suggested people and organisations, kind
    "person", "organization" or "news outlet". A sentence attributed to unnamed sources (see
    the module docstring) gets ``attributed_to`` "unnamed <modifier> sources" (a plain
    string, never an entity) and ``via`` the outlet named after "tell"/"told" (its entity's
    name when it is one, else the words as written), else the sentence's news outlet. Otherwise
    the speaker is the subject of the speech verb outside quotation marks: a name (also after
    an appositive or after the verb, '"…," said <name>'); "he"/"she"/"it" and descriptions
    ("the governor", "the company") resolved to the person or organisation meant in the text
    before; plural unnamed groups ("analysts say", "city officials said") as "unnamed <group>".
    Then the source after "according to" (a name, or the words of a record: "court records").
    A sentence inside a quotation with no attribution of its own takes that of the sentence
    that closes the quotation or of the lead-in before it. A sentence whose only cue is a hedge
    ("reportedly", "allegedly") names no speaker; a lead-in sentence (:func:`is_lead_in`) is
    no claim; names inside quotations or elsewhere in the sentence are never taken as its
    speaker.
    """
    rd = _Reader(text, sentences, entities)
    found: dict[int, tuple[str, str] | None] = {}
    for i in range(len(sentences)):
        got = _speech_subject(rd, i)
        found[i] = got
        if got is not None and got[1] in {"person", "organization"}:
            rd.speaker_of[i] = got
    out: list[dict[str, Any]] = []
    for i, (s, e) in enumerate(sentences):
        sent = text[s:e]
        if sent.rstrip().endswith("?") or len(sent) < 25 or is_lead_in(sent):
            continue
        blank = rd.blanked[s:e]
        cue = next((c for c in _CUE.finditer(blank)
                    if not _PASSIVE.search(blank[max(0, c.start() - 40):c.start()])),
                   None) or _SOURCES_SAY.search(blank)
        subject = found[i]
        quoted = None
        if subject is None and cue is None:
            quoted = _quote_speaker(rd, i, found)
            if quoted is None:
                continue
        cues = [c.group() for c in _CUE.finditer(blank)]
        hedged = bool(cues) and all(_HEDGE.match(c) for c in cues)
        inside = rd.inside(s, e)
        via = next((x[2] for x in inside if x[3] == "news outlet"), None)
        attributed: str | None = None
        unnamed = _unnamed_attribution(blank)
        if unnamed is not None:
            attributed, outlet = unnamed
            if outlet is not None:
                a, b = s + outlet[0], s + outlet[1]
                named = next((x for x in inside if a <= x[0] < b), None)
                via = named[2] if named is not None else text[a:b].rstrip(".")
        elif subject is not None:
            attributed = subject[0] or None
        elif (source := _according_to(rd, i, s, blank)) is not None:
            attributed = source
        elif quoted is not None:
            attributed = quoted[0] or None
        elif hedged:  # "X reportedly did Y": not X's words, nor the witnesses'
            pass
        elif _UNNAMED.search(blank):
            attributed = UNNAMED_SOURCES
        out.append({"text": sent, "start": s, "end": e, "attributed_to": attributed, "via": via,
                    "status": "single-source" if attributed or via else "unverified"})
    return out
