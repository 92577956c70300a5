"""Proving what the branch and bound leaves open: the Problem as a mixed-integer program, solved by HiGHS.

The program (``x`` binary, ``y`` continuous in [0, 1]):

    maximize   sum U[i, j] x[i, j]  +  sum over candidates k of cw[k] y[k]
    subject to sum_j x[i, j] <= 1 for each gold node i, sum_i x[i, j] <= 1 for each system node j,
               for each gold edge e = (a, b) and system node c:
                   sum of y[k] over e's candidates leaving c   <= x[a, c]
                   sum of y[k] over e's candidates entering c  <= x[b, c]
               for each system edge f = (c, d) and gold node a:
                   sum of y[k] over f's candidates from gold edges leaving a  <= x[a, c]
                   sum of y[k] over f's candidates from gold edges entering a <= x[a, d]

Each sum holds at most one candidate that a map can realise, so every map is
feasible with its own objective, and for integral ``x`` the best ``y`` is
integral: the optimum is the Problem's.  Grouping the candidates per node
(rather than ``y[k] <= x`` one by one) makes the linear relaxation far
tighter; it closes the gaps the Lagrangian bound leaves on document-sized
graphs.  Only pairs (i, j) that can score get an ``x``.

HiGHS (``highspy``) is imported only when a pair needs it.  Its bound is
floating point: the bound reported is ``floor(dual bound + 1e-6)``, within
HiGHS's feasibility tolerances (1e-7) of the true one on these integer data.
The map it returns is checked and valued here, not taken on trust.
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable, List, NamedTuple, Optional

import numpy as np

from .problem import Problem

__all__ = ["MAX_COLUMNS", "Proof", "available", "prove", "value_of"]

#: Programs with more variables than this are not built (memory and time beyond any per-pair budget).
MAX_COLUMNS = 1_000_000
#: Slack added to HiGHS's floating-point dual bound before rounding it down to an integer.
_EPS = 1e-6

_HIGHSPY: Any = None
#: False turns the program off (``mrp-score --no-mip``): the search alone then decides every pair.
ENABLED = True


def available() -> bool:
    """Whether HiGHS can be imported (imported on first use)."""
    global _HIGHSPY
    if _HIGHSPY is None:
        try:
            import highspy
            _HIGHSPY = highspy
        except ImportError:
            _HIGHSPY = False
    return bool(_HIGHSPY)


def version() -> str:
    """HiGHS's version, or "" when it is not installed."""
    if not available():
        return ""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed
    try:
        return installed("highspy")
    except PackageNotFoundError:  # pragma: no cover - imported from elsewhere
        return "?"


class Proof(NamedTuple):
    """What the program found: a map with its value, an upper bound, and whether it ran to the end."""

    mapping: np.ndarray
    value: int
    #: None when HiGHS was stopped before it had a bound
    bound: Optional[int]
    #: True when HiGHS proved its answer optimal (else it was stopped and ``bound`` is what it had)
    finished: bool


def value_of(problem: Problem, mapping: np.ndarray) -> int:
    """The objective of a map (gold position -> system position or -1) under the Problem."""
    pi = np.asarray(mapping, np.int64)
    rows = np.nonzero(pi >= 0)[0]
    total = int(problem.U[rows, pi[rows]].sum())
    if problem.cc.shape[0]:
        edge = np.repeat(np.arange(problem.src.shape[0]), np.diff(problem.cptr))
        hit = (pi[problem.src[edge]] == problem.cc) & (pi[problem.tgt[edge]] == problem.cd)
        total += int(problem.cw[hit].sum())
    return total


def _grouped(keys: np.ndarray, first: int, columns: np.ndarray, x_of: Callable[[np.ndarray], np.ndarray],
             rows: List[Any]) -> int:
    """Rows "sum of y over each key group - x[group] <= 0"; returns the number of rows added."""
    unique, inverse = np.unique(keys, return_inverse=True)
    rows.append((first + inverse, columns))
    rows.append((first + np.arange(unique.shape[0]), x_of(unique), -1.0))
    return int(unique.shape[0])


def prove(problem: Problem, mapping: np.ndarray, seconds: Optional[float],
          stop: np.ndarray) -> Optional[Proof]:
    """Solve the Problem's program from the map ``mapping`` within ``seconds`` (None: no limit).

    Stops when ``stop[0]`` is set.  Returns None when HiGHS is missing or the
    program is too large to build.
    """
    if not available():
        return None
    highspy = _HIGHSPY
    started = time.monotonic()
    U = problem.U
    n, m = U.shape
    E, K = problem.src.shape[0], problem.cc.shape[0]
    edge = np.repeat(np.arange(E), np.diff(problem.cptr))
    a, b = problem.src[edge], problem.tgt[edge]
    useful = U > 0
    useful[a, problem.cc] = True
    useful[b, problem.cd] = True
    xi, xj = np.nonzero(useful)
    X = xi.shape[0]
    if X == 0:  # nothing can score: every map is worth 0
        return Proof(np.full(n, -1, np.int64), 0, 0, True)
    if X + K > MAX_COLUMNS:
        return None
    x_id = np.full((n, m), -1, np.int64)
    x_id[xi, xj] = np.arange(X)
    ys = X + np.arange(K)
    rows: List[Any] = [(xi, np.arange(X)), (n + xj, np.arange(X))]
    count = n + m
    if K:
        count += _grouped(edge * m + problem.cc, count, ys, lambda u: x_id[problem.src[u // m], u % m], rows)
        count += _grouped(edge * m + problem.cd, count, ys, lambda u: x_id[problem.tgt[u // m], u % m], rows)
        count += _grouped(problem.cf * n + a, count, ys, lambda u: x_id[u % n, problem.ssrc[u // n]], rows)
        count += _grouped(problem.cf * n + b, count, ys, lambda u: x_id[u % n, problem.stgt[u // n]], rows)
    row = np.concatenate([part[0] for part in rows])
    column = np.concatenate([part[1] for part in rows])
    coefficient = np.concatenate([np.full(part[0].shape[0], part[2] if len(part) > 2 else 1.0)
                                  for part in rows])
    order = np.lexsort((row, column))
    lp = highspy.HighsLp()
    lp.num_col_ = X + K
    lp.num_row_ = count
    lp.sense_ = highspy.ObjSense.kMaximize
    lp.col_cost_ = np.concatenate([U[xi, xj], problem.cw]).astype(np.float64)
    lp.col_lower_ = np.zeros(X + K)
    lp.col_upper_ = np.ones(X + K)
    lp.row_lower_ = np.full(count, -highspy.kHighsInf)
    lp.row_upper_ = np.concatenate([np.ones(n + m), np.zeros(count - n - m)])
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.searchsorted(column[order], np.arange(X + K + 1)).astype(np.int32)
    lp.a_matrix_.index_ = row[order].astype(np.int32)
    lp.a_matrix_.value_ = coefficient[order]
    lp.integrality_ = [highspy.HighsVarType.kInteger] * X + [highspy.HighsVarType.kContinuous] * K
    solver = highspy.Highs()
    for option, setting in (("output_flag", False), ("threads", 1), ("random_seed", 0),
                            ("mip_rel_gap", 0.0), ("mip_abs_gap", 1 - 1e-4)):
        solver.setOptionValue(option, setting)
    if seconds is not None:
        solver.setOptionValue("time_limit", max(0.0, seconds - (time.monotonic() - started)))
    solver.passModel(lp)
    start = _start(problem, mapping, x_id, X, K, edge)
    solution = highspy.HighsSolution()
    solution.col_value = start
    solution.value_valid = True
    solver.setSolution(solution)

    def interrupt(event: Any) -> None:
        if stop[0]:
            event.interrupt()

    for callback in (solver.cbMipInterrupt, solver.cbSimplexInterrupt, solver.cbIpmInterrupt):
        callback.subscribe(interrupt)
    if stop[0]:
        return None
    solver.run()
    status = solver.getModelStatus()
    info = solver.getInfo()
    found = np.asarray(mapping, np.int64).copy()
    best = value_of(problem, found)
    columns = np.asarray(solver.getSolution().col_value[:X]) if X else np.zeros(0)
    if columns.shape[0] == X:
        candidate = np.full(n, -1, np.int64)
        chosen = np.nonzero(columns > 0.5)[0]
        candidate[xi[chosen]] = xj[chosen]
        injective = np.unique(xj[chosen]).shape[0] == np.unique(xi[chosen]).shape[0] == chosen.shape[0]
        if injective:
            value = value_of(problem, candidate)
            if value > best:
                found, best = candidate, value
    dual = float(info.mip_dual_bound)
    bound = math.floor(dual + _EPS) if math.isfinite(dual) else None
    finished = status == highspy.HighsModelStatus.kOptimal
    return Proof(found, best, None if bound is None else max(best, bound), finished)


def _start(problem: Problem, mapping: np.ndarray, x_id: np.ndarray, X: int, K: int,
           edge: np.ndarray) -> np.ndarray:
    """The program's variables for a map (a feasible starting solution)."""
    pi = np.asarray(mapping, np.int64)
    start = np.zeros(X + K)
    rows = np.nonzero(pi >= 0)[0]
    ids = x_id[rows, pi[rows]]
    start[ids[ids >= 0]] = 1.0
    if K:
        hit = (pi[problem.src[edge]] == problem.cc) & (pi[problem.tgt[edge]] == problem.cd)
        start[X:][hit] = 1.0
    return start
