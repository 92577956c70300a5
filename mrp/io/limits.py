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

from dataclasses import dataclass
from typing import Any, Iterable, Iterator, List, Optional, Tuple

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


@dataclass(frozen=True)
class ContentLimits:
    """What a graph's content fields (:data:`~mrp.graph.TEXT_FIELDS`: nodes, edges, ...) alone tell of its
    limits: the same for every graph sharing those objects (a text read once, :mod:`mrp.codecs.repeats`)."""

    #: (where, message) for too many nodes, too many edges
    counts: Tuple[Tuple[str, str], ...]
    #: (where, message) for each node, then each edge, with a value nested too deeply
    values: Tuple[Tuple[str, str], ...]
    #: every anchor of the nodes, then of the edges (what anchors cover depends on the input's length)
    anchors: Tuple[Anchor, ...]


def _counts(graph: Graph) -> Tuple[Tuple[str, str], ...]:
    """(where, message) for too many nodes, too many edges."""
    counts = []
    if len(graph.nodes) > MAX_NODES:
        counts.append(("", f"has {len(graph.nodes):,} nodes (at most {MAX_NODES:,} are read)"))
    if len(graph.edges) > MAX_EDGES:
        counts.append(("", f"has {len(graph.edges):,} edges (at most {MAX_EDGES:,} are read)"))
    return tuple(counts)


#: the content limits of a graph within every one
_WITHIN = ContentLimits((), (), ())


def within_counts(nodes: int, edges: int) -> bool:
    """Whether a graph of so many nodes and edges is within the limits of its counts.

    Args:
        nodes: its nodes.
        edges: its edges.

    Returns:
        Whether neither is beyond its limit.
    """
    return nodes <= MAX_NODES and edges <= MAX_EDGES


def plain_limits(graph: Graph) -> ContentLimits:
    """:func:`content_limits` of a graph whose values are strings and that has no anchors (a graph read
    from plain Penman text): only its counts can be beyond a limit.

    Args:
        graph: the graph.

    Returns:
        Its :class:`ContentLimits`.
    """
    if within_counts(len(graph.nodes), len(graph.edges)):
        return _WITHIN
    return ContentLimits(_counts(graph), (), ())


def content_limits(graph: Graph) -> ContentLimits:
    """The limits a graph's content fields are beyond, and its anchors.

    Args:
        graph: the graph.

    Returns:
        Its :class:`ContentLimits` (for :func:`limit_problems`).
    """
    counts = _counts(graph)
    deep = f"is nested more than {MAX_DEPTH} levels deep"
    values = []
    anchors: List[Anchor] = []
    for node in graph.nodes:
        if (node.values and _too_deep_values(node.values)
                or node.anchorings is not None and too_deep(node.anchorings)):
            values.append((f"node {node.id}", f"a property value {deep}"))
        if node.anchors:
            anchors.extend(node.anchors)
    for k, edge in enumerate(graph.edges):
        if edge.values and _too_deep_values(edge.values):
            values.append((f"edge {k}", f"an attribute value {deep}"))
        if edge.anchors:
            anchors.extend(edge.anchors)
    return ContentLimits(counts, tuple(values), tuple(anchors))


def limit_problems(graph: Graph, content: Optional[ContentLimits] = None) -> Iterator[Tuple[str, str]]:
    """(where, message) for each limit the graph is beyond (at most one per node or edge).

    Anchors count only with an input: the scorers clip anchors to the input and
    expand them into positions only when there is one (without input an anchor
    is compared as its two numbers).

    Args:
        graph: the graph.
        content: :func:`content_limits` of the graph's content fields, when known (a graph of a text read
            before shares them); else found here.

    Returns:
        The problems, in order: counts, ``targets`` and ``version``, values, anchors.
    """
    if content is None:
        content = content_limits(graph)
    yield from content.counts
    for name in ("targets", "version"):
        value = getattr(graph, name)
        if value is not None and too_deep(value):
            yield "", f"'{name}' is nested more than {MAX_DEPTH} levels deep"
    yield from content.values
    n = len(graph.input) if graph.input else 0
    anchored = _width(content.anchors, n) if n else 0
    if anchored > MAX_ANCHORED:
        yield "", f"anchors cover {anchored:,} characters of the input (at most {MAX_ANCHORED:,} are read)"


def limit_problem(graph: Graph, content: Optional[ContentLimits] = None) -> Optional[str]:
    """The first limit the graph is beyond, as one message, or None.

    Args:
        graph: the graph.
        content: as for :func:`limit_problems`.

    Returns:
        The message (``where: message``), or None within every limit.
    """
    if (content is not None and not (content.counts or content.values or content.anchors)
            and graph.targets is None and graph.version is None):
        return None  # nothing of the graph's own can be beyond a limit (a text read before, most often)
    for where, message in limit_problems(graph, content):
        return f"{where}: {message}" if where else message
    return None
