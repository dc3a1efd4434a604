"""Where the graph's nodes go: a force-directed layout (Fruchterman-Reingold with numpy).

:func:`layout_graph` places the nodes of a :class:`~casefile.services.graph.building.CaseGraph`;
repulsion between near pairs is found with scipy's KD-tree when the graph is large. It is
seeded, so the same graph gives the same picture; positions are in scene units (roughly pixels
at 100 %), connected parts laid out apart and packed in rows. Nodes with a kept position stay
where they are. A graph in, positions out: nothing here reads or writes the workspace.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Collection, Mapping
from typing import Any

from casefile.services.graph.building import AFFILIATION, QUOTED_IN, QUOTED_TOGETHER, CaseGraph

#: The ideal length of an edge, in scene units.
EDGE_LENGTH = 150.0

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
