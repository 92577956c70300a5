"""A bound from the linear relaxation of the program (mrp.solver.mip): for documents whose program is too
large for HiGHS's branch and bound in the time left (:func:`bound`, in a child process), and for sentence
pairs the search has not closed after RELAX_AFTER steps (:func:`sentence_relaxation`, in this process:
often the optimum where the Lagrangian bound is one above it, with a map rounded from its solution; the
hardest coli sentence pair, 757: 39, proved in about 0.01 s where the search needed 4,377 steps from an even
split of the shares and needs 530 from mrp.solver.kernel.first_shares).

HiGHS's first-order method (PDLP) solves the relaxation of the program on the pairs reduced-cost fixing
leaves (``program.without``), within the time given; its row duals, wherever it stopped, are not trusted as a
bound but turned into one here, exactly: for any duals ``y >= 0`` of the rows ``A x <= b`` (x in [0, 1]),

    max c.x  <=  b.y + sum over columns j of max(0, c[j] - (A^T y)[j])

(weak duality with the bounds of x kept), computed in integers with ``y`` rounded down to multiples of
2^-20 (still >= 0, so still a bound).  Every map is a solution of the program with its own value, and
the values are integers: the floor of this bound bounds the Problem.  Merged coli documents of 64
sentences (second document, SMATCH): the root's Lagrangian bound stays at 1,236 over 1,233 found, the
relaxation's optimum is about 1,234.0.  On the two k = 64 documents (MRP) that reach it, PDLP solves the
relaxation in about half the time of HiGHS's interior point method (IPX, no crossover): the second in 31 s
(IPX: 72 s; a bound within one of the optimum after 61 s), the seventh in 62 s (IPX: 105 s; 87 s).
"""

from __future__ import annotations

import os
import threading
from typing import Any, NamedTuple, Optional, Tuple

import numpy as np

from mrp.process.forked import silenced_stdout
from mrp.solver import mip, program
from mrp.solver.problem import Problem
from mrp.solver.program import SENTENCE_COLUMNS

__all__ = ["SENTENCE_COLUMNS", "SENTENCE_ITERATIONS", "Relaxed", "bound", "dual_bound", "fixed",
           "reduced_costs", "relaxed_duals", "sentence_bound", "sentence_relaxation", "signed_bound"]

#: Duals are rounded down to multiples of 1 / DUAL_SCALE ...
DUAL_SCALE = 1 << 20
#: ... and capped at this (larger ones bound nothing better; the integer sums stay within int64).
DUAL_CAP = 1e4
#: HiGHS's time limit is this share of the seconds given (PDLP looks at the clock every iteration, a few
#: hundredths of a second on a k = 64 document): its process is killed at the seconds given.
LP_SHARE = 0.95
#: A program of up to SENTENCE_COLUMNS variables is relaxed in this process (a sentence pair's have a few
#: hundred to a few thousand) within this many simplex iterations at most (work, not time: the same bound
#: on any machine and load; a sentence pair's takes a few hundred, coli pair 757 237; a dense random
#: program of 3,700 variables 6,200, about 0.6 s)
SENTENCE_ITERATIONS = 8_000
#: HiGHS's primal simplex (its simplex_strategy 4) for a sentence pair's relaxation: on the 802 pairs of
#: Rematch's testbed the search leaves open, 10% less time than its default dual simplex, the same bounds
PRIMAL_SIMPLEX = 4


def dual_bound(model: Any, y: np.ndarray) -> int:
    """The floor of ``b.y + sum_j max(0, c[j] - (A^T y)[j])`` over the program ``model``
    (:class:`mrp.solver.program.Model`) for duals ``y`` (clipped to [0, DUAL_CAP], NaN as 0, rounded
    down): an upper bound of every solution's value, hence of every map's.

    Args:
        model: the program's arrays.
        y: one dual a row, or several sets of them (one a line: the least of their bounds).

    Returns:
        The bound.
    """
    return _bound_of(reduced_costs(model, y))


def reduced_costs(model: Any, y: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """In units of 1 / DUAL_SCALE, for each set of duals ``y`` (rounded as :func:`dual_bound` rounds them):
    ``b.y`` and every column's reduced cost ``c[j] - (A^T y)[j]``, exactly.

    Args:
        model: the program's arrays.
        y: one dual a row, or several sets of them (one a line).

    Returns:
        ``b.y`` of each set (int64[sets]) and the reduced costs (int64[sets, columns]).
    """
    y = np.nan_to_num(np.atleast_2d(np.asarray(y, np.float64)), nan=0.0, posinf=0.0, neginf=0.0)
    scaled = np.floor(np.clip(y, 0.0, DUAL_CAP) * DUAL_SCALE).astype(np.int64)
    cost, coefficient = np.rint(model.cost), np.rint(model.coefficient)
    if not np.array_equal(cost, model.cost) or not np.array_equal(coefficient, model.coefficient):
        raise ValueError("the program's costs and coefficients are integers")
    used = coefficient.astype(np.int64) * scaled[:, model.row_index]
    total = np.zeros((used.shape[0], used.shape[1] + 1), np.int64)
    np.cumsum(used, axis=1, out=total[:, 1:])
    start = np.asarray(model.column_start, np.int64)
    column = total[:, start[1:]] - total[:, start[:-1]]
    rows = (np.rint(model.upper).astype(np.int64) * scaled).sum(axis=1)
    return rows, cost.astype(np.int64) * DUAL_SCALE - column


def fixed(problem: Problem, model: Any, y: np.ndarray, best: int, mapping: np.ndarray,
          costs: Optional[Tuple[np.ndarray, np.ndarray]] = None) -> Problem:
    """The Problem without the node pairs and candidate edge matches that no map worth more than ``best``
    uses, by the reduced costs of the duals ``y`` (reduced-cost fixing; of ``y`` and ``-y``, whichever
    bounds lower), the pairs and matches of ``mapping`` (worth ``best``) kept.

    Forcing a column with reduced cost ``d < 0`` to 1 leaves the duals' bound at most ``bound + d``; where
    that is below ``best + 1``, a map using that pair (or matching that edge there: its program's solution
    sets the edge's variable to 1) is worth ``best`` at most.  So the optimum of the Problem returned is the
    optimum of ``problem`` (``mapping`` keeps its value there, a better map keeps its own), its bounds bound
    ``problem``, and a map's value there is at most its value in ``problem``.

    Args:
        problem: the Problem of the program ``model`` (built from the empty map or any).
        model: its program's arrays.
        y: HiGHS's row duals of the program's relaxation (either sign).
        best: the value of ``mapping``.
        mapping: the map to keep (gold position -> system position or -1).
        costs: :func:`reduced_costs` of ``y`` and ``-y`` (stacked in that order) when computed already.

    Returns:
        The smaller Problem (``problem`` itself when nothing is ruled out).
    """
    rows, reduced = costs if costs is not None else _signed_costs(model, y)
    bounds = rows + np.maximum(0, reduced).sum(axis=1)
    side = int(np.argmin(bounds))
    out = bounds[side] + np.minimum(0, reduced[side]) < (best + 1) * DUAL_SCALE
    X = model.xi.shape[0]
    if not out.any():
        return problem
    banned = np.zeros(problem.U.shape, np.bool_)
    banned[model.xi[out[:X]], model.xj[out[:X]]] = True
    return program.without(problem, banned, mapping, out[X:])


def _signed_costs(model: Any, y: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """:func:`reduced_costs` of ``y`` and ``-y``, in that order."""
    return reduced_costs(model, np.stack([np.asarray(y, np.float64), -np.asarray(y, np.float64)]))


def _bound_of(costs: Tuple[np.ndarray, np.ndarray]) -> int:
    """The least bound (:func:`dual_bound`) of the sets of duals whose :func:`reduced_costs` are ``costs``."""
    rows, reduced = costs
    return int(((rows + np.maximum(0, reduced).sum(axis=1)) // DUAL_SCALE).min())


def signed_bound(model: Any, y: np.ndarray) -> int:
    """:func:`dual_bound` of HiGHS's row duals ``y`` of the program's maximization: the lesser of the bounds
    of ``y`` and ``-y`` (whichever sign is HiGHS's, both are bounds), one after the other (a document's
    program has millions of coefficients: both at once would hold twice the arrays)."""
    return min(dual_bound(model, y), dual_bound(model, -np.asarray(y)))


def relaxed_duals(model: Any, seconds: Optional[float]) -> Optional[np.ndarray]:
    """HiGHS's PDLP on the program's relaxation for ``seconds`` at most: its row duals wherever it stopped
    (None when it has none)."""
    if not mip.available():
        raise RuntimeError("HiGHS (highspy) cannot be loaded")
    highspy = mip.highs_module()
    with silenced_stdout():
        solver = highspy.Highs()
    for option, setting in (("output_flag", False), ("threads", 1), ("random_seed", 0), ("presolve", "off"),
                            ("solver", "pdlp")):
        solver.setOptionValue(option, setting)
    if seconds is not None:
        solver.setOptionValue("time_limit", max(0.0, seconds))
    mip.pass_model(solver, model, False)
    solver.run()
    solution = solver.getSolution()
    if not solution.dual_valid or len(solution.row_dual) != model.rows:
        return None
    return np.asarray(solution.row_dual, np.float64)


def bound(problem: Problem, mapping: np.ndarray, seconds: Optional[float], stop: np.ndarray,
          banned: Optional[np.ndarray] = None) -> Optional[int]:
    """An upper bound of the Problem from its relaxation (``banned``: pairs no map better than
    ``mapping`` uses, left out), or None (HiGHS missing or stopped, the program too large)."""
    if not mip.available() or stop[0]:
        return None
    kept = problem if banned is None else program.without(problem, banned, mapping)
    model = program.model_of(kept, mapping)
    if model is None or stop[0]:
        return None
    limit = None if seconds is None else seconds * LP_SHARE
    duals, _ = mip.in_child("mrp.solver.relaxation:relaxed_duals", (model, limit), seconds, stop)
    if duals is None:
        return None
    return signed_bound(model, duals)


class Relaxed(NamedTuple):
    """A sentence pair's relaxation (:func:`sentence_relaxation`)."""

    #: the bound its duals give (:func:`dual_bound`)
    bound: int
    #: the map rounded from its solution (the empty map when its values do not form one)
    mapping: np.ndarray
    #: the program's arrays (mrp.solver.program.Model), None when no pair scores
    model: Any = None
    #: HiGHS's row duals (either sign), None when no pair scores
    duals: Optional[np.ndarray] = None
    #: :func:`reduced_costs` of ``duals`` and ``-duals`` (for :func:`fixed`), None when no pair scores
    costs: Optional[Tuple[np.ndarray, np.ndarray]] = None


def sentence_bound(problem: Problem, seconds: Optional[float] = None) -> Optional[int]:
    """An upper bound of a small Problem from its relaxation (:func:`sentence_relaxation`), or None."""
    found = sentence_relaxation(problem, seconds)
    return None if found is None else found[0]


def sentence_relaxation(problem: Problem, seconds: Optional[float] = None) -> Optional[Relaxed]:
    """An upper bound of a small Problem from its relaxation, solved by HiGHS's simplex in this process (no
    child to start), and a map rounded from the relaxation's solution.

    Args:
        problem: the Problem (its program is built here).
        seconds: the pair's time left (None: no cap).

    Returns:
        The row duals turned into a bound exactly (:func:`dual_bound`), the map taking each pair whose
        variable is above 1/2 when they form a map (they do when the simplex ended: often the optimum,
        where the relaxation is integral), else the empty map, and the program and its duals (for
        :func:`fixed`); None when HiGHS is missing, the program has more than SENTENCE_COLUMNS variables,
        or no duals came within SENTENCE_ITERATIONS simplex iterations and ``seconds``.
    """
    if seconds is not None and seconds <= 0:
        return None
    if not problem.complete or not mip.available() or program.columns(problem) > SENTENCE_COLUMNS:
        return None
    n = problem.U.shape[0]
    model = program.model_of(problem, np.full(n, -1, np.int64))
    if model is None:  # no pair scores (it is not too large): every map is worth 0
        return Relaxed(0, np.full(n, -1, np.int64))
    solver = _sentence_solver()
    solver.setOptionValue("time_limit", float("inf") if seconds is None else float(seconds))
    try:
        mip.pass_model(solver, model, False)
        solver.run()
        solution = solver.getSolution()
        duals = np.asarray(solution.row_dual, np.float64)
        values = np.asarray(solution.col_value, np.float64)
        valid = solution.dual_valid and duals.shape[0] == model.rows
    finally:
        solver.clearModel()
    if not valid:
        return None
    # a simplex stopped at its iteration limit may hold an infeasible solution: kept only when a map
    mapping = mip.rounded(model, values, n) if values.shape[0] == model.cost.shape[0] else None
    if mapping is None:
        mapping = np.full(n, -1, np.int64)
    costs = _signed_costs(model, duals)  # both signs at once: the bound is the lesser (signed_bound)
    return Relaxed(_bound_of(costs), mapping, model, duals, costs)


#: this thread's HiGHS for sentence relaxations (one per thread and process: making one costs about as much
#: as a sentence pair's simplex)
_SOLVERS = threading.local()


def _sentence_solver() -> Any:
    """This thread's HiGHS object for :func:`sentence_bound`, made once with its options: quiet, one thread,
    seed 0, no presolve (a sentence pair's program has a few hundred rows: presolving it cost a quarter of
    the time and changed no bound on the coli testbed), SENTENCE_ITERATIONS iterations."""
    solver = getattr(_SOLVERS, "highs", None)
    if getattr(_SOLVERS, "pid", None) != os.getpid():  # made before a fork: the child makes its own
        solver = None
    if solver is None:
        with silenced_stdout():  # highspy >= 1.16 prints a banner when a solver is made
            solver = mip.highs_module().Highs()
        for option, setting in (("output_flag", False), ("threads", 1), ("random_seed", 0),
                                ("presolve", "off"), ("simplex_strategy", PRIMAL_SIMPLEX),
                                ("simplex_iteration_limit", SENTENCE_ITERATIONS)):
            solver.setOptionValue(option, setting)
        _SOLVERS.highs, _SOLVERS.pid = solver, os.getpid()
    return solver
