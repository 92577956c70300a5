"""A brute-force reference for the MRP metric, written from its definition.

Only ``mrp.normalize`` is reused (normalization is tested elsewhere); the tuple
counting and the search over node correspondences are independent of
``mrp.score``.  Everything here is meant to be read, not to be fast.

Definition.  Given the normalized gold graph G, the normalized system graph S
and an injective partial map ``pi`` from gold node positions to system node
positions, every matched pair (i, pi(i)) gets one shared identity and every
other node an identity of its own.  Each graph then contributes six sets of
tuples (tops, labels, properties, anchors, edges, attributes).  Per type,
g = |gold set|, s = |system set|, c = |gold set & system set|; "all" adds the
six.  The MRP score of the pair uses the map with the largest "all" c.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, permutations
from math import comb, perm
from typing import Dict, Hashable, Iterator, List, Optional, Sequence, Set, Tuple

from mrp.graph import Graph
from mrp.normalize import NormalGraph, normalize

TYPES = ("tops", "labels", "properties", "anchors", "edges", "attributes")
KEYS = TYPES + ("all",)

#: A map from gold positions to system positions: entry i is pi(i), or None.
Map = Tuple[Optional[int], ...]
Counts = Dict[str, Tuple[int, int, int]]


def tuple_sets(graph: NormalGraph, identity: Sequence[Hashable]) -> Dict[str, Set[tuple]]:
    """The six tuple sets of a graph whose node at position k has identity ``identity[k]``."""
    sets: Dict[str, Set[tuple]] = {key: set() for key in TYPES}
    for k in range(len(graph)):
        node = identity[k]
        if graph.tops[k]:
            sets["tops"].add((node,))
        if graph.labels[k] is not None:
            sets["labels"].add((node, graph.labels[k]))
        for name, value in graph.properties[k]:
            sets["properties"].add((node, name, value))
        if graph.anchors[k] is not None:
            sets["anchors"].add((node, graph.anchors[k]))
    for (source, target, label), attributes in graph.edges.items():
        sets["edges"].add((identity[source], identity[target], label))
        for attribute, value in attributes:
            sets["attributes"].add((identity[source], identity[target], label, attribute, value))
    return sets


def identities(gold: NormalGraph, system: NormalGraph, pi: Map) -> Tuple[List[Hashable], List[Hashable]]:
    """Node identities under ``pi``: shared by matched pairs, unique for everything else.

    A matched gold node simply takes the identity of its system partner, so the
    system identities (and the system tuples) are the same for every map.
    """
    system_identity: List[Hashable] = [("system", j) for j in range(len(system))]
    gold_identity: List[Hashable] = [
        ("gold", i) if j is None else system_identity[j] for i, j in enumerate(pi)
    ]
    return gold_identity, system_identity


def compare(gold_sets: Dict[str, Set[tuple]], system_sets: Dict[str, Set[tuple]]) -> Counts:
    """(g, s, c) per tuple type, and their sums as "all"."""
    counts: Counts = {}
    for key in TYPES:
        counts[key] = (len(gold_sets[key]), len(system_sets[key]), len(gold_sets[key] & system_sets[key]))
    counts["all"] = tuple(sum(counts[key][k] for key in TYPES) for k in range(3))  # type: ignore[assignment]
    return counts


def check_map(gold: NormalGraph, system: NormalGraph, pi: Map) -> None:
    assert len(pi) == len(gold)
    used = [j for j in pi if j is not None]
    assert len(used) == len(set(used)), f"map {pi} is not injective"
    assert all(0 <= j < len(system) for j in used), f"map {pi} leaves the system graph"


def count(gold: NormalGraph, system: NormalGraph, pi: Map) -> Counts:
    """(g, s, c) per tuple type and for "all", when gold position i corresponds to ``pi[i]``."""
    check_map(gold, system, pi)
    gold_identity, system_identity = identities(gold, system, pi)
    return compare(tuple_sets(gold, gold_identity), tuple_sets(system, system_identity))


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
    normal_gold, normal_system = normalize(gold), normalize(system)
    best: Optional[Optimum] = None
    tried = 0
    # The same as count(normal_gold, normal_system, pi), with the system tuples built once.
    _, system_identity = identities(normal_gold, normal_system, ())
    system_sets = tuple_sets(normal_system, system_identity)
    for pi in maps(len(normal_gold), len(normal_system), maximal_only):
        tried += 1
        gold_identity, _ = identities(normal_gold, normal_system, pi)
        counts = compare(tuple_sets(normal_gold, gold_identity), system_sets)
        if best is None or counts["all"][2] > best.best:
            best = Optimum(counts["all"][2], pi, counts, 0)
    assert best is not None  # the empty map is always there
    best.maps = tried
    return best


def recount(gold: Graph, system: Graph, correspondence: Sequence[Tuple[int, int]]) -> Counts:
    """The counts under a correspondence given as (gold node id, system node id) pairs."""
    normal_gold, normal_system = normalize(gold), normalize(system)
    gold_position = {node_id: k for k, node_id in enumerate(normal_gold.node_ids)}
    system_position = {node_id: k for k, node_id in enumerate(normal_system.node_ids)}
    pi: List[Optional[int]] = [None] * len(normal_gold)
    for gold_id, system_id in correspondence:
        i, j = gold_position[gold_id], system_position[system_id]
        assert pi[i] is None, f"gold node {gold_id} is paired twice"
        pi[i] = j
    return count(normal_gold, normal_system, tuple(pi))
