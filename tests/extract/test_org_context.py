"""Organisations read by the words around their mentions, on invented sentences.

Each test is one rule of ARCHITECTURE.md's "Names" table (kept because it raised organisations
F1 on the development articles' halves), checked as a reporter sees the suggestions.
"""

from __future__ import annotations

from typing import Any

from casefile.extract import extract_suggestions
from casefile.extract.org_context import channels, written_as_places
from casefile.extract.organizations import cluster_organizations, find_organizations
from casefile.extract.types import Candidate
from tests.extract.conftest import needs_model


def suggested(text: str, kind: str = "organizations") -> dict[str, list[str]]:
    """Each suggested name of ``kind`` -> the texts of its mentions."""
    result: dict[str, Any] = extract_suggestions(text)
    return {x["name"]: [m["text"] for m in x["mentions"]] for x in result[kind]}


def test_a_firms_cue_word_counts_capitalised_or_in_a_compound() -> None:
    for text, name in (("Developer Quintrel said the game would ship in May.", "Quintrel"),
                       ("Prices rose at the drug-maker Halvex last year.", "Halvex"),
                       ("Mira Osei, Head of Research at Dorvin Capital, said rates would "
                        "fall.", "Dorvin Capital")):
        assert name in [c.name for c in find_organizations(text)], text


def test_a_model_organisation_before_a_noun_for_land_or_a_camp_is_a_place() -> None:
    text = ("Rain fell on the Tarvos foothills. Aid reached the Merrow camp by noon. The "
            "Belcourt Grange met at noon.")
    clusters = cluster_organizations([
        Candidate("organization", text.index(n), text.index(n) + len(n), n, "model")
        for n in ("Tarvos", "Merrow", "Belcourt Grange")])
    places: list[Candidate] = []
    kept = written_as_places(text, clusters, places)
    assert [cl.name for cl in kept] == ["Belcourt Grange"]
    assert sorted(c.name for c in places) == ["Merrow", "Tarvos"]


@needs_model
def test_a_name_read_as_a_place_that_shows_programmes_is_an_organisation() -> None:
    def at(text: str, name: str, source: str = "model") -> Candidate:
        s = text.index(name)
        return Candidate("place", s, s + len(name), name, source)
    for text in ("Fans await the upcoming Vantora documentary about the band.",
                 "She rebuilt the set for her Vantora special, the producers said.",
                 "They spent the weekend watching the second season of Glass Harbor on Vantora."):
        orgs, places = channels(text, [at(text, "Vantora")])
        assert [c.name for c in orgs] == ["Vantora"] and places == [], text
    # a place written so elsewhere stays one: a special election, the rules' own place, a
    # name of two words
    for text, name, source in (("Voters in Vantora went to the Vantora special election.",
                                "Vantora", "model"),
                               ("Crews filmed the Vantora documentary.", "Vantora", "rule"),
                               ("Crews filmed the Glass Harbor documentary.", "Glass Harbor",
                                "model")):
        orgs, places = channels(text, [at(text, name, source)])
        assert orgs == [] and len(places) == 1, text
