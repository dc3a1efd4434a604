"""Follow-up cues: phrases that announce something expected or unresolved.

Each cue sentence becomes one suggested follow-up: {"text", "kind", "due", "start", "end"} where
text is the sentence (start/end are its str offsets), kind is one of "expected record",
"open question", "right of reply", "records request", "call back", and due is an ISO date
(published date + the duration the sentence states, e.g. "in about a week") or None.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from casefile.extract.dates import _parse

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
        r"(?:within|in)[ ](?:about[ ]|"
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
    next Friday after publication); "by March 1". None without a published date.
    """
    if published is None:
        return None
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


def find_followups(text: str, sentences: list[tuple[int, int]], published: dt.date | None
                   ) -> list[dict[str, Any]]:
    """One follow-up per sentence carrying a cue (see the module doc for the shape)."""
    out: list[dict[str, Any]] = []
    for s, e in sentences:
        sent = text[s:e]
        kind = None
        for k, pat in _CUES:
            if pat.search(sent):
                kind = k
                break
        if kind is None:
            continue
        if kind == "call back" and re.search(rf"\b(?:{_RECORD_NOUNS})\b", sent, re.I):
            kind = "expected record"
        if kind == "expected record" and not re.search(rf"\b(?:{_RECORD_NOUNS})\b", sent, re.I):
            kind = "open question"
        out.append({"text": sent, "kind": kind, "due": due_date(sent, published),
                    "start": s, "end": e})
    return out
