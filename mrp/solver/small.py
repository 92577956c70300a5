"""Exact search for small, sparse Problems in plain Python (no compiled kernels to load): a depth-first
search over the gold nodes' allowed partners with an optimistic bound, within a budget of steps.

Where a pair's allowed node pairs are few (the UMR comparator's rule allows only nodes that share aligned
tokens), this settles most pairs before the kernels would have loaded; what it cannot settle within its
budget goes to the branch and bound as usual.
"""

from __future__ import annotations

from typing import Dict, List, NamedTuple, Optional, Tuple

import numpy as np

from mrp.solver.problem import Problem


class Found(NamedTuple):
    """A proved optimum: the map (gold position -> system position or -1), its value, search steps."""

    mapping: List[int]
    value: int
    steps: int


def value(problem: Problem, mapping: List[int]) -> int:
    """The objective of a map: node rewards plus each gold edge whose ends map onto a candidate."""
    total = sum(int(problem.U[i, j]) for i, j in enumerate(mapping) if j >= 0)
    for e in range(problem.src.shape[0]):
        c, d = mapping[int(problem.src[e])], mapping[int(problem.tgt[e])]
        if c < 0 or d < 0:
            continue
        for k in range(int(problem.cptr[e]), int(problem.cptr[e + 1])):
            if problem.cc[k] == c and problem.cd[k] == d:
                total += int(problem.cw[k])
                break
    return total


def upper_bound(problem: Problem) -> int:
    """Each gold node's best reward plus each gold edge's best candidate (and the same over system
    nodes): the smaller sum bounds every map's value."""
    n, m = problem.U.shape
    if n == 0 or m == 0:
        return 0
    edges = _edge_best(problem)
    return int(min(problem.U.max(axis=1).clip(min=0).sum(), problem.U.max(axis=0).clip(min=0).sum())
               + sum(edges))


def _edge_best(problem: Problem) -> List[int]:
    out = []
    for e in range(problem.src.shape[0]):
        start, end = int(problem.cptr[e]), int(problem.cptr[e + 1])
        out.append(int(problem.cw[start:end].max()) if end > start else 0)
    return out


def search(problem: Problem, allowed: np.ndarray, start: List[int], budget: int) -> Optional[Found]:
    """The optimum over maps that pair only ``allowed`` nodes, from the map ``start``; None when the
    budget of steps runs out first."""
    n, m = problem.U.shape
    best_map = list(start)
    best = value(problem, best_map)
    if n == 0 or m == 0:
        return Found(best_map, best, 0)
    U = problem.U
    options: List[List[int]] = []
    for i in range(n):
        partners = [int(j) for j in np.nonzero(allowed[i])[0]]
        partners.sort(key=lambda j: -int(U[i, j]))
        options.append(partners)
    order = sorted(range(n), key=lambda i: len(options[i]))
    rank = {node: k for k, node in enumerate(order)}
    # each gold edge is decided when the later of its ends (in search order) is placed
    owned: List[List[Tuple[int, int, Dict[Tuple[int, int], int]]]] = [[] for _ in range(n)]
    edge_best = _edge_best(problem)
    rest = [0] * (n + 1)
    for e in range(problem.src.shape[0]):
        a, b = int(problem.src[e]), int(problem.tgt[e])
        later = a if rank[a] >= rank[b] else b
        table = {(int(problem.cc[k]), int(problem.cd[k])): int(problem.cw[k])
                 for k in range(int(problem.cptr[e]), int(problem.cptr[e + 1]))}
        if table:
            owned[later].append((a, b, table))
            rest[rank[later]] += edge_best[e]
    for k, node in enumerate(order):
        rest[k] += max([int(U[node, j]) for j in options[node]] + [0])
    for k in range(n - 1, -1, -1):
        rest[k] += rest[k + 1]
    mapping = [-1] * n
    used = [False] * m
    steps = 0

    def gain(i: int, j: int) -> int:
        total = int(U[i, j])
        for a, b, table in owned[i]:
            c, d = mapping[a], mapping[b]
            if c >= 0 and d >= 0:
                total += table.get((c, d), 0)
        return total

    def visit(k: int, current: int) -> bool:
        nonlocal best, best_map, steps
        steps += 1
        if steps > budget:
            return False
        if k == n:
            if current > best:
                best, best_map = current, list(mapping)
            return True
        if current + rest[k] <= best:
            return True
        i = order[k]
        for j in options[i]:
            if used[j]:
                continue
            mapping[i], used[j] = j, True
            finished = visit(k + 1, current + gain(i, j))
            mapping[i], used[j] = -1, False
            if not finished:
                return False
        return visit(k + 1, current)

    if not visit(0, 0):
        return None
    return Found(best_map, best, steps)
