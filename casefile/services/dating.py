"""The published date of a file imported without one: from its metadata, its text, or the file.

Relative dates in a document ("yesterday", "in about a week") resolve against its published date,
so an import without ``--published`` still needs one. :func:`guess_published` picks, first match
wins: the date in the file's metadata (an email's Date header, a PDF's creation date...), a
publication date written near the top of the text, else the file's modification date. The
result says which, in a note kept on the document, so a reporter can check it.

A date in the text counts only where a publication date is written: a labelled line ("Published
February 23, 2018", "Updated: Feb. 23, 2018 4:05 p.m."), a short line that holds a full date (a
byline "By Jane Doe | February 23, 2018", a date on its own line), or a dateline opening a
paragraph ("PARKLAND, Fla., Feb. 23, 2018 --"), all in the first lines of the text. A date inside
a sentence ("a rally on Nov. 6, 2019") dates an event, not the article, and is not taken; nor is
a date without a year. Nor is a short line's date that a sentence leads to ("The audit is due
on March 3, 2018.") or that signs a post quoted in the text ("— Name (@handle) November 1,
2019": the post's date).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Literal

from casefile.extract.lexicon import MONTHS

Source = Literal["given", "metadata", "text", "file"]

#: How far into the text a publication date is looked for: lines, and characters.
TOP_LINES = 12
TOP_CHARS = 2000
#: A line this short holding a full date is a byline or date line, not a sentence.
SHORT_LINE = 100

_MONTH = r"(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d{2})"
_FULL_DATES = [
    re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}\b", re.IGNORECASE),
    re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}\b", re.IGNORECASE),
    re.compile(r"\b(?P<iso>(?:19|20)\d{2}-[01]\d-[0-3]\d)\b"),
    re.compile(r"\b(?P<us>[01]?\d/[0-3]?\d/(?:19|20)\d{2})\b"),
]
_LABEL = re.compile(r"^\W*(?:first\s+)?(?:published|posted|updated|last\s+updated|date|dated|"
                    r"released|issued)\b", re.IGNORECASE)
#: Every full date above holds a year 19xx/20xx: a line without one is skipped at once.
_YEAR_SOMEWHERE = re.compile(r"\b(?:19|20)\d{2}\b")
#: A short line whose date follows one of these words is a sentence about that day.
_BEFORE_IN_SENTENCE = re.compile(
    r"\b(?:on|by|until|till|before|after|since|from|through|to|between|and|or|of|in|due|"
    r"at|for|than|around|about)\s+(?:the\s+)?$")
#: The signature of a post quoted in the text ("— Name (@handle) November 1, 2019"): its date
#: is the post's, not the article's.
_POST_SIGNATURE = re.compile(r"^[—–-]+\s*\S.*\(@\w+\)")
# "CITY, State, <date> --" / "CITY (AP) <date> —": a dateline opening a paragraph.
_DATELINE_END = re.compile(r"^\W{0,3}\s*(?:--|—|–|-\s)")


@dataclass(frozen=True)
class DateGuess:
    """A document's published date and where it came from.

    ``date``: the date; ``source``: ``"given"`` (by the user), ``"metadata"`` (from the file's
    metadata), ``"text"`` (written near the top of the text) or ``"file"`` (the file's
    modification date); ``note``: one sentence saying which, for the document's notes (empty
    for a given date).
    """

    date: date
    source: Source
    note: str


def new_note(guess: DateGuess, notes: list[str]) -> str | None:
    """``guess.note`` for a document whose reader left ``notes``, or None when the reader
    already said where it found this very date ("Published date 2019-11-08 from the page's
    metadata"): the note is not given twice."""
    said = f"Published date {guess.date.isoformat()} "
    if guess.source == "metadata" and any(n.startswith(said) for n in notes):
        return None
    return guess.note or None


def given_date(value: date) -> DateGuess:
    """A date the user gave (``--published``, the import dialog): no note needed."""
    return DateGuess(value, "given", "")


def guess_published(path: Path, text: str, metadata_published: date | None = None) -> DateGuess:
    """The published date to use for ``path``, whose extracted text is ``text``.

    ``metadata_published`` is the date the reader found in the file's metadata, if any; it wins.
    Then a publication date near the top of ``text`` (see the module docstring), then the day
    ``path`` was last modified (local time). A file whose modification time cannot be read gets
    today's date, and the note says so. Never raises for a bad file.
    """
    if metadata_published is not None:
        return DateGuess(metadata_published, "metadata",
                         f"Published date taken from the file's metadata: "
                         f"{metadata_published.isoformat()}")
    found = date_in_text(text)
    if found is not None:
        return DateGuess(found, "text",
                         f"Published date taken from the text: {found.isoformat()}")
    try:
        modified = datetime.fromtimestamp(Path(path).stat().st_mtime).date()
    except (OSError, ValueError, OverflowError):
        today = date.today()
        return DateGuess(today, "file", "Published date unknown (the file's modification date "
                                        f"could not be read); today's date used: "
                                        f"{today.isoformat()}")
    return DateGuess(modified, "file", "Published date taken from the file's modification date: "
                                       f"{modified.isoformat()}")


def date_in_text(text: str) -> date | None:
    """The publication date written near the top of ``text`` (module docstring), or None."""
    top = text[:TOP_CHARS]
    if "19" not in top and "20" not in top:  # no year 19xx/20xx (two C scans; the regex
        return None                          # below costs about 20 ns a character)
    lines = [line.strip() for line in top.splitlines() if line.strip()][:TOP_LINES]
    for line in lines:
        if not _YEAR_SOMEWHERE.search(line):
            continue
        for pattern in _FULL_DATES:
            for m in pattern.finditer(line):
                value = _to_date(m)
                if value is None:
                    continue
                if _LABEL.match(line) or _is_dateline(line, m) or (
                        len(line) <= SHORT_LINE and not _in_sentence(line, m)
                        and not _POST_SIGNATURE.match(line)):
                    return value
    return None


def _in_sentence(line: str, m: re.Match[str]) -> bool:
    """True when the date is part of a sentence's grammar: a lower-case word such as "on",
    "by", "until" or "due" stands right before it ("The audit is due on March 3, 2018.")."""
    return _BEFORE_IN_SENTENCE.search(line, 0, m.start()) is not None


def _is_dateline(line: str, m: re.Match[str]) -> bool:
    """True when the date ends a dateline: it sits in the line's first 60 characters, before
    any sentence starts, and a dash follows it."""
    before = line[:m.start()]
    return (m.start() <= 60 and not re.search(r"[.!?]\s", before)
            and _DATELINE_END.match(line[m.end():]) is not None)


def _to_date(m: re.Match[str]) -> date | None:
    groups = m.groupdict()
    try:
        if groups.get("iso"):
            return date.fromisoformat(groups["iso"])
        if groups.get("us"):
            month, day, year = (int(p) for p in groups["us"].split("/"))
            return date(year, month, day)
        return date(int(groups["year"]), MONTHS[groups["month"].lower()], int(groups["day"]))
    except (ValueError, KeyError):
        return None
