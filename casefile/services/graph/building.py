"""The case as a network: who and what is connected to whom, and by which evidence.

:func:`case_graph` reads a case into a :class:`CaseGraph`:

- **nodes**: the case's people, organizations, places and documents (:data:`NODE_KINDS`);
- **edges**, each with a ``relation`` (:data:`EDGE_RELATIONS`) and its evidence (passage ids):

  - the typed relationships (``Relationship.kind``: employed by, part of, reports to, related
    to), evidence: the relationship's passage;
  - "affiliated with": a person's affiliation (``Person.affiliation_id``) and an organization's
    parent ("part of"), when no relationship of that kind joins the two already;
  - "quoted together": two items quoted in the same passage, or in passages of one document
    at most :data:`NEAR_CHARS` characters apart; ``weight`` is how many pairs of passages;
  - "quoted in": an item quoted in a document (the document's node), ``weight`` is how many of
    its passages (a whole-document link counts one).

:class:`GraphFilter` keeps some node kinds, some relations and a range of publication dates
(an edge keeps the evidence of documents published in the range; an edge with no dated
evidence, such as an affiliation, stays; a node with no edge left goes).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from casefile.errors import NotFoundError, ValidationError
from casefile.store import (
    Case,
    Document,
    EvidenceLink,
    Item,
    Organization,
    Passage,
    Person,
    Relationship,
)
from casefile.store.evidence import RELATIONSHIP_KINDS

NODE_KINDS = ("person", "organization", "place", "document")
AFFILIATION = "affiliated with"
QUOTED_TOGETHER = "quoted together"
QUOTED_IN = "quoted in"
EDGE_RELATIONS = (*RELATIONSHIP_KINDS, AFFILIATION, QUOTED_TOGETHER, QUOTED_IN)
#: Two passages of one document at most this many characters apart quote their items together.
NEAR_CHARS = 150


@dataclass(frozen=True)
class GraphNode:
    """An item drawn as a node. ``detail``: a person's role, an organization's or document's
    kind; ``published``: a document's publication date."""

    id: int
    kind: str
    title: str
    confidential: bool = False
    detail: str | None = None
    published: date | None = None


@dataclass(frozen=True)
class GraphEdge:
    """A connection between items ``source`` and ``target`` (for "quoted together" the lower
    id first; for "quoted in" the item, then the document). ``passages``: the ids of the
    passages that are its evidence; ``weight``: how often (see module docstring);
    ``relationships``: ids of the Relationship rows it stands for."""

    source: int
    target: int
    relation: str
    weight: int = 1
    passages: tuple[int, ...] = ()
    relationships: tuple[int, ...] = ()

    @property
    def key(self) -> tuple[str, int, int]:
        """The edge's identity: relation and both ends."""
        return (self.relation, self.source, self.target)


@dataclass(frozen=True)
class GraphFilter:
    """Which part of the graph to show: node ``kinds`` and edge ``relations`` (None: all), and
    documents published from ``since`` to ``until`` (both included; None: open)."""

    kinds: frozenset[str] | None = None
    relations: frozenset[str] | None = None
    since: date | None = None
    until: date | None = None

    @property
    def dated(self) -> bool:
        """True when a date range is set."""
        return self.since is not None or self.until is not None

    def in_range(self, day: date | None) -> bool:
        """True when a document published on ``day`` falls in the range (undated: only when
        no range is set)."""
        if not self.dated:
            return True
        if day is None:
            return False
        return (self.since is None or day >= self.since) and (
            self.until is None or day <= self.until)


@dataclass(frozen=True)
class CaseGraph:
    """Nodes (by id order) and edges of a case's graph."""

    nodes: tuple[GraphNode, ...]
    edges: tuple[GraphEdge, ...]
    _by_id: dict[int, GraphNode] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._by_id.update({n.id: n for n in self.nodes})

    def node(self, item_id: int) -> GraphNode | None:
        """The node of an item, or None when it is not in the graph."""
        return self._by_id.get(item_id)


def _check_filter(chosen: GraphFilter) -> None:
    unknown = sorted((chosen.kinds or frozenset()) - set(NODE_KINDS))
    if unknown:
        raise ValidationError(f"graph node kinds are {', '.join(NODE_KINDS)}; "
                              f"got {', '.join(unknown)}")
    unknown = sorted((chosen.relations or frozenset()) - set(EDGE_RELATIONS))
    if unknown:
        raise ValidationError(f"graph relations are {', '.join(EDGE_RELATIONS)}; "
                              f"got {', '.join(unknown)}")
    if chosen.since and chosen.until and chosen.since > chosen.until:
        raise ValidationError("the date range ends before it starts")


def case_graph(session: Session, case_id: int, chosen: GraphFilter | None = None) -> CaseGraph:
    """The graph of case ``case_id`` (module docstring), filtered by ``chosen``.

    A fixed handful of queries whatever the size of the case. Raises NotFoundError for an
    unknown case, ValidationError for an unknown kind or relation or a reversed date range.
    """
    chosen = chosen or GraphFilter()
    _check_filter(chosen)
    if session.get(Case, case_id) is None:
        raise NotFoundError(f"no case with id {case_id}")
    kinds = set(chosen.kinds or NODE_KINDS)
    relations = set(chosen.relations or EDGE_RELATIONS)

    nodes: dict[int, GraphNode] = {}
    for item_id, kind, title, confidential in session.execute(
            select(Item.id, Item.kind, Item.title, Item.confidential)
            .where(Item.case_id == case_id, Item.kind.in_(kinds)).order_by(Item.id)):
        nodes[item_id] = GraphNode(item_id, kind, title, bool(confidential))
    details: dict[int, str | None] = {}
    published: dict[int, date | None] = {}
    # a node's detail, and the organization it belongs to: a person's role and affiliation,
    # an organization's kind and the one it is part of
    belongs: list[tuple[int, int]] = []
    for kind, model, detail, owner in (
            ("person", Person, Person.role, Person.affiliation_id),
            ("organization", Organization, Organization.org_kind, Organization.parent_id)):
        if kind not in kinds:
            continue
        for item_id, shown, owner_id in session.execute(
                select(model.id, detail, owner).where(model.case_id == case_id)):
            details[item_id] = shown
            if owner_id is not None:
                belongs.append((item_id, owner_id))
    # every document's date (a document may be filtered out as a node and still date evidence)
    for did, doc_kind, day in session.execute(
            select(Document.id, Document.doc_kind, Document.published)
            .where(Document.case_id == case_id)):
        details[did] = doc_kind
        published[did] = day
    for item_id, node in list(nodes.items()):
        nodes[item_id] = GraphNode(node.id, node.kind, node.title, node.confidential,
                                   details.get(item_id), published.get(item_id))

    passage_doc: dict[int, int] = {}

    def dated_ok(passage_id: int | None) -> bool:
        if passage_id is None:
            return True
        return chosen.in_range(published.get(passage_doc.get(passage_id, -1)))

    edges: list[GraphEdge] = []
    # typed relationships
    rel_rows = session.execute(
        select(Relationship.id, Relationship.source_id, Relationship.target_id,
               Relationship.kind, Relationship.passage_id, Passage.document_id)
        .outerjoin(Passage, Passage.id == Relationship.passage_id)
        .where(Relationship.case_id == case_id).order_by(Relationship.id)).all()
    typed: dict[tuple[str, int, int], list[tuple[int, int | None]]] = defaultdict(list)
    joined: set[tuple[int, int]] = set()
    for rid, src, dst, kind, pid, rel_doc in rel_rows:
        joined.add((min(src, dst), max(src, dst)))
        if kind not in relations or src not in nodes or dst not in nodes:
            continue
        if pid is not None and rel_doc is not None:
            passage_doc[pid] = rel_doc
        typed[(kind, src, dst)].append((rid, pid))
    for (kind, src, dst), rows in typed.items():
        pids = tuple(sorted({p for _r, p in rows if p is not None}))
        kept = tuple(p for p in pids if dated_ok(p))
        if pids and not kept:  # all its evidence is outside the date range
            continue
        edges.append(GraphEdge(src, dst, kind, len(rows), kept,
                               tuple(r for r, _p in rows)))
    # affiliations and parents, unless a relationship joins the two already
    if AFFILIATION in relations:
        for src, dst in belongs:
            if src in nodes and dst in nodes and (min(src, dst), max(src, dst)) not in joined:
                edges.append(GraphEdge(src, dst, AFFILIATION))

    # evidence: quoted together, quoted in
    want_together = QUOTED_TOGETHER in relations
    want_in = QUOTED_IN in relations and "document" in kinds
    if want_together or want_in:
        doc_col = func.coalesce(Passage.document_id, EvidenceLink.document_id)
        link_rows = session.execute(
            select(EvidenceLink.item_id, EvidenceLink.passage_id, doc_col,
                   Passage.start, Passage.end)
            .outerjoin(Passage, Passage.id == EvidenceLink.passage_id)
            .where(EvidenceLink.case_id == case_id)
            .order_by(doc_col, Passage.start, EvidenceLink.id)).all()
        by_doc: dict[int, list[tuple[int, int, int, int]]] = defaultdict(list)
        quoted_in: dict[tuple[int, int], list[int | None]] = defaultdict(list)
        for item_id, pid, did, start, end in link_rows:
            if item_id not in nodes or did is None or not chosen.in_range(published.get(did)):
                continue
            if want_in and did in nodes and item_id != did:
                quoted_in[(item_id, did)].append(pid)
            if want_together and pid is not None:
                by_doc[did].append((start, end, item_id, pid))
        for (item_id, did), found in quoted_in.items():
            edges.append(GraphEdge(item_id, did, QUOTED_IN, len(found),
                                   tuple(sorted({p for p in found if p is not None}))))
        if want_together:
            edges.extend(_quoted_together(by_doc))

    if chosen.dated:  # nodes with nothing left in the range go
        linked = {n for e in edges for n in (e.source, e.target)}
        nodes = {i: n for i, n in nodes.items() if i in linked}
    return CaseGraph(tuple(nodes.values()), tuple(edges))


def _quoted_together(by_doc: Mapping[int, list[tuple[int, int, int, int]]]
                     ) -> list[GraphEdge]:
    """"Quoted together" edges from each document's (start, end, item, passage) rows, sorted
    by start: pairs of different items whose passages overlap or lie ``NEAR_CHARS`` apart."""
    pairs: dict[tuple[int, int], set[tuple[int, int]]] = defaultdict(set)
    for spans in by_doc.values():
        for n, (_start, end, item, pid) in enumerate(spans):
            reach = end + NEAR_CHARS
            for start2, _end2, item2, pid2 in spans[n + 1:]:
                if start2 > reach:
                    break
                if item2 != item:
                    a, b = (item, item2) if item < item2 else (item2, item)
                    pairs[(a, b)].add((min(pid, pid2), max(pid, pid2)))
    out = []
    for (a, b), passage_pairs in sorted(pairs.items()):
        pids = tuple(sorted({p for pair in passage_pairs for p in pair}))
        out.append(GraphEdge(a, b, QUOTED_TOGETHER, len(passage_pairs), pids))
    return out


def edge_evidence(session: Session, edge: GraphEdge) -> list[Any]:
    """The evidence of an edge as the evidence panel shows it: the
    :class:`~casefile.services.evidence.EvidenceView` rows of the links from either end to the
    edge's passages (one per passage, document date then position); a relationship's passage
    that is no item's evidence is shown with ``link_id`` -1."""
    from casefile.services.evidence import EvidenceView, evidence_for_items

    wanted = set(edge.passages)
    seen: set[int] = set()
    out: list[EvidenceView] = []
    by_item = evidence_for_items(session, [edge.source, edge.target])
    for view in [*by_item.get(edge.source, []), *by_item.get(edge.target, [])]:
        if edge.relation == QUOTED_IN and view.passage_id is None \
                and view.document_id == edge.target and -view.link_id not in seen:
            seen.add(-view.link_id)  # a whole-document link
            out.append(view)
        if view.passage_id in wanted and view.passage_id not in seen:
            seen.add(view.passage_id)
            out.append(view)
    missing = sorted(wanted - seen)
    if missing:
        for passage, doc in session.execute(
                select(Passage, Document).join(Document, Document.id == Passage.document_id)
                .where(Passage.id.in_(missing))):
            out.append(EvidenceView(
                link_id=-1, relation="supports", note=None, document_id=doc.id,
                document_title=doc.title, outlet=doc.outlet,
                published=doc.published.isoformat() if doc.published else None,
                confidential_source=doc.confidential, passage_id=passage.id,
                quote=passage.quote, start=passage.start, end=passage.end, page=passage.page))
    out.sort(key=lambda v: (v.published or "9999", v.document_id, v.start or 0))
    return out
