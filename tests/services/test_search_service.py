"""The Search panel's service: hits of the workspace or one case, with where to open them."""

from __future__ import annotations

import pytest

from casefile.errors import NotFoundError
from casefile.ingest import ingest_bytes
from casefile.services import cases, documents, items
from casefile.services.search import SearchResults, search_workspace
from tests.conftest import ARTICLE

MEMO = ("Radio memo 👮🚓\n\nThe logs show the Harbor\nPolice waited by the stairwell while "
        "Deputy O’Brien called Łódź.")


def _doc(s, case_id: int, text: str, name: str, title: str | None = None) -> int:
    raw = text.encode()
    return documents.store_document(s, case_id, raw, ingest_bytes(raw, name),
                                    title=title).document_id


@pytest.fixture
def two_cases(workspace, case_id):
    with workspace.transaction() as s:
        other = cases.create_case(s, "Harbor audit").id
        article = documents.import_file(s, case_id, ARTICLE).document_id
        peterson = items.create_item(s, case_id, "person", "Scot Peterson",
                                     role="school resource officer").id
        memo = _doc(s, other, MEMO, "memo.txt", title="Dispatch log")
    return {"case": case_id, "other": other, "article": article, "peterson": peterson,
            "memo": memo}


def test_a_document_hit_says_where_its_text_matches(workspace, two_cases) -> None:
    ids = two_cases
    text = ARTICLE.read_text(encoding="utf-8")
    with workspace.transaction() as s:
        res = search_workspace(s, '"coral springs"', ids["case"])
    assert isinstance(res, SearchResults) and not res.more and res.terms == ("coral springs",)
    (hit,) = res.hits
    assert (hit.item_id, hit.kind, hit.case_id) == (ids["article"], "document", ids["case"])
    assert hit.case_title == "Test case"
    first = text.index("Coral Springs")
    assert hit.match == (first, first + len("Coral Springs"))
    # the snippet shows the matched words, highlighted
    marked = [hit.snippet[a:b] for a, b in hit.highlights]
    assert marked and {w.lower() for w in marked} <= {"coral", "springs"}


def test_scope_one_case_or_all_cases(workspace, two_cases) -> None:
    ids = two_cases
    with workspace.transaction() as s:
        assert search_workspace(s, "stairwell", ids["case"]).hits == ()
        (hit,) = search_workspace(s, "stairwell").hits
        assert (hit.item_id, hit.case_id, hit.case_title) == (ids["memo"], ids["other"],
                                                              "Harbor audit")
        both = search_workspace(s, "police")
        assert {h.item_id for h in both.hits} == {ids["article"], ids["memo"]}
        with pytest.raises(NotFoundError):
            search_workspace(s, "police", 987654)


def test_match_offsets_fold_like_the_index_after_an_emoji(workspace, two_cases) -> None:
    ids = two_cases
    with workspace.transaction() as s:
        for query, expected in (('"harbor police"', "Harbor\nPolice"), ("lodz", "Łódź"),
                                ("o'brien", "O’Brien"), ("stair*", "stairwell")):
            (hit,) = search_workspace(s, query, ids["other"]).hits
            assert hit.match is not None
            assert MEMO[hit.match[0]:hit.match[1]] == expected, query


def test_items_other_than_documents_and_title_only_matches(workspace, two_cases) -> None:
    ids = two_cases
    with workspace.transaction() as s:
        (person,) = search_workspace(s, "peterson -article", ids["case"]).hits
        assert (person.item_id, person.kind, person.match) == (ids["peterson"], "person", None)
        # found by its title only: a document, but nothing in its text to open at
        (memo,) = search_workspace(s, "dispatch", ids["other"]).hits
        assert (memo.item_id, memo.title, memo.match) == (ids["memo"], "Dispatch log", None)
        (memo,) = search_workspace(s, '"radio memo" -nothing', ids["other"]).hits
        assert memo.match == (0, len("Radio memo"))
        empty = search_workspace(s, "   ")
        assert (empty.hits, empty.terms) == ((), ())
        assert search_workspace(s, "-police").terms == ()
        nothing = search_workspace(s, "zeppelin")
        assert (nothing.hits, nothing.terms) == ((), ("zeppelin",))


def test_limit_and_more(workspace, case_id) -> None:
    with workspace.transaction() as s:
        for n in range(5):
            items.create_item(s, case_id, "place", f"Pier {n}", notes="harbor side")
    with workspace.transaction() as s:
        res = search_workspace(s, "harbor", case_id, limit=3)
        assert len(res.hits) == 3 and res.more
        res = search_workspace(s, "harbor", case_id, limit=5)
        assert len(res.hits) == 5 and not res.more
        assert all(h.kind == "place" and h.match is None for h in res.hits)
