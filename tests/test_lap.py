"""The assignment kernels (mrp.solver.lap) against brute force on small random matrices: the value, the map
it comes with, the reduced costs (every assignment through (i, j) is worth at most value - slack[i, j]),
and warm starts from the last assignment's duals (the root's rounds): a cold start solves the matrix as it
is, rectangular, and hands the padded square's duals on; any start gives the optimum."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mrp.solver.lap import assignment, rows_assignment, warm


def _best(B: np.ndarray) -> int:
    """The maximum-weight assignment's value, by trying every one."""
    n, m = B.shape
    if n <= m:
        return max((sum(int(B[i, p[i]]) for i in range(n)) for p in itertools.permutations(range(m), n)),
                   default=0)
    return _best(B.T.copy())


def _through(B: np.ndarray, i: int, j: int) -> int:
    """The best assignment that uses (i, j)."""
    rest = np.delete(np.delete(B, i, 0), j, 1)
    return int(B[i, j]) + _best(rest)


def _checked(B: np.ndarray, done: bool, value: int, col: np.ndarray, slack: np.ndarray) -> None:
    assert done
    assert value == _best(B)
    taken = [int(j) for j in col if j >= 0]
    assert len(taken) == len(set(taken))
    assert sum(int(B[i, col[i]]) for i in range(B.shape[0]) if col[i] >= 0) == value
    for i in range(slack.shape[0]):
        for j in range(slack.shape[1]):
            assert slack[i, j] >= 0
            assert _through(B, i, j) <= value - slack[i, j], (B, i, j)


@pytest.mark.parametrize("seed", range(4))
def test_a_cold_assignment_is_optimal_with_valid_reduced_costs(seed: int) -> None:
    rng = np.random.default_rng(seed)
    stop = np.zeros(1, np.int64)
    for _ in range(300):
        n, m = (int(x) for x in rng.integers(0, 7, 2))
        B = (rng.integers(0, 9, (n, m)) * (rng.random((n, m)) < 0.6)).astype(np.int64)
        _checked(B, *assignment(B, stop, True))


@pytest.mark.parametrize("seed", range(4))
def test_warm_starts_from_the_last_rounds_duals_stay_optimal(seed: int) -> None:
    """Rounds of a matrix that changes a little, each from the duals and matching the last one left (the
    first cold: rectangular, the others on the padded square from its duals)."""
    rng = np.random.default_rng(100 + seed)
    stop = np.zeros(1, np.int64)
    for _ in range(150):
        n, m = (int(x) for x in rng.integers(1, 7, 2))
        v = np.zeros(max(n, m) + 1, np.int64)
        match = np.zeros(max(n, m) + 1, np.int64)
        B = rng.integers(0, 9, (n, m)).astype(np.int64)
        for _ in range(6):
            _checked(B, *warm(B, stop, True, v, match))
            B = np.maximum(0, B + rng.integers(-2, 3, (n, m)) * (rng.random((n, m)) < 0.4))


@pytest.mark.parametrize("shape", [(3, 6), (6, 3), (5, 5), (1, 7), (7, 1)])
def test_a_cold_start_hands_on_the_padded_squares_optimal_duals(shape: tuple) -> None:
    """The duals and matching a cold start leaves prove the same matrix at once: the warm start keeps every
    pair (each still tight) and augments nothing, so they are those of the padded square's optimum."""
    rng = np.random.default_rng(7)
    stop = np.zeros(1, np.int64)
    n, m = shape
    N = max(n, m)
    for _ in range(50):
        B = rng.integers(1, 9, (n, m)).astype(np.int64)
        v = np.zeros(N + 1, np.int64)
        match = np.zeros(N + 1, np.int64)
        _, value, _, _ = warm(B, stop, False, v, match)
        top = int(B.max())
        cost = np.full((N + 1, N + 1), top, np.int64)
        cost[1:n + 1, 1:m + 1] = top - B
        assert sorted(match[1:].tolist()) == list(range(1, N + 1))  # a perfect matching of the square
        u = (cost[1:, 1:] - v[None, 1:]).min(axis=1)
        reduced = cost[1:, 1:] - u[:, None] - v[None, 1:]
        assert (reduced >= 0).all()
        assert all(reduced[match[j] - 1, j - 1] == 0 for j in range(1, N + 1))
        again = warm(B, stop, False, v, match)
        assert again[1] == value == _best(B)


def test_rows_assignment_is_optimal() -> None:
    rng = np.random.default_rng(3)
    for _ in range(200):
        n = int(rng.integers(0, 4))
        m = int(rng.integers(n, 7))
        B = rng.integers(0, 9, (n, m)).astype(np.int64)
        assert rows_assignment(B) == _best(B)
