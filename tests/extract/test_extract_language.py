"""Each text's language is identified; a language the suggestions do not read gets none, and
a note naming the language and the pipeline that would read it."""

from __future__ import annotations

import datetime as dt
import random
import string

import pytest

from casefile.extract import extract_suggestions
from casefile.extract.language import Language, identify, reads

PUB = dt.date(2024, 3, 15)

# Short invented news texts: a mayor, a police chief, a city council and a report due in a week.
TEXTS = {
    "ko": ("경찰은 시청 앞 화재 이후 조사를 시작했다. 김민수 시장은 화요일 기자들에게 보고서가 "
           "일주일 후에 공개될 것이라고 말했다. 시의회는 다음 주에 회의를 연다."),
    "ru": ("Полиция начала расследование после пожара у здания мэрии. Мэр Иван Петров заявил во "
           "вторник журналистам, что отчёт будет опубликован через неделю. Городской совет "
           "соберётся на следующей неделе."),
    "de": ("Die Polizei hat nach dem Brand vor dem Rathaus Ermittlungen aufgenommen. "
           "Bürgermeisterin Anna Weber sagte am Dienstag, der Bericht werde in einer Woche "
           "veröffentlicht. Der Stadtrat Neustadt tritt nächste Woche zusammen."),
}
NAMES = {"ko": ("Korean", "ko_core_news_sm"), "ru": ("Russian", "ru_core_news_sm"),
         "de": ("German", "de_core_news_sm")}
ENGLISH = ("Police opened an inquiry after the fire outside City Hall. Mayor Anna Weber told "
           "reporters on Tuesday that the report would be released within a week.")


@pytest.mark.parametrize("code", sorted(TEXTS))
def test_a_text_in_another_language_gets_no_suggestions_and_says_what_would_read_it(
        code: str, mode: str) -> None:
    result = extract_suggestions(TEXTS[code], PUB, mode=mode)  # type: ignore[arg-type]
    name, package = NAMES[code]
    assert result["language"] == code
    assert result["mode"] == "skipped"
    for key in ("people", "organizations", "places", "events", "followups", "claims"):
        assert result[key] == []
    assert name in result["skipped"] and package in result["skipped"]


def test_an_english_text_is_read_and_its_language_given(mode: str) -> None:
    result = extract_suggestions(ENGLISH, PUB, mode=mode)  # type: ignore[arg-type]
    assert result["language"] == "en"
    assert [p["name"] for p in result["people"]] == ["Anna Weber"]


def test_unreadable_text_gets_no_junk_suggestions() -> None:
    rng = random.Random(7)
    junk = " ".join("".join(rng.choice(string.ascii_letters) for _ in range(rng.randint(2, 8)))
                    for _ in range(120))
    result = extract_suggestions(junk, PUB, mode="rules")
    assert result["mode"] == "skipped" and result["people"] == []
    assert "no language" in result["skipped"]


def test_too_short_to_tell_is_read_as_before() -> None:
    assert identify("Mayor Ana Ruiz") is None
    result = extract_suggestions("Mayor Ana Ruiz spoke.", PUB, mode="rules")
    assert result["language"] is None and result["mode"] == "rules"


def test_a_pipeline_chosen_for_the_language_reads_it() -> None:
    german = Language("de", "German", 0.99)
    assert not reads(german)
    assert not reads(german, "en_core_web_sm")
    assert reads(german, "de_core_news_sm")
    assert reads(german, "xx_ent_wiki_sm")
    assert reads(Language("no", "Norwegian", 0.99), "nb_core_news_sm")
