"""Places found by rules: "in/at/near/from <Name>", "<Town>, <State>", state names, and the place
part of agency names ("<place> Police Department").

A place written inside another entity's name ("Broward County" in "Broward County Sheriff's
Office") is not a mention of the place: :func:`outside_names` drops such candidates once the
organisations and people of the text are known.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable

from casefile.extract import lexicon as lx
from casefile.extract.text import CAPWORD
from casefile.extract.types import Candidate

_STATE_ALT = "|".join(re.escape(s) for s in sorted(
    [*lx.US_STATES, *lx.STATE_ABBREVIATIONS], key=len, reverse=True))
_TOWN_STATE = re.compile(rf"(?P<town>{CAPWORD}(?:[ ]{CAPWORD}){{0,2}}),[ ](?P<state>{_STATE_ALT})"
                         rf"(?![\w])")
_AFTER_PREP = re.compile(
    rf"\b(?:[Ii]n|[Aa]t|[Nn]ear|[Ff]rom|[Oo]utside|[Aa]cross|[Tt]hroughout|[Tt]oward)[ ]"
    rf"(?P<name>{CAPWORD}(?:[ ]{CAPWORD}){{0,2}})")
_STATE = re.compile(rf"(?<![\w])(?:{'|'.join(sorted(lx.US_STATES, key=len, reverse=True))})"
                    rf"(?![\w])")


def _ok(name: str) -> bool:
    ws = name.lower().split()
    return not (ws[0] in lx.FUNCTION_WORDS or ws[-1] in lx.NOT_NAME_WORDS
                or any(w in lx.MONTHS or w in lx.WEEKDAYS for w in ws)
                or name.lower() in lx.PLATFORMS or name in lx.NEWS_OUTLETS
                or ws[0] in lx.TITLES)


def find_places(ft: str) -> list[Candidate]:
    """Rule candidates for places in folded text ``ft`` (str offsets)."""
    out: list[Candidate] = []
    for m in _TOWN_STATE.finditer(ft):
        if _ok(m.group("town")):
            out.append(Candidate("place", m.start("town"), m.end("town"), m.group("town"), "rule",
                                 notes={"town": "1"}))
        state = m.group("state")
        out.append(Candidate("place", m.start("state"), m.end("state"),
                             lx.STATE_ABBREVIATIONS.get(state, state), "rule"))
    for m in _STATE.finditer(ft):
        out.append(Candidate("place", m.start(), m.end(), m.group(), "rule"))
    for m in _AFTER_PREP.finditer(ft):
        name = m.group("name")
        if _ok(name):
            out.append(Candidate("place", m.start("name"), m.end("name"), name, "rule",
                                 notes={"after": m.group().split()[0].lower()}))
    return out


def outside_names(places: Iterable[Candidate], names: Iterable[tuple[int, int]]
                  ) -> list[Candidate]:
    """The place candidates whose span does not lie inside one of ``names`` (``(start, end)``
    spans of organisation and person mentions of the same text, str offsets). A span equal to a
    name's span counts as inside."""
    spans = sorted(set(names))
    starts = [s for s, _e in spans]
    reach: list[int] = []  # reach[i]: the furthest end of the names spans[0..i]
    for _s, e in spans:
        reach.append(max(e, reach[-1]) if reach else e)
    out: list[Candidate] = []
    for c in places:
        i = bisect_right(starts, c.start)  # the names starting at or before the place
        if i == 0 or reach[i - 1] < c.end:
            out.append(c)
    return out
