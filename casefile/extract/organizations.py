"""Organisation patterns and the joining of their variants.

Rules find agencies ("<place> Police Department", "<place> Sheriff's Office", "Department of
<subject>"), names ending in an organisation word ("... High School", "... Committee",
"... County Jail"), acronyms and news outlets. Variants of one agency are joined: "the Sheriff's
Department" and "<place> Sheriff's Office" are one organisation when the text names only one
sheriff's agency.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, cast

from rapidfuzz import fuzz

from casefile.extract.lexicon import (
    AGENCY_ACRONYMS,
    AMBIGUOUS_PLATFORMS,
    FUNCTION_WORDS,
    NEWS_OUTLETS,
    NOT_ACRONYMS,
    ORG_HEADS_OF,
    ORG_LAST_WORDS,
    OUTLET_WORDS,
    PLATFORMS,
    POSTAL_CODES,
)
from casefile.extract.text import CAPWORD, UPPER, norm_key
from casefile.extract.types import Candidate

ORGWORD = rf"(?:(?:[{UPPER}]\.){{2,}}|{CAPWORD})"
# The possessive first word of an organisation name: "St. Jude's Hospital", "Children's ...".
_POSS_FIRST = (rf"(?:(?:{ORGWORD}[ ]){{0,2}}(?:St\.[ ])?(?!Sheriff's|Attorney's)"
               rf"[{UPPER}][a-z]+'s[ ])")
_PRE = rf"(?P<pre>(?:{ORGWORD}[ ]){{1,5}})"
_OBJ = rf"(?:the[ ])?{ORGWORD}(?:[ ](?:(?:and|of|for|on|the|&)[ ])*(?![A-Z]{{2,}}\b){ORGWORD})*"

_SHERIFF = re.compile(
    rf"{_PRE}?(?P<kw>Sheriff's)(?:[ ](?P<head>Office|Department|Dept\.|[Dd]eput(?:y|ies)|"
    rf"[Oo]fficers?|[Ss]pokes(?:man|woman|person)))?")
_POLICE = re.compile(
    rf"{_PRE}(?P<kw>Police|police)(?:[ ](?P<fire>and[ ]Fire[ ])?(?P<head>Departments?|Dept\.|"
    rf"Service|Force|Bureau))?\b")
_FIRE = re.compile(
    rf"{_PRE}Fire(?:[ ]and[ ]Rescue)?[ ](?P<head>Department|Dept\.|Rescue|District)\b")
_OF = re.compile(
    rf"(?P<pre>(?:{ORGWORD}[ ]){{0,4}}(?:(?!Sheriff's)[{UPPER}][a-z]+'s[ ])?)"
    rf"(?P<head>Department|Ministry|Office|Bureau|Board|Division|"
    rf"Commission|Council|University|College|Institute|Court|City|County|Town|Village|Center|"
    rf"Centre|Committee|Coalition|Alliance|Association|Society|Foundation|Campaign|Fund)"
    rf"[ ](?:of|for)[ ](?P<obj>{_OBJ})")
_SUFFIX_WORDS = (
    "High School|Middle School|Elementary School|Charter School|School District|School|Academy|"
    "University|College|Committee|Commission|Council|Board|Agency|Bureau|Office|Court|County Jail|"
    "Jail|Prison|Penitentiary|Detention Center|Hospital|Medical Center|Institute|Foundation|"
    "Association|Union|Party|Inc\\.|Corp\\.|Corporation|LLC|LLP|PLLC|L\\.L\\.C\\.|Ltd\\.|Company|Co\\.|"
    "Group|Church|Services|Solutions|Partners|Associates|Holdings|Enterprises|Industries|"
    "Authority|Administration|Coalition|Network|Society|Trust|Federation|League|Alliance|"
    "Caucus|Senate|Assembly|Legislature|Patrol|Guard|Ministry|Tribunal|Clinic|Bank|Fund"
)
_SUFFIX = re.compile(
    rf"(?P<name>{_POSS_FIRST}?(?:{ORGWORD}[ ](?:(?:of|for|and|&|on|the)[ ])*){{0,6}}"
    rf"(?P<suf>{_SUFFIX_WORDS}))"
    rf"(?![\w'])")
_NEWSPAPER = re.compile(
    rf"(?<![\w'])(?:{CAPWORD}[ ]){{1,4}}(?:{'|'.join(re.escape(w) for w in OUTLET_WORDS)})"
    rf"(?![\w'-])")
_LOCAL = re.compile(rf"(?<![\w'])(?:{CAPWORD}[ ]){{1,4}}Local[ ]\d{{1,5}}\b")
# Advocacy groups named "<people> for <cause>": "Parents for Safer Streets".
_FOR_GROUP = re.compile(rf"(?<![\w'])[{UPPER}][a-z]+s[ ]for[ ](?:{CAPWORD}[ ]){{0,3}}{CAPWORD}")
_UNION_NAME = re.compile(r"\b(?:Union|Teamsters|Local[ ]\d+|Guild|Fraternal[ ]Order|"
                         r"(?:Teachers|Officers|Education|Nurses|Workers|Employees|Deputies|"
                         r"Firefighters|Troopers|Professors|Faculty)[ ]Association|"
                         r"Federation[ ]of[ ]\w+[ ]?(?:Teachers|Workers|Employees))\b")
_ACRONYM = re.compile(r"(?<![\w.&-])(?P<a>[A-Z]{2,6})(?![\w&-]|\.[A-Z])")
_OUTLET = re.compile(
    r"(?<![\w'])(?:" + "|".join(re.escape(o) for o in sorted(NEWS_OUTLETS, key=len, reverse=True))
    + r")(?![\w'])")

# Platforms named as themselves ("posted on Twitter"): a company each. Names that are common
# words too ("Signal", "Medium", "Threads", "X") are left to the model.
_PLATFORM = re.compile(
    r"(?<![\w'@#.-])(?=[A-Z])(?i:" + "|".join(
        re.escape(p) for p in sorted(PLATFORMS - AMBIGUOUS_PLATFORMS, key=len, reverse=True))
    + r")(?![\w'-]|\.[a-z])")

# A name right after a noun for a kind of organisation ("research firm <X>", "the chains <X>
# and <Y>") or after a job held there ("senior director for games at <X>").
_ORG_NOUN = (r"(?:company|companies|firm|firms|giant|startup|start-up|maker|developer|publisher|"
             r"retailer|chain|chains|carrier|conglomerate|manufacturer|insurer|lender|nonprofit|"
             r"charity|watchdog|powerhouse|studio|broker|automaker|airline|distributor)")
_CUED_NAME = rf"(?P<name>{CAPWORD}(?:[ ]{CAPWORD}){{0,3}})(?=(?:'s?)?(?:[^\w'-]|$))"
_ORG_CUE = re.compile(rf"(?<![\w'-])(?:[a-z]+-)?(?i:{_ORG_NOUN})[ ](?:called[ ]|named[ ])?"
                     rf"{_CUED_NAME}")
_ORG_CUE_NEXT = re.compile(rf"[ ]and[ ]{_CUED_NAME}")
_JOB_AT = re.compile(
    rf"\b(?i:director|president|vp|vice[ ]president|manager|executive|officer|chief|head|"
    rf"analyst|engineer|researcher|professor|partner|founder|editor|producer|designer|"
    rf"spokesman|spokeswoman|spokesperson|employee|worker|staffer)\b[^.\n\"]{{0,40}}?[ ]at[ ]"
    rf"(?:the[ ])?{_CUED_NAME}")

_NATIONALITY = re.compile(r"[A-Z][a-z]+(?:ish|ian|ese|ean|ic)|Dutch|French|Swiss|Greek|Thai|"
                          r"Irish|Welsh|Scottish")

LAW = "law enforcement agency"
GOV = "government agency"
BODY = "government body"


def _strip_leading(ft: str, start: int, end: int) -> int:
    """Move ``start`` past leading function words ("When", "The", "According")."""
    while start < end:
        m = re.match(r"([^\W\d_]+)(?:[ ]+|$)", ft[start:end])
        if not m or m.group(1).lower() not in FUNCTION_WORDS:
            return start
        start += m.end()
    return end


def place_key(place: str) -> str:
    """Comparison key of the place part of an agency name ("Harlan County" -> "harlan county")."""
    return norm_key(place)


def _kind_for_suffix(suffix: str) -> str:
    s = suffix.lower()
    if "school" in s or s in {"academy", "university", "college"}:
        return "school"
    if s in {"court", "tribunal"}:
        return "court"
    if "jail" in s or s in {"prison", "penitentiary", "detention center"}:
        return "jail"
    if s in {"hospital", "medical center", "clinic"}:
        return "hospital"
    if s == "union":
        return "union"
    if s in {"party", "caucus"}:
        return "political party"
    if s in {"inc.", "corp.", "corporation", "llc", "ltd.", "company", "co.", "group", "bank",
             "llp", "pllc", "l.l.c.", "services", "solutions", "partners", "associates",
             "holdings", "enterprises", "industries"}:
        return "company"
    if s in {"committee", "commission", "council", "board", "senate", "assembly", "legislature"}:
        return BODY
    if s in {"agency", "bureau", "office", "administration", "ministry", "authority"}:
        return GOV
    if s in {"patrol", "guard"}:
        return LAW
    return "organization"


def _agency(ft: str, kind: str, pre_start: int, pre_end: int, span_end: int, head: str | None,
            out: list[Candidate], explicit: bool, source: str = "rule") -> None:
    start = _strip_leading(ft, pre_start, pre_end) if pre_end > pre_start else pre_start
    place = ft[start:pre_end].strip()
    label = {"sheriff": "Sheriff's", "police": "Police", "fire": "Fire"}[kind]
    default_head = {"sheriff": "Office", "police": "Department", "fire": "Department"}[kind]
    hd = head if head in {"Office", "Department", "Service", "Force", "Bureau", "District"} \
        else default_head
    if hd == "Department" and head and head.startswith("Dept"):
        hd = "Department"
    name = f"{place} {label} {hd}".strip()
    if kind == "police" and head is None and (place.split()[-1:] == ["State"] or re.match(
            r"U\.S\.|(?:US|United States|Federal|National)\b", place)):
        name = f"{place} Police"  # "<State> State Police", "U.S. Capitol Police": no "Department"
    if not place:
        start = pre_end if pre_end > pre_start else pre_start
    cand = Candidate("organization", start, span_end, name, source,
                     org_kind=LAW if kind != "fire" else GOV,
                     agency_key=(kind, place_key(place)))
    if explicit:
        cand.notes["explicit"] = "1"
    out.append(cand)


def agency_candidate(ft: str, kind: str, place_start: int, place_end: int, span_end: int,
                     source: str = "rule") -> Candidate:
    """An agency named by a title's place prefix ("<place> Sheriff X" -> "<place> Sheriff's
    Office"). ``kind`` is "sheriff", "police" or "fire"."""
    out: list[Candidate] = []
    _agency(ft, kind, place_start, place_end, span_end, None, out, False, source)
    return out[0]


def _cued(ft: str, m: re.Match[str]) -> Candidate:
    cand = Candidate("organization", m.start("name"), m.end("name"), m.group("name"), "rule",
                     org_kind="organization")
    cand.notes["cued"] = "1"
    return cand


def find_organizations(ft: str, repeated_acronyms: bool = True) -> list[Candidate]:
    """Rule candidates for organisations in folded text ``ft`` (see ``text.fold``).

    Returns candidates with str offsets; overlapping candidates are possible (the caller keeps
    the first of overlapping ones, so more specific patterns come first).
    """
    out: list[Candidate] = []
    for m in _SHERIFF.finditer(ft):
        head = m.group("head")
        pre = m.group("pre")
        if not pre and head not in {"Office", "Department", "Dept."}:
            continue
        explicit = head in {"Office", "Department", "Dept."}
        end = m.end() if explicit else m.end("kw")
        ps, pe = (m.start("pre"), m.end("pre") - 1) if pre else (m.start("kw"), m.start("kw"))
        if pre and pe <= _strip_leading(ft, ps, pe):
            ps = pe = m.start("kw")
        _agency(ft, "sheriff", ps, pe, end, head, out, explicit)
    for m in _POLICE.finditer(ft):
        ps, pe = m.start("pre"), m.end("pre") - 1
        if _strip_leading(ft, ps, pe) >= pe:
            continue
        if m.group("kw") == "police" and _NATIONALITY.fullmatch(ft[ps:pe].split()[-1]):
            continue  # "British police": a country's police in general, not one agency
        head = m.group("head")
        if m.group("fire"):
            _agency(ft, "police", ps, pe, m.end("kw"), None, out, True)
            _agency(ft, "fire", ps, pe, m.end(), "Department", out, True)
            out[-1].start = m.start("fire") + len("and ")  # the mention is "Fire Departments"
            continue
        explicit = bool(head) and m.group("kw") == "Police"
        _agency(ft, "police", ps, pe, m.end() if explicit else m.end("kw"), head, out, explicit)
    for m in _FIRE.finditer(ft):
        ps, pe = m.start("pre"), m.end("pre") - 1
        if _strip_leading(ft, ps, pe) < pe:
            _agency(ft, "fire", ps, pe, m.end(), m.group("head"), out, True)
    for m in _OF.finditer(ft):
        start = _strip_leading(ft, m.start(), m.start("head"))
        head = m.group("head")
        kind = BODY if head in {"City", "County", "Town", "Village", "Council", "Commission",
                                "Committee"} \
            else ("school" if head in {"University", "College"} else GOV)
        if head in {"Center", "Centre", "Coalition", "Alliance", "Association", "Society",
                    "Foundation", "Campaign", "Fund", "Institute"}:
            kind = "organization"
        if head == "Court":
            kind = "court"
        cand = Candidate("organization", start, m.end(), ft[start:m.end()], "rule", org_kind=kind)
        cand.notes["explicit"] = "1"
        out.append(cand)
    for m in _SUFFIX.finditer(ft):
        start = _strip_leading(ft, m.start(), m.start("suf"))
        if start >= m.start("suf"):
            continue  # only the suffix word itself ("The Committee")
        poss = re.search(r"([A-Z][a-z]+)'s[ ]", ft[start:m.end()])
        if poss and poss.group(1).lower() in ORG_LAST_WORDS:
            continue  # "<...> University's <school>": two organisations, cut by the model
        cand = Candidate("organization", start, m.end(), ft[start:m.end()], "rule",
                         org_kind=_kind_for_suffix(m.group("suf")))
        cand.notes["explicit"] = "1"
        out.append(cand)
    for m in _NEWSPAPER.finditer(ft):
        start = _strip_leading(ft, m.start(), m.end())
        if start < m.end() and len(ft[start:m.end()].split()) >= 2:
            out.append(Candidate("organization", start, m.end(), ft[start:m.end()], "rule",
                                 org_kind="news outlet"))
    for m in _LOCAL.finditer(ft):
        start = _strip_leading(ft, m.start(), m.end())
        out.append(Candidate("organization", start, m.end(), ft[start:m.end()], "rule",
                             org_kind="union"))
    for m in _FOR_GROUP.finditer(ft):
        first = m.group().split()[0].lower()
        if first not in FUNCTION_WORDS and not ft[:m.start()].rstrip().endswith("\n") \
                and m.start() > 0:
            out.append(Candidate("organization", m.start(), m.end(), m.group(), "rule",
                                 org_kind="organization"))
    for c in out:
        if c.org_kind in {"organization", None} and _UNION_NAME.search(c.name):
            c.org_kind = "union"
    for m in _OUTLET.finditer(ft):
        out.append(Candidate("organization", m.start(), m.end(), m.group(), "rule",
                             org_kind="news outlet"))
    for m in _ORG_CUE.finditer(ft):
        out.append(_cued(ft, m))
        nxt = _ORG_CUE_NEXT.match(ft, m.end())
        if nxt:
            out.append(_cued(ft, nxt))
    for m in _JOB_AT.finditer(ft):
        out.append(_cued(ft, m))
    for m in _PLATFORM.finditer(ft):
        out.append(Candidate("organization", m.start(), m.end(), m.group(), "rule",
                             org_kind="company"))
    counts: dict[str, int] = {}
    for m in _ACRONYM.finditer(ft):
        counts[m.group("a")] = counts.get(m.group("a"), 0) + 1
    for m in _ACRONYM.finditer(ft):
        a = m.group("a")
        if a in NOT_ACRONYMS or a in POSTAL_CODES or re.fullmatch(r"[IVXLC]+", a):
            continue
        defined = bool(re.match(r"\s*\)", ft[m.end():])) and ft[:m.start()].rstrip().endswith("(")
        if a in AGENCY_ACRONYMS or defined or (repeated_acronyms and counts[a] >= 2):
            out.append(Candidate("organization", m.start(), m.end(), a, "rule",
                                 org_kind=AGENCY_ACRONYMS.get(a, "organization")))
    return out


def _initials(name: str) -> str:
    return "".join(w[0] for w in name.split() if w[0].isupper())


def _tokens(key: str) -> list[str]:
    return key.split()


def _contains(big: list[str], small: list[str]) -> bool:
    n = len(small)
    return any(big[i:i + n] == small for i in range(len(big) - n + 1))


class OrgCluster:
    """One organisation: its mentions (candidates), name and kind."""

    def __init__(self, first: Candidate) -> None:
        self.cands = [first]
        # agency_key, key and name computed once, while cluster_organizations joins clusters
        # (it empties the memo when it adds candidates and drops it at the end); else None
        self._memo: dict[str, Any] | None = None

    def _memoized(self, what: str, compute: Callable[[], Any]) -> Any:
        if self._memo is None:
            return compute()
        if what not in self._memo:
            self._memo[what] = compute()
        return self._memo[what]

    @property
    def agency_key(self) -> tuple[str, str] | None:
        return cast("tuple[str, str] | None", self._memoized("agency_key", self._agency_key))

    def _agency_key(self) -> tuple[str, str] | None:
        keys = [c.agency_key for c in self.cands if c.agency_key and c.agency_key[1]]
        return keys[0] if keys else next((c.agency_key for c in self.cands if c.agency_key), None)

    @property
    def key(self) -> str:
        return cast(str, self._memoized("key", lambda: norm_key(self.name)))

    @property
    def name(self) -> str:
        return cast(str, self._memoized("name", self._name))

    def _name(self) -> str:
        known = [c for c in self.cands if c.known]
        if known and known[0].known:
            return known[0].known.name
        agency = [c for c in self.cands if c.agency_key and c.agency_key[1]]
        explicit = [c for c in (agency or self.cands) if c.notes.get("explicit")]
        pool = explicit or agency or [c for c in self.cands if not _is_acronym(c.name)] \
            or self.cands
        best = max(pool, key=lambda c: (len(c.name.split()), -c.start))
        return best.name.replace("\u2019", "'")

    @property
    def kind(self) -> str:
        kinds = [c.org_kind for c in self.cands if c.org_kind and c.org_kind != "organization"]
        return kinds[0] if kinds else "organization"


def _is_acronym(name: str) -> bool:
    """"FBI", "U.N." (dotted), "PG&E" (with an ampersand)."""
    return bool(re.fullmatch(r"[A-Z]{2,6}|(?:[A-Z]\.){2,5}|[A-Z]\.(?:[A-Z]\.?){1,4}|"
                             r"[A-Z]{1,3}&[A-Z]{1,3}", name))


def _letters(acronym: str) -> str:
    return re.sub(r"[.&]", "", acronym)


def _head_key(key: str) -> str:
    """"department of homeland security" and "homeland security department" -> one key."""
    m = re.fullmatch(r"(\w+) of (?:the )?(.+)", key)
    if m and m.group(1) in ORG_HEADS_OF:
        return f"{m.group(2)} {m.group(1)}"
    return key


def cluster_organizations(cands: Iterable[Candidate]) -> list[OrgCluster]:
    """Join organisation candidates that name the same organisation.

    Same agency key or same normalised name join at once. Then, when unambiguous: an agency
    without a place joins the one agency of its type; a place that is a prefix of another
    ("X" / "X County") joins; an acronym joins the one name whose capitalised initials contain
    it; a name whose words all lie inside exactly one longer name joins it ("Ridgeview Lakes").
    """
    clusters: list[OrgCluster] = []
    by_key: dict[object, OrgCluster] = {}
    for c in sorted(cands, key=lambda c: c.start):
        k: object = (c.agency_key if c.agency_key and c.agency_key[1]
                     else ("name", _head_key(norm_key(c.name))))
        if c.known:
            k = ("known", c.known.name)
        if k in by_key:
            by_key[k].cands.append(c)
        else:
            cl = OrgCluster(c)
            by_key[k] = cl
            clusters.append(cl)
    for cl in clusters:
        cl._memo = {}
    changed = True
    while changed:
        changed = False
        for cl in list(clusters):
            target = _join_target(cl, [o for o in clusters if o is not cl])
            if target is not None:
                target.cands.extend(cl.cands)
                target._memo = {}
                clusters.remove(cl)
                changed = True
                break
    for cl in clusters:
        cl._memo = None
    return clusters


def _join_target(cl: OrgCluster, others: list[OrgCluster]) -> OrgCluster | None:
    ak = cl.agency_key
    if ak:
        same_type = [o for o in others if o.agency_key and o.agency_key[0] == ak[0]]
        if not ak[1]:
            return same_type[0] if len(same_type) == 1 else None
        mine = ak[1].split()
        prefixed = [o for o in same_type if o.agency_key and o.agency_key[1]
                    and o.agency_key[1].split()[:len(mine)] == mine
                    and len(o.agency_key[1].split()) > len(mine)]
        if len(prefixed) == 1:
            return prefixed[0]
        # "New X County" at a sentence start when "X County" exists: same agency.
        tail = [o for o in same_type if o.agency_key and o.agency_key[1]
                and len(mine) > len(o.agency_key[1].split())
                and mine[-len(o.agency_key[1].split()):] == o.agency_key[1].split()]
        if len(tail) == 1:
            return tail[0]
        # "the State Police" after "Michigan State Police": the one agency ending so.
        ending = [o for o in same_type if o.agency_key and o.agency_key[1]
                  and len(o.agency_key[1].split()) > len(mine)
                  and o.agency_key[1].split()[-len(mine):] == mine]
        if len(ending) == 1:
            return ending[0]
        same = [o for o in same_type if o.agency_key and o.agency_key[1]
                and fuzz.ratio(o.agency_key[1], ak[1]) >= 95]
        return same[0] if len(same) == 1 else None
    if any(c.known for c in cl.cands):
        return None
    name = cl.name
    if _is_acronym(name):
        dotted = name != _letters(name)
        name = _letters(name)
        hits = [o for o in others if not _is_acronym(o.name) and name in _initials(o.name)
                and len(_initials(o.name)) >= len(name)]
        defined = [o for o in hits if any(
            0 < c2.start - o_c.end <= 3 for c2 in cl.cands for o_c in o.cands)]
        if defined:
            return defined[0]
        if len(hits) == 1 and (len(name) >= 3 or dotted or name in NEWS_OUTLETS):
            return hits[0]  # "AP" joins "The Associated Press"
        first = [o for o in others if not _is_acronym(o.name) and o.name.split()[0] == cl.name]
        if not hits and len(first) == 1:
            return first[0]  # "NBC" joins "NBC News"
        return None
    mine = _tokens(cl.key)
    inside = [o for o in others if len(_tokens(o.key)) > len(mine)
              and _contains(_tokens(o.key), mine)]
    cued = any(c.notes.get("cued") for c in cl.cands)  # "tech firm X": X itself, not "X Arcade"
    if len(inside) == 1 and not cl.agency_key and not cued:
        return inside[0]
    close = [o for o in others if not o.agency_key and fuzz.ratio(o.key, cl.key) >= 95]
    return close[0] if len(close) == 1 else None
