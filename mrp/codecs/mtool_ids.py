"""mtool's reading of an MRP graph with a duplicated node id (``ReadOptions.mtool``: ``mrp-mtool``).

mtool keeps such a graph: its nodes are a list, and every edge and top names the first node of an id (its
``find_node``), so a later node of the same id is a node nothing names.  mrp reads it as such a node, under
a fresh id, and lists the renumbering in the graph's repairs; :func:`renumbered` counts those nodes again
for the figures where mtool's graph differs from that reading (its search of the components visits an id
once, so the later node never starts a component of its own: :func:`mrp.report.analysis.analyze`).
"""

from __future__ import annotations

from typing import List, Set

from mrp.graph import Graph

__all__ = ["fresh_ids", "renumbered"]

#: the start and the end of the repair line of a renumbered node
_START, _END = "duplicate node id ", " (as mtool)"


def fresh_ids(graph: Graph) -> List[str]:
    """Give each later node of a duplicated id a fresh id (one above the largest), in place.

    Args:
        graph: a graph as read, whose edges and tops name the first node of an id.

    Returns:
        One repair line per renumbered node (none when no id repeats).
    """
    seen: Set[int] = set()
    fresh = max((node.id for node in graph.nodes), default=-1) + 1
    repairs = []
    for node in graph.nodes:
        if node.id in seen:
            repairs.append(f"{_START}{node.id}: the later node read as node {fresh}{_END}")
            node.id = fresh
            fresh += 1
        seen.add(node.id)
    return repairs


def renumbered(graph: Graph) -> int:
    """How many nodes of a graph :func:`fresh_ids` renumbered (0 for a graph not read so).

    Args:
        graph: a graph as read.

    Returns:
        The number of its repair lines that name a renumbered node.
    """
    return sum(line.startswith(_START) and line.endswith(_END) for line in graph.repairs or ())
