"""The MRP metric's tuples: counting them under a node correspondence.

Gold node ``i`` has identity ``i``; a system node matched to gold node ``i``
shares it, every other system node ``j`` gets ``n + j``.  Six tuple sets per
graph (tops, labels, properties, anchors, edges, attributes); per type
``g = |gold|``, ``s = |system|``, ``c = |gold & system|``.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence, Set, Tuple

from mrp.normalize import NormalGraph

TYPES = ("tops", "labels", "properties", "anchors", "edges", "attributes")


def tuple_sets(graph: NormalGraph, identity: Sequence[int]) -> Dict[str, Set[Tuple[Any, ...]]]:
    """The six tuple sets of a normalized graph, nodes named by ``identity[position]``."""
    tops: Set[Tuple[Any, ...]] = set()
    labels: Set[Tuple[Any, ...]] = set()
    properties: Set[Tuple[Any, ...]] = set()
    anchors: Set[Tuple[Any, ...]] = set()
    edges: Set[Tuple[Any, ...]] = set()
    attributes: Set[Tuple[Any, ...]] = set()
    for k, (top, label, pairs, anchor) in enumerate(zip(graph.tops, graph.labels, graph.properties,
                                                          graph.anchors)):
        node = identity[k]
        if top:
            tops.add((node,))
        if label is not None:
            labels.add((node, label))
        for name, value in pairs:
            properties.add((node, name, value))
        if anchor is not None:
            anchors.add((node, anchor))
    for (source, target, label), values in graph.edges.items():
        a, b = identity[source], identity[target]
        edges.add((a, b, label))
        for name, value in values:
            attributes.add((a, b, label, name, value))
    return {"tops": tops, "labels": labels, "properties": properties, "anchors": anchors, "edges": edges,
            "attributes": attributes}


def identities(n: int, m: int, mapping: Sequence[int]) -> Tuple[List[int], List[int]]:
    """Gold and system identities for a map from gold positions to system positions (-1: none)."""
    gold = list(range(n))
    system = [n + j for j in range(m)]
    for i, j in enumerate(mapping):
        if j >= 0:
            system[j] = i
    return gold, system


def count(gold: NormalGraph, system: NormalGraph, mapping: Sequence[int]) -> Dict[str, Tuple[int, int, int]]:
    """Per type (g, s, c) under a map from gold positions to system positions, and ``all``."""
    gid, sid = identities(len(gold), len(system), mapping)
    gsets, ssets = tuple_sets(gold, gid), tuple_sets(system, sid)
    counts: Dict[str, Tuple[int, int, int]] = {}
    total = [0, 0, 0]
    for name in TYPES:
        g, s = gsets[name], ssets[name]
        triple = (len(g), len(s), len(g & s))
        counts[name] = triple
        for k in range(3):
            total[k] += triple[k]
    counts["all"] = (total[0], total[1], total[2])
    return counts


def _show(value: Any) -> Any:
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple):
        return [list(span) if isinstance(span, tuple) else span for span in value]
    return value


def differences(gold: NormalGraph, system: NormalGraph, mapping: Sequence[int]) -> Dict[str, Any]:
    """The --errors entry of a pair: the correspondence (node ids) and, per type, the
    missing gold tuples (gold ids) and surplus system tuples (system ids)."""
    n = len(gold)
    gid, sid = identities(n, len(system), mapping)
    gsets, ssets = tuple_sets(gold, gid), tuple_sets(system, sid)
    back = {}
    for j in range(len(system)):
        back[sid[j]] = system.node_ids[j]
    entry: Dict[str, Any] = {
        "correspondences": [
            [gold.node_ids[i], system.node_ids[j]] for i, j in enumerate(mapping) if j >= 0
        ]
    }
    for name in TYPES:
        missing = sorted((_render(t, gold.node_ids.__getitem__, name) for t in gsets[name] - ssets[name]),
                         key=repr)
        surplus = sorted((_render(t, back.__getitem__, name) for t in ssets[name] - gsets[name]), key=repr)
        if missing or surplus:
            item: Dict[str, Any] = {}
            if missing:
                item["missing"] = missing
            if surplus:
                item["surplus"] = surplus
            entry[name] = item
    return entry


def _render(t: Tuple[Any, ...], node_id: Any, name: str) -> Any:
    if name == "tops":
        return node_id(t[0])
    if name in ("edges", "attributes"):
        return [node_id(t[0]), node_id(t[1])] + [_show(x) for x in t[2:]]
    return [node_id(t[0])] + [_show(x) for x in t[1:]]
