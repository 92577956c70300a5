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
    """Per type (g, s, c) under a map from gold positions to system positions, and ``all``: the sizes of
    :func:`tuple_sets` and of their intersections, counted without making the sets."""
    matched = [j for j in mapping if j >= 0]
    if len(set(matched)) != len(matched):  # not one-to-one: only the sets say what a system node is
        return _counted_sets(gold, system, mapping)
    stops, slabels, sproperties, sanchors, sedges = (system.tops, system.labels, system.properties,
                                                     system.anchors, system.edges)
    tops = labels = properties = anchors = 0
    for i, j in enumerate(mapping):
        if j >= 0:
            if gold.tops[i] and stops[j]:
                tops += 1
            label = gold.labels[i]
            if label is not None and label == slabels[j]:
                labels += 1
            if gold.properties[i]:
                properties += len(gold.properties[i] & sproperties[j])
            anchor = gold.anchors[i]
            if anchor is not None and anchor == sanchors[j]:
                anchors += 1
    edges = attributes = 0
    size = len(mapping)
    for (a, b, label), values in gold.edges.items():
        c = mapping[a] if a < size else -1
        d = mapping[b] if b < size else -1
        if c >= 0 and d >= 0:
            theirs = sedges.get((c, d, label))
            if theirs is not None:
                edges += 1
                if values:
                    attributes += len(values & theirs)
    counts = {
        "tops": (sum(gold.tops), sum(stops), tops),
        "labels": (_given(gold.labels), _given(slabels), labels),
        "properties": (sum(map(len, gold.properties)), sum(map(len, sproperties)), properties),
        "anchors": (_given(gold.anchors), _given(sanchors), anchors),
        "edges": (len(gold.edges), len(sedges), edges),
        "attributes": (sum(map(len, gold.edges.values())), sum(map(len, sedges.values())), attributes),
    }
    counts["all"] = _total(counts)
    return counts


def _given(values: Sequence[Any]) -> int:
    """How many values are not None."""
    return len(values) - list(values).count(None)


def _total(counts: Dict[str, Tuple[int, int, int]]) -> Tuple[int, int, int]:
    total = [0, 0, 0]
    for name in TYPES:
        for k, value in enumerate(counts[name]):
            total[k] += value
    return total[0], total[1], total[2]


def _counted_sets(gold: NormalGraph, system: NormalGraph,
                  mapping: Sequence[int]) -> Dict[str, Tuple[int, int, int]]:
    """:func:`count` from the tuple sets themselves (the definition; any map)."""
    gid, sid = identities(len(gold), len(system), mapping)
    gsets, ssets = tuple_sets(gold, gid), tuple_sets(system, sid)
    counts: Dict[str, Tuple[int, int, int]] = {}
    for name in TYPES:
        g, s = gsets[name], ssets[name]
        counts[name] = (len(g), len(s), len(g & s))
    counts["all"] = _total(counts)
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
