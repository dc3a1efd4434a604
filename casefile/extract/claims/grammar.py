"""The words and patterns a speaker is read by: speech verbs, the nouns that describe a
person, a body or an unnamed group, quotations blanked out, and the pronouns each person of a
text takes. Patterns and helpers only; who says what is decided in
:mod:`casefile.extract.claims.speakers`.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence

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
    rf"(?:^|[\s,\"(])(?P<det>{_DETERMINERS})[ ]"
    rf"(?P<mods>(?:[\w'-]+[ ]){{0,3}}?)(?P<noun>[a-z][\w'-]*)$")
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
#: "<Title> for/of/on <Name>" right before a verb, the name no entity ("The <Office> High
#: Commissioner for <Subject> said").
_TITLED_NAME = re.compile(r"(?<![\w.&'-])(?:[Tt]he[ ])?(?P<t>[A-Z][\w.&'-]*(?:[ ][A-Z][\w.&'-]*)"
                          r"{0,5})[ ](?P<j>for|of|on)[ ](?:the[ ])?"
                          r"(?P<n>[A-Z][\w'-]*(?:[ ][A-Z][\w'-]*){0,2})[ ]*$")
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

#: A verb form after these is passive ("was reported", "were confirmed") or an infinitive.
_PASSIVE = re.compile(r"\b(?:was|were|is|are|been|be|being|to)[ ]+(?:[a-z]+ly[ ]+)?$")
