"""What a text says about its people and organisations, for finding who said what: their
mentions (also those the name finder left untagged), genders, and the person or body a
pronoun or a description ("the governor", "the company") means.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from casefile.extract import lexicon as lx
from casefile.extract.claims.grammar import _IDIOMS, _NOT_NAMES, _gender_of_people, _quotations

#: How many characters before a speech verb are read for its subject.
SUBJECT_REACH = 300
#: How far back (characters) a description ("the governor") looks for the one it means.
DESCRIBED_REACH = 20_000


def _untagged_mentions(ft: str, entities: Sequence[tuple[int, int, str, str]]
                       ) -> list[tuple[int, int, str, str]]:
    """Mentions the name finder left out: every other place where a form it tagged elsewhere
    (a capitalised run of at least two words, or one word of four or more letters that is not
    a common sentence opener) is written as a whole word, outside the mentions it has. A
    company named in one sentence and left untagged in the one before is still the company a
    later "the company said" means. One pass over the text whatever the number of forms."""
    forms: dict[str, tuple[str, str]] = {}
    for s, e, name, kind in entities:
        form = ft[s:e]
        if not form[:1].isupper() or form in _NOT_NAMES or (
                " " not in form and len(form) < 4):
            continue
        forms.setdefault(form, (name, kind))
    # a person's surname alone, when no other person of the text has it
    owners: dict[str, set[str]] = {}
    for _s, _e, name, kind in entities:
        if kind == "person" and " " in name:
            owners.setdefault(name.split()[-1], set()).add(name)
    for last, names in owners.items():
        if len(names) == 1 and len(last) >= 4 and last[:1].isupper() and last[1:].islower() \
                and last not in _NOT_NAMES:
            forms.setdefault(last, (next(iter(names)), "person"))
    if not forms:
        return []
    taken = bytearray(len(ft) + 1)
    for s, e, _n, _k in entities:
        taken[s:e] = b"\x01" * (e - s)
    pattern = re.compile(r"(?<![\w'.&-])(?:" + "|".join(
        re.escape(f) for f in sorted(forms, key=len, reverse=True)) + r")(?![\w&-]|'\w|\.\w)")
    out = []
    for m in pattern.finditer(ft):
        if not any(taken[m.start():m.end()]):
            name, kind = forms[m.group()]
            out.append((m.start(), m.end(), name, kind))
    return out


class _Reader:
    """What the text says about its people and organisations, for finding who said what.

    ``entities`` are (start, end, name, kind) with kind "person", "organization" or "news
    outlet"; offsets into ``ft``."""

    def __init__(self, ft: str, sentences: list[tuple[int, int]],
                 entities: Sequence[tuple[int, int, str, str]]) -> None:
        self.ft = ft
        self.sentences = sentences
        # a pronoun taken for a surname ("He" of a name ending in "He") is no mention here
        kept = [x for x in entities
                if ft[x[0]:x[1]].lower() not in {"he", "she", "it", "they", "i"}]
        self.ents = sorted(kept + _untagged_mentions(ft, kept))
        self.starts = [x[0] for x in self.ents]
        self.by_end: dict[int, tuple[int, int, str, str]] = {}
        for x in self.ents:
            self.by_end.setdefault(x[1], x)
        self.mask, blanked = _quotations(ft)
        self.blanked = _IDIOMS.sub(lambda m: " " * len(m.group()), blanked)
        persons = [x for x in self.ents if x[3] == "person"]
        self.gender = _gender_of_people(self.blanked, sentences, persons)
        # the person of each surname (the first named), the names of bodies
        self.by_surname: dict[str, str] = {}
        for x in persons:
            self.by_surname.setdefault(x[2].split()[-1], x[2])
        self.org_names = sorted({x[2] for x in self.ents if x[3] == "organization"})
        self.speaker_of: dict[int, tuple[str, str]] = {}  # sentence index -> (name, kind)

    def inside(self, s: int, e: int) -> list[tuple[int, int, str, str]]:
        return [x for x in self.ents[bisect_left(self.starts, s):bisect_right(self.starts, e)]
                if x[1] <= e]

    def ending_at(self, at: int) -> tuple[int, int, str, str] | None:
        """The entity whose mention ends at ``at`` (or one character before: "Name.")."""
        got = self.by_end.get(at)
        if got is None and at > 0 and self.ft[at - 1] == ".":
            got = self.by_end.get(at - 1)
        return got

    def recent(self, i: int, pos: int, kinds: set[str], gender: str | None = None,
               back: int = 4) -> str | None:
        """The person or organisation a pronoun or description at ``pos`` (in sentence ``i``)
        means: going back sentence by sentence (at most ``back``), the speaker found for that
        sentence when it is of the kind, else its first mention of that kind outside
        quotations (the subject, usually); for people only those of ``gender`` or of unknown
        gender."""
        def fits(name: str, kind: str) -> bool:
            if kind not in kinds:
                return False
            return gender is None or kind != "person" or self.gender.get(name) in (None, gender)
        for j in range(i, max(-1, i - back - 1), -1):
            s, e = self.sentences[j]
            if j < i and j in self.speaker_of and fits(*self.speaker_of[j]):
                return self.speaker_of[j][0]
            for x in self.inside(s, min(e, pos) if j == i else e):
                if not self.mask[x[0]] and fits(x[2], x[3]):
                    return x[2]
        return None

    def named_with(self, i: int, pos: int, word: str) -> str | None:
        """The organisation named before ``pos`` (within :data:`DESCRIBED_REACH`) whose name
        has ``word`` (a plural noun: "the scientists" for "Scientists for <cause>"), the latest."""
        lo = bisect_left(self.starts, pos - DESCRIBED_REACH)
        for x in reversed(self.ents[lo:bisect_left(self.starts, pos)]):
            if x[3] == "organization" and word in x[2].lower().split():
                return x[2]
        return None

    def described(self, i: int, pos: int, noun: str, kind: str) -> str | None:
        """The entity that "the <noun>" at ``pos`` means: the most recent one before it whose
        name or surrounding words ("Gov. <name>", "<name>, the agency's director") have the
        noun, else the most recent one of the kind near it (:meth:`recent`)."""
        kinds = {"person"} if kind == "person" else {"organization"}
        titles = {k.rstrip(".") for k, v in lx.TITLES.items() if noun in v.lower().split()}
        titles.add(noun)
        pattern = re.compile(r"\b(?:" + "|".join(re.escape(t) for t in titles) + r")\b", re.I)
        mentions: dict[str, int] = {}
        fitting: dict[str, int] = {}
        lo = bisect_left(self.starts, pos - DESCRIBED_REACH)
        for x in self.ents[lo:bisect_left(self.starts, pos)]:
            if x[3] not in kinds or x[1] > pos:
                continue
            mentions[x[2]] = mentions.get(x[2], 0) + 1
            near = self.ft[max(0, x[0] - 30):x[0]] + " " + self.ft[x[1]:x[1] + 60].split(".")[0]
            if pattern.search(x[2]) or pattern.search(near):
                fitting[x[2]] = x[0]
        if kind != "person":
            # the body the sentences just before are about, unless another there fits better
            latest = self.recent(i, pos, kinds, back=2)
            since = self.sentences[max(0, i - 2)][0]
            if latest is not None and (latest in fitting or not any(
                    at >= since for at in fitting.values())):
                return latest
        if fitting:  # the one the text names most, then the latest
            return max(fitting, key=lambda n: (mentions[n], fitting[n]))
        gender = "f" if noun in {"woman", "spokeswoman", "chairwoman", "congresswoman",
                                 "actress", "queen", "princess"} else (
            "m" if noun in {"man", "spokesman", "chairman", "congressman", "king", "prince"}
            else None)
        return self.recent(i, pos, kinds, gender)
