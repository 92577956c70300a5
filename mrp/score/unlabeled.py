"""The unlabeled MRP metric: the MRP metric with node labels and edge labels ignored.

The MRP design breaks a graph into (a) tops, (b) node labels, (c) node
properties, (d) anchoring, (e) unlabeled edges, (f) edge labels and (g) edge
attributes; the unlabeled variant drops (b) and (f), as SDP and UCCA's
unlabeled scores drop dependency labels.  Per tuple type:

* ``labels``: none (g = s = c = 0);
* ``edges``: (source, target) pairs, each edge in its normal direction first
  (``ARG0-of`` is restored before its label goes), so two edges between the
  same nodes with different labels are one tuple;
* ``attributes``: (source, target, attribute, value), keyed by the unlabeled edge;
* ``tops``, ``properties`` and ``anchors``: unchanged.

The score is exact as the labeled one: the graphs are rewritten before
scoring (:func:`unlabel`) and then scored by the same solver and driver
(``mrp.score.corpus``), so ``--limit``, ``--timeout``, ``--jobs``, ``--trace``
and ``--errors`` work as for ``mrp``.  The result has the layout of the MRP
metric's and its own signature (``unlabeled:...``).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Dict, Optional, Tuple

from ..graph import Edge, Graph, Node
from ..normalize import normal_edge
from .metrics import Options
from .pairing import Pair, Pairing


def unlabel(graph: Graph) -> Graph:
    """A copy of a graph without node and edge labels, every edge in its normal direction."""
    nodes = [Node(node.id, None, list(node.properties), list(node.values),
                  None if node.anchors is None else list(node.anchors), node.anchorings)
             for node in graph.nodes]
    edges = []
    for edge in graph.edges:
        source, target, _, attributes = normal_edge(edge)
        names = sorted(attributes)
        edges.append(Edge(source, target, None, None, [name for name, _ in names],
                          [value for _, value in names]))
    return dataclasses.replace(graph, nodes=nodes, edges=edges)


def unlabeled_pairing(pairing: Pairing) -> Pairing:
    """The same pairing with every graph unlabeled."""
    pairs = [Pair(unlabel(pair.gold), unlabel(pair.system), pair.null) for pair in pairing.pairs]
    return dataclasses.replace(pairing, pairs=pairs)


def evaluate(pairing: Pairing, options: Optional[Options] = None) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """The unlabeled MRP result of a pairing, in the MRP metric's layout, and the --errors data."""
    from .corpus import evaluate as evaluate_mrp

    options = options or Options()
    # the memo of the labeled metric is keyed by graph objects: never share it
    return evaluate_mrp(unlabeled_pairing(pairing), dataclasses.replace(options, memo=None))
