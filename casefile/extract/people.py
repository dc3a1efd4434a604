"""People found by rules: a title or rank before a name, bylines, and untitled names with
evidence (an age, a party note, an appositive role, a speech verb). Also the role and
affiliation each occurrence tells about its person.
"""

from __future__ import annotations

import re

from casefile.extract import lexicon as lx
from casefile.extract.organizations import ORGWORD, agency_candidate, place_key
from casefile.extract.text import CAPWORD, INITIAL, UPPER
from casefile.extract.types import Candidate

_PART = "|".join(sorted(lx.PARTICLES, key=len, reverse=True))
NAME = (rf"(?:{CAPWORD}|{INITIAL})(?:[ ](?:{INITIAL}|{CAPWORD}|(?:(?:{_PART})[ ])+{CAPWORD}))*")

# Titles that are ordinary words too: they count only when capitalised.
_CAP_ONLY = {"major", "general", "justice", "speaker", "chair", "father", "agent", "dean",
             "coach", "president", "director", "secretary", "minister", "delegate", "marshal",
             "warden", "principal", "chief", "bishop", "inspector", "commissioner", "reverend",
             "captain", "judge", "mayor", "governor", "senator", "representative", "sheriff",
             "deputy", "teacher", "officer", "detective", "professor"}


def _title_alt(keys: list[str]) -> str:
    parts = []
    for k in sorted(keys, key=len, reverse=True):
        pat = r"[ ]+".join(re.escape(w) for w in k.split())
        parts.append(pat)
    return "|".join(parts)


_TITLE_KEYS = [*lx.TITLES, *lx.HONORIFICS]
_TITLED = re.compile(
    rf"(?<![\w.'])(?P<title>(?i:{_title_alt(_TITLE_KEYS)}))(?<=[\w.])[ ]+(?P<name>{NAME})")
_PREFIX = re.compile(rf"(?:{ORGWORD}(?:'s)?[ ]){{1,5}}$")
_BYLINE = re.compile(
    rf"(?m)^[ \t]*(?:[Bb]y|BY|[Ff]ollow|[Ww]ritten by|[Rr]eporting by|[Cc]ontact)[ ]+"
    rf"(?P<name>{NAME})")
_SAID = r"(?:said|says|told|tells|wrote|writes|added|testified|tweeted|posted|explained|argued|" \
        r"noted|stated|recalled|asked|replied|responded|confirmed|denied|announced|insisted)"
_UNTITLED = re.compile(rf"(?<![\w.'-])(?P<name>{NAME})")
_APPOS = re.compile(
    rf"^,[ ](?:a|an|the)[ ](?P<role>(?:[a-z][\w'-]*[ ]){{0,5}}?[a-z][\w'-]*?)"
    rf"(?:[ ](?:of|for|at|with|in|on)[ ](?:the[ ])?(?P<org>{ORGWORD}(?:[ ](?:(?:of|and|for|the)"
    rf"[ ])*{ORGWORD})*))?(?=[,.;:)]|[ ](?:who|which|said|says|told|and|was|is|has)\b)")
_PARTY = re.compile(r"^,?[ ]\(?(?P<party>[DRIG])-(?P<state>(?:[A-Z][\w.]*)(?:[ ][A-Z][\w.]*)?)"
                    r"\)?")
_ROLE_BEFORE = re.compile(r"\b(?:[Tt]he|[Aa]n?|[Hh]is|[Hh]er|[Tt]heir)[ ]"
                          r"(?P<role>(?:[a-z][\w-]*[ ]){0,3}[a-z][\w-]*),[ ]$")
_AGE = re.compile(r"^,[ ](?P<age>\d{1,3})(?=[,.;])")
ROLE_NOUNS = {
    "spokesman", "spokeswoman", "spokesperson", "officer", "deputy", "attorney", "lawyer",
    "prosecutor", "teacher", "student", "director", "chief", "manager", "president", "founder",
    "owner", "chairman", "chairwoman", "member", "professor", "resident", "mother", "father",
    "son", "daughter", "wife", "husband", "sister", "brother", "friend", "neighbor", "reporter",
    "writer", "editor", "author", "analyst", "expert", "researcher", "official", "commissioner",
    "senator", "representative", "candidate", "worker", "employee", "nurse", "doctor",
    "physician", "judge", "detective", "investigator", "agent", "sergeant", "lieutenant",
    "captain", "coach", "principal", "executive", "ceo", "leader", "activist", "organizer",
    "pastor", "victim", "suspect", "witness", "survivor", "veteran", "councilman", "mayor",
    "governor", "secretary", "adviser", "advisor", "aide", "consultant", "economist",
    "scientist", "engineer", "historian", "lawmaker", "legislator", "partner", "head",
    "administrator", "superintendent", "counselor", "coordinator", "specialist", "sheriff",
    "defender", "clerk", "trooper", "journalist", "columnist", "blogger", "photographer",
    "producer", "chairperson", "treasurer", "auditor", "inspector", "minister", "ambassador",
    "spokespeople", "ombudsman", "paramedic", "firefighter", "dispatcher",
}


def _clean_name(ft: str, start: int, end: int) -> tuple[int, int] | None:
    """Trim a name match: drop leading function words/verbs/honorifics and trailing words
    that cannot end a name (months, weekdays, organisation words). None if nothing is left."""
    while True:
        seg = ft[start:end]
        m = re.match(r"([^\W\d_]+\.?)[ ]", seg)
        if m and (m.group(1).lower() in lx.FUNCTION_WORDS
                  or m.group(1).lower() in lx.LEADING_VERBS
                  or m.group(1).lower() in lx.HONORIFICS):
            start += m.end()
            continue
        m2 = re.search(r"[ ]([^\W\d_][\w'.-]*)$", seg)
        if m2:
            w = m2.group(1).lower().rstrip(".")
            if w in lx.NOT_NAME_WORDS or w in lx.STREET_WORDS:
                return None  # "... High School", "Elm Street": not a person
            if w in lx.MONTHS or w in lx.WEEKDAYS or w in lx.PARTICLES:
                end = start + m2.start()
                continue
        break
    seg = ft[start:end]
    if not seg or not seg[0].isupper() or seg.endswith("."):
        # a bare initial or an abbreviation at the end is not a full name
        if seg.endswith(".") and len(seg.split()) > 1 and not re.search(r"\b\w\.$", seg):
            return start, end
        if not seg or not seg[0].isupper():
            return None
        if re.search(r"(?:^|[ ])\w\.$", seg):
            return None
    return start, end


def is_bad_name(name: str) -> bool:
    """True if ``name`` cannot be a person's name (a platform, product, month, organisation
    word, street, acronym, or a single function word)."""
    low = name.lower()
    ws = low.split()
    if not ws or any(ch.isdigit() for ch in name):
        return True
    if low in lx.PLATFORMS or low in lx.PRODUCTS or name in lx.NEWS_OUTLETS:
        return True
    if name in lx.US_STATES or low in lx.MONTHS or low in lx.WEEKDAYS:
        return True
    if ws[-1] in lx.NOT_NAME_WORDS or ws[-1] in lx.STREET_WORDS:
        return True
    if len(ws) == 1 and (low in lx.FUNCTION_WORDS or low in lx.TITLES or low in lx.LEADING_VERBS):
        return True
    if re.fullmatch(r"[A-Z]{2,}", name):
        return True
    return any(w in lx.TITLES and not w.endswith(".") and i == len(ws) - 1
               for i, w in enumerate(ws))


def _prefix_affiliation(ft: str, title_start: int, title: str, role: str,
                        out_orgs: list[Candidate], cand: Candidate) -> str:
    """Look left of a title for a place or organisation ("<place> Police Chief"). Sets the
    candidate's affiliation (an agency key or text), adds the agency it names to ``out_orgs``
    and returns the role, possibly with a modifier ("State Attorney General")."""
    m = _PREFIX.search(ft[max(0, title_start - 90):title_start])
    if not m:
        return role
    ps = title_start - len(m.group())
    words = m.group().split()
    while words and words[0].lower() in lx.FUNCTION_WORDS:
        ps += len(words[0]) + 1
        words = words[1:]
    if not words:
        return role
    if len(words) == 1 and words[0].lower() in lx.TITLE_MODIFIERS:
        return f"{words[0]} {role}"
    org_end = title_start - 1  # the agency's words end before the title by default
    kind = ""
    if words[-1] == "Sheriff's":
        words = words[:-1]
        kind = "sheriff"
    elif words[-1] == "Police":
        words = words[:-1]
        kind = "police"
    elif title.startswith("sheriff's"):
        kind = "sheriff"
        org_end = title_start + len("sheriff's")
    elif role == "Sheriff" or role == "Undersheriff":
        kind = "sheriff"
        org_end = title_start + len(title)
    elif role == "Police Chief" and title.startswith("police"):
        kind = "police"
        org_end = title_start + len("police")
    elif role in lx.POLICE_TITLES and role not in {"Chief", "Deputy Chief"}:
        kind = "police"
    elif role in lx.FIRE_TITLES:
        kind = "fire"
        org_end = title_start + len("fire")
    if not words:
        return role
    place = " ".join(words)
    pe = ps + len(place)
    if kind:
        org = agency_candidate(ft, kind, ps, pe, org_end)
        out_orgs.append(org)
        cand.agency_key = (kind, place_key(place))
    elif role in lx.CITY_TITLES:
        cand.affiliation = place if place.startswith("City of") else f"City of {place}"
    elif role in lx.PROSECUTOR_TITLES:
        cand.affiliation = f"{place} {role}'s Office"
    else:
        cand.notes["affiliation_span"] = f"{ps}:{pe}"
        cand.affiliation = place
    return role


def _after_name(ft: str, cand: Candidate) -> None:
    """Read what follows a name: age, party note, appositive role and organisation; and a
    role right before it ("the suspect, Jonah Mercer")."""
    before = _ROLE_BEFORE.search(ft[max(0, cand.start - 60):cand.start])
    if before and any(w in ROLE_NOUNS for w in before.group("role").split()):
        cand.notes["appositive"] = before.group("role")
    rest = ft[cand.end:cand.end + 160]
    m = _AGE.match(rest)
    if m:
        cand.notes["age"] = m.group("age")
        rest = rest[m.end():]
    m = _PARTY.match(rest)
    if m:
        party = lx.PARTIES.get(m.group("party"))
        state = m.group("state").rstrip(",")
        cand.notes["party"] = f"{m.group('party')}-{state}"
        if party:
            cand.affiliation = party
        return
    m = _APPOS.match(rest)
    if m and any(w in ROLE_NOUNS for w in re.split(r"[ -]", m.group("role"))):
        role = re.sub(r"^[a-z]+'s ", "", m.group("role"))  # "the company's chief engineer"
        cand.notes["appositive"] = role
        if m.group("org"):
            org_start = cand.end + (m.start("org") if m.start("org") >= 0 else 0)
            cand.notes["affiliation_span"] = f"{org_start}:{org_start + len(m.group('org'))}"
            title = lx.TITLES.get(role.lower())
            if title in lx.PROSECUTOR_TITLES and not re.search(
                    r"\b(?:Office|Department)$", m.group("org")):
                cand.affiliation = f"{m.group('org')} {title}'s Office"
            else:
                cand.affiliation = m.group("org")
        elif re.search(r"\b(department|agency|office)\b", m.group("role")):
            cand.notes["department"] = "1"


def find_people(ft: str, want_untitled: bool = True) -> tuple[list[Candidate], list[Candidate],
                                                              list[tuple[int, int]]]:
    """Rule candidates for people in folded text ``ft``.

    Returns (people, agencies named by title prefixes, blocked spans). Blocked spans cover the
    titles and their prefixes, where a model's entities are not to be trusted ("Springs City").
    Untitled names need evidence: an age, a party note, an appositive role, or a speech verb.
    """
    people: list[Candidate] = []
    orgs: list[Candidate] = []
    blocked: list[tuple[int, int]] = []
    taken: list[tuple[int, int]] = []
    for m in _TITLED.finditer(ft):
        title = re.sub(r"\s+", " ", m.group("title")).lower()
        if title.split()[0] in _CAP_ONLY and not m.group("title")[0].isupper():
            continue
        span = _clean_name(ft, m.start("name"), m.end("name"))
        if not span:
            continue
        s, e = span
        if is_bad_name(ft[s:e]) or s != m.start("name"):
            continue
        cand = Candidate("person", s, e, ft[s:e], "rule", titled=True)
        if title in lx.TITLES:
            role = _prefix_affiliation(ft, m.start("title"), title, lx.TITLES[title], orgs,
                                       cand)
            cand.role = role
        _after_name(ft, cand)
        people.append(cand)
        pre = _PREFIX.search(ft[max(0, m.start("title") - 90):m.start("title")])
        blocked.append((m.start("title") - (len(pre.group()) if pre else 0), m.end("title")))
        taken.append((s, e))
    for m in _BYLINE.finditer(ft):
        span = _clean_name(ft, m.start("name"), m.end("name"))
        if span and len(ft[span[0]:span[1]].split()) >= 2 and not is_bad_name(
                ft[span[0]:span[1]]) and not _overlaps(span, taken):
            cand = Candidate("person", span[0], span[1], ft[span[0]:span[1]], "rule",
                             role="Author")
            people.append(cand)
            taken.append(span)
    if want_untitled:
        for m in _UNTITLED.finditer(ft):
            span = _clean_name(ft, m.start("name"), m.end("name"))
            if not span or _overlaps(span, taken):
                continue
            s, e = span
            name = ft[s:e]
            if is_bad_name(name):
                continue
            cand = Candidate("person", s, e, name, "rule")
            _after_name(ft, cand)
            after = ft[e:e + 30]
            before = ft[max(0, s - 30):s]
            said = bool(re.match(rf"[ ]{_SAID}\b", after)) or bool(
                re.search(r"(?:said|says|according to)[ ]$", before))
            multi = len(name.split()) >= 2
            evidence = ("age" in cand.notes or "party" in cand.notes
                        or "appositive" in cand.notes or said)
            sentence_start = not before.strip() or before.rstrip()[-1] in ".!?\"\n"
            if not evidence or (not multi and (sentence_start or not said)):
                if multi:
                    cand.notes["weak"] = "1"  # kept only if its surname recurs
                    people.append(cand)
                continue
            people.append(cand)
            taken.append(span)
    return people, orgs, blocked


def _overlaps(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(span[0] < e and s < span[1] for s, e in spans)


def upper_initial_pattern() -> str:
    """The character class of upper-case letters used by the name patterns (for tests)."""
    return UPPER
