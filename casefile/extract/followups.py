"""Follow-up cues: phrases that announce something expected or unresolved.

Each cue sentence becomes one suggested follow-up: {"text", "kind", "due", "start", "end"} where
text is the sentence (start/end are its str offsets), kind is one of "expected record",
"open question", "right of reply", "records request", "call back", "scheduled event", and due
is an ISO date (published date + the duration the sentence states, e.g. "in about a week", else
the first date in the sentence on or after publication) or None.

A follow-up needs an expectation: something due, decided, held or answered. A sentence that
merely carries a date or a duration is not one ("in a day" as a rate, "within two days" of a
past effect, what "typically" happens); neither is a hope without a time or a record ("if they
expect to ..."), nor an expectation whose time has passed ("was due to ... in <past month>").
A "scheduled event" is a sentence in the future tense or naming an event (a hearing, an
election, a sentencing) whose date falls on or after publication.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from casefile.extract.dates import _parse, clause_before, find_dates, is_future, past_clause

_RECORD_NOUNS = (r"report|records?|findings|autopsy|audit|documents?|data|footage|video|"
                 r"recordings?|results|review|transcripts?|files?|emails?|study|analysis|"
                 r"investigation|inquiry|ruling|verdict|decision|statement|list|details|estimate|"
                 r"assessment|motion|notice|filing|response|plan|proposal|budget")
_CUES: list[tuple[str, re.Pattern[str]]] = [
    ("records request", re.compile(
        r"\b(?:public[ ]records[ ]request|records[ ]requests?|FOIA|Freedom[ ]of[ ]Information)"
        r"\b", re.I)),
    ("right of reply", re.compile(
        r"\b(?:declined[ ]to[ ]comment|declined[ ]comment|did[ ]not[ ](?:immediately[ ])?"
        r"(?:respond|return|reply)|didn't[ ](?:immediately[ ])?(?:respond|return|reply)|"
        r"(?:could|can)[ ]not[ ]be[ ]reached|couldn't[ ]be[ ]reached|has[ ]not[ ]responded|"
        r"have[ ]not[ ]responded|hasn't[ ]responded|refused[ ]to[ ]comment|no[ ]immediate[ ]"
        r"(?:response|comment)|would[ ]not[ ]comment|wouldn't[ ]comment|"
        r"not[ ]available[ ]for[ ]comment)\b", re.I)),
    ("open question", re.compile(
        r"\b(?:unclear[ ](?:whether|if|why|how|what|when|who|where)|(?:it'?s|it[ ]is|was|is|"
        r"remains?|remained)[ ](?:still[ ])?(?:not[ ](?:yet[ ]|entirely[ ]|immediately[ ]|"
        r"\d+%[ ])?clear|unclear|unknown)|not[ ](?:yet[ ])?known[ ](?:whether|if|why|how|"
        r"what|when|who)|remains[ ]to[ ]be[ ]seen|unanswered[ ]questions?|"
        r"(?:did|does|do)[ ]not[ ]say[ ](?:whether|if|why|how|what|when))\b", re.I)),
    ("expected record", re.compile(
        r"\b(?:(?:to[ ]be|will[ ]be|would[ ]be|should[ ]be|expected[ ]to[ ]be)[ ]"
        r"(?:released|published|made[ ]public|filed|issued|completed|delivered|announced|"
        r"unveiled|posted|presented|finalized)|(?:is|are|was|were)[ ]expected[ ]to|"
        r"(?:is|are)[ ]due[ ](?:to|on|by|in|next)|plans?[ ]to[ ]release|will[ ]release|"
        r"expects?[ ](?:to|(?:it|them|the[ ]\w+)[ ]to)|(?:must|would[ ]have[ ]to|will[ ]have[ ]to|"
        r"(?:is|are)[ ]required[ ]to|ha(?:s|ve)[ ]until)\b(?=[^.]*\b(?:by|within|until)[ ])"
        r")\b",
        re.I)),
    ("call back", re.compile(
        r"\b(?:(?:promised|agreed|offered|said[ ](?:he|she|they)[ ]would)[ ]to[ ]"
        r"(?:call|get)[ ]back|will[ ](?:call|get)[ ]back|(?:would|will)[ ](?:respond|reply|"
        r"provide|answer|comment)\b[^.]{0,60}?[ ](?:later|by|within|in|next)\b|"
        r"(?:condition|ordered|required|promised|agreed|pledged|vowed|asked|would|will|shall|"
        r"must|should|expects?|expected|plans?)\b[^.]{0,80}?"
        r"\bwithin[ ](?:about[ ]|"
        r"roughly[ ]|around[ ]|approximately[ ])?(?:a|an|one|two|three|\d+)[ ](?:day|week|"
        r"month)s?)\b", re.I)),
]
_DURATION = re.compile(
    r"\b(?:in|within)[ ](?:about|roughly|around|approximately|some|the[ ]next|the[ ]coming|"
    r"less[ ]than|under)?[ ]?(?P<n>a|an|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"\d{1,3})[ ](?P<unit>day|week|month|year)s?\b"
    r"|\b(?P<next>next[ ](?:week|month))\b"
    r"|\bby[ ](?P<by>(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)|"
    r"(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December|Jan\.|Feb\.|Mar\.|Apr\.|Aug\.|Sept?\.|Oct\.|Nov\.|Dec\.)[ ]\d{1,2})\b", re.I)


_END_OF = re.compile(r"\b(?:by|at|before)[ ]the[ ]end[ ]of[ ](?:(?P<which>this|next)[ ]year|"
                     r"(?P<year>(?:19|20)\d\d))\b", re.I)

_WORDNUM = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
            "seven": 7, "eight": 8, "nine": 9, "ten": 10}


def _add(base: dt.date, amount: int, unit: str) -> dt.date:
    """``base`` plus ``amount`` days, weeks, months or years (calendar months: 16 August plus
    three months is 16 November; the day is clamped at the month's end)."""
    if unit == "day":
        return base + dt.timedelta(days=amount)
    if unit == "week":
        return base + dt.timedelta(weeks=amount)
    months = amount * (12 if unit == "year" else 1)
    y, m = divmod(base.month - 1 + months, 12)
    year, month = base.year + y, m + 1
    last = (dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)).day
    return dt.date(year, month, min(base.day, last))


def due_date(sentence: str, published: dt.date | None) -> str | None:
    """The due date a sentence states, as an ISO date, or None.

    "in about a week" / "within a week" -> published + 7 days; "next week"; "by Friday" (the
    next Friday after publication); "by March 1"; "by the end of next year" / "at the end of
    2021" -> that year's 31 December. None without a published date.
    """
    if published is None:
        return None
    end = _END_OF.search(sentence)
    if end:
        year = (int(end["year"]) if end["year"]
                else published.year + (end["which"].lower() == "next"))
        return dt.date(year, 12, 31).isoformat()
    m = _DURATION.search(sentence)
    if not m:
        return None
    if m.group("n"):
        n = m.group("n").lower()
        amount = _WORDNUM.get(n) or int(n)
        return _add(published, amount, m.group("unit").lower()).isoformat()
    else:
        phrase = m.group("next") or m.group("by")
    got = _parse(phrase.replace("Sept.", "Sep."), published, "future")
    return got.isoformat() if got else None


#: Expectation words beyond the future tense of :func:`casefile.extract.dates.is_future`.
_EXPECT = re.compile(r"\b(?:should|ought[ ]to|(?:is|are)[ ](?:to|poised[ ]to)[ ])", re.I)
#: Scheduled happenings: a sentence naming one with a date after publication is a follow-up.
_EVENT = re.compile(r"\b(?:hearings?|elections?|votes?|trial|sentencing|arraignment|debates?|"
                    r"deadline|summit|meeting|conference|ceremony|event|awards|referendum|"
                    r"primary|caucus(?:es)?|launch)\b", re.I)
#: A date right after a reporting verb dates the saying, not what is expected.
_SAID = re.compile(r"\b(?:said|says|told[ ]\S+(?:[ ]\S+)?|announced|reported|wrote|added|"
                   r"confirmed|tweeted|testified)(?:[ ]on)?[ ]$", re.I)
#: What "typically" happens is a rule of the world, not a follow-up of this story.
_HABITUAL = re.compile(r"\b(?:typically|usually|generally|normally|often|routinely)\b", re.I)
#: An expectation stated in the past ("was due to", "were expected to").
_PAST_EXPECT = re.compile(r"\b(?:was|were|had[ ]been)[ ](?:due|expected|scheduled|set|"
                          r"supposed|slated)[ ]to\b", re.I)
_STILL_OPEN = re.compile(r"\b(?:not|n't|yet|still|delayed|postponed|pending)\b", re.I)
#: A hope ("he expects to", "if they expect to") is a follow-up only with a time or a record.
_HOPE = re.compile(r"\bexpects?[ ]", re.I)
_TIME = re.compile(r"\b(?:next[ ](?:week|month|year)|coming[ ](?:days|weeks|months)|soon|"
                   r"later[ ]this[ ](?:week|month|year)|until|within|end[ ]of[ ]|"
                   r"(?:in|by|before|through)[ ](?:early[ ]|late[ ]|mid-)?(?:19|20)\d\d)\b",
                   re.I)


#: "through <month>", "since <day>": the end or start of a span, not a day something is due.
_SPAN = re.compile(r"\b(?:through|since|from|throughout)[ ]$", re.I)


def coming_dates(sentence: str, published: dt.date | None) -> list[str]:
    """ISO dates on or after ``published`` that ``sentence`` expects something on.

    A sentence in the future tense ("will", "is set to", "holds a hearing <weekday>", "should")
    reads its dates forward and keeps those on or after publication; a sentence that only names
    an event ("the <day> election", "a hearing") keeps its dates after publication, read in the
    sentence's own tense. A date right after a reporting verb ("said Tuesday") is left out.
    Empty without ``published``.
    """
    if published is None:
        return []
    future = is_future(sentence) or bool(_EXPECT.search(sentence))
    if not future and not _EVENT.search(sentence):
        return []
    out = []
    for d in find_dates(sentence, published, "future" if future else "past"):
        if _SAID.search(sentence[:d.start]) or _SPAN.search(sentence[:d.start]):
            continue
        if past_clause(sentence[:d.start]) and not _EXPECT.search(
                clause_before(sentence[:d.start])):
            continue  # "approved in <month>", "which became final <weekday>"
        day = dt.date.fromisoformat(d.date)
        if day > published or (future and day == published):
            out.append(d.date)
    return out


def find_followups(text: str, sentences: list[tuple[int, int]], published: dt.date | None
                   ) -> list[dict[str, Any]]:
    """One follow-up per sentence carrying an expectation (see the module doc for the shape
    and the rules)."""
    out: list[dict[str, Any]] = []
    for s, e in sentences:
        sent = text[s:e]
        kind = None
        found = None
        for k, pat in _CUES:
            found = pat.search(sent)
            if found:
                kind = k
                break
        coming = coming_dates(sent, published)
        due = due_date(sent, published) or (coming[0] if coming else None)
        record = re.search(rf"\b(?:{_RECORD_NOUNS})\b", sent, re.I)
        if kind in {"expected record", "call back"} and found is not None:
            if _HABITUAL.search(sent):
                kind = None
            elif (_HOPE.match(found.group()) and not record and not coming and due is None
                  and not _TIME.search(sent)):
                kind = None  # a hope with no time and no record
        if (kind is not None and _PAST_EXPECT.search(sent) and not coming
                and not _STILL_OPEN.search(sent) and find_dates(sent, published)):
            kind = None  # an expectation whose date has passed
        if kind is None:
            planned = (due is not None and _END_OF.search(sent) is not None
                       and (is_future(sent) or _EXPECT.search(sent) is not None))
            if not (coming or planned) or _HABITUAL.search(sent):
                continue
            kind = "scheduled event"
        if kind == "call back" and record:
            kind = "expected record"
        if kind == "expected record" and not record:
            kind = "open question"
        out.append({"text": sent, "kind": kind, "due": due, "start": s, "end": e})
    return out
