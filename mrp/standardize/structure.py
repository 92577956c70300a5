"""Penman structure preservation (Goodman 2019, "AMR Normalization for Fairer Evaluation").

An AMR graph is a set of triples, but a Penman file writes it as a tree: one
occurrence of each node holds its definition (``:ARG0 (d / dog)``), the others
refer to it (``:ARG0 d``), and every node's branches come in an order.  Scorers
see only the triples, so two files that lay out the same graph differently
score 1.0 against each other.  Structure preservation adds triples that record
the layout, so that a different layout scores below 1.0 when that matters
(e.g. for generation from AMR):

* for the k-th branch (k = 1, 2, ...; the concept not counted) of a node that
  leads to a node, an edge from the node to the target labelled
  ``ROLE@k`` (the role as written, ``ARG0-of`` for an inverted edge) when the
  branch refers to the target, and ``ROLE@k+def`` when it holds the target's
  definition;
* for the k-th branch that is a constant, a property ``ROLE@k`` of the node
  with the constant as its value.

The graph's own triples are kept; the top is recorded by the scorers' top
triple already.  The layout comes from the AMR reader (``Graph.layout``); an
AMR graph without one (read from MRP JSON) and graphs of other frameworks are
returned unchanged, and :func:`applies` tells which graphs those are.
"""

from __future__ import annotations

import copy

from mrp.graph import Edge, Graph

#: marks the branch that holds its target node's definition
DEFINITION = "+def"


def applies(graph: Graph) -> bool:
    """True when structure preservation changes this graph: an AMR graph with its Penman layout."""
    return graph.framework in (None, "amr") and graph.layout is not None


def preserve_structure(graph: Graph) -> Graph:
    """A new graph: ``graph`` with the triples of its Penman layout added (a copy if not :func:`applies`)."""
    result = copy.deepcopy(graph)
    if not applies(graph):
        return result
    assert result.layout is not None
    nodes = {node.id: node for node in result.nodes}
    for source, branches in result.layout.items():
        node = nodes.get(source)
        if node is None:
            continue
        for k, (role, target, defines) in enumerate(branches, start=1):
            label = f"{role}@{k}"
            if isinstance(target, int) and target in nodes:  # a node id (constants are strings)
                result.edges.append(Edge(source, target, label + DEFINITION if defines else label))
            else:
                node.properties.append(label)
                node.values.append(target)
    return result
