"""Claims: sentences that report what someone says is so, with who said it and via whom.

Shape of each claim: {"text", "start", "end", "attributed_to", "via", "status"}: text is the
sentence (str offsets start/end), attributed_to the person or organisation named as the source,
or a plain description of unnamed sources ("unnamed sources", "unnamed <modifier> sources"
when the text says whose sources they are); via the news outlet it came through; status
"single-source" when attributed, else "unverified".

Unnamed sources win over a named speaker when the sentence itself is attributed to them:
"…, <modifier> sources tell <Outlet>", "sources told <Outlet>", "according to <modifier>
sources", "sources in <Place> said". The modifier is the words right before "sources" (a
place, an agency, "police", "senior administration"), without counts, determiners or
"anonymous"-like words; the outlet is the name right after "tell"/"told".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from casefile.extract.claims.grammar import _PASSIVE
from casefile.extract.claims.reader import _Reader
from casefile.extract.claims.sources import (
    _CUE,
    _HEDGE,
    _SOURCES_SAY,
    _UNNAMED,
    UNNAMED_SOURCES,
    _unnamed_attribution,
    is_lead_in,
)
from casefile.extract.claims.speakers import _according_to, _quote_speaker, _speech_subject


def find_claims(text: str, sentences: list[tuple[int, int]],
                entities: Sequence[tuple[int, int, str, str]]) -> list[dict[str, Any]]:
    """Claims in attributed sentences.

    ``entities`` are (start, end, name, kind) of the suggested people and organisations, kind
    "person", "organization" or "news outlet". A sentence attributed to unnamed sources (see
    the module docstring) gets ``attributed_to`` "unnamed <modifier> sources" (a plain
    string, never an entity) and ``via`` the outlet named after "tell"/"told" (its entity's
    name when it is one, else the words as written), else the sentence's news outlet. Otherwise
    the speaker is the subject of the speech verb outside quotation marks: a name (also after
    an appositive or after the verb, '"…," said <name>'); "he"/"she"/"it" and descriptions
    ("the governor", "the company") resolved to the person or organisation meant in the text
    before; plural unnamed groups ("analysts say", "city officials said") as "unnamed <group>".
    Then the source after "according to" (a name, or the words of a record: "court records").
    A sentence inside a quotation with no attribution of its own takes that of the sentence
    that closes the quotation or of the lead-in before it. A sentence whose only cue is a hedge
    ("reportedly", "allegedly") names no speaker; a lead-in sentence (:func:`is_lead_in`) is
    no claim; names inside quotations or elsewhere in the sentence are never taken as its
    speaker.
    """
    rd = _Reader(text, sentences, entities)
    found: dict[int, tuple[str, str] | None] = {}
    for i in range(len(sentences)):
        got = _speech_subject(rd, i)
        found[i] = got
        if got is not None and got[1] in {"person", "organization"}:
            rd.speaker_of[i] = got
    out: list[dict[str, Any]] = []
    for i, (s, e) in enumerate(sentences):
        sent = text[s:e]
        if sent.rstrip().endswith("?") or len(sent) < 25 or is_lead_in(sent):
            continue
        blank = rd.blanked[s:e]
        cue = next((c for c in _CUE.finditer(blank)
                    if not _PASSIVE.search(blank[max(0, c.start() - 40):c.start()])),
                   None) or _SOURCES_SAY.search(blank)
        subject = found[i]
        quoted = None
        if subject is None and cue is None:
            quoted = _quote_speaker(rd, i, found)
            if quoted is None:
                continue
        cues = [c.group() for c in _CUE.finditer(blank)]
        hedged = bool(cues) and all(_HEDGE.match(c) for c in cues)
        inside = rd.inside(s, e)
        via = next((x[2] for x in inside if x[3] == "news outlet"), None)
        attributed: str | None = None
        unnamed = _unnamed_attribution(blank)
        if unnamed is not None:
            attributed, outlet = unnamed
            if outlet is not None:
                a, b = s + outlet[0], s + outlet[1]
                named = next((x for x in inside if a <= x[0] < b), None)
                via = named[2] if named is not None else text[a:b].rstrip(".")
        elif subject is not None:
            attributed = subject[0] or None
        elif (source := _according_to(rd, i, s, blank)) is not None:
            attributed = source
        elif quoted is not None:
            attributed = quoted[0] or None
        elif hedged:  # "X reportedly did Y": not X's words, nor the witnesses'
            pass
        elif _UNNAMED.search(blank):
            attributed = UNNAMED_SOURCES
        out.append({"text": sent, "start": s, "end": e, "attributed_to": attributed, "via": via,
                    "status": "single-source" if attributed or via else "unverified"})
    return out
