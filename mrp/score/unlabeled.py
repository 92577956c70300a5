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
(``mrp.score.corpus``), so ``--limit``, ``--timeout``, ``--jobs``, ``--trace``
and ``--errors`` work as for ``mrp``.  The result has the layout of the MRP
metric's and its own signature (``unlabeled:...``, ``unlabeled-edges:...``).
Without node labels, unanchored graphs (AMR) leave the search only structure,
tops and properties to tell nodes apart, so more pairs need long searches.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Dict, Optional, Tuple

from ..graph import Edge, Graph, Node
from ..normalize import normal_edge
from .metrics import Options
from .pairing import Pair, Pairing


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


def unlabeled_pairing(pairing: Pairing, nodes: bool = True) -> Pairing:
    """The same pairing with every graph unlabeled (node labels too with ``nodes``)."""
    pairs = [Pair(unlabel(pair.gold, nodes), unlabel(pair.system, nodes), pair.null)
             for pair in pairing.pairs]
    return dataclasses.replace(pairing, pairs=pairs)


def evaluate_variant(pairing: Pairing, options: Optional[Options], nodes: bool) -> Tuple[Dict[str, Any],
                                                                                        Dict[str, Any]]:
    """The MRP result of a pairing with edge labels (and with ``nodes`` node labels) ignored."""
    from .corpus import evaluate as evaluate_mrp

    options = options or Options()
    # the memo of the labeled metric is keyed by graph objects: never share it
    return evaluate_mrp(unlabeled_pairing(pairing, nodes), dataclasses.replace(options, memo=None))


def evaluate(pairing: Pairing, options: Optional[Options] = None) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """The unlabeled MRP result of a pairing, in the MRP metric's layout, and the --errors data."""
    return evaluate_variant(pairing, options, nodes=True)
