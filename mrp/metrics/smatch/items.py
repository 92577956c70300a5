"""A SMATCH pair's item from its alignment (what :mod:`~mrp.metrics.smatch.metric` and scoring together,
:mod:`~mrp.metrics.smatch.together`, share): the triples a map matches, the bound of a search that did not
end, the item, and the driver's result of an item."""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, Sequence

from mrp.engine import PairCounts
from mrp.errors import ScoreError
from mrp.metrics.smatch.penman import Local, Relations
from mrp.solver import Coded, Solution

__all__ = ["copies", "filled", "matched", "most", "most_copies", "pair_counts"]


def matched(mapping: List[int], local_g: Local, local_s: Local, rel_g: Relations, rel_s: Relations) -> int:
    """The triples matched under a map, counted directly from the triples (a check on the solver)."""
    count = 0
    for i, j in enumerate(mapping):
        if j >= 0:
            for key, copies in local_g[i].items():
                count += copies * local_s[j].get(key, 0)
    for (a, b, key), copies in rel_g.items():
        c, d = mapping[a], mapping[b]
        if c >= 0 and d >= 0:
            count += copies * rel_s.get((c, d, key), 0)
    return count


def most(local_g: Local, rel_g: Relations, local_s: Local, rel_s: Relations) -> int:
    """An upper bound of the triples any map matches: a triple's copies a and b match at most a * b
    (:func:`most_copies` of the triples' copies)."""
    return most_copies([c for triples in local_g for c in triples.values()] + list(rel_g.values()),
                       [c for triples in local_s for c in triples.values()] + list(rel_s.values()))


def most_copies(gold: Sequence[int], system: Sequence[int]) -> int:
    """An upper bound of the triples any map matches, of each side's copies per triple: a triple's copies a
    and b match at most a * b.

    Cauchy-Schwarz over the copies (the identity of a graph with itself reaches
    it), and at most the larger count per triple (which gives min(g, s) for sets).
    """
    if not gold or not system:
        return 0
    squares = math.isqrt(sum(c * c for c in gold) * sum(c * c for c in system))
    return min(squares, sum(gold) * max(system), sum(system) * max(gold))


def filled(gid: str, g: int, s: int, c: int, solution: Solution, mapping: bool,
            most_of: Callable[[], int]) -> Dict[str, Any]:
    """A pair's item from its Solution and the triples its map matches, counted apart (``c``): an internal
    error where the solver's value disagrees; the bound of a pair whose search did not end is ``most_of()``
    (:func:`most`)."""
    if solution.complete and c != solution.value:
        raise ScoreError(f"graph {gid}: internal error: solver value {solution.value} disagrees with the "
                         "triples matched")
    bound = solution.bound if solution.complete else most_of()
    item: Dict[str, Any] = {"g": g, "s": s, "c": c, "exact": solution.exact, "bound": bound,
                            "steps": solution.steps}
    if mapping:
        item["mapping"] = [int(j) for j in solution.mapping]
    if solution.cut:
        item["cut"] = solution.cut
    if solution.note:
        item["note"] = solution.note
    if solution.gap is not None:
        item["gap"] = solution.gap
    return item


def copies(coded: Coded) -> List[int]:
    """The copies of each triple of a graph coded (its rows' counts)."""
    return list(coded.local[2::3]) + list(coded.relations[3::4])


def pair_counts(item: Dict[str, Any]) -> PairCounts:
    """The driver's result of a pair's item."""
    return PairCounts({(): (item["g"], item["s"], item["c"])}, exact=item["exact"], bound=item["bound"],
                      steps=item["steps"], cut=item.get("cut"), errors=item.get("differences"),
                      note=item.get("note"), detail=item.get("detail"),
                      extra={"gap": item["gap"]} if "gap" in item else {})
