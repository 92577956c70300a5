"""Exact search for small, sparse problems in plain Python (no numpy, no compiled kernels to load): a
depth-first search over the gold nodes' allowed partners with an optimistic bound, within a budget of steps.

Where a pair's allowed node pairs are few (the UMR comparator's rule allows only nodes that share aligned
tokens), this settles most pairs before the kernels would have loaded; what it cannot settle within its
budget goes to the branch and bound as usual.
"""

from __future__ import annotations

from typing import Any, Dict, List, NamedTuple, Optional, Tuple

#: a gold edge: its ends, and its candidates (system source, system target) -> weight
Edge = Tuple[int, int, Dict[Tuple[int, int], int]]


class Sparse(NamedTuple):
    """Node rewards ``U[i][j]`` (0 where the pair is not allowed) and gold edges with their candidates."""

    U: List[List[int]]
    edges: List[Edge]
    allowed: List[List[bool]]


class Found(NamedTuple):
    """A proved optimum: the map (gold position -> system position or -1), its value, search steps."""

    mapping: List[int]
    value: int
    steps: int


def from_problem(problem: Any, allowed: Any) -> Sparse:
    """The sparse form of a solver Problem (mrp.solver.problem) restricted to ``allowed`` pairs."""
    n, m = problem.U.shape
    rows = [[bool(allowed[i][j]) for j in range(m)] for i in range(n)]
    U = [[int(problem.U[i, j]) if rows[i][j] else 0 for j in range(m)] for i in range(n)]
    edges: List[Edge] = []
    for e in range(problem.src.shape[0]):
        a, b = int(problem.src[e]), int(problem.tgt[e])
        table = {(int(problem.cc[k]), int(problem.cd[k])): int(problem.cw[k])
                 for k in range(int(problem.cptr[e]), int(problem.cptr[e + 1]))
                 if rows[a][int(problem.cc[k])] and rows[b][int(problem.cd[k])]}
        edges.append((a, b, table))
    return Sparse(U, edges, rows)


def value(problem: Sparse, mapping: List[int]) -> int:
    """The objective of a map: node rewards plus each gold edge whose ends map onto a candidate."""
    total = sum(problem.U[i][j] for i, j in enumerate(mapping) if j >= 0)
    for a, b, table in problem.edges:
        c, d = mapping[a], mapping[b]
        if c >= 0 and d >= 0:
            total += table.get((c, d), 0)
    return total


def upper_bound(problem: Sparse) -> int:
    """Each gold node's best reward plus each gold edge's best candidate (or the same over system nodes):
    the smaller sum bounds every map's value."""
    if not problem.U or not problem.U[0]:
        return 0
    edges = sum(max(table.values(), default=0) for _, _, table in problem.edges)
    rows = sum(max(0, max(row)) for row in problem.U)
    columns = sum(max(0, max(column)) for column in zip(*problem.U))
    return min(rows, columns) + edges


def search(problem: Sparse, start: List[int], budget: int) -> Optional[Found]:
    """The optimum over maps that pair only allowed nodes, from the map ``start``; None when the budget
    of steps runs out first."""
    U = problem.U
    n = len(U)
    m = len(U[0]) if n else 0
    best_map = list(start)
    best = value(problem, best_map)
    if n == 0 or m == 0:
        return Found(best_map, best, 0)
    options = []
    for i in range(n):
        row = U[i]
        options.append(sorted((j for j in range(m) if problem.allowed[i][j]), key=row.__getitem__,
                              reverse=True))
    order = sorted(range(n), key=lambda i: len(options[i]))
    rank = {node: k for k, node in enumerate(order)}
    # each gold edge is decided when the later of its ends (in search order) is placed
    owned: List[List[Edge]] = [[] for _ in range(n)]
    rest = [0] * (n + 1)
    for a, b, table in problem.edges:
        if table:
            later = a if rank[a] >= rank[b] else b
            owned[later].append((a, b, table))
            rest[rank[later]] += max(table.values())
    for k, node in enumerate(order):
        rest[k] += max([U[node][j] for j in options[node]] + [0])
    for k in range(n - 1, -1, -1):
        rest[k] += rest[k + 1]
    mapping = [-1] * n
    used = [False] * m
    steps = 0

    def gain(i: int, j: int) -> int:
        total = U[i][j]
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
