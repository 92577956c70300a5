"""The bound of the program's linear relaxation (mrp.solver.relaxation): never below the optimum, from any
duals (HiGHS's, stopped early, or arbitrary ones), and what documents too large for the program get."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

import numpy as np
import pytest

from mrp.solver import handover, mip, program, relaxation
from mrp.solver.kernel import fix_size, settle

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_handover import brute, maps, random_problem  # noqa: E402

needs_highs = pytest.mark.skipif(not mip.available(), reason="HiGHS (highspy) is not installed")


def nobody(n: int) -> np.ndarray:
    return np.full(n, -1, np.int64)


def small_programs(rng: random.Random, count: int, labels: Optional[int] = None) -> Iterator[Tuple[Any, Any]]:
    """(Problem, its program) for ``count`` random Problems of 1-4 nodes a side (those whose program
    exists), ``labels`` edge labels (None: 1 or 2 at random)."""
    for _ in range(count):
        n, m = rng.randint(1, 4), rng.randint(1, 4)
        problem = random_problem(rng, n, m, labels=labels or rng.choice((1, 2)))
        model = program.model_of(problem, nobody(n))
        if model is not None:
            yield problem, model


def test_any_nonnegative_duals_bound_the_optimum() -> None:
    rng = random.Random(251)
    np_rng = np.random.default_rng(251)
    tight = 0
    for problem, model in small_programs(rng, 60):
        best = brute(problem)
        for scale in (0.0, 0.3, 1.0, 3.0):
            y = np_rng.random(model.rows) * scale - scale / 4  # some negative: clipped to 0
            found = relaxation.dual_bound(model, y)
            assert found >= best
            tight += found == best
        assert relaxation.dual_bound(model, np.zeros(model.rows)) == int(np.maximum(model.cost, 0).sum())
    assert tight > 0


@needs_highs
def test_highs_duals_bound_the_optimum_however_early_stopped() -> None:
    rng = random.Random(252)
    stop = np.zeros(1, np.int64)
    below_root = 0
    for _ in range(40):
        n, m = rng.randint(2, 5), rng.randint(2, 5)
        problem = random_problem(rng, n, m)
        best = brute(problem)
        for seconds in (None, 0.0):
            found = relaxation.bound(problem, nobody(n), seconds, stop)
            assert found is None or found >= best
        value, bound, pi, _, banned = settle(problem, 700, stop, np.zeros(0, np.int64), fix_size(700))
        found = relaxation.bound(mip.without(problem, banned, pi), pi, None, stop)
        assert found is None or found >= best
        below_root += found is not None and found < bound
    assert below_root > 0
    assert relaxation.bound(problem, nobody(problem.U.shape[0]), None, np.ones(1, np.int64)) is None


@needs_highs
def test_a_document_too_large_for_the_program_gets_the_relaxations_bound(monkeypatch) -> None:
    rng = random.Random(253)
    monkeypatch.setattr(mip, "fits", lambda program, seconds: False)
    open_at_root = 0
    for _ in range(60):
        n, m = rng.randint(3, 5), rng.randint(3, 5)
        problem = random_problem(rng, n, m)
        best = brute(problem)
        seed = np.full(n, -1, np.int64)
        value, bound, _, _, _ = settle(problem, 700, np.zeros(1, np.int64), seed, fix_size(700))
        if value >= bound:
            continue
        open_at_root += 1
        done = handover.document(problem, 0, 700, None, np.zeros(1, np.int64), seed, 60.0)  # no search
        assert done.used and done.steps == 0
        assert bound >= done.bound >= best >= done.value
        assert done.exact == (done.value == done.bound)
    assert open_at_root > 3


@needs_highs
def test_the_first_order_methods_duals_reach_the_relaxations_optimum() -> None:
    # given time, PDLP's duals bound as tightly as the relaxation's optimum (here from HiGHS's simplex)
    rng = random.Random(254)
    below_sum = 0
    for _ in range(30):
        n, m = rng.randint(3, 6), rng.randint(3, 6)
        problem = random_problem(rng, n, m)
        model = program.model_of(problem, nobody(n))
        if model is None:
            continue
        duals = relaxation.relaxed_duals(model, None)
        assert duals is not None
        found = min(relaxation.dual_bound(model, duals), relaxation.dual_bound(model, -duals))
        optimum = relaxation.sentence_bound(problem)
        assert optimum is not None and found == optimum >= brute(problem)
        below_sum += found < int(np.maximum(model.cost, 0).sum())
    assert below_sum > 10


def test_duals_in_sets_bound_as_the_least_of_their_bounds() -> None:
    rng = random.Random(17)
    np_rng = np.random.default_rng(17)
    for _, model in small_programs(rng, 30):
        y = np_rng.normal(size=model.rows)
        y[np_rng.random(model.rows) < 0.1] = np.nan
        each = [relaxation.dual_bound(model, duals) for duals in (y, -y, 2 * y)]
        assert relaxation.dual_bound(model, np.stack([y, -y, 2 * y])) == min(each)
        assert relaxation.signed_bound(model, y) == min(each[:2])


@needs_highs
@pytest.mark.parametrize("integral", [False, True])
def test_the_program_reaches_highs_as_its_arrays_say(integral: bool) -> None:
    rng = random.Random(5)
    highspy = mip.highs_module()
    for _, model in small_programs(rng, 10, labels=2):
        solver = highspy.Highs()
        mip.pass_model(solver, model, integral)
        lp = solver.getLp()
        X, size = model.xi.shape[0], model.cost.shape[0]
        assert (lp.num_col_, lp.num_row_, lp.sense_) == (size, model.rows, highspy.ObjSense.kMaximize)
        assert np.array_equal(lp.col_cost_, model.cost) and np.array_equal(lp.row_upper_, model.upper)
        assert np.array_equal(lp.col_lower_, np.zeros(size)) and np.array_equal(lp.col_upper_, np.ones(size))
        assert np.all(np.isneginf(lp.row_lower_))
        matrix = lp.a_matrix_
        assert np.array_equal(matrix.start_, model.column_start) and np.array_equal(matrix.index_,
                                                                                      model.row_index)
        assert np.array_equal(matrix.value_, model.coefficient)
        kinds = [int(kind) for kind in lp.integrality_]
        integer = int(highspy.HighsVarType.kInteger)
        assert kinds == ([integer] * X if integral else [0] * X) + [0] * (size - X)


@needs_highs
def test_fixing_by_the_relaxations_reduced_costs_keeps_every_better_map_and_the_optimum() -> None:
    """relaxation.fixed: every map worth more than the incumbent keeps its value in the smaller Problem (so
    its optimum is the optimum), no map gains there, and the incumbent keeps its own; from HiGHS's duals
    and from arbitrary ones, with the incumbent at the optimum and below it."""
    rng = random.Random(256)
    np_rng = np.random.default_rng(256)
    smaller = 0
    for problem, model in small_programs(rng, 60):
        every = list(maps(*problem.U.shape))
        values = [mip.value_of(problem, pi) for pi in every]
        relaxed = relaxation.sentence_relaxation(problem)
        assert relaxed is not None and relaxed.duals is not None
        for duals in (relaxed.duals, np_rng.random(model.rows), np_rng.normal(size=model.rows)):
            for incumbent in {values.index(max(values)), rng.randrange(len(every))}:
                best = values[incumbent]
                fixed = relaxation.fixed(problem, model, duals, best, every[incumbent])
                smaller += fixed.cc.shape[0] < problem.cc.shape[0] or fixed.U.sum() < problem.U.sum()
                for pi, value in zip(every, values):
                    there = mip.value_of(fixed, pi)
                    assert there <= value and (value <= best or there == value)
                assert mip.value_of(fixed, every[incumbent]) == best and brute(fixed) == max(values)
    assert smaller > 20


def _row_set(model: Any) -> List[Tuple[Tuple[int, float], ...]]:
    """The program's rows, each as its (column, coefficient) entries, and its upper side."""
    entries: Dict[int, List[Tuple[int, float]]] = {}
    for column in range(model.cost.shape[0]):
        for k in range(model.column_start[column], model.column_start[column + 1]):
            entries.setdefault(int(model.row_index[k]), []).append((column, float(model.coefficient[k])))
    return [tuple(entries.get(r, [])) + ((-1, float(model.upper[r])),) for r in range(model.rows)]


def test_the_program_holds_each_row_of_its_formulation_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """program.model_of leaves out a grouped row only where another row says the same: its grouped rows
    (upper side 0) are distinct, and with every group kept (the formulation as written) the same rows."""
    rng = random.Random(258)
    fewer = 0
    for problem, model in small_programs(rng, 60):
        with monkeypatch.context() as patch:
            patch.setattr(program, "_distinct", lambda inverse, groups, K: np.ones(groups, np.bool_))
            full = program.model_of(problem, nobody(problem.U.shape[0]))
        rows, every = _row_set(model), _row_set(full)
        grouped = [row for row in rows if row[-1] == (-1, 0.0)]
        assert len(set(grouped)) == len(grouped) and set(rows) == set(every)
        fewer += len(rows) < len(every)
    assert fewer > 20
