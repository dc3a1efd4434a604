"""Who said it: each claim names the person or body that made the statement, found as a
reader would: the subject of the speech verb outside the quotation, a pronoun or a description
resolved from the text before, the trailing "<name> said" of a quotation, "according to", and
unnamed sources kept unnamed. The sentences are invented; the names are given as the name
finder would suggest them (every mention of each form below), so only the claims logic is
under test, plus two end-to-end checks through extract_suggestions."""

from __future__ import annotations

import re

import pytest

from casefile.extract import extract_suggestions
from casefile.extract.claims import find_claims
from casefile.extract.text import sentence_spans

#: name -> (kind, forms written in the text)
NAMES = {
    "Jane Holt": ("person", ("Mayor Jane Holt", "Jane Holt", "Holt")),
    "Tom Reyes": ("person", ("Tom Reyes", "Reyes")),
    "Paul Ortiz": ("person", ("Paul Ortiz", "Ortiz")),
    "Victor Lane": ("person", ("Victor Lane", "Lane")),
    "Ana Ruiz": ("person", ("Ana Ruiz", "Ruiz")),
    "Dana Brooks": ("person", ("Dana Brooks", "Brooks")),
    "Harbor Authority": ("organization", ("Harbor Authority",)),
    "Fenwick Partners": ("organization", ("Fenwick Partners",)),
    "Millbrook Steel": ("organization", ("Millbrook Steel",)),
    "Daily Ledger": ("news outlet", ("Daily Ledger",)),
    "Scientists for Clean Water": ("organization", ("Scientists for Clean Water",)),
    "Promise Tracker": ("organization", ("Promise Tracker",)),
    "Coastal Affairs": ("organization", ("Coastal Affairs",)),
}


def speakers(text: str) -> list[tuple[str, str | None, str | None]]:
    """``(sentence's first 30 characters, attributed_to, via)`` of each claim in ``text``."""
    entities: list[tuple[int, int, str, str]] = []
    taken: list[tuple[int, int]] = []
    forms = sorted(((f, n, k) for n, (k, fs) in NAMES.items() for f in fs),
                   key=lambda t: -len(t[0]))
    for form, name, kind in forms:
        for m in re.finditer(rf"\b{re.escape(form)}\b", text):
            if any(s < m.end() and m.start() < e for s, e in taken):
                continue
            start = m.start() + (len("Mayor ") if form.startswith("Mayor ") else 0)
            entities.append((start, m.end(), name, kind))
            taken.append((m.start(), m.end()))
    claims = find_claims(text, sentence_spans(text), entities)
    return [(c["text"][:30], c["attributed_to"], c["via"]) for c in claims]


def speaker_of(text: str, sentence_start: str) -> str | None:
    got = [who for start, who, _via in speakers(text) if start.startswith(sentence_start)]
    assert got, f"no claim found for the sentence starting {sentence_start!r}"
    return got[0]


def test_he_said_after_a_quote_is_the_person_named_before_not_one_inside_the_quote() -> None:
    text = ("Senator Paul Ortiz questioned the warden for an hour on Tuesday. "
            '"The warden should have been fired the week Victor Lane died," he said.')
    assert speaker_of(text, '"The warden should') == "Paul Ortiz"


def test_she_said_goes_to_the_woman_the_text_named_not_the_last_man() -> None:
    text = ("Jane Holt said she would cut the pool budget by a third. "
            "Tom Reyes said he would vote against any cut. "
            '"We cannot keep every pool open all summer," she said.')
    assert speaker_of(text, '"We cannot') == "Jane Holt"


def test_a_trailing_said_names_the_speaker_of_every_sentence_of_its_quotation() -> None:
    text = ('"The river is rising fast. We have two days at most before the levee goes," '
            "Ana Ruiz said.")
    assert speaker_of(text, '"The river is rising') == "Ana Ruiz"
    assert speaker_of(text, "We have two days") == "Ana Ruiz"


def test_a_quotation_after_a_lead_in_is_the_lead_ins_speaker() -> None:
    text = ("Tom Reyes said in a statement:\n\n"
            '"The council has failed the families of this town for ten years."')
    assert speaker_of(text, '"The council has failed') == "Tom Reyes"


def test_said_after_the_name_inverted_and_the_organisation_in_the_appositive() -> None:
    text = ('"The contract was void from the first day," said Dana Brooks, a lawyer at '
            "Fenwick Partners. Dana Brooks, a partner at Fenwick Partners, said the city "
            "never paid.")
    assert speaker_of(text, '"The contract') == "Dana Brooks"
    assert speaker_of(text, "Dana Brooks, a partner") == "Dana Brooks"


def test_an_organisation_named_inside_the_sentence_is_not_its_speaker() -> None:
    text = ("Jane Holt ran the meeting until ten. "
            "She said Millbrook Steel had broken every promise it made to the Harbor "
            "Authority.")
    assert speaker_of(text, "She said") == "Jane Holt"


def test_according_to_a_body_or_a_record() -> None:
    text = ("The plant closed in May, according to the Harbor Authority. "
            "The guards skipped four rounds that night, according to court records.")
    assert speaker_of(text, "The plant closed") == "Harbor Authority"
    assert speaker_of(text, "The guards skipped") == "court records"


def test_told_an_outlet_makes_the_outlet_the_via_not_the_speaker() -> None:
    text = "Dana Brooks told the Daily Ledger that the vote had been rigged from the start."
    assert speakers(text) == [(text[:30], "Dana Brooks", "Daily Ledger")]


def test_the_governor_and_the_company_are_the_ones_the_text_named() -> None:
    text = ("Gov. Ana Ruiz signed the budget on Monday after Tom Reyes objected twice. "
            "The governor said the cuts would end in a year. "
            "Millbrook Steel laid off 300 workers in March. "
            "The company said the plant would reopen in the spring.")
    assert speaker_of(text, "The governor said") == "Ana Ruiz"
    assert speaker_of(text, "The company said") == "Millbrook Steel"


def test_saying_goes_to_the_subject_of_the_sentence() -> None:
    text = "Tom Reyes defended the vote on Monday, saying the town could not afford the pool."
    assert speaker_of(text, "Tom Reyes defended") == "Tom Reyes"


@pytest.mark.parametrize("sentence", [
    "State prosecutors alleged that Dana Brooks lied to the board twice.",
    "People familiar with the talks said Millbrook Steel would sell the plant.",
    "Analysts say Millbrook Steel cannot pay its debts before the summer.",
])
def test_unnamed_sources_stay_unnamed_even_when_a_name_is_in_the_sentence(sentence: str
                                                                           ) -> None:
    ((_start, who, _via),) = speakers(sentence)
    assert who is not None and who.startswith("unnamed "), who


def test_a_passive_report_is_no_claim() -> None:
    assert speakers("The first two cases were confirmed on March 12 by the county.") == []


def test_end_to_end_the_pronoun_speaker_comes_back_from_extract_suggestions() -> None:
    text = ("Sheriff Dale Mercer said he would ask the county for six more deputies. "
            '"We are short every night of the week," he said.')
    claims = extract_suggestions(text, mode="rules")["claims"]
    quoted = [c for c in claims if c["text"].startswith('"We are short')]
    assert [c["attributed_to"] for c in quoted] == ["Dale Mercer"]


def test_the_company_is_one_the_text_named_where_the_name_finder_missed_that_mention() -> None:
    text = ("Regulators are looking into Millbrook Steel after the spill. "
            "The company confirmed that inspectors had visited the plant. "
            "A judge in the county later fined Millbrook Steel for the spill.")
    first = text.index("A judge")
    entities = [(text.index("Millbrook Steel", first), text.index("Millbrook Steel", first)
                 + len("Millbrook Steel"), "Millbrook Steel", "organization")]
    got = {c["text"][:30]: c["attributed_to"]
           for c in find_claims(text, sentence_spans(text), entities)}
    assert got["The company confirmed that ins"] == "Millbrook Steel"


def test_the_governor_counts_the_bare_surnames_the_name_finder_missed() -> None:
    text = ("Gov. Ana Ruiz has avoided the striking teachers all week. "
            "Gov. Victor Lane of the state next door attacked teachers last year. "
            "Reporters could not reach Ruiz on Tuesday. "
            "Ruiz was travelling abroad. "
            "The governor said the budget would pass.")
    entities = []
    for form, name in (("Ana Ruiz", "Ana Ruiz"), ("Victor Lane", "Victor Lane")):
        at = text.index(form)
        entities.append((at, at + len(form), name, "person"))
    got = {c["text"][:20]: c["attributed_to"]
           for c in find_claims(text, sentence_spans(text), sorted(entities))}
    assert got["The governor said th"] == "Ana Ruiz"


def test_a_body_named_by_its_owner_is_the_speaker_not_a_body_named_before() -> None:
    text = ("Tom Reyes skipped the hearing at the Harbor Authority on Tuesday. "
            "His office said he was away on business. "
            "Ostland's foreign ministry said the vote was illegal.")
    assert speaker_of(text, "His office said") == "Tom Reyes's office"
    assert speaker_of(text, "Ostland's foreign") == "Ostland's foreign ministry"


def test_a_role_word_before_a_name_the_suggestions_missed_is_not_part_of_the_speaker() -> None:
    text = ("Quarrymen is a small studio in the north of the country. "
            'Developer Quarrymen called the new engine "the best thing we have built."')
    assert speaker_of(text, "Developer Quarrymen") == "Quarrymen"


def test_a_person_before_two_appositives_is_the_speaker_not_the_body_in_the_first() -> None:
    text = ("Dana Brooks, a partner at Fenwick Partners, the consulting firm in the "
            "capital, told the Daily Ledger that the plant was never safe.")
    assert speaker_of(text, "Dana Brooks, a partner") == "Dana Brooks"


@pytest.mark.parametrize(("sentence", "who"), [
    ("Economists across the region say the port will need a second berth.",
     "unnamed economists across the region"),
    ("Several economists, however, argue that the port is too small.",
     "unnamed economists"),
    ("Millbrook Steel has twice denied that it spilled waste.", "Millbrook Steel"),
])
def test_plural_groups_base_verbs_and_words_between_subject_and_verb(sentence: str,
                                                                     who: str) -> None:
    assert speaker_of(sentence, sentence[:20]) == who


def test_a_possessive_before_a_verb_like_noun_is_no_speaker() -> None:
    assert speakers("Editor's note: This story was updated in the evening with the figures.") \
        == []


def test_the_plural_noun_of_a_body_named_before_is_that_body() -> None:
    text = ("A group called Scientists for Clean Water wrote to the county on Friday. "
            "The scientists warned that the wells near the plant were not safe to drink from.")
    assert speaker_of(text, "The scientists warned") == "Scientists for Clean Water"
    assert speaker_of("The scientists warned that the wells were not safe to drink from.",
                      "The scientists") == "unnamed scientists"


def test_told_an_outlet_after_a_quotation_is_the_persons_and_the_outlet_only_the_via() -> None:
    text = ('"The levee will not hold another week," Dana Brooks, a hydrologist and one of '
            "the authors of the report, told the Daily Ledger. "
            '"The levee was never tested," Ana Ruiz, an engineer at the Fenwick Partners '
            "water practice told the Daily Ledger.")
    assert [(who, via) for _start, who, via in speakers(text)] == [
        ("Dana Brooks", "Daily Ledger"), ("Ana Ruiz", "Daily Ledger")]


def test_a_name_set_off_after_its_description_is_the_speaker() -> None:
    text = ("The firm that runs the harbor cranes, Millbrook Steel, says the union may "
            "use the yard on Sunday.")
    assert speaker_of(text, "The firm that runs") == "Millbrook Steel"


def test_one_he_about_someone_unnamed_does_not_make_a_woman_a_he() -> None:
    text = ("A man said he would hurt Dana Brooks after the vote. "
            "Tom Reyes was charged on Tuesday. "
            "Dana Brooks asked the court to be lenient with Tom Reyes, saying she did not want "
            "revenge. "
            'She added, "Every one of us can learn to forgive."')
    assert speaker_of(text, "She added") == "Dana Brooks"


def test_according_to_a_record_in_a_paper_or_by_a_person_or_to_an_outlets_column() -> None:
    text = ("According to a report in the Harbor Gazette of the northern county, the pier had "
            "been closed twice. "
            "According to a 2021 survey by Dana Brooks of the state university, most docks "
            "were never inspected. "
            "The mayor has broken 40 promises, according to the Daily Ledger's Promise Tracker.")
    got = [who for _start, who, _via in speakers(text)]
    assert got == ["Harbor Gazette", "Dana Brooks", "Promise Tracker"]


def test_the_brokerage_said_is_the_brokerage_the_text_named() -> None:
    text = ("Fenwick Partners cut its forecast for the year on Monday. "
            "Steel demand may fall further next year, the brokerage said.")
    assert speaker_of(text, "Steel demand may") == "Fenwick Partners"


def test_the_company_is_the_one_the_sentences_just_before_are_about() -> None:
    text = ("Millbrook Steel said the company would hire 200 workers. "
            "Millbrook Steel opened a second mill, and the company expects more orders. "
            "Millbrook Steel and the company's union signed a contract. "
            "Fenwick Partners, a group of 12 stores, may be next to struggle. "
            "Fenwick Partners lost $4 million in the quarter. "
            "But the company also reported a loss for the year.")
    assert speaker_of(text, "But the company") == "Fenwick Partners"


@pytest.mark.parametrize("sentence", [
    "That said, the plan still needs a vote of the full council.",
    "Other estimates put the cost of the new pier far higher.",
])
def test_idioms_and_nouns_that_look_like_speech_are_no_claims(sentence: str) -> None:
    assert speakers(sentence) == []


@pytest.mark.parametrize(("sentence", "who"), [
    ("Later, last month, Dana Brooks went online accusing Millbrook Steel of hiding the spill.",
     "Dana Brooks"),
    ("Tenant advocates are urging the Harbor Authority to cap the rents.",
     "unnamed tenant advocates"),
    ("Rivers may rise again on Friday, with experts warning that the levee is weak.",
     "unnamed experts"),
    ("Hospital providers have criticised the new rota, warning that nurses are exhausted.",
     "unnamed hospital providers"),
])
def test_ing_reports_go_to_the_subject_of_their_sentence(sentence: str, who: str) -> None:
    assert speaker_of(sentence, sentence[:15]) == who


def test_an_ing_report_of_a_described_body_goes_to_the_body_named_before() -> None:
    text = ("The Harbor Authority met on Monday. "
            "The harbor authority is unhappy with the contractors, saying the work came in "
            "late.")
    assert speaker_of(text, "The harbor authority is") == "Harbor Authority"


def test_a_progressive_verb_with_no_words_after_it_is_no_speaker() -> None:
    text = ("The mayor has broken 40 promises, according to the Daily Ledger, and there is "
            "reason to doubt the account Millbrook Steel is giving now.")
    assert speaker_of(text, "The mayor has") == "Daily Ledger"


def test_a_group_with_a_who_clause_before_its_verb_stays_unnamed() -> None:
    sentence = ("Harbor analysts who studied the figures say the pier will cost twice the "
                "budget.")
    assert speaker_of(sentence, "Harbor analysts") == "unnamed harbor analysts"


def test_a_title_joined_to_a_name_by_for_is_read_whole() -> None:
    sentence = ("The Regional High Commissioner for Coastal Affairs said the decision broke "
                "no law.")
    assert speaker_of(sentence, "The Regional") == "Regional High Commissioner for Coastal Affairs"


def test_an_estimate_after_a_determiner_is_a_noun_not_a_speech_verb() -> None:
    assert speakers("The harbor board lowered the price of the pier, a first estimate having "
                    "been far too high, on Monday.") == []


def test_they_after_a_body_spoke_is_that_body_else_unnamed() -> None:
    text = ("Millbrook Steel has twice denied dumping anything into the river. "
            '"We never opened the valves," they said in a statement.')
    assert speaker_of(text, '"We never opened') == "Millbrook Steel"
    text = ("The river turned grey on Monday. "
            '"We never opened the valves," they said in a statement.')
    assert speaker_of(text, '"We never opened') is None


def test_a_statement_that_said_is_the_words_of_whoever_issued_it() -> None:
    text = ("Millbrook Steel opened a second mill in the spring. "
            "The company issued a statement that said the mill would hire 200 workers.")
    assert speaker_of(text, "The company issued") == "Millbrook Steel"


@pytest.mark.parametrize(("sentence", "who"), [
    ("The new rules will raise the price of steel, say analysts.", "unnamed analysts"),
    ("Dana Brooks pointed out that the harbor had never flooded before.", "Dana Brooks"),
    ("The Harbor Authority called the audit a whitewash.", "Harbor Authority"),
])
def test_groups_after_the_verb_pointed_out_and_called_it_a(sentence: str, who: str) -> None:
    assert speaker_of(sentence, sentence[:15]) == who


def test_calling_the_police_is_no_claim() -> None:
    assert speakers("Dana Brooks called the police a few minutes after the crash.") == []


def test_a_spokesman_said_is_someone_unnamed_not_the_last_man_named() -> None:
    text = ("Tom Reyes said on Friday that the harbor dredging should have stopped. "
            "The Harbor Authority will release its report next week, a spokesman said.")
    assert speaker_of(text, "The Harbor Authority will") == "unnamed spokesman"
    assert speaker_of(text, "Tom Reyes said on") == "Tom Reyes"
