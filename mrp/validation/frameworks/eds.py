"""EDS: every node is labelled and has exactly one anchor."""

from __future__ import annotations

from typing import List

from mrp.graph import Graph
from mrp.validation.common import Found

FRAMEWORKS = ("eds",)


def check(graph: Graph, name: str, found: List[Found]) -> None:
    """A node without a label, without anchors, or with several anchors."""
    for node in graph.nodes:
        where = f"node {node.id}"
        if not node.label:
            found.append((where, "has no label (EDS nodes are labelled)"))
        if not node.anchors:
            found.append((where, "has no anchors (EDS nodes are anchored)"))
        elif len(node.anchors) > 1:
            found.append((where, f"has {len(node.anchors)} anchors (an EDS node has exactly one)"))
