"""The plain-Python exact search (mrp.solver.small) equals a brute force over every allowed map, and its
bound bounds every map, on small random problems."""

from __future__ import annotations

import itertools
import random
from typing import Dict, Hashable, Tuple

import numpy as np
import pytest

from mrp.solver import small
from mrp.solver.problem import with_edges


def _problem(seed: int) -> Tuple[object, np.ndarray]:
    rng = random.Random(seed)
    n, m = rng.randint(1, 5), rng.randint(1, 5)
    U = np.array([[rng.choice([0, 0, 1, 2, 3]) for _ in range(m)] for _ in range(n)], np.int64)
    allowed = np.array([[rng.random() < 0.6 for _ in range(m)] for _ in range(n)], bool)
    U[~allowed] = 0
    gold: Dict[Tuple[int, int, Hashable], int] = {}
    system: Dict[Tuple[int, int, Hashable], int] = {}
    for edges, size in ((gold, n), (system, m)):
        for _ in range(rng.randint(0, 6)):
            a, b = rng.randrange(size), rng.randrange(size)
            if a != b:
                edges[(a, b, rng.choice("xy"))] = rng.randint(1, 2)
    problem = small.from_problem(with_edges(U, gold, system, min), allowed)
    return problem, allowed


@pytest.mark.parametrize("seed", range(200))
def test_small_search_equals_brute_force(seed: int) -> None:
    problem, allowed = _problem(seed)
    n, m = allowed.shape
    best = 0
    bound = small.upper_bound(problem)  # type: ignore[arg-type]
    for choice in itertools.product(*[[-1] + [j for j in range(m) if allowed[i, j]] for i in range(n)]):
        used = [j for j in choice if j >= 0]
        if len(used) != len(set(used)):
            continue
        value = small.value(problem, list(choice))  # type: ignore[arg-type]
        assert value <= bound
        best = max(best, value)
    found = small.search(problem, [-1] * n, 100000)  # type: ignore[arg-type]
    assert found is not None and found.value == best
    assert small.value(problem, found.mapping) == best  # type: ignore[arg-type]
    assert all(j < 0 or allowed[i, j] for i, j in enumerate(found.mapping))


def test_small_search_gives_up_past_its_budget() -> None:
    problem, allowed = _problem(3)
    assert small.search(problem, [-1] * allowed.shape[0], 1) is None  # type: ignore[arg-type]
