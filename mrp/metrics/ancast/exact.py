"""The proved-optimal alignment for AnCast's own objective, by the project's branch and bound.

The objective is the labeled relation score (the LRM numerator, the same on
the precision and the recall side, so that maximising it maximises LRM P, R
and F at once), ties broken by the summed concept similarity.  A relation
pair ``(p, l, a)`` ~ ``(p', l, a')`` under the map is worth
``(sim(p, p') + sim(a, a')) / 2``; a relation to a constant is a node reward,
a relation between two nodes an edge-match weight.

**Integers without losing exactness.**  Every name similarity is
``(short/long) * (10 or 9)/10`` for string lengths ``short <= long``, so with
``G = 10 * lcm(long)`` over the pair's similarities, ``4G * weight`` is an
exact integer and the LRM numerator of every map is an integer multiple of
``1 / (4G)``.  The tie-break (concept similarity, rounded to ``1/T``) is
summed over at most ``min(n, m)`` pairs, so it stays below ``K = min(n, m) *
T + 1``; the solver maximises ``K * (4G * LRM) + tie-break``, and any
difference in LRM outweighs every tie-break.  When ``G`` would overflow the
solver's 64-bit budget, the weights are rounded at ``2G = SCALE_CAP`` instead
and the pair says ``rounded`` and is not reported ``exact`` (its LRM is then optimal
up to ``m / SCALE_CAP`` for ``m`` relation pairs).
"""

from __future__ import annotations

from math import gcd
from typing import Dict, List, Optional, Tuple, cast

import numpy as np

from mrp.metrics.ancast.reading import View
from mrp.metrics.ancast.similarity import Similarity
from mrp.solver import Solution, solve_problem, with_edges

#: The objective must stay below this (the solver scales by 64 and keeps 2**60 as infinity).
BUDGET = 1 << 52
#: 2G when the exact denominator is too large.
SCALE_CAP = 2 * 10**7
#: The finest tie-break resolution tried.
TIE_SCALE = 10**6


def _lcm(values: List[int]) -> int:
    out = 1
    for value in values:
        out = out * value // gcd(out, value)
        if out > 10**15:
            break
    return out


def _denominators(test: View, gold: View, sim: Similarity) -> List[int]:
    """The reduced denominators ``long / gcd(short, long)`` of the nonzero, non-one name similarities."""
    found = set()
    for i, j in zip(*np.nonzero(sim.names)):
        short, long = sorted((len(test.names[i]), len(gold.names[j])))
        if short != long:
            found.add(long // gcd(short, long))
    return sorted(found)


class Objective:
    """Integer weights of one pair: ``names[i, j] = 2G * sim(i, j)``, so a relation pair is worth
    ``names[p, p'] + names[a, a']`` in units of ``1 / (4G)`` (``scale = 2G``)."""

    def __init__(self, test: View, gold: View, sim: Similarity, exact: bool = True) -> None:
        # exact integer weights where the sense factor is a whole number of tenths (AnCast's 0.9 among them)
        exact = exact and abs(10 * (1 - sim.sense) - round(10 * (1 - sim.sense))) < 1e-9
        self.exact = exact
        if exact:
            tenths = round(10 * (1 - sim.sense))
            lcm = _lcm(_denominators(test, gold, sim))
            self.scale = 20 * lcm
            same = np.equal.outer(np.array(test.senses, np.int64), np.array(gold.senses, np.int64))
            whole = np.zeros(sim.names.shape, np.int64)
            for i, j in zip(*np.nonzero(sim.names)):
                one, two = test.names[i], gold.names[j]
                short, long = sorted((len(one), len(two)))
                factor = 10 if same[i, j] else tenths
                whole[i, j] = 2 * (lcm * short // long if long else lcm) * factor
            self.names = whole
        else:
            self.scale = SCALE_CAP
            self.names = np.rint(sim.names * SCALE_CAP).astype(np.int64)

    def constant(self) -> int:
        """The weight of two equal constants (similarity 1)."""
        return self.scale


def _rewards(test: View, gold: View, objective: Objective) -> Tuple[np.ndarray, Dict, Dict]:
    """Node rewards from relations with a constant end and loops; node-node relations keyed for the solver."""
    n, m = len(test), len(gold)
    U = np.zeros((n, m), np.int64)
    names = objective.names
    one = objective.constant()
    rel_t: Dict[Tuple[int, int, str], Tuple[int, int]] = {}
    rel_g: Dict[Tuple[int, int, str], Tuple[int, int]] = {}
    by_constant: Dict[Tuple[str, str, bool], List[int]] = {}
    for head, label, tail in gold.relations:
        if isinstance(head, int) and isinstance(tail, int):
            rel_g[(head, tail, label)] = (head, tail)
        elif isinstance(head, int):
            by_constant.setdefault((label, str(tail), True), []).append(head)
        elif isinstance(tail, int):
            by_constant.setdefault((label, str(head), False), []).append(tail)
    for head, label, tail in test.relations:
        if isinstance(head, int) and isinstance(tail, int):
            rel_t[(head, tail, label)] = (head, tail)
        elif isinstance(head, int):
            for j in by_constant.get((label, str(tail), True), ()):
                U[head, j] += names[head, j] + one
        elif isinstance(tail, int):
            for j in by_constant.get((label, str(head), False), ()):
                U[tail, j] += names[tail, j] + one
    # relations are sets: in a fixed order, the solver picks the same map among equally good ones in
    # every process (string hashing differs between processes)
    return U, dict(sorted(rel_t.items())), dict(sorted(rel_g.items()))


class ExactResult:
    """The optimal map (test -> gold) and what the solver proved about it."""

    def __init__(self, solution: Solution, objective: Objective, factor: int) -> None:
        self.mapping: List[int] = solution.mapping
        #: proved optimal for the exact (not rounded) objective
        self.exact = solution.exact and objective.exact
        self.cut = solution.cut
        self.steps = solution.steps
        #: False when the clock stopped building the Problem: ``lr`` and ``bound`` then count node rewards
        #: only (the caller counts the map itself, and bounds it otherwise)
        self.complete = solution.complete
        #: 2G: the LRM numerator is a multiple of 1 / (2 * scale)
        self.scale = objective.scale
        self.rounded = not objective.exact
        #: the LRM numerator found, and its proved upper bound
        self.lr = (solution.value // factor) / (2 * objective.scale)
        self.bound = (solution.bound // factor) / (2 * objective.scale)


def _magnitude(U: np.ndarray, names: np.ndarray, edges: int) -> int:
    """An upper bound on the objective before the tie-break factor."""
    return int(U.sum()) + 2 * (int(names.max()) if names.size else 0) * max(edges, 1) + 1


def solve(test: View, gold: View, sim: Similarity, limit: Optional[int] = None,
          timeout: Optional[float] = None, handover: bool = True) -> ExactResult:
    """The alignment maximising the LRM numerator (ties: concept similarity), proved optimal unless cut."""
    pairs = max(min(len(test), len(gold)), 1)
    objective = Objective(test, gold, sim)
    U, rel_t, rel_g = _rewards(test, gold, objective)
    if _magnitude(U, objective.names, len(rel_t)) * (pairs + 1) > BUDGET:
        objective = Objective(test, gold, sim, exact=False)
        U, rel_t, rel_g = _rewards(test, gold, objective)
    largest = _magnitude(U, objective.names, len(rel_t))
    tie = TIE_SCALE
    while tie > 1 and largest * (pairs * tie + 1) > BUDGET:
        tie //= 10
    factor = pairs * tie + 1
    names = cast(List[List[int]], (objective.names * factor).tolist())

    def weight(mine: Tuple[int, int], theirs: Tuple[int, int]) -> int:
        return names[mine[0]][theirs[0]] + names[mine[1]][theirs[1]]

    rewards = U * factor + np.rint(sim.initial * tie).astype(np.int64)  # the tie-break: concept similarity
    solution = solve_problem(lambda stop: with_edges(rewards, rel_t, rel_g, weight, stop), limit, timeout,
                             handover=handover)
    return ExactResult(solution, objective, factor)
