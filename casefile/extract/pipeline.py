"""``extract_suggestions``: text (+ published date, + the case's knowledge) -> suggestions.

Layers: rules (always), the spaCy model (when installed and asked for), the case's known items;
then cleanup, alias joining, roles and affiliations, dates and events, follow-ups and claims.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any, Literal

from casefile.extract import lexicon as lx
from casefile.extract.aliases import PersonCluster, cluster_people, role_of
from casefile.extract.claims import find_claims, is_lead_in
from casefile.extract.cleanup import clean_org, clean_person, clean_place
from casefile.extract.context import (
    after_job_title,
    and_names,
    cut_short,
    lone_word,
    lowercase_heads,
    names_a_thing,
    reassign_people,
    record_sources,
    retype_lists,
)
from casefile.extract.dates import DatePhrase, find_anchored, find_dates, is_future, shift
from casefile.extract.followups import find_followups
from casefile.extract.language import identify, reads, unread_result
from casefile.extract.model import (
    ModelEntity,
    chosen_model,
    load_pipeline,
    model_entities,
    model_in_use,
)
from casefile.extract.org_context import channels, written_as_places
from casefile.extract.organizations import (
    BODY,
    GOV,
    LAW,
    OrgCluster,
    cluster_organizations,
    find_organizations,
)
from casefile.extract.people import ROLE_NOUNS, find_people
from casefile.extract.places import find_places, outside_names
from casefile.extract.repairs import looks_like_person, split_entity, split_rule_org
from casefile.extract.spans import SpanSet
from casefile.extract.text import fold, norm_key, sentence_index, sentence_spans
from casefile.extract.types import Candidate, KnownItem, skipped_result

Mode = Literal["auto", "rules"]


def _overlaps(a: Candidate | tuple[int, int], spans: SpanSet | Iterable[tuple[int, int]]
              ) -> bool:
    s, e = (a.start, a.end) if isinstance(a, Candidate) else a
    if isinstance(spans, SpanSet):
        return spans.overlaps(s, e)  # O(log n)
    return any(s < e2 and s2 < e for s2, e2 in spans)


def _model_candidates(ft: str, text: str, model: str | None = None) -> list[Candidate] | None:
    nlp = load_pipeline(model)
    if nlp is None:
        return None
    out: list[Candidate] = []
    for whole in model_entities(nlp, text):
        for piece in split_entity(ft, whole):
            ent = replace(whole, label=piece.label, start=piece.start, end=piece.end)
            out.extend(_model_candidate(ft, ent))
    return out


def _model_candidate(ft: str, ent: ModelEntity) -> list[Candidate]:
    """The candidate one (repaired) model entity gives: cleaned, or none."""
    if ent.label == "PERSON":
        if re.search(r"(?:^|[\s(])(?:[Aa]n?|[Tt]he)[ ]$", ft[max(0, ent.start - 5):ent.start]) \
                or (ent.pos and ent.pos[0] == "DET"):
            return []  # "a Grocery Store", "the Berm": people are not written with an article
        words = ft[ent.start:ent.end].split()
        if len(words) >= 2 and words[-1].lower() in lx.ORG_LAST_WORDS:  # "... Productions"
            span = clean_org(ft, ent)
            return [Candidate("organization", span[0], span[1], ft[span[0]:span[1]], "model")
                    ] if span else []
        got = clean_person(ft, ent)
        if got and _INSTITUTION_AFTER.match(ft, got[1]):  # "<name> hospital": named after
            return [Candidate("organization", got[0], got[1], ft[got[0]:got[1]], "model")]
        if got and not got[2] and any(p in {"ADJ", "NOUN", "VERB"} for p in ent.pos):
            return []  # "Full Fact" (ADJ NOUN): common words, not a personal name
        if got:
            s, e, title = got
            c = Candidate("person", s, e, ft[s:e], "model", titled=title is not None)
            if title and title in lx.TITLES:
                c.role = lx.TITLES[title]
            return [c]
    elif ent.label == "ORG":
        if _PLACE_NOUN_AFTER.match(ft, ent.end):
            return []  # "Orange and Riverside counties"
        span = clean_org(ft, ent)
        if span and after_job_title(ft, span[0]) and _AT_ORG.match(ft, span[1]):
            return []  # "<job> of <unit> at <organisation>": a unit of that organisation
        if span and _person_written_as_org(ft, *span):
            return [Candidate("person", span[0], span[1], ft[span[0]:span[1]], "model")]
        if span:
            return [Candidate("organization", span[0], span[1], ft[span[0]:span[1]], "model")]
    elif ent.label in {"GPE", "LOC", "FAC"}:
        span = clean_place(ft, ent)
        if span:
            return [Candidate("place", span[0], span[1], ft[span[0]:span[1]], "model")]
    return []


def _said_people_the_model_contradicts(people: list[Candidate], model: list[Candidate]
                                       ) -> list[Candidate]:
    """Drop rule people found only through a speech verb ("<X> said") where the model reads an
    organisation or place and no person: the "said" rule has no person cue of its own, so the
    model's ORG wins ("<company> said")."""
    others = SpanSet((c.start, c.end) for c in model if c.kind != "person")
    persons = SpanSet((c.start, c.end) for c in model if c.kind == "person")
    keep = []
    for c in people:
        if c.notes.get("said_only") and _overlaps(c, others) and not _overlaps(c, persons):
            continue
        keep.append(c)
    return keep


_AT_ORG = re.compile(r"[ ](?:at|of)[ ](?:the[ ])?[A-Z]")
_INSTITUTION_AFTER = re.compile(r"[ ](?:hospital|university|college|school|church|prison|"
                                r"foundation|institute|museum|library|airport|stadium)\b")
_PLACE_NOUN_AFTER = re.compile(r"[ ](?:county|counties|city|cities|state|states|area|areas|"
                               r"region|regions|province|provinces|valley)\b")
# Nouns for people that stand right before a name ("host <name>", "singer <name>").
_PERSON_NOUNS = ROLE_NOUNS | {"host", "anchor", "commentator", "star", "singer", "actor",
                              "actress", "rapper", "musician", "artist", "comedian", "designer",
                              "pundit", "novelist", "poet", "player", "boss", "founder"}


def _person_written_as_org(ft: str, start: int, end: int) -> bool:
    """True if a model ORG at ``ft[start:end]`` is written as a person: a personal name after a
    noun for a person ("host <name>"), or a personal name followed by "of <organisation>"."""
    if not looks_like_person(ft[start:end].split()) or after_job_title(ft, start):
        return False
    m = re.search(r"(?:^|[ (])([a-z]+)[ ]$", ft[max(0, start - 30):start])
    if m and m.group(1) in _PERSON_NOUNS and not re.match(r"[ ][a-z]", ft[end:end + 2]):
        return True
    return bool(re.match(r",?[ ](?:of|at|from)[ ](?:the[ ])?[A-Z]|,[ ]who\b", ft[end:end + 12]))


def _known_candidates(ft: str, known: Sequence[KnownItem],
                      not_people: Sequence[Candidate] = ()) -> list[Candidate]:
    """Where the case's known items are named in ``ft``: each name and alias, and a known
    person's surname alone. A bare surname where the model or the rules read a place or an
    organization ("the State of <Surname>") counts only when the text also names the person
    in full (a story names its people in full first); else it is that place or body."""
    out = []
    others = SpanSet((c.start, c.end) for c in not_people)
    for k in known:
        full = False
        for form in (k.name, *k.aliases):
            f = fold(form).strip()
            if not f:
                continue
            for m in re.finditer(rf"(?<![\w'-]){re.escape(f)}(?![\w-])", ft):
                out.append(Candidate(k.kind, m.start(), m.end(), f, "known", known=k))
                full = full or len(f.split()) >= 2
        if k.kind == "person" and len(k.name.split()) >= 2:
            for m in re.finditer(rf"(?<![\w'.-]){_surname_pattern(fold(k.name))}(?![\w-])", ft):
                if _next_to_capital(ft, m.start(), m.end()):
                    continue
                bare = Candidate("person", m.start(), m.end(), m.group(), "known")
                if full or not _overlaps(bare, others):
                    out.append(bare)
    return out


def _next_to_capital(ft: str, start: int, end: int) -> bool:
    """True if a capitalised word stands right before or after ``ft[start:end]`` (so the word
    is part of a longer name)."""
    before = ft[max(0, start - 25):start]
    return bool(re.search(r"[A-Z][\w'-]*[ ]$", before) or re.match(r"[ ][A-Z]", ft[end:end + 3]))


def _agency_key_of(name: str) -> tuple[str, str] | None:
    found = find_organizations(fold(name))
    return next((c.agency_key for c in found if c.agency_key and c.agency_key[1]), None)


def _attach_known(cands: list[Candidate], known: Sequence[KnownItem]) -> None:
    """Mark organisation and place candidates that name a known item."""
    for k in known:
        if k.kind == "person":
            continue
        forms = {norm_key(f) for f in (k.name, *k.aliases)}
        akey = _agency_key_of(k.name) if k.kind == "organization" else None
        for c in cands:
            if c.kind != k.kind or c.known:
                continue
            if norm_key(c.name) in forms or (akey and c.agency_key == akey):
                c.known = k


_CONTINUES = re.compile(r"[ ](?:of|on|for|to|in)[ ](?:the[ ])?[A-Z]|-[A-Z]")


def _longer_model_orgs(rule_orgs: list[Candidate], model: list[Candidate], ft: str
                       ) -> list[Candidate]:
    """Rule organisations the model writes longer: where a model organisation starts inside a
    rule one and goes on past its end with "of/on/for/to/in <Capitalised>" ("<X> Committee"
    + " on <Subject>") or a hyphen and a capital ("<X> Institute" + "-<Y> Center"), the
    model's span replaces the rule's (the rule's pattern stopped at its organisation word,
    the name goes on). A rule organisation the model does not write longer takes in
    "of <place>" when the model reads a place right there ("<X> Bank of <City>")."""
    longer = [c for c in model if c.kind == "organization"]
    places = [c for c in model if c.kind == "place"]
    out = []
    for c in rule_orgs:
        better = next((m for m in longer if c.start <= m.start < c.end < m.end
                       and _CONTINUES.match(ft, c.end)), None)
        if better is None and " of " not in c.name:  # "<X> Bank" + " of <place>"
            m = re.match(r"[ ]of[ ](?:the[ ])?", ft[c.end:c.end + 9])
            at = c.end + m.end() if m else -1
            place = next((p for p in places if p.start == at), None)
            if place is not None:
                better = replace(c, end=place.end, name=ft[c.start:place.end])
        if better is None:
            out.append(c)
            continue
        out.append(replace(c, start=better.start, end=better.end, name=better.name,
                           notes=dict(c.notes)))
    return out


def _resolve_overlaps(groups: list[list[Candidate]], blocked: list[tuple[int, int]]
                      ) -> list[Candidate]:
    """Keep candidates in priority order, dropping any that overlaps one already kept (model
    candidates also may not overlap a title region)."""
    kept: list[Candidate] = []
    spans = SpanSet()
    blocked_spans = SpanSet(blocked)
    for group in groups:
        for c in sorted(group, key=lambda c: (c.start, -(c.end - c.start))):
            if c.end <= c.start or _overlaps(c, spans):
                continue
            if c.source == "model" and _overlaps(c, blocked_spans):
                continue
            kept.append(c)
            spans.add(c.start, c.end)
    return kept


def _surname_pattern(name: str) -> str:
    """Regex for the surname of a full name: the last word, or from the first particle on
    ("van der Berg", "de la Cruz"), the particle's first letter in either case."""
    words = name.split()
    while len(words) > 2 and words[-1].rstrip(".,").lower() in {"jr", "sr", "ii", "iii", "iv"}:
        words = words[:-1]  # "Patrick Okonjo Jr." -> "Okonjo"
    for i in range(1, len(words) - 1):
        if words[i].lower() in lx.PARTICLES:
            tail = " ".join(words[i:])
            return f"[{tail[0].upper()}{tail[0].lower()}]{re.escape(tail[1:])}"
    return re.escape(words[-1])


def _surname_word(words: list[str]) -> str:
    """The surname of comparison words, past a generational suffix ("jr.")."""
    while len(words) > 2 and words[-1].rstrip(".,") in {"jr", "sr", "ii", "iii", "iv"}:
        words = words[:-1]
    return words[-1]


def _surname_mentions(ft: str, clusters: list[PersonCluster], taken: SpanSet) -> None:
    """Add standalone surname mentions ("Mercer has resigned") to the one person with that
    surname; promote weak rule names whose surname recurs this way."""
    last: dict[str, list[PersonCluster]] = {}
    for cl in clusters:
        if len(cl.words) >= 2:
            last.setdefault(_surname_word(cl.words), []).append(cl)
    for cl in clusters:
        if len(cl.words) < 2 or len(last[_surname_word(cl.words)]) != 1:
            continue
        sample = next((c for c in cl.cands if len(c.name.split()) >= 2), None)
        if sample is None:
            continue
        pattern = _surname_pattern(sample.name)
        for m in re.finditer(rf"(?<![\w'.-]){pattern}(?![\w-])", ft):
            if _overlaps((m.start(), m.end()), taken):
                continue
            if _next_to_capital(ft, m.start(), m.end()):
                continue
            cl.cands.append(Candidate("person", m.start(), m.end(), m.group(), "rule"))
            taken.add(m.start(), m.end())


def _orgs_that_are_places(clusters: list[OrgCluster], places: list[Candidate],
                          orgs: list[Candidate]) -> list[OrgCluster]:
    """Drop organisations the model made of a place: only model mentions, and the name is a
    place written "<Town>, <State>", a state, or the place part of an agency's name."""
    strong = {norm_key(p.name) for p in places if p.source == "rule"}
    strong |= {c.agency_key[1] for c in orgs if c.agency_key and c.agency_key[1]}
    keep = []
    for cl in clusters:
        if all(c.source == "model" for c in cl.cands) and all(
                norm_key(c.name) in strong for c in cl.cands):
            places.extend(Candidate("place", c.start, c.end, c.name, "model") for c in cl.cands)
            continue
        keep.append(cl)
    return keep


_OWNER_BEFORE = re.compile(
    r"(?:[\w.]'s|s'|\b(?:[Ii]ts|[Oo]ur|[Tt]heir|[Hh]is|[Hh]er|[Mm]y|[Yy]our))[ ]$")


def _owned_thing(ft: str, cl: OrgCluster) -> bool:
    """A name only the model took for an organisation, and every time written as something
    owned ("<company>'s <X>", "its <X>", "our <X>"): a product, vehicle or project, not an
    organisation. Acronyms of it ("(<ACR>)") go with it."""
    if any(c.source != "model" for c in cl.cands):
        return False
    named = [c for c in cl.cands if not re.fullmatch(r"[A-Z.]{2,8}", c.name)]
    if any(c.name.split()[-1].lower() in lx.ORG_LAST_WORDS for c in named):
        return False  # "<university>'s <X> Center": an organisation of its own
    return bool(named) and all(_OWNER_BEFORE.search(ft, max(0, c.start - 8), c.start)
                               for c in named)


def _in_quote(ft: str, pos: int) -> bool:
    """True if ``pos`` lies inside a quotation (an odd number of double quotes before it in
    its paragraph)."""
    para = ft.rfind("\n", 0, pos) + 1
    return ft.count('"', para, pos) % 2 == 1


def _quoted_word_only(ft: str, cl: PersonCluster) -> bool:
    """A one-word name only the model found, and only inside quotations ("Sunshine is the best
    disinfectant," he said): a common noun at the start of a quoted sentence, not a person."""
    return (not cl.known and len(cl.words) == 1
            and all(c.source == "model" and not c.titled and not c.role for c in cl.cands)
            and all(_in_quote(ft, c.start) for c in cl.cands))


_SAID_WORDS = r"(?:said|says|announced|reported|confirmed|denied|stated|added|told)\b"


def _on_capitals_line(ft: str, pos: int) -> bool:
    """True if ``pos`` is on a line written all in capitals (a headline, a table's header):
    names found only there are not suggested unless the body confirms them."""
    start = ft.rfind("\n", 0, pos) + 1
    end = ft.find("\n", pos)
    line = ft[start:end if end >= 0 else len(ft)]
    letters = [ch for ch in line if ch.isalpha()]
    return len(letters) >= 12 and not any(ch.islower() for ch in letters)


def _shouted_word(ft: str, cl: OrgCluster) -> bool:
    """An all-capital word only the model took for an organisation, written once, that the
    text neither defines ("(DCF)") nor knows as an agency: a shouted word ("VOTE"), a grade
    ("AAA") or an abbreviation ("ASAP", "CT scan"), not an organisation."""
    if len(cl.cands) != 1 or any(c.source != "model" for c in cl.cands):
        return False
    c = cl.cands[0]
    name = ft[c.start:c.end]
    if not re.fullmatch(r"[A-Z]{2,5}", name) or name in lx.AGENCY_ACRONYMS:
        return False
    if ft[c.start - 1:c.start] == "(" and ft[c.end:c.end + 1] == ")":
        return False  # defined: "(DCF)"
    # written as an organisation is: "the <X>", "<X> said", "<X>'s"
    return not (re.search(r"\b[Tt]he[ ]$", ft[max(0, c.start - 4):c.start])
                or re.match(rf"(?:'s\b|[ ]{_SAID_WORDS})", ft[c.end:c.end + 12]))


def _share_prosecutors_office(people: list[dict[str, Any]]) -> None:
    """A prosecutor named without a place ("Deputy Prosecutor X") works for the one
    prosecutor's office the story names through another prosecutor, if there is one."""
    offices = {p["affiliation"] for p in people if p["affiliation"] and re.search(
        r"(?:Prosecutor|Attorney)'s Office$", p["affiliation"])}
    if len(offices) != 1:
        return
    for p in people:
        head = (p["role"] or "").split(" (")[0]
        if p["affiliation"] is None and head in lx.PROSECUTOR_TITLES and head != "Public Defender":
            p["affiliation"] = next(iter(offices))


def _mentions(text: str, cands: Iterable[Candidate]) -> list[dict[str, object]]:
    seen = set()
    out: list[dict[str, object]] = []
    for c in sorted(cands, key=lambda c: c.start):
        if (c.start, c.end) in seen:
            continue
        seen.add((c.start, c.end))
        out.append({"start": c.start, "end": c.end, "text": text[c.start:c.end]})
    return out


# Organisation kinds a noun can stand for ("the company's owner" -> a company); None: any
# organisation but a news outlet.
_NOUN_KINDS: dict[str, set[str] | None] = {
    "company": {"company"}, "firm": {"company"}, "bank": {"company"}, "union": {"union"},
    "agency": {GOV, LAW}, "department": {GOV, LAW}, "office": {GOV, LAW},
    "bureau": {GOV, LAW}, "ministry": {GOV}, "board": {BODY}, "council": {BODY},
    "commission": {BODY}, "committee": {BODY}, "district": {"school"}, "school": {"school"},
    "university": {"school"}, "college": {"school"}, "hospital": {"hospital"},
    "court": {"court"}, "newspaper": {"news outlet"}, "paper": {"news outlet"},
    "station": {"news outlet"}, "network": {"news outlet"},
}
_DATELINE = re.compile(
    r"(?m)^[ \t]*(?P<city>[A-Z][A-Z.'-]+(?:[ ][A-Z][A-Z.'-]+){0,3})(?:,[ ][A-Z][\w.]*"
    r"(?:[ ][A-Z][\w.]*)?)?(?:[ ]\([^)\n]{1,30}\))?[ ]*(?:\u2014|--?)[ ]")


def dateline_city(ft: str) -> str | None:
    """The city of a story's dateline ("PORT ELLIS, Ore. (AP) — ..."), in the case the text
    writes it elsewhere ("Port Ellis"), else title-cased; None without a dateline."""
    m = _DATELINE.search(ft[:2000])
    if not m or m.group("city") in lx.NEWS_OUTLETS:
        return None
    city = m.group("city")
    for other in re.finditer(rf"\b{re.escape(city)}\b", ft, re.I):
        if not other.group().isupper():
            return other.group()
    return city.title()


def _coref_org(noun: str, at: int, orgs: list[OrgCluster], ft: str,
               sentences: list[tuple[int, int]]) -> str | None:
    """The organisation a noun before a name stands for ("Its president", "the company's
    owner", "a union spokesman"): one of the fitting kind mentioned in this or the two
    sentences before, preferring one the noun itself names ("the chapter of the X"), then the
    subject of an earlier sentence, then the nearest."""
    kinds = _NOUN_KINDS.get(noun)
    si = sentence_index(sentences, at)
    lo = sentences[max(0, si - 2)][0]
    found: list[tuple[int, int, OrgCluster]] = []
    for o in orgs:
        if (kinds is not None and o.kind not in kinds) or (
                kinds is None and o.kind == "news outlet"):
            continue
        for c in o.cands:
            if lo <= c.start < at:
                named = noun not in {"its", ""} and bool(re.search(
                    rf"\b{noun}[ ]of[ ](?:the[ ])?$", ft[max(0, c.start - 40):c.start], re.I))
                s0 = sentences[sentence_index(sentences, c.start)][0]
                subject = c.start < sentences[si][0] and len(ft[s0:c.start].split()) <= 1
                found.append((2 if named else 1 if subject else 0, c.start, o))
    if not found:
        return None
    return max(found, key=lambda x: (x[0], x[1]))[2].name


class _Context:
    """What affiliations are read against: the text, its sentences and dateline city."""

    def __init__(self, ft: str, sentences: list[tuple[int, int]]) -> None:
        self.ft = ft
        self.sentences = sentences
        self.city = dateline_city(ft)


def _affiliation(cl: PersonCluster, orgs: list[OrgCluster], role: str | None,
                 ctx: _Context | None = None) -> str | None:
    def org_at(span: str) -> str | None:
        s, e = (int(x) for x in span.split(":"))
        for o in orgs:
            if any(c.start < e and s < c.end for c in o.cands):
                return o.name
        return None

    ordered = sorted(cl.cands, key=lambda c: (not c.titled, c.start))
    for c in ordered:
        if c.agency_key:
            for o in orgs:
                if any(oc.agency_key == c.agency_key for oc in o.cands):
                    return o.name
        if "party" in c.notes and c.affiliation:
            return c.affiliation
        if "affiliation_span" in c.notes:
            got = org_at(c.notes["affiliation_span"])
            if got:
                return got
        if c.affiliation:
            return c.affiliation
    base = role.split(" (")[0].lower() if role else ""
    if base:
        for o in orgs:  # "Inspector General X" -> "Office of the Inspector General"
            if o.name.lower() in {f"office of the {base}", f"office of {base}",
                                  f"{base}'s office"}:
                return o.name
    if ctx is not None:
        for c in ordered:
            noun = c.notes.get("coref")
            if noun == "city" and ctx.city:
                return f"City of {ctx.city}"
            if noun:
                got = _coref_org(noun, c.start, orgs, ctx.ft, ctx.sentences)
                if got:
                    return got
    law = [o for o in orgs if o.kind == LAW]
    if any("department" in c.notes for c in cl.cands) and len(law) == 1:
        return law[0].name
    title_roles = {c.role for c in cl.cands if c.role}
    if title_roles & lx.POLICE_TITLES or any("department" in c.notes for c in cl.cands):
        # a rank with no agency named: the story's (first-named) local police department
        police = [o for o in orgs if o.agency_key and o.agency_key[0] == "police"
                  and o.agency_key[1] and not o.agency_key[1].endswith("state")
                  and o.agency_key[1].title() not in lx.US_STATES]
        if police:
            return min(police, key=lambda o: min(c.start for c in o.cands)).name
    if title_roles & lx.CITY_TITLES or base in {t.lower() for t in lx.CITY_TITLES}:
        cities = [o for o in orgs if o.name.startswith("City of ")]
        if len(cities) == 1:
            return cities[0].name
        if ctx is not None and ctx.city:
            return f"City of {ctx.city}"
    for word, pattern in (("board", r"\bBoard\b"), ("council", r"\bCouncil$"),
                          ("commission", r"\bCommission")):
        if word in base:
            bodies = [o for o in orgs if re.search(pattern, o.name)]
            if len(bodies) == 1:
                return bodies[0].name
    if "superintendent" in base:
        boards = [o for o in orgs if re.search(
            r"\b(?:School[ ]Board|Board[ ]of[ ]Education|School[ ]District|School[ ]Committee)"
            r"$", o.name)]
        if boards:
            return min(boards, key=lambda o: min(c.start for c in o.cands)).name
    if role and (base in lx.SCHOOL_ROLES or any(w in lx.SCHOOL_ROLES for w in base.split())):
        schools = [o for o in orgs if o.kind == "school"]
        if len(schools) == 1:
            return schools[0].name
    return cl.known.affiliation if cl.known else None


def _events(ft: str, text: str, sentences: list[tuple[int, int]], published: dt.date | None
            ) -> list[dict[str, object]]:
    dated: list[tuple[int, str, str]] = []  # (sentence index, date, precision)
    found: list[DatePhrase] = []
    for s, e in sentences:
        sent = ft[s:e]
        if is_lead_in(sent):  # "As X wrote earlier today:" dates no event of its own
            continue
        found += [DatePhrase(d.start + s, d.end + s, d.text, d.date, d.precision)
                  for d in find_dates(sent, published, "future" if is_future(sent) else "past")]
    for d in found:
        dated.append((sentence_index(sentences, d.start), d.date, d.precision))
    for a in find_anchored(ft):
        si = sentence_index(sentences, a.start)
        earlier = [(i, date) for i, date, _ in dated if i <= si and i != si or i < si]
        anchor = None
        if a.noun:
            for i, date in sorted(earlier, reverse=True):
                s, e = sentences[i]
                if re.search(rf"\b{re.escape(a.noun)}\b", ft[s:e], re.I):
                    anchor = date
                    break
        elif earlier:
            anchor = max(earlier)[1]
        if anchor is None:
            continue
        got = shift(dt.date.fromisoformat(anchor), a.amount, a.unit)
        if got:
            dated.append((si, got.isoformat(), "day" if a.unit == "day" else "approximate"))
    out: list[dict[str, object]] = []
    seen = set()
    for si, date, precision in sorted(dated):
        if (si, date) in seen:
            continue
        seen.add((si, date))
        s, e = sentences[si]
        out.append({"date": date, "precision": precision, "text": text[s:e], "start": s,
                    "end": e})
    return out


def extract_suggestions(text: str, published: dt.date | None = None, *,
                        known: Sequence[KnownItem] = (), rejected: Iterable[str] = (),
                        mode: Mode = "auto", model: str | None = None) -> dict[str, Any]:
    """Suggest people, organisations, places, events, follow-ups and claims found in ``text``.

    Returns the ``casefile extract --json`` shape::

        {"people": [{"name", "role", "affiliation", "known", "mentions": [{"start","end","text"}]}],
         "organizations": [{"name", "kind", "role": None, "affiliation": None, "known",
                            "mentions"}],
         "places": [{"name", "known", "mentions"}],
         "events": [{"date", "precision", "text", "start", "end"}],
         "followups": [{"text", "kind", "due", "start", "end"}],
         "claims": [{"text", "start", "end", "attributed_to", "via", "status"}],
         "mode": "spacy" | "rules" | "skipped",
         "language": "en" (the text's ISO 639 language code, None when too short to tell),
         "model": "en_core_web_sm 3.8.0" (the spaCy pipeline's name and version) | None,
         "skipped": "suggestions skipped: ..." (only for a text too long to read)}

    Offsets are Python str indices into ``text`` (``text[start:end]`` is the mention); dates
    are ISO 8601 strings. ``published`` anchors relative dates and due dates (without it those
    are None/omitted). ``known`` items are found in the text and returned under their known name
    ("known": true); names in ``rejected`` (compared ignoring case and apostrophe style) are
    never suggested. ``mode="auto"`` uses an installed spaCy English pipeline, else rules;
    ``mode="rules"`` never imports spaCy. ``model`` chooses the spaCy pipeline in "auto" mode:
    an installed package name or a pipeline folder (default: ``CASEFILE_SPACY_MODEL``, else the
    installed en_core_web_* one); "model" in the result says which one made the suggestions
    (None in rules mode). A text longer than :data:`casefile.ingest.budget.MAX_SUGGEST_CHARS`
    is not read: the shape comes back empty with ``"mode": "skipped"`` and ``"skipped"``, the
    note saying why (:func:`casefile.extract.types.skipped_result`). Nor is a text in a language
    the suggestions do not read (:mod:`casefile.extract.language`): the same empty shape, the
    note naming the language and the pipeline that would read it, and "language". Raises
    ValueError for an unknown mode, ModelError (a CasefileError) if a chosen model is not
    installed or cannot load.
    """
    if mode not in ("auto", "rules"):
        raise ValueError(f"unknown extraction mode {mode!r} (use 'auto' or 'rules')")
    skipped = skipped_result(len(text))
    if skipped is not None:
        return skipped
    language = identify(text)
    if not reads(language, chosen_model(model) if mode == "auto" else None):
        assert language is not None
        return unread_result(language)
    ft = fold(text)
    sentences = sentence_spans(ft)
    known = list(known)
    rejected_keys = {norm_key(r) for r in rejected}

    rule_orgs = [piece for c in find_organizations(ft) for piece in split_rule_org(ft, c)]
    rule_orgs += [c for c in lowercase_heads(ft) + record_sources(ft)
                  if not _overlaps(c, [(o.start, o.end) for o in rule_orgs])]
    rule_people, title_orgs, blocked = find_people(ft)
    # "<job> of <unit>", "<job> for <subject> said": no person there
    rule_people = [c for c in rule_people if c.titled or not after_job_title(ft, c.start)]
    rule_places = find_places(ft)
    found = _model_candidates(ft, text, model) if mode == "auto" else None
    used = "spacy" if found is not None else "rules"

    strong = [c for c in rule_people if not c.notes.get("weak")]
    if found:
        strong = _said_people_the_model_contradicts(strong, found)
        persons = SpanSet((c.start, c.end) for c in found if c.kind == "person")
        rule_orgs = [c for c in rule_orgs  # "publisher <first> <last>": a person, not a firm
                     if not (c.notes.get("cued") and looks_like_person(c.name.split())
                             and (_overlaps(c, persons) or _person_written_as_org(
                                 ft, c.start, c.end)))]
        rule_orgs = _longer_model_orgs(rule_orgs, found, ft)
    weak = [c for c in rule_people if c.notes.get("weak")]
    model_cands = found or []
    towns = {(c.start, c.end) for c in rule_places if c.notes.get("town")}
    # "<Town>, <State>": the town is a place, whatever the model reads there
    model_cands = [c for c in model_cands if not (c.kind == "person" and not c.titled
                                                  and (c.start, c.end) in towns)]
    groups = [
        strong, title_orgs, rule_orgs,
        _known_candidates(ft, known, [c for c in model_cands + rule_places
                                      if c.kind in ("place", "organization")] + rule_orgs),
        [c for c in model_cands if c.kind == "person"],
        [c for c in model_cands if c.kind == "organization"],
        rule_places,
        [c for c in model_cands if c.kind == "place"],
        weak,
    ]
    kept = retype_lists(ft, _resolve_overlaps(groups, blocked))
    people = [c for c in kept if c.kind == "person"]
    orgs = [c for c in kept if c.kind == "organization"]
    places = [c for c in kept if c.kind == "place"]
    shown_on, places = channels(ft, places)
    orgs += shown_on
    people = reassign_people(people, orgs, places)
    for c in orgs:  # the place part of an agency name is a place too
        if c.agency_key and c.agency_key[1] and norm_key(ft[c.start:c.end]).startswith(
                c.agency_key[1]):
            n = len(c.agency_key[1])
            places.append(Candidate("place", c.start, c.start + n, ft[c.start:c.start + n],
                                    "rule"))
    _attach_known(orgs + places, known)

    person_known = [k for k in known if k.kind == "person"]
    pclusters, _unresolved = cluster_people(people, person_known)
    taken = SpanSet((c.start, c.end) for c in kept)
    _surname_mentions(ft, pclusters, taken)
    pclusters = [cl for cl in pclusters if cl.cands and not all(
        c.notes.get("weak") and len(c.name.split()) >= 2 for c in cl.cands)
        and not _quoted_word_only(ft, cl) and not lone_word(cl.cands)]
    oclusters = cluster_organizations(and_names(ft, orgs))
    oclusters = _orgs_that_are_places(oclusters, places, orgs)
    oclusters = written_as_places(ft, oclusters, places)
    oclusters = [cl for cl in oclusters if not _owned_thing(ft, cl) and not cut_short(ft, cl.cands)
                 and not names_a_thing(cl.name)]
    oclusters = [cl for cl in oclusters if not _shouted_word(ft, cl)
                 and not all(_on_capitals_line(ft, c.start) for c in cl.cands)]
    pclusters = [cl for cl in pclusters
                 if not all(_on_capitals_line(ft, c.start) for c in cl.cands)]

    out_people: list[dict[str, Any]] = []
    ctx = _Context(ft, sentences)
    for cl in sorted(pclusters, key=lambda cl: min(c.start for c in cl.cands)):
        if norm_key(cl.name) in rejected_keys:
            continue
        role = role_of(cl)
        out_people.append({"name": cl.name, "role": role,
                           "affiliation": _affiliation(cl, oclusters, role, ctx),
                           "known": cl.known is not None, "mentions": _mentions(text, cl.cands)})
    _share_prosecutors_office(out_people)
    out_orgs: list[dict[str, Any]] = []
    for oc in sorted(oclusters, key=lambda o: min(c.start for c in o.cands)):
        if norm_key(oc.name) in rejected_keys:
            continue
        kind = oc.kind
        if oc.name in lx.NEWS_OUTLETS:
            kind = "news outlet"
        out_orgs.append({"name": oc.name, "kind": kind, "role": None, "affiliation": None,
                         "known": any(c.known for c in oc.cands),
                         "mentions": _mentions(text, oc.cands)})
    org_keys = {norm_key(o["name"]) for o in out_orgs} | {
        norm_key(m["text"]) for o in out_orgs for m in o["mentions"]}
    person_keys = {norm_key(p["name"]) for p in out_people}
    # a place written inside a suggested organisation's or person's name ("<place> Sheriff's
    # Office") is part of that name, not a mention of the place; those spellings still help
    # to pick the place's name (a dateline's "RIDGEFIELD" is "Ridgefield")
    names = [(m["start"], m["end"]) for e in out_orgs + out_people for m in e["mentions"]]
    alone = {id(c) for c in outside_names(places, names)}
    by_place: dict[str, list[Candidate]] = {}
    for c in places:
        key = c.known.name if c.known else norm_key(c.name)
        if re.fullmatch(r"(?:[a-z]\.)+[a-z]?", key):
            key = key.replace(".", "")  # "U.S." and "US" are one place
        key = next((min(g) for g in lx.COUNTRY_VARIANTS if key in g), key)  # and "United States"
        by_place.setdefault(key, []).append(c)
    out_places: list[dict[str, Any]] = []
    for group in sorted(by_place.values(), key=lambda g: min(c.start for c in g)):
        credited = [c for c in group if id(c) in alone]
        if not credited:
            continue
        k = next((c.known for c in group if c.known), None)
        name = k.name if k else fold(max(group, key=lambda c: (not c.name.isupper(),
                                                                c.name[:1].isupper())).name)
        key = norm_key(name)
        if key in rejected_keys or key in org_keys or key in person_keys:
            continue
        out_places.append({"name": name, "known": k is not None,
                           "mentions": _mentions(text, credited)})

    outlets = {o["name"] for o in out_orgs if o["kind"] == "news outlet"}
    entities: list[tuple[int, int, str, str]] = [
        (m["start"], m["end"], p["name"], "person")
                for p in out_people for m in p["mentions"]]
    entities += [(m["start"], m["end"], o["name"],
                  "news outlet" if o["name"] in outlets else "organization")
                 for o in out_orgs for m in o["mentions"]]
    return {
        "people": out_people,
        "organizations": out_orgs,
        "places": out_places,
        "events": _events(ft, text, sentences, published),
        "followups": [{**f, "text": text[f["start"]:f["end"]]}
                      for f in find_followups(ft, sentences, published)],
        "claims": [{**c, "text": text[c["start"]:c["end"]]}
                   for c in find_claims(ft, sentences, entities)],
        "mode": used,
        "model": model_in_use(model) if found is not None else None,
        "language": language.code if language else None,
    }
