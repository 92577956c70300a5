"""Whether an --errors entry describes the graph about to be drawn (the gold graph it was scored as).

The differences of ``mrp-score --errors`` name gold nodes for what is missing
and system nodes for what is surplus.  Drawn on any other graph with the same
id (the system graph, or another version of the gold), the colours would land
on the wrong nodes, so such a graph is refused: every gold node the entry
names must exist and carry the missing label or property, and no surplus label
may sit on the gold node it is mapped to (it would have matched).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional

from mrp.errors import FormatError
from mrp.graph import Graph
from mrp.normalize import lower, normalize


def _same(a: Any, b: Any) -> bool:
    return str(a).lower() == str(b).lower()


def _listed(entry: Mapping[str, Any], kind: str, side: str, size: int = 0) -> List[Any]:
    """The entries of one list of the differences (only those of ``size`` items, when given)."""
    block = entry.get(kind)
    items = block.get(side) if isinstance(block, Mapping) else None
    if not isinstance(items, list):
        return []
    if not size:
        return items
    return [item for item in items if isinstance(item, (list, tuple)) and len(item) == size]


def _anchor(value: Any) -> Any:
    """An anchor identity as the --errors file lists it (sorted positions, or span pairs)."""
    if isinstance(value, frozenset):
        return sorted(value)
    return [list(span) for span in value] if isinstance(value, tuple) else value


def mismatch(graph: Graph, entry: Mapping[str, Any]) -> Optional[str]:
    """Why ``entry`` cannot describe ``graph`` drawn as the gold graph, or None.

    Checked on the graph as the metric normalizes it: each gold node named
    exists and carries what is missing, and nothing surplus would sit on the
    gold node (or edge) it is mapped to while that already carries it.
    """
    normal = normalize(graph)
    at: Dict[Any, int] = {node_id: k for k, node_id in enumerate(normal.node_ids)}
    mapped: Dict[Any, int] = {}
    for pair in entry.get("correspondences") or []:
        if isinstance(pair, (list, tuple)) and len(pair) == 2:
            if pair[0] not in at:
                return f"it maps node {pair[0]}, which the graph lacks"
            mapped[pair[1]] = at[pair[0]]
    for top in _listed(entry, "tops", "missing"):
        if top not in at or not normal.tops[at[top]]:
            return f"node {top} is not a top of the graph"
    for node, label in _listed(entry, "labels", "missing", 2):
        if node not in at or not _same(normal.labels[at[node]], label):
            return f"node {node} does not carry the missing label '{label}'"
    for node, label in _listed(entry, "labels", "surplus", 2):
        if node in mapped and _same(normal.labels[mapped[node]], label):
            return f"the surplus label '{label}' would sit on a node that carries it"
    for node, name, value in _listed(entry, "properties", "missing", 3):
        if node not in at or (_low(name), _low(value)) not in normal.properties[at[node]]:
            return f"node {node} does not carry the missing property {name} = {value}"
    for node, anchors in _listed(entry, "anchors", "missing", 2):
        if node not in at or _anchor(normal.anchors[at[node]]) != anchors:
            return f"node {node} does not carry the missing anchors"
    for node, anchors in _listed(entry, "anchors", "surplus", 2):
        if node in mapped and _anchor(normal.anchors[mapped[node]]) == anchors:
            return "surplus anchors would sit on a node that carries them"
    for source, target, label in _listed(entry, "edges", "missing", 3):
        if (at.get(source), at.get(target), _low(label)) not in normal.edges:
            return f"the missing edge {source} -{label}-> {target} is not in the graph"
    for source, target, label in _listed(entry, "edges", "surplus", 3):
        if (mapped.get(source), mapped.get(target), _low(label)) in normal.edges:
            return f"the surplus edge {label} would sit on an edge of the graph that carries it"
    return None


def _low(value: Any) -> Optional[str]:
    return None if value is None else lower(value)


def _entry(errors: Mapping[str, Any], graph: Graph) -> Optional[Mapping[str, Any]]:
    own = errors.get(graph.framework) if graph.framework is not None else None
    tables = [own] if own is not None else list(errors.values())
    for table in tables:
        if isinstance(table, Mapping) and isinstance(table.get(graph.id), Mapping):
            return table[graph.id]  # type: ignore[no-any-return]
    return None


def drawable(graphs: Iterable[Graph], errors: Mapping[str, Any],
             refuse: Callable[[FormatError], None]) -> List[Graph]:
    """The graphs whose --errors entry (if any) describes them; each other graph is refused."""
    kept = []
    for graph in graphs:
        entry = _entry(errors, graph)
        problem = mismatch(graph, entry) if entry is not None else None
        if problem is None:
            kept.append(graph)
        else:
            refuse(FormatError(f"the --errors entry does not describe this graph as gold ({problem}); "
                               "draw the GOLD file that was scored", None, None, graph.id, graph.framework))
    return kept
