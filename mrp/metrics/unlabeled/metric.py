"""The unlabeled MRP metrics: the MRP metric with node labels and edge labels ignored.

The MRP design breaks a graph into (a) tops, (b) node labels, (c) node
properties, (d) anchoring, (e) unlabeled edges, (f) edge labels and (g) edge
attributes.  ``unlabeled`` drops (b) and (f); ``unlabeled-edges`` drops (f)
only, as the unlabeled scores of SDP, UCCA and Damonte et al.'s fine-grained
SMATCH drop edge labels and nothing else.  Per tuple type:

* ``labels``: none (g = s = c = 0) for ``unlabeled``, unchanged for ``unlabeled-edges``;
* ``edges``: (source, target) pairs, each edge in its normal direction first
  (``ARG0-of`` is restored before its label goes), so two edges between the
  same nodes with different labels are one tuple;
* ``attributes``: (source, target, attribute, value), keyed by the unlabeled edge;
* ``tops``, ``properties`` and ``anchors``: unchanged.

The score is exact as the labeled one: the graphs are rewritten before
scoring (:func:`unlabel`) and then scored by the same solver and driver
(``mrp.metrics.mrp.metric``), so ``--limit``, ``--timeout``, ``--jobs``, ``--trace``
and ``--errors`` work as for ``mrp``.  The result has the layout of the MRP
metric's and its own signature (``unlabeled:...``, ``unlabeled-edges:...``).
Without node labels, unanchored graphs (AMR) leave the search only structure,
tops and properties to tell nodes apart, so more pairs need long searches.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Dict, Tuple

from mrp.engine import CountPath as Path
from mrp.engine import Options, Pair
from mrp.graph import Edge, Graph, Node
from mrp.metrics.mrp.metric import MRP
from mrp.normalize import normal_edge


def unlabel(graph: Graph, nodes: bool = True) -> Graph:
    """A copy of a graph without edge labels (every edge in its normal direction) and, with ``nodes``,
    without node labels."""
    kept = [Node(node.id, None if nodes else node.label, list(node.properties), list(node.values),
                 None if node.anchors is None else list(node.anchors), node.anchorings)
            for node in graph.nodes]
    edges = []
    for edge in graph.edges:
        source, target, _, attributes = normal_edge(edge)
        names = sorted(attributes)
        edges.append(Edge(source, target, None, None, [name for name, _ in names],
                          [value for _, value in names]))
    return dataclasses.replace(graph, nodes=kept, edges=edges)


class Unlabeled(MRP):
    """The MRP metric on graphs without edge labels and (``nodes``) node labels."""

    symmetric = False  # all-pairs runs score it in both orders

    def __init__(self, name: str, nodes: bool) -> None:
        self.name = name
        self.nodes = nodes
        self.normalization = "case+anchors+edges+" + name
        self.summary = ("the MRP metric without node and edge labels" if nodes else
                        "the MRP metric without edge labels")

    def scored_pair(self, pair: Pair) -> Pair:
        return Pair(unlabel(pair.gold, self.nodes), unlabel(pair.system, self.nodes), pair.null)

    def alone(self, graph: Graph, gold: bool, options: Options) -> Dict[Path, Tuple[Any, ...]]:
        return super().alone(unlabel(graph, self.nodes), gold, options)


METRIC = Unlabeled("unlabeled", nodes=True)
