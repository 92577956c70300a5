"""Large pairs the search leaves open: the linear-time map (:mod:`mrp.solver.greedy`) when it matches more
tuples than the search's."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

from mrp.metrics.tuples import count
from mrp.normalize import NormalGraph
from mrp.solver import greedy

__all__ = ["improved", "started"]


def improved(gold: NormalGraph, system: NormalGraph, solution: Any) -> Any:
    """``solution`` (a :class:`mrp.solver.solve.Solution`), or, when it is not proved optimal and
    :func:`started` finds a map that matches more, the same with that map (its value and bound raised to
    what it matches when the Solution counts edges; a bound is a bound of every map).

    Args:
        gold: the gold graph, normalized.
        system: the system graph, normalized.
        solution: the search's answer.

    Returns:
        The answer to report.
    """
    found = None if solution.exact else started(gold, system, solution)
    if found is None:
        return solution
    mapping, c = found
    if not solution.complete:  # its value counts node rewards only; the caller counts the map itself
        return solution._replace(mapping=mapping)
    return solution._replace(mapping=mapping, value=c, bound=max(solution.bound, c))


def started(gold: NormalGraph, system: NormalGraph, solution: Any) -> Optional[Tuple[List[int], int]]:
    """:func:`mrp.solver.greedy.correspondence`'s map and the tuples it matches, when the pair has more
    than ``greedy.START_CELLS`` node pairs and the map matches more than ``solution.mapping``; else None.

    Args:
        gold: the gold graph, normalized.
        system: the system graph, normalized.
        solution: the search's answer (anything with a ``mapping``), not proved optimal.

    Returns:
        (map, tuples matched), or None.
    """
    if len(gold) * len(system) <= greedy.START_CELLS:
        return None
    mapping = greedy.correspondence(gold, system)
    found = _matched(gold, system, mapping)
    return (mapping, found) if found > _matched(gold, system, solution.mapping) else None


def _matched(gold: NormalGraph, system: NormalGraph, mapping: Sequence[int]) -> int:
    return int(count(gold, system, list(mapping))["all"][2])
