"""UCCA: category labels, remote flags, one primary parent per node, no loops, one top, anchored leaves.

A ``remote`` attribute is read as the scorers read it (:mod:`mrp.rules`: lowercased, dropped
when it holds its default ``false``): any other value makes the edge remote.
"""

from __future__ import annotations

from typing import Dict, List, Set, Tuple

from mrp.graph import Edge, Graph
from mrp.rules import is_default_attribute, lower
from mrp.validation.common import Found, flag, one_top, show

FRAMEWORKS = ("ucca",)

#: The UCCA categories (foundational layer), the labels of UCCA edges.
CATEGORIES = ("H", "A", "P", "S", "D", "G", "C", "E", "F", "N", "R", "T", "Q", "L", "U")
_NAMES = ", ".join(CATEGORIES)


def _remote(edge: Edge) -> bool:
    return any(lower(name) == "remote" and not is_default_attribute("remote", lower(value))
               for name, value in zip(edge.attributes, edge.values))


def _edges(graph: Graph, found: List[Found]) -> Tuple[Dict[int, Tuple[int, int]], Set[int]]:
    """Labels, remote flags and loops; returns target -> (edge, primary parent), and every child.

    An edge whose ``remote`` flag is neither true nor false is reported once and
    left out of the parent checks (it is neither primary nor remote).
    """
    primary: Dict[int, Tuple[int, int]] = {}
    children: Set[int] = set()
    for k, edge in enumerate(graph.edges):
        where = f"edge {k}"
        if not edge.label:
            found.append((where, "has no label (UCCA edges are labelled with categories)"))
        elif edge.label not in CATEGORIES:
            found.append((where, f"label {show(edge.label)} is not a UCCA category ({_NAMES})"))
        bad = [value for key, value in zip(edge.attributes, edge.values)
               if key == "remote" and lower(value) not in ("true", "false")]
        if bad:
            found.append((where, f"attribute 'remote' is {show(bad[0])}, not true or false"))
            continue
        if edge.source == edge.target:
            found.append((where, f"is a loop on node {edge.source} (UCCA graphs are acyclic)"))
            continue
        children.add(edge.target)
        if not _remote(edge):
            first = primary.setdefault(edge.target, (k, edge.source))
            if first[1] != edge.source:
                found.append((where, f"node {edge.target} already has the primary parent {first[1]} "
                                     f"(edge {first[0]}); an edge from another parent must be remote"))
    return primary, children


def check(graph: Graph, name: str, found: List[Found]) -> None:
    """The UCCA rules, edges first, then nodes, then the top."""
    primary, children = _edges(graph, found)
    parents = {edge.source for edge in graph.edges}
    seen = set()
    for node in graph.nodes:
        if node.id in seen:
            continue
        seen.add(node.id)
        where = f"node {node.id}"
        if node.id in children and node.id not in primary:
            found.append((where, "has only remote incoming edges (no primary parent)"))
        implicit = flag(node.properties, node.values, "implicit")
        if node.id not in parents and not node.anchors and implicit in (None, "false"):
            found.append((where, "is a leaf without anchors (UCCA leaves are anchored unless implicit)"))
    one_top(graph, "a UCCA graph", found)
