"""Listing a case's pending suggestions: one entry per suggested name, with its mentions counted
and the first one's context (the Suggestions panel's list, ``casefile suggestions``).

Part of the decisions on suggestions (:mod:`casefile.services.decisions`, which re-exports
these names): the kinds, what tells two suggestions of one name apart (:func:`variant_of`),
the context snippet shown with a suggestion and :func:`list_suggestions` itself. No Qt here.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from casefile.errors import ValidationError
from casefile.store import ChangeLog, Mention
from casefile.store.items import QUESTION_KINDS
from casefile.store.mention_groups import WINDOW, MentionGroup, mention_groups, ordered_ids
from casefile.store.reader import session_reader

#: Suggestion kinds in the order the panel shows them.
SUGGESTION_KINDS = ("person", "organization", "place", "event", "question", "claim")
#: How a message names each kind ("Added follow-up “…”").
KIND_WORDS = {"person": "person", "organization": "organization", "place": "place",
              "event": "event", "question": "follow-up", "claim": "claim", "document": "document"}
#: How each kind's passages are linked to the item a decision ties them to.
RELATION_FOR_KIND = {
    "person": "mentions", "organization": "mentions", "place": "mentions",
    "event": "supports", "question": "context", "claim": "supports",
}
#: The extractor's follow-up kinds mapped onto the store's vocabulary (QUESTION_KINDS).
FOLLOWUP_KIND_MAP = {"open question": "question"}
#: Longest title given to an event or question made from a sentence (characters).
TITLE_LIMIT = 200
#: Characters either side of a mention when its sentence is too long to show whole.
SNIPPET_WIDTH = 60
#: Longest sentence shown whole as a snippet (characters); the list reads WINDOW characters of
#: text around a first mention, which must be more than this (and SNIPPET_WIDTH) plus a few.
SNIPPET_SENTENCE_LIMIT = 240
assert max(SNIPPET_SENTENCE_LIMIT, SNIPPET_WIDTH) + 8 < WINDOW



@dataclass(frozen=True)
class SuggestionEntry:
    """One suggested name of one kind, with all its pending mentions in the case.

    ``kind``: person, organization, place, event, question or claim. ``name``: the suggested
    name (for events, questions and claims, the sentence). ``variant`` tells apart suggestions
    of one sentence ("" for people, organizations, places and claims; the date for an event;
    kind and due date for a follow-up), see :func:`variant_of`. ``role`` / ``affiliation``:
    the first ones suggested (people only). ``detail``: kind-specific data, e.g. ``{"date":
    "2018-02-14", "precision": "day"}``, ``{"kind": "expected record", "due": "2018-03-02"}``
    or, for a claim, ``{"attributed_to": "Mike Goodrum", "via": "CNN", "status":
    "single-source"}``. ``mentions``: how many pending mentions; ``documents``: in how many
    documents. ``snippet``: the first mention's sentence (or ±60 characters around it),
    whitespace collapsed; ``highlight``: the mention's ``(start, end)`` inside ``snippet``.
    ``document_id``/``start``/``end``: the first mention
    (Python str offsets into that document's text). ``mention_ids``: every pending mention,
    the first one first, then the others by id.

    An entry :func:`list_suggestions` read works out ``snippet``, ``highlight``,
    ``mention_ids`` and ``detail`` from what the database returned the first time each is
    asked for (the panel shows a snippet for the selected row only: making all of a big
    case's ~1,000 snippets, ids and details at once took ~20 ms of every reload); the values
    are the same either way.
    """

    kind: str
    name: str
    variant: str
    role: str | None
    affiliation: str | None
    detail: dict[str, Any]
    mentions: int
    documents: int
    snippet: str
    highlight: tuple[int, int]
    document_id: int
    document_title: str
    start: int
    end: int
    mention_ids: tuple[int, ...]

    if not TYPE_CHECKING:  # mypy keeps checking attribute names

        def __getattr__(self, name: str) -> Any:
            # called only for an attribute not set: one that _read_entry left to first use
            group = self.__dict__.get("_group")
            if group is None or name not in _DEFERRED:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            for key, value in _deferred(group, name).items():
                object.__setattr__(self, key, value)
            return self.__dict__[name]

    @property
    def question_kind(self) -> str:
        """For a follow-up: its kind in the store's vocabulary (QUESTION_KINDS)."""
        return question_kind_of(self.detail)

    @property
    def key(self) -> tuple[str, str, str]:
        """``(kind, name, variant)``: what the decision functions take to name it."""
        return (self.kind, self.name, self.variant)


@dataclass(frozen=True)
class SuggestionList:
    """A case's pending suggestions, by kind in SUGGESTION_KINDS order (kinds with none are
    left out); within a kind, in order of first appearance (document, then position)."""

    by_kind: dict[str, list[SuggestionEntry]]

    @property
    def counts(self) -> dict[str, int]:
        """Number of suggestions (names, not mentions) per kind."""
        return {k: len(v) for k, v in self.by_kind.items()}

    @property
    def total(self) -> int:
        """Number of suggestions of every kind."""
        return sum(len(v) for v in self.by_kind.values())

    def find(self, kind: str, name: str) -> SuggestionEntry | None:
        """The first entry of ``kind`` named ``name``, or None."""
        return next((e for e in self.by_kind.get(kind, []) if e.name == name), None)


# -- reading ------------------------------------------------------------------------------------


#: The fields of an entry read by :func:`list_suggestions` made when first asked for.
_DEFERRED = ("snippet", "highlight", "mention_ids", "detail")


def _read_entry(g: MentionGroup) -> SuggestionEntry:
    """The entry of a group the database returned, its :data:`_DEFERRED` fields left to
    :func:`_deferred`."""
    entry = object.__new__(SuggestionEntry)
    for key, value in (("kind", g.kind), ("name", g.name), ("variant", g.variant),
                       ("role", g.role), ("affiliation", g.affiliation),
                       ("mentions", g.mentions), ("documents", g.documents),
                       ("document_id", g.first_document), ("document_title", g.title),
                       ("start", g.first_start), ("end", g.first_end), ("_group", g)):
        object.__setattr__(entry, key, value)
    return entry


def _deferred(g: MentionGroup, name: str) -> dict[str, Any]:
    """The values of deferred fields of the entry of ``g`` (``name`` among them)."""
    if name == "mention_ids":
        return {name: ordered_ids(g.first_id, g.ids)}
    if name == "detail":
        detail = g.first_detail
        if isinstance(detail, str | bytes):
            detail = json.loads(detail)
        return {name: dict(detail or {})}
    if g.text_length and 0 <= g.first_start < g.first_end <= g.text_length:
        # the window holds every character the snippet can look at (mention_groups.WINDOW)
        offset = g.window_start
        snippet, highlight = context_snippet(g.window, g.first_start - offset,
                                             g.first_end - offset)
    else:
        snippet, highlight = g.first_text, (0, len(g.first_text))
    return {"snippet": snippet, "highlight": highlight}


def variant_of(kind: str, detail: dict[str, Any] | None) -> str:
    """What tells apart two suggestions of one kind and name: "" for people, organizations and
    places; the ISO date for an event (one sentence may hold two dates); ``"<kind>|<due>"`` for
    a follow-up."""
    detail = detail or {}
    if kind == "event":
        return str(detail.get("date") or "")
    if kind == "question":
        return f"{question_kind_of(detail)}|{detail.get('due') or ''}"
    return ""


def question_kind_of(detail: dict[str, Any] | None) -> str:
    """The store's question kind for a follow-up suggestion's ``detail`` ("question" if none or
    unknown): "open question" becomes "question"."""
    detail = detail or {}
    raw = str(detail.get("question_kind") or detail.get("kind") or "question")
    raw = FOLLOWUP_KIND_MAP.get(raw, raw)
    return raw if raw in QUESTION_KINDS else "question"


_SENTENCE_END = re.compile(r"[.!?]+[\"'\u201d\u2019)\]]*(?=\s|$)|\n\s*\n|\n(?=\s*[A-Z\"\u201c])")
_ABBREVIATION = re.compile(
    r"(?:\b(?:Mr|Mrs|Ms|Dr|Lt|Sgt|Capt|Cpt|Col|Gen|Gov|Sen|Rep|Rev|St|Jr|Sr|Det|Cpl|Maj|Cmdr|"
    r"Adm|Prof|Supt|Insp|Ofc|Dep|Atty|Jan|Feb|Mar|Apr|Aug|Sep|Sept|Oct|Nov|Dec|Inc|Co|Corp|"
    r"Ltd|Mt|Ft|vs|etc)|(?<![\w.])[A-Z]|\b(?:[A-Z]\.)+[A-Z])\.$")


def _sentence_bounds(text: str, start: int, end: int, limit: int) -> tuple[int, int] | None:
    """The sentence holding ``text[start:end]``, if it is found within ``limit`` characters on
    each side; abbreviations ("Lt.", "Sen.", "U.S.") do not end a sentence."""
    lo = max(0, start - limit)
    left: int | None = 0 if lo == 0 else None
    for m in _SENTENCE_END.finditer(text, lo, start):
        if not _ABBREVIATION.search(text[max(0, m.start() - 6):m.start() + 1]) or "\n" in m.group():
            left = m.end()
    hi = min(len(text), end + limit)
    right: int | None = len(text) if hi == len(text) else None
    for m in _SENTENCE_END.finditer(text, end, hi):
        if "\n" in m.group():
            right = m.start()
            break
        if not _ABBREVIATION.search(text[max(0, m.start() - 6):m.start() + 1]):
            right = m.end()
            break
    if left is None or right is None:
        return None
    return left, right


_WHITESPACE = re.compile(r"\s+")


def _collapse(text: str) -> str:
    return _WHITESPACE.sub(" ", text)


def context_snippet(
    text: str, start: int, end: int, *, width: int = SNIPPET_WIDTH,
    sentence_limit: int = SNIPPET_SENTENCE_LIMIT,
) -> tuple[str, tuple[int, int]]:
    """The context of ``text[start:end]`` to show with a suggestion.

    Returns ``(snippet, (hstart, hend))``: the sentence holding the span when it is at most
    ``sentence_limit`` characters long, else ``width`` characters either side (cut at word
    boundaries, with "…" where text was left out); whitespace runs become one space.
    ``snippet[hstart:hend]`` is the span itself. Offsets are Python str offsets.
    """
    start = max(0, min(start, len(text)))
    end = max(start, min(end, len(text)))
    bounds = _sentence_bounds(text, start, end, sentence_limit)
    if bounds is not None and bounds[1] - bounds[0] <= max(sentence_limit, end - start):
        left, right = bounds
        lead = trail = ""
    else:
        left = max(0, start - width)
        right = min(len(text), end + width)
        if left > 0:
            space = text.find(" ", left, start)
            left = space + 1 if space >= 0 else left
        if right < len(text):
            space = text.rfind(" ", end, right)
            right = space if space >= 0 else right
        lead = "…" if left > 0 else ""
        trail = "…" if right < len(text) else ""
    before = _collapse(text[left:start]).lstrip()
    middle = _collapse(text[start:end])
    after = _collapse(text[end:right]).rstrip()
    snippet = f"{lead}{before}{middle}{after}{trail}"
    h = len(lead) + len(before)
    return snippet, (h, h + len(middle))


def list_suggestions(session: Session, case_id: int, kind: str | None = None) -> SuggestionList:
    """The case's pending suggestions grouped by kind: one entry per suggested name, however
    many mentions it has (see :class:`SuggestionEntry`). ``kind`` limits to one kind.

    Grouped by the database (:func:`casefile.store.mention_groups.mention_groups`): a case may
    hold 50,000 suggested mentions, and the window reads this list when it opens the case, so
    only a row per name and the first mention of each come back to Python. Plain values;
    callable from any thread with its own session. Raises ValidationError for an unknown kind.
    """
    if kind is not None and kind not in SUGGESTION_KINDS:
        raise ValidationError(f"unknown suggestion kind {kind!r}; use one of "
                              f"{', '.join(SUGGESTION_KINDS)}")
    groups = mention_groups(session_reader(session), case_id, SUGGESTION_KINDS, kind,
                            QUESTION_KINDS, FOLLOWUP_KIND_MAP)
    by_kind: dict[str, list[SuggestionEntry]] = {}
    for g in groups:
        by_kind.setdefault(g.kind, []).append(_read_entry(g))
    ordered = {k: by_kind[k] for k in SUGGESTION_KINDS if k in by_kind}
    return SuggestionList(ordered)


def last_suggestion_mode(session: Session, case_id: int) -> str | None:
    """How the latest suggestion run of the case found its names: "spacy" (the language
    model), "rules" (rules only: no model installed), or None if none ran."""
    data = session.scalar(
        select(ChangeLog.data).where(ChangeLog.case_id == case_id,
                                     ChangeLog.action == "document.suggest")
        .order_by(ChangeLog.id.desc()).limit(1))
    if isinstance(data, dict) and data.get("mode"):
        return str(data["mode"])
    return None


def pending_at_least(session: Session, case_id: int, n: int) -> bool:
    """True when the case has ``n`` pending suggested mentions or more (counted up to ``n``
    only: a few milliseconds whatever the case holds)."""
    stmt = (select(Mention.id).where(Mention.case_id == case_id, Mention.status == "suggested")
            .limit(max(1, int(n))).subquery())
    return int(session.scalar(select(func.count()).select_from(stmt)) or 0) >= n
