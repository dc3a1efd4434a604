"""The public API: import hygiene, modes, offsets, known and rejected names."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
import textwrap

import pytest

from casefile.extract import KnownItem, extract_suggestions, model_available
from tests.extract.conftest import ARTICLE, needs_model

STORY = ("Sen. Maria Ortiz, D-Ore., said Tuesday that the Senate Ethics Committee would "
         "subpoena the records. Ortiz’s office did not respond to questions. Follow Maria "
         "Ortiz on Twitter.")


def _run(code: str) -> str:
    res = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                         text=True, check=True)
    return res.stdout.strip()


def test_import_does_not_import_spacy() -> None:
    out = _run("""
        import sys
        import casefile.extract
        print("spacy" in sys.modules, casefile.extract.model_available() in (True, False),
              "spacy" in sys.modules)
    """)
    assert out == "False True False"


def test_rules_mode_never_imports_spacy() -> None:
    out = _run("""
        import sys, datetime
        from casefile.extract import extract_suggestions
        r = extract_suggestions("Sheriff Ann Lee said Tuesday.", datetime.date(2020, 5, 1),
                                mode="rules")
        print(r["mode"], "spacy" in sys.modules)
    """)
    assert out == "rules False"


def test_model_available_is_bool() -> None:
    assert isinstance(model_available(), bool)


@pytest.mark.nlp
@needs_model
def test_auto_mode_uses_spacy_when_installed() -> None:
    assert extract_suggestions(STORY, dt.date(2024, 3, 15))["mode"] == "spacy"


def test_auto_mode_falls_back_to_rules_without_model(monkeypatch: pytest.MonkeyPatch) -> None:
    from casefile.extract import pipeline

    monkeypatch.setattr(pipeline, "load_pipeline", lambda model=None: None)
    result = extract_suggestions(STORY, dt.date(2024, 3, 15))
    assert result["mode"] == "rules"
    assert [p["name"] for p in result["people"]] == ["Maria Ortiz"]


def test_unknown_mode_is_an_error() -> None:
    with pytest.raises(ValueError, match="mode"):
        extract_suggestions("text", mode="magic")  # type: ignore[arg-type]


def test_shape_and_keys(mode: str) -> None:
    result = extract_suggestions(STORY, dt.date(2024, 3, 15), mode=mode)  # type: ignore[arg-type]
    assert set(result) == {"people", "organizations", "places", "events", "followups", "claims",
                           "mode", "model", "language"}
    assert result["language"] == "en"
    person = result["people"][0]
    assert set(person) >= {"name", "role", "affiliation", "mentions"}
    org = result["organizations"][0]
    assert set(org) >= {"name", "kind", "mentions"}
    assert set(result["events"][0]) == {"date", "precision", "text", "start", "end"}
    assert set(result["followups"][0]) == {"text", "kind", "due", "start", "end"}


def _all_spans(result: dict) -> list[dict]:
    spans = [m for key in ("people", "organizations", "places") for item in result[key]
             for m in item["mentions"]]
    spans += [{**e, "text": e["text"]} for key in ("events", "followups", "claims")
              for e in result[key]]
    return spans


@pytest.mark.parametrize("source", ["story", "article"])
def test_offsets_index_the_original_text(mode: str, source: str) -> None:
    text = STORY if source == "story" else ARTICLE.read_text(encoding="utf-8")
    result = extract_suggestions(text, dt.date(2018, 2, 23), mode=mode)  # type: ignore[arg-type]
    spans = _all_spans(result)
    assert spans
    for span in spans:
        assert text[span["start"]:span["end"]] == span["text"]


def test_offsets_survive_emoji_and_curly_quotes(mode: str) -> None:
    text = "🎉🎉 “Great,” said Mayor Ana Ruiz’s aide. Mayor Ana Ruiz declined to comment 🎉."
    result = extract_suggestions(text, dt.date(2024, 1, 1), mode=mode)  # type: ignore[arg-type]
    [person] = result["people"]
    assert person["name"] == "Ana Ruiz"
    for m in person["mentions"]:
        assert text[m["start"]:m["end"]] == m["text"] == "Ana Ruiz"


def test_empty_text(mode: str) -> None:
    result = extract_suggestions("", mode=mode)  # type: ignore[arg-type]
    assert result["people"] == [] and result["events"] == [] and result["followups"] == []


def test_known_person_found_by_surname_and_named_as_known(mode: str) -> None:
    known = [KnownItem("person", "Scot Peterson", role="Deputy")]
    text = "Peterson has already resigned, his lawyer said on Monday."
    result = extract_suggestions(text, dt.date(2018, 2, 23), known=known,
                                 mode=mode)  # type: ignore[arg-type]
    [person] = result["people"]
    assert person["name"] == "Scot Peterson"
    assert person["known"] is True
    assert person["role"] == "Deputy"
    assert [m["text"] for m in person["mentions"]] == ["Peterson"]


def test_known_alias_and_known_agency_variant(mode: str) -> None:
    known = [KnownItem("organization", "Dade County Sheriff's Office", aliases=("DCSO",)),
             KnownItem("place", "Port Verde", aliases=("the Port",))]
    text = ("Dade County Sheriff’s deputies arrived first. DCSO later issued a statement. "
            "Residents of Port Verde gathered.")
    result = extract_suggestions(text, dt.date(2020, 1, 1), known=known,
                                 mode=mode)  # type: ignore[arg-type]
    orgs = {o["name"]: o for o in result["organizations"]}
    assert list(orgs) == ["Dade County Sheriff's Office"]
    assert orgs["Dade County Sheriff's Office"]["known"] is True
    assert len(orgs["Dade County Sheriff's Office"]["mentions"]) == 2
    assert any(p["name"] == "Port Verde" and p["known"] for p in result["places"])


def test_rejected_names_are_not_suggested(mode: str) -> None:
    text = "Teacher Lena Brandt and Coach Omar Haddad spoke to the Weston School Board."
    result = extract_suggestions(text, mode=mode,  # type: ignore[arg-type]
                                 rejected=["omar haddad", "Weston School Board"])
    assert [p["name"] for p in result["people"]] == ["Lena Brandt"]
    assert result["organizations"] == []


@needs_model
def test_a_known_persons_surname_read_as_a_country_stays_the_country() -> None:
    """A case holds the sheriff of one story; a later story about another country of that
    name ("the State of Israel") never names him in full: its bare "Israel" is the country,
    not mentions of him. In his own story the bare surname still is him."""
    from tests.extract.conftest import SAMPLES

    known = [KnownItem("person", "Scott Israel", role="Sheriff")]
    other = (SAMPLES / "articles-2" / "833caf3b.txt").read_text(encoding="utf-8")
    result = extract_suggestions(other, dt.date(2019, 11, 19), known=known, mode="auto")
    assert [p["name"] for p in result["people"] if p["known"]] == []
    assert any(p["name"] == "Israel" and len(p["mentions"]) >= 5 for p in result["places"])
    own = extract_suggestions(ARTICLE.read_text(encoding="utf-8"), dt.date(2018, 2, 23),
                              known=known, mode="auto")
    [sheriff] = [p for p in own["people"] if p["known"]]
    assert [m["text"] for m in sheriff["mentions"]].count("Israel") >= 2
