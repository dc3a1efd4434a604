"""People found by rules: a title or rank before a name, bylines, and untitled names with
evidence (an age, a party note, an appositive role, a speech verb). Also the role and
affiliation each occurrence tells about its person.
"""

from __future__ import annotations

import re

from casefile.extract import lexicon as lx
from casefile.extract.organizations import ORGWORD, agency_candidate, place_key
from casefile.extract.repairs import subject_words_end
from casefile.extract.spans import SpanSet
from casefile.extract.text import CAPWORD, INITIAL, UPPER
from casefile.extract.types import Candidate

_PART = "|".join(sorted(lx.PARTICLES, key=len, reverse=True))
UPPER_START = rf"[{UPPER}]"
NAME = (rf"(?:{CAPWORD}|{INITIAL})(?:[ ](?:{INITIAL}|{CAPWORD}|(?:(?:{_PART})[ ])+{CAPWORD}))*")

# Titles that are ordinary words too: they count only when capitalised.
_CAP_ONLY = {"major", "general", "justice", "speaker", "chair", "father", "agent", "dean",
             "coach", "president", "director", "secretary", "minister", "delegate", "marshal",
             "warden", "principal", "chief", "bishop", "inspector", "commissioner", "reverend",
             "captain", "judge", "mayor", "governor", "senator", "representative", "sheriff",
             "deputy", "teacher", "officer", "detective", "professor", "commander",
             "administrator"}


def _title_alt(keys: list[str]) -> str:
    parts = []
    for k in sorted(keys, key=len, reverse=True):
        pat = r"[ ]+".join(re.escape(w) for w in k.split())
        parts.append(pat)
    return "|".join(parts)


_TITLE_KEYS = [*lx.TITLES, *lx.HONORIFICS]
_TITLED = re.compile(
    rf"(?<![\w.'])(?P<title>(?i:{_title_alt(_TITLE_KEYS)}))(?<=[\w.])[ ]+(?P<name>{NAME})")
_TITLE_HEAD = re.compile(rf"(?P<t>(?i:{_title_alt(_TITLE_KEYS)}))(?<=[\w.])[ ]+(?={UPPER_START})")
_NAME_RE = re.compile(NAME)
_PREFIX = re.compile(rf"(?:{ORGWORD}(?:'s)?[ ]){{1,5}}$")
_BYLINE = re.compile(
    rf"(?m)^[ \t]*\(?(?P<kw>[Bb]y|BY|[Ff]ollow|[Ww]ritten[ ]by|[Rr]eporting[ ]by|"
    rf"[Cc]ontact(?:[ ]reporter)?|[Ee]diting[ ]by|[Ee]dited[ ]by|[Pp]hotos?[ ]by|"
    rf"[Pp]hotograph[ ]by)[ ]+(?P<name>{NAME})")
# The next name of a byline list: "By A and B", "Reporting by A in Paris and B in Rome; Editing
# by C" (the place after "in" is skipped).
_BYLINE_NEXT = re.compile(
    rf"(?:[ ]in[ ]{CAPWORD}(?:[ ]{CAPWORD}){{0,2}})?(?:,[ ](?:and[ ])?|[ ]and[ ]|[ ]&[ ])"
    rf"(?P<name>{NAME})")
# A photo credit: "(Jordan Pike / Capitol Bureau)", "Photo: ... (Name/Outlet)".
_CREDIT = re.compile(rf"\((?P<name>{NAME})[ ]?/[ ]?(?P<outlet>{CAPWORD}(?:[ ]{CAPWORD}){{0,3}})\)")
_SAID = r"(?:said|says|told|tells|wrote|writes|added|testified|tweeted|posted|explained|argued|" \
        r"noted|stated|recalled|asked|replied|responded|confirmed|denied|announced|insisted)"
_UNTITLED = re.compile(rf"(?<![\w.'-])(?P<name>{NAME})")
_PARTY_WORDS = {"republican", "democrat", "democratic", "gop"}
_ROLE_WORD = r"(?:[a-z][\w'-]*|CEO|CFO|COO|CTO)"
_APPOS = re.compile(
    rf"^,[ ](?:(?:a|an|the|his|her|their|its)[ ]|{CAPWORD}'s[ ]|(?:{ORGWORD}[ ]){{1,2}}(?=[a-z]))?"
    rf"(?!(?:and|or|but|the|a|an|who|which|that|as|while|when|where|if|so|then)\b)"
    rf"(?P<role>(?:{_ROLE_WORD}[ ]){{0,5}}?{_ROLE_WORD}?)"
    rf"(?:[ ](?:of|for|at|with|in|on)[ ](?:the[ ])?(?P<org>{ORGWORD}(?:[ ](?:(?:of|and|for|the)"
    rf"[ ])*{ORGWORD})*))?(?=[,.;:)]|[ ](?:who|which|said|says|told|and|was|is|has|of|for|at|"
    rf"with|in|on)\b)")
_PARTY = re.compile(r"^,?[ ]\(?(?P<party>[DRIG])-(?P<state>(?:[A-Z][\w.]*)(?:[ ][A-Z][\w.]*)?)"
                    r"\)?")
_ROLE_BEFORE = re.compile(
    r"(?:^|(?<=[\s(\"]))(?P<det>[Tt]he|[Aa]n?|[Hh]is|[Hh]er|[Tt]heir|[Ii]ts|[Oo]ur|[Mm]y|"
    r"(?:[Tt]he[ ])?[\w-]+'s)[ ]"
    r"(?P<role>(?:[a-z][\w-]*[ ]){0,3}[a-z][\w-]*)"
    rf"(?:[ ](?:for|of|at|with)[ ](?:the[ ])?(?P<org>{ORGWORD}(?:[ ](?:(?:of|and|for|the|&)[ ])*"
    rf"{ORGWORD})*))?,[ ]$")
# A lower-case AP-style title right before a name: "board member Peter Lowe", "defense
# attorney Jane Roe".
_ROLE_RIGHT_BEFORE = re.compile(
    r"(?:^|(?<=[\s(]))(?P<role>(?:[A-Za-z][\w-]*[ ])?(?:[a-z][\w-]*[ ]){0,1}[a-z][\w-]*)[ ]$")
_AGE = re.compile(r"^,[ ](?P<age>\d{1,3})(?=[,.;])")
_PARTY_NOUN = re.compile(r"^,[ ]an?[ ](?P<party>Republican|Democrat|Democratic|Independent)\b")
# Nouns standing for an organisation named earlier ("the company's owner", "a union
# spokesman", "its president"): resolved to the nearest fitting organisation by the pipeline.
ORG_NOUNS = {"company", "firm", "bank", "union", "agency", "department", "office", "board",
             "district", "school", "hospital", "court", "group", "chapter", "organization",
             "association", "council", "commission", "committee", "city", "county", "state",
             "campaign", "newspaper", "paper", "station", "network", "university", "college",
             "church", "club", "team", "fund", "charity", "nonprofit", "ministry", "bureau"}
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
    "correspondent", "fellow", "nominee", "investor", "billionaire", "entrepreneur", "donor",
    "host", "anchor", "singer", "rapper", "actor", "actress", "musician", "comedian",
    "novelist", "pundit", "strategist", "pollster", "chef", "athlete",
}


def _byline_outlet(ft: str) -> str | None:
    """The outlet a story's byline credits: a known outlet or a name ending in a newspaper word on
    the line right after "By ...", or a wire dateline "(AP)" / "(Reuters)"."""
    m = re.search(r"(?m)^[ \t]*(?:[Bb]y|BY)[ ][^\n]+\n[ \t]*(?P<line>[^\n]{2,60})$", ft[:1500])
    if m:
        line = re.sub(r"^[Tt]he[ ]", "", m.group("line").strip())
        if line in lx.NEWS_OUTLETS or re.fullmatch(
                rf"(?:{CAPWORD}[ ]){{0,4}}(?:{'|'.join(lx.BYLINE_OUTLET_WORDS)})", line):
            return line
    m = re.search(r"^[^\n]{0,80}?\((?P<o>AP|Reuters|AFP|Bloomberg)\)[ ]", ft[:3000], re.M)
    if m:
        return {"AP": "Associated Press"}.get(m.group("o"), m.group("o"))
    return None


#: Titles written short, with or without their period ("<Rank> <Rank> <name>", "Dr <name>").
TITLE_SHORT = frozenset({"mr", "mrs", "ms", "dr", "sen", "rep", "gov", "lt", "sgt", "capt", "col",
                         "gen", "maj", "cpl", "det", "rev", "prof", "atty", "cmdr", "adm", "supt",
                         "insp", "pres"})
#: Nationality adjectives: they describe a person ("<Nationality> <name>"), never start a name.
_NATIONALITY_WORDS = """
afghan african albanian algerian american argentine argentinian armenian australian austrian
bangladeshi belgian bolivian brazilian british bulgarian cambodian cameroonian canadian chilean
chinese colombian congolese croatian cuban czech danish dutch ecuadorian egyptian emirati english
eritrean estonian ethiopian european filipino finnish french georgian german ghanaian greek
guatemalan haitian honduran hungarian icelandic indian indonesian iranian iraqi irish israeli
italian jamaican japanese jordanian kazakh kenyan korean kurdish kuwaiti latvian lebanese libyan
lithuanian malaysian mexican moroccan nepalese nigerian norwegian pakistani palestinian
peruvian polish portuguese qatari romanian russian rwandan salvadoran saudi scottish senegalese
serbian singaporean slovak somali spanish sudanese swedish swiss syrian taiwanese thai tunisian
turkish ugandan ukrainian uzbek venezuelan vietnamese welsh yemeni zimbabwean
"""
NATIONALITIES = frozenset(_NATIONALITY_WORDS.split())
#: Pronouns: a capitalised run ending in one ("<Adverb> I", "<Verb> It") is no name.
_PRONOUNS = frozenset({"i", "it", "we", "you", "me", "he", "she", "they", "us", "them"})
#: "King <Name> I", "Pope <Name> <Name> I": "I" a regnal numeral, not the pronoun.
_REGNAL = re.compile(r"\b(?:King|Queen|Pope|Emperor|Empress|Tsar|Czar)(?:[ ]\S+){1,2}[ ]?$")


def _clean_name(ft: str, start: int, end: int) -> tuple[int, int] | None:
    """Trim a name match: drop leading function words/verbs/honorifics, words that describe a
    person (a nationality, a title written short without its period: "<Rank> <Rank>") and trailing
    words that cannot end a name (months, weekdays, organisation words). None if nothing is
    left, or if the run ends in a pronoun ("<Adverb> I")."""
    while True:
        seg = ft[start:end]
        m = re.match(r"([^\W\d_]+\.?)[ ]", seg)
        if m and (m.group(1).lower() in lx.FUNCTION_WORDS
                  or m.group(1).lower() in lx.LEADING_VERBS
                  or m.group(1).lower() in lx.HONORIFICS
                  or m.group(1).lower() in _PARTY_WORDS
                  or m.group(1).lower() in NATIONALITIES
                  or m.group(1).lower().rstrip(".") in TITLE_SHORT):
            start += m.end()
            continue
        last = seg.split()[-1] if seg.split() else ""
        if last.lower() in _PRONOUNS and last != "I" or (
                last == "I" and not _REGNAL.search(ft[max(0, end - 40):end - 1])):
            return None
        cut = subject_words_end(seg)
        if cut:  # "Public Prosecution <name>" after "Director of"
            start += cut
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
    if re.search(r"[ ](?:Jr|Sr)$", ft[start:end]) and ft[end:end + 1] == ".":
        end += 1  # "Patrick Okonjo Jr."
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
    if ws[-1] in lx.NOT_NAME_WORDS or ws[-1] in lx.STREET_WORDS or ws[-1] in lx.ORG_LAST_WORDS:
        return True
    if len(ws) == 1 and (low in lx.FUNCTION_WORDS or low in lx.TITLES or low in lx.LEADING_VERBS):
        return True
    if any(re.fullmatch(r"[A-Z]{2,}", w) for w in name.split()) or any(
            ch in name for ch in "@/_#"):
        return True
    if len(ws) == 1 and low.rstrip(".") in lx.ABBREVIATIONS:
        return True  # "Dr", "Sen", "Gen"
    if all(w.rstrip(".") in TITLE_SHORT or w in lx.TITLES for w in ws):
        return True  # "<Rank> <Rank>": a title alone
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
    elif role.endswith("Judge") and (role != "Judge" or words[-1] in lx.COURT_LEVELS):
        if role == "Judge":  # "<place> Circuit Judge X"
            role, place = f"{words[-1]} Judge", " ".join(words[:-1])
        court = role[:-len("Judge")].strip()
        cand.affiliation = f"{place} {court}{'' if court.endswith('Court') else ' Court'}"
    elif role in lx.PROSECUTOR_TITLES:
        cand.affiliation = f"{place} {role}'s Office"
    else:
        cand.notes["affiliation_span"] = f"{ps}:{pe}"
        cand.affiliation = place
    return role


def _role_words(role: str, cand: Candidate, strip: bool = True) -> str:
    """Split an organisation noun off the front of a role ("union spokesperson" ->
    "spokesperson", coreference "union") and drop a possessive ("the company's owner")."""
    m = re.match(r"^(?:the[ ])?([a-z]+)'s[ ]", role)
    if m:
        role = role[m.end():]
        if m.group(1) in ORG_NOUNS:
            cand.notes.setdefault("coref", m.group(1))
        else:
            role = f"{m.group(1)} {role}"  # "the store's owner" -> "store owner"
    words = role.split()
    if len(words) >= 2 and words[0] in ORG_NOUNS and words[-1] in ROLE_NOUNS:
        cand.notes.setdefault("coref", words[0])
        # "city attorney", "board member" are roles of their own; "union spokesman" is not
        if strip and role.lower() not in lx.TITLES and words[-1] not in {"member", "chair"}:
            role = " ".join(words[1:])
    return role


def _role_before(ft: str, cand: Candidate, at: int | None = None) -> None:
    """Read a role written before the name: "The company's owner, X", "A lawyer for <org>, X",
    "Its president, X", "board member X"."""
    at = cand.start if at is None else at
    window = ft[max(0, at - 90):at]
    role_prefix = ""
    before = _ROLE_BEFORE.search(window)
    if before and any(w in ROLE_NOUNS for w in before.group("role").split()):
        det = before.group("det").lower()
        if det.endswith("'s"):
            noun = det.split()[-1][:-2]
            if noun in ORG_NOUNS:  # not "Whitcombe's attorney": that is a person's
                cand.notes["coref"] = noun
            elif before.group("det").split()[-1][:1].islower():
                role_prefix = f"{noun} "  # "the store's owner" -> "store owner"
        elif det == "its":
            cand.notes["coref"] = "its"
        role = _role_words(before.group("role"), cand)
        cand.notes["appositive"] = role_prefix + role
        if before.group("org"):
            org_start = at - len(window) + before.start("org")
            cand.notes["affiliation_span"] = f"{org_start}:{org_start + len(before.group('org'))}"
            cand.affiliation = before.group("org")
        elif det in {"a", "an"} and role.split()[-1] in {"spokesman", "spokeswoman",
                                                         "spokesperson"}:
            cand.notes.setdefault("coref", "its")
        return
    right = _ROLE_RIGHT_BEFORE.search(window)
    if right:
        words = right.group("role").split()
        lead = window[:right.start()].rstrip()
        if words[0][0].isupper() and lead and lead[-1] not in ".!?\"\n":
            words = words[1:]  # a capital only where a sentence starts ("Board member X")
        words = [w.lower() for w in words]
        while words and words[0] in lx.FUNCTION_WORDS:
            words = words[1:]
        if words and words[-1] in ROLE_NOUNS and not any(
                w in lx.LEADING_VERBS or w in lx.FUNCTION_WORDS for w in words):
            cand.notes["appositive"] = _role_words(" ".join(words), cand)


def _after_name(ft: str, cand: Candidate, before_at: int | None = None) -> None:
    """Read what follows a name: age, party note, appositive role and organisation; and a
    role right before it ("the suspect, Jonah Mercer"), or before its title (``before_at``)."""
    _role_before(ft, cand, before_at)
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
    m = _PARTY_NOUN.match(rest)
    if m:
        letter = m.group("party")[0]
        cand.notes["party"] = letter
        cand.affiliation = lx.PARTIES.get(letter)
        return
    m = _APPOS.match(rest)
    if m and m.group("role") and any(
            w in ROLE_NOUNS for w in re.split(r"[ -]", m.group("role").lower())):
        # "the company's chief engineer"; after a title the whole phrase is kept
        role = _role_words(m.group("role"), cand, strip=not cand.titled)
        cand.notes["appositive"] = role
        if m.group("org"):
            cand.notes.pop("coref", None)
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
    taken = SpanSet()
    for m in _TITLED.finditer(ft):
        title = re.sub(r"\s+", " ", m.group("title")).lower()
        if title.split()[0] in _CAP_ONLY and not m.group("title")[0].isupper():
            continue
        name_start, extra = m.start("name"), []
        while True:  # a second title or an honorific: "Deputy Prosecutor X", "Supt. Dr. X"
            m2 = _TITLE_HEAD.match(ft, name_start)
            if not m2 or not m2.group("t")[0].isupper():
                break
            t2 = re.sub(r"\s+", " ", m2.group("t")).lower()
            if t2 not in lx.HONORIFICS and t2 != "dr.":
                extra.append(t2)
            name_start = m2.end()
        nm = _NAME_RE.match(ft, name_start)
        if not nm:
            continue
        span = _clean_name(ft, name_start, nm.end())
        if not span:
            continue
        s, e = span
        if is_bad_name(ft[s:e]) or s != name_start:
            continue
        cand = Candidate("person", s, e, ft[s:e], "rule", titled=True)
        full = " ".join([title, *extra])
        role = lx.TITLES.get(full) or " ".join(
            lx.TITLES.get(t, t.title()) for t in [title, *extra] if t in lx.TITLES)
        if role:
            role = _prefix_affiliation(ft, m.start("title"), full, role, orgs, cand)
            cand.role = role
        _after_name(ft, cand, m.start("title"))
        people.append(cand)
        pre = _PREFIX.search(ft[max(0, m.start("title") - 90):m.start("title")])
        blocked.append((m.start("title") - (len(pre.group()) if pre else 0), name_start))
        taken.add(s, e)
    outlet = _byline_outlet(ft)
    for m in _BYLINE.finditer(ft):
        kw = m.group("kw").lower()
        role = ("Editor" if kw.startswith("edit") else
                "Photographer" if kw.startswith("photo") else "Author")
        pos, first = m.start("name"), True
        while True:
            nm = _NAME_RE.match(ft, pos) if not first else m
            if nm is None:
                break
            ns = nm.start("name") if first else nm.start()
            ne = nm.end("name") if first else nm.end()
            span = _clean_name(ft, ns, ne)
            if span and len(ft[span[0]:span[1]].split()) >= 2 and not is_bad_name(
                    ft[span[0]:span[1]]) and not _overlaps(span, taken):
                cand = Candidate("person", span[0], span[1], ft[span[0]:span[1]], "rule",
                                 role=role)
                if outlet and kw in {"by", "written by", "reporting by"}:
                    cand.affiliation = outlet
                people.append(cand)
                taken.add(*span)
            if kw in {"follow", "contact", "contact reporter"}:
                break
            nxt = _BYLINE_NEXT.match(ft, ne)
            if not nxt:
                break
            pos, first = nxt.start("name"), False
    for m in _CREDIT.finditer(ft):
        span = _clean_name(ft, m.start("name"), m.end("name"))
        if span and len(ft[span[0]:span[1]].split()) >= 2 and not is_bad_name(
                ft[span[0]:span[1]]) and not _overlaps(span, taken):
            people.append(Candidate("person", span[0], span[1], ft[span[0]:span[1]], "rule",
                                    role="Photographer", affiliation=m.group("outlet")))
            taken.add(*span)
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
            if re.search(r"(?:^|[\s(])(?:Republican|Democrat|Democratic|GOP)[ ]$",
                         ft[max(0, s - 30):s]):
                cand.notes.setdefault("party", "")  # "Republican <name>"
            evidence = ("age" in cand.notes or "party" in cand.notes
                        or "appositive" in cand.notes or said)
            sentence_start = not before.strip() or before.rstrip()[-1] in ".!?\"\n"
            if not evidence or (not multi and (sentence_start or not said)):
                if multi:
                    cand.notes["weak"] = "1"  # kept only if its surname recurs
                    people.append(cand)
                continue
            if said and not ("age" in cand.notes or "party" in cand.notes
                             or "appositive" in cand.notes):
                cand.notes["said_only"] = "1"  # the model's organisation or place wins
            people.append(cand)
            taken.add(*span)
    return people, orgs, blocked


def _overlaps(span: tuple[int, int], spans: SpanSet | list[tuple[int, int]]) -> bool:
    if isinstance(spans, SpanSet):
        return spans.overlaps(*span)  # O(log n)
    return any(span[0] < e and s < span[1] for s, e in spans)


def upper_initial_pattern() -> str:
    """The character class of upper-case letters used by the name patterns (for tests)."""
    return UPPER
