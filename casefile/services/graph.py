"""The case as a network: who and what is connected to whom, and by which evidence.

Qt-free. :func:`case_graph` reads a case into a :class:`CaseGraph`:

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

:func:`layout_graph` places the nodes with a force-directed layout (Fruchterman-Reingold with
numpy; repulsion between near pairs found with scipy's KD-tree when the graph is large),
seeded, so the same graph gives the same picture; positions are in scene units (roughly
pixels at 100 %), connected parts laid out apart and packed in rows. Nodes with a kept
position stay where they are. :func:`saved_layout` / :func:`save_layout` keep the positions
and pins of a case in ``cases.graph_layout``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import DBAPIError
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
from casefile.store.conflicts import is_write_conflict
from casefile.store.evidence import RELATIONSHIP_KINDS

NODE_KINDS = ("person", "organization", "place", "document")
AFFILIATION = "affiliated with"
QUOTED_TOGETHER = "quoted together"
QUOTED_IN = "quoted in"
EDGE_RELATIONS = (*RELATIONSHIP_KINDS, AFFILIATION, QUOTED_TOGETHER, QUOTED_IN)
#: Two passages of one document at most this many characters apart quote their items together.
NEAR_CHARS = 150
#: The ideal length of an edge, in scene units.
EDGE_LENGTH = 150.0


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
    affiliations: list[tuple[int, int]] = []
    parents: list[tuple[int, int]] = []
    if "person" in kinds:
        for person_id, role, aff in session.execute(
                select(Person.id, Person.role, Person.affiliation_id)
                .where(Person.case_id == case_id)):
            details[person_id] = role
            if aff is not None:
                affiliations.append((person_id, aff))
    if "organization" in kinds:
        for oid, org_kind, parent in session.execute(
                select(Organization.id, Organization.org_kind, Organization.parent_id)
                .where(Organization.case_id == case_id)):
            details[oid] = org_kind
            if parent is not None:
                parents.append((oid, parent))
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
        for src, dst in (*affiliations, *parents):
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


# -- layout -------------------------------------------------------------------------------------

#: How strongly an edge of each relation pulls its ends together (typed links: 1).
EDGE_PULL = {QUOTED_IN: 0.15, QUOTED_TOGETHER: 0.5, AFFILIATION: 1.0}
#: Repulsion between nodes (1: classic Fruchterman-Reingold; more leaves room for labels).
REPULSION = 1.6

#: Above this many nodes repulsion is computed only between pairs nearer than a cut-off
#: (found with a KD-tree), not between all pairs.
DENSE_LIMIT = 150


def layout_graph(
    graph: CaseGraph,
    kept: Mapping[int, tuple[float, float]] | None = None,
    *,
    fixed: Collection[int] = (),
    seed: int = 7,
    iterations: int | None = None,
) -> dict[int, tuple[float, float]]:
    """Positions ``{item id: (x, y)}`` (scene units) for every node of ``graph``.

    Nodes in ``kept`` that are also in ``fixed`` stay exactly there; other nodes in ``kept``
    start from their kept position, the rest near their placed neighbours (or at random). With
    nothing kept, each connected part is laid out alone and the parts are packed in rows, the
    largest first. The same graph, ``kept`` and ``seed`` give the same positions.
    """
    import numpy as np

    kept = dict(kept or {})
    ids = [n.id for n in graph.nodes]
    if not ids:
        return {}
    rng = np.random.default_rng(seed)
    index = {item_id: n for n, item_id in enumerate(ids)}
    src, dst, pull = [], [], []
    for e in graph.edges:
        if e.source in index and e.target in index and e.source != e.target:
            src.append(index[e.source])
            dst.append(index[e.target])
            # typed links hold tightest; a document's pull on what it quotes is weak (a hub
            # document would otherwise pile everything it quotes onto itself)
            pull.append(EDGE_PULL.get(e.relation, 1.0) * (1.0 + math.log(e.weight) * 0.5))
    a, b = np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64)
    degree = np.bincount(np.concatenate([a, b]), minlength=len(ids)).astype(np.float64)
    # hubs pulled by everyone would swallow their neighbourhood: their pull is shared out
    share = np.sqrt((degree[a] + degree[b]) / 2) if len(a) else np.ones(0)
    edges = (a, b, np.array(pull, dtype=np.float64) / np.maximum(share, 1.0) * 2.0)
    n = len(ids)
    known = [index[i] for i in ids if i in kept]
    if not known:
        pos = _pack_components(n, edges, rng, iterations)
    else:
        pos = np.zeros((n, 2))
        placed = np.zeros(n, dtype=bool)
        for i in known:
            pos[i] = np.asarray(kept[ids[i]], dtype=np.float64) / EDGE_LENGTH
            placed[i] = True
        _place_near_neighbours(pos, placed, edges, rng)
        pinned = np.array([ids[i] in fixed for i in range(n)], dtype=bool)
        if not pinned.all():
            steps = iterations or 60
            # only the new nodes move far; kept ones settle a little
            _force(pos, edges, rng, steps, pinned, start_temperature=0.5)
    out = {item_id: (float(pos[i, 0] * EDGE_LENGTH), float(pos[i, 1] * EDGE_LENGTH))
           for item_id, i in index.items()}
    out.update({i: (float(kept[i][0]), float(kept[i][1])) for i in fixed if i in kept})
    return out


def _place_near_neighbours(pos: Any, placed: Any, edges: tuple[Any, Any, Any],
                           rng: Any) -> None:
    """Start unplaced nodes at the mean of their placed neighbours (jittered), else at random
    inside the placed ones' box."""
    import numpy as np

    src, dst, _w = edges
    todo = np.flatnonzero(~placed)
    if not len(todo):
        return
    lo, hi = pos[placed].min(axis=0), pos[placed].max(axis=0)
    sums = np.zeros_like(pos)
    counts = np.zeros(len(pos))
    ok = placed[src]
    np.add.at(sums, dst[ok], pos[src[ok]])
    np.add.at(counts, dst[ok], 1)
    ok = placed[dst]
    np.add.at(sums, src[ok], pos[dst[ok]])
    np.add.at(counts, src[ok], 1)
    for i in todo:
        if counts[i]:
            pos[i] = sums[i] / counts[i] + rng.normal(0, 0.3, 2)
        else:
            pos[i] = lo + rng.random(2) * np.maximum(hi - lo, 1.0)


def _pack_components(n: int, edges: tuple[Any, Any, Any], rng: Any,
                     iterations: int | None) -> Any:
    """Lay out each connected part alone, then pack the parts in rows (largest first); single
    nodes share rows of their own at the end."""
    import numpy as np

    src, dst, w = edges
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b in zip(src.tolist(), dst.tolist(), strict=True):
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[ra] = rb
    groups: dict[int, list[int]] = defaultdict(list)
    for i in range(n):
        groups[root(i)].append(i)
    parts = sorted(groups.values(), key=lambda g: (-len(g), g[0]))
    pos = np.zeros((n, 2))
    boxes: list[tuple[list[int], Any]] = []
    singles: list[int] = []
    for members in parts:
        if len(members) == 1:
            singles.append(members[0])
            continue
        local = {m: k for k, m in enumerate(members)}
        keep = np.isin(src, members)
        sub = (np.array([local[s] for s in src[keep].tolist()], dtype=np.int64),
               np.array([local[d] for d in dst[keep].tolist()], dtype=np.int64), w[keep])
        m = len(members)
        p = rng.random((m, 2)) * math.sqrt(m)
        _force(p, sub, rng, iterations or (120 if m < 200 else 70), np.zeros(m, dtype=bool))
        _spread_out(p, MIN_GAP, passes=40 if m <= DENSE_LIMIT else 10)
        p = _widest_across(p)
        p -= p.min(axis=0)
        boxes.append((members, p))
    if singles:  # a grid of the unconnected ones, as a block of their own
        # wide columns and every other row shifted by half a column, so that their labels
        # (wider than an edge length) do not run into each other
        side = max(1, math.ceil(math.sqrt(len(singles)) * 1.2))
        p = np.array([[(k % side) * 1.9 + (0.95 if (k // side) % 2 else 0.0), (k // side) * 0.8]
                      for k in range(len(singles))])
        boxes.append((singles, p))
    total = sum(float((p.max(axis=0)[0] + 1) * (p.max(axis=0)[1] + 1)) for _m, p in boxes)
    row_width = max(math.sqrt(total) * 1.3, max(float(p.max(axis=0)[0]) for _m, p in boxes))
    x = y = row_height = 0.0
    gap = 1.2
    for members, p in boxes:
        width, height = (float(v) for v in p.max(axis=0))
        if x > 0 and x + width > row_width:
            x, y, row_height = 0.0, y + row_height + gap, 0.0
        pos[members] = p + (x, y)
        x += width + gap
        row_height = max(row_height, height)
    return pos


#: Nodes closer than this (in edge lengths) are pushed apart after the layout.
MIN_GAP = 0.8


def _spread_out(p: Any, gap: float, passes: int = 40) -> None:
    """Push apart, in place, the pairs of nodes nearer than ``gap`` (room for labels)."""
    import numpy as np

    n = len(p)
    for _ in range(passes):
        if n <= DENSE_LIMIT:
            a, b = np.triu_indices(n, 1)
        else:
            from scipy.spatial import cKDTree

            found = cKDTree(p).query_pairs(gap, output_type="ndarray")
            if not len(found):
                return
            a, b = found[:, 0], found[:, 1]
        d = p[a] - p[b]
        dist = np.sqrt((d * d).sum(axis=1))
        close = dist < gap
        if not close.any():
            return
        d, dist = d[close], np.maximum(dist[close], 1e-3)
        move = d * ((gap - dist) / dist / 2)[:, None]
        p += np.stack([np.bincount(a[close], move[:, k], n) - np.bincount(b[close], move[:, k], n)
                       for k in (0, 1)], axis=1)


def _widest_across(p: Any) -> Any:
    """``p`` turned so that its longest spread runs across (screens are wider than tall)."""
    import numpy as np

    centred = p - p.mean(axis=0)
    if len(p) < 3:
        return centred
    _values, vectors = np.linalg.eigh(np.cov(centred.T))
    turned = centred @ vectors[:, ::-1]  # the main axis first: x
    return turned * np.where(turned[np.abs(turned[:, 0]).argmax(), 0] < 0, -1.0, 1.0)


def _force(pos: Any, edges: tuple[Any, Any, Any], rng: Any, iterations: int, pinned: Any,
           start_temperature: float | None = None) -> None:
    """Fruchterman-Reingold in place on ``pos`` (n x 2, ideal edge length 1): repulsion 1/d
    between all pairs (or, above DENSE_LIMIT nodes, pairs nearer than 3), attraction d^2 times
    the edge's weight factor along edges; a cooling step limit; ``pinned`` rows do not move
    (and when few rows move, only forces on those are computed)."""
    import numpy as np

    n = len(pos)
    src, dst, w = edges
    movers = np.flatnonzero(~pinned)
    if not len(movers):
        return
    few = len(movers) < n // 2
    if few:  # only the edges that touch a mover matter
        touch = ~pinned[src] | ~pinned[dst]
        src, dst, w = src[touch], dst[touch], w[touch]
    temperature = start_temperature or max(1.0, math.sqrt(n) * 0.15)
    cool = temperature / (iterations + 1)
    dense = n <= DENSE_LIMIT
    all_pairs = np.triu_indices(n, 1) if dense and not few else None
    cutoff = 2.0
    far = np.zeros_like(pos)

    def spread(index: Any, values: Any) -> Any:
        return np.stack([np.bincount(index, values[:, 0], n),
                         np.bincount(index, values[:, 1], n)], axis=1)

    for _step in range(iterations):
        if all_pairs is not None:
            a, b = all_pairs
        elif few:
            if dense:
                a = np.repeat(movers, n)
                b = np.tile(np.arange(n), len(movers))
            else:
                from scipy.spatial import cKDTree

                near = cKDTree(pos).query_ball_point(pos[movers], cutoff)
                a = np.repeat(movers, [len(x) for x in near])
                b = np.fromiter((j for x in near for j in x), dtype=np.int64, count=len(a))
            keep = a != b
            a, b = a[keep], b[keep]
        else:
            from scipy.spatial import cKDTree

            found = cKDTree(pos).query_pairs(cutoff, output_type="ndarray")
            a, b = found[:, 0], found[:, 1]
        disp = np.zeros_like(pos)
        if len(a):
            d = pos[a] - pos[b]
            dist2 = np.maximum((d * d).sum(axis=1), 1e-4)
            push = d * (REPULSION / dist2)[:, None]  # unit vector times REPULSION/d
            disp += spread(a, push)
            if not few:  # (with few movers, each mover's pairs are listed from its side)
                disp -= spread(b, push)
        if len(src):
            d = pos[src] - pos[dst]
            dist = np.sqrt(np.maximum((d * d).sum(axis=1), 1e-8))
            pull = d * (dist * w)[:, None]
            disp -= spread(src, pull)
            disp += spread(dst, pull)
        if not dense:  # the far field: every other cell of a grid pushes as one mass
            if _step % 2 == 0:
                far = _far_field(pos, cutoff)
            disp += far
        # a weak pull to the centre keeps loose nodes from drifting away
        disp -= (pos - pos.mean(axis=0)) * 0.03
        length = np.sqrt(np.maximum((disp * disp).sum(axis=1), 1e-12))
        step = np.minimum(length, temperature) / length
        step[pinned] = 0.0
        pos += disp * step[:, None]
        temperature = max(temperature - cool, 0.02)


def _far_field(pos: Any, cell: float) -> Any:
    """The repulsion on each node from the nodes outside its own grid cell (side ``cell``),
    each cell acting as its node count at its centroid (a one-level Barnes-Hut)."""
    import numpy as np

    lo = pos.min(axis=0)
    cell = max(cell, float((pos.max(axis=0) - lo).max()) / 10)  # at most ~100 cells
    ij = np.floor((pos - lo) / cell).astype(np.int64)
    width = int(ij[:, 0].max()) + 1
    cell_of = ij[:, 0] + ij[:, 1] * width
    cells, inverse, mass = np.unique(cell_of, return_inverse=True, return_counts=True)
    centre = np.stack([np.bincount(inverse, pos[:, 0]), np.bincount(inverse, pos[:, 1])],
                      axis=1) / mass[:, None]
    d = pos[:, None, :] - centre[None, :, :]
    dist2 = np.maximum((d * d).sum(axis=2), 1e-4)
    weight = REPULSION * mass[None, :] / dist2
    weight[np.arange(len(pos)), inverse] = 0.0  # the own cell is the near field's
    del cells
    return (d * weight[:, :, None]).sum(axis=1)


# -- kept positions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SavedLayout:
    """A case's kept graph positions ``{item id: (x, y)}`` and its pinned item ids."""

    positions: dict[int, tuple[float, float]]
    pinned: frozenset[int]


def saved_layout(session: Session, case_id: int) -> SavedLayout:
    """The positions and pins kept for case ``case_id`` (empty when its graph was never drawn;
    a malformed entry is skipped). Raises NotFoundError for an unknown case."""
    case = session.get(Case, case_id)
    if case is None:
        raise NotFoundError(f"no case with id {case_id}")
    raw = case.graph_layout or {}
    positions: dict[int, tuple[float, float]] = {}
    for key, value in dict(raw.get("positions") or {}).items():
        try:
            x, y = (float(v) for v in value)
            positions[int(key)] = (x, y)
        except (TypeError, ValueError):
            continue
    pinned = frozenset(int(i) for i in raw.get("pinned") or [] if str(i).isdigit())
    return SavedLayout(positions, pinned)


def save_layout(
    session: Session, case_id: int, positions: Mapping[int, tuple[float, float]], *,
    pinned: Iterable[int] | None = None, replace: bool = False,
) -> SavedLayout:
    """Keep graph positions of case ``case_id``: ``positions`` are merged into the kept ones
    (``replace``: they become the kept ones); ``pinned`` (when given) becomes the set of pinned
    items. Positions of items no longer in the case are dropped. A view state, not an edit:
    no change-log row, nothing to undo, the case's ``updated`` stays. Returns what is kept.

    Raises NotFoundError for an unknown case, ValidationError for a position that is not
    two finite numbers.
    """
    current = saved_layout(session, case_id)
    merged = {} if replace else dict(current.positions)
    for item_id, (x, y) in positions.items():
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValidationError(f"graph position of item {item_id} is not a finite number")
        merged[int(item_id)] = (round(float(x), 1), round(float(y), 1))
    keep_pins = set(current.pinned if pinned is None else pinned)
    alive = set(session.scalars(select(Item.id).where(
        Item.case_id == case_id, Item.kind.in_(NODE_KINDS))))
    merged = {i: p for i, p in merged.items() if i in alive}
    keep_pins &= alive
    layout = {"positions": {str(i): [x, y] for i, (x, y) in sorted(merged.items())},
              "pinned": sorted(keep_pins)}
    session.execute(update(Case).where(Case.id == case_id)
                    .values(graph_layout=layout, updated=Case.updated))
    return SavedLayout(merged, frozenset(keep_pins))


def remap_layout(raw: Mapping[str, Any], ids: Mapping[int, int]) -> dict[str, Any]:
    """A kept ``graph_layout`` with its item ids renamed through ``ids`` (old -> new; ids not
    in it are dropped): for a case copied into another workspace."""
    positions = {}
    for key, value in dict(raw.get("positions") or {}).items():
        if str(key).isdigit() and int(key) in ids:
            positions[str(ids[int(key)])] = value
    pinned = sorted(ids[int(i)] for i in raw.get("pinned") or []
                    if str(i).isdigit() and int(i) in ids)
    return {"positions": positions, "pinned": pinned}


def graph_with_layout(
    session: Session, case_id: int, chosen: GraphFilter | None = None, *,
    relayout: bool = False, seed: int = 7,
) -> tuple[CaseGraph, dict[int, tuple[float, float]], frozenset[int]]:
    """The case's graph with a position for every node: the kept ones, new nodes laid out
    around them (``relayout``: every unpinned node laid out afresh), and the new positions
    kept — unless another connection wrote to the workspace since this transaction read it
    (another process committing while the graph was laid out): then they are returned all the
    same and kept by the next drawing. Returns ``(graph, positions, pinned)``. Errors as
    :func:`case_graph`."""
    graph = case_graph(session, case_id, chosen)
    saved = saved_layout(session, case_id)
    kept = {i: p for i, p in saved.positions.items() if graph.node(i) is not None}
    if relayout:
        kept = {i: p for i, p in kept.items() if i in saved.pinned}
        fixed: Collection[int] = saved.pinned
    else:
        fixed = set(kept)
    if len(kept) < len(graph.nodes) or relayout:
        laid = layout_graph(graph, kept, fixed=fixed, seed=seed)
        try:
            with session.begin_nested():  # a refused write leaves the transaction as it was
                stored = save_layout(session, case_id, laid).positions
        except DBAPIError as exc:
            if not is_write_conflict(exc):
                raise
            stored = {i: (round(x, 1), round(y, 1)) for i, (x, y) in laid.items()}
        positions = {i: stored[i] for i in laid}
    else:
        positions = kept
    return graph, positions, saved.pinned
