"""A case's kept graph positions, and the graph drawn with them.

:func:`saved_layout` / :func:`save_layout` keep the positions and pins of a case in
``cases.graph_layout``; :func:`graph_with_layout` reads the graph
(:func:`~casefile.services.graph.building.case_graph`), lays out the nodes that have no kept
position (:func:`~casefile.services.graph.layout.layout_graph`) and keeps the new positions.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from casefile.errors import ValidationError
from casefile.services import lookup
from casefile.services.graph.building import NODE_KINDS, CaseGraph, GraphFilter, case_graph
from casefile.services.graph.layout import layout_graph
from casefile.store import Case, Item
from casefile.store.conflicts import is_write_conflict


@dataclass(frozen=True)
class SavedLayout:
    """A case's kept graph positions ``{item id: (x, y)}`` and its pinned item ids."""

    positions: dict[int, tuple[float, float]]
    pinned: frozenset[int]


def saved_layout(session: Session, case_id: int) -> SavedLayout:
    """The positions and pins kept for case ``case_id`` (empty when its graph was never drawn;
    a malformed entry is skipped). Raises NotFoundError for an unknown case."""
    case = lookup.row(session, Case, case_id, f"no case with id {case_id}")
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
    alive: Collection[int] | None = None,
) -> SavedLayout:
    """Keep graph positions of case ``case_id``: ``positions`` are merged into the kept ones
    (``replace``: they become the kept ones); ``pinned`` (when given) becomes the set of pinned
    items. Positions of items no longer in the case are dropped. A view state, not an edit:
    no change-log row, nothing to undo, the case's ``updated`` stays. Returns what is kept.

    ``alive``: the ids of the case's graph items when the caller has just read them (the
    graph's nodes), which saves reading them again.

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
    if alive is None:
        alive = set(session.scalars(select(Item.id).where(
            Item.case_id == case_id, Item.kind.in_(NODE_KINDS))))
    else:
        alive = set(alive)
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
