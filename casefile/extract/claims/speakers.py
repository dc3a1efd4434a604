"""Who said it: the speaker of one sentence, from its grammar and the text before it (the
subject of a speech verb before or after it, "according to", or the attribution of the
quotation the sentence is part of). See ARCHITECTURE.md ("Claims and their speakers").
"""

from __future__ import annotations

import re

from casefile.extract import lexicon as lx
from casefile.extract.claims.grammar import (
    _ACCORDING_TO,
    _ACCORDING_WORDS,
    _BARE,
    _DESCRIPTION,
    _GROUP_NOUNS,
    _GROUP_WHO,
    _NEEDS_THAT,
    _NOT_NAMES,
    _ORG_NOUNS,
    _OWNED,
    _PASSIVE,
    _PERSON_NOUNS,
    _PRONOUN,
    _RECORD_OF,
    _RECORD_THAT,
    _SPEECH_RE,
    _TITLE_OF,
    _TITLED_NAME,
    GROUP_REACH,
    _group_at_end,
    _without_between,
)
from casefile.extract.claims.reader import SUBJECT_REACH, _Reader

# See ARCHITECTURE.md ("Claims and their speakers"). A sentence's speaker is, in order: unnamed
# sources it is attributed to; the subject of a speech verb outside quotation marks (a name, a
# pronoun or a description resolved from the text before it, or an unnamed group); the source
# after "according to"; for a sentence inside a quotation with no attribution of its own, the
# attribution of the sentence that closes the quotation or of the lead-in that opens it.

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
    titled = _TITLED_NAME.search(pre, max(0, len(pre) - GROUP_REACH))
    if titled and titled.group("t").split()[0] not in _NOT_NAMES:
        # "the <Title> for <Subject> said", the subject no entity: the title whole
        return " ".join(titled.group("t", "j", "n")), "organization"
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
        if desc.group("det").lower() in {"a", "an", "one"} and noun in _PERSON_NOUNS:
            # "…, a spokesman said": someone the text does not name, not the last man named
            return "unnamed " + (desc.group("mods") + noun).strip(), "unnamed"
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
