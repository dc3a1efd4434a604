"""Claims: the status Casefile proposes from the evidence, the reporter's override, and the
attribution chain (claim ← who said it ← via which outlet or document ← which passages).

Status rules (ARCHITECTURE.md, "Data model"):

- ``disputed``: at least one passage (or whole document) is linked with relation
  ``contradicts``.
- otherwise, counting the *independent origins* of the ``supports`` evidence:
  0 → ``unverified``, 1 → ``single-source``, 2 or more → ``corroborated``.
- ``false`` is never proposed: only a reporter's override sets it.
- An override (``override_status``) needs a reason; it is kept in ``Claim.status_reason`` and
  the stored status no longer follows the evidence until the override is cleared. The status
  the evidence alone gives stays visible next to it (``ClaimAssessment.computed``).

Independence. Two supporting documents share one origin when any of these hold (they are
joined transitively, like a union-find):

1. the same original bytes (same SHA-256; the import already makes those one document);
2. the same text once normalised: Unicode NFKC, typographic quotes and dashes made plain,
   case folded, every run of whitespace one space, ends stripped. So an article imported
   again under another title, or with a newline added, is not a second source;
3. the same outlet (compared case-folded, without a leading "The"): one outlet's reports are
   one origin, whoever wrote them;
4. the same author (compared the same way): a freelancer is one source in any outlet;
5. the claim's via chain: when the claim came *via* an outlet (Organization) or Document, every
   document that is that document, is published by that outlet (name or alias), or whose
   linked passage or link note names that outlet ("Coral Springs sources tell CNN"), is one
   origin with it, since it relays the same reporting. Naming is matched as a whole word,
   case-insensitively, in the passage's quoted text and the evidence link's note, not in the
   rest of the document (an article may name CNN for other reasons).

6. copies of one story: most of the shorter text is in the longer one (a syndicated copy with
   another header, footer or headline, a trimmed lead, a paraphrased first paragraph), a
   shared header or footer left out (:mod:`casefile.services.copies`). A wire's credit
   alone ("(AP) —") joins nothing: one wire's unrelated stories are separate origins.

Documents with no outlet, no author and a text of their own (a reporter's interview notes, an
email) are their own origin. Confidential documents count: status is about the evidence, and
the brief decides what it prints.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from casefile.errors import ValidationError
from casefile.services.audit import log_change
from casefile.services.copies import copy_pairs, normalised_text
from casefile.services.passages import fold_quotes
from casefile.store import Claim, Document, EvidenceLink, Item, Organization, Passage
from casefile.store.items import CLAIM_STATUSES


class LinkLike(Protocol):
    """What a claim's assessment reads of an evidence link (an ``EvidenceLink`` or a row)."""

    @property
    def relation(self) -> str: ...

    @property
    def note(self) -> str | None: ...


class PassageLike(Protocol):
    """What a claim's assessment reads of a linked passage (a ``Passage`` or a row)."""

    @property
    def quote(self) -> str: ...


#: A claim's evidence row: (link, passage or None, source document).
EvidenceRow = tuple[LinkLike, PassageLike | None, Document]

#: What ``attributed_to_text`` says when no one is named and the reporter wrote nothing else.
UNNAMED_SOURCES = "unnamed sources"


def describes_unnamed_sources(text: str) -> bool:
    """Whether a speaker written as text (``attributed_to_text``) describes unnamed sources
    ("unnamed officials", "city sources", "a person familiar with the talks") rather than
    naming someone who is not an item of the case ("Jane Roe", "ACME"): a name is capitalised
    words only (and the particles of names, "van", "de la"...); a description has a word in
    lower case."""
    words = re.findall(r"[^\W\d_][\w'.-]*", text)
    return any(w[0].islower() and w.casefold() not in _NAME_PARTICLES for w in words)


#: Lower-case words that belong to names ("Ludwig van Beethoven", "Ibn Saud", "de la Cruz").
_NAME_PARTICLES = frozenset({
    "al", "bin", "ibn", "bint", "da", "das", "de", "del", "della", "der", "di", "do", "dos", "du",
    "el", "la", "las", "le", "los", "van", "von", "y", "zu"})
#: Statuses the evidence can give (``false`` only comes from an override).
COMPUTED_STATUSES = ("unverified", "single-source", "corroborated", "disputed")

@lru_cache(maxsize=256)
def text_fingerprint(text: str) -> str | None:
    """SHA-256 (hex) of ``normalised_text(text)``, or None for a text with no words. Kept for
    the last texts asked (a brief asks it of each source once per claim it supports)."""
    norm = normalised_text(text)
    return hashlib.sha256(norm.encode("utf-8")).hexdigest() if norm else None


def _name_key(value: str | None) -> str | None:
    if not value:
        return None
    key = " ".join(unicodedata.normalize("NFKC", value).casefold().split())
    key = key.removeprefix("the ")
    return key or None


@dataclass(frozen=True)
class Origin:
    """One independent origin of supporting evidence: a label (the outlet, author or document
    it is known by), why documents were joined into it, and their ids and titles."""

    label: str
    document_ids: tuple[int, ...]
    document_titles: tuple[str, ...]
    joined_by: tuple[str, ...] = ()


@dataclass(frozen=True)
class ClaimAssessment:
    """A claim's status: ``status`` is what is shown (the override if there is one, else
    ``computed``); ``reason`` the override's reason; ``origins`` the independent origins of the
    supporting evidence; ``supporting``/``contradicting`` count evidence links."""

    claim_id: int
    status: str
    computed: str
    overridden: bool
    reason: str | None
    origins: tuple[Origin, ...]
    supporting: int
    contradicting: int

    @property
    def explanation(self) -> str:
        """One sentence saying why the evidence gives ``computed``."""
        if self.contradicting:
            n = self.contradicting
            why = f"{n} contradicting passage{'s' if n != 1 else ''}"
        elif not self.origins:
            why = "no supporting passage yet"
        elif len(self.origins) == 1:
            why = f"all supporting passages come from one origin ({self.origins[0].label})"
        else:
            why = (f"supporting passages from {len(self.origins)} independent origins ("
                   + "; ".join(o.label for o in self.origins) + ")")
        return f"{self.computed}: {why}"

    def as_json(self) -> dict[str, object]:
        """``{"status", "computed", "overridden", "reason", "explanation", "supporting",
        "contradicting", "origins": [{"label", "document_ids", "joined_by"}]}``."""
        return {
            "status": self.status, "computed": self.computed, "overridden": self.overridden,
            "reason": self.reason, "explanation": self.explanation,
            "supporting": self.supporting, "contradicting": self.contradicting,
            "origins": [{"label": o.label, "document_ids": list(o.document_ids),
                         "joined_by": list(o.joined_by)} for o in self.origins],
        }


@dataclass(frozen=True)
class ChainLink:
    """One passage at the end of an attribution chain: its document and quote."""

    relation: str
    document_id: int
    document_title: str
    outlet: str | None
    passage_id: int | None
    quote: str | None


@dataclass(frozen=True)
class AttributionChain:
    """claim ← attributed to ← via ← passages.

    ``attributed_to`` is the Person/Organization's name, or the description of unnamed
    sources; ``attributed_kind`` is "person", "organization", "unnamed" (a description of
    unnamed sources) or "named" (a name written as text, not an item of the case), None when
    nobody is recorded. ``via`` is the outlet or document name, ``via_kind`` "organization" or
    "document" (or None).
    """

    claim_id: int
    statement: str
    attributed_to: str | None
    attributed_kind: str | None
    via: str | None
    via_kind: str | None
    passages: tuple[ChainLink, ...] = field(default=())

    def as_text(self) -> str:
        """``"statement" ← who ← via ← N passages`` on one line."""
        parts = [f"\u201c{self.statement}\u201d", self.attributed_to or "no one named"]
        if self.via:
            parts.append(f"via {self.via}")
        n = len(self.passages)
        parts.append(f"{n} passage{'s' if n != 1 else ''}")
        return " \u2190 ".join(parts)


# The writers below import the item services when they run: a brief reads claims through
# assessment_of alone, and `casefile brief` need not load them (nor the search index's modules).


def _claim(session: Session, claim_id: int) -> Claim:
    from casefile.services.items import get_item

    item = get_item(session, claim_id)
    if not isinstance(item, Claim):
        raise ValidationError(f"{item.title!r} is not a claim")
    return item


def create_claim(
    session: Session,
    case_id: int,
    statement: str,
    *,
    attributed_to_id: int | None = None,
    attributed_to_text: str | None = None,
    via_id: int | None = None,
    title: str | None = None,
    notes: str | None = None,
) -> Claim:
    """Create a claim (status ``unverified`` until evidence is linked).

    ``attributed_to_id`` is a Person or Organization of the case; for unnamed sources leave it
    None and describe them in ``attributed_to_text`` (e.g. "Coral Springs sources"); with
    neither the claim is unattributed. ``via_id`` is the outlet (Organization) or Document it
    came through. ``title`` defaults to the statement cut to 200 characters. Raises
    ValidationError for an empty statement or references outside the case.
    """
    from casefile.services.items import create_item

    text = (statement or "").strip()
    if not text:
        raise ValidationError("a claim needs its statement")
    item = create_item(
        session, case_id, "claim", title or text[:200], statement=text, status="unverified",
        attributed_to_id=attributed_to_id,
        attributed_to_text=(attributed_to_text or "").strip() or None, via_id=via_id,
        notes=notes,
    )
    assert isinstance(item, Claim)
    return item


class _Groups:
    """Union-find over document ids with labelled join reasons."""

    def __init__(self) -> None:
        self.parent: dict[int, int] = {}
        self.reasons: dict[int, list[str]] = {}

    def add(self, doc_id: int) -> None:
        self.parent.setdefault(doc_id, doc_id)

    def find(self, doc_id: int) -> int:
        root = doc_id
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[doc_id] != root:
            self.parent[doc_id], doc_id = root, self.parent[doc_id]
        return root

    def join(self, a: int, b: int, reason: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra
            self.reasons.setdefault(ra, []).extend(self.reasons.pop(rb, []))
        if reason not in self.reasons.setdefault(ra, []):
            self.reasons[ra].append(reason)


def _word_pattern(names: Iterable[str]) -> re.Pattern[str] | None:
    parts = sorted({fold_quotes(n.strip()) for n in names if n and n.strip()}, key=len,
                   reverse=True)
    if not parts:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, parts)) + r")(?!\w)",
                      re.IGNORECASE)


def _origins(session: Session, claim: Claim, links: Sequence[EvidenceRow]) -> list[Origin]:
    via = session.get(Item, claim.via_id) if claim.via_id is not None else None
    via_names: list[str] = []
    if isinstance(via, Organization):
        via_names = [via.title, *(via.aliases or [])]
    via_re = _word_pattern(via_names)
    via_outlets = {k for k in (_name_key(n) for n in via_names) if k}
    via_label = f"via {via.title}" if via is not None else ""

    groups = _Groups()
    docs: dict[int, Document] = {}
    first_by_key: dict[str, int] = {}
    via_anchor: int | None = None

    def key(doc_id: int, k: str, reason: str) -> None:
        if k in first_by_key:
            groups.join(first_by_key[k], doc_id, reason)
        else:
            first_by_key[k] = doc_id

    for link, passage, doc in links:
        docs[doc.id] = doc
        groups.add(doc.id)
        relays = False
        if via is not None and (doc.id == via.id or (
                _name_key(doc.outlet) or "") in via_outlets):
            relays = True
        if via_re is not None:
            for text in (passage.quote if passage else None, link.note):
                if text and via_re.search(fold_quotes(text)):
                    relays = True
        if relays:
            if via_anchor is None:
                via_anchor = doc.id
            groups.join(via_anchor, doc.id, via_label)
    for doc in docs.values():
        if doc.file_sha256:
            key(doc.id, "sha:" + doc.file_sha256, "same file")
        fingerprint = text_fingerprint(doc.text or "")
        if fingerprint:
            key(doc.id, "text:" + fingerprint, "same text")
        outlet = _name_key(doc.outlet)
        if outlet:
            key(doc.id, "outlet:" + outlet, f"same outlet ({doc.outlet})")
        author = _name_key(doc.author)
        if author:
            key(doc.id, "author:" + author, f"same author ({doc.author})")
    if len(docs) > 1:  # copies of one story (rule 6)
        for pair in copy_pairs({i: d.text or "" for i, d in docs.items()}):
            groups.join(pair.first, pair.second, pair.reason)

    members: dict[int, list[Document]] = {}
    for doc_id, doc in sorted(docs.items()):
        members.setdefault(groups.find(doc_id), []).append(doc)
    anchor_root = groups.find(via_anchor) if via_anchor is not None else None
    origins: list[Origin] = []
    for root, group in members.items():
        if root == anchor_root and via is not None:
            label = via.title
        else:
            first = group[0]
            label = first.outlet or first.author or first.title
        origins.append(Origin(
            label=label, document_ids=tuple(d.id for d in group),
            document_titles=tuple(d.title for d in group),
            joined_by=tuple(r for r in groups.reasons.get(root, []) if r),
        ))
    return origins


def _evidence(session: Session, claim_id: int
              ) -> list[tuple[EvidenceLink, Passage | None, Document]]:
    rows = session.execute(
        select(EvidenceLink, Passage, Document)
        .outerjoin(Passage, Passage.id == EvidenceLink.passage_id)
        .join(Document, (Document.id == Passage.document_id)
              | ((EvidenceLink.passage_id.is_(None)) & (Document.id == EvidenceLink.document_id)))
        .where(EvidenceLink.item_id == claim_id)
        .order_by(EvidenceLink.id)
    ).all()
    return [(link, passage, doc) for link, passage, doc in rows]


def assess_claim(session: Session, claim_id: int) -> ClaimAssessment:
    """The claim's status from its evidence, and its override if any (module docstring).

    Reads only. Raises NotFoundError, or ValidationError for an item that is not a claim.
    """
    return assessment_of(session, _claim(session, claim_id), _evidence(session, claim_id))


def assessment_of(
    session: Session, claim: Claim, links: Sequence[EvidenceRow]
) -> ClaimAssessment:
    """:func:`assess_claim` from the claim's evidence already read: ``links`` are its
    (link, passage or None, source document) rows in link id order (what a caller that reads a
    whole case's evidence at once, such as the brief, passes). Reads only (the claim's ``via``
    item, from the session's identity map when already loaded)."""
    supporting = [row for row in links if row[0].relation == "supports"]
    contradicting = sum(1 for row in links if row[0].relation == "contradicts")
    origins = _origins(session, claim, supporting)
    if contradicting:
        computed = "disputed"
    elif not origins:
        computed = "unverified"
    elif len(origins) == 1:
        computed = "single-source"
    else:
        computed = "corroborated"
    reason = (claim.status_reason or "").strip() or None
    return ClaimAssessment(
        claim_id=claim.id, status=claim.status if reason else computed, computed=computed,
        overridden=reason is not None, reason=reason, origins=tuple(origins),
        supporting=len(supporting), contradicting=contradicting,
    )


def refresh_claim_status(session: Session, claim_id: int) -> ClaimAssessment:
    """Store the evidence's status on the claim unless it is overridden; returns the
    assessment. Writes (and logs) only when the stored status changes."""
    assessment = assess_claim(session, claim_id)
    claim = _claim(session, claim_id)
    if not assessment.overridden and claim.status != assessment.computed:
        before = claim.status
        claim.status = assessment.computed
        session.flush()
        log_change(session, "claim.status", case_id=claim.case_id, item_id=claim.id,
                   summary=f"{before} \u2192 {assessment.computed}",
                   data={"before": before, "after": assessment.computed, "automatic": True})
    return assessment


def refresh_claims_of(session: Session, item_ids: Iterable[int]) -> None:
    """Refresh every claim among ``item_ids`` (other kinds are skipped): what evidence
    services call after links change."""
    for item_id in set(item_ids):
        if isinstance(session.get(Item, item_id), Claim):
            refresh_claim_status(session, item_id)


def refresh_case_claims(session: Session, case_id: int) -> list[ClaimAssessment]:
    """Refresh every claim of a case (e.g. after a document's outlet or text changed)."""
    ids = session.scalars(select(Claim.id).where(Claim.case_id == case_id).order_by(Claim.id))
    return [refresh_claim_status(session, i) for i in list(ids)]


def override_status(session: Session, claim_id: int, status: str, reason: str) -> Claim:
    """Set the claim's status by hand, for ``reason`` (required, kept and shown).

    ``status`` is any claim status, ``false`` included. Raises ValidationError for an unknown
    status or an empty reason.
    """
    from casefile.services.items import update_item

    if status not in CLAIM_STATUSES:
        raise ValidationError(f"status must be one of {', '.join(CLAIM_STATUSES)}; "
                              f"got {status!r}")
    why = (reason or "").strip()
    if not why:
        raise ValidationError("say why you set the status by hand (the reason is kept)")
    _claim(session, claim_id)
    item = update_item(session, claim_id, status=status, status_reason=why)
    assert isinstance(item, Claim)
    return item


def clear_override(session: Session, claim_id: int) -> ClaimAssessment:
    """Drop the override: the status follows the evidence again."""
    from casefile.services.items import update_item

    _claim(session, claim_id)
    update_item(session, claim_id, status_reason=None)
    return refresh_claim_status(session, claim_id)


def attribution_chain(session: Session, claim_id: int) -> AttributionChain:
    """The claim's attribution chain (see AttributionChain); passages are the claim's
    evidence links in the order they were made, every relation included."""
    claim = _claim(session, claim_id)
    who = session.get(Item, claim.attributed_to_id) if claim.attributed_to_id else None
    via = session.get(Item, claim.via_id) if claim.via_id else None
    if who is not None:
        attributed, kind = who.title, who.kind
    elif claim.attributed_to_text:
        attributed = claim.attributed_to_text
        kind = "unnamed" if describes_unnamed_sources(attributed) else "named"
    else:
        attributed, kind = None, None
    links = tuple(
        ChainLink(link.relation, doc.id, doc.title, doc.outlet,
                  passage.id if passage else None, passage.quote if passage else None)
        for link, passage, doc in _evidence(session, claim_id)
    )
    return AttributionChain(
        claim_id=claim.id, statement=claim.statement or claim.title, attributed_to=attributed,
        attributed_kind=kind, via=via.title if via else None,
        via_kind=via.kind if via else None, passages=links,
    )


@dataclass(frozen=True)
class ClaimRow:
    """A claim as a Claims view lists it: statement, status (with override), chain."""

    id: int
    statement: str
    assessment: ClaimAssessment
    chain: AttributionChain
    confidential: bool


def claims_overview(session: Session, case_id: int) -> list[ClaimRow]:
    """Every claim of a case with its assessment and chain, disputed first, then unverified,
    single-source, corroborated, false; then by statement. Reads only."""
    order = {"disputed": 0, "unverified": 1, "single-source": 2, "corroborated": 3, "false": 4}
    rows = [
        ClaimRow(c.id, c.statement or c.title, assess_claim(session, c.id),
                 attribution_chain(session, c.id), c.confidential)
        for c in session.scalars(select(Claim).where(Claim.case_id == case_id))
    ]
    rows.sort(key=lambda r: (order.get(r.assessment.status, 9), r.statement.casefold(), r.id))
    return rows
