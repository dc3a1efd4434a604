"""Typing a mention by its own context (ARCHITECTURE.md, "Names: typed by their own context,
joined when unambiguous"): what the words around one mention say it is, whatever the model
read there.

- :func:`reassign_people`: person candidates the text names as a place or as part of an
  organisation elsewhere, and model organisations that name a person;
- :func:`after_job_title`: a name right after "<job> of/for" ("head of <unit>", "commissioner
  for <subject>") names what the job is over, not a person;
- :func:`lone_word`: one bare word the model read as a person once, with nothing else in the
  text saying person, is too little to suggest;
- :func:`cut_short`: an organisation every mention of which goes on with more capitalised
  words ("<Country> <Word>" of "<Country> <Word> <Title>") is a piece of a longer name;
- :func:`names_a_thing`: a name ending in a word for a thing (a law, a vehicle, an edition,
  an index) is no organisation;
- :func:`lowercase_heads`: an organisation written with its head noun in lower case ("the
  <Place> health commission", "the <Name> schools") is that whole name;
- :func:`and_names`: "<A> and the <B>" is two names; a one-word "<A>" always written "<A> and
  <B>" is that one name;
- :func:`record_sources`: whose a report, a survey or a poll is ("a survey from <Name>", "a
  report in the <Name>") is an organisation;
- :func:`retype_lists`: the names of a list whose other members are organisations
  ("<Org>, <Org>, <Name> and <Org>") are organisations too, written whole.
"""

from __future__ import annotations

import re

from casefile.extract import lexicon as lx
from casefile.extract.aliases import name_words
from casefile.extract.text import norm_key
from casefile.extract.types import Candidate

#: One member of a list: one to five capitalised words ("<Name> Corp.", "<A>&<B>", "<A>/<B>",
#: "<A>-<B>"; a full stop only at its end), and an abbreviation in parentheses after it.
_ITEM = (r"[A-Z][\w&'/-]*(?:[ ](?:of[ ])?[A-Z][\w&'/-]*){0,4}\.?"
         r"(?:[ ]\([A-Z][\w.&-]{1,9}\))?")
#: A list of at least three members: "A, B and C", "A, B, C, and others".
_LIST = re.compile(rf"(?<![\w.&'/-])(?:{_ITEM},[ ])+(?:{_ITEM},?[ ](?:and|or)[ ])?"
                   rf"(?:{_ITEM}|others\b)")
_MEMBER = re.compile(_ITEM)

#: Jobs that are over a unit, a subject or a body ("head of <unit>", "director of <body>");
#: not those one holds for a person ("lawyer for", "spokesman for", "aide to").
JOBS_OVER = frozenset({
    "head", "director", "president", "chief", "commissioner", "chairman", "chairwoman", "chair",
    "chairperson", "manager", "secretary", "minister", "officer", "dean", "chancellor",
    "superintendent", "editor", "professor", "coordinator", "treasurer", "executive",
    "vice-president", "controller", "comptroller", "administrator"})
_JOB_OF = re.compile(r"(?<![\w-])(?P<job>[A-Za-z][\w-]*)[ ](?:of|for)[ ](?:the[ ])?$")


def _members(ft: str, m: re.Match[str]) -> list[tuple[int, int]]:
    """The (start, end) of each member of list ``m``, a parenthesised abbreviation left out."""
    out = []
    for it in _MEMBER.finditer(ft, m.start(), m.end()):
        end = it.end()
        if it.group().endswith(".") and not re.search(r"\b(?:Corp|Inc|Co|Ltd|Bros)\.$",
                                                      it.group()):
            end -= 1  # the sentence's full stop
        paren = re.search(r"[ ]\([^)]*\)$", it.group())
        if paren:
            end -= len(paren.group())
        if end > it.start():
            out.append((it.start(), end))
    return out


def after_job_title(ft: str, start: int) -> bool:
    """True if ``ft[start:]`` follows "<job> of" or "<job> for" (a word of :data:`JOBS_OVER`,
    any case: "Head of", "vice president of", "<Rank> Commissioner for"): the name there is what
    the job is over, a unit, a subject or a body, never the person holding it."""
    m = _JOB_OF.search(ft, max(0, start - 40), start)
    return m is not None and m.end() == start and m.group("job").lower() in JOBS_OVER


def lone_word(cands: list[Candidate]) -> bool:
    """True for the candidates of one person that are a single mention of a single word, read
    as a person by the model alone: no title, role, known item, rule cue (a speech verb, an
    age, an appositive) or second mention backs it ("envoy to <City>", "<Firm>'s <Product>",
    a web page's boilerplate line)."""
    return len(cands) == 1 and all(
        len(c.name.split()) == 1 and c.source == "model" and not (c.titled or c.role or c.known)
        for c in cands)


_NEXT_WORD = re.compile(r"[ ](?P<w>[A-Z][a-z][\w'-]*)")


def cut_short(ft: str, cands: list[Candidate]) -> bool:
    """True if every mention of one organisation (``cands``, str offsets into ``ft``) is
    followed by another capitalised word on the same line: the name read is a piece of a
    longer one ("<Org> Forces", "<Party> <Word> leader", a title's first word read alone). Not
    for an acronym, nor before a weekday, a month or a title that is not itself the name's
    last word and the title together ("<Org> President <name>" keeps "<Org>"), nor for an
    agency written with its officer's title ("<County> Sheriff <name>")."""
    if not cands:
        return False
    for c in cands:
        m = _NEXT_WORD.match(ft, c.end)
        if m is None or c.name.isupper() or c.agency_key:
            return False
        w = m.group("w").lower()
        if w in lx.MONTHS or w in lx.WEEKDAYS:
            return False
        if w in lx.TITLES and f"{c.name.split()[-1].lower()} {w}" not in lx.TITLES:
            return False
    return True


#: Last words of names of things, not bodies: laws, vehicles and instruments, editions, indices.
THING_WORDS = frozenset({
    "act", "rover", "lander", "orbiter", "telescope", "spacecraft", "satellite", "probe",
    "rocket", "capsule", "edition", "curve", "index"})


def names_a_thing(name: str) -> bool:
    """True if ``name`` ends in a word of :data:`THING_WORDS` ("<Subject> Act", "<Name>
    Rover", "<Product> Edition"): a law, a vehicle or a product is not an organisation."""
    words = name.lower().split()
    return len(words) >= 2 and words[-1] in THING_WORDS


#: Head nouns of institutions, written in lower case after a proper name ("the <Name> health
#: commission"); one word of subject may stand before the noun.
_LOWER_HEAD = re.compile(
    r"(?<![\w'-])(?:the|its|their|his|her|[\w.]+'s)[ ]"
    r"(?P<n>[A-Z][\w'-]*(?:[ ][A-Z][\w'-]*){0,3}[ ](?:[a-z]+[ ])?"
    r"(?:commission|schools|school[ ]district|network|council|committee|ministry|board))\b")


def lowercase_heads(ft: str) -> list[Candidate]:
    """Organisation candidates (source "rule") for names written with a lower-case head noun
    after "the" or an owner: "the <Place> health commission", "the <Name> schools", "the
    group's <Name> network". Str offsets into ``ft``."""
    return [Candidate("organization", m.start("n"), m.end("n"), m.group("n"), "rule",
                      notes={"lower_head": "1"}) for m in _LOWER_HEAD.finditer(ft)]


def _org_words(words: list[str]) -> bool:
    """A whole organisation's name: it ends in an organisation word, or has "<org word> of"
    ("<Adjective> Court of <Subject>")."""
    low = [w.lower() for w in words]
    return len(low) >= 2 and (low[-1] in lx.ORG_LAST_WORDS or any(
        w in lx.ORG_HEADS_OF and i + 1 < len(low) and low[i + 1] == "of"
        for i, w in enumerate(low)))


#: " and <Capitalised words>" right after a name.
_AND_NAME = re.compile(r"[ ]and[ ]([A-Z][\w'-]*(?:[ ][A-Z][\w'-]*){0,3})")


def and_names(ft: str, orgs: list[Candidate]) -> list[Candidate]:
    """``orgs`` (organisation candidates, str offsets into ``ft``) with "and" read as the text
    reads it elsewhere. One candidate "<A> and the <B>" becomes its parts that are names of
    organisations (by their words or written alone elsewhere): a name does not go on with "and
    the". A one-word name (no acronym, no platform) never written without the same " and <B>"
    after it, "<B>" words that are no organisation's name by themselves, is the one name "<A>
    and <B>" (the candidates of "<B>" there are part of it)."""
    names = {norm_key(c.name) for c in orgs}
    out: list[Candidate] = []
    for c in orgs:
        at = c.name.find(" and the ")
        if at < 0 or ft[c.start:c.end] != c.name:
            out.append(c)
            continue
        for s, e in ((c.start, c.start + at), (c.start + at + len(" and the "), c.end)):
            part = ft[s:e]
            if _org_words(part.split()) or norm_key(part) in names:
                out.append(Candidate("organization", s, e, part, c.source,
                                     notes=dict(c.notes)))
    out.sort(key=lambda c: c.start)
    # "<A> and <B>", A never written without " and <B>" after it: one name
    after: dict[str, set[str]] = {}
    by_name: dict[str, list[Candidate]] = {}
    for c in out:
        by_name.setdefault(norm_key(c.name), []).append(c)
    for key, cands in by_name.items():
        if " " in key:
            continue
        # every time the word is written, not only where it was read as a name
        written = re.finditer(rf"(?<![\w'-]){re.escape(cands[0].name)}(?![\w'-])", ft)
        tails = {m.group(1) if (m := _AND_NAME.match(ft, w.end())) else "" for w in written}
        tail = next(iter(tails), "")
        if len(tails) == 1 and tail and not cands[0].name.isupper() \
                and key not in lx.PLATFORMS and " " in tail and not _org_words(tail.split()):
            after[key] = tails
    if not after:
        return out
    joined: list[Candidate] = []
    ends: set[int] = set()
    for c in out:
        tail = after.get(norm_key(c.name))
        if tail is None:
            joined.append(c)
            continue
        end = c.end + len(" and ") + len(next(iter(tail)))
        joined.append(Candidate("organization", c.start, end, ft[c.start:end], c.source,
                                notes=dict(c.notes)))
        ends.add(end)
    return [c for c in joined if not (c.end in ends and not c.name.startswith(
        ft[c.start:c.start + 1]) or any(j is not c and j.start < c.start and c.end <= j.end
                                        for j in joined if j.end == c.end))]


#: "a (new) survey from <Name>", "a report in the <Name>": the body the record comes from.
_RECORD_FROM = re.compile(
    r"\b(?:report|survey|poll|study|analysis|note|research)s?[ ](?:from|in)[ ](?:the[ ])?"
    r"(?P<n>[A-Z][\w&'-]*(?:[ ][A-Z][\w&'-]*){0,3})")


def record_sources(ft: str) -> list[Candidate]:
    """Organisation candidates (source "rule") for the source of a record: "a survey from
    <Name>", "a report in the <Name>" (a person's record is written "by <name>"). Str
    offsets into ``ft``."""
    return [Candidate("organization", m.start("n"), m.end("n"), m.group("n"), "rule",
                      notes={"record": "1"}) for m in _RECORD_FROM.finditer(ft)]


def retype_lists(ft: str, kept: list[Candidate]) -> list[Candidate]:
    """``kept`` with the members of organisation lists typed as organisations.

    A list of at least three capitalised members of which at least two, and at least half,
    are organisations (a candidate of that kind covers the member) names organisations: every
    other member becomes one organisation candidate (source "rule", the member's words whole),
    in place of the person and place candidates inside it ("<A> <B>" read as an organisation
    "<A>" and a person "<B>"). A person written with a title, a role or as a known item keeps
    their member, and so does a place written as one ("<Town>, <State>", a state). Offsets
    are str offsets into ``ft``."""
    orgs = [c for c in kept if c.kind == "organization"]
    drop: set[int] = set()
    added: list[Candidate] = []
    for m in _LIST.finditer(ft):
        members = _members(ft, m)
        if len(members) < 3:
            continue

        def inside(s: int, e: int) -> list[Candidate]:
            return [c for c in kept if c.start < e and s < c.end]

        typed = [any(c.start <= s and e <= c.end or (s <= c.start and c.end == e)
                     for c in orgs if c.start < e and s < c.end) for s, e in members]
        if sum(typed) < 2 or 2 * sum(typed) < len(members):
            continue
        for (s, e), is_org in zip(members, typed, strict=True):
            here = inside(s, e)
            whole = any(c.kind == "organization" and c.start == s and c.end == e for c in here)
            if whole or any(c.titled or c.role or c.known or c.source == "known" or (
                    c.kind == "place" and c.source == "rule" and "after" not in c.notes)
                    for c in here):
                continue
            if any(c.start < s or c.end > e for c in here):
                continue  # a candidate reaching out of the member: the list is read otherwise
            if is_org and all(c.kind == "organization" for c in here):
                continue
            drop.update(id(c) for c in here)
            added.append(Candidate("organization", s, e, ft[s:e], "rule",
                                   notes={"listed": "1"}))
    if not added:
        return kept
    return [c for c in kept if id(c) not in drop] + added


def reassign_people(people: list[Candidate], orgs: list[Candidate],
                     places: list[Candidate]) -> list[Candidate]:
    """Move person candidates that are really places or parts of organisation names, and model
    organisations that name a person of the text to people."""
    agency_places = {c.agency_key[1] for c in orgs if c.agency_key and c.agency_key[1]}
    agency_first = {p.split()[0] for p in agency_places}
    place_keys = {norm_key(p.name) for p in places}
    org_names = {tuple(name_words(c.name)) for c in orgs if not c.agency_key
                 and len(c.name.split()) >= 2}
    # every run of words shorter than a whole organisation name: a person name lies inside one
    org_parts = {n[i:i + k] for n in org_names for k in range(len(n))
                 for i in range(len(n) - k + 1)}
    rule_org_keys = {norm_key(c.name) for c in orgs if c.source == "rule"}
    model_org_keys = {norm_key(c.name) for c in orgs if c.source == "model"}
    cued_people = {norm_key(c.name) for c in people if c.titled or c.role or c.source != "model"
                   and not c.notes.get("weak")}
    person_multi = {w for c in people if len(c.name.split()) >= 2 for w in name_words(c.name)}
    surname_tails = {tuple(name_words(c.name)[i:]) for c in people
                     if len(c.name.split()) >= 2 for i in range(1, len(c.name.split()))}
    surname_tails |= {tuple(name_words(c.name)) for c in people
                      if c.source == "rule" and (c.titled or c.role or "appositive" in c.notes)}
    moved = [c.source == "model" and tuple(name_words(c.name)) in surname_tails for c in orgs]
    people.extend(Candidate("person", c.start, c.end, c.name, "model")
                  for c, m in zip(orgs, moved, strict=True) if m)
    orgs[:] = [c for c, m in zip(orgs, moved, strict=True) if not m]
    keep = []
    for c in people:
        if c.titled or c.role or c.source == "known":
            keep.append(c)
            continue
        key = norm_key(c.name)
        words = key.split()
        if key in rule_org_keys or (c.source == "model" and key in model_org_keys
                                    and len(words) >= 2 and key not in cued_people
                                    and tuple(words) not in surname_tails):
            # "<firm> said", "a visit to <hospital>": named as an organisation elsewhere, and
            # nothing in the text says person
            orgs.append(Candidate("organization", c.start, c.end, c.name, c.source))
            continue
        if key in agency_places or key in place_keys or (
                len(words) == 1 and key in agency_first and key not in person_multi):
            places.append(Candidate("place", c.start, c.end, c.name, c.source))
            continue
        inside = tuple(words) in org_parts
        if inside and key not in person_multi - set(words):
            orgs.append(Candidate("organization", c.start, c.end, c.name, c.source))
            continue
        keep.append(c)
    return keep
