"""The words around a confidential person's name that identify them, found and cut
(ARCHITECTURE.md, "Descriptions go with the name").

A pseudonym or "[withheld]" protects a source only when the words around it do not name them
again: "Rosalind Achterberg, a procurement clerk at the Harbor Commission, said" identifies her
as surely as her name. :func:`strip_descriptions` is applied to every text an export prints
(through :meth:`casefile.services.disclosure.Disclosure.substitute`), before the names are
replaced, and does two things:

1. Around each *anchor* (a name of a confidential person, or a pseudonym) it cuts

   * an appositive or relative clause after the name: from the comma after it to the next
     comma (both cut) or to the end of the sentence (the period kept), when the clause starts
     with an article, "who", "whose", "which", a possessive pronoun, an age or a role word
     ("X, a procurement clerk at the Harbor Commission, said" -> "X said"); the same for a
     clause between dashes or in parentheses right after the name;
   * an organization after the name: "of", "at", "from" or "with", then capitalized words
     ("X of the Harbor Commission said" -> "X said");
   * a role before the name: the word just before it is a role word (a title, a job noun, an
     honorific), and the capitalized words and job words before that go with it
     ("Broward County Sheriff's Deputy X" -> "X"; "procurement clerk X" -> "X");
   * an appositive before the name: "the school resource officer, X," -> "X,".

   A possessive after the name is kept ("X's memo").
2. Every *descriptor* (the person's role and its parts, an organization that is theirs alone,
   the reporter's identifying phrases, contact details found in their contact field or their
   notes, and everything step 1 cut anywhere in the case: see :func:`derive`) is replaced by
   "[withheld]" wherever it is written, possessive kept ("the clerk's memo" with the role
   "clerk" -> "the [withheld]'s memo"): a pronoun sentence after a described one ("She has been
   the procurement clerk since 2019") and a source naming their own job in a quote are covered
   by this.

What it cannot do: understand a description that uses none of these words (the reporter adds
such phrases to the person: "identifying phrases"), or know that a common word identifies
someone in one story. The export's self-check (:mod:`casefile.export.pdf_check`) searches every
written file for the names and descriptors and refuses the export when one is left.

Pure functions on strings: no database, no Qt.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from casefile.extract import lexicon as lx

WITHHELD = "[withheld]"

#: Generic job nouns (besides the titles of :mod:`casefile.extract.lexicon`) that make the
#: words before a name a role ("procurement clerk X").
JOB_WORDS = frozenset({
    "clerk", "officer", "manager", "director", "spokesperson", "spokesman", "spokeswoman",
    "analyst", "engineer", "accountant", "secretary", "aide", "inspector", "supervisor",
    "contractor", "employee", "worker", "official", "staffer", "auditor", "nurse", "doctor",
    "technician", "assistant", "coordinator", "dispatcher", "consultant", "lawyer", "attorney",
    "agent", "guard", "driver", "operator", "administrator", "executive", "chairman",
    "chairwoman", "chair", "treasurer", "controller", "planner", "adviser", "advisor",
    "researcher", "scientist", "professor", "lecturer", "foreman", "janitor", "paralegal",
    "investigator", "trooper", "deputy", "sergeant", "captain", "lieutenant", "detective",
    "chief", "head", "whistleblower", "insider", "informant", "intern", "volunteer", "member",
    "resident", "neighbor", "teacher", "principal", "coach", "counselor", "student", "dean",
    "superintendent", "librarian", "custodian", "priest", "pastor", "physician", "surgeon",
    "paramedic", "firefighter", "soldier", "pilot", "mechanic", "cashier", "bookkeeper",
    "receptionist", "editor", "reporter", "producer", "owner", "founder", "partner", "ceo",
    "cfo", "coo", "president", "vice", "commissioner", "councilman", "councilwoman", "mayor",
    "sheriff", "undersheriff", "judge", "prosecutor", "senator", "representative", "governor",
})

#: Words that start a clause describing the name before it ("X, a clerk", "X, who...").
CLAUSE_STARTS = frozenset({
    "a", "an", "the", "who", "whom", "whose", "which", "his", "her", "their", "its", "now",
    "formerly", "former", "once", "then", "herself", "himself", "themselves", "one", "also",
    "aged", "age", "then-", "longtime", "veteran", "acting", "interim", "retired", "senior",
})

#: Words that end a role run before a name (walking back from it): verbs of speech and the
#: common function words.
_STOP_BEFORE = frozenset(lx.FUNCTION_WORDS - {"former", "officials", "police"}) | {
    "said", "says", "told", "asked", "wrote", "added", "spoke", "met", "called", "named",
    "according", "reached", "interviewed", "contacted", "is", "was", "were", "are", "be",
    "been", "had", "has", "have", "did", "does", "do", "by", "to", "that", "when", "yesterday",
    "today", "tomorrow", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
    "sunday", "dear", "ask", "call", "email", "interview", "quoted",
}

_ABBREVIATIONS = frozenset(lx.ABBREVIATIONS) | {w.rstrip(".") for w in lx.HONORIFICS}
#: Words that make the words before a comma a sentence, not a description ("the mayor said
#: that the clerk, X, ...": the appositive is "the clerk").
_VERBISH = frozenset({"said", "says", "told", "is", "was", "were", "are", "that", "who",
                      "which", "had", "has", "have", "will", "would", "did", "asked", "wrote"})
_ARTICLE = re.compile(r"(?:(?<=[\s(\u201c\"])|^)(?:the|a|an|former)\s", re.IGNORECASE)
_ORG_CONNECTORS = ("of", "for", "and", "the", "&", "on", "de")
_CAP = r"[A-Z][\w'\u2019&.-]*"
_ORG_AFTER = re.compile(
    rf"\s+(?:of|at|from|with)\s+(?:the\s+)?(?P<org>{_CAP}"
    rf"(?:\s+(?:(?:{'|'.join(_ORG_CONNECTORS)})\s+)?{_CAP})*)")
#: The end of a clause after the comma that opened it.
_CLAUSE_END = re.compile(r",|;|:|\n|[\u201d\"\u2014)]|--|[.!?](?=[\s\u201d\"'\u2019)]|$)")
_WORD_BEFORE = re.compile(r"(?P<word>[\w'\u2019.-]+)\s+$")
_COPULA_AFTER = re.compile(
    r"\s+(?:is|was|has been|had been|works as|worked as|served as|serves as)\s+"
    r"(?:the|a|an)\s+(?P<what>[^,.;:!?\n\"\u201c\u201d()]{3,80})")
_SPLIT_AFFILIATION = re.compile(r"\s+(?:at|of|for|with|in)\s+(?:the\s+)?(?=[A-Z])")


@dataclass(frozen=True)
class Describer:
    """What :func:`strip_descriptions` works with for one export: ``anchors`` (a regex of the
    confidential people's names and pseudonyms, longest first, or None), ``descriptors`` (a
    regex of the strings replaced by "[withheld]" everywhere, or None) and ``role_words`` (the
    lower-case words that make the words before a name a role); ``keep`` (a regex of shown
    people's names that hold an anchor's word, or None)."""

    anchors: re.Pattern[str] | None
    descriptors: re.Pattern[str] | None
    role_words: frozenset[str]
    #: Names of people the export shows that hold an anchor's word ("Linda Ibarra" when the
    #: source is "José Ibarra"): an anchor inside one of them is not the source.
    keep: re.Pattern[str] | None = None


def loose(text: str) -> str:
    """A regex for ``text``: any case (with re.IGNORECASE), curly or straight apostrophes, any
    run of spacing between its words."""
    parts = []
    for word in text.split():
        parts.append(re.escape(word).replace("'", "['\u2018\u2019]").replace(
            "\u2019", "['\u2018\u2019]"))
    return r"\s+".join(parts)


def alternation(strings: Iterable[str]) -> re.Pattern[str] | None:
    """A whole-word regex of ``strings`` (longest first), a possessive "'s" after a match in
    the group ``possessive``; None for no strings."""
    ordered = sorted({" ".join(s.split()) for s in strings if s and s.strip()},
                     key=lambda s: (-len(s), s))
    if not ordered:
        return None
    alternatives = "|".join(loose(s) for s in ordered)
    return re.compile(rf"(?<![^\W_])(?P<name>{alternatives})(?P<possessive>['\u2019]s)?"
                      r"(?![^\W_])", re.IGNORECASE)


def describer(anchors: Iterable[str], descriptors: Iterable[str],
              roles: Iterable[str] = (), keep: Iterable[str] = ()) -> Describer:
    """The :class:`Describer` of an export: ``anchors`` the names (and pseudonyms) of its
    confidential people, ``descriptors`` the strings withheld wherever they are, ``roles``
    their roles (each word of a role counts as a role word before a name)."""
    words = set(JOB_WORDS) | {w.rstrip(".") for w in lx.HONORIFICS}
    for title in lx.TITLES:
        words.update(title.split())
    for role in roles:
        words.update(w.casefold().strip("(),") for w in role.split())
    return Describer(alternation(anchors), alternation(descriptors), frozenset(words),
                     alternation(keep))


def _is_role_word(word: str, d: Describer) -> bool:
    bare = word.casefold().replace("\u2019", "'").removesuffix("'s").strip(".,()")
    return bare in d.role_words


def _role_start(text: str, start: int, d: Describer) -> int:
    """Where a role written just before the name at ``start`` begins (``start`` itself when
    there is none): the word before the name is a role word; capitalized words and role
    words before it go with it, up to a function word, a verb of speech or a sentence end."""
    cut = start
    pos = start
    taken = 0
    first = True
    while taken < 7:
        m = _WORD_BEFORE.search(text, max(0, pos - 60), pos)
        if m is None or "\n\n" in text[m.start():pos]:
            break
        word = m.group("word")
        bare = word.casefold().replace("\u2019", "'").strip(".")
        if word.endswith((".", "!", "?")) and bare not in _ABBREVIATIONS:
            break  # the end of the sentence before
        if bare in _STOP_BEFORE or bare.removesuffix("'s") in _STOP_BEFORE:
            break
        role = _is_role_word(word, d)
        if first and not role:
            break
        capital = word[:1].isupper()
        if not (role or capital or (taken < 3 and word.isalpha() and word.islower()
                                    and _has_role_after(text, m.end(), start, d))):
            break
        pos = cut = m.start()
        taken += 1
        first = False
        if text[max(0, pos - 2):pos].strip() in (".", "!", "?"):
            break
    return cut


def _has_role_after(text: str, begin: int, end: int, d: Describer) -> bool:
    return any(_is_role_word(w, d) for w in text[begin:end].split())


def _appositive_before(text: str, start: int) -> int | None:
    """Where an appositive that ends with a comma just before the name at ``start`` begins
    ("in addition to the school resource officer, X," -> the offset of "the"), or None: the
    earliest article after the last punctuation whose words up to the comma are at most 8 and
    hold no verb, after a function word or at the start of the clause."""
    before = text[max(0, start - 120):start]
    comma = re.search(r",\s*$", before)
    if comma is None:
        return None
    chunk_end = comma.start()
    lo = max((before.rfind(c, 0, chunk_end) for c in ",.;:!?\n\u201c\"()"), default=-1) + 1
    chunk = before[lo:chunk_end]
    for art in _ARTICLE.finditer(chunk):
        words = chunk[art.start():].split()
        if len(words) > 8 or {w.casefold() for w in words} & _VERBISH:
            continue
        previous = chunk[:art.start()].split()
        if previous and previous[-1].casefold() not in _STOP_BEFORE:
            continue
        return max(0, start - 120) + lo + art.start()
    return None


def _clause_after(text: str, pos: int, d: Describer) -> tuple[int, int, str] | None:
    """An appositive or relative clause right after ``pos`` (the end of a name): ``(cut start,
    cut end, the clause's words)``, or None."""
    opener = re.match(r",\s+|\s+\(\s*|\s*(?:\u2014|--|\u2013)\s*", text[pos:pos + 6])
    if opener is None:
        return None
    begin = pos + opener.end()
    first = re.match(r"[\w'\u2019-]+", text[begin:begin + 40])
    if first is None:
        return None
    word = first.group().casefold()
    paren = "(" in opener.group()
    dash = not paren and "," not in opener.group()
    if not (paren or word in CLAUSE_STARTS or word.isdigit() or _is_role_word(word, d)
            or (d.descriptors is not None and d.descriptors.match(text, begin))):
        return None
    if paren:
        close = text.find(")", begin)
        if close < 0 or close - begin > 200:
            return None
        return pos, close + 1, text[begin:close]
    end = _CLAUSE_END.search(text, begin)
    stop = end.start() if end else len(text)
    if stop - begin > 200:
        return None
    mark = end.group() if end else ""
    clause = text[begin:stop]
    if mark == "," or (dash and mark in ("\u2014", "--")):
        after = end.end() if end else stop
        # "X, a clerk, said" -> "X said": both commas go, one space stays
        return pos, after, clause
    return pos, stop, clause


def _descriptions_of(clause: str, d: Describer) -> list[str]:
    """The strings a cut clause gives to withhold everywhere: the clause without its leading
    article, for "ROLE at ORGANIZATION" the role and the organization apart, and for a role
    of several words ending in a job word, "the" and that word ("the clerk")."""
    words = " ".join(clause.replace("\u2019", "'").split()).strip(" ,;:")
    if not words:
        return []
    out = [words]
    head = words.split(" ", 1)
    if head[0].casefold() in ("a", "an", "the", "former") and len(head) > 1:
        out.append(head[1])
        words = head[1]
    parts = _SPLIT_AFFILIATION.split(words, maxsplit=1)
    if len(parts) == 2:
        out += [parts[0], parts[1]]
    out += role_heads(parts[0], d.role_words)
    return out


def role_heads(role: str, role_words: Iterable[str]) -> list[str]:
    """For a role of several words ending in a job word, "the" and that word ("procurement
    clerk" -> ["the clerk"]): what a later sentence calls the same person."""
    words = role.split()
    if len(words) >= 2 and words[-1].casefold() in role_words:
        return [f"the {words[-1]}"]
    return []


@dataclass
class Cut:
    """One stretch of text to remove around an anchor, and the words it withheld."""

    start: int
    end: int
    found: list[str]


def cuts(text: str, d: Describer) -> list[Cut]:
    """The stretches of ``text`` :func:`strip_descriptions` removes around the anchors, in
    order, without overlaps (the anchors themselves are kept)."""
    if d.anchors is None or not text:
        return []
    out: list[Cut] = []
    for m in anchor_matches(text, d):
        start, end = m.span()
        found: list[str] = []
        block = signature_block(text, start, end)
        if block is not None:
            out.append(block)
        # before the name: an appositive ("the school resource officer, X,") or a role
        after_name = text[end:end + 2]
        app = _appositive_before(text, start) if after_name.startswith(",") else None
        if app is not None:
            out.append(Cut(app, start, _descriptions_of(text[app:start], d)))
        else:
            role = _role_start(text, start, d)
            if role < start:
                words = " ".join(text[role:start].split())
                out.append(Cut(role, start, [words, *role_heads(words, d.role_words)]))
        if m.group("possessive"):
            continue
        pos = end
        org = _ORG_AFTER.match(text, pos)
        if org is not None:
            found.append(org.group("org"))
            out.append(Cut(pos, org.end(), found))
            pos = org.end()
        clause = _clause_after(text, pos, d)
        if clause is not None:
            cut_start, cut_end, words = clause
            out.append(Cut(cut_start, cut_end, _descriptions_of(words, d)))
        copula = _COPULA_AFTER.match(text, pos)
        if copula is not None:  # "X is the procurement clerk": withheld, not cut
            out.append(Cut(pos, pos, _descriptions_of(copula.group("what"), d)))
    out.sort(key=lambda c: (c.start, c.end))
    merged: list[Cut] = []
    for c in out:
        if merged and c.start < merged[-1].end:
            merged[-1].end = max(merged[-1].end, c.end)
            merged[-1].found += c.found
        else:
            merged.append(c)
    return merged


def anchor_matches(text: str, d: Describer) -> list[re.Match[str]]:
    """The anchors' matches in ``text``, without those inside a kept name (``d.keep``)."""
    if d.anchors is None:
        return []
    kept = [m.span() for m in d.keep.finditer(text)] if d.keep is not None else []
    return [m for m in d.anchors.finditer(text)
            if not any(a <= m.start() and m.end() <= b for a, b in kept)]


#: A signature block: the lines under a line that holds only the name (after "--", "Best," or
#: the like), up to a blank line; at most this many lines of at most this many characters.
SIGNATURE_LINES = 6
SIGNATURE_LINE_CHARS = 80
_SIGN_OFF = re.compile(r"^[\s>]*(?:--+|\u2014|\u2013|[A-Z][\w ]{0,20},)?\s*$")


def signature_block(text: str, start: int, end: int) -> Cut | None:
    """The lines of a signature block under the name at ``text[start:end]`` (title,
    organization, phone, address), as a Cut, or None when the name does not stand alone on
    its line or no short lines follow it."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    if line_end < 0 or not _SIGN_OFF.match(text[line_start:start]) \
            or text[end:line_end].strip(" ,.;:\t\r"):
        return None
    pos = stop = line_end
    for _ in range(SIGNATURE_LINES):
        nxt = text.find("\n", pos + 1)
        line = text[pos + 1: nxt if nxt >= 0 else len(text)]
        if not line.strip() or len(line) > SIGNATURE_LINE_CHARS:
            break
        stop = nxt if nxt >= 0 else len(text)
        if nxt < 0:
            break
        pos = nxt
    if stop == line_end:
        return None
    return Cut(line_end, stop, [])


def strip_descriptions(text: str, d: Describer) -> str:
    """``text`` without what identifies a confidential person around their name, and with
    every descriptor "[withheld]" (module docstring); names are left for the caller to
    replace."""
    if not text:
        return text
    pieces: list[str] = []
    last = 0
    for c in cuts(text, d):
        if c.end <= c.start:
            continue
        pieces.append(text[last:c.start])
        last = c.end
        # keep one space between the words the cut joins ("X said", not "Xsaid")
        if pieces[-1] and not pieces[-1][-1].isspace() and last < len(text) \
                and text[last].isalnum() and text[c.start - 1:c.start].isalnum():
            pieces.append(" ")
    pieces.append(text[last:])
    out = "".join(pieces)
    if d.descriptors is not None:
        out = d.descriptors.sub(
            lambda m: WITHHELD + (m.group("possessive") or ""), out)
    return out


#: Derived strings shorter than this, or without a letter, are not withheld everywhere.
MIN_DERIVED_CHARS = 4

#: A separator of an e-mail address as written or spelled out to dodge scrapers: "." or
#: " dot " or "(dot)" / "[dot]"; the same for "@".
_DOT = r"(?:\.|\s+dot\s+|\s*[(\[]dot[)\]]\s*)"
_AT = r"(?:@|\s+at\s+|\s*[(\[]at[)\]]\s*)"
#: Contact details written in a text: an e-mail address (also "name dot surname at host dot
#: org"), a web address, an @handle, a phone number (7 to 15 digits with the usual
#: separators; an ISO date is not one).
CONTACT_IN_TEXT = re.compile(
    rf"[\w+-]+(?:{_DOT}[\w+-]+)*{_AT}[\w-]+(?:{_DOT}[\w-]+)*{_DOT}[a-z]{{2,24}}(?![\w-])"
    r"|(?:https?://|www\.)\S+"
    r"|(?<![\w@])@\w{3,}"
    r"|(?<![\w.-])\+?\(?\d[\d\s().-]{5,}\d(?![\w-])",
    re.IGNORECASE)
#: :data:`CONTACT_IN_TEXT` whose e-mail part never starts inside a run of name characters or
#: right after "x." (a match there would also start where the run or the dotted name begins):
#: one try per word, not one per character, so a long word (a document of 5 MB without a
#: space) is read in linear time instead of quadratic. :func:`contacts_in` tries the full
#: pattern where the previous match ended, the one place that rule could skip.
_CONTACT_STARTS = re.compile(
    rf"(?<![\w+-])(?<![\w+-]\.)"
    rf"[\w+-]+(?:{_DOT}[\w+-]+)*{_AT}[\w-]+(?:{_DOT}[\w-]+)*{_DOT}[a-z]{{2,24}}(?![\w-])"
    r"|(?:https?://|www\.)\S+"
    r"|(?<![\w@])@\w{3,}"
    r"|(?<![\w.-])\+?\(?\d[\d\s().-]{5,}\d(?![\w-])",
    re.IGNORECASE)
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
def _plain(text: str) -> str:
    """``text`` case-folded, accents dropped, letters and digits only."""
    folded = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in folded if c.isalnum() and not unicodedata.combining(c))


#: The end of a sentence (or a line), for the sentences around a name.
_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n")


def _contact_matches(text: str) -> Iterator[re.Match[str]]:
    """``CONTACT_IN_TEXT.finditer(text)``, in linear time (:data:`_CONTACT_STARTS`)."""
    pos = 0
    while pos < len(text):
        m = None
        if pos:  # where the last match ended: it, or the "." after it, may go on a name
            m = CONTACT_IN_TEXT.match(text, pos)
            if m is None and text[pos] == ".":
                m = CONTACT_IN_TEXT.match(text, pos + 1)
        if m is None:
            m = _CONTACT_STARTS.search(text, pos)
        if m is None:
            return
        yield m
        pos = m.end()


def contacts_in(text: str) -> list[str]:
    """The contact details written in ``text`` (:data:`CONTACT_IN_TEXT`), in order, trailing
    punctuation dropped; a phone number counts with 7 to 15 digits."""
    out: list[str] = []
    for m in _contact_matches(text):
        piece = m.group().strip().rstrip(".,;:)")
        if piece[:1].isdigit() or piece[:1] in "+(":
            digits = sum(c.isdigit() for c in piece)
            if not 7 <= digits <= 15 or _ISO_DATE.fullmatch(piece):
                continue
        out.append(" ".join(piece.split()))
    return out


#: A sentence starting with one of these continues about the person named just before it.
_PRONOUN_START = re.compile(r"\s*[\"\u201c(]?(?:she|he|her|his|hers|they|their|them)\b",
                            re.IGNORECASE)


def _sentences_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The span of the sentence holding ``text[start:end]`` and, when the next sentence starts
    with a personal pronoun ("Her phone is …"), of that one too."""
    begin = 0
    for before in _SENTENCE_END.finditer(text, 0, start):
        begin = before.end()
    after = _SENTENCE_END.search(text, end)
    if after is None:
        return begin, len(text)
    stop = after.end()
    if _PRONOUN_START.match(text, stop):
        after = _SENTENCE_END.search(text, stop)
        stop = len(text) if after is None else after.end()
    return begin, stop


def derive(texts: Iterable[str], d: Describer, name_words: Iterable[str] = ()) -> set[str]:
    """Every string :func:`cuts` withholds around the anchors in ``texts``: the descriptions a
    case's own documents and notes give of its confidential people (module docstring), and the
    contact details written in the sentence that names one of them or in a pronoun sentence
    after it (an e-mail address, spelled out or not, a phone number, a handle), and anywhere in
    the texts an e-mail address or handle whose name part holds one of ``name_words`` (the
    confidential people's names, 4 letters or more)."""
    found: set[str] = set()
    parts = [w for w in {_plain(w) for w in name_words} if len(w) >= MIN_DERIVED_CHARS]
    for text in texts:
        if not text:
            continue
        if parts:  # an address or handle built from a name ("jibarra@…"), wherever it is
            for piece in contacts_in(text):
                local = _plain(re.split(r"@|\s+at\s+|\s*[(\[]at[)\]]", piece)[0])
                if any(w in local for w in parts):
                    found.add(piece)
        if d.anchors is not None:  # contact details in the sentence naming them, or the next
            for m in anchor_matches(text, d):
                begin, stop = _sentences_around(text, *m.span())
                found.update(contacts_in(text[begin:stop]))
        for c in cuts(text, d):
            for words in c.found:
                words = " ".join(words.split()).strip(" ,;:.()\"\u201c\u201d")
                if len(words) >= MIN_DERIVED_CHARS and re.search(r"[^\W\d_]", words):
                    found.add(words)
    return found
