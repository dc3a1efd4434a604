"""A place written inside an organisation's or a person's name is not a mention of the place."""

from __future__ import annotations

import datetime as dt

from casefile.extract import KnownItem, extract_suggestions
from tests.extract.conftest import ARTICLE

PUBLISHED = dt.date(2018, 2, 23)


def _spans(entries: list[dict]) -> list[tuple[int, int]]:
    return [(m["start"], m["end"]) for e in entries for m in e["mentions"]]


def _inside(span: tuple[int, int], names: list[tuple[int, int]]) -> bool:
    return any(s <= span[0] and span[1] <= e for s, e in names)


def _occurrences(text: str, name: str):
    i = text.find(name)
    while i >= 0:
        yield i
        i = text.find(name, i + 1)


def test_article_places_are_never_credited_inside_an_organization_name(mode: str) -> None:
    text = ARTICLE.read_text(encoding="utf-8")
    result = extract_suggestions(text, PUBLISHED, mode=mode)  # type: ignore[arg-type]
    names = _spans(result["organizations"]) + _spans(result["people"])
    places = {p["name"]: p for p in result["places"]}
    assert places, "the article names places"
    for place in places.values():
        assert place["mentions"], place["name"]
        for m in place["mentions"]:
            assert not _inside((m["start"], m["end"]), names), (place["name"], m)
    # the rule is exercised: some place name is also written inside an organisation's name
    # (the county of the sheriff's office, the town of its police department)
    written_inside = [name for name in places
                      if any(_inside((i, i + len(name)), names) for i in _occurrences(text, name))]
    assert written_inside
    for name in written_inside:  # still suggested, for the occurrences standing alone
        assert len(places[name]["mentions"]) < len(list(_occurrences(text, name)))


def test_place_in_an_agency_name_and_alone() -> None:
    text = ("Eastport Police Department officers arrived first. The Eastport Police Department "
            "said later that every road in Eastport was open.")
    result = extract_suggestions(text, mode="rules")
    assert [o["name"] for o in result["organizations"]] == ["Eastport Police Department"]
    places = {p["name"]: [m["start"] for m in p["mentions"]] for p in result["places"]}
    assert places == {"Eastport": [text.rindex("Eastport")]}


def test_known_place_in_a_new_document_only_inside_an_agency_name_is_not_found() -> None:
    known = [KnownItem("place", "Harlan County")]
    text = "Harlan County Sheriff's Office deputies arrived first and closed the road."
    result = extract_suggestions(text, known=known, mode="rules")
    assert [o["name"] for o in result["organizations"]] == ["Harlan County Sheriff's Office"]
    assert result["places"] == []
    # written alone, the known place is found (under its known name)
    result = extract_suggestions(text + " Harlan County residents were told to stay home.",
                                 known=known, mode="rules")
    assert [(p["name"], p["known"], len(p["mentions"])) for p in result["places"]] == [
        ("Harlan County", True, 1)]
