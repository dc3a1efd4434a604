"""The reporter's decisions on suggestions: list them, accept, accept under another name, merge
into an existing item, reject.

A *suggestion* is one suggested name of one kind in a case, with all its pending mentions (the
Mentions of status "suggested" sharing ``kind`` and ``name``, in any document of the case): the
reporter decides once for "Maria Lopez", not once per occurrence. Every decision is one user
action in the caller's transaction and writes one ChangeLog row (``suggestion.accept``,
``suggestion.merge``, ``suggestion.reject``) besides the rows of the items it creates.

What a decision does with the mentions (ARCHITECTURE.md, "Data model"):

- person / organization / place: each mention becomes a Passage (an existing passage with the
  same span is reused) linked to the item as "mentions" evidence; the Mention gets the item's id
  and status "confirmed".
- event: an Event with the suggested date and precision; its sentence is "supports" evidence.
- question (a follow-up): a Question with its kind (the extractor's "open question" is the
  store's "question") and due date; its sentence is "context" evidence.
- claim: a Claim with its statement, attributed to the case's Person or Organization of the
  suggested speaker's name (else the name is kept as ``attributed_to_text``) and via the
  case's Organization of the suggested outlet's name; its sentence is "supports" evidence.
- reject: status "rejected"; ``suggest_for_document`` passes the rejected names of every case of
  the workspace to the extractor, so the name is not suggested again in any case (except one
  that holds an item of that name) until the reject is undone.
- merge: for a person, organization or place the suggested name becomes an alias of the
  target, so the next document's mention of it is linked to the target at once; the undo
  takes the alias back.

Each decision has two faces: ``accept_suggestion`` / ``merge_suggestion`` /
``reject_suggestion`` return the :class:`Decision` (what scripts and tests read), and the user
actions :func:`accept`, :func:`accept_as`, :func:`merge` and :func:`reject` return
:class:`~casefile.services.changes.Changes` (value: the Decision; message: one sentence naming
everything made) with an ``undo`` Step. The undo (``suggestion.undo``) removes every item,
passage and evidence link the decision made, takes back the alias or role it added and puts
the mentions back to "suggested"; its own ``undo`` is the redo step (``suggestion.redo``),
which brings the same rows back under the same ids.

No Qt here; the window calls these through its operation runner.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from casefile.errors import ConflictError, NotFoundError, ValidationError
from casefile.services.audit import log_change
from casefile.services.changes import Changes, Step, action, changes
from casefile.services.items import create_item, get_item, reindex
from casefile.services.passages import fold_quotes
from casefile.store import (
    ChangeLog,
    Claim,
    Document,
    Event,
    EvidenceLink,
    Item,
    Mention,
    Organization,
    Passage,
    Person,
    Place,
    Question,
    search,
)
from casefile.store.items import DATE_PRECISIONS, ORGANIZATION_KINDS, QUESTION_KINDS

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
#: Longest sentence shown whole as a snippet (characters).
SNIPPET_SENTENCE_LIMIT = 240

_ALIASED = (Person, Organization, Place)


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
    (Python str offsets into that document's text). ``mention_ids``: every pending mention.
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


@dataclass
class Decision:
    """What one decision changed.

    ``item_id``/``kind``/``title``: the item the mentions now belong to (None after a reject);
    ``created``: True when that item was made by this decision; ``created_ids``: every item made
    (the item, and an organization made for a person's affiliation); ``updated_ids``: existing
    items changed (an alias added, a role filled in); ``mentions``: how many mentions were
    decided; ``passages`` / ``links``: how many passages and evidence links were made.
    ``mention_ids`` / ``passage_ids`` / ``link_ids``: the rows decided and made (a person's
    affiliation's organization's mentions included); ``field_changes``: ``(item_id, field,
    before, after)`` for the existing items changed; ``remarks``: things the status line must
    say (e.g. a claim's speaker not found in the case).
    """

    action: str
    kind: str
    name: str
    item_id: int | None = None
    title: str | None = None
    created: bool = False
    created_ids: list[int] = field(default_factory=list)
    updated_ids: list[int] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)
    mentions: int = 0
    passages: int = 0
    links: int = 0
    mention_ids: list[int] = field(default_factory=list)
    passage_ids: list[int] = field(default_factory=list)
    link_ids: list[int] = field(default_factory=list)
    field_changes: list[tuple[int, str, Any, Any]] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)


# -- reading ------------------------------------------------------------------------------------


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


def _collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text)


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

    Raises ValidationError for an unknown kind.
    """
    if kind is not None and kind not in SUGGESTION_KINDS:
        raise ValidationError(f"unknown suggestion kind {kind!r}; use one of "
                              f"{', '.join(SUGGESTION_KINDS)}")
    # plain rows, not ORM objects: a case may hold 50,000 suggested mentions, and the window
    # reads this list when it opens the case
    stmt = select(Mention.id, Mention.kind, Mention.name, Mention.detail, Mention.document_id,
                  Mention.start, Mention.end, Mention.text, Mention.role,
                  Mention.affiliation).where(Mention.case_id == case_id,
                                             Mention.status == "suggested")
    if kind is not None:
        stmt = stmt.where(Mention.kind == kind)
    rows = session.execute(stmt.order_by(Mention.document_id, Mention.start, Mention.id)).all()
    groups: dict[tuple[str, str, str], list[Any]] = {}
    for m in rows:
        if m.kind in SUGGESTION_KINDS:
            groups.setdefault((m.kind, m.name, variant_of(m.kind, m.detail)), []).append(m)
    doc_ids = {ms[0].document_id for ms in groups.values()}
    docs: dict[int, tuple[str, str]] = {
        d.id: (d.title, d.text) for d in session.execute(
            select(Document.id, Document.title, Document.text)
            .where(Document.id.in_(doc_ids)))
    } if doc_ids else {}
    by_kind: dict[str, list[SuggestionEntry]] = {}
    for (k, name, variant), ms in groups.items():
        first = ms[0]
        title, text = docs.get(first.document_id, ("", ""))
        if text and 0 <= first.start < first.end <= len(text):
            snippet, highlight = context_snippet(text, first.start, first.end)
        else:
            snippet, highlight = first.text, (0, len(first.text))
        by_kind.setdefault(k, []).append(SuggestionEntry(
            kind=k, name=name, variant=variant,
            role=next((m.role for m in ms if m.role), None),
            affiliation=next((m.affiliation for m in ms if m.affiliation), None),
            detail=dict(first.detail or {}), mentions=len(ms),
            documents=len({m.document_id for m in ms}), snippet=snippet, highlight=highlight,
            document_id=first.document_id, document_title=title, start=first.start,
            end=first.end, mention_ids=tuple(m.id for m in ms),
        ))
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


# -- helpers ------------------------------------------------------------------------------------


def name_key(name: str) -> str:
    """A name compared ignoring case, apostrophe/quote style and spacing."""
    return " ".join(fold_quotes(name).casefold().split())


def find_named_item(session: Session, case_id: int, kind: str, name: str) -> Item | None:
    """The item of ``kind`` in the case whose title or one of whose aliases is ``name``
    (compared with :func:`name_key`); the oldest one if several."""
    key = name_key(name)
    if not key:
        return None
    for item in session.scalars(
            select(Item).where(Item.case_id == case_id, Item.kind == kind).order_by(Item.id)):
        forms = [item.title, *(getattr(item, "aliases", None) or [])]
        if any(name_key(f) == key for f in forms):
            return item
    return None


def link_mention(session: Session, mention: Mention, item: Item, relation: str) -> tuple[int, int]:
    """Tie a mention to an item: a Passage over its span (reused if one with the same span
    exists) linked as ``relation`` evidence (unless that link exists), ``item_id`` set and
    status "confirmed". Returns ``(passages made, links made)``. No ChangeLog row (the calling
    action writes one)."""
    passage_id, link_id = tie_mention(session, mention, item, relation)
    return int(passage_id is not None), int(link_id is not None)


def tie_mention(session: Session, mention: Mention, item: Item, relation: str
                ) -> tuple[int | None, int | None]:
    """:func:`link_mention`, returning the ids of the passage and link it made (None for
    each one it reused or did not need)."""
    doc = session.get(Document, mention.document_id)
    if doc is None:
        raise NotFoundError(f"no document with id {mention.document_id}")
    mention.item_id = item.id
    mention.status = "confirmed"
    start, end = mention.start, mention.end
    if not (0 <= start < end <= len(doc.text)):
        return None, None  # the text changed since: keep the decision, no passage
    passage = session.scalar(
        select(Passage).where(Passage.document_id == doc.id, Passage.start == start,
                              Passage.end == end).order_by(Passage.id).limit(1))
    made: int | None = None
    if passage is None:
        passage = Passage(case_id=doc.case_id, document_id=doc.id, start=start, end=end,
                          page=doc.page_at(start), quote=doc.text[start:end])
        session.add(passage)
        session.flush()
        made = passage.id
    exists = session.scalar(
        select(EvidenceLink.id).where(EvidenceLink.passage_id == passage.id,
                                      EvidenceLink.item_id == item.id,
                                      EvidenceLink.relation == relation).limit(1))
    if exists is not None:
        return made, None
    link = EvidenceLink(case_id=doc.case_id, passage_id=passage.id, item_id=item.id,
                        relation=relation)
    session.add(link)
    session.flush()
    return made, link.id


def _pending(session: Session, case_id: int, kind: str, name: str,
             variant: str | None) -> list[Mention]:
    if kind not in SUGGESTION_KINDS:
        raise ValidationError(f"unknown suggestion kind {kind!r}; use one of "
                              f"{', '.join(SUGGESTION_KINDS)}")
    mentions = list(session.scalars(
        select(Mention).where(Mention.case_id == case_id, Mention.kind == kind,
                              Mention.name == name, Mention.status == "suggested")
        .order_by(Mention.document_id, Mention.start, Mention.id)))
    if variant is not None:
        mentions = [m for m in mentions if variant_of(kind, m.detail) == variant]
    if not mentions:
        raise NotFoundError(
            f"there is no pending {kind} suggestion {_short(name)!r} in this case "
            "(it may have been decided already)")
    return mentions


def _plain(name: str) -> str:
    """A name compared without case, dots or a leading "the" ("U.S." -> "us")."""
    key = name_key(name).replace(".", "")
    return key.removeprefix("the ")


def _initials(name: str) -> str:
    return "".join(w[0] for w in fold_quotes(name).split() if w[:1].isupper()).casefold()


def _same_thing(kind: str, a: str, b: str, names: Sequence[str]) -> bool:
    """True if the names ``a`` and ``b`` of ``kind`` are two ways of writing one thing, with
    nothing else among ``names`` (the case's other names of that kind) written that way too:
    the same name without dots or "the"; a country's other name; an acronym and the one name of
    those initials; a person's surname or given name alone and the one full name it ends or
    starts ("<Family> <Given>" written surname first)."""
    pa, pb = _plain(a), _plain(b)
    if not pa or not pb:
        return False
    if pa == pb:
        return True
    if kind == "place":
        from casefile.extract.lexicon import COUNTRY_VARIANTS

        return any(pa in g and pb in g for g in COUNTRY_VARIANTS)
    short, full = sorted((a, b), key=lambda n: len(_plain(n).split()))
    words = _plain(full).split()
    if len(_plain(short).split()) != 1 or len(words) < 2:
        return False
    word = _plain(short)
    if kind == "organization":
        if not re.fullmatch(r"[A-Z]{2,6}", short.replace(".", "")) or _initials(full) != word:
            return False
        return sum(1 for n in names if len(_plain(n).split()) >= 2
                   and _initials(n) == word) == 1
    if kind == "person" and word in (words[0], words[-1]):
        return sum(1 for n in names if len(_plain(n).split()) >= 2
                   and word in (_plain(n).split()[0], _plain(n).split()[-1])) == 1
    return False


def _pending_variants(session: Session, case_id: int, kind: str, item: Item
                      ) -> dict[str, list[Mention]]:
    """The case's other pending suggestions of ``kind`` that name ``item`` another way, when
    that is unambiguous in the case (see :func:`_same_thing`): suggested name -> its pending
    mentions."""
    pending: dict[str, list[Mention]] = {}
    for m in session.scalars(
            select(Mention).where(Mention.case_id == case_id, Mention.kind == kind,
                                  Mention.status == "suggested")
            .order_by(Mention.document_id, Mention.start, Mention.id)):
        pending.setdefault(m.name, []).append(m)
    held = [i.title for i in session.scalars(
        select(Item).where(Item.case_id == case_id, Item.kind == kind, Item.id != item.id))]
    forms = [item.title, *(getattr(item, "aliases", None) or [])]
    names = [*held, *pending, item.title]
    names = list(dict.fromkeys(names))  # each name once
    return {name: ms for name, ms in pending.items()
            if any(_same_thing(kind, f, name, names) for f in forms)}


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _title_from(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= TITLE_LIMIT else text[:TITLE_LIMIT - 1] + "…"


def _add_alias(item: Item, alias: str) -> bool:
    """Add ``alias`` to an item with aliases unless it is its title or already an alias."""
    if not isinstance(item, _ALIASED):
        return False
    key = name_key(alias)
    if not key or key == name_key(item.title) or any(
            name_key(a) == key for a in item.aliases or []):
        return False
    item.aliases = [*(item.aliases or []), alias.strip()]
    return True


def _teach_alias(session: Session, item: Item, name: str, out: Decision, remark: str) -> None:
    """Make the suggested ``name`` an alias of ``item`` (unless it is its title or already an
    alias), so the next document's mention of it is linked to the item instead of suggested.
    For an item that existed before the decision the change is recorded in
    ``out.field_changes`` (the undo takes it back; an item the decision made goes whole)."""
    before = list(getattr(item, "aliases", None) or [])
    if not _add_alias(item, name):
        return
    assert isinstance(item, _ALIASED)
    if item.id not in out.created_ids:
        out.field_changes.append((item.id, "aliases", before, list(item.aliases or [])))
    out.remarks.append(f"“{_short(name)}” {remark}")
    session.flush()
    reindex(session, item)


def _link_all(session: Session, mentions: Iterable[Mention], item: Item, out: Decision) -> None:
    relation = RELATION_FOR_KIND.get(item.kind, "mentions")
    for m in mentions:
        passage_id, link_id = tie_mention(session, m, item, relation)
        if passage_id is not None:
            out.passages += 1
            out.passage_ids.append(passage_id)
        if link_id is not None:
            out.links += 1
            out.link_ids.append(link_id)
        out.mentions += 1
        out.mention_ids.append(m.id)
    session.flush()


#: The role the byline rule gives a story's writer (``casefile.extract.people``).
BYLINE_ROLE = "Author"


def _fill_byline(session: Session, item: Item, mentions: Iterable[Mention],
                 out: Decision) -> None:
    """A person accepted from a document's byline is that document's author: its empty
    Author becomes the person's name and its empty Outlet the outlet the byline credits
    (recorded in ``out.field_changes``, so the undo takes them back)."""
    if not isinstance(item, Person):
        return
    for m in mentions:
        if m.role != BYLINE_ROLE:
            continue
        doc = session.get(Document, m.document_id)
        if doc is None:
            continue
        filled = False
        for name, value in (("author", item.title), ("outlet", m.affiliation)):
            if value and not getattr(doc, name):
                out.field_changes.append((doc.id, name, getattr(doc, name), value[:300]))
                setattr(doc, name, value[:300])
                filled = True
        if filled:
            session.flush()
            reindex(session, doc)
            if doc.id not in out.updated_ids:
                out.updated_ids.append(doc.id)
            out.kinds.add("document")
            out.remarks.append(f"“{_short(doc.title)}”: author {item.title!r}"
                               + (f", outlet {m.affiliation!r}" if m.affiliation else "")
                               + " filled in")


def _affiliation_org(session: Session, case_id: int, name: str, out: Decision) -> Organization:
    """The organization named ``name`` (title or alias); made if missing, taking over the
    pending organization suggestion of that name when there is one."""
    found = find_named_item(session, case_id, "organization", name)
    if isinstance(found, Organization):
        out.remarks.append(f"affiliated with the existing organization “{_short(found.title)}”")
        return found
    pending = list(session.scalars(
        select(Mention).where(Mention.case_id == case_id, Mention.kind == "organization",
                              Mention.status == "suggested")
        .order_by(Mention.document_id, Mention.start, Mention.id)))
    same = [m for m in pending if name_key(m.name) == name_key(name)]
    org_kind = next((str((m.detail or {}).get("org_kind")) for m in same
                     if (m.detail or {}).get("org_kind") in ORGANIZATION_KINDS), None)
    org = create_item(session, case_id, "organization", same[0].name if same else name,
                      org_kind=org_kind)
    assert isinstance(org, Organization)
    out.created_ids.append(org.id)
    out.kinds.add("organization")
    if same:
        sub = Decision("accept", "organization", org.title)
        _link_all(session, same, org, sub)
        out.passages += sub.passages
        out.links += sub.links
        out.mention_ids += sub.mention_ids
        out.passage_ids += sub.passage_ids
        out.link_ids += sub.link_ids
    return org


def _claim_fields(session: Session, case_id: int, first: Mention, out: Decision
                  ) -> dict[str, Any]:
    """A claim's statement and attribution from its suggestion: ``attributed_to`` becomes the
    case's Person or Organization of that name (else ``attributed_to_text``; a description of
    unnamed sources, "unnamed <modifier> sources", always stays text), ``via`` the
    case's Organization of that name (else a note). What was not found is said in
    ``out.remarks``."""
    detail = first.detail or {}
    fields: dict[str, Any] = {"statement": " ".join(first.text.split()), "status": "unverified"}
    speaker = str(detail.get("attributed_to") or "").strip()
    if speaker:
        unnamed = name_key(speaker).startswith("unnamed ")  # "unnamed <modifier> sources"
        found = None if unnamed else (find_named_item(session, case_id, "person", speaker)
                                      or find_named_item(session, case_id, "organization",
                                                         speaker))
        if found is not None:
            fields["attributed_to_id"] = found.id
            out.remarks.append(f"attributed to {KIND_WORDS[found.kind]} “{_short(found.title)}”")
        else:
            fields["attributed_to_text"] = speaker[:500]
            if unnamed:
                out.remarks.append(f"attributed to {speaker}")
            else:
                out.remarks.append(f"attributed to “{_short(speaker)}” (no person or "
                                   "organization of that name in this case)")
    via = str(detail.get("via") or "").strip()
    if via:
        outlet = find_named_item(session, case_id, "organization", via)
        if outlet is not None:
            fields["via_id"] = outlet.id
            out.remarks.append(f"via organization “{_short(outlet.title)}”")
        else:
            fields["notes"] = f"Via {via} (no organization of that name in the case yet)."
            out.remarks.append(f"via “{_short(via)}” (no organization of that name in this "
                               "case)")
    return fields


#: What the extractor calls a claim's speaker when none is named.
UNNAMED = "unnamed sources"


def _new_item(session: Session, case_id: int, kind: str, title: str,
              mentions: Sequence[Mention], out: Decision) -> Item:
    first = mentions[0]
    detail = first.detail or {}
    fields: dict[str, Any] = {}
    if kind == "person":
        role = next((m.role for m in mentions if m.role), None)
        affiliation = next((m.affiliation for m in mentions if m.affiliation), None)
        if role:
            fields["role"] = role[:300]
        if affiliation:
            fields["affiliation_id"] = _affiliation_org(session, case_id, affiliation, out).id
    elif kind == "organization":
        org_kind = next(((m.detail or {}).get("org_kind") for m in mentions
                         if (m.detail or {}).get("org_kind") in ORGANIZATION_KINDS), None)
        if org_kind:
            fields["org_kind"] = org_kind
    elif kind == "event":
        when = detail.get("date")
        precision = detail.get("precision")
        fields["date"] = when if isinstance(when, str | date) else None
        fields["precision"] = precision if precision in DATE_PRECISIONS else "approximate"
        fields["description"] = " ".join(first.text.split())
    elif kind == "question":
        fields["question_kind"] = question_kind_of(detail)
        fields["due"] = detail.get("due")
        fields["status"] = "open"
    elif kind == "claim":
        fields = _claim_fields(session, case_id, first, out)
    item = create_item(session, case_id, kind, title, **fields)
    out.created_ids.append(item.id)
    out.kinds.add(kind)
    return item


def _log(session: Session, case_id: int, out: Decision, summary: str) -> None:
    log_change(session, f"suggestion.{out.action}", case_id=case_id, item_id=out.item_id,
               summary=summary,
               data={"kind": out.kind, "name": out.name, "mentions": out.mentions,
                     "passages": out.passages, "links": out.links,
                     "created": out.created_ids, "updated": out.updated_ids})


# -- decisions ----------------------------------------------------------------------------------


def accept_suggestion(
    session: Session, case_id: int, kind: str, name: str, *, variant: str | None = None,
    title: str | None = None,
) -> Decision:
    """Accept the pending ``kind`` suggestion ``name`` of a case (all its mentions).

    Makes the item (a person with the suggested role and affiliation, the organization being
    found by name or alias, or made; an organization with its kind; a place; an event with its
    date and precision; a question with its kind and due date; a claim with its statement and
    attribution) and ties every mention to it as evidence (see the module docstring).
    ``title`` accepts it under another name ("Accept as…"); the suggested name is then not
    kept. If the case already holds a person, organization or place of that name (title or
    alias), the mentions are tied to it instead and nothing new is made (``created`` is False).

    ``variant`` (see :func:`variant_of`, :attr:`SuggestionEntry.variant`) picks one of several
    suggestions of one sentence; None takes every pending one of that kind and name.

    Raises NotFoundError when no such suggestion is pending, ValidationError for an empty
    ``title`` or an unknown kind.
    """
    mentions = _pending(session, case_id, kind, name, variant)
    if title is not None and not title.strip():
        raise ValidationError("the new name is empty")
    out = Decision("accept", kind, name)
    wanted = title.strip() if title is not None else (
        name if kind in ("person", "organization", "place") else _title_from(name))
    item: Item | None = None
    if kind in ("person", "organization", "place"):
        item = find_named_item(session, case_id, kind, wanted)
    if item is None:
        item = _new_item(session, case_id, kind, wanted, mentions, out)
        out.created = True
    else:
        out.updated_ids.append(item.id)
        out.kinds.add(kind)
    if title is not None and kind in ("person", "organization", "place"):
        _teach_alias(session, item, name, out, "kept as an alias")
    _link_all(session, mentions, item, out)
    _fill_byline(session, item, mentions, out)
    if kind in ("person", "organization", "place"):
        for other, more in _pending_variants(session, case_id, kind, item).items():
            _teach_alias(session, item, other, out, "joined as another name of it")
            _link_all(session, more, item, out)
    if isinstance(item, Claim):
        from casefile.services.claims import refresh_claim_status

        refresh_claim_status(session, item.id)
    out.item_id, out.title = item.id, item.title
    renamed = f" as {item.title!r}" if item.title != name else ""
    _log(session, case_id, out, f"accepted {kind} {_short(name)!r}{renamed}")
    return out


def merge_suggestion(
    session: Session, case_id: int, kind: str, name: str, target_id: int, *,
    variant: str | None = None,
) -> Decision:
    """Merge the pending ``kind`` suggestion ``name`` into an existing item of the same kind:
    its mentions are tied to the target as evidence, and for a person, organization or place
    the suggested name becomes one of the target's aliases when it differs from the title.

    ``variant`` as for :func:`accept_suggestion`. Raises NotFoundError for no such suggestion
    or target; ValidationError when the target is of another kind or another case.
    """
    mentions = _pending(session, case_id, kind, name, variant)
    target = get_item(session, target_id)
    if target.case_id != case_id:
        raise ValidationError(f"{target.title!r} belongs to another case")
    if target.kind != kind:
        raise ValidationError(
            f"a {kind} suggestion can only be merged into a {kind}; {target.title!r} is "
            f"{'an' if target.kind[:1] in 'aeiou' else 'a'} {target.kind}")
    out = Decision("merge", kind, name, item_id=target.id, title=target.title)
    out.kinds.add(kind)
    changed = False
    if kind in ("person", "organization", "place"):
        _teach_alias(session, target, name, out, "added as an alias")
    if isinstance(target, Person) and not target.role:
        role = next((m.role for m in mentions if m.role), None)
        if role:
            out.field_changes.append((target.id, "role", target.role, role[:300]))
            target.role = role[:300]
            out.remarks.append(f"role “{_short(role)}” filled in")
            changed = True
    if changed:
        session.flush()
        reindex(session, target)
    out.updated_ids.append(target.id)
    _link_all(session, mentions, target, out)
    _fill_byline(session, target, mentions, out)
    if isinstance(target, Claim):
        from casefile.services.claims import refresh_claim_status

        refresh_claim_status(session, target.id)
    _log(session, case_id, out, f"merged {kind} {_short(name)!r} into {target.title!r}")
    return out


def reject_suggestion(
    session: Session, case_id: int, kind: str, name: str, *, variant: str | None = None,
) -> Decision:
    """Reject the pending ``kind`` suggestion ``name``: its mentions get status "rejected", and
    the name is not suggested again in any case of the workspace (``suggest_for_document``
    passes every case's rejected names to the extractor) until the reject is undone.
    ``variant`` as for :func:`accept_suggestion`. Raises NotFoundError when no such suggestion
    is pending."""
    mentions = _pending(session, case_id, kind, name, variant)
    for m in mentions:
        m.status = "rejected"
        m.item_id = None
    session.flush()
    out = Decision("reject", kind, name, mentions=len(mentions),
                   mention_ids=[m.id for m in mentions])
    _log(session, case_id, out, f"rejected {kind} {_short(name)!r}")
    return out


def find_suggestion(session: Session, mention_id: int, case_id: int | None = None
                    ) -> SuggestionEntry:
    """The waiting suggestion one of whose pending mentions has id ``mention_id`` (the CLI's
    suggestion id is the first one's). ``case_id`` limits it to one case. Raises
    NotFoundError (one line) when there is no such waiting suggestion."""
    mention = session.get(Mention, mention_id)
    if mention is None or mention.status != "suggested" or mention.kind not in SUGGESTION_KINDS \
            or (case_id is not None and mention.case_id != case_id):
        where = " in this case" if case_id is not None else ""
        raise NotFoundError(f"no waiting suggestion with id {mention_id}{where} (list them: "
                            "casefile suggestions --case TITLE)")
    listed = list_suggestions(session, mention.case_id, mention.kind)
    for entry in listed.by_kind.get(mention.kind, []):
        if mention_id in entry.mention_ids:
            return entry
    raise NotFoundError(f"no waiting suggestion with id {mention_id}")  # pragma: no cover


# -- user actions: Changes and undo -------------------------------------------------------------


def _quoted(kind: str, title: str) -> str:
    return f"{KIND_WORDS.get(kind, kind)} “{_short(title)}”"


def _and(parts: Sequence[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _item_phrase(session: Session, item_id: int) -> str:
    item = session.get(Item, item_id)
    if item is None:
        return f"item {item_id}"
    phrase = _quoted(item.kind, item.title)
    if isinstance(item, Question) and item.due is not None:
        phrase += f" due {item.due.isoformat()}"
    elif isinstance(item, Event) and item.date is not None:
        phrase += f" dated {item.date.isoformat()}"
    return phrase


def _message(session: Session, d: Decision) -> str:
    """One sentence naming everything the decision made."""
    evidence_part = f"{_plural(len(d.mention_ids), 'mention')} as evidence"
    extra = "".join(f", {r}" for r in d.remarks)
    if d.action == "reject":
        return (f"Rejected {_quoted(d.kind, d.name)}; it will not be suggested again in this "
                "or any other case.")
    if d.action == "merge":
        return (f"Merged “{_short(d.name)}” into {_quoted(d.kind, d.title or '')}{extra} "
                f"({evidence_part}).")
    if d.created:
        main = [i for i in d.created_ids if i == d.item_id]
        others = [i for i in d.created_ids if i != d.item_id]
        names = [_item_phrase(session, i) for i in main + others]
        return f"Added {_and(names)}{extra} ({evidence_part})."
    return (f"Linked {_plural(len(d.mention_ids), 'mention')} to the existing "
            f"{_quoted(d.kind, d.title or '')}{extra}.")


def _record(session: Session, case_id: int, d: Decision, label: str) -> dict[str, Any]:
    """The plain-value account of a decision its undo and redo steps work from."""
    mentions = []
    documents: set[int] = set()
    for mid in d.mention_ids:
        m = session.get(Mention, mid)
        if m is not None:
            mentions.append([m.id, m.item_id, m.status])
            documents.add(m.document_id)
    return {
        "case_id": case_id, "action": d.action, "kind": d.kind, "name": d.name,
        "item_id": d.item_id, "label": label, "message": _message(session, d),
        "mentions": mentions, "documents": sorted(documents),
        "created": list(d.created_ids), "updated": list(d.updated_ids),
        "passages": list(d.passage_ids), "links": list(d.link_ids),
        "fields": [list(f) for f in d.field_changes], "kinds": sorted(d.kinds | {d.kind}),
    }


def _decision_changes(session: Session, case_id: int, d: Decision, label: str) -> Changes:
    record = _record(session, case_id, d, label)
    return changes(
        case_id, kinds=record["kinds"], created=d.created_ids, updated=d.updated_ids,
        documents=record["documents"], evidence=bool(d.links or d.passages),
        suggestions=True, label=label, message=record["message"], value=d,
        undo=Step("suggestion.undo", {"record": record}, f"undo {label}"))


@action("suggestion.accept")
def accept(session: Session, case_id: int, kind: str, name: str, *, variant: str | None = None,
           title: str | None = None) -> Changes:
    """Accept a suggestion (see :func:`accept_suggestion`) as one undoable user action:
    returns Changes whose value is the Decision, whose message names every item made
    ("Added person “Scott Israel” and organization “Broward County Sheriff's Office”
    (3 mentions as evidence).") and whose ``undo`` removes them again. Errors as for
    :func:`accept_suggestion`."""
    d = accept_suggestion(session, case_id, kind, name, variant=variant, title=title)
    verb = "accept" if title is None else "accept as"
    return _decision_changes(session, case_id, d, f"{verb} {_quoted(kind, name)}")


@action("suggestion.accept_as")
def accept_as(session: Session, case_id: int, kind: str, name: str, title: str, *,
              variant: str | None = None) -> Changes:
    """Accept a suggestion under the name ``title`` ("Accept as…"); as :func:`accept`."""
    return accept(session, case_id, kind, name, variant=variant, title=title)


@action("suggestion.merge")
def merge(session: Session, case_id: int, kind: str, name: str, target_id: int, *,
          variant: str | None = None) -> Changes:
    """Merge a suggestion into an existing item (see :func:`merge_suggestion`) as one
    undoable user action; the undo takes back the alias or role added and the links."""
    d = merge_suggestion(session, case_id, kind, name, target_id, variant=variant)
    return _decision_changes(session, case_id, d, f"merge {_quoted(kind, name)}")


@action("suggestion.reject")
def reject(session: Session, case_id: int, kind: str, name: str, *,
           variant: str | None = None) -> Changes:
    """Reject a suggestion (see :func:`reject_suggestion`) as one undoable user action; the
    undo puts its mentions back to "suggested"."""
    d = reject_suggestion(session, case_id, kind, name, variant=variant)
    return _decision_changes(session, case_id, d, f"reject {_quoted(kind, name)}")


def _row(obj: Any) -> dict[str, Any]:
    from sqlalchemy import inspect

    return {a.key: getattr(obj, a.key) for a in inspect(type(obj)).column_attrs}


@action("suggestion.undo")
def undo_decision(session: Session, record: dict[str, Any]) -> Changes:
    """Take back a decision described by ``record`` (the ``undo`` Step of :func:`accept`,
    :func:`merge` or :func:`reject` carries it): its mentions become "suggested" again, the
    evidence links and passages it made and the items it created are removed, an alias or
    role it added is taken back (unless edited since). Items, links or passages already gone
    are skipped. Returns Changes whose ``undo`` is the redo step (same rows, same ids)."""
    from casefile.services.editing import snapshot_item

    case_id = int(record["case_id"])
    created = [i for i in record["created"] if session.get(Item, i) is not None]
    snapshots = [snapshot_item(session, i) for i in created]
    titles = [_item_phrase(session, i) for i in sorted(created,
                                                      key=lambda i: i != record["item_id"])]
    passages = [_row(p) for p in (session.get(Passage, i) for i in record["passages"])
                if p is not None]
    links = [_row(x) for x in (session.get(EvidenceLink, i) for i in record["links"])
             if x is not None]
    back = 0
    for mid, item_id, status in record["mentions"]:
        m = session.get(Mention, mid)
        if m is not None and m.status == status and (m.item_id == item_id or m.item_id is None):
            m.status, m.item_id = "suggested", None
            back += 1
    session.flush()
    touched: set[int] = set()
    for row in links:
        link = session.get(EvidenceLink, row["id"])
        if link is not None:
            touched.add(link.item_id)
            session.delete(link)
    session.flush()
    for item_id, name, before, after in record["fields"]:
        item = session.get(Item, item_id)
        if item is not None and _same(getattr(item, name, None), after):
            setattr(item, name, before)
            touched.add(item_id)
    session.flush()
    for item_id in reversed(created):
        item = session.get(Item, item_id)
        if item is not None:
            search.unindex_item(session, item.id)
            session.delete(item)
            session.flush()
    for row in passages:
        p = session.get(Passage, row["id"])
        used = session.scalar(select(EvidenceLink.id).where(EvidenceLink.passage_id == row["id"])
                              .limit(1))
        if p is not None and used is None:
            session.delete(p)
    session.flush()
    remaining = [i for i in touched if i not in created and session.get(Item, i) is not None]
    for i in remaining:
        item = session.get(Item, i)
        assert item is not None
        reindex(session, item)
    from casefile.services.claims import refresh_claims_of

    refresh_claims_of(session, remaining)
    label = str(record["label"])
    removed = f": removed {_and(titles)}" if titles else ""
    message = (f"Undid {label}{removed}; {_plural(back, 'mention')} "
               f"{'is' if back == 1 else 'are'} waiting again.")
    log_change(session, "suggestion.undo", case_id=case_id, item_id=record.get("item_id"),
               summary=label, data={"deleted": created, "mentions": back})
    return changes(
        case_id, kinds=record["kinds"], deleted=created, updated=remaining,
        documents=record["documents"], evidence=True, suggestions=True, label=f"undo {label}",
        message=message,
        undo=Step("suggestion.redo", {"record": record, "items": snapshots,
                                      "passages": passages, "links": links}, f"redo {label}"))


@action("suggestion.redo")
def redo_decision(session: Session, record: dict[str, Any], items: Sequence[Any] = (),
                  passages: Sequence[dict[str, Any]] = (),
                  links: Sequence[dict[str, Any]] = ()) -> Changes:
    """Make a decision again after :func:`undo_decision`: the same passages, items (under
    their ids, via ``editing.restore_item``), links, alias or role, and mention states.
    Raises ConflictError when one of its suggestions was decided again meanwhile,
    NotFoundError when its document was deleted."""
    from casefile.services.editing import restore_item

    case_id = int(record["case_id"])
    mentions = []
    for mid, _item_id, _status in record["mentions"]:
        m = session.get(Mention, mid)
        if m is None:
            raise NotFoundError(f"cannot redo {record['label']}: its document was deleted")
        if m.status != "suggested":
            raise ConflictError(f"cannot redo {record['label']}: it was decided again since")
        mentions.append(m)
    for row in passages:
        if session.get(Passage, row["id"]) is None:
            session.add(Passage(**row))
    session.flush()
    for snap in items:
        restore_item(session, snap)
    for row in links:
        target = session.get(Item, row["item_id"])
        passage_ok = row.get("passage_id") is None or session.get(
            Passage, row["passage_id"]) is not None
        if session.get(EvidenceLink, row["id"]) is None and target is not None and passage_ok:
            session.add(EvidenceLink(**row))
    session.flush()
    touched: set[int] = set()
    for m, (_mid, item_id, status) in zip(mentions, record["mentions"], strict=True):
        m.status = status
        m.item_id = item_id if item_id is not None and session.get(
            Item, item_id) is not None else None
    for item_id, name, before, after in record["fields"]:
        item = session.get(Item, item_id)
        if item is not None and _same(getattr(item, name, None), before):
            setattr(item, name, after)
            touched.add(item_id)
    session.flush()
    for row in links:
        touched.add(int(row["item_id"]))
    for i in touched:
        item = session.get(Item, i)
        if item is not None:
            reindex(session, item)
    from casefile.services.claims import refresh_claims_of

    refresh_claims_of(session, touched)
    label = str(record["label"])
    log_change(session, "suggestion.redo", case_id=case_id, item_id=record.get("item_id"),
               summary=label, data={"created": list(record["created"])})
    return changes(
        case_id, kinds=record["kinds"], created=record["created"],
        updated=[i for i in touched if i not in record["created"]],
        documents=record["documents"], evidence=True, suggestions=True, label=label,
        message=str(record["message"]),
        undo=Step("suggestion.undo", {"record": record}, f"undo {label}"))


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return list(a) == list(b)
    return bool(a == b)
