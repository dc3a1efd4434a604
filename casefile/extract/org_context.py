"""Organisation mentions read by the words around them (ARCHITECTURE.md, "Names: typed by
their own context, joined when unambiguous"), the rules that decide on the organisation
candidates before they are joined:

- :func:`sentence_openers`: a common word that opens a sentence before a name the text writes
  without it ("Several <Org>") is not part of the name.
"""

from __future__ import annotations

import re
from dataclasses import replace

from casefile.extract.text import norm_key
from casefile.extract.types import Candidate


def _opens_sentence(ft: str, pos: int) -> bool:
    """True if ``ft[pos]`` starts a sentence: the text's start, a new line, or after a full
    stop, a question or an exclamation mark or a closing quotation mark."""
    before = ft[max(0, pos - 4):pos].rstrip()
    return pos == 0 or not before or before[-1] in ".!?\"\n" or "\n" in ft[max(0, pos - 2):pos]


def _capitalised_inside(ft: str, word: str) -> bool:
    """True if ``word`` (capitalised) is written somewhere not at the start of a sentence: a
    name's word, not a common word capitalised by its place."""
    return any(not _opens_sentence(ft, m.start()) for m in re.finditer(
        rf"(?<![\w'-]){re.escape(word)}(?![\w'-])", ft))


def sentence_openers(ft: str, orgs: list[Candidate]) -> list[Candidate]:
    """``orgs`` (organisation candidates, str offsets into ``ft``) with a sentence's first word
    cut off a name when the rest is the name of another mention and the word is never written
    capitalised inside a sentence: "<Adjective> <Org> members said" is "<Org>"."""
    names = {norm_key(c.name) for c in orgs}
    out = []
    for c in orgs:
        words = c.name.split()
        if len(words) >= 2 and ft[c.start:c.end] == c.name and _opens_sentence(ft, c.start):
            start = c.start + len(words[0]) + 1
            rest = ft[start:c.end]
            if norm_key(rest) in names and not _capitalised_inside(ft, words[0]):
                out.append(replace(c, start=start, name=rest, notes=dict(c.notes)))
                continue
        out.append(c)
    return out
