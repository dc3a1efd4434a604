"""Organisation patterns, kinds and the joining of variants (both modes)."""

from __future__ import annotations

from casefile.extract import extract_suggestions
from casefile.extract.context import cut_short
from casefile.extract.types import Candidate


def orgs(text: str, mode: str) -> dict[str, dict]:
    result = extract_suggestions(text, mode=mode)  # type: ignore[arg-type]
    return {o["name"]: o for o in result["organizations"]}


def test_agency_patterns_and_kinds(mode: str) -> None:
    got = orgs("Deputies from the Harlan County Sheriff’s Office and officers of the Ashford "
               "Police Department met staff of the Ohio Department of Natural Resources at "
               "Ridgeview High School. The suspect was taken to the Harlan County Jail. The "
               "House Oversight Committee asked the FBI for records.", mode)
    assert got["Harlan County Sheriff's Office"]["kind"] == "law enforcement agency"
    assert got["Ashford Police Department"]["kind"] == "law enforcement agency"
    assert got["Ohio Department of Natural Resources"]["kind"] == "government agency"
    assert got["Ridgeview High School"]["kind"] == "school"
    assert got["Harlan County Jail"]["kind"] == "jail"
    assert got["House Oversight Committee"]["kind"] == "government body"
    assert got["FBI"]["kind"] == "law enforcement agency"
    assert len(got) == 7


def test_sheriff_variants_join_when_unambiguous(mode: str) -> None:
    got = orgs("Two Harlan County Sheriff’s deputies stayed outside. The Sheriff's Department "
               "later said the Harlan County Sheriff's Office would review it.", mode)
    assert list(got) == ["Harlan County Sheriff's Office"]
    assert [m["text"] for m in got["Harlan County Sheriff's Office"]["mentions"]] == [
        "Harlan County Sheriff’s", "Sheriff's Department", "Harlan County Sheriff's Office"]


def test_sheriff_variants_stay_apart_when_two_sheriffs(mode: str) -> None:
    got = orgs("The Harlan County Sheriff's Office and the Perry County Sheriff's Office "
               "disagreed. The Sheriff's Department declined to say more.", mode)
    assert "Harlan County Sheriff's Office" in got and "Perry County Sheriff's Office" in got
    harlan = [m["text"] for m in got["Harlan County Sheriff's Office"]["mentions"]]
    assert "Sheriff's Department" not in harlan


def test_lowercase_police_and_coordinated_departments(mode: str) -> None:
    got = orgs("Ashford police arrived first. The Ashford Police and Fire Departments were "
               "praised.", mode)
    assert set(got) == {"Ashford Police Department", "Ashford Fire Department"}
    assert [m["text"] for m in got["Ashford Police Department"]["mentions"]] == [
        "Ashford police", "Ashford Police"]


def test_acronym_defined_in_parentheses_joins(mode: str) -> None:
    got = orgs("The Department of Children and Families (DCF) opened a file. DCF later "
               "closed it.", mode)
    assert list(got) == ["Department of Children and Families"]
    assert len(got["Department of Children and Families"]["mentions"]) == 3


def test_outlet_and_platform(mode: str) -> None:
    # the corpus gold counts a platform the story names as an organisation ("posted on
    # Twitter"): it is a company the reporter may need to ask for records
    got = orgs("According to Reuters, the mayor posted on Facebook that she resigned.", mode)
    assert list(got) == ["Reuters", "Facebook"]
    assert got["Reuters"]["kind"] == "news outlet"
    assert got["Facebook"]["kind"] == "company"


def test_short_name_inside_a_longer_one_joins(mode: str) -> None:
    got = orgs("Students at Ridgeview Lakes High School walked out. Ridgeview Lakes High "
               "School officials said the protest at Ridgeview Lakes would continue.", mode)
    assert list(got) == ["Ridgeview Lakes High School"]


def test_members_of_a_list_of_organisations_are_organisations(mode: str) -> None:
    """A name listed among organisations is one too, written whole, even where the model
    reads a person in it."""
    text = ("The agency chose Northwind Systems LLC, Contoso Robotics Inc., Quillmark and "
            "Halvorsen Tarrant for the lunar missions. Quillmark will fly first.")
    result = extract_suggestions(text, mode=mode)  # type: ignore[arg-type]
    names = {o["name"] for o in result["organizations"]}
    assert {"Quillmark", "Halvorsen Tarrant"} <= names, names
    assert not {"Quillmark", "Halvorsen Tarrant", "Tarrant"} & {
        p["name"] for p in result["people"]}


def test_a_piece_of_a_longer_name_is_no_organisation() -> None:
    """A title's first word read alone and an organisation every mention of which goes on with
    more capitalised words are pieces of longer names, not suggested; "<Org> President
    <name>" and "<Org> Tuesday" keep the organisation."""
    text = "aide to Vice President Orlund. Larkfield Union President Ann Oyelaran spoke Monday."
    vice = Candidate("organization", 8, 12, "Vice", "model")
    union = Candidate("organization", 31, 46, "Larkfield Union", "model")
    assert text[vice.start:vice.end] == "Vice" and text[union.start:union.end] == "Larkfield Union"
    assert cut_short(text, [vice])
    assert not cut_short(text, [union])
    monday = "Larkfield Union Monday"
    assert not cut_short(monday, [Candidate("organization", 0, 15, "Larkfield Union", "model")])


def test_laws_vehicles_and_editions_are_no_organisations(mode: str) -> None:
    text = ("Parliament passed the Coastal Waters Protection Act. The agency flew the Lunar Ice "
            "Survey Rover (LISR). Gamers can buy the Midnight Founder's Edition.")
    assert not {"Coastal Waters Protection Act", "Lunar Ice Survey Rover",
                "Midnight Founder's Edition"} & set(orgs(text, mode))


def test_an_organisation_written_with_a_lower_case_head_noun(mode: str) -> None:
    """"the <Place> health commission", "the <Name> schools": the name whole, as written."""
    text = ("Teachers from the Brackwater Valley schools marched. Later the Outer Keldmark health "
            "commission said two cases were confirmed.")
    got = orgs(text, mode)
    assert "Brackwater Valley schools" in got and "Outer Keldmark health commission" in got, got


def test_and_the_separates_two_names_and_a_lone_word_keeps_its_and(mode: str) -> None:
    """"<A> and the <B>" is two organisations; "Tariffs and Border Levies" written so each
    time is one."""
    text = ("The ruling of the Regional Court of Appeals and the Harbour Authority stands. "
            "Later, Tariffs and Border Levies, part of the treasury, said it would comply. "
            "Officers of Tariffs and Border Levies checked trucks.")
    got = orgs(text, mode)
    assert "Regional Court of Appeals and the Harbour Authority" not in got
    assert {"Regional Court of Appeals", "Harbour Authority"} <= set(got), got
    assert "Tariffs" not in got and "Border Levies" not in got, got


def test_the_source_of_a_survey_or_a_report_is_an_organisation(mode: str) -> None:
    text = ("Sales rose, according to a new survey from Halden Marsh. A report in the Corlew "
            "Beacon described the closure.")
    result = extract_suggestions(text, mode=mode)  # type: ignore[arg-type]
    assert {"Halden Marsh", "Corlew Beacon"} <= {o["name"] for o in result["organizations"]}
    assert "Halden Marsh" not in {p["name"] for p in result["people"]}
