"""Repairs of typical statistical-model errors before their entities are used.

A leading verb or title glued to a name ("Follow Dana Kessler", "Sheriff Whitfield"), possessive
endings ('s, ’s, a bare trailing apostrophe), a leading "the", and entities that are not what the
model says (plural nouns, platforms, products, streets as people).
"""

from __future__ import annotations

import re

from casefile.extract import lexicon as lx
from casefile.extract.model import ModelEntity
from casefile.extract.people import is_bad_name


def trim_span(ft: str, start: int, end: int) -> tuple[int, int]:
    """Drop a possessive ending, a trailing apostrophe or punctuation, surrounding spaces and
    a leading "the" from the span ``ft[start:end]`` (``ft`` is folded text)."""
    seg = ft[start:end]
    m = re.search(r"(?:'s|')?[\s.,;:\-\u2014]*$", seg)
    if m and m.start() > 0:
        # keep a final period that belongs to an abbreviation ("Inc.", "Co.")
        tail = seg[m.start():]
        if tail.startswith(".") and re.search(r"\b(?:Inc|Corp|Co|Ltd|Jr|Sr|(?:[A-Z]\.)+[A-Z])$",
                                                    seg[:m.start()]):
            end = start + m.start() + 1
        else:
            end = start + m.start()
    m2 = re.match(r"(?:[Tt]he\s+|\s+)+", ft[start:end])
    if m2:
        start += m2.end()
    return start, end


def clean_person(ft: str, ent: ModelEntity) -> tuple[int, int, str | None] | None:
    """Clean a model PERSON entity; return (start, end, title) or None if it is not a person.

    ``title`` is a leading title or rank the model included ("Sheriff"), lower case.
    """
    start, end = trim_span(ft, ent.start, ent.end)
    title = None
    while True:
        m = re.match(r"([^\W\d_][\w'.-]*)\s+", ft[start:end])
        if not m:
            break
        w = m.group(1).lower()
        idx = ent.token_starts.index(start) if start in ent.token_starts else -1
        verb = idx >= 0 and ent.pos[idx] in {"VERB", "AUX"} and len(ft[start:end].split()) > 2
        if w in lx.TITLES or w in lx.HONORIFICS:
            title = w
        elif not (w in lx.LEADING_VERBS or w in lx.FUNCTION_WORDS or verb):
            break
        start += m.end()
    if start >= end:
        return None
    name = ft[start:end]
    if is_bad_name(name) or not name[0].isupper():
        return None
    if any(w[0].islower() and w not in lx.PARTICLES for w in name.split()):
        return None
    return start, end, title


def clean_org(ft: str, ent: ModelEntity) -> tuple[int, int] | None:
    """Clean a model ORG entity; None if it is only a title, lower case, a product or has a
    digit."""
    start, end = trim_span(ft, ent.start, ent.end)
    name = ft[start:end]
    low = name.lower()
    if not name or not name[0].isupper() or low in lx.TITLES or low in lx.FUNCTION_WORDS:
        return None
    if low in lx.PRODUCTS or any(ch.isdigit() for ch in name):
        return None
    return start, end


def clean_place(ft: str, ent: ModelEntity) -> tuple[int, int] | None:
    """Clean a model GPE/LOC/FAC entity; None if nothing name-like remains."""
    start, end = trim_span(ft, ent.start, ent.end)
    name = ft[start:end]
    if not name or not name[0].isupper() or name.lower() in lx.FUNCTION_WORDS:
        return None
    return start, end
