"""Organisation mentions read by the words around them (ARCHITECTURE.md, "Names: typed by
their own context, joined when unambiguous"), the rules that decide on the organisation
candidates before they are joined:

- :func:`written_as_places`: an organisation only the model read, written once before a noun
  for an area, a piece of land or a camp, is a place.
"""

from __future__ import annotations

import re

from casefile.extract.organizations import OrgCluster
from casefile.extract.text import norm_key
from casefile.extract.types import Candidate

#: Nouns for an area or a piece of land after a name: "the <Name> neighborhood", "the <Name>
#: foothills", "the <Name> camp".
_AREA_NOUNS = re.compile(r"[ ](?:neighborhood|neighbourhood|area|section|suburb|township|"
                         r"community|subdivision|corridor|district|foothills|mountains|coast|"
                         r"basin|peninsula|desert|camp|crossing|border)\b")


def written_as_places(ft: str, clusters: list[OrgCluster], places: list[Candidate]
                      ) -> list[OrgCluster]:
    """``clusters`` without the organisations only the model read that one mention writes as
    a place ("the <Name> neighborhood", "the <Name> foothills", "the <Name> camp"); their
    mentions (str offsets into ``ft``) are added to ``places``."""
    keep = []
    for cl in clusters:
        if all(c.source == "model" for c in cl.cands) and any(
                _AREA_NOUNS.match(ft, c.end) for c in cl.cands):
            places.extend(Candidate("place", c.start, c.end, c.name, "model") for c in cl.cands)
            continue
        keep.append(cl)
    return keep


#: After a name: a programme or a service of a broadcaster or a streaming service ("an upcoming
#: <X> documentary", "her <X> special,", "<X> subscribers"); "special" not before another
#: noun ("a <State> special election").
_PROGRAMME_AFTER = re.compile(r"[ ](?:documentary|documentaries|docuseries|series|subscribers|"
                              r"special(?![ ][a-z]))\b")
#: Before a name: where something is watched or streamed ("watching <show> on <X>").
_WATCHED_ON = re.compile(r"\b(?:watch|watched|watching|stream|streamed|streaming|aired|airs|"
                         r"airing|binge|binged|bingeing|binging)\b[^.!?\n]{0,60}[ ]on[ ]$")


def _shown_on(ft: str, c: Candidate) -> bool:
    """True if the mention ``c`` is written as what shows programmes: "<X> documentary",
    "watching <show> on <X>"."""
    return bool(_PROGRAMME_AFTER.match(ft, c.end)
                or _WATCHED_ON.search(ft[max(0, c.start - 90):c.start]))


def channels(ft: str, places: list[Candidate]) -> tuple[list[Candidate], list[Candidate]]:
    """``places`` split into (organisations, places): a one-word name only the model read as
    a place that one of its mentions writes as what shows programmes ("an upcoming <X>
    documentary", "watching <show> on <X>") is a broadcaster or a streaming service, an
    organisation, with all its mentions."""
    by_key: dict[str, list[Candidate]] = {}
    for c in places:
        by_key.setdefault(norm_key(c.name), []).append(c)
    moved: set[str] = set()
    for key, cands in by_key.items():
        name = cands[0].name
        if (all(c.source == "model" for c in cands) and " " not in name and name[:1].isupper()
                and not name.isupper() and any(_shown_on(ft, c) for c in cands)):
            moved.add(key)
    orgs = [Candidate("organization", c.start, c.end, c.name, "model") for c in places
            if norm_key(c.name) in moved]
    return orgs, [c for c in places if norm_key(c.name) not in moved]
