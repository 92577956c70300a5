"""A Problem with few candidates, its arrays listed in Python first, is the Problem the numpy passes build:
the same arrays, value for value and type for type."""

from __future__ import annotations

import random
from typing import Dict, Hashable, List, Tuple

import numpy as np
import pytest

from mrp.solver import problem as built
from mrp.solver.problem import Problem, from_triples


def _side(rng: random.Random, n: int, labels: str) -> Tuple[List[Dict[Hashable, int]],
                                                            Dict[Tuple[int, int, Hashable], int]]:
    local = [{("instance", rng.choice("abc")): rng.choice((1, 1, 2))} for _ in range(n)]
    relations: Dict[Tuple[int, int, Hashable], int] = {}
    for _ in range(rng.randrange(3 * n + 1)):
        a, b = rng.randrange(n), rng.randrange(n)
        relations[(a, b, rng.choice(labels))] = rng.choice((1, 1, 3))  # loops too (a == b)
    return local, relations


def _same(few: Problem, passes: Problem) -> None:
    assert few.complete == passes.complete
    for name, ours, theirs in zip(Problem._fields, few, passes):
        if isinstance(ours, np.ndarray):
            assert ours.dtype == theirs.dtype == np.int64, name
            assert ours.shape == theirs.shape and np.array_equal(ours, theirs), name


def test_few_candidates_give_the_arrays_of_the_numpy_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(7)
    listed = 0
    for _ in range(400):
        labels = rng.choice(("r", "rs", "rst"))
        (local_g, rel_g), (local_s, rel_s) = (_side(rng, rng.randrange(1, 9), labels),
                                              _side(rng, rng.randrange(1, 9), labels))
        few = from_triples(local_g, local_s, rel_g, rel_s)
        with monkeypatch.context() as patch:
            patch.setattr(built, "_FEW_CANDIDATES", -1)
            passes = from_triples(local_g, local_s, rel_g, rel_s)
        _same(few, passes)
        listed += few.cc.shape[0] > 0
    assert listed > 200  # most cases have candidates to list


def test_more_candidates_than_few_take_the_numpy_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    local = [{("instance", "a"): 1} for _ in range(30)]
    relations = {(a, b, "r"): 1 for a in range(30) for b in range(30) if a != b}
    called: List[int] = []
    monkeypatch.setattr(built, "_few", lambda *args: called.append(1))
    problem = from_triples(local, local, relations, relations)
    assert problem.cc.shape[0] > built._FEW_CANDIDATES and not called
