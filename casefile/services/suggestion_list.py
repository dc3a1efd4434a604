"""Listing a case's pending suggestions: one entry per suggested name, with its mentions counted
and the first one's context (the Suggestions panel's list, ``casefile suggestions``).

Part of the decisions on suggestions (:mod:`casefile.services.decisions`, which re-exports
these names): the kinds, what tells two suggestions of one name apart (:func:`variant_of`),
the context snippet shown with a suggestion and :func:`list_suggestions` itself. No Qt here.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from casefile.errors import ValidationError
from casefile.store import ChangeLog, Mention
from casefile.store.items import QUESTION_KINDS
from casefile.store.mention_groups import (
    WINDOW,
    GroupDetails,
    GroupMembers,
    MentionGroup,
    group_details,
    group_members,
    mention_groups,
    ordered_ids,
)
from casefile.store.mention_groups import pending_at_least as pending_mentions_at_least
from casefile.store.reader import Reader, reading, session_reader

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
    case's ~1,000 snippets, ids and details at once took ~20 ms of every reload); read with
    ``later``, its :data:`_DEFERRED` fields are read from the database then too, for it and
    the next entries of its list (:data:`LATER_BATCH`; :data:`MEMBERS_BATCH` for
    ``documents`` and ``mention_ids``). The values are the same either way.
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
            fields = self.__dict__
            group = fields.get("_group")
            if group is None or name not in _DEFERRED:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            fields.update(_deferred(group, fields, name))
            return fields[name]

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
_DEFERRED = frozenset({"snippet", "highlight", "mention_ids", "detail", "role", "affiliation",
                       "documents", "document_title", "end"})
#: Those of them made from the group's members (:class:`GroupMembers`), not its details.
_FROM_MEMBERS = frozenset({"mention_ids", "documents"})
#: The fields every entry is made with (a :class:`MentionGroup`'s, renamed).
_LISTED = ("kind", "name", "variant", "mentions", "document_id", "start")
#: Entries whose details one read of a list read with ``later`` fetches (the first asked for
#: and those after it: the rows the panel shows next); and whose members (every mention: the
#: preview and a tooltip ask for one row's).
LATER_BATCH = 32
MEMBERS_BATCH = 4


class _Later:
    """Where the entries of one list read with ``later`` read the rest of themselves:
    ``fetch(groups, members)`` returns the :class:`GroupDetails` (``members`` False) or
    :class:`GroupMembers` of ``groups``, in their order, from a read of its own. Holds the
    groups and what was read, not the entries (which hold it: no reference cycle)."""

    def __init__(self, groups: Sequence[MentionGroup],
                 fetch: Callable[[Sequence[MentionGroup], bool], Sequence[Any]]) -> None:
        self.groups = groups
        self.fetch = fetch
        self.read: dict[bool, list[Any]] = {False: [None] * len(groups),
                                           True: [None] * len(groups)}
        self.lock = threading.Lock()

    def get(self, at: int, members: bool) -> Any:
        """The details (or members) of group ``at``, read with those of the next ones still
        unread."""
        read = self.read[members]
        with self.lock:
            if read[at] is None:
                end = min(at + (MEMBERS_BATCH if members else LATER_BATCH), len(self.groups))
                wanted = [i for i in range(at, end) if read[i] is None]
                for i, value in zip(wanted, self.fetch([self.groups[i] for i in wanted],
                                                       members), strict=True):
                    read[i] = value
            return read[at]

    def forget(self, at: int) -> None:
        """Read group ``at``'s again when next asked for."""
        with self.lock:
            self.read[False][at] = self.read[True][at] = None


def read_again_later(entry: SuggestionEntry) -> None:
    """Forget what was read of ``entry``'s :data:`_DEFERRED` fields, when it was listed with
    ``later``, so they are read again when next asked for (a row undecided again: its
    mentions are pending again, while read decided it had none)."""
    fields = entry.__dict__
    source = fields.get("_source")
    if source is None:
        return
    source.forget(fields["_at"])
    for name in ("_details", "_members", *_DEFERRED):
        fields.pop(name, None)


def _read_entries(groups: Sequence[MentionGroup], source: _Later | None
                  ) -> list[SuggestionEntry]:
    """The entries of the groups the database returned, their :data:`_DEFERRED` fields left
    to :func:`_deferred` (and what they are made of to ``source``)."""
    new, set_dict = object.__new__, object.__setattr__  # a frozen dataclass: its fields at once
    entries: list[SuggestionEntry] = []
    for at, g in enumerate(groups):
        entry = new(SuggestionEntry)
        set_dict(entry, "__dict__", {  # the fields of _LISTED, from the group's columns
            "kind": g[0], "name": g[1], "variant": g[2], "mentions": g[3],
            "document_id": g[5], "start": g[6], "_group": g, "_source": source, "_at": at})
        entries.append(entry)
    return entries


def _deferred(g: MentionGroup, fields: dict[str, Any], name: str) -> dict[str, Any]:
    """The values of deferred fields of an entry (its ``__dict__``: ``fields``) of group
    ``g`` (``name`` among them)."""
    if name in _FROM_MEMBERS:
        m: GroupMembers | None = fields.get("_members")
        if m is None:
            m = fields["_members"] = fields["_source"].get(fields["_at"], True)
        return {"mention_ids": ordered_ids(g.first_id, m.ids), "documents": m.documents}
    d: GroupDetails | None = fields.get("_details")
    if d is None:
        d = fields["_details"] = fields["_source"].get(fields["_at"], False)
    if name == "detail":
        detail = d.first_detail
        if isinstance(detail, str | bytes):
            detail = json.loads(detail)
        return {name: dict(detail or {})}
    if name in ("snippet", "highlight"):
        if d.text_length and 0 <= g.first_start < d.first_end <= d.text_length:
            # the window holds every character the snippet can look at (mention_groups.WINDOW)
            offset = d.window_start
            snippet, highlight = context_snippet(d.window, g.first_start - offset,
                                                 d.first_end - offset)
        else:
            snippet, highlight = d.first_text, (0, len(d.first_text))
        return {"snippet": snippet, "highlight": highlight}
    return {"role": d.role, "affiliation": d.affiliation, "document_title": d.title,
            "end": d.first_end}


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


def list_suggestions(session: Session, case_id: int, kind: str | None = None, *,
                     later: bool = False) -> SuggestionList:
    """The case's pending suggestions grouped by kind: one entry per suggested name, however
    many mentions it has (see :class:`SuggestionEntry`). ``kind`` limits to one kind.

    Grouped by the database (:func:`casefile.store.mention_groups.mention_groups`): a case may
    hold 50,000 suggested mentions, and the window reads this list when it opens the case, so
    only a row per name comes back to Python. With ``later`` the rest of each entry (role,
    affiliation, documents, the first mention's detail, title, end and snippet, the mention
    ids: :data:`_DEFERRED`) is read when first asked for, in a read transaction of its own on
    the session's engine, for that entry and the next :data:`LATER_BATCH` (the panel reads
    the rows it shows: reading all of them took two thirds of a big case's reload); an entry
    decided meanwhile then has no documents, role or ids. Without, all is read now. Plain
    values; callable from any thread with its own session. Raises ValidationError for an
    unknown kind.
    """
    if kind is not None and kind not in SUGGESTION_KINDS:
        raise ValidationError(f"unknown suggestion kind {kind!r}; use one of "
                              f"{', '.join(SUGGESTION_KINDS)}")
    reader = session_reader(session)
    groups = mention_groups(reader, case_id, SUGGESTION_KINDS, kind, QUESTION_KINDS,
                            FOLLOWUP_KIND_MAP, variant_of)
    # the list's order: by kind, then as they came
    buckets: dict[str, list[MentionGroup]] = {k: [] for k in SUGGESTION_KINDS}
    for g in groups:
        buckets[g[0]].append(g)
    groups = [g for k in SUGGESTION_KINDS for g in buckets[k]]
    if later:
        bind = session.get_bind()
        engine = bind if isinstance(bind, Engine) else bind.engine

        def fetch(some: Sequence[MentionGroup], members: bool) -> Sequence[Any]:
            with reading(engine) as r:
                return (group_members if members else group_details)(
                    r, case_id, some, QUESTION_KINDS, FOLLOWUP_KIND_MAP)

        entries = _read_entries(groups, _Later(groups, fetch))
    else:
        entries = _read_entries(groups, None)
        for entry, d, m in zip(
                entries, group_details(reader, case_id, groups, QUESTION_KINDS,
                                       FOLLOWUP_KIND_MAP),
                group_members(reader, case_id, groups, QUESTION_KINDS, FOLLOWUP_KIND_MAP),
                strict=True):
            entry.__dict__.update(_details=d, _members=m)
    by_kind: dict[str, list[SuggestionEntry]] = {}
    at = 0
    for k in SUGGESTION_KINDS:  # the entries are in the groups' order
        if buckets[k]:
            by_kind[k] = entries[at:at + len(buckets[k])]
            at += len(buckets[k])
    return SuggestionList(by_kind)


def suggestion_keys(session: Session, mention_ids: Sequence[int]) -> set[tuple[str, str, str]]:
    """The ``(kind, name, variant)`` keys of the suggestions these mentions belong to (as
    listed: :attr:`SuggestionEntry.key`), whatever their status now (a decision's mentions)."""
    keys: set[tuple[str, str, str]] = set()
    ids = sorted(set(mention_ids))
    for at in range(0, len(ids), 500):
        for m_kind, name, detail in session.execute(
                select(Mention.kind, Mention.name, Mention.detail)
                .where(Mention.id.in_(ids[at:at + 500]))):
            keys.add((m_kind, name, variant_of(m_kind, detail)))
    return keys


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


def pending_at_least(session: Session | Reader, case_id: int, n: int) -> bool:
    """True when the case has ``n`` pending suggested mentions or more (counted up to ``n``
    only: under a millisecond whatever the case holds). Takes a session or, without an ORM
    session's cost (the panel asks before each reload), a plain :class:`Reader`."""
    return pending_mentions_at_least(
        session if isinstance(session, Reader) else session_reader(session), case_id, n)
