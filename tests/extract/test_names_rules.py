"""Names the model writes longer or types better than a rule, on invented sentences.

Each test is one general rule of the suggestion pipeline (ARCHITECTURE.md, "Suggestions"),
checked with the spaCy model in the loop, as a reporter sees the result.
"""

from __future__ import annotations

from typing import Any

from casefile.extract import extract_suggestions
from tests.extract.conftest import needs_model

pytestmark = needs_model


def names(text: str, kind: str) -> list[str]:
    result: dict[str, Any] = extract_suggestions(text)
    return [x["name"] for x in result[kind]]


def test_an_organisation_name_goes_on_past_its_organisation_word() -> None:
    assert names("Members of the Senate Select Committee on Aviation met on Tuesday. The panel "
                 "said little.", "organizations") == ["Senate Select Committee on Aviation"]
    assert names("Omar Haddad, a fellow at the Greenway Institute-Harbor Institution Policy "
                 "Center, wrote that taxes rise.", "organizations") == [
        "Greenway Institute-Harbor Institution Policy Center"]


def test_an_organisation_of_a_place_keeps_the_place() -> None:
    assert names("Carla Mendes, the president of the Federal Savings Bank of Springfield, said "
                 "rates would fall.", "organizations") == ["Federal Savings Bank of Springfield"]


def test_the_company_before_a_title_is_suggested() -> None:
    text = "Lumora Systems CEO Dana Morrell said the deal was done."
    assert names(text, "organizations") == ["Lumora Systems"]
    assert names(text, "people") == ["Dana Morrell"]


def test_a_company_after_from_is_not_made_a_place() -> None:
    text = ("The bid came from Zentrix, which hopes to land soon. Priya Nand, president of "
            "Zentrix, said the lander was ready.")
    assert names(text, "organizations") == ["Zentrix"]
    assert names(text, "places") == []
