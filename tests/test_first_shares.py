"""The root's first shares (mrp.solver.kernel.first_shares): each edge candidate's weight split between its
edge's two gold ends in proportion to their degrees, and the solve exact from them (brute force)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np

from mrp.solver.kernel import first_shares, solve
from mrp.solver.potential import SCALE
from mrp.solver.problem import with_edges

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_handover import brute, random_problem  # noqa: E402


def test_the_end_with_more_edges_takes_more_of_the_weight() -> None:
    # gold a -> b, a -> c, a -> d, d -> e: a has 3 edges, b and c 1, d 2, e 1; the same on the system side
    edges = {(0, 1, "p"): 1, (0, 2, "q"): 1, (0, 3, "r"): 1, (3, 4, "s"): 1}
    problem = with_edges(np.zeros((5, 5), np.int64), edges, edges, None)
    degree = [3, 1, 1, 2, 1]
    share = first_shares(problem, 5)
    assert share.shape == problem.cw.shape
    for e in range(problem.src.shape[0]):
        a, b = int(problem.src[e]), int(problem.tgt[e])
        for q in range(problem.cptr[e], problem.cptr[e + 1]):
            whole = int(problem.cw[q]) * SCALE
            assert share[q] == whole * degree[a] // (degree[a] + degree[b])
            assert 0 <= share[q] <= whole
    # a -> d: 3 of 5; d -> e: 2 of 3; a -> b and a -> c: 3 of 4
    assert sorted(set(share.tolist())) == [SCALE * 3 // 5, SCALE * 2 // 3, SCALE * 3 // 4]


def test_the_solve_from_them_is_exact() -> None:
    rng = random.Random(48)
    for _ in range(300):
        problem = random_problem(rng, rng.randint(1, 6), rng.randint(1, 6), labels=rng.choice((1, 2)))
        n = problem.U.shape[0]
        stop, no_seed = np.zeros(1, np.int64), np.zeros(0, np.int64)
        value, bound, _, exact, pi = solve(problem, 1_000_000, 100, stop, no_seed)
        optimum = brute(problem)
        assert exact and value == bound == optimum
        assert len(pi) == n
