"""Making the reporter's decisions on suggestions: accept, accept under another name, merge
into an existing item, reject (:class:`Decision`), and the helpers tying mentions to items.

Part of :mod:`casefile.services.decisions` (which says what each decision does and re-exports
these names); the undoable user actions over them are in
:mod:`casefile.services.decision_steps`. No Qt here.
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
from casefile.services import lookup
from casefile.services.audit import log_change
from casefile.services.items import create_item, get_item, reindex
from casefile.services.passages import fold_quotes
from casefile.services.suggestion_list import (
    KIND_WORDS,
    RELATION_FOR_KIND,
    SUGGESTION_KINDS,
    TITLE_LIMIT,
    SuggestionEntry,
    list_suggestions,
    question_kind_of,
    variant_of,
)
from casefile.store.evidence import EvidenceLink, Mention, Passage
from casefile.store.items import (
    DATE_PRECISIONS,
    ORGANIZATION_KINDS,
    Claim,
    Document,
    Item,
    Organization,
    Person,
    Place,
)

_ALIASED = (Person, Organization, Place)


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
    doc = lookup.row(session, Document, mention.document_id,
                     f"no document with id {mention.document_id}")
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
