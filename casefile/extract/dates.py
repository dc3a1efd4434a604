"""Dates in text and the events they date.

Explicit dates ("February 14", "Aug. 9, 2017", "14 March", "2018-02-14") are resolved against the
published date, preferring the past when no year is written. Relative phrases resolve against the
published date ("yesterday", "Tuesday", "last week") or against an earlier dated event ("two days
after the shooting" -> the shooting's date + 2 days). Dates are ISO 8601 strings; precision is
"day", "month" or "approximate". Parsing and date arithmetic use dateparser.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from casefile.extract.lexicon import MONTHS, WEEKDAYS

_MONTH = ("(?:January|February|March|April|May|June|July|August|September|October|November|"
          "December|Jan\\.|Feb\\.|Mar\\.|Apr\\.|Jun\\.|Jul\\.|Aug\\.|Sept\\.|Sep\\.|Oct\\.|"
          "Nov\\.|Dec\\.)")
_DAY = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
_WEEKDAY = "(?:" + "|".join(w.capitalize() for w in sorted(WEEKDAYS)) + ")"
_WEEK_ORDER = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_NUM = r"(?i:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,3})"
_UNIT = r"(?:day|week|month|year|hour)s?"

_EXPLICIT = re.compile(
    rf"(?P<md>{_MONTH}[ ]{_DAY}(?![\d:])(?:,?[ ](?P<y1>\d{{4}}))?)"
    rf"|(?P<dm>{_DAY}[ ](?:of[ ])?{_MONTH}(?:,?[ ](?P<y2>\d{{4}}))?)"
    rf"|(?P<my>{_MONTH},?[ ]\d{{4}})"
    rf"|(?P<iso>\b\d{{4}}-\d{{2}}-\d{{2}}\b)"
    rf"|(?P<us>\b\d{{1,2}}/\d{{1,2}}/\d{{4}}\b)"
    rf"|(?:\b(?:in|since|during|until|by|early|late|mid-|last|this|next)[ ](?P<mo>{_MONTH})"
    rf"(?![ ]\d))"
    rf"|(?P<wd>\b(?:(?P<wdq>last|this|next|on)[ ])?{_WEEKDAY}\b)"
    rf"|(?P<rel>\b(?:yesterday|today|tonight|last[ ]night|the[ ]day[ ]before[ ]yesterday)\b)"
    rf"|(?P<lw>\blast[ ](?:week|month)\b)")
_ANCHORED = re.compile(
    rf"\b(?:(?P<n>{_NUM})[ ](?P<unit>{_UNIT})[ ](?P<dir>after|before|later|earlier|prior[ ]to)"
    rf"|(?:the[ ])?(?P<nd>next|following)[ ]day"
    rf"|the[ ]day[ ](?P<dd>after|before))"
    rf"(?:[ ](?:the|a|an|his|her|their|its)[ ](?P<noun>[a-z]+))?")
_WORDNUM = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
            "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}


@dataclass
class DatePhrase:
    """A date found in the text: str offsets, ISO date, precision."""

    start: int
    end: int
    text: str
    date: str
    precision: str


def _parse(phrase: str, base: dt.date | None, prefer: str = "past") -> dt.date | None:
    import dateparser

    settings: dict[str, Any] = {"PREFER_DATES_FROM": prefer, "PREFER_DAY_OF_MONTH": "first",
                                "RETURN_AS_TIMEZONE_AWARE": False}
    if base is not None:
        settings["RELATIVE_BASE"] = dt.datetime(base.year, base.month, base.day)
    got = dateparser.parse(phrase, languages=["en"], settings=settings)
    return got.date() if got else None


def shift(base: dt.date, amount: int, unit: str) -> dt.date | None:
    """``base`` moved by ``amount`` units ("day", "week", "month", "year"); negative goes back."""
    unit = unit.rstrip("s")
    phrase = f"in {amount} {unit}s" if amount >= 0 else f"{-amount} {unit}s ago"
    return _parse(phrase, base, "future" if amount >= 0 else "past")


def _has_year(m: re.Match[str]) -> bool:
    return bool(m.group("y1") or m.group("y2") or m.group("my") or m.group("iso")
                or m.group("us"))


_FUTURE = re.compile(r"\b(?:will|shall|is[ ]expected|are[ ]expected|scheduled|slated|due|upcoming|"
                     r"plans?[ ]to|planned[ ]to|planning[ ]to|(?:is|are|was|were)[ ]set[ ]to|"
                     r"deadline|next|(?:is|are)[ ]set[ ]for|ha(?:s|ve)[ ]until|"
                     r"would[ ](?:hold|meet|vote|take|begin|start|"
                     r"return|release|decide|announce|ask|file)|"
                     # the present of a scheduled act ("is holding an event on <day>", "holds a
                     # hearing <weekday>"): news uses it for what is about to happen
                     r"(?:is|are)[ ](?:holding|hosting|staging|launching|opening|unveiling|"
                     r"meeting|voting|testifying|stepping[ ]down|leaving|visiting|traveling|"
                     r"travelling|heading)|"
                     r"holds|hosts|opens|meets|votes|testifies|kicks[ ]off|takes[ ]place)\b",
                     re.I)
#: Nouns of scheduled events: a date without a year right before one ("the <day> election") is
#: the nearest such day, not the past one.
_EVENT_NOUN = re.compile(r"[ ](?:[a-z-]+[ ])?(?:elections?|votes?|hearings?|"
                         r"deadline|debates?|trial|meeting|summit|referendum|primary|caucus(?:es)?"
                         r"|sentencing|ceremony|launch)\b", re.I)


#: Where a clause begins, for the tense of the words before a date.
_CLAUSE = re.compile(r"[,;:\u2014\u2013\u201c\u201d\"()]|\b(?:that|which|who|when|after|before|"
                     r"while|because|but|and)\b", re.I)
#: The past tense in a clause (regular "-ed" forms and the common irregular ones).
_PAST = re.compile(  # a participle after "be"/"been"/"being" is passive, not past
    r"(?<!\bbe[ ])(?<!\bbeen[ ])(?<!\bbeing[ ])(?<!\bget[ ])"
    r"\b(?!(?:hundred|indeed|speed|proceed|succeed|exceed|breed|based|related|owned|limited|"
    r"united|armed|need|scheduled|expected|planned|slated)\b)(?:was|were|had|did|\w{2,}ed|"
    r"became|began|took|made|came|went|gave|held|met|won|lost|left|saw|got|rose|fell|ran|"
    r"brought|bought|sought|thought|found|kept|sent|spent|built|wrote|spoke|broke|chose|drove|"
    r"flew|grew|knew|threw|struck|stood|sold|told|said|paid|fled|quit)\b", re.I)


def clause_before(before: str) -> str:
    """The clause that ``before`` (the text up to a date) ends in."""
    return _CLAUSE.split(before)[-1]


def past_clause(before: str) -> bool:
    """True if the clause a date stands in, up to the date (``before``: the text before it),
    is in the past tense and speaks of no future ("which became final <weekday>"; "had
    planned to impose <day>" is not past), or if the three words right before the date do
    ("the plan approved in <month>" in a sentence that goes on in the future)."""
    clause = clause_before(before)
    near = " ".join(clause.split()[-3:])
    return ((not is_future(clause) and bool(_PAST.search(clause)))
            or (not is_future(near) and bool(_PAST.search(near))))


def is_future(sentence: str) -> bool:
    """True if a sentence speaks of the future ("will", "is expected to", "scheduled", "is
    holding an event on ...")."""
    return bool(_FUTURE.search(sentence))


def find_dates(text: str, published: dt.date | None, prefer: str = "past"
               ) -> list[DatePhrase]:
    """Explicit and publication-relative dates in ``text`` (folded text is fine).

    Dates without a year are taken in the past of ``published`` (``prefer="past"``) or in its
    future (``prefer="future"``, for sentences about what is to come); a day and month that
    name an event ("the <day> election", "the <day> hearing") are the nearest such day. A
    bare weekday that is the publication's own weekday is the publication date (news style
    names the day). A date in a clause in the past tense (:func:`past_clause`) is read
    backward whatever ``prefer`` says. Without ``published``, only dates that carry their year
    are resolved.
    """
    out: list[DatePhrase] = []
    asked = prefer
    for m in _EXPLICIT.finditer(text):
        phrase = m.group()
        if not _has_year(m) and published is None:
            continue
        # a clause in the past tense reads its own dates backward, whatever the sentence
        past = past_clause(text[:m.start()])
        prefer = "past" if past else asked
        if m.group("mo"):
            mname = m.group("mo").rstrip(".").lower()
            month = MONTHS[mname]
            year = published.year if published else None
            if year is None:
                continue
            q = phrase.split()[0].lower()
            later = published is not None and month > published.month
            earlier = published is not None and month < published.month
            # In a sentence about the future, a month just before publication is still more
            # likely the recent past ("the March crash is expected to…"): take the nearer year.
            if q == "next" or (prefer == "future" and earlier and q != "last"
                               and published is not None
                               and published.month - month > 6):
                year += 1
            elif q not in {"last", "this"} and later and prefer == "past":
                year -= 1
            if q == "last" and published and month >= published.month:
                year -= 1
            out.append(DatePhrase(m.start("mo"), m.end("mo"), m.group("mo"),
                                  dt.date(year, month, 1).isoformat(), "month"))
            continue
        got: dt.date | None
        if m.group("wd"):
            q = m.group("wdq")
            day = m.group("wd").split()[-1]
            if published and q not in {"last", "next"} and published.strftime("%A") == day:
                got = published
            elif published and q == "last":
                # "last Tuesday": that day of the week before the publication's week
                want = [w.capitalize() for w in _WEEK_ORDER].index(day)
                monday = published - dt.timedelta(days=published.weekday())
                got = monday - dt.timedelta(days=7 - want)
            else:
                got = _parse(day, published, "future" if q == "next" else prefer)
            precision = "day"
        elif m.group("lw"):
            got = _parse("1 week ago" if "week" in phrase else "1 month ago", published)
            precision = "approximate" if "week" in phrase else "month"
        elif m.group("my"):
            got = _parse(phrase.replace(",", ""), published, prefer)
            precision = "month"
        else:
            clean = re.sub(r"(?<=\d)(st|nd|rd|th)\b", "", phrase.replace(" of ", " "))
            got = _parse(clean.replace("Sept.", "Sep."), published, prefer)
            precision = "day"
        if got is None:
            continue
        if (prefer == "future" and published is not None and not _has_year(m)
                and m.group("wdq") is None and got > published):
            got = _nearer_year(got, published)
        elif (prefer == "past" and not past and published is not None and not _has_year(m)
              and (m.group("md") or m.group("dm")) and _EVENT_NOUN.match(text, m.end())):
            got = _nearest_year(got, published)
        if precision == "month":
            got = got.replace(day=1)
        out.append(DatePhrase(m.start(), m.end(), phrase, got.isoformat(), precision))
    return out


def _nearer_year(got: dt.date, published: dt.date) -> dt.date:
    """``got`` or the same day a year earlier, whichever is nearer to ``published``.

    A future-tense sentence may still name a recent past date ("the March 3 crash is expected
    to be explained"): a date without a year is read as the one closest to publication.
    """
    try:
        earlier = got.replace(year=got.year - 1)
    except ValueError:  # 29 February
        return got
    return earlier if abs((published - earlier).days) < abs((got - published).days) else got


def _nearest_year(got: dt.date, published: dt.date) -> dt.date:
    """The day and month of ``got`` in the year (published's, the one before or after) that
    puts it nearest to ``published``."""
    best = got
    for year in (published.year - 1, published.year, published.year + 1):
        try:
            day = got.replace(year=year)
        except ValueError:  # 29 February
            continue
        if abs((day - published).days) < abs((best - published).days):
            best = day
    return best


@dataclass
class AnchoredPhrase:
    """A date relative to another event ("two days after the shooting")."""

    start: int
    end: int
    text: str
    amount: int
    unit: str
    noun: str | None


def find_anchored(text: str) -> list[AnchoredPhrase]:
    """Relative phrases that need an earlier event to resolve: amount is signed (negative means
    before), unit is "day"/"week"/"month"/"year"/"hour", noun names the anchor event if given."""
    out = []
    for m in _ANCHORED.finditer(text):
        if m.group("n"):
            amount = _WORDNUM.get(m.group("n").lower()) or int(m.group("n"))
            unit = m.group("unit").rstrip("s")
            sign = -1 if m.group("dir") in {"before", "earlier", "prior to"} else 1
        else:
            amount, unit = 1, "day"
            sign = -1 if m.group("dd") == "before" else 1
        if unit == "hour":
            continue
        out.append(AnchoredPhrase(m.start(), m.end(), m.group(), sign * amount, unit,
                                  m.group("noun")))
    return out


def warm_up() -> None:
    """Load dateparser's language data now (the first parse is slow)."""
    _parse("February 14", dt.date(2000, 3, 1))
