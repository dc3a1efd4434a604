"""Export profiles: who an export is for, and what it may show of confidential material.

ARCHITECTURE.md, "Exports protect confidential sources". Every export (the PDF brief, the
follow-ups calendar, later the case archive) is made for someone; the profile says what that
reader may see. The four profiles are defined once, in
:data:`casefile.export.profiles.PROFILES`; :func:`disclosure_for` turns a profile and a case's
items into a :class:`Disclosure`, the one object an export asks what to
leave out, what to call a confidential person and which strings its output must not contain
(the self-check of :mod:`casefile.export.pdf_check` searches the written file for them).

Substitution (:meth:`Disclosure.substitute`, the one function every printed text goes
through): a withheld name becomes "[withheld]", a confidential person's name "Source A" (in a
quote, where the words are someone else's, as a bracketed substitution: "[Source A]"), and a
contact detail of a withheld or pseudonymous person "[withheld]". Names match ignoring case,
on word boundaries ("Ann" is not replaced in "Annual"), longest name first (so "Scot Peterson"
becomes one "Source A", not "Scot Source A"), curly and straight apostrophes alike, spacing
alike (a name broken across a line still matches), and with a possessive kept after the
substitution ("Peterson's" becomes "Source A's", in a quote "[Source A]'s"). What counts as a
person's name: the title, the aliases and, for a name of two words or more, the surname (a
quote naming "Peterson" identifies Scot Peterson as surely as his full name). Names shorter than
three characters are not replaced (they would match everywhere).

What travels with a pseudonym (legal and public). A pseudonym only protects a source when the
words printed around it do not name them again ("an internal email from Harbor Police Chief
[Source A]" names the one person who is chief). So, for a pseudonymous person:

* their evidence is the passages linked to them as *supports* or *contradicts* (what they said
  or what bears on it: the quotes a review needs), printed with the name substituted; their
  *mentions* and *context* links (passages that only name them, mostly spans a mention finder
  marked) are left out, with their document, offsets and surrounding words
  (:data:`PSEUDONYM_EVIDENCE`, :meth:`Disclosure.evidence_shown`);
* the words around a mention of *another* item are not printed when they name a pseudonymous
  person (:meth:`Disclosure.names_pseudonym`): the context of the police department's mention
  would otherwise be the sentence that gives the source's role;
* their role and affiliation appear nowhere (every profile but internal has no
  ``source_details``): not as fields, not as an edge of the brief's graph figure (the figure
  leaves the person out), and not in any text: what describes a confidential person around
  their name (the clause after it, a role before it, an organization after it) is cut, and
  their role, identifying phrases, contact details, an organization that is theirs alone
  (:func:`theirs_alone`) and every description found in the case are "[withheld]" wherever
  they are written (:mod:`casefile.services.descriptions`, applied by :meth:`substitute`,
  under editor too); all of them are ``protected``, and the self-check also refuses the role
  followed by the pseudonym ("Police Chief [Source A]");
* an exported id that would be the same in an internal export (FtM entity ids) is derived
  from the profile and the pseudonym instead (:mod:`casefile.services.ftm_export`).

The public profile never shows more of a pseudonymous person than legal. What no rule here can
hide: a supporting quote taken from a *published* document can be searched for in that
document, and the reporter chooses those quotes.

Pseudonyms are given in a stable order: the case's confidential people by item id, "Source A",
"Source B"… "Source Z", "Source AA"… so that the same person is the same source in the brief and
the calendar of the same case.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

from sqlalchemy import select
from sqlalchemy.orm import Session

from casefile.export.pdf_check import Protected
from casefile.export.profiles import DEFAULT_PROFILE, PROFILES, ExportProfile, get_profile
from casefile.services.descriptions import (
    JOB_WORDS,
    Describer,
    derive,
    describer,
    role_heads,
    signature_block,
    strip_descriptions,
)
from casefile.store import Document, EvidenceLink, Item, Organization, Passage, Person, Place

__all__ = [
    "DEFAULT_PROFILE", "PROFILES", "PSEUDONYM_EVIDENCE", "WITHHELD", "Disclosure", "ExportProfile",
    "case_disclosure", "case_evidenced", "contact_pieces", "identifying_strings",
    "strip_descriptions", "theirs_alone", "disclosure_for", "get_profile", "names_of", "pseudonym",
]

WITHHELD = "[withheld]"
#: The "replacement" of a shown person's name that holds a protected word ("Linda Ibarra" when
#: the source is "José Ibarra"): it is printed as it is (:func:`disclosure_for`).
KEEP = "\x00keep"

#: The relations of the evidence links of a pseudonymous person an export prints (module
#: docstring: mentions and context links would locate or describe them).
PSEUDONYM_EVIDENCE = ("supports", "contradicts")

#: The words a role of several words may end in for "the" + that word to be withheld too.
JOB_ROLE_WORDS = JOB_WORDS

#: Names shorter than this are never replaced (nor searched for by the self-check).
MIN_NAME_CHARS = 3


def pseudonym(index: int) -> str:
    """The pseudonym of the ``index``-th confidential person (0-based): "Source A" … "Source
    Z", then "Source AA", "Source AB"…"""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return f"Source {letters}"


#: Contact details: e-mail addresses, web addresses and handles, phone numbers (at least 7
#: digits, with the usual separators).
_CONTACT_PIECE = re.compile(
    r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
    r"|(?:https?://|www\.)\S+"
    r"|(?<!\w)@\w{3,}"
    r"|\+?\(?\d[\d\s().-]{5,}\d"
)


def contact_pieces(contact: str | None) -> list[str]:
    """The e-mail addresses, web addresses, @handles and phone numbers in a person's contact
    details, in order (a phone number counts when it has at least 7 digits; trailing
    punctuation of a web address is dropped)."""
    out: list[str] = []
    for match in _CONTACT_PIECE.finditer(contact or ""):
        piece = match.group().strip().rstrip(".,;:)")
        phone = piece.startswith(("+", "(")) or piece[:1].isdigit()
        if phone and sum(c.isdigit() for c in piece) < 7:
            continue
        out.append(piece)
    return out


def names_of(item: Item) -> set[str]:
    """The names that identify an item: its title and aliases and, for a person whose name has
    two words or more, the surname."""
    names = {item.title}
    if isinstance(item, Person | Organization | Place):
        names.update(item.aliases or [])
    if isinstance(item, Person):
        words = item.title.split()
        if len(words) >= 2:
            names.add(words[-1])
    return {" ".join(n.split()) for n in names if n and n.strip()}


def _fold(text: str) -> str:
    """``text`` compared as a name: apostrophes straight, case folded, diacritics dropped,
    spacing squashed."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").casefold()
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(text.split())


#: Hyphens and dashes a name's parts may be joined by as written (Word's non-breaking hyphen
#: U+2011 among them); in a name they count as spacing does.
_JOINERS = "\\-\u2010-\u2015"
#: A phone number as stored: digits and the usual separators only, at least 7 digits.
_PHONE = re.compile(r"\+?[\d\s().-]+")


def _phone_pattern(number: str) -> str:
    """A regex for a phone number written any way: its last 10 digits (all, when fewer) with
    any separators between them, after an optional country code ("+1 503 555 0147" also
    matches "503.555.0147", "(503) 555-0147" and "+1 (503) 555-0147")."""
    digits = [c for c in number if c.isdigit()][-10:]
    return r"(?:\+?\d{1,3}[\s().-]*)?\(?" + r"[\s().-]*".join(digits)


@cache
def _accented() -> dict[str, str]:
    """Base Latin letter -> the letters written with it and a diacritic (Latin-1 and Latin
    Extended-A/B: "e" -> "èéêëēĕėęě…")."""
    out: dict[str, str] = {}
    for cp in range(0xC0, 0x250):
        ch = chr(cp)
        base = unicodedata.normalize("NFKD", ch)[0].lower()
        if base != ch.lower() and base.isascii() and base.isalpha():
            out[base] = out.get(base, "") + ch
    return out


def _letter(c: str) -> str:
    """A regex for one letter of a name: itself, its letter without a diacritic and every
    accented form of that ("é" and "e" both match "e", "é", "è"…)."""
    base = unicodedata.normalize("NFKD", c)[0].lower()
    variants = _accented().get(base) if base.isascii() and base.isalpha() else None
    if not variants:
        return re.escape(c)
    return "[" + base + base.upper() + variants + "]"


def _loose(name: str) -> str:
    """A regex for ``name``: any case, with or without its diacritics ("Renee" for "Renée",
    "José" for "Jose"), curly or straight apostrophes, its parts joined by any run of spacing
    or hyphens (a line break, "Okonkwo Lind" or "Okonkwo\u2011Lind" for "Okonkwo-Lind"); a
    phone number with any separators (:func:`_phone_pattern`)."""
    if _PHONE.fullmatch(name) and sum(c.isdigit() for c in name) >= 7:
        return _phone_pattern(name)
    parts = []
    for word in re.split(rf"[\s{_JOINERS}]+", name):
        if word:
            parts.append("".join("['\u2018\u2019]" if c in "'\u2018\u2019" else _letter(c)
                                 for c in word))
    return rf"[\s{_JOINERS}]+".join(parts)


def given_name(person: Person, shown_words: set[str]) -> str | None:
    """The first word of a confidential person's name of two words or more, when it can name
    them ("Marguerite" of "Marguerite Okonkwo-Lind": a first name alone identifies a source to
    colleagues), unless a person the export shows has that word in their name (then it would
    cut into theirs); None for a name of one word, an initial or a title."""
    words = person.title.split()
    if len(words) < 2:
        return None
    first = words[0]
    if len(first) < MIN_NAME_CHARS or not first.replace("-", "").isalpha() or first.endswith("."):
        return None
    return None if _fold(first) in shown_words else first


#: Upper-case words of two or three letters that are common words or abbreviations: a
#: person's initials written bare ("RA") are not withheld when they spell one of these (the
#: dotted "R.A." always is).
_COMMON_CAPS = frozenset({
    "AD", "AI", "AM", "AN", "AP", "AS", "AT", "BC", "BE", "BY", "CO", "DC", "DO", "EU", "GO",
    "HE", "HR", "ID", "IF", "IN", "IS", "IT", "LA", "ME", "MP", "MY", "NO", "NY", "OF", "OH",
    "OK", "ON", "OR", "PC", "PM", "PR", "SO", "TO", "TV", "UK", "UN", "UP", "US", "VP", "WE",
    "CEO", "CFO", "COO", "USA", "FBI", "CIA", "NBA", "NFL", "BBC", "CNN", "AND", "THE", "FOR",
})


def initials(person: Person) -> list[str]:
    """How a confidential person's initials may be written: "R.A.", "R. A.", "R.A" and, unless
    they spell a common word (:data:`_COMMON_CAPS`), "RA" — from the capitalized words of a
    name of two words or more (all of them, and the first and last when there are more).
    Matched case-sensitively (an e-mail signed "-- RA")."""
    words = [w for w in re.split(rf"[\s{_JOINERS}]+", person.title) if w[:1].isupper()
             and w.rstrip(".").isalpha()]
    if len(words) < 2:
        return []
    runs = [[w[0] for w in words]]
    if len(words) > 2:
        runs.append([words[0][0], words[-1][0]])
    out: list[str] = []
    for letters in runs:
        out += [".".join(letters) + ".", ". ".join(letters) + ".", ".".join(letters)]
        if "".join(letters) not in _COMMON_CAPS:
            out.append("".join(letters))
    return list(dict.fromkeys(out))


def _initials_pattern(forms: Iterable[str]) -> re.Pattern[str] | None:
    ordered = sorted(set(forms), key=lambda f: (-len(f), f))
    if not ordered:
        return None
    return re.compile(rf"(?<![\w.])(?:{'|'.join(re.escape(f) for f in ordered)})(?![\w])")


@dataclass(frozen=True)
class Disclosure:
    """What one export of one case may show, under one profile (module docstring).

    ``hidden``: ids of the items left out (confidential items, except the people given a
    pseudonym). ``pseudonyms``: person id -> "Source A"… ``protected``: the strings the written
    export must not contain (names, aliases, surnames and contact details of hidden and
    pseudonymous people; names of other hidden items; under a profile without contact details,
    every person's contact details; under public, a pseudonymous person's role followed by
    their pseudonym), longest first.
    """

    profile: ExportProfile
    hidden: frozenset[int]
    pseudonyms: Mapping[int, str]
    protected: tuple[str, ...]
    _replacements: Mapping[str, str] = field(repr=False)
    _pattern: re.Pattern[str] | None = field(repr=False)
    _describe: Describer | None = field(default=None, repr=False)
    #: A confidential person's initials as written (:func:`initials`) -> what they become.
    _initials: Mapping[str, str] = field(default_factory=dict, repr=False)
    _initials_pattern: re.Pattern[str] | None = field(default=None, repr=False)

    def shows(self, item_id: int | None) -> bool:
        """True when the item (or document) with this id may be printed."""
        return item_id is not None and item_id not in self.hidden

    def substitute(self, text: str | None, *, quoted: bool = False) -> str | None:
        """``text`` with every withheld name "[withheld]", every pseudonymous person's name
        their pseudonym ("[Source A]" when ``quoted``: the words of a document, printed as a
        quote), and protected contact details "[withheld]"; None stays None."""
        if text is None or self._pattern is None:
            return text
        if self._describe is not None:
            text = strip_descriptions(text, self._describe)

        def replace(match: re.Match[str]) -> str:
            found = match.group("name")
            new = self._replacements.get(_fold(found)) or self._replacement_of(found)
            if new == KEEP:  # a shown person's name holding a protected word
                return match.group()
            if quoted and not new.startswith("["):
                new = f"[{new}]"
            return new + (match.group("possessive") or "")

        text = self._pattern.sub(replace, text)
        if self._initials_pattern is not None:
            def initials_of(match: re.Match[str]) -> str:
                new = self._initials.get(match.group(), WITHHELD)
                return f"[{new}]" if quoted and not new.startswith("[") else new

            text = self._initials_pattern.sub(initials_of, text)
        return text

    def _replacement_of(self, found: str) -> str:
        """The replacement of a match whose folded form is not a key (a case mapping that
        ``re.IGNORECASE`` and ``str.casefold`` do not agree on): the first name matching it."""
        for key, new in self._replacements.items():
            if re.fullmatch(_loose(key), found, re.IGNORECASE):
                return new
        return WITHHELD

    def names_pseudonym(self, text: str | None) -> bool:
        """True when ``text`` (as written, before substitution) names a pseudonymous person."""
        if not text or self._pattern is None or not self.pseudonyms:
            return False
        sources = set(self.pseudonyms.values()) - {KEEP}
        if self._initials_pattern is not None and any(
                self._initials.get(m.group()) in sources
                for m in self._initials_pattern.finditer(text)):
            return True
        return any((self._replacements.get(_fold(m.group("name")))
                    or self._replacement_of(m.group("name"))) in sources
                   for m in self._pattern.finditer(text))

    def evidence_shown(self, item_id: int | None, relation: str) -> bool:
        """True when an evidence link of item ``item_id`` with ``relation`` may be exported:
        always, except a pseudonymous person's links other than :data:`PSEUDONYM_EVIDENCE`
        (module docstring)."""
        return item_id not in self.pseudonyms or relation in PSEUDONYM_EVIDENCE

    def quote(self, text: str | None) -> str | None:
        """:meth:`substitute` for a document's words (``quoted=True``)."""
        return self.substitute(text, quoted=True)

    def name_of(self, item: Item | None) -> str | None:
        """How an export names ``item``: its pseudonym, "[withheld]" when it is left out, else
        its title (substituted)."""
        if item is None:
            return None
        if item.id in self.pseudonyms:
            return self.pseudonyms[item.id]
        if item.id in self.hidden:
            return WITHHELD
        return self.substitute(item.title)

    def contact_of(self, item: Item) -> str | None:
        """The contact details an export may print for ``item`` (one line), or None."""
        contact = getattr(item, "contact", None)
        if (not self.profile.contact_details or item.id in self.pseudonyms
                or item.id in self.hidden or not contact or not contact.strip()):
            return None
        return self.substitute(" ".join(contact.split()))

    def url(self, url: str | None) -> str | None:
        """A document's web address, or None when it holds a protected string (a URL cannot
        be edited without breaking it: it is left out instead)."""
        if url is None or self._pattern is None:
            return url
        readable = re.sub(r"[-_+./%]+", " ", url)
        patterns = [self._pattern]
        if self._describe is not None and self._describe.descriptors is not None:
            patterns.append(self._describe.descriptors)
        return None if any(p.search(readable) or p.search(url) for p in patterns) else url


#: Where an item's evidence is: (document id, start, end) of each passage linked to it (start
#: and end None for a link to a whole document).
EvidenceSpans = Mapping[int, Sequence[tuple[int | None, int | None, int | None]]]


def theirs_alone(items: Sequence[Item], people: Iterable[Person],
                 evidenced: EvidenceSpans | Iterable[int] | None = None) -> set[int]:
    """Ids of the organizations that are theirs alone for ``people`` (the case's confidential
    people): the affiliation of one of them, and of no other person; no other item of the case
    points to it (as a parent, whom to ask, who said it, what it came through); and none of
    its own evidence (``evidenced``: item id -> spans, or just the ids of items with evidence)
    is outside a sentence that names one of ``people`` (a mention inside "X, a clerk at the
    Harbor Commission, said" is theirs; "The Harbor Commission voted" is not). An
    organization whose evidence is all in the lines of their signature block (under a line
    holding only their name) is theirs alone too, affiliation or not."""
    people = list(people)
    secret = {p.id for p in people}
    candidates = {p.affiliation_id for p in people if p.affiliation_id is not None}
    spans: dict[int, Sequence[tuple[int | None, int | None, int | None]]] = {}
    if isinstance(evidenced, Mapping):
        spans = dict(evidenced)
    elif evidenced is not None:
        spans = {i: [(None, None, None)] for i in evidenced}
    names = [n for p in people for n in names_of(p) if len(n) >= MIN_NAME_CHARS]
    named = re.compile("|".join(rf"(?<!\w){_loose(n)}(?!\w)" for n in names), re.IGNORECASE) \
        if names else None
    texts = {i.id: i.text for i in items if isinstance(i, Document)}
    blocks: dict[int, list[tuple[int, int]]] = {}  # document id -> their signature blocks
    if named is not None:
        for doc_id, text in texts.items():
            for m in named.finditer(text or ""):
                cut = signature_block(text, m.start(), m.end())
                if cut is not None:
                    blocks.setdefault(doc_id, []).append((cut.start, cut.end))

    def in_signature(doc_id: int | None, start: int | None, end: int | None) -> bool:
        return doc_id is not None and start is not None and end is not None and any(
            a <= start and end <= b for a, b in blocks.get(doc_id, ()))

    # an organization named only in the lines of their signature block is theirs too
    candidates |= {i.id for i in items if isinstance(i, Organization) and spans.get(i.id)
                   and all(in_signature(*span) for span in spans[i.id])}
    if not candidates:
        return set()

    def about_them(doc_id: int | None, start: int | None, end: int | None) -> bool:
        if in_signature(doc_id, start, end):
            return True
        text = texts.get(doc_id) if doc_id is not None else None
        if not text or start is None or end is None or named is None:
            return False
        lo = max(text.rfind(c, 0, start) for c in ".!?\n") + 1
        his = [k for k in (text.find(c, end) for c in ".!?\n") if k >= 0]
        return bool(named.search(text, lo, min(his) if his else len(text)))

    out = set()
    for org_id in candidates:
        shared = any(not about_them(*span) for span in spans.get(org_id, ()))
        for item in items:
            if shared:
                break
            if item.id in secret or item.id == org_id:
                continue
            refs = [getattr(item, name, None) for name in (
                "affiliation_id", "parent_id", "ask_id", "attributed_to_id", "via_id")]
            shared = org_id in refs
        if not shared:
            out.add(org_id)
    return out


def _role_parts(role: str | None) -> list[str]:
    """A role and its parts: "Deputy (resource officer)" -> the whole, "Deputy", "resource
    officer"; split on parentheses, slashes, semicolons and commas."""
    role = " ".join((role or "").split())
    if not role:
        return []
    parts = [role] + [p.strip() for p in re.split(r"[()/;,]", role)]
    return [p for p in dict.fromkeys(parts) if len(p) >= MIN_NAME_CHARS]


def identifying_strings(person: Person) -> list[str]:
    """What the person's own fields give to withhold besides their names: the role and its
    parts, its last words ("permits clerk" of "deputy permits clerk", and "the clerk"), the
    reporter's identifying phrases, and the contact details in their contact field and their
    notes."""
    out = _role_parts(person.role)
    for part in list(out):
        words = part.split()
        out += [" ".join(words[i:]) for i in range(1, len(words) - 1)]  # "permits clerk"
        out += role_heads(part, JOB_ROLE_WORDS)
    out += [" ".join(p.split()) for p in (person.identifying_phrases or []) if p and p.strip()]
    out += contact_pieces(person.contact) + contact_pieces(person.notes)
    return [s for s in dict.fromkeys(out) if len(s) >= MIN_NAME_CHARS]


def _case_texts(items: Sequence[Item]) -> Iterator[str]:
    """Every text of a case's items an export may print or quote from (titles, notes,
    descriptions, statements, answers, documents' text)."""
    for item in items:
        yield item.title
        for name in ("notes", "text", "description", "statement", "answer",
                     "attributed_to_text", "status_reason"):
            value = getattr(item, name, None)
            if isinstance(value, str):
                yield value


def disclosure_for(
    items: Sequence[Item], profile: str | ExportProfile | None = None, *,
    evidenced: EvidenceSpans | Iterable[int] | None = None,
) -> Disclosure:
    """The :class:`Disclosure` of a case whose items (all of them, any order) are ``items``,
    under ``profile`` (a name, a profile, or None for the default). ``evidenced``: where the
    items have evidence (:func:`case_evidenced`; an organization with evidence of its own is
    not theirs alone, :func:`theirs_alone`); None: only references between items count.

    Raises:
        ValidationError: an unknown profile name.
    """
    chosen = get_profile(profile)
    ordered = sorted(items, key=lambda i: i.id)
    confidential = [] if chosen.confidential_items else [i for i in ordered if i.confidential]
    secret_people = [i for i in confidential if isinstance(i, Person)]
    alone = theirs_alone(ordered, secret_people, evidenced)
    if alone:  # an organization that is theirs alone goes with them
        confidential = sorted([*confidential, *(i for i in ordered if i.id in alone
                                                and not i.confidential)], key=lambda i: i.id)
    pseudonyms: dict[int, str] = {}
    if chosen.pseudonyms:
        pseudonyms = {p.id: pseudonym(n) for n, p in enumerate(secret_people)}
    hidden_people = {i.id for i in secret_people}
    replacements: dict[str, str] = {}  # folded name -> what it becomes
    originals: dict[str, str] = {}  # folded name -> the name as written

    def protect(names: Iterable[str], replacement: str) -> None:
        for name in names:
            key = _fold(name)
            if len(key) >= MIN_NAME_CHARS and key not in replacements:
                replacements[key] = replacement
                originals[key] = " ".join(name.split())

    # pseudonyms first: a pseudonymous person's name stays their pseudonym even when a
    # withheld item has the same name
    forbidden: list[str] = []
    anchors: list[str] = []
    descriptors: list[str] = []
    roles: list[str] = []
    shown_words = {_fold(w) for i in ordered if isinstance(i, Person) and i not in secret_people
                   for n in names_of(i) for w in n.split()}
    given: dict[int, str] = {}
    initial_forms: dict[str, str] = {}  # initials as written -> what they become
    for person in secret_people:
        for form in initials(person):
            initial_forms.setdefault(form, pseudonyms.get(person.id, WITHHELD))
        names = names_of(person)
        first = given_name(person, shown_words)
        if first:
            names.add(first)
            given[person.id] = first
        anchors += names
        descriptors += identifying_strings(person)
        roles += _role_parts(person.role)
        if person.id in pseudonyms:
            anchors.append(pseudonyms[person.id])
            protect(names, pseudonyms[person.id])
            alias = pseudonyms[person.id]
            for role in _role_parts(person.role):  # "Police Chief [Source A]" (module docstring)
                forbidden += [f"{role} {alias}", f"{role} [{alias}]"]
    for item in confidential:
        if isinstance(item, Person | Organization | Place) and item.id not in pseudonyms:
            protect({*names_of(item), *([given[item.id]] if item.id in given else [])},
                    WITHHELD)
    for item in ordered:
        if isinstance(item, Person) and (item.id in hidden_people
                                         or not chosen.contact_details):
            protect(contact_pieces(item.contact), WITHHELD)
    # a shown person's full name that holds a protected word ("Linda Ibarra" beside the source
    # "José Ibarra") is printed as it is: it names her, not the source (the bare word is still
    # replaced, and the self-check skips the word only inside that name)
    protected_words = {w for key in replacements for w in key.split()}
    kept = sorted({" ".join(n.split()) for i in ordered if isinstance(i, Person)
                   and i.id not in hidden_people and not i.confidential
                   for n in names_of(i) if len(n.split()) >= 2
                   and protected_words & set(_fold(n).split())
                   and _fold(n) not in replacements})
    describe: Describer | None = None
    name_words = [w for n in anchors for w in n.split() if not n.startswith("Source ")]
    if anchors:
        describe = describer(anchors, descriptors, roles, kept)
        shared = {_fold(n) for i in ordered if isinstance(i, Organization) and i.id not in alone
                  and not i.confidential for n in names_of(i)}
        derived = {s for s in derive(_case_texts(ordered), describe, name_words)
                   if _fold(s) not in shared}
        descriptors = [*descriptors, *sorted(derived)]
        describe = describer(anchors, descriptors, roles, kept)
    longest_first = tuple(sorted(originals.values(), key=lambda n: (-len(n), n)))
    folded_names = set(originals)
    extra = [d for d in dict.fromkeys(descriptors) if _fold(d) not in folded_names]
    protected = tuple(sorted({*(_unless(n, kept) for n in longest_first), *forbidden, *extra,
                              *initial_forms}, key=lambda n: (-len(n), n)))
    for name in kept:
        replacements.setdefault(_fold(name), KEEP)
    pattern = None
    if originals:
        every = sorted({*longest_first, *kept}, key=lambda n: (-len(n), n))  # longest first
        alternatives = "|".join(_loose(n) for n in every)
        pattern = re.compile(
            rf"(?<![^\W_])(?P<name>{alternatives})(?P<possessive>['\u2019]s)?(?![^\W_])",
            re.IGNORECASE)
    return Disclosure(
        profile=chosen,
        hidden=frozenset(i.id for i in confidential if i.id not in pseudonyms),
        pseudonyms=pseudonyms,
        protected=protected,
        _replacements=replacements,
        _pattern=pattern,
        _describe=describe,
        _initials=initial_forms,
        _initials_pattern=_initials_pattern(initial_forms),
    )


def _unless(name: str, kept: Sequence[str]) -> str:
    """``name`` as a protected string; a :class:`Protected` carrying the kept names that hold
    it as a word (the self-check does not count it inside them)."""
    word = _fold(name)
    inside = [k for k in kept if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", _fold(k))]
    return Protected(name, inside) if inside else name


def case_evidenced(session: Session, case_id: int) -> EvidenceSpans:
    """Where the case's items have evidence (``evidenced`` of :func:`disclosure_for`): item id
    -> (document id, start, end) of each linked passage."""
    rows = session.execute(
        select(EvidenceLink.item_id, Passage.document_id, Passage.start, Passage.end,
               EvidenceLink.document_id)
        .outerjoin(Passage, Passage.id == EvidenceLink.passage_id)
        .where(EvidenceLink.case_id == case_id))
    out: dict[int, list[tuple[int | None, int | None, int | None]]] = {}
    for item_id, doc_id, start, end, whole in rows:
        out.setdefault(item_id, []).append((doc_id if doc_id is not None else whole, start, end))
    return out


def case_links(session: Session, case_id: int,
               ) -> list[tuple[EvidenceLink, Passage | None, int | None]]:
    """Every evidence link of case ``case_id`` in id order, as (the link, its passage or None
    for a whole document, the document id either way): what an export walks to write the
    links it may show (``Disclosure.evidence_shown``)."""
    rows = session.execute(
        select(EvidenceLink, Passage)
        .outerjoin(Passage, Passage.id == EvidenceLink.passage_id)
        .where(EvidenceLink.case_id == case_id).order_by(EvidenceLink.id))
    return [(link, passage, passage.document_id if passage is not None else link.document_id)
            for link, passage in rows]


def case_disclosure(
    session: Session, case_id: int, profile: str | ExportProfile | None = None,
) -> Disclosure:
    """The :class:`Disclosure` of case ``case_id`` under ``profile``: the one call an export
    (the brief, the calendar, the case archive) makes to learn what it may show, what to call
    confidential people, and which strings to search its written file for.

    Raises:
        ValidationError: an unknown profile name.
    """
    items = list(session.scalars(select(Item).where(Item.case_id == case_id)))
    return disclosure_for(items, profile, evidenced=case_evidenced(session, case_id))
