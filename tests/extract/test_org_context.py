"""Organisations read by the words around their mentions, on invented sentences.

Each test is one rule of ARCHITECTURE.md's "Names" table (kept because it raised organisations
F1 on the development articles' halves), checked as a reporter sees the suggestions.
"""

from __future__ import annotations

from typing import Any

from casefile.extract import extract_suggestions
from casefile.extract.org_context import common_word, hyphen_pairs, written_as_places
from casefile.extract.organizations import cluster_organizations, find_organizations
from casefile.extract.repairs import split_span
from casefile.extract.types import Candidate
from tests.extract.conftest import needs_model


def suggested(text: str, kind: str = "organizations") -> dict[str, list[str]]:
    """Each suggested name of ``kind`` -> the texts of its mentions."""
    result: dict[str, Any] = extract_suggestions(text)
    return {x["name"]: [m["text"] for m in x["mentions"]] for x in result[kind]}


def test_a_two_letter_acronym_joins_the_one_name_it_abbreviates() -> None:
    text = "The Coastal Board met on Friday. Later the CB said it would vote."
    board = Candidate("organization", 4, 17, "Coastal Board", "model")
    cb = Candidate("organization", text.index("CB"), text.index("CB") + 2, "CB", "model")
    clusters = cluster_organizations([board, cb])
    assert [(cl.name, len(cl.cands)) for cl in clusters] == [("Coastal Board", 2)]
    # two names with those initials: no way to tell which is meant
    other = Candidate("organization", 40, 52, "Canal Bureau", "model")
    assert len(cluster_organizations([board, cb, other])) == 3


@needs_model
def test_the_company_before_a_title_is_suggested() -> None:
    got = suggested("Velmora CEO Dana Pruitt said the plant in Ohio would close next year.")
    assert "Velmora" in got
    assert "Dana Pruitt" in suggested("Velmora CEO Dana Pruitt said the plant in Ohio would "
                                      "close next year.", "people")


@needs_model
def test_a_sentence_opening_word_is_not_part_of_the_name() -> None:
    got = suggested("The Harbor Council voted on Monday to sell the pier. Several Harbor "
                    "Council members objected to the sale.")
    assert list(got) == ["Harbor Council"]
    assert len(got["Harbor Council"]) == 2


def test_an_abbreviated_legal_form_is_the_same_company() -> None:
    a = Candidate("organization", 0, 12, "Brenlow Corp.", "rule")
    b = Candidate("organization", 50, 69, "Brenlow Corporation", "rule")
    assert len(cluster_organizations([a, b])) == 1


def test_a_firms_cue_word_counts_capitalised_or_in_a_compound() -> None:
    for text, name in (("Developer Quintrel said the game would ship in May.", "Quintrel"),
                       ("Prices rose at the drug-maker Halvex last year.", "Halvex"),
                       ("Mira Osei, Head of Research at Dorvin Capital, said rates would "
                        "fall.", "Dorvin Capital"),
                       ("A study in the journal Clinical Pulse found no link.", "Clinical Pulse"),
                       ("Rivals bought Quarrix, a cloud startup that sells storage.", "Quarrix")):
        assert name in [c.name for c in find_organizations(text)], text


def test_a_model_organisation_written_as_a_place_is_a_place() -> None:
    text = ("Rain fell on the Tarvos foothills. Deputies arrested Colin Maher, 41, of "
            "Belcourt, on Sunday at 1412 Marlow Place. The Belcourt Grange met at noon.")
    clusters = cluster_organizations([
        Candidate("organization", text.index(n), text.index(n) + len(n), n, "model")
        for n in ("Tarvos", "Belcourt", "Marlow Place", "Belcourt Grange")])
    places: list[Candidate] = []
    kept = written_as_places(text, clusters, places)
    assert [cl.name for cl in kept] == ["Belcourt Grange"]
    assert sorted(c.name for c in places) == ["Belcourt", "Marlow Place", "Tarvos"]


@needs_model
def test_a_street_address_and_a_residence_are_no_organisations() -> None:
    text = ("Deputies arrested Colin Maher, 41, of Belcourt, on Sunday at 1412 Marlow Place, "
            "police said.")
    assert not {"Belcourt", "Marlow Place"} & set(suggested(text))


@needs_model
def test_an_outlet_word_written_as_a_family_name_is_that_person() -> None:
    got = suggested("Marta Vox, a candidate for mayor, spoke on Tuesday. Critics said Vox had "
                    "no plan.", "people")
    assert "Marta Vox" in got
    assert "Vox" not in suggested("Marta Vox, a candidate for mayor, spoke on Tuesday. Critics "
                                  "said Vox had no plan.")


def test_a_firms_product_read_as_one_name_is_two() -> None:
    text = "Teens love Corvane's Zephyrs this year."
    start = text.index("Corvane")
    pieces = split_span(text, "ORG", start, text.index(" this"))
    assert [text[p.start:p.end] for p in pieces] == ["Corvane", "Zephyrs"]


def test_who_holds_a_body_is_no_part_of_its_name() -> None:
    names = [c.name for c in find_organizations(
        "Teachers met leaders of the Labor-led Harbor Council on Friday.")]
    assert names == ["Harbor Council"]


def test_two_names_joined_by_a_hyphen_are_those_two() -> None:
    text = "Dorvin bought Halvex. Analysts doubt the Dorvin-Halvex merger. Coca-Lumo grew."
    def at(name: str, nth: int = 0) -> Candidate:
        s = text.index(name) if not nth else text.index(name, text.index(name) + 1)
        return Candidate("organization", s, s + len(name), name, "model")
    orgs = [at("Dorvin"), at("Halvex"), at("Dorvin-Halvex"), at("Coca-Lumo")]
    places: list[Candidate] = []
    got = hyphen_pairs(text, orgs, places)
    assert [(c.name, c.start) for c in got[2:]] == [
        ("Dorvin", text.index("Dorvin-")), ("Halvex", text.index("Halvex merger")),
        ("Coca-Lumo", text.index("Coca"))]
    assert places == []


def test_a_common_word_opening_a_sentence_is_no_organisation() -> None:
    text = "Pay rose for staff in education. Education groups said it was too little."
    c = text.index("Education")
    word = cluster_organizations([Candidate("organization", c, c + 9, "Education", "model")])
    assert common_word(text, word[0])
    other = text.replace("in education", "in schools")  # never written as a common word
    o = other.index("Education")
    assert not common_word(other, cluster_organizations(
        [Candidate("organization", o, o + 9, "Education", "model")])[0])


@needs_model
def test_a_personal_name_before_a_work_of_theirs_is_no_organisation() -> None:
    text = "Contrary to the old Dale Fenwick song, things did not get better for the patient."
    assert "Dale Fenwick" not in suggested(text)
