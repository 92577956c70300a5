"""A Problem's answer without the search, in numpy: a greedy map of the node rewards, the value of a map,
and the trivial bound (no potentials, no assignment).

What :func:`mrp.solver.solve.solve_problem` answers for a pair whose plain-Python kernels were abandoned
past its time cap (``MRP_COMPILE=plain``: :mod:`mrp.solver.plain`), where the root has no bound yet.  Each
takes time linear in the Problem's arrays (``n x m`` rewards, the candidates), in numpy.
"""

from __future__ import annotations

from typing import List, Tuple

import numpy as np

from mrp.solver.problem import Problem

__all__ = ["answer", "bound", "rewards_map", "value"]


def value(problem: Problem, mapping: np.ndarray) -> int:
    """The objective of a map (the kernels' ``objective``): its rewards and the weights of the candidate
    edges it matches.

    Args:
        problem: the Problem.
        mapping: gold node -> system node or -1, injective (int64[n]).

    Returns:
        The value.
    """
    pi = np.asarray(mapping, np.int64)
    rows = np.nonzero(pi >= 0)[0]
    total = int(problem.U[rows, pi[rows]].sum())
    if problem.cw.shape[0]:
        sizes = np.diff(problem.cptr)
        # a gold edge's ends' images against each of its candidates (at most one matches: they are distinct)
        hit = np.repeat(pi[problem.src], sizes) == problem.cc
        hit &= np.repeat(pi[problem.tgt], sizes) == problem.cd
        total += int(problem.cw[hit].sum())
    return total


def bound(problem: Problem) -> int:
    """An upper bound of every map's value: the smaller of the sums of the rewards' row and column maxima
    (each gold and each system node is matched once at most), plus the smaller of the sums of each gold
    edge's and each system edge's heaviest candidate (a system edge is the image of one gold edge at most:
    gold edges differ in their ends or their label).

    Args:
        problem: the Problem.

    Returns:
        The bound (0 for an empty side).
    """
    U = problem.U
    if not U.size:
        return 0
    rewards = min(int(np.maximum(U.max(axis=1), 0).sum()), int(np.maximum(U.max(axis=0), 0).sum()))
    if not problem.cw.shape[0]:
        return rewards
    sizes = np.diff(problem.cptr)
    gold = int(np.maximum.reduceat(problem.cw, problem.cptr[:-1][sizes > 0]).sum())
    system = np.zeros(problem.ssrc.shape[0], np.int64)
    np.maximum.at(system, problem.cf, problem.cw)
    return rewards + min(gold, int(system.sum()))


def rewards_map(problem: Problem) -> np.ndarray:
    """A greedy map of the node rewards (the kernels' ``greedy`` on ``U``): gold nodes in order of their best
    reward take their best system node still free, when it is worth something.

    Args:
        problem: the Problem.

    Returns:
        The map, gold node -> system node or -1 (int64[n]).
    """
    U = problem.U
    n, m = U.shape
    pi = np.full(n, -1, np.int64)
    if not n or not m:
        return pi
    best = U.max(axis=1)
    free = np.ones(m, np.bool_)
    for i in np.argsort(-best, kind="stable").tolist():
        if best[i] <= 0:
            break
        row = np.where(free, U[i], 0)
        j = int(row.argmax())
        if row[j] > 0:
            pi[i] = j
            free[j] = False
    return pi


def answer(problem: Problem, seed: np.ndarray) -> Tuple[List[int], int, int]:
    """The better of the rewards' greedy map and ``seed`` (when it is a map of the Problem), with its value,
    and the trivial bound.

    Args:
        problem: the Problem.
        seed: a map to start from (a document's sentence by sentence), or an empty array.

    Returns:
        (map, value, bound).
    """
    best = rewards_map(problem)
    found = value(problem, best)
    if seed.shape[0] == problem.U.shape[0]:
        start = value(problem, seed)
        if start > found:
            best, found = np.asarray(seed, np.int64), start
    return best.tolist(), found, bound(problem)
