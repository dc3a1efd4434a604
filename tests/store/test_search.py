"""Search: awkward queries never fail, matching is accent/apostrophe-blind, both engines agree,
the index follows edits and deletes, snippets are one line with documented markers."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import text

from casefile.ingest.types import Ingested
from casefile.services import cases, items
from casefile.services.documents import store_document
from casefile.store import search
from casefile.store.workspace import open_workspace
from scripts import synthetic
from tests.store.helpers import add_documents

AWKWARD = [
    "O'Brien", "O’Brien", "e-mail", "police:report", "C++", "38.101", '"Harbor Police"',
    '"unbalanced quote', 'unbalanced" quote', "AND", "OR", "NOT", "-", "^", "*", "NEAR(",
    "NEAR(a b, 2)", "😀", "Łódź", "x" * 2000, "word " * 400, "'; DROP TABLE items; --",
    "Robert'); DELETE FROM search_fts; --", "tab\tseparated\nnew line\r\n", "?!.,;:()[]{}<>",
    "a OR", "OR b", "- -x", '""', '"', "***", "title:secret", "col : x", "\\", "'", "%_%",
    "a AND AND b", "(((", ")", "{near}", "ünïcödé", "Ⅻ ﬁle ｆｕｌｌｗｉｄｔｈ", "-only -exclusions",
    "police*", "p*", '"phrase with star"*', "\x00nul", "\u200bzero width", "مرحبا",
    "日本語のテキスト",
    "' OR '1'='1", "1=1; SELECT pg_sleep(5)", "NOT NOT NOT", "OR OR", "$1 :q %(q)s ?",
]


SMALL = {
    "apostrophe": "Councillor Seán O’Brien sent an e-mail about the police:report.",
    "straight": "Detective O'Brien filed form 38.101 with the clerk.",
    "city": "The shipment left Lodz on Monday.",
    "accents": "La mairie de Łódź et Saint-Étienne ont signé.",
    "joined": "Please email the OBrien family.",
    "code": "The C++ compiler and the C library.",
    "quote": "He said \"Harbor Police\" would answer.\nNext line\tafter a tab.",
}


def _ids(hits: list[search.SearchHit]) -> set[int]:
    return {h.item_id for h in hits}


@pytest.mark.parametrize("query", AWKWARD)
def test_awkward_query_returns_a_list_and_never_fails(workspace, case_id, query: str) -> None:
    add_documents(workspace, case_id, SMALL)
    with workspace.transaction() as s:
        hits = search.search(s, query)
        in_case = search.search(s, query, case_id=case_id, limit=5)
    assert isinstance(hits, list)
    assert len(in_case) <= 5
    for h in hits:
        assert "\n" not in h.snippet and "\t" not in h.snippet and "\r" not in h.snippet


def test_awkward_queries_are_at_least_thirty() -> None:
    assert len(set(AWKWARD)) >= 30


def test_matching_is_blind_to_apostrophes_accents_case_and_joiners(workspace, case_id) -> None:
    ids = add_documents(workspace, case_id, SMALL)
    with workspace.transaction() as s:
        def found(q: str) -> set[str]:
            hit = _ids(search.search(s, q))
            return {t for t, i in ids.items() if i in hit}

        assert found("O'Brien") == {"apostrophe", "straight", "joined"}
        assert found("O’Brien") == found("O'Brien")
        assert found("obrien") == {"joined"}  # a joined word does not find the split one
        assert found("Łódź") == {"city", "accents"}
        assert found("LODZ") == {"city", "accents"}
        assert found("saint-etienne") == {"accents"}
        assert found("e-mail") == {"apostrophe", "joined"}  # "e mail" and "email"
        assert found("police:report") == {"apostrophe"}
        assert found("38.101") == {"straight"}
        assert found('"harbor police"') == {"quote"}
        assert found('"police harbor"') == set()
        assert found("C++") == {"code"}
        assert found("compil*") == {"code"}
        assert found("Lodz OR compiler") == {"city", "accents", "code"}
        assert found("Lodz -shipment") == {"accents"}
        assert found("-Lodz") == set()  # only exclusions: nothing to look for
        assert found('"unbalanced O\'Brien') == {"apostrophe", "straight", "joined"} & found(
            "unbalanced")


def _only_hit(workspace, case_id: int, body: str, query: str) -> search.SearchHit:
    """Store ``body`` as the case's one document and search for ``query``: its one hit."""
    add_documents(workspace, case_id, {"doc": body})
    with workspace.transaction() as s:
        [hit] = search.search(s, query)
    return hit


def test_snippet_is_one_line_with_marked_words_and_exact_spans(workspace, case_id) -> None:
    body = ("First paragraph about nothing.\n\n" + "filler words here " * 20
            + "The Łódź\tinspection\nreport was late.\r\n" + "more filler " * 40)
    hit = _only_hit(workspace, case_id, body, "lodz report")
    assert not re.search(r"[\n\r\t]", hit.snippet + hit.text)
    assert hit.text.startswith("…") and hit.text.endswith("…")
    assert [hit.text[a:b] for a, b in hit.highlights] == ["Łódź", "report"]
    assert "[Łódź] inspection [report] was late." in hit.snippet
    assert len(hit.text) <= search.SNIPPET_CHARS + 2


def test_snippet_marks_whole_words_only_from_the_first_match(workspace, case_id) -> None:
    # Words of the query starting with different letters, one a prefix; the same letters
    # inside longer words ("Kabob", "Brienne", "reaudited") must not be marked, and the
    # snippet starts at the first whole-word match, not at the first partial one.
    body = ("Kabob stand owner, Brienne's cousin, reaudited nothing. " + "filler text " * 30
            + "Then Bob met O’Brien and the auditors; kabob again." + " tail" * 60)
    hit = _only_hit(workspace, case_id, body, "O'Brien bob audit*")
    assert [hit.text[a:b] for a, b in hit.highlights] == ["Bob", "O", "Brien", "auditors"]
    assert "Then [Bob] met [O]’[Brien] and the [auditors]; kabob again." in hit.snippet
    assert "Kabob stand" not in hit.text


def test_snippet_centres_on_the_words_as_usually_written(workspace, case_id) -> None:
    # A lone "Ó" (the whole word "o" once folded) long before O'Brien: the snippet shows
    # O'Brien, found as written, not that first whole-word "o". A name present only in an
    # accented form (Chloé for the query Chloe) still gets its snippet around it.
    add_documents(workspace, case_id, {
        "irish": "Aoife Ó Ceallaigh opened the meeting. " + "filler text " * 40
                 + "Then Rafael O'Brien spoke." + " tail" * 40,
        "accent": "filler text " * 40 + "Then Chloé spoke." + " tail" * 40,
    })
    with workspace.transaction() as s:
        [irish] = search.search(s, "O'Brien")
        [accent] = search.search(s, "Chloe")
    assert "Then Rafael [O]'[Brien] spoke." in irish.snippet
    assert "Ceallaigh" not in irish.text
    assert "Then [Chloé] spoke." in accent.snippet


def test_snippet_is_not_placed_by_a_short_word_alone(workspace, case_id) -> None:
    # "to" comes first, but the snippet is placed by the phrase's longer words, even written
    # in capitals (which the quick str.find of "othing" misses, so the regex looks).
    hit = _only_hit(workspace, case_id, "We went to the market. " + "filler text " * 40
                    + "He said there was NOTHING TO HIDE." + " tail" * 40, '"nothing to hide"')
    assert "there was [NOTHING] [TO] [HIDE]." in hit.snippet
    assert "market" not in hit.text


def test_snippet_falls_back_to_a_short_word_when_no_long_one_is_in_the_text(workspace,
                                                                              case_id) -> None:
    hit = _only_hit(workspace, case_id, "filler text " * 40 + "The IBM contract was signed."
                    + " tail" * 40, "IBM OR harbor")
    assert "The [IBM] contract was signed." in hit.snippet


def test_deleted_document_is_never_found_and_new_name_is_found_at_once(workspace, case_id) -> None:
    ids = add_documents(workspace, case_id, {"Quarrington memo": "The Quarrington memo text."})
    with workspace.transaction() as s:
        pid = items.create_item(s, case_id, "person", "Ada Pikestaff").id
    with workspace.transaction() as s:
        items.update_item(s, pid, title="Ada Whitcombe-Pikestaff")
        # inside the same transaction the new name is already findable
        assert _ids(search.search(s, "Whitcombe")) == {pid}
    with workspace.transaction() as s:
        assert _ids(search.search(s, "Whitcombe-Pikestaff")) == {pid}
        assert _ids(search.search(s, "Ada")) == {pid}
        items.delete_item(s, ids["Quarrington memo"])
        assert search.search(s, "Quarrington") == []
    with workspace.transaction() as s:
        assert search.search(s, "Quarrington") == []
        assert search.search(s, "memo") == []
    with workspace.transaction() as s:
        cases.create_case(s, "Other case")
    with workspace.transaction() as s:
        assert search.search(s, "Ada", case_id=case_id + 1) == []
        assert _ids(search.search(s, "Ada", case_id=case_id)) == {pid}


def test_deleting_a_case_leaves_nothing_findable(workspace) -> None:
    with workspace.transaction() as s:
        cid = cases.create_case(s, "Doomed").id
    add_documents(workspace, cid, {"Doomed doc": "Zanzibar ledger."})
    with workspace.transaction() as s:
        s.execute(text("DELETE FROM cases WHERE id = :c"), {"c": cid})
    with workspace.transaction() as s:
        assert search.search(s, "Zanzibar") == []


def _corpus_results(ws) -> dict[str, set[str]]:
    with ws.transaction() as s:
        cid = cases.create_case(s, "Corpus").id
    docs = list(synthetic.documents(200, seed=11, size=1200))
    with ws.transaction() as s:
        titles = {}
        for n, d in enumerate(docs):
            ing = Ingested(text=d.text, mime_type="text/plain", title=f"{n:03d} {d.title}")
            titles[store_document(s, cid, d.text.encode(), ing).document_id] = f"{n:03d}"
    queries = [*synthetic.QUERIES, *AWKWARD, "harbor", "the", "Nadia", "Kowalski -Nadia"]
    out = {}
    with ws.transaction() as s:
        for q in queries:
            out[q] = {titles[h.item_id] for h in search.search(s, q, cid, limit=1000)}
    return out


@pytest.mark.postgres
def test_sqlite_and_postgresql_find_the_same_documents(tmp_path, pg_database) -> None:
    lite = open_workspace(tmp_path / "ws")
    pg = open_workspace(db_url=pg_database)
    try:
        a, b = _corpus_results(lite), _corpus_results(pg)
    finally:
        lite.close()
        pg.close()
    assert {q: v for q, v in a.items() if v != b[q]} == {}
    assert sum(1 for v in a.values() if v) >= 30  # the query set does find things
    assert len(a["the"]) == 200 and len(a["Ferreira"]) > 10


def test_parse_query_shapes() -> None:
    p = search.parse_query('"Harbor  Police"* e-mail OR memo -"bad news" -x NEAR(')
    assert p.groups == [
        [search.Phrase(("harbor", "police"), prefix=True)],
        [search.Phrase(("e", "mail")), search.Phrase(("email",)), search.Phrase(("memo",))],
        [search.Phrase(("near",))],
    ]
    assert p.exclude == [search.Phrase(("bad", "news")), search.Phrase(("x",))]
    assert search.fts5_query(p) == (
        '((("harbor police"*) AND ("e mail" OR "email" OR "memo") AND ("near")) '
        'NOT "bad news") NOT "x"'
    )
    assert search.tsquery(p) == (
        "(('harbor' <-> 'police':*)) & (('e' <-> 'mail') | ('email') | ('memo')) & (('near'))"
        " & !('bad' <-> 'news') & !('x')"
    )
    assert search.parse_query("x" * 65).empty  # too long to be a word
    assert len(search.parse_query("w " * 400).groups) == search.MAX_TERMS


def test_fold_and_tokens() -> None:
    assert search.tokens("Łódź, O’Brien's e-mail: STRASSE Straße ﬁle ½") == [
        "lodz", "o", "brien", "s", "e", "mail", "strasse", "strasse", "file", "1", "2"]
    assert search.tsvector_literal("A b", "b c") == "'a':1A 'b':2A,4 'c':5"


def test_ascii_view_keeps_offsets_and_finds_every_non_ascii_run() -> None:
    # A literal "?" in the text is not taken for a non-ASCII character, runs touching a "?"
    # or the ends of the text are whole, and the fold built on them keeps accents out.
    text = "?Łódź? said O’Brien?? Ça va😀"
    lowered, runs = search.ascii_view(text)
    assert len(lowered) == len(text)
    assert [text[a:b] for a, b in runs] == ["Łó", "ź", "’", "Ç", "😀"]
    assert lowered == "???d?? said o?brien?? ?a va?"
    assert search.fold(text) == "?lodz? said o’brien?? ca va😀"


@pytest.mark.parametrize("text", [
    "Plain ASCII news, 2024: the fund lost 3% (S&P 500).",
    "“We have nothing to hide,” said Łódź’s mayor — École, "
    "straße, æon…",
    "Café был закрыт — Ωmega "
    "١٢٣ digits, ﬁnal, ① ²",
    "日本語の文 and 한국어 and ไทย mixed "
    "with words?",
    "a" * 64 + " " + "b" * 65 + " question? marks?? é x​y _under_score_",
    "",
])
def test_the_index_text_is_the_tokens_a_query_is_cut_into(text: str) -> None:
    """What the SQLite index is given for a text (its fast path for folded ASCII words
    included) is the same tokens as a query's words are cut into, so every word is found."""
    from casefile.store.search.folding import token_text, tokens

    assert token_text(text) == " ".join(tokens(text))
    assert token_text(text, text) == " ".join(tokens(text) + tokens(text))
