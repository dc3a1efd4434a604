"""Organisation mentions read by the words around them (ARCHITECTURE.md, "Names: typed by
their own context, joined when unambiguous"), the rules that decide on the organisation
candidates before they are joined:

- :func:`sentence_openers`: a common word that opens a sentence before a name the text writes
  without it ("Several <Org>") is not part of the name;
- :func:`common_word`: one word only the model read as an organisation, once, at the opening of
  a sentence, that the text also writes in lower case, is a common word;
- :func:`hyphen_pairs`: two names the text writes on their own, joined by a hyphen ("<A>-<B>
  merger", "<Country>-<Country> trade"), are those two names, not a third;
- :func:`outlet_surnames`: a news outlet's name that the text writes as a person's family name
  ("<First> <Outlet>") is that person's name, not the outlet, wherever it stands alone;
- :func:`written_as_places`: an organisation only the model read, written as a place once (an
  area or land noun after it, a street address, where a person lives), is a place.
"""

from __future__ import annotations

import re
from dataclasses import replace

from casefile.extract.lexicon import NEWS_OUTLETS
from casefile.extract.organizations import OrgCluster
from casefile.extract.text import norm_key
from casefile.extract.types import Candidate

#: Nouns for an area or a piece of land after a name: "the <Name> neighborhood", "the <Name>
#: foothills", "the <Name> camp".
_AREA_NOUNS = re.compile(r"[ ](?:neighborhood|neighbourhood|area|section|suburb|township|"
                         r"community|subdivision|corridor|district|foothills|mountains|coast|"
                         r"basin|peninsula|desert|camp|crossing|border)\b")
#: A street address: a house number, then a name ending in a word for a street.
_HOUSE_NUMBER = re.compile(r"(?<![\w,.])\d{1,5}[ ]$")
_STREET_WORDS = frozenset({"street", "st.", "avenue", "ave.", "road", "rd.", "place", "drive",
                           "lane", "boulevard", "blvd.", "way", "circle", "parkway", "terrace"})
#: Where a person lives, in a report's "<Name>, <age>, of <Town>".
_RESIDENCE = re.compile(r"\b\d{1,3},[ ]of[ ]$")


def _opens_sentence(ft: str, pos: int) -> bool:
    """True if ``ft[pos]`` starts a sentence: the text's start, a new line, or after a full
    stop, a question or an exclamation mark or a closing quotation mark."""
    before = ft[max(0, pos - 4):pos].rstrip()
    return pos == 0 or not before or before[-1] in ".!?\"\n" or "\n" in ft[max(0, pos - 2):pos]


def _capitalised_inside(ft: str, word: str) -> bool:
    """True if ``word`` (capitalised) is written somewhere not at the start of a sentence: a
    name's word, not a common word capitalised by its place."""
    return any(not _opens_sentence(ft, m.start()) for m in re.finditer(
        rf"(?<![\w'-]){re.escape(word)}(?![\w'-])", ft))


def sentence_openers(ft: str, orgs: list[Candidate]) -> list[Candidate]:
    """``orgs`` (organisation candidates, str offsets into ``ft``) with a sentence's first word
    cut off a name when the rest is the name of another mention and the word is never written
    capitalised inside a sentence: "<Adjective> <Org> members said" is "<Org>"."""
    names = {norm_key(c.name) for c in orgs}
    out = []
    for c in orgs:
        words = c.name.split()
        if len(words) >= 2 and ft[c.start:c.end] == c.name and _opens_sentence(ft, c.start):
            start = c.start + len(words[0]) + 1
            rest = ft[start:c.end]
            if norm_key(rest) in names and not _capitalised_inside(ft, words[0]):
                out.append(replace(c, start=start, name=rest, notes=dict(c.notes)))
                continue
        out.append(c)
    return out


def _place_mention(ft: str, c: Candidate) -> bool:
    """True if one mention is written as a place: an area or land noun after it, a house
    number before a street's name, "<age>, of" before it."""
    if _AREA_NOUNS.match(ft, c.end):
        return True
    before = ft[max(0, c.start - 12):c.start]
    if _HOUSE_NUMBER.search(before) and c.name.split()[-1].lower() in _STREET_WORDS:
        return True
    return bool(_RESIDENCE.search(before))


def written_as_places(ft: str, clusters: list[OrgCluster], places: list[Candidate]
                      ) -> list[OrgCluster]:
    """``clusters`` without the organisations only the model read that one mention of their
    whole name writes as a place ("the <Name> neighborhood", "at <number> <Name> Place",
    "<person>, <age>, of <Town>"); their mentions are added to ``places``, and so are such
    mentions of an organisation named otherwise ("<Town>" joined to "<Town> Grange")."""
    keep = []
    for cl in clusters:
        if all(c.source == "model" for c in cl.cands) and any(
                _place_mention(ft, c) and norm_key(c.name) == cl.key for c in cl.cands):
            places.extend(Candidate("place", c.start, c.end, c.name, "model") for c in cl.cands)
            continue
        moved = [c for c in cl.cands if c.source == "model" and _place_mention(ft, c)]
        if moved and len(moved) < len(cl.cands):  # the town's mention, not the Grange's
            cl.cands = [c for c in cl.cands if c not in moved]
            places.extend(Candidate("place", c.start, c.end, c.name, "model") for c in moved)
        keep.append(cl)
    return keep


def outlet_surnames(rule_orgs: list[Candidate], model: list[Candidate]) -> list[Candidate]:
    """``rule_orgs`` without the news outlets the outlet list found whose word the model reads
    as the family name of a person ("<First> <Outlet>" inside a person's name): the word list
    matches with no context, and the same word alone is then that person, as the model reads
    it there."""
    persons = [c for c in model if c.kind == "person" and len(c.name.split()) >= 2]
    surnames = {c.name.split()[-1] for c in persons}
    named = {o.name for o in rule_orgs if o.name in NEWS_OUTLETS and o.name in surnames
             and any(p.start < o.start and o.end == p.end for p in persons)}
    return [o for o in rule_orgs if o.name not in named]


_PAIR = re.compile(r"(?P<a>[^\W\d_][\w.&' ]*?)-(?P<b>[A-Z][\w.&' ]*)")


def hyphen_pairs(ft: str, orgs: list[Candidate], places: list[Candidate]) -> list[Candidate]:
    """``orgs`` (str offsets into ``ft``) with each model organisation "<A>-<B>" whose two
    sides are both names of other mentions of the text (an organisation or a place) cut into
    those two, each of the kind the text gives it elsewhere (an organisation first); the
    place pieces are added to ``places``. A name whose sides are not names alone ("<Word>-
    <Word>" of one company) stays whole."""
    org_keys = {norm_key(c.name) for c in orgs}
    place_keys = {norm_key(c.name) for c in places}
    out = []
    for c in orgs:
        m = _PAIR.fullmatch(c.name)
        if c.source != "model" or m is None or ft[c.start:c.end] != c.name:
            out.append(c)
            continue
        sides = [(c.start + m.start(g), c.start + m.end(g), norm_key(m.group(g)))
                 for g in ("a", "b")]
        if not all(k in org_keys or k in place_keys for _s, _e, k in sides):
            out.append(c)
            continue
        for s, e, k in sides:
            piece = Candidate("organization" if k in org_keys else "place", s, e, ft[s:e],
                              "model")
            (out if piece.kind == "organization" else places).append(piece)
    return out


def common_word(ft: str, cl: OrgCluster) -> bool:
    """True for an organisation of one mention of one word, only the model's, that opens a
    sentence and is written in lower case elsewhere in ``ft`` ("<Subject> advocacy groups
    said", the subject written "<subject>" in another sentence): a common word capitalised
    by its place."""
    if len(cl.cands) != 1 or cl.cands[0].source != "model":
        return False
    c = cl.cands[0]
    word = ft[c.start:c.end]
    return (" " not in word and word[:1].isupper() and word[1:].islower()
            and _opens_sentence(ft, c.start)
            and re.search(rf"(?<![\w'-]){re.escape(word.lower())}(?![\w'-])", ft) is not None)
