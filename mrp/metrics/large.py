"""Large pairs the search leaves open: the linear-time map (:mod:`mrp.solver.greedy`) when it matches more
tuples than the search's."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

from mrp.metrics.tuples import count
from mrp.normalize import NormalGraph
from mrp.solver import greedy

__all__ = ["greedy_start", "improved"]

#: a linear-time map with the tuples it matches
Start = Tuple[List[int], int]


def greedy_start(gold: NormalGraph, system: NormalGraph) -> Optional[Start]:
    """:func:`mrp.solver.greedy.correspondence`'s map and the tuples it matches, for a pair of more than
    ``greedy.START_CELLS`` node pairs (else None): made before the search, on the pair's own clock, so that
    nothing but counting is left after its time is up.

    Args:
        gold: the gold graph, normalized.
        system: the system graph, normalized.

    Returns:
        (map, tuples matched), or None.
    """
    if len(gold) * len(system) <= greedy.START_CELLS:
        return None
    mapping = greedy.correspondence(gold, system)
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
