"""Large pairs the search leaves open: the linear-time map (:mod:`mrp.solver.greedy`) when it matches more
tuples than the search's."""

from __future__ import annotations

from typing import Any, Dict, FrozenSet, Hashable, List, Mapping, Optional, Sequence, Set, Tuple

from mrp.metrics.mrp.tuples import count
from mrp.normalize import NormalGraph
from mrp.solver import START_CELLS, clock, correspondence, timed_correspondence
from mrp.solver import time_left as left
from mrp.solver import time_spent as spent

__all__ = ["COUNT_SECONDS", "COUNT_SHARE", "beyond", "deadline", "greedy_start", "improved",
           "triple_graph"]

#: seconds of counting per node and edge of a pair (both graphs), kept back from a pair's time for counting
#: the map after the linear-time map stops: counting the 100,000-node pair (600,000 nodes and edges) took
#: 0.5 s of CPU, 0.5 to 1.7 s of wall time on a loaded 2-core machine; this keeps 0.9 s, and the half
#: second a pair may run past its --timeout covers the rest
COUNT_SECONDS = 1.5e-6
#: ... and at least this share of the time the pair has taken so far (normalizing it, mostly: counting takes
#: about 0.6 of normalizing's CPU), so that the reserve grows with the load of the machine the pair runs on
COUNT_SHARE = 0.75

#: a linear-time map with the tuples it matches
Start = Tuple[List[int], int]


def deadline(timeout: Optional[float], gold: NormalGraph, system: NormalGraph) -> Optional[float]:
    """The :func:`mrp.solver.watchdog.clock` time at which the linear-time map of a pair must stop so that
    counting its tuples (:data:`COUNT_SECONDS` per node and edge, or :data:`COUNT_SHARE` of the time the pair
    took so far when more) ends within the pair's ``timeout`` (counted from the pair's start: normalizing
    and building count); None: no cap."""
    remaining = left(timeout)
    if remaining is None:
        return None
    size = len(gold) + len(system) + len(gold.edges) + len(system.edges)
    return clock() + remaining - max(COUNT_SECONDS * size, COUNT_SHARE * spent())


def beyond(gold: NormalGraph, system: NormalGraph, timeout: Optional[float]) -> Any:
    """The Solution of a pair whose node-pair arrays would exceed its memory cap: the linear-time map, cut
    as "limit" (a size limit: the same on any machine), or as "timeout" when the pair's time ran out first
    (the map made by then), with the trivial bound (counted by the caller: ``complete`` is False)."""
    from mrp.solver import Solution

    mapping, stopped = timed_correspondence(gold, system, deadline(timeout, gold, system))
    return Solution(mapping, 0, 0, False, 0, "timeout" if stopped else "limit", False)


def greedy_start(gold: NormalGraph, system: NormalGraph, timeout: Optional[float] = None) -> Optional[Start]:
    """:func:`mrp.solver.greedy.correspondence`'s map and the tuples it matches, for a pair of more than
    ``START_CELLS`` node pairs (else None): made before the search, on the pair's own clock, so that
    nothing but counting is left after its time is up.

    Args:
        gold: the gold graph, normalized.
        system: the system graph, normalized.
        timeout: the pair's time cap (the map stops in time to be counted within it; None: no cap).

    Returns:
        (map, tuples matched), or None.
    """
    if len(gold) * len(system) <= START_CELLS:
        return None
    mapping = correspondence(gold, system, deadline(timeout, gold, system))
    return mapping, _matched(gold, system, mapping)


def improved(gold: NormalGraph, system: NormalGraph, solution: Any, start: Optional[Start]) -> Any:
    """``solution`` (a :class:`mrp.solver.solve.Solution`), or, when it is not proved optimal and the
    ``start`` of :func:`greedy_start` matches more, the same with that map (its value and bound raised to
    what it matches when the Solution counts edges; a bound is a bound of every map).

    Args:
        gold: the gold graph, normalized.
        system: the system graph, normalized.
        solution: the search's answer.
        start: :func:`greedy_start`'s, or None.

    Returns:
        The answer to report.
    """
    if start is None or solution.exact:
        return solution
    mapping, c = start
    searched = solution.value if solution.complete else _matched(gold, system, solution.mapping)
    if c <= searched:
        return solution
    if not solution.complete:  # its value counts node rewards only; the caller counts the map itself
        return solution._replace(mapping=mapping)
    return solution._replace(mapping=mapping, value=c, bound=max(solution.bound, c))


def _matched(gold: NormalGraph, system: NormalGraph, mapping: Sequence[int]) -> int:
    return int(count(gold, system, list(mapping))["all"][2])


def triple_graph(local: Sequence[Mapping[Hashable, int]], relations: Mapping[Tuple[int, int, Hashable], int]
                 ) -> NormalGraph:
    """SMATCH's triples of a graph (each node's own triples, the relations between nodes) as the normal
    graph :func:`mrp.solver.greedy.correspondence` reads: a node's ``instance`` triple its label, its other
    own triples its properties, each relation an edge (labelled with the whole relation key)."""
    labels: List[Optional[str]] = []
    properties: List[FrozenSet[Tuple[str, str]]] = []
    for triples in local:
        label = None
        rest = []
        for key in triples:
            if label is None and isinstance(key, tuple) and len(key) == 2 and key[0] == "instance":
                label = str(key[1])
            else:
                rest.append(key)
        labels.append(label)
        properties.append(frozenset(rest))  # type: ignore[arg-type]
    n = len(local)
    edges: Dict[Any, Set[Tuple[str, str]]] = {key: set() for key in relations}
    return NormalGraph("", None, None, list(range(n)), [False] * n, labels, properties, [None] * n, edges)
