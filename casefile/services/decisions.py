"""The reporter's decisions on suggestions: list them, accept, accept under another name, merge
into an existing item, reject.

A *suggestion* is one suggested name of one kind in a case, with all its pending mentions (the
Mentions of status "suggested" sharing ``kind`` and ``name``, in any document of the case): the
reporter decides once for "Maria Lopez", not once per occurrence. Every decision is one user
action in the caller's transaction and writes one ChangeLog row (``suggestion.accept``,
``suggestion.merge``, ``suggestion.reject``) besides the rows of the items it creates.

What a decision does with the mentions (DESIGN.md, "Data model"):

- person / organization / place: each mention becomes a Passage (an existing passage with the
  same span is reused) linked to the item as "mentions" evidence; the Mention gets the item's id
  and status "confirmed".
- event: an Event with the suggested date and precision; its sentence is "supports" evidence.
- question (a follow-up): a Question with its kind (the extractor's "open question" is the
  store's "question") and due date; its sentence is "context" evidence.
- reject: status "rejected"; ``suggest_for_document`` passes rejected names to the extractor, so
  the name is never suggested again in this case.

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

from casefile.errors import NotFoundError, ValidationError
from casefile.services.audit import log_change
from casefile.services.items import create_item, get_item, reindex
from casefile.services.passages import fold_quotes
from casefile.store import (
    ChangeLog,
    Document,
    EvidenceLink,
    Item,
    Mention,
    Organization,
    Passage,
    Person,
    Place,
)
from casefile.store.items import DATE_PRECISIONS, ORGANIZATION_KINDS, QUESTION_KINDS

#: Suggestion kinds in the order the panel shows them.
SUGGESTION_KINDS = ("person", "organization", "place", "event", "question")
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

    ``kind``: person, organization, place, event or question. ``name``: the suggested name (for
    events and questions, the sentence). ``variant`` tells apart suggestions of one sentence
    ("" for people, organizations and places; the date for an event; kind and due date for a
    follow-up), see :func:`variant_of`. ``role`` / ``affiliation``: the first ones suggested
    (people only). ``detail``: kind-specific data, e.g. ``{"date": "2018-02-14", "precision":
    "day"}`` or ``{"kind": "expected record", "due": "2018-03-02"}``. ``mentions``: how many
    pending mentions; ``documents``: in how many documents. ``snippet``: the first mention's
    sentence (or ±60 characters around it), whitespace collapsed; ``highlight``: the mention's
    ``(start, end)`` inside ``snippet``. ``document_id``/``start``/``end``: the first mention
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
    stmt = select(Mention).where(Mention.case_id == case_id, Mention.status == "suggested")
    if kind is not None:
        stmt = stmt.where(Mention.kind == kind)
    rows = list(session.scalars(stmt.order_by(Mention.document_id, Mention.start, Mention.id)))
    groups: dict[tuple[str, str, str], list[Mention]] = {}
    for m in rows:
        if m.kind in SUGGESTION_KINDS:
            groups.setdefault((m.kind, m.name, variant_of(m.kind, m.detail)), []).append(m)
    doc_ids = {ms[0].document_id for ms in groups.values()}
    docs: dict[int, tuple[str, str]] = {
        d.id: (d.title, d.text) for d in session.scalars(
            select(Document).where(Document.id.in_(doc_ids)))
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
    doc = session.get(Document, mention.document_id)
    if doc is None:
        raise NotFoundError(f"no document with id {mention.document_id}")
    mention.item_id = item.id
    mention.status = "confirmed"
    start, end = mention.start, mention.end
    if not (0 <= start < end <= len(doc.text)):
        return 0, 0  # the text changed since: keep the decision, no passage
    passage = session.scalar(
        select(Passage).where(Passage.document_id == doc.id, Passage.start == start,
                              Passage.end == end).order_by(Passage.id).limit(1))
    made = 0
    if passage is None:
        passage = Passage(case_id=doc.case_id, document_id=doc.id, start=start, end=end,
                          page=doc.page_at(start), quote=doc.text[start:end])
        session.add(passage)
        session.flush()
        made = 1
    exists = session.scalar(
        select(EvidenceLink.id).where(EvidenceLink.passage_id == passage.id,
                                      EvidenceLink.item_id == item.id,
                                      EvidenceLink.relation == relation).limit(1))
    if exists is not None:
        return made, 0
    session.add(EvidenceLink(case_id=doc.case_id, passage_id=passage.id, item_id=item.id,
                             relation=relation))
    return made, 1


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


def _link_all(session: Session, mentions: Iterable[Mention], item: Item, out: Decision) -> None:
    relation = RELATION_FOR_KIND.get(item.kind, "mentions")
    for m in mentions:
        p, n = link_mention(session, m, item, relation)
        out.passages += p
        out.links += n
        out.mentions += 1
    session.flush()


def _affiliation_org(session: Session, case_id: int, name: str, out: Decision) -> Organization:
    """The organization named ``name`` (title or alias); made if missing, taking over the
    pending organization suggestion of that name when there is one."""
    found = find_named_item(session, case_id, "organization", name)
    if isinstance(found, Organization):
        return found
    pending = list(session.scalars(
        select(Mention).where(Mention.case_id == case_id, Mention.kind == "organization",
                              Mention.status == "suggested")))
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
    return org


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
    date and precision; a question with its kind and due date) and ties every mention to it as
    evidence (see the module docstring). ``title`` accepts it under another name ("Accept
    as…"); the suggested name is then not kept. If the case already holds a person,
    organization or place of that name (title or alias), the mentions are tied to it instead
    and nothing new is made (``created`` is False).

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
    _link_all(session, mentions, item, out)
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
            f"a {kind} suggestion can only be merged into a {kind}; {target.title!r} is a "
            f"{target.kind}")
    out = Decision("merge", kind, name, item_id=target.id, title=target.title)
    out.kinds.add(kind)
    changed = kind in ("person", "organization", "place") and _add_alias(target, name)
    if isinstance(target, Person) and not target.role:
        role = next((m.role for m in mentions if m.role), None)
        if role:
            target.role = role[:300]
            changed = True
    if changed:
        session.flush()
        reindex(session, target)
    out.updated_ids.append(target.id)
    _link_all(session, mentions, target, out)
    _log(session, case_id, out, f"merged {kind} {_short(name)!r} into {target.title!r}")
    return out


def reject_suggestion(
    session: Session, case_id: int, kind: str, name: str, *, variant: str | None = None,
) -> Decision:
    """Reject the pending ``kind`` suggestion ``name``: its mentions get status "rejected", and
    the name is not suggested again in this case (``suggest_for_document`` passes rejected
    names to the extractor). ``variant`` as for :func:`accept_suggestion`. Raises
    NotFoundError when no such suggestion is pending."""
    mentions = _pending(session, case_id, kind, name, variant)
    for m in mentions:
        m.status = "rejected"
        m.item_id = None
    session.flush()
    out = Decision("reject", kind, name, mentions=len(mentions))
    _log(session, case_id, out, f"rejected {kind} {_short(name)!r}")
    return out
