"""The case as a network: who and what is connected to whom, and by which evidence. Qt-free.

- :mod:`~casefile.services.graph.building`: the nodes and edges of a case (:func:`case_graph`,
  :class:`GraphFilter`) and the evidence of an edge (:func:`edge_evidence`);
- :mod:`~casefile.services.graph.layout`: the force-directed layout (:func:`layout_graph`),
  plain numbers in and out;
- :mod:`~casefile.services.graph.positions`: the positions kept per case (:func:`saved_layout`,
  :func:`save_layout`) and the graph drawn with them (:func:`graph_with_layout`).

Their public names are importable from here too. A module setting is read where it is defined:
to change it (a test), set it on that module, not here.
"""

from casefile.services.graph.building import (
    AFFILIATION,
    EDGE_RELATIONS,
    NEAR_CHARS,
    NODE_KINDS,
    QUOTED_IN,
    QUOTED_TOGETHER,
    CaseGraph,
    GraphEdge,
    GraphFilter,
    GraphNode,
    case_graph,
    edge_evidence,
)
from casefile.services.graph.layout import (
    DENSE_LIMIT,
    EDGE_LENGTH,
    EDGE_PULL,
    MIN_GAP,
    REPULSION,
    layout_graph,
)
from casefile.services.graph.positions import (
    SavedLayout,
    graph_with_layout,
    remap_layout,
    save_layout,
    saved_layout,
)

__all__ = [
    "AFFILIATION", "DENSE_LIMIT", "EDGE_LENGTH", "EDGE_PULL", "EDGE_RELATIONS", "MIN_GAP",
    "NEAR_CHARS", "NODE_KINDS", "QUOTED_IN", "QUOTED_TOGETHER", "REPULSION",
    "CaseGraph", "GraphEdge", "GraphFilter", "GraphNode", "SavedLayout",
    "case_graph", "edge_evidence", "graph_with_layout", "layout_graph", "remap_layout",
    "save_layout", "saved_layout",
]
