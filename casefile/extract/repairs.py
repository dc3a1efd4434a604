"""Repairs of the statistical model's entity spans before they are cleaned and used.

The small English model joins things that are not one name: a name and the next line
("<name>\\nTimeline"), a person and the organisation after "of" ("<person> of <hospital>"), two
entities joined by "and", an owner and what it owns ("<university>'s <school>"), a role and its
organisation ("CEO of <company>"). ``split_entity`` cuts such spans into the entities they hold.
Every rule here was kept because it raised F1 on the article corpus that
``tests/extract/test_corpus_quality.py`` scores.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from casefile.extract import lexicon as lx
from casefile.extract.model import ModelEntity
from casefile.extract.types import Candidate

# Role words that head a span ("CEO of X", "Founder and CEO of X"): the span after "of" is the
# organisation, the role words are no one's name.
_ROLE_WORDS = {"ceo", "cfo", "coo", "cto", "founder", "co-founder", "cofounder", "president",
               "chairman", "chairwoman", "chair", "director", "head", "chief", "executive",
               "vice", "senior", "general", "manager", "partner", "owner", "editor", "publisher",
               "spokesman", "spokeswoman", "spokesperson", "member", "members", "secretary",
               "administrator", "commissioner", "deputy", "assistant", "associate", "professor",
               "dean", "minister", "officer", "staff", "chancellor", "provost", "and", "&"}
_GENERIC_ORG = {"university", "college", "school", "hospital", "department", "office", "company",
                "court", "board", "agency", "ministry", "government", "administration", "state",
                "city", "county", "party", "group", "police", "army", "center", "centre"}
# Nouns for things an organisation is not named after, in a person's name ("Eva-Marie ..."
# after "Director of Public Prosecution"): words with these endings are not personal names.
_SUBJECT_END = re.compile(r"(?:tion|sion|ment|ity|ics|ism|ogy|ship|ness)s?$")


# Possessives that belong to an organisation's name ("Children's Hospital").
_OWNER_IN_NAME = {"children", "women", "men", "people", "veterans", "workers", "st", "saint",
                  "magistrate", "governor", "attorney", "sheriff", "mayor", "president",
                  "farmers", "citizens", "lawyers", "doctors", "nurses", "teachers"}


@dataclass(frozen=True)
class Piece:
    """A part of a model entity: its label ("PERSON", "ORG", ...) and str offsets."""

    label: str
    start: int
    end: int


def _first_line(ft: str, ent: ModelEntity) -> tuple[int, int]:
    """The entity's span cut at its first line break (names never cross a line)."""
    seg = ft[ent.start:ent.end]
    cut = seg.find("\n")
    if cut < 0:
        return ent.start, ent.end
    return ent.start, ent.start + len(seg[:cut].rstrip())


def _is_role_words(words: list[str]) -> bool:
    return bool(words) and all(w.lower().strip(",") in _ROLE_WORDS for w in words)


def looks_like_person(words: list[str]) -> bool:
    """Two to four capitalised words that could be a personal name (no organisation word, no
    subject noun such as "Prosecution", no all-caps word)."""
    if not 2 <= len(words) <= 4:
        return False
    for w in words:
        low = w.lower()
        if not w[:1].isupper() or w.isupper() and len(w) > 1:
            return False
        if low in lx.ORG_LAST_WORDS or low in lx.NOT_NAME_WORDS or low in _GENERIC_ORG:
            return False
        if low in lx.FUNCTION_WORDS or low in lx.TITLES or low in _ROLE_WORDS:
            return False
    return True


def _acronym(word: str) -> bool:
    """An all-capital word of two to six letters ("UN", "NATO")."""
    return bool(re.fullmatch(r"[A-Z]{2,6}", word))


def _acronym_or_org(words: list[str]) -> bool:
    """One acronym, or a whole organisation's name."""
    return (len(words) == 1 and _acronym(words[0])) or (len(words) >= 2 and _org_like(words))


def _org_like(words: list[str]) -> bool:
    """A whole organisation's name: it ends in an organisation word ("... Committee") or is
    "<head> of ..." ("Department of Homeland Security")."""
    if len(words) >= 2 and words[-1].lower() in lx.ORG_LAST_WORDS:
        return True
    return len(words) >= 3 and words[0].lower() in lx.ORG_HEADS_OF and words[1] == "of"


def split_entity(ft: str, ent: ModelEntity) -> list[Piece]:
    """The entities one model entity holds, as pieces with str offsets into ``ft``.

    - cut at a line break;
    - ORG "<person> of <org>" -> PERSON + ORG; "<role words> of <org>" -> ORG;
    - ORG or PERSON "<org> and <person>" / "<org> and <org>" -> both (only when each side is a
      whole name of its own, so "<Word> and <Two Words>" stays one, and "<head> of <A>
      and <B>" stays one unless "and the <org>" or an acronym follows); ORG "<ACRONYM> and
      <org>" / "<org> and <ACRONYM>" -> both;
    - ORG "<A>, <B>, <C>" (a list, no "of/on/for/and" before its first comma) -> each;
    - ORG "<owner>'s <org>" -> both, the owner only if it is an organisation's name;
    - PERSON whose leading words are subject nouns ("Public Prosecution <name>") -> the name.
    """
    start, end = _first_line(ft, ent)
    return split_span(ft, ent.label, start, end)


def split_rule_org(ft: str, cand: Candidate) -> list[Candidate]:
    """A rule organisation candidate cut as ``split_entity`` cuts a model ORG: only its
    organisation pieces are kept ("<person> of <hospital>" -> the hospital), renamed to their
    text; a candidate that holds one organisation is returned unchanged."""
    pieces = split_span(ft, "ORG", cand.start, cand.end)
    if len(pieces) == 1 and (pieces[0].start, pieces[0].end) == (cand.start, cand.end):
        return [cand]
    return [replace(cand, start=p.start, end=p.end, name=ft[p.start:p.end], notes=dict(cand.notes))
            for p in pieces if p.label == "ORG"]


def split_span(ft: str, label: str, start: int, end: int) -> list[Piece]:
    """The pieces of the span ``ft[start:end]`` labelled ``label`` (see ``split_entity``)."""
    seg = ft[start:end]
    if label in {"ORG", "PERSON"}:
        m = re.search(r"[ ]and[ ](?:the[ ])?", seg)
        if m and label in {"ORG", "PERSON"}:
            left = seg[:m.start()].split()
            right = seg[m.end():].split()
            if (_org_like(left) and looks_like_person(right)) or (
                    len(left) >= 2 and len(right) >= 2 and _org_like(left) and _org_like(right)
                    and (" of " not in seg[:m.start()] or m.group().endswith("the ")
                         or _acronym(right[0]))) or (
                    label == "ORG" and _acronym_or_org(left) and _acronym_or_org(right)
                    and (_acronym(left[0]) or _acronym(right[0]))):
                rs = start + m.end()
                right_label = "PERSON" if looks_like_person(right) else "ORG"
                return [Piece("ORG", start, start + m.start()), Piece(right_label, rs, end)]
    if label == "ORG" and ", " in seg:
        parts = seg.split(", ")
        if all(p[:1].isupper() for p in parts) and not re.search(
                r"[ ](?:of|on|for|and|&)[ ]", parts[0]):
            # a list the model read as one name ("<A>, <B> Aerospace"); not "<X> on <A>, <B>"
            out, at = [], start
            for p in parts:
                out.append(Piece("ORG", at, at + len(p)))
                at += len(p) + 2
            return [piece for p in out for piece in split_span(ft, "ORG", p.start, p.end)]
    if label == "ORG":
        m = re.search(r"[ ]of[ ](?:the[ ])?", seg)
        if m:
            left = seg[:m.start()].split()
            tail = seg[m.end():]
            rs = start + m.end()
            if _is_role_words(left):
                return [Piece("ORG", rs, end)]
            if looks_like_person(left):
                out = [Piece("PERSON", start, start + m.start())]
                if not (len(tail.split()) == 1 and tail.lower() in _GENERIC_ORG):
                    out.append(Piece("ORG", rs, end))
                return out
        m = re.search(r"'s[ ]", seg)
        if m:
            left = seg[:m.start()].split()
            right = seg[m.end():].split()
            owner = left[-1].lower() if left else ""
            if owner in lx.TITLES or owner in _ROLE_WORDS or owner in _OWNER_IN_NAME:
                return [Piece(label, start, end)]  # "<...> Attorney's Office", "Children's"
            if len(right) >= 2 and right[0][:1].isupper():
                out = []
                if _org_like(left) or (len(left) == 1 and left[0].isupper()):
                    out.append(Piece("ORG", start, start + m.start()))
                out.append(Piece("ORG", start + m.end(), end))
                return out
    if label == "PERSON":
        cut = subject_words_end(seg)
        if cut:
            return [Piece("PERSON", start + cut, end)]
    return [Piece(label, start, end)]


def subject_words_end(name: str) -> int:
    """Where the personal name starts in ``name`` after leading subject nouns ("Public
    Prosecution Eva-Marie Persson" -> 19); 0 if it starts at once. The last two words are
    always kept."""
    words = name.split(" ")
    cut = 0
    for i, w in enumerate(words[:-2]):
        if w[:1].isupper() and _SUBJECT_END.search(w.lower()):
            cut = i + 1
    return len(" ".join(words[:cut])) + 1 if cut else 0
