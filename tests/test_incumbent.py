"""The root's hill-climb (mrp.solver.incumbent.improve) on tiny random Problems: the objective it returns
is its map's (kept up to date move by move, not counted again), and ending once the map reaches a bound of
every map (the root's; here the brute-force optimum) leaves the map the whole climb ends with."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Iterator, Tuple

import numpy as np

from mrp.solver import NO_BOUND
from mrp.solver.arrays import index
from mrp.solver.incumbent import improve, objective
from mrp.solver.problem import Problem

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_handover import brute, random_problem  # noqa: E402


def _cases(seed: int, largest: int) -> Iterator[Tuple[Problem, np.ndarray, int]]:
    """300 tiny random Problems, each with a random map and its objective."""
    rng = random.Random(seed)
    for _ in range(300):
        problem = random_problem(rng, rng.randint(1, largest), rng.randint(1, largest),
                                 labels=rng.choice((1, 2)))
        n, m = problem.U.shape
        columns = rng.sample(range(m), min(n, m)) + [-1] * max(0, n - m)
        rng.shuffle(columns)
        pi = np.array([j if rng.random() < 0.7 else -1 for j in columns], np.int64)
        yield problem, pi, int(objective(pi, problem))


def _climbed(problem: Problem, pi: np.ndarray, start: int, top: int) -> int:
    stop = np.zeros(1, np.int64)
    return int(improve(pi, problem.U.shape[1], problem, index(problem), 50, stop, start, top))


def test_the_climb_returns_its_maps_objective_and_keeps_it_a_map() -> None:
    for problem, pi, start in _cases(64, 5):
        value = _climbed(problem, pi, start, NO_BOUND)
        assert value == objective(pi, problem) >= start
        assert len({j for j in pi.tolist() if j >= 0}) == sum(1 for j in pi.tolist() if j >= 0)


def test_ending_at_the_bound_leaves_the_map_the_whole_climb_ends_with() -> None:
    ended = 0
    for problem, pi, start in _cases(65, 4):
        whole, short = pi.copy(), pi.copy()
        best = brute(problem)
        assert _climbed(problem, whole, start, NO_BOUND) == _climbed(problem, short, start, best)
        assert whole.tolist() == short.tolist()
        ended += objective(whole, problem) == best
    assert ended > 100  # the early end was reached often
