"""The root's hill-climb (mrp.solver.incumbent.improve) on tiny random Problems: the objective it returns
is its map's (kept up to date move by move, not counted again), and ending once the map reaches a bound of
every map (the root's; here the brute-force optimum) leaves the map the whole climb ends with."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np

from mrp.solver import NO_BOUND
from mrp.solver.arrays import index
from mrp.solver.incumbent import improve, objective

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_handover import brute, random_problem  # noqa: E402


def _random_map(rng: random.Random, n: int, m: int) -> np.ndarray:
    columns = rng.sample(range(m), min(n, m)) + [-1] * max(0, n - m)
    rng.shuffle(columns)
    return np.array([j if rng.random() < 0.7 else -1 for j in columns], np.int64)


def test_the_climb_returns_its_maps_objective_and_keeps_it_a_map() -> None:
    rng = random.Random(64)
    stop = np.zeros(1, np.int64)
    for _ in range(300):
        problem = random_problem(rng, rng.randint(1, 5), rng.randint(1, 5), labels=rng.choice((1, 2)))
        n, m = problem.U.shape
        ix = index(problem)
        pi = _random_map(rng, n, m)
        start = int(objective(pi, problem))
        value = improve(pi, m, problem, ix, 50, stop, start, NO_BOUND)
        assert value == objective(pi, problem) >= start
        assert len({j for j in pi.tolist() if j >= 0}) == sum(1 for j in pi.tolist() if j >= 0)


def test_ending_at_the_bound_leaves_the_map_the_whole_climb_ends_with() -> None:
    rng = random.Random(65)
    stop = np.zeros(1, np.int64)
    ended = 0
    for _ in range(300):
        problem = random_problem(rng, rng.randint(1, 4), rng.randint(1, 4), labels=rng.choice((1, 2)))
        n, m = problem.U.shape
        ix = index(problem)
        pi = _random_map(rng, n, m)
        start = int(objective(pi, problem))
        whole, short = pi.copy(), pi.copy()
        best = brute(problem)
        assert improve(whole, m, problem, ix, 50, stop, start, NO_BOUND) == \
            improve(short, m, problem, ix, 50, stop, start, best)
        assert whole.tolist() == short.tolist()
        ended += objective(whole, problem) == best
    assert ended > 100  # the early end was reached often
