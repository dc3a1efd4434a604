"""Claims: sentences that report what someone says is so, with who said it and via whom.

Shape of each claim: {"text", "start", "end", "attributed_to", "via", "status"}: text is the
sentence (str offsets start/end), attributed_to the person or organisation named as the source
(or "unnamed sources"), via the news outlet it came through, status "single-source" when
attributed, else "unverified".
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Any

_CUE = re.compile(
    r"\b(?:according[ ]to|said|says|told|tells|tell|reported(?:ly)?|alleged(?:ly)?|claimed|"
    r"claims|stated|testified|confirmed|wrote|describes|described)\b", re.I)
_UNNAMED = re.compile(r"\b(?:sources|a[ ]source|officials|people[ ]familiar|witnesses)\b", re.I)


def find_claims(text: str, sentences: list[tuple[int, int]],
                entities: Sequence[tuple[int, int, str, str]]) -> list[dict[str, Any]]:
    """Claims in attributed sentences.

    ``entities`` are (start, end, name, kind) of the suggested people and organisations, kind
    "person", "organization" or "news outlet".
    """
    out: list[dict[str, Any]] = []
    # entity indexes by start, to take a sentence's entities without scanning them all
    order = sorted(range(len(entities)), key=lambda i: entities[i][0])
    starts = [entities[i][0] for i in order]
    for s, e in sentences:
        sent = text[s:e]
        cue = _CUE.search(sent)
        if not cue or sent.rstrip().endswith("?") or len(sent) < 25:
            continue
        inside = [entities[i] for i in sorted(order[bisect_left(starts, s):bisect_right(starts, e)])
                  if entities[i][1] <= e]
        via = next((x[2] for x in inside if x[3] == "news outlet"), None)
        speakers = [x for x in inside if x[3] in {"person", "organization"}]
        attributed: str | None = None
        cue_at = s + cue.start()
        if speakers:
            attributed = min(speakers, key=lambda x: abs(x[0] - cue_at))[2]
        elif _UNNAMED.search(sent):
            attributed = "unnamed sources"
        if attributed is None and via is None and cue.group().lower().startswith("reported"):
            attributed = None
        out.append({"text": sent, "start": s, "end": e, "attributed_to": attributed, "via": via,
                    "status": "single-source" if attributed or via else "unverified"})
    return out
