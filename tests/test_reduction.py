"""The root's problem reduction (mrp.solver.reduction) against brute force on small random Problems: a pair
the root rules out is used by no map better than its incumbent, its bound bounds every map, the shares it
hands on give the reduced Problem's potentials wherever a pair is not ruled out; and on merged coli
documents it proves at the root what needed the program before."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_hard_pairs import best_through, random_problem, value  # noqa: E402


def test_a_ruled_out_pair_is_in_no_better_map() -> None:
    from mrp.solver.arrays import index
    from mrp.solver.kernel import fixing, start
    from mrp.solver.potential import potentials, scratch
    from mrp.solver.reduction import reduced

    ruled_somewhere = 0
    for seed in range(400):
        rng = random.Random(seed)
        n, m = rng.randint(3, 5), rng.randint(3, 5)
        problem = random_problem(rng, n, m)
        if problem.cc.shape[0] == 0:
            continue
        ix, sc, stop = index(problem), scratch(m, len(problem.ssrc)), np.zeros(1, np.int64)
        best, bound, pi, share, ruled = start(problem, ix, sc, 700, stop, np.zeros(0, np.int64))
        through, optimum = best_through(problem, n, m)
        assert best == value(problem, tuple(pi)) <= optimum <= bound, seed
        for i, j in zip(*np.nonzero(ruled)):
            assert through[i, j] <= best, f"seed {seed}: {i}->{j} ruled out, a map through it is worth more"
            assert pi[i] != j
        if not ruled.any():
            continue
        ruled_somewhere += 1
        # the whole Problem's shares give the reduced Problem's potentials wherever a pair is not ruled out
        smaller, kept = reduced(problem, ruled)
        whole, part = np.zeros((n, m), np.int64), np.zeros((n, m), np.int64)
        potentials(whole, True, problem, ix, share, sc, stop)
        potentials(part, True, smaller, index(smaller), share[kept], sc, stop)
        assert np.array_equal(whole[~ruled], part[~ruled]), seed
        # fixing after the root keeps the ruled-out pairs and bans only pairs of no better map
        banned = fixing(problem, ix, share, best, stop, sc, ruled)
        assert banned[ruled].all()
        for i, j in zip(*np.nonzero(banned)):
            assert through[i, j] <= best, f"seed {seed}: {i}->{j} banned, a map through it is worth more"
    assert ruled_somewhere >= 10, ruled_somewhere


@pytest.fixture(scope="module")
def coli_document():
    from test_mip import document

    return document


def test_the_root_proves_a_merged_coli_document_that_needed_the_program(coli_document) -> None:
    """Merged coli document 152 of 8 sentences (123 x 117 nodes): without the reduction the root left it
    open, the search did not close it in 1,000 steps and HiGHS's program proved it; now the root alone
    proves it, at the same optimum."""
    from mrp.solver.solve import solve_problem

    solution = solve_problem(coli_document(8, 152))
    assert solution.exact and solution.value == solution.bound == 180
    assert solution.steps == 0 and not solution.mip


def test_a_reduced_problems_index_keeps_the_gold_edges_lists() -> None:
    """The root's rounds after a reduction reuse the Index's lists of gold edges (a reduction leaves out
    rewards and candidates, never a gold edge) and make only the rewards' lists again: the Index that
    :func:`mrp.solver.arrays.index` gives the reduced Problem, list for list."""
    from mrp.solver.arrays import index, positive
    from mrp.solver.reduction import reduced

    checked = 0
    for seed in range(200):
        rng = random.Random(seed)
        n, m = rng.randint(2, 6), rng.randint(2, 6)
        problem = random_problem(rng, n, m)
        ruled = np.array([[rng.random() < 0.3 for _ in range(m)] for _ in range(n)])
        smaller, _ = reduced(problem, ruled)
        whole, fresh = index(problem), index(smaller)
        reused = whole._replace(**dict(zip(("upos", "ucol"), positive(smaller.U))))
        for name, got, wanted in zip(fresh._fields, reused, fresh):
            assert np.array_equal(got, wanted), f"seed {seed}: {name}"
        checked += int(problem.src.shape[0] > 0 and ruled.any())
    assert checked > 50
