"""Words of scripts written without spaces (Chinese, Japanese, Thai) and Korean words inside
longer eojeols: how they are indexed, queried, and located in a text."""

from __future__ import annotations

from casefile.store import search as search_backend
from casefile.store.search import fold, parse_query, query_terms, tokens
from casefile.store.textfind import FIRST_SPAN_CHUNK, FoldedText, find_spans, first_span


def _words(text: str, query: str) -> list[str]:
    return [text[a:b] for a, b in find_spans(text, query)]


def test_thai_marks_and_korean_syllables_are_kept_so_words_stay_apart() -> None:
    # ไม้ (wood) and ไม่ (not) differ by a tone mark only; with the marks dropped they were one
    text = "บ้านไม้หลังนี้ไม่ใหญ่"
    assert _words(text, "ไม้") == ["ไม้"]
    assert _words(text, "ไม่") == ["ไม่"]
    # a Hangul syllable is not cut into Jamo: 산 is not found inside 삼
    assert fold("예산") == "예산"
    assert _words("삼 예산", "산") == ["산"]
    # the kana voicing mark is kept: が is not か
    assert _words("学校が休みか", "か") == ["か"]


def test_half_width_katakana_finds_full_width_and_offsets_are_the_texts() -> None:
    text = "👮 ｶﾀｶﾅの記事とカタカナ"
    assert _words(text, "カタカナ") == ["ｶﾀｶﾅ", "カタカナ"]
    assert find_spans(text, "カタカナ")[0] == (2, 6)  # str offsets: the emoji counts one


def test_the_query_is_cut_as_the_text_is() -> None:
    assert query_terms("記者会見") == ["記者会見"]
    assert query_terms('"예산 확보" NHKの') == ["예산 확보", "nhk の"]
    (phrase,) = parse_query("港").phrases()
    assert phrase.prefix  # one character: any pair starting with it, or a run's last one
    # the text's tokens hold the query's, in order
    assert tokens("港口の知事") == ["港口", "口の", "の知", "知事", "事"]
    (phrase,) = parse_query("の知事").phrases()
    assert phrase.words == ("の知", "知事")


def test_a_word_is_located_far_into_a_long_text() -> None:
    # first_span looks at the start of a text first: a match across the first piece's end,
    # inside one long run, must still be the first one found
    filler = "あ" * (FIRST_SPAN_CHUNK - 2)
    text = filler + "記者会見を開いた。会見は長かった。"
    assert first_span(text, "記者会見を開いた") == (len(filler), len(filler) + 8)
    assert first_span(text, "会見 OR 記者会見を開いた") == (len(filler), len(filler) + 8)
    assert first_span(text, "長かった") == (text.index("長かった"), text.index("長かった") + 4)
    assert FoldedText(text).spans("会見") == [(len(filler) + 2, len(filler) + 4),
                                            (text.index("会見は"), text.index("会見は") + 2)]


def test_one_character_finds_every_run_holding_it(workspace, case_id) -> None:
    from casefile.services import items

    with workspace.transaction() as s:
        # more than MAX_PREFIX_WORDS pairs start with 港 (a prefix query), and one run ends in it
        many = "、".join(f"港{chr(0x4E00 + k)}" for k in range(search_backend.MAX_PREFIX_WORDS + 4))
        a = items.create_item(s, case_id, "place", "Ports", notes=many).id
        b = items.create_item(s, case_id, "place", "Hong Kong", notes="我们去了香港。").id
        c = items.create_item(s, case_id, "place", "Other", notes="东京湾").id
    with workspace.transaction() as s:
        assert {h.item_id for h in search_backend.search(s, "港")} == {a, b}
        assert {h.item_id for h in search_backend.search(s, "湾")} == {c}
        (hit,) = search_backend.search(s, "香港")
        assert hit.snippet == "我们去了[香港]。"
