"""The bilexical SDP frameworks (DM, PSD, and the CCD and PAS of SDP 2015): nodes are tokens."""

from __future__ import annotations

from typing import List

from mrp.graph import Graph
from mrp.validation.common import Found, anchor_problem

FRAMEWORKS = ("dm", "psd", "ccd", "pas")


def check(graph: Graph, name: str, found: List[Found]) -> None:
    """Every node is anchored to exactly one token (its anchored text, trimmed, holds no whitespace)."""
    rule = f"({name.upper()} nodes are anchored to single tokens)"
    text = graph.input
    for node in graph.nodes:
        where = f"node {node.id}"
        if not node.anchors:
            found.append((where, f"has no anchor {rule}"))
        elif len(node.anchors) > 1:
            found.append((where, f"has {len(node.anchors)} anchors {rule}"))
        elif text is not None and anchor_problem(node.anchors[0], text) is None:
            start, end = node.anchors[0]
            if any(c.isspace() for c in text[start:end].strip()):
                found.append((where, f"anchor {start}:{end} spans several tokens {rule}"))
