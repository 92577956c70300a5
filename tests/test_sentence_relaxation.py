"""A sentence pair's relaxation bound (mrp.solver.relaxation.sentence_bound, HiGHS in this process):
never below the brute-force optimum, closing what it can, nothing claimed without HiGHS or past its size."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Tuple

import numpy as np
import pytest
from hypothesis import given

from mrp.graph import Graph
from mrp.normalize import normalize
from mrp.solver import mip, relaxation
from mrp.solver import solve as mrp_pair
from mrp.solver.problem import build
from mrp.solver.solve import solve_problem

sys.path.insert(0, str(Path(__file__).parent))
from test_oracle import pairs  # noqa: E402

from conftest import budget  # noqa: E402
from oracle import optimum  # noqa: E402

pytestmark = pytest.mark.skipif(not mip.available(), reason="HiGHS (highspy) is not installed")


@budget(200)
@given(pairs(max_nodes=6))
def test_the_relaxation_bounds_the_brute_force_optimum(pair: Tuple[Graph, Graph]) -> None:
    gold, system = pair
    problem = build(normalize(gold), normalize(system))
    best = optimum(gold, system, maximal_only=True).best
    found = relaxation.sentence_bound(problem)
    assert found is not None and found >= best


@budget(100)
@given(pairs(max_nodes=6))
def test_the_relaxation_hands_on_the_reduced_costs_of_its_duals_both_signs(pair: Tuple[Graph, Graph]) -> None:
    """The reduced costs a sentence relaxation computes once are those of its duals and their negation, its
    bound their lesser one, and fixing with them leaves what fixing from the duals alone leaves."""
    gold, system = pair
    problem = build(normalize(gold), normalize(system))
    found = relaxation.sentence_relaxation(problem)
    assert found is not None
    if found.model is None:
        return
    assert found.duals is not None and found.costs is not None
    rows, reduced = relaxation.reduced_costs(found.model, np.stack([found.duals, -found.duals]))
    assert np.array_equal(found.costs[0], rows) and np.array_equal(found.costs[1], reduced)
    assert found.bound == relaxation.signed_bound(found.model, found.duals)
    value = mip.value_of(problem, found.mapping)
    again = relaxation.fixed(problem, found.model, found.duals, value, found.mapping)
    given_costs = relaxation.fixed(problem, found.model, found.duals, value, found.mapping, found.costs)
    assert all(np.array_equal(a, b) for a, b in zip(again, given_costs))


@budget(100)
@given(pairs(max_nodes=6))
def test_every_pair_relaxed_after_no_search_ends_optimal(pair: Tuple[Graph, Graph]) -> None:
    """With the relaxation tried at once (RELAX_AFTER = 0), every pair still ends at the optimum, proved."""
    gold, system = pair
    best = optimum(gold, system, maximal_only=True).best
    relaxed = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mrp_pair, "RELAX_AFTER", 0)  # relaxed right after the root ...
        patch.setattr(mrp_pair, "handover_steps", lambda problem: 10**6)  # ... then searched, no program
        real = relaxation.sentence_relaxation
        patch.setattr(relaxation, "sentence_relaxation", lambda *args: relaxed.append(1) or real(*args))
        problem = build(normalize(gold), normalize(system))
        solution = solve_problem(problem)
    assert solution.exact and solution.value == solution.bound == best and not solution.mip
    if solution.steps == 0 and relaxed:  # the root left it open, the relaxation closed it
        assert relaxation.sentence_bound(problem) == best


def test_nothing_is_claimed_without_highs_or_past_the_size_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    from test_mip import document

    problem = document(8, 152)
    with monkeypatch.context() as patch:
        patch.setattr(relaxation, "SENTENCE_COLUMNS", 10)
        assert relaxation.sentence_bound(problem) is None
    assert relaxation.sentence_bound(problem._replace(complete=False)) is None
    assert relaxation.sentence_bound(problem, 0.0) is None
    monkeypatch.setattr(mip, "available", lambda: False)
    assert relaxation.sentence_bound(problem) is None


def test_a_pair_whose_relaxation_does_not_close_it_is_searched_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The relaxation's bound is only a bound: a pair it leaves open is searched on, and ends optimal."""
    from test_mip import coli_pair

    problem = coli_pair("757")
    empty = np.full(problem.U.shape[0], -1, np.int64)
    monkeypatch.setattr(relaxation, "sentence_relaxation",
                        lambda *args: relaxation.Relaxed(10**6, empty))  # closes nothing
    solution = solve_problem(problem, handover=True)
    assert solution.exact and solution.steps > mrp_pair.RELAX_AFTER


@budget(200)
@given(pairs(max_nodes=6))
def test_the_relaxations_map_is_a_map_worth_at_most_the_optimum(pair: Tuple[Graph, Graph]) -> None:
    """The map rounded from the relaxation is injective, and what it is worth (never more than the
    brute-force optimum) is what the pair's Solution takes when it beats the search's map."""
    gold, system = pair
    problem = build(normalize(gold), normalize(system))
    best = optimum(gold, system, maximal_only=True).best
    found = relaxation.sentence_relaxation(problem)
    assert found is not None
    bound, mapping = found.bound, found.mapping
    taken = mapping[mapping >= 0]
    assert mapping.shape[0] == problem.U.shape[0] and np.unique(taken).shape[0] == taken.shape[0]
    assert taken.shape[0] == 0 or taken.max() < problem.U.shape[1]
    assert mip.value_of(problem, mapping) <= best <= bound


def test_a_map_from_a_simplex_stopped_early_is_not_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """A simplex stopped at its iteration limit may hold an infeasible solution (two gold nodes above 1/2 on
    one system node): no map is taken from it, and the pair still ends at its optimum."""
    from test_mip import coli_pair

    problem = coli_pair("757")
    monkeypatch.setattr(relaxation, "SENTENCE_ITERATIONS", 3)
    monkeypatch.setattr(relaxation._SOLVERS, "highs", None, raising=False)
    found = relaxation.sentence_relaxation(problem)
    assert found is not None  # duals come at any iteration: the bound is still one
    taken = found[1][found[1] >= 0]
    assert np.unique(taken).shape[0] == taken.shape[0]
    assert found[0] >= solve_problem(problem).value


def test_a_highs_object_made_before_a_fork_is_not_used_after_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The per-thread HiGHS object is made again in a process other than the one that made it (a worker
    forked after the parent relaxed a pair inherits the parent's object, and HiGHS's threads with it)."""
    from test_mip import coli_pair

    problem = coli_pair("757")
    first = relaxation.sentence_relaxation(problem)
    made = relaxation._SOLVERS.highs
    relaxation.sentence_relaxation(problem)
    assert relaxation._SOLVERS.highs is made  # the same process: kept
    monkeypatch.setattr(relaxation._SOLVERS, "pid", -1)  # as a forked child sees it
    again = relaxation.sentence_relaxation(problem)
    assert relaxation._SOLVERS.highs is not made
    assert first is not None and again is not None and first[0] == again[0]
    assert np.array_equal(first[1], again[1])
