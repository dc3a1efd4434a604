"""People, roles and aliases on short invented stories (both modes)."""

from __future__ import annotations

import datetime as dt

from casefile.extract import extract_suggestions

PUB = dt.date(2024, 3, 15)


def people(text: str, mode: str) -> dict[str, dict]:
    result = extract_suggestions(text, PUB, mode=mode)  # type: ignore[arg-type]
    return {p["name"]: p for p in result["people"]}


def mention_texts(person: dict) -> list[str]:
    return [m["text"] for m in person["mentions"]]


def test_legislator_with_party_and_state(mode: str) -> None:
    got = people("Sen. Maria Ortiz, D-Ore., said the bill would pass. Rep. Tom Hale (R-Texas) "
                 "disagreed.", mode)
    assert got["Maria Ortiz"]["role"] == "Senator (D-Ore.)"
    assert got["Maria Ortiz"]["affiliation"] == "Democratic Party"
    assert got["Tom Hale"]["role"] == "Representative (R-Texas)"
    assert got["Tom Hale"]["affiliation"] == "Republican Party"


def test_prosecutors(mode: str) -> None:
    got = people("State Attorney General Daniel Okafor opened an inquiry. Priya Raman, the "
                 "district attorney for Lane County, said she would not seek charges. Okafor "
                 "and Raman met on Monday.", mode)
    assert set(got) == {"Daniel Okafor", "Priya Raman"}
    assert got["Daniel Okafor"]["role"] == "State Attorney General"
    assert got["Priya Raman"]["role"] == "District Attorney"
    assert got["Priya Raman"]["affiliation"] == "Lane County District Attorney's Office"
    assert mention_texts(got["Daniel Okafor"]) == ["Daniel Okafor", "Okafor"]
    assert mention_texts(got["Priya Raman"]) == ["Priya Raman", "Raman"]


def test_police_spokesman_with_rank(mode: str) -> None:
    got = people("Lt. Ray Moss, a department spokesman, said the Millbrook Police Department "
                 "had opened an investigation. Moss said officers found a rifle.", mode)
    assert list(got) == ["Ray Moss"]
    moss = got["Ray Moss"]
    assert moss["role"] == "Lieutenant (department spokesman)"
    assert moss["affiliation"] == "Millbrook Police Department"
    assert mention_texts(moss) == ["Ray Moss", "Moss"]


def test_title_with_place_prefix_gives_agency(mode: str) -> None:
    got = people("Harlan County Sheriff Dana Whitfield and Ashford Police Chief Leon Brooks "
                 "spoke. Ashford City Manager June Park did not.", mode)
    assert got["Dana Whitfield"]["role"] == "Sheriff"
    assert got["Dana Whitfield"]["affiliation"] == "Harlan County Sheriff's Office"
    assert got["Leon Brooks"]["affiliation"] == "Ashford Police Department"
    assert got["June Park"]["role"] == "City Manager"
    assert got["June Park"]["affiliation"] == "City of Ashford"


def test_middle_initial_and_age(mode: str) -> None:
    got = people("The suspect, Jonah T. Mercer, 34, was held overnight. Mercer’s lawyer said "
                 "Jonah Mercer would plead not guilty.", mode)
    assert list(got) == ["Jonah T. Mercer"]
    assert got["Jonah T. Mercer"]["role"] == "suspect"
    assert mention_texts(got["Jonah T. Mercer"]) == ["Jonah T. Mercer", "Mercer",
                                                     "Jonah Mercer"]


def test_shared_surname_joins_neither(mode: str) -> None:
    got = people("Anna K. Lowe, 52, and Peter Lowe, 49, testified on March 3. Lowe said the "
                 "contract had been signed.", mode)
    assert set(got) == {"Anna K. Lowe", "Peter Lowe"}
    assert mention_texts(got["Anna K. Lowe"]) == ["Anna K. Lowe"]
    assert mention_texts(got["Peter Lowe"]) == ["Peter Lowe"]


def test_shared_surname_resolved_by_title(mode: str) -> None:
    got = people("Sen. Anna Lowe and her brother, Peter Lowe, 49, a farmer, spoke. Sen. Lowe "
                 "said she would vote no.", mode)
    assert mention_texts(got["Anna Lowe"]) == ["Anna Lowe", "Lowe"]
    assert mention_texts(got["Peter Lowe"]) == ["Peter Lowe"]


def test_compound_surname_stays_whole(mode: str) -> None:
    got = people("Luisa Ramos Vidal, a researcher at the Institute for Coastal Studies, warned "
                 "the council. Ramos Vidal did not respond to a request for comment.", mode)
    assert list(got) == ["Luisa Ramos Vidal"]
    assert got["Luisa Ramos Vidal"]["affiliation"] == "Institute for Coastal Studies"
    assert mention_texts(got["Luisa Ramos Vidal"]) == ["Luisa Ramos Vidal", "Ramos Vidal"]


def test_particles_and_diacritics(mode: str) -> None:
    got = people("Carlos de la Cruz, 61, and Pieter van der Berg, 58, founded the firm. De la "
                 "Cruz said van der Berg left in June. Łucja Wójcik, the firm’s chief engineer, "
                 "confirmed it. Wójcik said more.", mode)
    assert set(got) == {"Carlos de la Cruz", "Pieter van der Berg", "Łucja Wójcik"}
    assert mention_texts(got["Carlos de la Cruz"]) == ["Carlos de la Cruz", "De la Cruz"]
    assert mention_texts(got["Pieter van der Berg"]) == ["Pieter van der Berg", "van der Berg"]
    assert got["Łucja Wójcik"]["role"] == "chief engineer"
    assert mention_texts(got["Łucja Wójcik"]) == ["Łucja Wójcik", "Wójcik"]


def test_similar_names_stay_apart(mode: str) -> None:
    got = people("Officer Jon Baker and Deputy John Bakker arrived. Baker said Bakker stayed "
                 "outside.", mode)
    assert set(got) == {"Jon Baker", "John Bakker"}
    assert mention_texts(got["Jon Baker"]) == ["Jon Baker", "Baker"]
    assert mention_texts(got["John Bakker"]) == ["John Bakker", "Bakker"]


def test_curly_and_straight_apostrophes_are_equal(mode: str) -> None:
    got = people("Detective Sean O’Brien led the case. Sean O'Brien said O’Brien's notes were "
                 "lost.", mode)
    assert list(got) == ["Sean O'Brien"]
    assert len(got["Sean O'Brien"]["mentions"]) == 3


def test_cleanup_of_typical_errors(mode: str) -> None:
    text = ("Follow Dana Kessler on Twitter. Fire Departments across Elm Street County said "
            "Narcan saved lives. Facebook removed the post, Kessler’s editor said. Ms. Kessler "
            "wrote about Maple Avenue.")
    got = people(text, mode)
    assert list(got) == ["Dana Kessler"]
    assert got["Dana Kessler"]["role"] == "Author"
    assert mention_texts(got["Dana Kessler"]) == ["Dana Kessler", "Kessler", "Kessler"]


def test_byline_author(mode: str) -> None:
    got = people("By Ines Halvorsen\n\nThe council met on Tuesday.", mode)
    assert got["Ines Halvorsen"]["role"] == "Author"


def test_what_a_job_is_over_is_no_person(mode: str) -> None:
    """"<job> of <unit> at <org>", "<job> for <subject> said": the unit or subject is no one."""
    text = ("Markets were calm, said Dana Whitlock, Head of Quantitative Research at Borrowdale "
            "Capital. The Regional Commissioner for Water Safety said the rules would stay.")
    result = extract_suggestions(text, mode=mode)  # type: ignore[arg-type]
    people = {p["name"] for p in result["people"]}
    assert "Dana Whitlock" in people
    assert not people & {"Quantitative Research", "Research", "Water Safety"}, people


def test_words_that_describe_or_stand_for_a_person_are_no_name(mode: str) -> None:
    """A nationality or a title written short before a name is not part of it; a capitalised
    run ending in a pronoun is no name, and its pronouns are no mentions."""
    text = ("Officials freed Norwegian Halvard Brekkestad and questioned Maj Gen Miriam Ostrowe, "
            "a logistics officer. Brekkestad was tired. “Truthfully I was shocked,” Ostrowe said. "
            "“I did not expect it.”")
    got = people(text, mode)
    assert "Halvard Brekkestad" in got and "Miriam Ostrowe" in got, list(got)
    assert not set(got) & {"Norwegian Halvard Brekkestad", "Maj Gen", "Maj Gen Miriam Ostrowe",
                           "Truthfully I", "I"}, list(got)
