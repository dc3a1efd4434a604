"""Names the model writes longer or types better than a rule, on invented sentences.

Each test is one general rule of the suggestion pipeline (ARCHITECTURE.md, "Suggestions"),
checked with the spaCy model in the loop, as a reporter sees the result.
"""

from __future__ import annotations

from typing import Any

from casefile.extract import extract_suggestions
from casefile.extract.context import lone_word
from casefile.extract.people import is_bad_name
from casefile.extract.repairs import split_span
from casefile.extract.types import Candidate
from tests.extract.conftest import needs_model


def names(text: str, kind: str) -> list[str]:
    result: dict[str, Any] = extract_suggestions(text)
    return [x["name"] for x in result[kind]]


@needs_model
def test_an_organisation_name_goes_on_past_its_organisation_word() -> None:
    assert names("Members of the Senate Select Committee on Aviation met on Tuesday. The panel "
                 "said little.", "organizations") == ["Senate Select Committee on Aviation"]
    assert names("Omar Haddad, a fellow at the Greenway Institute-Harbor Institution Policy "
                 "Center, wrote that taxes rise.", "organizations") == [
        "Greenway Institute-Harbor Institution Policy Center"]


@needs_model
def test_an_organisation_of_a_place_keeps_the_place() -> None:
    assert names("Carla Mendes, the president of the Federal Savings Bank of Springfield, said "
                 "rates would fall.", "organizations") == ["Federal Savings Bank of Springfield"]


@needs_model
def test_two_organisations_joined_by_and_are_two() -> None:
    got = names("Analysts at Harwick Securities named KLB and Orrin Bank as the main winners of "
                "the ruling.", "organizations")
    assert "KLB" in got and "Orrin Bank" in got and "KLB and Orrin Bank" not in got
    assert names("Officials of the Department of Parks and Coastal Services declined to "
                 "comment.", "organizations") == ["Department of Parks and Coastal Services"]


@needs_model
def test_a_list_read_as_one_organisation_is_cut_into_its_names() -> None:
    text = "They chose Corvane, Maltby Aerospace and the Coalition on Land, Water and Air."
    a = text.index("Corvane")
    pieces = split_span(text, "ORG", a, text.index(" and the"))
    assert [text[p.start:p.end] for p in pieces] == ["Corvane", "Maltby Aerospace"]
    c = text.index("Coalition")
    whole = split_span(text, "ORG", c, len(text) - 1)
    assert [text[p.start:p.end] for p in whole] == ["Coalition on Land, Water and Air"]


@needs_model
def test_a_family_name_written_first_joins_the_full_name() -> None:
    result = extract_suggestions("Premier Wu Tianming met the delegation on Monday. Wu said the "
                                 "talks had gone well.")
    assert [(p["name"], len(p["mentions"])) for p in result["people"]] == [("Wu Tianming", 2)]


@needs_model
def test_one_country_written_three_ways_is_one_place() -> None:
    result = extract_suggestions("Officials in the United States said the US would act. A U.S. "
                                 "envoy flew there.")
    assert [(p["name"], len(p["mentions"])) for p in result["places"]] == [("United States", 3)]



@needs_model
def test_a_name_written_as_a_place_is_not_a_person() -> None:
    result = extract_suggestions("The newly selected five are:  Orrin Labs, Everett, "
                                 "Washington Halden Robotics, Provo; and Maltby Aerospace.")
    assert "Everett" not in [p["name"] for p in result["people"]]
    assert is_bad_name("Cedar Falls") and is_bad_name("Palm Springs")
    assert not is_bad_name("Dana Morrell")


@needs_model
def test_a_thing_an_organisation_owns_is_not_an_organisation() -> None:
    got = names("The Orbital Agency picked Orrin Labs' Silver Heron and three other companies. "
                "Orrin Labs said its Silver Heron lander would fly in 2024.", "organizations")
    assert "Orrin Labs" in got and "Silver Heron" not in got
    assert "Marlow International Center" in names(
        "Analysts at Greyfield University's Marlow International Center said prices would "
        "rise.", "organizations")


def test_one_bare_word_read_once_by_the_model_is_no_person() -> None:
    """A single word the model alone read as a person, once, is not suggested; a second
    mention, a title, a role or a rule's cue is enough to keep it."""
    def one(source: str = "model", titled: bool = False, role: str | None = None) -> Candidate:
        return Candidate("person", 10, 15, "Vellmar", source, role=role, titled=titled)

    assert lone_word([one()])
    assert not lone_word([one(), one()])
    assert not lone_word([one(titled=True)])
    assert not lone_word([one(role="Mayor")])
    assert not lone_word([one(source="rule")])
    assert not lone_word([Candidate("person", 0, 9, "Ann Vellmar", "model")])
