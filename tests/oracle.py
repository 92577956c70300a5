"""A brute-force reference for the MRP metric, written from its definition.

Only the value rules of ``mrp.normalize`` are reused (lowercasing, edge
direction and default attributes, anchor union/trimming/explosion: each is
tested on its own in ``test_normalize.py``/``test_rules.py``); which tuples a
graph has, and which of them match under a correspondence, is derived here by
its own route, independent of ``mrp.metrics.mrp.tuples``: every tuple is a *fact*
naming node positions in fixed slots, and a gold fact matches when the fact
with its nodes carried over by the map is a system fact.  Everything here is
meant to be read, not to be fast.

Definition.  Given the gold graph G, the system graph S and an injective
partial map ``pi`` from gold node positions to system node positions, each
graph has six sets of facts (tops, labels, properties, anchors, edges,
attributes).  Per type, g = |gold facts|, s = |system facts|, c = the number of
gold facts whose image under ``pi`` is a system fact; "all" adds the six.
The MRP score of the pair uses the map with the largest "all" c.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, permutations
from math import comb, perm
from typing import Dict, Iterator, List, Optional, Sequence, Set, Tuple

from mrp.graph import Graph
from mrp.normalize import explode, lower, normal_edge, normalize_anchors

TYPES = ("tops", "labels", "properties", "anchors", "edges", "attributes")
KEYS = TYPES + ("all",)
#: for each type, which slots of its facts hold node positions
NODE_SLOTS = {"tops": (0,), "labels": (0,), "properties": (0,), "anchors": (0,), "edges": (0, 1),
              "attributes": (0, 1)}

#: A map from gold positions to system positions: entry i is pi(i), or None.
Map = Tuple[Optional[int], ...]
Counts = Dict[str, Tuple[int, int, int]]
Facts = Dict[str, Set[tuple]]


def facts(graph: Graph) -> Facts:
    """The six fact sets of a graph, nodes named by their position in ``graph.nodes``."""
    position = {node.id: k for k, node in enumerate(graph.nodes)}
    found: Facts = {key: set() for key in TYPES}
    for top in graph.tops:
        found["tops"].add((position[top],))
    for k, node in enumerate(graph.nodes):
        if node.label is not None:
            found["labels"].add((k, lower(node.label)))
        for name, value in zip(node.properties, node.values):
            found["properties"].add((k, lower(name), lower(value)))
        spans = normalize_anchors(node.anchors, graph.input)
        if spans is not None:
            found["anchors"].add((k, explode(spans, graph.input)))
    for edge in graph.edges:
        source, target, label, attributes = normal_edge(edge)
        a, b = position[source], position[target]
        found["edges"].add((a, b, label))
        for name, value in attributes:
            found["attributes"].add((a, b, label, name, value))
    return found


def carried(fact: tuple, slots: Tuple[int, ...], pi: Map) -> Optional[tuple]:
    """The fact with its node positions carried over by ``pi``; None when one of its nodes is unmapped."""
    image = list(fact)
    for slot in slots:
        j = pi[fact[slot]]
        if j is None:
            return None
        image[slot] = j
    return tuple(image)


def compare(gold: Facts, system: Facts, pi: Map) -> Counts:
    """(g, s, c) per type under ``pi``, and their sums as "all"."""
    counts: Counts = {}
    for key in TYPES:
        c = sum(carried(fact, NODE_SLOTS[key], pi) in system[key] for fact in gold[key])
        counts[key] = (len(gold[key]), len(system[key]), c)
    counts["all"] = tuple(sum(counts[key][k] for key in TYPES) for k in range(3))  # type: ignore[assignment]
    return counts


def check_map(gold: Graph, system: Graph, pi: Map) -> None:
    assert len(pi) == len(gold.nodes)
    used = [j for j in pi if j is not None]
    assert len(used) == len(set(used)), f"map {pi} is not injective"
    assert all(0 <= j < len(system.nodes) for j in used), f"map {pi} leaves the system graph"


def count(gold: Graph, system: Graph, pi: Map) -> Counts:
    """(g, s, c) per tuple type and for "all", when gold node position i corresponds to ``pi[i]``."""
    check_map(gold, system, pi)
    return compare(facts(gold), facts(system), pi)


def count_maps(n: int, m: int, maximal_only: bool = False) -> int:
    """How many maps :func:`maps` yields for n gold and m system nodes."""
    if maximal_only:
        k = min(n, m)
        return comb(n, k) * perm(m, k)
    return sum(comb(n, k) * perm(m, k) for k in range(min(n, m) + 1))


def maps(n: int, m: int, maximal_only: bool = False) -> Iterator[Map]:
    """Every injective partial map from range(n) to range(m).

    With ``maximal_only``, only the maps that pair min(n, m) nodes.  That is
    enough for the optimum, because pairing two more (so far unmatched) nodes
    keeps every tuple that already matched (tuples of the two nodes had
    identities of their own and matched nothing) and can only add matches;
    ``test_oracle.py`` also checks the two enumerations against each other.
    """
    sizes = [min(n, m)] if maximal_only else range(min(n, m) + 1)
    for k in sizes:
        for golds in combinations(range(n), k):
            for systems in permutations(range(m), k):
                pi: List[Optional[int]] = [None] * n
                for i, j in zip(golds, systems):
                    pi[i] = j
                yield tuple(pi)


@dataclass
class Optimum:
    """The brute-force answer for a pair: the best "all" c, one map reaching it, and its counts.

    ``counts[key][:2]`` (g and s) do not depend on the map; ``counts[key][2]`` is
    the c of ``best_map`` (another optimal map may split the same total differently).
    """

    best: int
    best_map: Map
    counts: Counts
    maps: int


def optimum(gold: Graph, system: Graph, maximal_only: bool = False) -> Optimum:
    """Try every map and keep the first with the largest "all" c."""
    best: Optional[Optimum] = None
    tried = 0
    ours, theirs = facts(gold), facts(system)
    for pi in maps(len(gold.nodes), len(system.nodes), maximal_only):
        tried += 1
        counts = compare(ours, theirs, pi)
        if best is None or counts["all"][2] > best.best:
            best = Optimum(counts["all"][2], pi, counts, 0)
    assert best is not None  # the empty map is always there
    best.maps = tried
    return best


def recount(gold: Graph, system: Graph, correspondence: Sequence[Tuple[int, int]]) -> Counts:
    """The counts under a correspondence given as (gold node id, system node id) pairs."""
    gold_position = {node.id: k for k, node in enumerate(gold.nodes)}
    system_position = {node.id: k for k, node in enumerate(system.nodes)}
    pi: List[Optional[int]] = [None] * len(gold.nodes)
    for gold_id, system_id in correspondence:
        i, j = gold_position[gold_id], system_position[system_id]
        assert pi[i] is None, f"gold node {gold_id} is paired twice"
        pi[i] = j
    return count(gold, system, tuple(pi))
