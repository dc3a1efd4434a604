"""Independent sources: an original wire story and its syndicated copies (a trimmed end,
another outlet's header and footer, a changed headline, a paraphrased first paragraph) form one
cluster; an independent report of the same event, sharing names and a quote, stays apart; a
claim backed only by the copies is single-source, and corroborated once the independent report
backs it too. The stories are generated here from invented words."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from casefile.ingest import ingest_bytes
from casefile.services import cases, claims, documents, evidence, passages
from casefile.services.copies import copy_clusters, copy_pairs, wire_of
from casefile.services.duplicates import case_duplicates

NOUNS = ("council", "budget", "harbor", "levee", "contract", "audit", "ferry", "permit", "clinic",
         "bridge", "district", "tender", "depot", "warehouse", "pension", "ledger", "pipeline")
VERBS = ("approved", "delayed", "questioned", "reviewed", "cancelled", "defended", "expanded",
         "inspected", "funded", "blocked", "revised", "reported")
ADJ = ("new", "disputed", "costly", "late", "regional", "temporary", "public", "second", "final")
QUOTE = ("We were told the levee contract had been reviewed twice and it had not been reviewed "
         "even once")


def _sentence(rng: random.Random) -> str:
    return (f"The {rng.choice(ADJ)} {rng.choice(NOUNS)} {rng.choice(VERBS)} the "
            f"{rng.choice(ADJ)} {rng.choice(NOUNS)} after the {rng.choice(NOUNS)} "
            f"{rng.choice(VERBS)} {rng.randint(2, 90)} {rng.choice(NOUNS)}s in "
            f"{rng.choice(('March', 'April', 'May', 'June'))}.")


def _paragraphs(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(_sentence(rng) for _ in range(4)) for _ in range(n)]


def stories() -> dict[str, str]:
    """The original, four copies and an independent report of the same event."""
    body = _paragraphs(1, 10)
    body[4] += f" \u201c{QUOTE},\u201d said Mayor Ilse Varnholt."
    dateline = "EASTVALE, Ore. (AP) \u2014 "
    original = "Levee contract questioned\n\n" + dateline + "\n\n".join(body)
    header = "Millbrook Courier | Subscribe | Sign in | Local news\n\n"
    footer = "\n\nCopyright Millbrook Courier. All rights reserved. Read more local news.\n"
    other_first = " ".join(_sentence(random.Random(7)) for _ in range(4))
    return {
        "original": original,
        "trimmed": "Levee contract questioned\n\n" + dateline + "\n\n".join(body[:7]),
        "framed": header + original + footer,
        "headline": "Eastvale levee deal draws fire\n\n" + dateline + "\n\n".join(body),
        "paraphrased": ("Levee contract questioned\n\n" + dateline + other_first + "\n\n"
                        + "\n\n".join(body[1:])),
        "independent": ("Eastvale council hears levee complaints\n\nBy Marisol Quent, Staff "
                        "writer\n\n" + "\n\n".join(_paragraphs(99, 8))
                        + f" \u201c{QUOTE},\u201d Varnholt told the council."),
    }


def test_copies_of_one_story_form_one_cluster_and_the_independent_report_stays_apart():
    texts = dict(enumerate(stories().values()))
    pairs = copy_pairs(texts)
    assert copy_clusters(texts, pairs) == [[0, 1, 2, 3, 4]]
    # the same without the wire credit: the words alone join them
    plain = {i: t.replace("(AP) ", "") for i, t in texts.items()}
    assert copy_clusters(plain, copy_pairs(plain)) == [[0, 1, 2, 3, 4]]
    assert all(p.reason.startswith("same text") for p in copy_pairs(plain))


def test_one_wires_credit_in_the_dateline() -> None:
    assert wire_of("EASTVALE, Ore. (AP) \u2014 The council met.") == "AP"
    assert wire_of("By The Associated Press\nThe council met.") == "AP"
    assert wire_of("LONDON (Reuters) - Shares fell.") == "Reuters"
    assert wire_of("The council met." + " x" * 400 + " A wire report (AP) is quoted far "
                   "below.") is None


@pytest.fixture()
def case(tmp_path):
    from casefile.store.workspace import open_workspace

    ws = open_workspace(tmp_path / "ws")
    ids: dict[str, int] = {}
    with ws.transaction() as s:
        case_id = cases.create_case(s, "Levee").id
        for name, text in stories().items():
            raw = text.encode("utf-8")
            ids[name] = documents.store_document(
                s, case_id, raw, ingest_bytes(raw, f"{name}.txt"),
                published="2026-10-02").document_id
    yield ws, case_id, ids
    ws.close()


def test_the_case_lists_the_copies_as_one_cluster(case):
    ws, case_id, ids = case
    with ws.transaction(write=False) as s:
        clusters = case_duplicates(s, case_id)
    assert len(clusters) == 1
    assert set(clusters[0].document_ids) == {ids[k] for k in ids if k != "independent"}
    assert clusters[0].label == "5 copies of one AP story"


def test_a_claim_backed_only_by_copies_is_not_corroborated(case):
    ws, case_id, ids = case
    with ws.transaction() as s:
        claim = claims.create_claim(s, case_id, QUOTE, attributed_to_text="the mayor")
        for name in ("original", "trimmed", "framed", "headline", "paraphrased"):
            p = passages.add_passage_by_quote(s, ids[name], QUOTE)
            evidence.link_evidence(s, claim.id, passage_id=p.id, relation="supports")
        copies_only = claims.assess_claim(s, claim.id)
        p = passages.add_passage_by_quote(s, ids["independent"], QUOTE)
        evidence.link_evidence(s, claim.id, passage_id=p.id, relation="supports")
        both = claims.assess_claim(s, claim.id)
    assert copies_only.computed == "single-source", copies_only.explanation
    assert len(copies_only.origins[0].document_ids) == 5
    assert both.computed == "corroborated", both.explanation
    assert len(both.origins) == 2


def test_the_cli_lists_the_copies(case, tmp_path):
    ws, case_id, ids = case
    folder = ws.folder if hasattr(ws, "folder") else tmp_path / "ws"
    ws.close()
    out = subprocess.run([sys.executable, "-m", "casefile", "--workspace", str(folder),
                          "duplicates", "--case", "Levee", "--json"],
                         capture_output=True, text=True, check=True)
    listed = json.loads(out.stdout)
    assert [c["label"] for c in listed] == ["5 copies of one AP story"]
    assert ids["independent"] not in listed[0]["document_ids"]


# -- what is not a copy, and the short copies that are ----------------------------------------

FOOTER = ("About us: The Eastvale Ledger is an independent, reader-funded newsroom covering the "
          "harbor, the council and the courts since 1931. Our reporting is free to read "
          "because of readers like you. Support independent journalism: become a member today "
          "for as little as five dollars a month. Send tips securely to our tips desk using "
          "Signal or SecureDrop. Corrections policy: we correct errors promptly and note the "
          "change at the bottom of the story. Follow us on social media and sign up for the "
          "morning newsletter, delivered every weekday at 7 a.m. Copyright 2026 Eastvale "
          "Ledger Media Group. All rights reserved. This material may not be published, "
          "broadcast, rewritten or redistributed.")
SHORT_QUOTE = "Mayor Ilse Varnholt said the harbor budget was balanced"


def _short(headline: str, body: str, wire: bool = False, footer: bool = False) -> str:
    lead = "EASTVALE, Ore. (AP) \u2014 " if wire else ""
    return (f"{headline}\n\nJune 2, 2026\n\n{lead}{body}\n\n" + (FOOTER + "\n" if footer
                                                                   else ""))


def test_one_wires_credit_alone_joins_no_documents():
    texts = {1: "Ferry fares rise\n\n" + "EASTVALE, Ore. (AP) \u2014 " + "\n\n".join(
        _paragraphs(11, 6)),
             2: "Library to close\n\n" + "MILLBROOK, Ore. (AP) \u2014 " + "\n\n".join(
        _paragraphs(12, 6)),
             3: "Debate night\n\n" + "By The Associated Press\n\n" + "\n\n".join(
        _paragraphs(13, 6))}
    assert copy_pairs(texts) == []
    assert copy_clusters(texts, copy_pairs(texts)) == []


def test_the_development_articles_are_no_copies_of_each_other():
    """Real articles of different stories, four of them credited to one wire."""
    from pathlib import Path

    from casefile.services.copies import case_copy_pairs
    from tests.conftest import SAMPLES

    files = sorted(Path(SAMPLES / "articles").glob("*.txt")) + sorted(
        Path(SAMPLES / "articles-2").glob("*.txt"))
    if not files:
        pytest.skip("the development articles are not here")
    texts = {i: f.read_text(encoding="utf-8") for i, f in enumerate(files)}
    assert len([t for t in texts.values() if wire_of(t)]) >= 2
    assert case_copy_pairs(texts) == []
    assert copy_pairs(texts) == []


def test_two_stories_sharing_a_newsroom_footer_are_two_stories():
    a = _short("Budget vote set for Thursday", "The council will vote on the budget on "
               "Thursday. " + SHORT_QUOTE + ". Opposition members disputed the figures and "
               "asked for an audit.", footer=True)
    b = _short("Transit union threatens strike", "Bus drivers may strike next week over "
               "pay. At a press conference on Wednesday, " + SHORT_QUOTE + ", but the union "
               "said money was being hidden.", footer=True)
    c = _short("Ferry fares rise", "The ferry operator raised fares by eight percent on "
               "Monday, citing fuel costs. Commuters said the rise was unfair.", footer=True)
    assert copy_pairs({1: a, 2: b}) == []
    assert copy_pairs({1: a, 2: b, 3: c}) == []
    # a copy of one of them, footer and all, is still a copy; so is one without the footer
    copy = "EASTVALE LEDGER\n" + a
    assert [(p.first, p.second) for p in copy_pairs({1: a, 2: b, 3: copy})] == [(1, 3)]
    bare = a.replace(FOOTER, "")
    assert [(p.first, p.second) for p in copy_pairs({1: a, 2: bare})] == [(1, 2)]


def test_a_short_brief_and_its_reprint_are_copies():
    brief = ("Council member files complaint\n\nMay 9, 2026\n\nCouncillor Varnholt filed a "
             "complaint on Friday about the dredging tender.\n")
    reprint = "EASTVALE LEDGER\n" + brief + "\nShare this story.\n"
    other = ("Council member files complaint\n\nMay 9, 2026\n\nCouncillor Quent filed a "
             "complaint on Monday about the ferry timetable and the harbor fees.\n")
    pairs = copy_pairs({1: brief, 2: reprint, 3: other})
    assert [(p.first, p.second) for p in pairs] == [(1, 2)]
    from casefile.services.copies import case_copy_pairs

    assert [(p.first, p.second) for p in case_copy_pairs({1: brief, 2: reprint,
                                                          3: other})] == [(1, 2)]


def test_two_wire_stories_quoting_one_mayor_corroborate_a_claim(tmp_path):
    from casefile.store.workspace import open_workspace

    first = _short("Budget approved", SHORT_QUOTE + ". The council approved it by seven "
                   "votes to two.", wire=True)
    second = _short("Storm hits coast", "A tropical storm flooded streets on Thursday. "
                    + SHORT_QUOTE + ", and emergency funds were ready.", wire=True)
    ws = open_workspace(tmp_path / "ws")
    try:
        with ws.transaction() as s:
            case_id = cases.create_case(s, "Harbor").id
            claim = claims.create_claim(s, case_id, SHORT_QUOTE, attributed_to_text="mayor")
            for n, text in enumerate((first, second)):
                raw = text.encode("utf-8")
                doc = documents.store_document(s, case_id, raw, ingest_bytes(raw, f"{n}.txt"),
                                               published="2026-06-02").document_id
                p = passages.add_passage_by_quote(s, doc, SHORT_QUOTE)
                evidence.link_evidence(s, claim.id, passage_id=p.id, relation="supports")
            assessed = claims.assess_claim(s, claim.id)
            clusters = case_duplicates(s, case_id)
    finally:
        ws.close()
    assert clusters == []
    assert assessed.computed == "corroborated", assessed.explanation
    assert len(assessed.origins) == 2
