"""Claims attributed to unnamed sources: "…, <modifier> sources tell <Outlet>",
"sources told <Outlet>", "according to <modifier> sources" go to "unnamed <modifier> sources"
(a plain description, never an entity of the text) via the outlet, not to the organization
named nearest the verb."""

from __future__ import annotations

from datetime import date

import pytest

from casefile.extract import extract_suggestions
from tests.extract.conftest import ARTICLE


def claims_of(text: str, mode: str = "rules") -> list[tuple[str, str | None, str | None]]:
    """``(sentence's last 40 characters, attributed_to, via)`` of each claim found."""
    return [(c["text"].rstrip()[-40:], c["attributed_to"], c["via"])
            for c in extract_suggestions(text, mode=mode)["claims"]]  # type: ignore[arg-type]


def test_the_sample_articles_sources_tell_cnn_claims_are_unnamed_coral_springs_sources(
        mode: str) -> None:
    text = ARTICLE.read_text(encoding="utf-8")
    result = extract_suggestions(text, mode=mode)  # type: ignore[arg-type]
    told = [c for c in result["claims"] if "sources tell CNN" in c["text"]]
    assert len(told) == 2  # the two paragraphs ending "…, Coral Springs sources tell CNN."
    for claim in told:
        assert (claim["attributed_to"], claim["via"], claim["status"]) == (
            "unnamed Coral Springs sources", "CNN", "single-source")
        # the organization named in the sentence is what the sources spoke about
        assert "Broward County Sheriff" in claim["text"]
    orgs = {o["name"] for o in result["organizations"]} | {p["name"] for p in result["people"]}
    assert "unnamed Coral Springs sources" not in orgs  # a description, not an entity


@pytest.mark.parametrize(("sentence", "attributed", "via"), [
    ("The mayor was warned twice before the bridge closed, Lakeview police sources told "
     "the Daily Ledger.", "unnamed Lakeview police sources", "Daily Ledger"),
    ("Two senior administration sources told Reuters that the plan was dropped in March.",
     "unnamed senior administration sources", "Reuters"),
    ("The Harbor Authority ignored three warnings about the crane, Dockside sources tell CNN.",
     "unnamed Dockside sources", "CNN"),
    ("The shipment never left the port, according to Harbor Authority sources.",
     "unnamed Harbor Authority sources", None),
    ("According to sources, the contract was signed before the vote.", "unnamed sources",
     None),
    ("Sources in Millbrook said the factory had closed weeks earlier.",
     "unnamed Millbrook sources", None),
])
def test_a_claim_told_by_unnamed_sources_is_theirs_via_the_outlet(
        sentence: str, attributed: str, via: str | None) -> None:
    assert claims_of(sentence) == [(sentence.rstrip()[-40:], attributed, via)]


def test_a_named_speaker_is_still_the_source() -> None:
    text = "Mayor Jane Holt said the budget would be cut by ten percent next year."
    assert claims_of(text) == [(text[-40:], "Jane Holt", None)]


def test_sources_say_makes_a_claim_but_declining_to_say_does_not() -> None:
    said = "The officer was not on duty that night, police sources say."
    assert claims_of(said) == [(said[-40:], "unnamed police sources", None)]
    assert claims_of("The chief declined to say whether the officer had been disciplined.") == []


def test_according_to_an_outlet_makes_the_outlet_the_source() -> None:
    text = ("According to the Daily Ledger, Lakeview police officers reached the bridge first "
            "and waited outside.")
    ((_, attributed, via),) = claims_of(text)
    assert attributed == "Daily Ledger"  # not the police department named after it


def test_reportedly_says_what_someone_did_not_who_said_it() -> None:
    text = ("Lakeview City Manager Dana Brooks reportedly confronted the chief in front of "
            "dozens of witnesses at the vigil on March 3.")
    assert claims_of(text) == [(text[-40:], None, None)]  # neither Brooks nor "witnesses"


def test_a_lead_in_sentence_is_neither_claim_nor_event() -> None:
    text = ("The port closed the north pier on March 2. As the columnist wrote earlier today:"
            "\n\nThe pier had been unsafe for years and everyone knew it, the inspectors said.")
    result = extract_suggestions(text, published=date(2026, 3, 2), mode="rules")
    assert not any(c["text"].startswith("As the columnist") for c in result["claims"])
    assert not any(e["text"].startswith("As the columnist") for e in result["events"])
    assert any(c["text"].startswith("The pier had been unsafe") for c in result["claims"])


def test_the_name_right_before_the_verb_is_the_source_even_an_outlet() -> None:
    text = ("The Daily Ledger describes the mood of the Lakeview police officers as "
            "bitter after the vote.")
    ((_, attributed, _via),) = claims_of(text)
    assert attributed == "Daily Ledger"  # not the police named after the verb
