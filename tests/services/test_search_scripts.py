"""The Search panel finds words of Chinese, Japanese, Korean and Thai inside sentences,
on SQLite and PostgreSQL, with the span of the word in the document and the word highlighted in
the snippet; Latin words next to them are found too."""

from __future__ import annotations

import pytest

from casefile.ingest import ingest_bytes
from casefile.services import documents
from casefile.services.search import search_workspace
from casefile.store.textfind import FoldedText

CHINESE = ("今天上午，市政府宣布扩建港口的计划。\n"
           "负责人说，新的码头明年开工。我们昨天去了香港。")
JAPANESE = ("県知事は来年度の予算案について記者会見で説明した。\n"
            "質問は三十分ほど続いた。")
KOREAN = ("시의회는 내년 예산을 심의했다. 예산안은 다음 달에 표결된다.\n"
          "시장은 추가 예산이 필요하다고 말했다.")
THAI = "เมื่อวานนี้รัฐบาลประกาศงบประมาณใหม่สำหรับโรงพยาบาล\nนักข่าวถามคำถามหลายข้อ"
MIXED = ("Harbor audit notes\n\nThe mayor told Xinhua reporters at the 港口 that the budget "
         "(予算) was final. NHKの記者 asked about the overtime.")


def _doc(s, case_id: int, text: str, name: str) -> int:
    raw = text.encode()
    return documents.store_document(s, case_id, raw, ingest_bytes(raw, name),
                                    title=name).document_id


@pytest.fixture
def docs(workspace, case_id) -> dict[str, int]:
    with workspace.transaction() as s:
        return {name: _doc(s, case_id, text, f"{name}.txt") for name, text in (
            ("chinese", CHINESE), ("japanese", JAPANESE), ("korean", KOREAN),
            ("thai", THAI), ("mixed", MIXED))}


TEXTS = {"chinese": CHINESE, "japanese": JAPANESE, "korean": KOREAN, "thai": THAI,
         "mixed": MIXED}


def _found(workspace, query: str) -> dict[int, object]:
    with workspace.transaction() as s:
        return {h.item_id: h for h in search_workspace(s, query).hits}


def _check_hit(hit, text: str, word: str) -> None:
    """The hit opens at the first occurrence of ``word`` and its snippet highlights it (each
    of its space-separated words, as for a phrase of Latin words)."""
    first = text.index(word)
    assert hit.match == (first, first + len(word))
    marked = {hit.snippet[a:b] for a, b in hit.highlights}
    assert set(word.split()) <= marked, (word, hit.snippet, hit.highlights)


@pytest.mark.parametrize(("query", "names"), [
    ("港口", {"chinese", "mixed"}),
    ("码头", {"chinese"}),
    ("知事", {"japanese"}),
    ("予算", {"japanese", "mixed"}),
    ("記者会見", {"japanese"}),
    ("예산", {"korean"}),
    ("งบประมาณ", {"thai"}),
    ("โรงพยาบาล", {"thai"}),
])
def test_a_word_inside_a_sentence_is_found_where_it_is(workspace, docs, query, names) -> None:
    found = _found(workspace, query)
    assert set(found) == {docs[n] for n in names}
    for n in names:
        _check_hit(found[docs[n]], TEXTS[n], query)


def test_korean_word_inside_longer_words_every_place_highlighted(workspace, docs) -> None:
    (hit,) = _found(workspace, "예산").values()
    # 예산을, 예산안은 and 예산이 all hold the word; the viewer's find bar finds all three
    spans = FoldedText(KOREAN).spans("예산")
    assert [KOREAN[a:b] for a, b in spans] == ["예산"] * 3
    assert [a for a, _ in spans] == [KOREAN.index(w) for w in ("예산을", "예산안은", "예산이")]
    assert sum(hit.snippet[a:b] == "예산" for a, b in hit.highlights) >= 2


def test_a_single_character_is_found_also_at_the_end_of_a_run(workspace, docs) -> None:
    found = _found(workspace, "港")
    assert set(found) == {docs["chinese"], docs["mixed"]}
    _check_hit(found[docs["chinese"]], CHINESE, "港")
    # 香港。: the character ends its run; 市: only once, in the middle of one
    assert set(_found(workspace, "市")) == {docs["chinese"]}
    assert set(_found(workspace, "が")) == set()
    assert [CHINESE[a:b] for a, b in FoldedText(CHINESE).spans("港")] == ["港", "港"]


def test_phrases_and_words_that_are_not_there(workspace, docs) -> None:
    # a run of several words in one quoted phrase, across a space in Korean
    found = _found(workspace, '"내년 예산을"')
    assert set(found) == {docs["korean"]}
    _check_hit(found[docs["korean"]], KOREAN, "내년 예산을")
    # 예산 followed by another word must end its eojeol: "예산 심의" is not in the text
    assert _found(workspace, '"예산 심의"') == {}
    found = _found(workspace, '"予算案について記者会見"')
    assert set(found) == {docs["japanese"]}
    assert found[docs["japanese"]].match == (JAPANESE.index("予算案"),
                                             JAPANESE.index("会見で") + 2)
    # the characters of a word, in another order or apart, are not the word
    for query in ("口港", "港湾", "知県", "산예"):
        assert _found(workspace, query) == {}, query
    # across punctuation: 。 ends a run
    assert _found(workspace, "画。负") == {}
    # AND, exclusion, OR
    assert set(_found(workspace, "知事 -記者会見")) == set()
    assert set(_found(workspace, "予算 -知事")) == {docs["mixed"]}
    assert set(_found(workspace, "码头 OR 知事")) == {docs["chinese"], docs["japanese"]}


def test_latin_words_next_to_cjk_in_a_mixed_document(workspace, docs) -> None:
    found = _found(workspace, "xinhua")
    assert set(found) == {docs["mixed"]}
    _check_hit(found[docs["mixed"]], MIXED, "Xinhua")
    # "NHKの記者": NHK is a word even with no space before the Japanese
    found = _found(workspace, "NHK")
    assert set(found) == {docs["mixed"]}
    _check_hit(found[docs["mixed"]], MIXED, "NHK")
    found = _found(workspace, '"nhk の記者"')
    assert set(found) == {docs["mixed"]}
    assert found[docs["mixed"]].match == (MIXED.index("NHK"), MIXED.index("記者 asked") + 2)
    # Latin and CJK words in one query
    found = _found(workspace, "budget 予算")
    assert set(found) == {docs["mixed"]}
    assert {found[docs["mixed"]].snippet[a:b].lower()
            for a, b in found[docs["mixed"]].highlights} >= {"budget", "予算"}
    assert set(_found(workspace, "overtime")) == {docs["mixed"]}
