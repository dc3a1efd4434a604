"""Invented, news-like documents from word lists with a seeded RNG (nothing is downloaded).

Used by ``scripts/bench.py`` and by the search tests (tests/store/test_search.py). Every name,
place and story is made up. ``documents(n, seed)`` always yields the same documents for the same
arguments (Python's ``random.Random`` is stable across versions for ``choice``/``randrange``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

FIRST = ("Nadia", "Tom", "Maria", "Omar", "Grace", "Piotr", "Aoife", "Sean", "Lucia", "Kwame",
         "Ingrid", "Rafael", "Mei", "Dmitri", "Zofia", "Hector", "Amara", "Jonas", "Leila",
         "Brendan", "Chloé", "Søren", "José", "Renée")
LAST = ("Ferreira", "Becker", "Ortiz", "Haddad", "O'Brien", "O’Connell", "Kowalski", "Nguyen",
        "Lindqvist", "Mbeki", "Delacroix", "Pikestaff", "Quarrington", "Vasquez", "Adeyemi",
        "Brzęczyszczykiewicz", "Müller", "Sørensen", "Ó Ceallaigh", "Hale", "Whitcombe",
        "Marchetti", "Okafor", "Tanaka")
PLACES = ("Harbor City", "Łódź", "Ridgefield", "Port Alder", "Saint-Étienne", "Millbrook",
          "East Vale", "Coral Bend", "Norrköping", "Kraków", "Westmere", "Duncaster")
ORGS = ("Harbor Police Department", "County Board of Education", "Ridgefield Water Authority",
        "Alder Shipping Co.", "State Auditor's Office", "Millbrook Hospital Trust",
        "Vale Transit Agency", "Coral Bend Sheriff's Office", "Westmere City Council",
        "Duncaster Housing Association")
ROLES = ("spokesperson", "chief", "auditor", "treasurer", "inspector", "superintendent",
         "director", "council member", "clerk", "contractor")
NOUNS = ("contract", "invoice", "audit", "budget", "report", "meeting", "inspection",
         "complaint", "record", "payment", "lawsuit", "permit", "shipment", "memo", "e-mail",
         "statement", "hearing", "vote", "deadline", "warrant", "subpoena", "grant", "fund",
         "policy", "procedure", "overtime", "pension", "bond", "tender", "license")
VERBS = ("said", "denied", "confirmed", "approved", "questioned", "released", "reviewed",
         "signed", "rejected", "disclosed", "requested", "delayed", "investigated", "announced",
         "criticized", "defended", "withheld", "obtained", "filed", "cancelled")
ADJ = ("unpaid", "confidential", "late", "disputed", "public", "internal", "missing", "revised",
       "annual", "emergency", "independent", "former", "new", "quarterly", "unredacted")
FILLER = ("the", "a", "of", "to", "in", "and", "for", "on", "with", "that", "by", "at", "as",
          "from", "after", "before", "under", "over", "about", "into")
TOPICS = ("water", "school", "police", "harbor", "transit", "housing", "hospital", "budget",
          "election", "shipping")
QUOTES = ("We have nothing to hide", "The numbers do not add up", "This was handled by the book",
          "I was never told", "Nobody reads these reports", "It is under review")


@dataclass(frozen=True)
class SyntheticDocument:
    """One invented article: a title and ~``size`` characters of text in paragraphs."""

    title: str
    text: str
    topic: str


def _person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def _sentence(rng: random.Random, topic: str) -> str:
    kind = rng.randrange(6)
    if kind == 0:
        return (f"{_person(rng)}, the {rng.choice(ROLES)} of the {rng.choice(ORGS)}, "
                f"{rng.choice(VERBS)} the {rng.choice(ADJ)} {topic} {rng.choice(NOUNS)} "
                f"on {rng.randrange(1, 29)} March.")
    if kind == 1:
        return (f"\u201c{rng.choice(QUOTES)},\u201d {_person(rng)} {rng.choice(VERBS)} "
                f"in {rng.choice(PLACES)}.")
    if kind == 2:
        amount = f"{rng.randrange(1, 999)}.{rng.randrange(100, 999)}"
        return (f"The {rng.choice(ADJ)} {rng.choice(NOUNS)} of ${amount} {rng.choice(FILLER)} "
                f"{rng.choice(NOUNS)} No. {rng.randrange(10, 99)}.{rng.randrange(100, 999)} was "
                f"{rng.choice(VERBS)} by the {rng.choice(ORGS)}.")
    words = [rng.choice(FILLER if i % 2 else NOUNS + ADJ + VERBS) for i in range(rng.randrange(
        10, 22))]
    words.insert(rng.randrange(len(words)), rng.choice(PLACES))
    return words[0].capitalize() + " " + " ".join(words[1:]) + "."


def document(rng: random.Random, size: int = 3000) -> SyntheticDocument:
    """One invented article of about ``size`` characters."""
    topic = rng.choice(TOPICS)
    title = (f"{rng.choice(PLACES)} {topic} {rng.choice(NOUNS)} {rng.choice(VERBS)} by "
             f"{_person(rng)}")
    paragraphs: list[str] = []
    length = 0
    while length < size:
        para = " ".join(_sentence(rng, topic) for _ in range(rng.randrange(2, 5)))
        paragraphs.append(para)
        length += len(para) + 2
    return SyntheticDocument(title, "\n\n".join(paragraphs), topic)


def documents(n: int, seed: int = 7, size: int = 3000) -> Iterator[SyntheticDocument]:
    """``n`` invented articles, always the same for the same ``seed`` and ``size``."""
    rng = random.Random(seed)
    for _ in range(n):
        yield document(rng, size)


#: A fixed query set: names (with apostrophes and accents), phrases, prefixes, OR, exclusions,
#: rare and common words.
QUERIES = (
    "Ferreira", "O'Brien", "O’Connell", "Łódź", "Lodz", "Muller", "Sørensen", "Chloe",
    "Brzęczyszczykiewicz", "\"Harbor Police Department\"", "\"nothing to hide\"", "pikestaff",
    "quarrington invoice", "subpoena withheld", "audit*", "pens*", "e-mail", "Saint-Étienne",
    "Kraków OR Norrköping", "contract -invoice", "Nadia Ferreira", "\"unpaid overtime\"",
    "treasurer Okafor", "Whitcombe hearing", "shipping bond", "Westmere \"City Council\"",
    "Tanaka lawsuit", "hospital", "warrant", "No. 42",
)


#: Names that occur in few documents (``news``): one document in RARE_EVERY mentions one.
RARE_NAMES = ("Ysolde Carrabine", "Teodor Vellacourt", "Fintan Ashgrove")
RARE_EVERY = 997


def news(n: int, seed: int = 7, size: int = 3000) -> Iterator[SyntheticDocument]:
    """``documents(n, seed, size)`` with rare recurring names added: document ``i`` (from 0)
    with ``i % RARE_EVERY == RARE_EVERY // 2`` gets one more sentence naming
    ``RARE_NAMES[(i // RARE_EVERY) % len(RARE_NAMES)]``, so a rare name is in about one
    document in 3,000 whatever ``n`` (a name search with few hits at every size)."""
    for i, doc in enumerate(documents(n, seed, size)):
        if i % RARE_EVERY == RARE_EVERY // 2:
            name = RARE_NAMES[(i // RARE_EVERY) % len(RARE_NAMES)]
            doc = SyntheticDocument(
                doc.title, f"{doc.text}\n\n{name}, a former clerk, declined to comment.",
                doc.topic)
        yield doc
