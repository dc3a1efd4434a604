"""General error patterns of the names, each on invented text: names never cross a line
break, "X of Y" / "X and Y" / "X's Y" spans are cut into their entities, role words and
possessive owners are not part of a name, the model's organisation beats a bare "X said", shouted
words and capitals lines add nothing, platforms are organisations, variants join."""

from __future__ import annotations

import pytest

from casefile.extract import extract_suggestions
from casefile.extract.model import ModelEntity, model_available
from casefile.extract.repairs import split_entity, subject_words_end

needs_model = pytest.mark.skipif(not model_available(), reason="needs the spaCy model")


def _ent(text: str, part: str, label: str) -> ModelEntity:
    start = text.index(part)
    return ModelEntity(label, start, start + len(part), (), ())


def _pieces(text: str, part: str, label: str) -> list[tuple[str, str]]:
    return [(p.label, text[p.start:p.end]) for p in split_entity(text, _ent(text, part, label))]


def test_a_name_ends_at_the_line_break() -> None:
    text = "Profile of Miriam Okafor\nTimeline of the case"
    assert _pieces(text, "Miriam Okafor\nTimeline", "PERSON") == [("PERSON", "Miriam Okafor")]


def test_person_of_organisation_is_two_entities() -> None:
    text = "said Tomas Ekberg of Lindfield Hospital, who led the study."
    assert _pieces(text, "Tomas Ekberg of Lindfield Hospital", "ORG") == [
        ("PERSON", "Tomas Ekberg"), ("ORG", "Lindfield Hospital")]
    # a bare generic word after "of the" is no organisation of its own
    text = "Dana Whitlow of the University said"
    assert _pieces(text, "Dana Whitlow of the University", "ORG") == [("PERSON", "Dana Whitlow")]


def test_role_words_before_of_are_not_part_of_the_organisation() -> None:
    text = "said Ana Ruiz, CEO and Founder of Orbitwell Robotics Inc."
    assert _pieces(text, "CEO and Founder of Orbitwell Robotics Inc.", "ORG") == [
        ("ORG", "Orbitwell Robotics Inc.")]


def test_and_splits_only_whole_names() -> None:
    text = "the Department of Water Safety and Ilse Marchetti"
    assert _pieces(text, "Department of Water Safety and Ilse Marchetti", "ORG") == [
        ("ORG", "Department of Water Safety"), ("PERSON", "Ilse Marchetti")]
    text = "the Bureau of Records and the Department of Roads agreed"
    assert _pieces(text, "Bureau of Records and the Department of Roads", "ORG") == [
        ("ORG", "Bureau of Records"), ("ORG", "Department of Roads")]
    for whole in ("Customs and Border Protection", "House Energy and Commerce Committee"):
        text = f"the {whole} said"
        assert _pieces(text, whole, "ORG") == [("ORG", whole)]


def test_possessives_split_an_owner_from_what_it_owns() -> None:
    text = "at Halden University's Brenner Center for Policy"
    assert _pieces(text, "Halden University's Brenner Center for Policy", "ORG") == [
        ("ORG", "Halden University"), ("ORG", "Brenner Center for Policy")]
    text = "Freedonia's Liberal Unity Party won"
    assert _pieces(text, "Freedonia's Liberal Unity Party", "ORG") == [
        ("ORG", "Liberal Unity Party")]
    # a possessive that belongs to the name stays
    text = "the State Attorney's Office for the Northern District"
    whole = "State Attorney's Office for the Northern District"
    assert _pieces(text, whole, "ORG") == [("ORG", whole)]


def test_subject_nouns_before_a_name_are_not_the_name() -> None:
    name = "Public Prosecution Eva-Lotta Brandt"
    assert name[subject_words_end(name):] == "Eva-Lotta Brandt"
    assert subject_words_end("Mary Ann Rogers") == 0


def _names(result: dict, key: str) -> list[str]:
    return [e["name"] for e in result[key]]


@pytest.mark.parametrize("mode", ["rules", "auto"])
def test_a_platform_is_an_organisation(mode: str) -> None:
    got = extract_suggestions("The mayor, Ines Kovac, posted on Twitter that she would stay.",
                              mode=mode)
    assert "Twitter" in _names(got, "organizations")
    assert "Twitter" not in _names(got, "people")


@needs_model
def test_the_models_organisation_beats_a_bare_said() -> None:
    got = extract_suggestions("Norvik Motor Co Ltd said on Tuesday that profits fell. The "
                              "carmaker, Norvik Motor Co Ltd, employs 9,000 people.")
    assert not any("Norvik" in n for n in _names(got, "people"))


def test_titles_and_generational_suffixes() -> None:
    text = ("Administrator Rosalind Achebe said the agency would act. Patrick W. Okonjo Jr., "
            "52, an engineer, agreed. Pat Okonjo later resigned, and Okonjo left the city.")
    got = extract_suggestions(text, mode="rules")
    people = {p["name"]: p for p in got["people"]}
    assert "Rosalind Achebe" in people and people["Rosalind Achebe"]["role"] == "Administrator"
    okonjo = [n for n in people if "Okonjo" in n]
    assert okonjo == ["Patrick W. Okonjo Jr."]
    assert len(people["Patrick W. Okonjo Jr."]["mentions"]) == 3


@needs_model
def test_shouted_words_and_capitals_lines_add_no_organisation() -> None:
    text = ("GRANT DEADLINE LOOMS FOR RIVERTON SCHOOLS\n\n"
            "Parents were told to apply ASAP, said Marta Lindqvist, a teacher. "
            "GET OUT and VOTE on Tuesday, the flyer said.")
    got = extract_suggestions(text)
    orgs = _names(got, "organizations")
    assert "ASAP" not in orgs and "VOTE" not in orgs
    assert not any("RIVERTON" in n.upper() for n in orgs)


def test_variants_of_one_organisation_join() -> None:
    text = ("The Department of Harbor Safety (DHS) said the Harbor Safety Department would "
            "review it. Harbor Safety officials declined. NBN Broadcasting Corporation reported "
            "it first; NBN later updated the story.")
    got = extract_suggestions(text, mode="rules")
    orgs = _names(got, "organizations")
    assert sum("Harbor Safety" in n for n in orgs) == 1
    assert "NBN" not in orgs


def test_a_nationality_before_police_is_no_agency() -> None:
    got = extract_suggestions("British police arrested him, and Ravensworth police "
                              "questioned his brother.", mode="rules")
    orgs = _names(got, "organizations")
    assert "Ravensworth Police Department" in orgs
    assert not any("British" in n for n in orgs)


@needs_model
def test_a_person_after_a_business_noun_stays_a_person() -> None:
    got = extract_suggestions("The magazine publisher Anna Whitcombe said on Monday that sales "
                              "fell. NATO said it would meet. The deal came from developer "
                              "Marcus Ellery, who owns land. The research firm Brightlane "
                              "disagreed.")
    assert {"Anna Whitcombe", "Marcus Ellery"} <= set(_names(got, "people"))
    assert {"NATO", "Brightlane"} <= set(_names(got, "organizations"))


@needs_model
def test_dotted_and_plain_abbreviations_are_one_place() -> None:
    got = extract_suggestions("The U.S. said on Monday that the US would act. Officials in the "
                              "U.S. agreed.")
    places = [(p["name"], len(p["mentions"])) for p in got["places"]]
    assert places == [("U.S.", 3)]


@needs_model
def test_a_name_written_once_as_an_institution_is_not_also_a_person() -> None:
    got = extract_suggestions("The senator made a trip to Halvard Brun hospital on Saturday. "
                              "Little is known about the visit to Halvard Brun, aides said.")
    assert "Halvard Brun" not in _names(got, "people")
