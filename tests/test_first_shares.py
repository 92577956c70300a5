"""The root's first shares (mrp.solver.kernel.first_shares): each edge candidate's weight split between its
two node pairs by what each could collect (gold degree x system degree x candidates held), and the solve
exact from them (brute force)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np

from mrp.solver import mip
from mrp.solver.kernel import first_shares, settle, solve
from mrp.solver.potential import SCALE
from mrp.solver.problem import with_edges

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_handover import brute, random_problem  # noqa: E402


def test_the_end_that_could_collect_more_takes_more_of_the_weight() -> None:
    # gold a -> b, a -> c, a -> d, d -> e, the same edges on the system side (A .. E), each label once: every
    # gold edge has one candidate, its own copy.  Degrees a 3, b 1, c 1, d 2, e 1 on both sides; the node
    # pairs hold candidates (a, A) 3, (d, D) 2, the others 1.  So a -> b splits 3*3*3 : 1 = 27 : 1,
    # a -> d 27 : 2*2*2 = 27 : 8, d -> e 8 : 1.
    edges = {(0, 1, "p"): 1, (0, 2, "q"): 1, (0, 3, "r"): 1, (3, 4, "s"): 1}
    problem = with_edges(np.zeros((5, 5), np.int64), edges, edges, None)
    share = first_shares(problem, 5, 5)
    expected = {(0, 1): SCALE * 27 // 28, (0, 2): SCALE * 27 // 28, (0, 3): SCALE * 27 // 35,
                (3, 4): SCALE * 8 // 9}
    assert share.shape == problem.cw.shape == (4,)
    for e in range(problem.src.shape[0]):
        q = int(problem.cptr[e])
        assert problem.cptr[e + 1] == q + 1 and int(problem.cw[q]) == 1
        assert share[q] == expected[int(problem.src[e]), int(problem.tgt[e])]


def test_the_middle_of_a_path_takes_most_of_both_edges() -> None:
    # a path a -> b -> c against the same path (A -> B -> C): (b, B) holds both candidates and b and B have
    # two edges each, so b's end takes 8 of 9 parts of each edge's weight
    edges = {(0, 1, "p"): 2, (1, 2, "q"): 2}
    problem = with_edges(np.zeros((3, 3), np.int64), edges, edges, None)
    share = first_shares(problem, 3, 3)
    for e in range(problem.src.shape[0]):
        for q in range(problem.cptr[e], problem.cptr[e + 1]):
            assert 0 <= share[q] <= int(problem.cw[q]) * SCALE
    # a share is the source end's: b is the target of a -> b and the source of b -> c
    whole = 4 * SCALE
    into_b = [int(problem.cptr[e]) for e in range(2) if problem.tgt[e] == 1]
    out_of_b = [int(problem.cptr[e]) for e in range(2) if problem.src[e] == 1]
    assert [int(share[q]) for q in into_b] == [whole * 1 // 9]
    assert [int(share[q]) for q in out_of_b] == [whole * 8 // 9]


def test_with_larger_rewards_the_root_bounds_the_optimum_and_the_solve_is_exact() -> None:
    # rewards up to 3, brute force on every map: the root's bound (no search) is at
    # least the optimum, its map worth what it says, and the whole solve is exact
    rng = random.Random(64)
    for _ in range(300):
        problem = random_problem(rng, rng.randint(1, 6), rng.randint(1, 6), labels=rng.choice((1, 2)))
        problem = problem._replace(U=problem.U * np.array(
            [[rng.choice((1, 2, 3)) for _ in range(problem.U.shape[1])] for _ in range(problem.U.shape[0])],
            np.int64))
        stop, no_seed = np.zeros(1, np.int64), np.zeros(0, np.int64)
        optimum = brute(problem)
        best, bound, pi, _, _ = settle(problem, 100, stop, no_seed, 0)
        assert bound >= optimum >= best == mip.value_of(problem, pi)
        value, top, _, exact, _ = solve(problem, 1_000_000, 100, stop, no_seed)
        assert exact and value == top == optimum


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
