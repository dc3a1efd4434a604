"""Small value types shared by the extraction modules."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

EntityKind = Literal["person", "organization", "place"]


@dataclass(frozen=True)
class KnownItem:
    """A name the case already holds.

    kind: "person", "organization" or "place".
    name: the name as stored in the case; suggestions for it are returned under this name.
    aliases: other ways the item is written ("Mercer", "HCSO").
    role, affiliation: stored details, returned with the suggestion when the text adds none.
    """

    kind: EntityKind
    name: str
    aliases: tuple[str, ...] = ()
    role: str | None = None
    affiliation: str | None = None


@dataclass
class Candidate:
    """One occurrence of a possible entity in the text.

    start/end are Python str offsets into the original text (``text[start:end]`` is the
    mention). ``name`` is the name this occurrence proposes for its entity (titles and
    possessives removed; for agencies the full agency name). ``source`` says which layer found
    it: "known", "rule" or "model".
    """

    kind: EntityKind
    start: int
    end: int
    name: str
    source: str
    role: str | None = None
    affiliation: str | None = None
    org_kind: str | None = None
    agency_key: tuple[str, str] | None = None  # ("sheriff", "harlan county") style key
    titled: bool = False  # a title or rank stood right before the name
    known: KnownItem | None = None
    notes: dict[str, str] = field(default_factory=dict)


def skipped_result(length: int) -> dict[str, Any] | None:
    """What :func:`casefile.extract.extract_suggestions` returns for a text of ``length``
    characters too long for suggestions (above
    :data:`casefile.ingest.budget.MAX_SUGGEST_CHARS`): its shape with no suggestion,
    ``"mode": "skipped"`` and ``"skipped"``: the note saying why ("suggestions skipped: the
    text is 60 million characters, above the 2 million limit; run `casefile extract` on
    parts"). None for a text suggestions run on."""
    from casefile.ingest.budget import suggestions_skipped

    note = suggestions_skipped(length)
    if note is None:
        return None
    return {"people": [], "organizations": [], "places": [], "events": [], "followups": [],
            "claims": [], "mode": "skipped", "model": None, "skipped": note}
