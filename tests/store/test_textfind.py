"""Where a query matches in one text: str offsets, folded like the search index."""

from __future__ import annotations

import pytest

from casefile.store import textfind
from casefile.store.search import fold as search_fold
from casefile.store.search import parse_query, tokens
from casefile.store.textfind import FoldedText, find_spans, first_span
from tests.conftest import ARTICLE


def words(text: str, query: str) -> list[str]:
    return [text[a:b] for a, b in find_spans(text, query)]


def test_accents_and_case_fold_both_ways() -> None:
    text = "Flights to Łódź, LODZ and lodz; not Lodzkie."
    assert words(text, "Lodz") == ["Łódź", "LODZ", "lodz"]
    assert words(text, "łódź") == ["Łódź", "LODZ", "lodz"]
    assert words(text, "lodz*") == ["Łódź", "LODZ", "lodz", "Lodzkie"]
    # a decomposed accent (e + U+0301) belongs to its letter: the span takes it in
    decomposed = "Le cafe\u0301 du coin"
    assert words(decomposed, "café") == ["cafe\u0301"]


def test_apostrophes_and_hyphens_split_words_like_the_tokenizer() -> None:
    text = "Call O’Brien, then O'Brien, then OBrien. Send an e-mail, an email or an e mail."
    assert words(text, "O'Brien") == ["O’Brien", "O'Brien", "OBrien"]
    assert words(text, "O’Brien") == ["O’Brien", "O'Brien", "OBrien"]
    assert words(text, "e-mail") == ["e-mail", "email", "e mail"]
    assert words(text, "mail") == ["mail", "mail"]  # "e-mail" and "e mail", not "email"


def test_offsets_are_str_indices_after_an_emoji() -> None:
    text = "👮🚓 Deputy 👮 Scot Peterson stayed outside."
    spans = find_spans(text, "peterson")
    assert spans == [(text.index("Peterson"), text.index("Peterson") + len("Peterson"))]
    assert text[spans[0][0]:spans[0][1]] == "Peterson"


def test_a_phrase_matches_across_spaces_punctuation_and_a_newline() -> None:
    text = "The Harbor  Police said… harbor\npolice. Harbor, police! Police harbor."
    assert words(text, '"harbor police"') == ["Harbor  Police", "harbor\npolice", "Harbor, police"]
    # a phrase is consecutive words: not the reverse order, not with a word between
    assert find_spans("harbor city police", '"harbor police"') == []


def test_prefix_matches_word_starts_only() -> None:
    text = "Police, policeman and policy; the impolice-ish ex-police."
    assert words(text, "police*") == ["Police", "policeman", "police"]
    assert words(text, "police") == ["Police", "police"]
    assert words(text, '"ex pol"*') == ["ex-police"]


def test_several_terms_sorted_without_overlaps_and_exclusions_ignored() -> None:
    text = "Sheriff Israel met the Coral Springs police chief; Israel left."
    got = words(text, 'israel OR "police chief" -nothing police')
    assert got == ["Israel", "police chief", "Israel"]  # "police" inside the phrase once
    assert find_spans(text, "") == []
    assert find_spans(text, "-israel") == []  # only an exclusion: nothing to show
    assert find_spans(text, "?!") == []
    assert find_spans(text, '"unclosed phrase') == []


def test_letters_folding_to_two_and_one_to_many() -> None:
    text = "Die Straße, the strasse; the ﬁrst ﬁle; Ærø island."
    assert words(text, "strasse") == ["Straße", "strasse"]
    assert words(text, "first") == ["ﬁrst"]  # ligature fi
    assert words(text, "aero") == ["Ærø"]
    assert words(text, "island") == ["island"]  # offsets after ß/ﬁ/Æ still line up


def test_every_match_is_a_query_phrase_in_index_tokens() -> None:
    """Cross-check with the index's own tokenizer on the sample article."""
    text = ARTICLE.read_text(encoding="utf-8")
    for query in ("Broward", "sheriff's", '"coral springs"', "deput*", "Stoneman Douglas’"):
        phrases = parse_query(query).phrases()
        spans = find_spans(text, query)
        assert spans, query
        for a, b in spans:
            got = tuple(tokens(text[a:b]))
            assert any(got == p.words or (p.prefix and got[:-1] == p.words[:-1]
                                          and got[-1].startswith(p.words[-1]))
                       for p in phrases), (query, text[a:b])
            assert a == 0 or not text[a - 1].isalnum()
            assert b == len(text) or not text[b].isalnum()
    # the counts a reader would get by hand on this article
    assert len(find_spans(text, '"Coral Springs"')) == text.count("Coral Springs")
    assert len(find_spans(text, "sheriff")) == text.lower().count("sheriff")
    assert words(text, "sheriff's") == words(text, "sheriff’s")
    assert "Sheriff’s" in words(text, "sheriff's")


def test_folded_text_maps_back_to_the_original() -> None:
    text = "A😀ßx\u0301y"
    folded = FoldedText(text)
    assert folded.folded == "a😀ssxy"
    assert [folded.original(i) for i in range(len(folded.folded) + 1)] == [0, 1, 2, 2, 3, 5, 6]


def test_first_span_in_a_long_text_and_no_match(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(textfind, "FIRST_SPAN_CHUNK", 100)
    filler = "Nothing here. " * 40
    text = filler + "Ask Łódź police. " + filler + "lodz again"
    at = text.index("Łódź")
    assert first_span(text, "lodz") == (at, at + 4)
    assert first_span(text, '"police nothing"') == (text.index("police"),
                                                   text.index("police") + len("police. Nothing"))
    assert first_span(text, "again") == (len(text) - 5, len(text))
    assert first_span(text, "absent") is None
    assert first_span(text, "") is None


PIECES = ("Łódź", "lodz", "Straße", "STRASSE", "strasse", "ﬁnance", "finance", "O’Brien",
          "O'Brien", "obrien", "Jose\u0301", "José", "jose", "😀", "👮🚓", "ß", "æther", "Æ",
          "e-mail", "email", "e mail", "the", "other", "bathe", "police", "Police", "\n",
          "  ", ", ", ". ", "x\u0301\u0301", "İstanbul", "ǅemal", "ﬀ", "Ⅻ", "ｆｕｌｌ",
          "harbor", "Harbor\nPolice", "audit", "auditor", "audits", "a" * 70, "日本", "?", "¿")
QUERIES = ("lodz", "strasse", "finance", "o'brien", "jose", "the", "e-mail", "email",
           '"harbor police"', "audit*", "ff", "xii", "full", "istanbul", "aether", "ae",
           "police OR finance", "-police the", "lodz strasse", "fi*", '"the other"', "ss",
           "dzemal", "a*", "日本", "e mail")


#: Pieces whose every character folds to one character (first_match's bytes path).
SIMPLE = tuple(p for p in PIECES if all(len(search_fold(c)) == 1 for c in p))


@pytest.mark.parametrize(("chunk", "pieces"), [(1024, PIECES), (5, PIECES), (16, PIECES),
                                               (1024, SIMPLE)])
def test_first_match_is_the_first_span_of_the_whole_folded_text(
        chunk: int, pieces: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    """first_match looks in the text's bytes when every character folds to one, else folds
    runs whole, maps only the match's ends back and folds a text in growing pieces (``chunk``
    characters first): it must give the span FoldedText (the whole text, a segment per
    character) gives first, on texts of awkward pieces."""
    import random

    monkeypatch.setattr(textfind, "FIRST_SPAN_CHUNK", chunk)
    monkeypatch.setattr(textfind, "FIRST_SPAN_GROWTH", 2)
    rng = random.Random(5 + chunk + len(pieces))
    checked = 0
    for _ in range(60):
        text = "".join(rng.choice(pieces) + rng.choice(("", " ", "", "-", ",,,,,,,,"))
                       for _ in range(rng.randrange(0, 30)))
        for query in QUERIES:
            spans = FoldedText(text).spans(query)
            want = spans[0] if spans else None
            assert textfind.first_match(text, parse_query(query).phrases()) == want, (
                text, query)
            assert first_span(text, query) == want
            checked += want is not None
    assert checked > 200


def test_the_bytes_path_is_taken_for_plain_texts_only() -> None:
    phrases = tuple(parse_query("lodz OR jose").phrases())
    assert textfind._ascii_first("Łódź, José and O’Brien", phrases, 1) == ((0, 4), True)
    assert textfind._ascii_first("José and Łódź", phrases, 3) == ((0, 4), False)
    assert textfind._ascii_first("nothing here", phrases, 1) == (None, False)
    assert textfind._ascii_first("Straße in Łódź", phrases, 1) is None
    assert textfind._ascii_first("Łódź", tuple(parse_query("日本").phrases()), 1) is None


def test_the_first_match_may_run_past_where_a_later_one_ends() -> None:
    # the three-word phrase starts first but ends far on; "police" inside it ends early
    text = "Harbor police" + ", " * 1500 + "department. Police again."
    query = '"harbor police department" OR police'
    assert first_span(text, query) == (0, text.index("department") + len("department"))
    assert first_span(text, "police again") == (7, 13)
