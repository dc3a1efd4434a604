"""Joining the mentions of one person: full names, surname-only and title+surname mentions,
names with or without middle initials, compound surnames and particles.

Rules: a surname-only mention joins the one person whose name ends with it; when two people share
that surname it joins neither (unless its title matches exactly one of them). Names are compared
with curly and straight apostrophes equal and case ignored; different surnames never join, however
similar ("Jon Baker" and "John Bakker" stay apart).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from casefile.extract.lexicon import PARTICLES, TITLES
from casefile.extract.text import fold, norm_key
from casefile.extract.types import Candidate, KnownItem


def name_words(name: str) -> list[str]:
    """Comparison words of a name: folded, case-folded, split on spaces."""
    return norm_key(name).split()


def _is_initial(w: str) -> bool:
    return bool(re.fullmatch(r"[^\W\d_]\.?", w))


_SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"}


def surname_forms(words: list[str]) -> set[tuple[str, ...]]:
    """The ways a full name can be shortened to its surname: the last word, and every longer
    ending that starts with a particle or forms a compound ("ramos vidal", "de la cruz")."""
    while len(words) > 2 and words[-1].rstrip(",") in _SUFFIXES:
        words = words[:-1]  # "Patrick Carlineo Jr." is shortened to "Carlineo"
    forms = {tuple(words[-1:])}
    for i in range(1, len(words) - 1):
        tail = tuple(words[i:])
        if not any(_is_initial(w) for w in tail):
            forms.add(tail)
    return forms


class PersonCluster:
    """One person: the candidates that mention them and an optional known item."""

    def __init__(self, words: list[str], known: KnownItem | None = None) -> None:
        self.words = words
        self.known = known
        self.cands: list[Candidate] = []
        self.forms: set[str] = {" ".join(words)}
        if known:
            self.forms |= {norm_key(a) for a in known.aliases}

    @property
    def name(self) -> str:
        if self.known:
            return self.known.name
        multi = [c for c in self.cands if len(c.name.split()) >= 2]
        pool = multi or self.cands
        best = max(pool, key=lambda c: (len(c.name.split()), -c.start))
        return fold(best.name)

    @property
    def surnames(self) -> set[tuple[str, ...]]:
        return surname_forms(self.words) if len(self.words) >= 2 else {tuple(self.words)}

    def roles(self) -> set[str]:
        return {c.role.lower() for c in self.cands if c.role}


def _core(words: list[str]) -> list[str]:
    return [w for w in words if not _is_initial(w) and w.rstrip(",") not in _SUFFIXES]


def _same_but_initials(a: list[str], b: list[str]) -> bool:
    """The same name but for middle initials, a generational suffix ("Jr.") and a short form
    of the first name ("Pat" / "Patrick": one is the other's first three letters or more)."""
    strip_a, strip_b = _core(a), _core(b)
    if len(strip_a) < 2 or len(strip_a) != len(strip_b) or strip_a[1:] != strip_b[1:]:
        return False
    fa, fb = sorted((strip_a[0], strip_b[0]), key=len)
    return fa == fb or (len(fa) >= 3 and fb.startswith(fa))


def cluster_people(cands: Iterable[Candidate], known: Iterable[KnownItem] = ()
                   ) -> tuple[list[PersonCluster], list[Candidate]]:
    """Group person candidates into people.

    Returns (clusters, unresolved): unresolved are surname-only mentions that fit more than one
    person. Known people seed clusters so that their surnames and aliases resolve to them even
    when the full name is not in the text; clusters of known people without mentions are
    dropped by the caller.
    """
    clusters = [PersonCluster(name_words(k.name), k) for k in known]
    unresolved: list[Candidate] = []
    cands = list(cands)
    multi = [c for c in cands if len(name_words(c.name)) >= 2]
    single = [c for c in cands if len(name_words(c.name)) == 1]
    # longest names first, so shorter forms can join them
    for c in sorted(multi, key=lambda c: (-len(name_words(c.name)), c.start)):
        words = name_words(c.name)
        key = " ".join(words)
        target = [cl for cl in clusters if key in cl.forms]
        if not target:
            target = [cl for cl in clusters if _same_but_initials(cl.words, words)]
        if not target:
            target = [cl for cl in clusters if len(cl.words) > len(words)
                      and cl.words[-len(words):] == words and words[0] not in PARTICLES | set()]
            if not target:
                target = [cl for cl in clusters if len(cl.words) > len(words)
                          and tuple(words) in cl.surnames]
        if len(target) == 1:
            target[0].cands.append(c)
            target[0].forms.add(key)
        elif not target:
            cl = PersonCluster(words)
            cl.cands.append(c)
            clusters.append(cl)
        else:
            unresolved.append(c)
    for c in sorted(single, key=lambda c: c.start):
        key = name_words(c.name)[0]
        target = [cl for cl in clusters if key in cl.forms and len(cl.words) == 1]
        if not target:
            target = [cl for cl in clusters if len(cl.words) >= 2 and (key,) in cl.surnames]
        if len(target) > 1 and c.role:
            role = c.role.lower()
            by_role = [cl for cl in target if role in cl.roles()
                       or (cl.known and cl.known.role and cl.known.role.lower() == role)]
            target = by_role if len(by_role) == 1 else target
        if not target and len(key) >= 2:
            # a name written surname first ("<Family> <Given>", then "<Family>"), or a first
            # name alone, joins the one full name it starts
            target = [cl for cl in clusters if len(cl.words) >= 2 and cl.words[0] == key]
            target = target if len(target) == 1 else []
        if len(target) == 1:
            target[0].cands.append(c)
        elif not target:
            if c.notes.get("weak"):
                continue
            cl = PersonCluster([key])
            cl.cands.append(c)
            clusters.append(cl)
        else:
            unresolved.append(c)
    return clusters, unresolved


def role_of(cluster: PersonCluster) -> str | None:
    """The role a person's mentions state: a title ("Sheriff"), with an appositive role in
    parentheses when one is given ("Deputy (armed school resource officer)"); else the
    appositive alone; else the known item's role."""
    titled = [c for c in cluster.cands if c.role]
    appos = [c.notes["appositive"] for c in cluster.cands if "appositive" in c.notes]
    base: str | None = None
    if titled:
        # the most specific title: one with an affiliation, then the first
        titled.sort(key=lambda c: (not (c.agency_key or c.affiliation), c.start))
        base = titled[0].role
    if appos:
        extra = appos[0]
        if base is None:
            return TITLES.get(extra.lower(), extra)
        if extra.lower() != base.lower():
            return f"{base} ({extra})"
    if "party" in {k for c in cluster.cands for k in c.notes} and base:
        party = next(c.notes["party"] for c in cluster.cands if "party" in c.notes)
        return f"{base} ({party})"
    if base is None and cluster.known:
        return cluster.known.role
    return base
