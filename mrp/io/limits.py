"""Limits on what one graph may hold, checked when reading so that scoring never runs out of stack or memory.

A graph beyond a limit is an invalid graph (mrp-score scores it as empty, or
refuses it as gold) with a message naming the limit; mrp-validate reports it.
The limits are far above real data (MRP 2019/2020, AMR and UMR corpora):

- a property or attribute value (or ``anchorings``, ``targets``, ``version``)
  nested at most :data:`MAX_DEPTH` levels deep (values are strings in the
  format; a deeper list makes the scorers' ``str()`` recurse past Python's limit);
- at most :data:`MAX_ANCHORED` anchored characters of the input in a graph (the
  sum of its anchors' widths inside the input; the scorers turn anchors into
  sets of positions of the input);
- at most :data:`MAX_NODES` nodes and :data:`MAX_EDGES` edges in a graph.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Optional, Tuple

from mrp.graph import Anchor, Graph

MAX_DEPTH = 100
MAX_ANCHORED = 1_000_000
MAX_NODES = 100_000
MAX_EDGES = 1_000_000


def nesting(value: Any, limit: int = MAX_DEPTH) -> int:
    """How deeply lists and objects nest in a JSON value (a string is 0), counted up to ``limit + 1``."""
    deepest = 0
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
            stack.extend((child, depth) for child in item)
    return deepest


def too_deep(value: Any) -> bool:
    """True for a value nested more than :data:`MAX_DEPTH` levels deep."""
    return nesting(value) > MAX_DEPTH


def _too_deep_values(values: Iterable[Any]) -> bool:
    """True when a value of the list is nested too deeply (strings and numbers are skipped fast)."""
    for value in values:
        if isinstance(value, (list, dict)) and too_deep(value):
            return True
    return False


def _width(spans: Optional[Iterable[Anchor]], n: int) -> int:
    """The characters of an input of length ``n`` that anchors cover, counted once per anchor."""
    width = 0
    for start, end in spans or ():
        if end > n:
            end = n
        if start < 0:
            start = 0
        if end > start:
            width += end - start
    return width


def limit_problems(graph: Graph) -> Iterator[Tuple[str, str]]:
    """(where, message) for each limit the graph is beyond (at most one per node or edge).

    Anchors count only with an input: the scorers clip anchors to the input and
    expand them into positions only when there is one (without input an anchor
    is compared as its two numbers).
    """
    if len(graph.nodes) > MAX_NODES:
        yield "", f"has {len(graph.nodes):,} nodes (at most {MAX_NODES:,} are read)"
    if len(graph.edges) > MAX_EDGES:
        yield "", f"has {len(graph.edges):,} edges (at most {MAX_EDGES:,} are read)"
    deep = f"is nested more than {MAX_DEPTH} levels deep"
    for name in ("targets", "version"):
        if too_deep(getattr(graph, name)):
            yield "", f"'{name}' {deep}"
    n = len(graph.input) if graph.input else 0
    anchored = 0
    for node in graph.nodes:
        if (node.values and _too_deep_values(node.values)
                or node.anchorings is not None and too_deep(node.anchorings)):
            yield f"node {node.id}", f"a property value {deep}"
        if n and node.anchors:
            anchored += _width(node.anchors, n)
    for k, edge in enumerate(graph.edges):
        if edge.values and _too_deep_values(edge.values):
            yield f"edge {k}", f"an attribute value {deep}"
        if n and edge.anchors:
            anchored += _width(edge.anchors, n)
    if anchored > MAX_ANCHORED:
        yield "", f"anchors cover {anchored:,} characters of the input (at most {MAX_ANCHORED:,} are read)"


def limit_problem(graph: Graph) -> Optional[str]:
    """The first limit the graph is beyond, as one message, or None."""
    for where, message in limit_problems(graph):
        return f"{where}: {message}" if where else message
    return None
